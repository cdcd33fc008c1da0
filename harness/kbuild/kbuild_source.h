/* The source of a kernel the rig builds (kernels: NAME: source:), its
 * identity, and the private copy of its tree that is patched and built
 * (the user's tree is only read).
 *   - linux-source-X.Y: Debian's package. Installed, its tarball is
 *     /usr/src/linux-source-X.Y.tar.xz; otherwise `apt-get download` fetches
 *     it into CACHE/debs/ and `dpkg-deb -x` unpacks it there. Identity:
 *     "debian PACKAGE VERSION" (and the tarball's size).
 *   - a tar archive (any file that is not a directory): identity "tarball
 *     SHA256" of its bytes.
 *   - a directory: a git work tree gives "git COMMIT (DESCRIBE) diff
 *     SHA256" (sha256 of `git diff HEAD`: uncommitted changes count, files
 *     git does not track do not); any other tree gives "tree SHA256", the
 *     sha256 of every file's path, size and mtime.
 * A tarball is unpacked once into CACHE/sources/ID/ (into a temporary
 * directory renamed when complete). */
#ifndef SCHEDRIG_KBUILD_SOURCE_H
#define SCHEDRIG_KBUILD_SOURCE_H

#include <stddef.h>

struct ksource {
	char *written;   /* source: as written */
	char *identity;  /* as above: goes into the build key and the provenance */
	char *dir;       /* a directory source: the tree */
	char *tarball;   /* a package or tarball source: the archive */
};

/* Find the source and its identity (no unpacking; a package not installed
 * and not in CACHE/debs is downloaded). Program output goes to log.
 * Returns 0, or -1 with err naming the source. */
int ksource_resolve(const char *written, const char *cache, const char *log,
		    struct ksource *s, char *err, size_t errsz);

/* Copy the tree into dest (an existing empty directory), unpacking a
 * tarball into CACHE/sources/ first when it is not there yet: a tarball's
 * or package's tree in the cache as hard links (`cp -al`: a 6.12 tree's
 * 1.7 GB in seconds; the cached tree is never written, see kseries_apply),
 * a directory source as a copy (`cp -a`) without its top-level .git.
 * Returns 0, -1 with err, or KB_INTERRUPTED. */
int ksource_copy(const struct ksource *s, const char *cache, const char *dest, const char *log,
		 char *err, size_t errsz);

void ksource_free(struct ksource *s);

#endif
