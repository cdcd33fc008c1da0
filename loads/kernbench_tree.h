/* kernbench's source and cache entry (the load itself: kernbench.c).
 *
 * Source: a kernel tarball (default: the newest Debian linux-source tarball,
 * /usr/src/linux-source-*.tar.xz from package linux-source-6.12) or a tree
 * (--source DIR). It is prepared once into a cache entry under cache_dir
 * (default: the rig's cache, ~/.cache/schedrig/kernbench: cache.h),
 * named after the source, the config and a hash of both (FNV-1a 64 of the
 * source's real path, and for a tarball its size and mtime, and the config
 * name or the config file's content):
 *   CACHE/NAME.lock        flock: one preparer at a time; a second run waits
 *                          and then reuses the entry
 *   CACHE/NAME/src         the tree: the tarball's top directory (tar -xf), or
 *                          a copy of the source tree (cp -a -T)
 *   CACHE/NAME/prepared    written last; an entry without it is redone
 *   CACHE/NAME/prepare.log output of tar/cp and the config step
 *   CACHE/NAME/build.lock  flock held during clean + build; a second
 *                          concurrent kernbench on the entry fails at once
 *   CACHE/NAME/build.log   output of the last make clean + make
 * The config step runs in src: `make ARCH=x86_64 tinyconfig|allnoconfig|
 * defconfig`, or for a file: copy it to .config, `make ARCH=x86_64
 * olddefconfig`. The driver's prepare hook does this in the rig before the
 * instance starts (so a background build is building, not untarring, when
 * measured loads start); the built-in does it too when run by hand.
 * A full linux-source-6.1 tinyconfig: untar about 15 s, tinyconfig about 7 s.
 *
 */
#ifndef SCHEDRIG_KERNBENCH_TREE_H
#define SCHEDRIG_KERNBENCH_TREE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define KERNBENCH_DEFAULT_TARBALLS "/usr/src/linux-source-*.tar.xz"
/* The PATH make and the preparation run with: Debian's for root, the same
 * here and in a guest (whose /usr is this machine's). */
#define KERNBENCH_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
/* Where a guest finds the entries packed for it when cache_dir is not
 * given: relative to its working directory, the scratch disk. */
#define KERNBENCH_PACKED_DIR "kernbench-packed"

/* Environment of the outer make (make check) that must not reach ours
 * (proc_spec.unset_env), NULL-terminated. */
extern const char *const kb_make_env[];

struct kb_entry {
	char source[PATH_MAX];   /* real path of the tarball or tree */
	bool source_is_tree;
	char config_file[PATH_MAX]; /* real path when config is a file, else "" */
	const char *config;      /* as given */
	char dir[PATH_MAX];      /* CACHE/NAME */
	char lock[PATH_MAX + 8]; /* CACHE/NAME.lock */
	char tree[PATH_MAX + 8]; /* CACHE/NAME/src */
	bool prepared_now;       /* this call prepared it */
};

/* Resolve source (NULL or "": the newest KERNBENCH_DEFAULT_TARBALLS),
 * config (tinyconfig, allnoconfig, defconfig or a file) and cache_dir
 * (NULL: CACHE/kernbench, cache.h) into e; in a guest the entry the rig
 * packed for source and config (kb_packed_name) under cache_dir or
 * KERNBENCH_PACKED_DIR when it is there. 0, or -1 with err. */
int kb_entry_init(struct kb_entry *e, const char *source, const char *config,
		  const char *cache_dir, char *err, size_t errsz);

/* CACHE/NAME/name of e into dst. */
void kb_entry_path(const struct kb_entry *e, const char *name, char *dst, size_t size);

/* Prepare the entry unless it is: under CACHE/NAME.lock, unpack, configure,
 * write the marker. sigs: the signals that abort the preparation (SIGINT,
 * SIGTERM) besides SIGCHLD. 0 or -1 with err. */
int kb_prepare_entry(struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz);

/* For clean: targets: `make ARCH=x86_64 -jNCPUS prepare` in the tree once,
 * under CACHE/NAME.lock, marked by CACHE/NAME/made-prepare. sigs as for
 * kb_prepare_entry. 0 or -1 with err. */
int kb_make_prepare(const struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz);

/* The name of the entry packed for a guest (guest_needs): packed-KEY, KEY
 * an FNV-1a 64 of source (NULL: the default) and config as written. */
void kb_packed_name(const char *source, const char *config, char *dst, size_t size);

/* That the source and config are here, changing nothing (preflight of a
 * guest). 0, or -1 with err. */
int kb_check_source(const char *source, const char *config, char *err, size_t errsz);

#endif
