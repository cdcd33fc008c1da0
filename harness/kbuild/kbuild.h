/* harness/kbuild/: the kernel-build subsystem. It owns everything between
 * a config's kernels: entries and a bootable bzImage: resolving an entry
 * and its base: chain (kbuild_spec.c), the source's identity and the
 * private copy of its tree (kbuild_source, kbuild_tree; a commit: of a git
 * source resolved and described by kbuild_git, which also lists the
 * first-parent range a git-range bisection walks), the patch series and
 * its application (kbuild_series), the merged .config (kbuild_config),
 * every keyed input in one struct (kbuild_inputs: source, patches, config,
 * make_args, environment kbuild_env, toolchain kbuild_tools), the one make
 * runner (kbuild_make), the build and its cache entry (kbuild.c), the
 * cache's locks and temporary directories (kbuild_cache), the provenance
 * (kbuild_provenance), the recipe an entry keeps and the cold rebuild
 * that verifies it (kbuild_verify), the set of builds a command needs with
 * its progress (kbuild_set), the one way it starts programs (kbuild_run,
 * over spawn.h) and run's step that builds before the variants run
 * (runbuild, called by run/session.c). It does not own the kernel_build
 * table (store/store_kbuild.c), the commands (cmd/cmd_build.c,
 * cmd/cmd_run.c, cmd/cmd_cache_builds.c) or booting (variants/).
 *
 * The cache, CACHE = the results directory's cache/ (absolute):
 *   CACHE/builds/KEY/          bzImage, config (the final .config), obj/
 *                              (the object directory, make O=), key.txt
 *                              (kbuild_inputs.h), provenance.txt,
 *                              build.log, recipe/ (kbuild_verify.h)
 *   CACHE/builds/.inputs-INPUTS  the newest KEY built from these inputs
 *   CACHE/builds/.tmp-INPUTS/  the build in progress (src/: the private
 *                              copy, src/KBUILD_OBJ_DIR/: the objects,
 *                              work/, entry/), under builds/.lock-INPUTS
 * A build: lock the inputs (a second build of the same inputs waits and
 * then finds the entry the first made), copy the source, apply the series,
 * make the .config (tinyconfig / defconfig / a file, fragments,
 * olddefconfig) in a fresh object directory; the final .config completes
 * the key. KEY/ there: a cache hit, nothing compiled. Else make bzImage:
 * in the base's objects when the kernel has a base: whose entry exists
 * with the same source, make_args, environment and toolchain (its obj/
 * copied, `cp -a --reflink=auto`, with the new .config: make rebuilds what
 * the patches and the config change; hard links would not do, kbuild
 * rewrites .cmd files in place), else in the fresh one. The result is
 * renamed to KEY/. A build interrupted (SIGINT, SIGTERM) stops make (make
 * stops its compilers on SIGTERM) and removes its temporary directory; one
 * left by a rig that was killed is removed by the next build
 * (kbuild_cache.h), never used.
 *
 * make runs with O= inside the private copy (kbuild then names sources by
 * relative paths) in the scrubbed environment of kbuild_env.h with the
 * reproducibility variables derived from the key, so two builds of one
 * key give the same image wherever they ran, cold or incremental
 * (`schedrig cache verify`). */
#ifndef SCHEDRIG_KBUILD_H
#define SCHEDRIG_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "kbuild_config.h"
#include "kbuild_inputs.h"
#include "kbuild_series.h"
#include "kbuild_source.h"
#include "util.h"

/* One kernel to build, resolved. */
struct kbuild {
	char *name;                 /* the kernels: entry */
	char *base_name;            /* its base: ("" none) */
	char *cache;                /* CACHE, absolute */
	struct ksource src;
	char *base_config;          /* "tinyconfig" or "defconfig"; NULL: base_text */
	char *base_text;            /* a .config file's or the package's config */
	char *base_from;            /* the first config: item as written */
	struct kconfig_fragment *frags;
	size_t n_frags;
	struct kseries series;
	struct argv make_args;
	struct kbuild_inputs in;    /* every keyed input (config_final once made) */
	bool no_ccache;             /* a verifying cold build: no ccache */
	char key[65];               /* "" until kbuild_build made or found it */
	char *key_text;             /* key.txt, once the key is known */
	char *entry;                /* CACHE/builds/KEY, once known */
	char *bzimage;              /* CACHE/builds/KEY/bzImage, once known */
	bool cached;                /* kbuild_build found the entry: nothing compiled */
	char *probable_key;         /* before building: the newest entry of these
				     * inputs (its .config decides), or NULL */
	char *base_key;             /* the base's newest entry of its inputs, or NULL */
	char *base_key_text;        /* its key.txt */
	char *incremental_from;     /* the base key whose objects the build started
				     * from; "" for a cold build */
	struct argv applied;        /* hunks placed with an offset or fuzz */
	double build_s;             /* wall time of the build that made the entry */
	char *provenance;           /* provenance.txt (kbuild_provenance.h) */
};

/* What check-config, run --dry-run and run check before anything runs:
 * every file a kernels: entry names (patches, config files, a source that
 * is not linux-source-X.Y) exists, every patch file or directory holds
 * patches, and (when a variant builds a kernel) the environment holds no
 * variable a kernel build refuses (kbuild_env_check). Returns 0, or -1
 * with "CONFIG:line:col: kernel 'K': patches: PATH: No such file or
 * directory" in err. Relative paths are relative to the current
 * directory. */
int kbuild_check(const struct experiment *e, char *err, size_t errsz);

/* Resolve kernels: entry name of e: source (kbuild_source.h; may fetch a
 * package), config items read, the series expanded, the inputs filled
 * (kbuild_inputs_fill), the base's entry and a probable entry looked up.
 * cache: the results directory's cache/ (made absolute, created). log
 * receives the output of programs run meanwhile. Returns 0, or -1 with
 * err. */
int kbuild_prepare(const struct experiment *e, const char *name, const char *cache,
		   const char *log, struct kbuild *b, char *err, size_t errsz);

/* Progress of a build: the current step, and the last line of its log. */
typedef void (*kbuild_progress_fn)(void *ctx, const char *kernel, const char *step,
				   const char *log);

/* Build b: lock its inputs, copy the source, apply the series, make the
 * config (which completes the key), and unless KEY/ exists (b->cached)
 * make bzImage, incrementally in the base's objects when it can (above);
 * the log of every step in log. On success b->key, entry, bzimage and
 * provenance are set and the entry exists. Returns 0, -1 with err (the
 * failing step; for make, its exit status and the log's last 15 lines),
 * or KB_INTERRUPTED. Nothing of a failed build stays in the cache. */
int kbuild_build(struct kbuild *b, const char *log, kbuild_progress_fn progress, void *ctx,
		 char *err, size_t errsz);

/* The same steps into dir (an empty directory of its own, not the
 * cache): a cold build (no base objects, no ccache), dir/entry/ holding
 * bzImage and config. For kbuild_verify. */
int kbuild_build_cold(struct kbuild *b, const char *dir, const char *log, char *err,
		      size_t errsz);

void kbuild_free(struct kbuild *b);

#endif
