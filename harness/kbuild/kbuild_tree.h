/* The content identity of a kernel source that is a directory (or a file:
 * a tarball), for the build key: what is in the tree itself, whatever git
 * thinks of it.
 *
 * A tree's digest is the sha256 over every entry below the directory in
 * byte order of their paths, top-level .git and KBUILD_OBJ_DIR left out
 * (the rig copies neither): a regular file as "f X SHA256 PATH" (X: 'x'
 * when an execute bit is set, else '-'; the sha256 of its bytes, binary or
 * not), a symbolic link as "l SHA256-OF-TARGET PATH", a directory as
 * "d PATH", anything else as "o PATH", each ended by a NUL. Tracked,
 * untracked and ignored files alike: what is there is what make sees. An
 * outer git repository the tree sits in plays no part.
 *
 * Fast path, the way git's index decides whether a file changed: an index
 * file keeps each regular file's inode, size, mtime and ctime (ns) with
 * its sha256; a file whose four values are the same is not read again.
 * Any write changes ctime, which no user tool can set back (touch -r sets
 * mtime only). A file whose mtime or ctime was less than
 * KTREE_RACY_S seconds old when it was hashed is not trusted next time
 * (a write within the same timestamp tick would not show). The index is
 * written next to the cache (a temporary file renamed over it), so a
 * digest of a 1.4 GB tree costs a walk and the stat of each file. */
#ifndef SCHEDRIG_KBUILD_TREE_H
#define SCHEDRIG_KBUILD_TREE_H

#include <stddef.h>

/* The object directory of a build, a child of the private copy of the tree
 * (make O=TREE/KBUILD_OBJ_DIR: kbuild then names sources by relative paths,
 * "../kernel/sched/core.c", so a build's output does not depend on where
 * it ran). */
#define KBUILD_OBJ_DIR "schedrig-obj"

/* A file hashed less than this long after its last change is hashed again
 * next time. */
#define KTREE_RACY_S 2

struct ktree_stats {
	size_t entries;   /* entries in the digest */
	size_t hashed;    /* regular files read (the others came from the index) */
};

/* The digest of the tree at dir into out (64 hex digits); index: the fast
 * path's index file (NULL: every file is read). Returns 0, or -1 with
 * "DIR/PATH: reason" in err (a file that cannot be read). */
int ktree_digest(const char *dir, const char *index, char out[65], struct ktree_stats *st,
		 char *err, size_t errsz);

/* The sha256 of the file at path, through the same index (NULL: read it).
 * 0, or -1 with err. */
int ktree_file_sha256(const char *path, const char *index, char out[65], char *err,
		      size_t errsz);

#endif
