/* The source of a kernel the rig builds (kernels: NAME: source:), its
 * identity, and the private copy of its tree that is patched and built
 * (the user's tree is only read). The identity is what the build key holds
 * (kbuild_inputs.h): the source's content, never a name for it.
 *   - linux-source-X.Y (ksource_is_package): Debian's package. Installed,
 *     its tarball is /usr/src/linux-source-X.Y.tar.xz; otherwise `apt-get
 *     download` fetches it into CACHE/debs/ and `dpkg-deb -x` unpacks it
 *     there. Identity "tarball SHA256" of the tarball's bytes; origin
 *     "debian PACKAGE VERSION".
 *   - a tar archive (any file that is not a directory): identity "tarball
 *     SHA256" of its bytes.
 *   - a directory: identity "tree SHA256", the digest of everything in it
 *     (kbuild_tree.h: every file's bytes, tracked by git or not, ignored
 *     or not; its own top-level .git left out), with the fast path's index
 *     in CACHE/trees/. When the directory has a .git of its own, the
 *     origin is "git HEAD (DESCRIBE)" of that repository (git
 *     --git-dir=DIR/.git, never a repository the directory sits in).
 *   - a directory with commit: (a revision of its git repository): that
 *     commit's tree, never the work tree. Identity "git commit HASH" (the
 *     full hash of `git rev-parse --verify COMMIT^{commit}`); `git
 *     describe` of it goes into the provenance, not the key (a tag added
 *     later does not change what is built).
 * Hashing a tarball or a tree reads only what changed since the last time
 * (inode, size, mtime, ctime; kbuild_tree.h).
 * A tarball is unpacked once into CACHE/sources/ID/ (ID from the identity;
 * into ID.tmp under the lock ID.lock, renamed when complete; kbuild_cache.h).
 * A commit is unpacked the same way from `git -C DIR archive --format=tar`
 * written into that temporary directory and removed once it is unpacked:
 * the user's repository is only read (no checkout, no worktree). */
#ifndef SCHEDRIG_KBUILD_SOURCE_H
#define SCHEDRIG_KBUILD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct ksource {
	char *written;   /* source: as written */
	char *identity;  /* as above: the build key's source line */
	char *origin;    /* for people, not keyed (as above); "" none */
	char *dir;       /* a directory source: the tree, absolute */
	char *tarball;   /* a package or tarball source: the archive */
	char *commit;    /* commit: resolved, the full hash; NULL: none */
	char *describe;  /* commit: `git describe --tags --always` of it ("" when
			  * git has none); NULL: none */
};

/* Is s a Debian kernel source package name, "linux-source-" and a version
 * of digits and dots (linux-source-6.12)? The one rule for every caller. */
bool ksource_is_package(const char *s);

/* ksource_resolve without fetch: the package would have to be downloaded. */
#define KSOURCE_NOT_HERE 1

/* Find the source and its identity (no unpacking; a package not installed
 * and not in CACHE/debs is downloaded with fetch, else KSOURCE_NOT_HERE).
 * cache is absolute. commit (NULL: none) is a revision of the git
 * repository written names, resolved with kgit_resolve. Program output
 * goes to log. Returns 0, KSOURCE_NOT_HERE, or -1 with err naming the
 * source (or "source DIR: 'X' is not a commit of DIR (...)"). */
int ksource_resolve(const char *written, const char *commit, const char *cache,
		    const char *log, bool fetch, struct ksource *s, char *err, size_t errsz);

/* Copy the tree into dest (an existing empty directory), unpacking a
 * tarball or a commit into CACHE/sources/ first when it is not there yet:
 * a tarball's, package's or commit's tree in the cache as hard links (`cp
 * -al`: a 6.12 tree's 1.7 GB in seconds; nothing writes to it: patches
 * unshare first, see kseries_apply, and make writes only in the object
 * directory), a directory source as a copy (`cp -a`, so an edit during
 * the build does not reach it). Top-level .git and KBUILD_OBJ_DIR are not
 * copied; symbolic links are copied as links, never followed. Returns 0,
 * -1 with err, or KB_INTERRUPTED. */
int ksource_copy(const struct ksource *s, const char *cache, const char *dest, const char *log,
		 char *err, size_t errsz);

void ksource_free(struct ksource *s);

#endif
