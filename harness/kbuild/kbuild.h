/* harness/kbuild/: the kernel-build subsystem. It owns everything between
 * a config's kernels: entries and a bootable bzImage: resolving an entry
 * and its base: chain (kbuild_spec.c), the source's identity and the
 * private copy of its tree (kbuild_source; a commit: of a git source
 * resolved and described by kbuild_git, which also lists the first-parent
 * range a git-range bisection walks), the patch series and its
 * application (kbuild_series), the merged .config (kbuild_config), the
 * build key (kbuild_key), the build and the cache under results/cache/
 * builds (kbuild.c), the set of builds a command needs with its progress
 * (kbuild_set), the one way it starts programs (kbuild_run, over spawn.h)
 * and run's step that builds before the variants run (runbuild, called by
 * run/session.c). It does not own the kernel_build table
 * (store/store_kbuild.c), the commands (cmd/cmd_build.c, cmd/cmd_run.c) or
 * booting (variants/).
 *
 * Kernels the rig builds from a source, a patch series and a config
 * (kernels: in a config, harness/config.h), cached under the results
 * directory by a build key.
 *
 * kbuild_spec.c resolves a kernels: entry (its chain of base:) into what
 * is built and computes the key; kbuild.c builds it:
 *   CACHE/builds/KEY/         bzImage, config (the final .config),
 *                             provenance.txt, build.log: a complete entry
 *   CACHE/builds/.tmp-KEY-PID/  the build in progress (tree/, work/,
 *                             entry/); entry/ is renamed to KEY when the
 *                             bzImage exists, then the rest is removed
 * CACHE is the results directory's cache/ (beside runs/), as for the
 * kernels boot: qemu fetches. A second build with the same key finds KEY/
 * and runs nothing. A build interrupted (SIGINT, SIGTERM) stops make (make
 * stops its compilers on SIGTERM) and removes its temporary directory; one
 * left by a rig that was killed is removed by the next build of any key
 * once its PID is gone.
 *
 * The build runs `make -jN ARGS bzImage` (N: online CPUs) in the private
 * tree with KBUILD_BUILD_TIMESTAMP, _USER, _HOST and _VERSION fixed, so
 * equal inputs give equal output, and with CC="ccache gcc" (ccache's
 * CCACHE_BASEDIR set to the temporary directory, CCACHE_NOHASHDIR=1, so a
 * build in another directory hits the same cache entries) when ccache is
 * installed and make_args set no CC. */
#ifndef SCHEDRIG_KBUILD_H
#define SCHEDRIG_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "kbuild_config.h"
#include "kbuild_series.h"
#include "kbuild_source.h"
#include "util.h"

/* One kernel to build, resolved. */
struct kbuild {
	char *name;                 /* the kernels: entry */
	char *base_name;            /* its base: ("" none) */
	struct ksource src;
	char *base_config;          /* "tinyconfig" or "defconfig"; NULL: base_text */
	char *base_text;            /* a .config file's or the package's config */
	char *base_from;            /* the first config: item as written */
	struct kconfig_fragment *frags;
	size_t n_frags;
	struct kseries series;
	struct argv make_args;
	char *compiler;             /* first line of `CC --version` */
	char key[65];
	char *key_text;             /* kbuild_key_text */
	char *entry;                /* CACHE/builds/KEY */
	char *bzimage;              /* CACHE/builds/KEY/bzImage */
	bool cached;                /* the entry existed before kbuild_build */
	double build_s;             /* wall time of the build that made the entry */
	char *provenance;           /* the entry's provenance.txt once built or
				     * found: lines "name value": kernel, key,
				     * source (a commit's with its git
				     * describe), patch (sha256 file subject, one
				     * per patch), config (each item),
				     * config_sha256, config_diff (options that
				     * differ from the base kernel's .config
				     * when that is cached), make_args,
				     * compiler, build_s, bzimage_sha256 */
};

/* What check-config, run --dry-run and run check before anything runs:
 * every file a kernels: entry names (patches, config files, a source that
 * is not linux-source-X.Y) exists, and every patch file or directory holds
 * patches. Returns 0, or -1 with "CONFIG:line:col: kernel 'K': patches:
 * PATH: No such file or directory" in err. Relative paths are relative to
 * the current directory. */
int kbuild_check(const struct experiment *e, char *err, size_t errsz);

/* Resolve kernels: entry name of e: source (kbuild_source.h; may fetch a
 * package), config items read, the series expanded, the compiler asked,
 * the key computed, and whether CACHE/builds/KEY exists (b->cached).
 * log receives the output of programs run meanwhile. Returns 0, or -1
 * with err. */
int kbuild_prepare(const struct experiment *e, const char *name, const char *cache,
		   const char *log, struct kbuild *b, char *err, size_t errsz);

/* Progress of a build: the current step, and the last line of its log. */
typedef void (*kbuild_progress_fn)(void *ctx, const char *kernel, const char *step,
				   const char *log);

/* Build b unless it is cached: copy the source, apply the series, make the
 * config, make bzImage; the log of every step in log. On success the entry
 * exists and b->bzimage is its bzImage. Returns 0, -1 with err (the failing
 * step; for make, its exit status and the log's last 15 lines), or
 * KB_INTERRUPTED. Nothing of a failed build stays in the cache. */
int kbuild_build(struct kbuild *b, const char *cache, const char *log,
		 kbuild_progress_fn progress, void *ctx, char *err, size_t errsz);

/* Set b->provenance from b's inputs (this config's patch files, subjects,
 * config items) and the built entry's files in entry (config, bzImage),
 * with b->build_s: a cached kernel is described as this config names it,
 * with the build time of the build that made the entry. */
void kbuild_describe(struct kbuild *b, const char *cache, const char *entry);

void kbuild_free(struct kbuild *b);

#endif
