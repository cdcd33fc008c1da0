/* Base64 (RFC 4648 section 4, the standard alphabet, '=' padding): the
 * agent protocol's raw bytes and MIME encoded-words in mail headers. */
#ifndef SCHEDRIG_BASE64_H
#define SCHEDRIG_BASE64_H

#include <stddef.h>

#include "util.h"

/* Append the base64 of data[0..len) to out (4 characters per 3 bytes or
 * part of 3; out holds "" afterwards even when len is 0). */
void base64_encode(struct buf *out, const void *data, size_t len);

/* Append the bytes that text[0..len) encodes to out. Returns 0, or -1 on a
 * character outside the alphabet, '=' anywhere but the last two places, or
 * a length that is not a multiple of 4 (out may then hold part). */
int base64_decode(struct buf *out, const char *text, size_t len);

#endif
