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
 *   - a directory with commit: (a revision of its git repository): that
 *     commit's tree, never the work tree. Identity "git commit HASH" (the
 *     full hash of `git rev-parse --verify COMMIT^{commit}`); `git describe`
 *     of it goes into the provenance, not the key (a tag added later does
 *     not change what is built).
 * A tarball is unpacked once into CACHE/sources/ID/ (into a temporary
 * directory renamed when complete; ID from the identity). A commit is
 * unpacked the same way from `git -C DIR archive --format=tar` written
 * into that temporary directory and removed once it is unpacked: the
 * user's repository is only read (no checkout, no worktree). */
#ifndef SCHEDRIG_KBUILD_SOURCE_H
#define SCHEDRIG_KBUILD_SOURCE_H

#include <stddef.h>

struct ksource {
	char *written;   /* source: as written */
	char *identity;  /* as above: goes into the build key and the provenance */
	char *dir;       /* a directory source: the tree */
	char *tarball;   /* a package or tarball source: the archive */
	char *commit;    /* commit: resolved, the full hash; NULL: none */
	char *describe;  /* commit: `git describe --tags --always` of it ("" when
			  * git has none); NULL: none */
};

/* Find the source and its identity (no unpacking; a package not installed
 * and not in CACHE/debs is downloaded). commit (NULL: none) is a revision
 * of the git repository written names, resolved with kgit_resolve. Program
 * output goes to log. Returns 0, or -1 with err naming the source (or
 * "source DIR: 'X' is not a commit of DIR (...)"). */
int ksource_resolve(const char *written, const char *commit, const char *cache,
		    const char *log, struct ksource *s, char *err, size_t errsz);

/* Copy the tree into dest (an existing empty directory), unpacking a
 * tarball or a commit into CACHE/sources/ first when it is not there yet:
 * a tarball's, package's or commit's tree in the cache as hard links (`cp -al`: a 6.12 tree's
 * 1.7 GB in seconds; the cached tree is never written, see kseries_apply),
 * a directory source as a copy (`cp -a`) without its top-level .git.
 * Returns 0, -1 with err, or KB_INTERRUPTED. */
int ksource_copy(const struct ksource *s, const char *cache, const char *dest, const char *log,
		 char *err, size_t errsz);

void ksource_free(struct ksource *s);

#endif
