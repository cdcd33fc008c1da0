/* A guest's bind mounts (guest_binds.h). */
#include "guest_binds.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "util.h"

int guest_binds_apply(const char *path, char *err, size_t errsz)
{
	struct buf b = {0};
	char chunk[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	int rc = 0;
	for (size_t off = 0; off < b.len && !rc;) {
		const char *src = b.data + off;
		size_t ls = strnlen(src, b.len - off);
		if (off + ls + 1 >= b.len)
			break;
		const char *dst = src + ls + 1;
		size_t ld = strnlen(dst, b.len - off - ls - 1);
		if (off + ls + 1 + ld >= b.len)
			break;
		off += ls + 1 + ld + 1;
		if ((rc = mkdir_p(dst, err, errsz)))
			break;
		if (mount(src, dst, NULL, MS_BIND, NULL)) {
			snprintf(err, errsz, "mount --bind %s %s: %s", src, dst, strerror(errno));
			rc = -1;
		}
	}
	buf_free(&b);
	return rc;
}
