/* harness/kbuild/: the kernel-build subsystem. It owns everything between
 * a config's kernels: entries and a bootable bzImage: resolving an entry
 * and its base: chain (kbuild_kernel), the source's identity and the
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

#include <stddef.h>

#include "kbuild_kernel.h"

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

#endif
