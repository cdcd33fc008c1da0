/* SHA-256 for the kernel builds (OpenSSL's libcrypto EVP): the build key
 * (the sha256 of key.txt, kbuild_inputs.h), patches, config texts, files
 * of the tree. */
#ifndef SCHEDRIG_KBUILD_KEY_H
#define SCHEDRIG_KBUILD_KEY_H

#include <stddef.h>

/* sha256 of len bytes as 64 lowercase hex digits and a NUL into out. */
void kb_sha256_hex(const void *data, size_t len, char out[65]);
/* sha256 of the file at path into out. Returns 0, or -1 (errno set). */
int kb_sha256_file(const char *path, char out[65]);

#endif
