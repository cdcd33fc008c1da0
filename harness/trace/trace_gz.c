/* gzip files of traces (trace_gz.h). */
#include "trace_gz.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define GZ_CHUNK (1 << 20)

int trace_gz_write(const char *src, const char *dst, char *err, size_t errsz)
{
	FILE *in = fopen(src, "rb");
	if (!in)
		return err_printf(err, errsz, "%s: %s", src, strerror(errno));
	char *tmp = xasprintf("%s.tmp", dst);
	char mode[8];
	snprintf(mode, sizeof(mode), "wb%d", TRACE_GZ_LEVEL);
	gzFile out = gzopen(tmp, mode);
	char *chunk = xmalloc(GZ_CHUNK);
	int rc = 0;
	if (!out) {
		rc = err_printf(err, errsz, "%s: %s", tmp, strerror(errno ? errno : ENOMEM));
	} else {
		size_t n;
		while (!rc && (n = fread(chunk, 1, GZ_CHUNK, in)) > 0)
			if (gzwrite(out, chunk, (unsigned)n) != (int)n)
				rc = err_printf(err, errsz, "%s: write failed", tmp);
		if (!rc && ferror(in))
			rc = err_printf(err, errsz, "%s: %s", src, strerror(errno));
		if (gzclose(out) != Z_OK && !rc)
			rc = err_printf(err, errsz, "%s: write failed (disk full?)", tmp);
	}
	fclose(in);
	free(chunk);
	if (!rc && rename(tmp, dst))
		rc = err_printf(err, errsz, "%s: %s", dst, strerror(errno));
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

int trace_gz_read(const char *path, struct buf *b, size_t max, char *err, size_t errsz)
{
	gzFile in = gzopen(path, "rb");
	if (!in)
		return err_printf(err, errsz, "%s: %s", path, strerror(errno ? errno : ENOMEM));
	char *chunk = xmalloc(GZ_CHUNK);
	size_t total = 0;
	int n, rc = 0;
	while ((n = gzread(in, chunk, GZ_CHUNK)) > 0) {
		if (gzdirect(in)) {
			rc = err_printf(err, errsz, "%s: not a gzip file", path);
			break;
		}
		total += (size_t)n;
		if (total > max) {
			rc = err_printf(err, errsz, "%s: more than %zu bytes uncompressed", path, max);
			break;
		}
		buf_append(b, chunk, (size_t)n);
	}
	int zerr = Z_OK;
	const char *msg = n < 0 ? gzerror(in, &zerr) : NULL;
	if (!rc && n < 0)
		rc = err_printf(err, errsz, "%s: not a whole gzip file (%s)", path, msg ? msg : "?");
	gzclose(in);
	free(chunk);
	if (!b->data)
		buf_append(b, "", 0);
	return rc;
}
