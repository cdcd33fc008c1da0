/* Trace files at rest: the text a capture wrote (trace_capture.h) is kept
 * gzip-compressed (zlib; RFC 1952, so zcat and Python's gzip read it). */
#ifndef SCHEDRIG_TRACE_GZ_H
#define SCHEDRIG_TRACE_GZ_H

#include <stddef.h>

#include "util.h"

/* Compress the file src into dst (gzip, zlib level TRACE_GZ_LEVEL): written
 * to dst.tmp, then renamed, so dst is whole or absent. 0, or -1 with err
 * (nothing of dst left). */
int trace_gz_write(const char *src, const char *dst, char *err, size_t errsz);

/* The uncompressed bytes of the gzip file path appended to b (NUL
 * terminated through buf_str), at most max bytes: a larger one, or one
 * that is not gzip or is cut short, is an error. 0, or -1 with err. */
int trace_gz_read(const char *path, struct buf *b, size_t max, char *err, size_t errsz);

#define TRACE_GZ_LEVEL 4

#endif
