/* A kernel to build, resolved from a config's kernels: entry and its
 * chain of base: (kbuild_kernel.c): its source, config items, series,
 * make_args and every keyed input (kbuild_inputs.h), and, once built or
 * found, its key, cache entry and provenance. What builds it is kbuild.h;
 * this is what the steps and the provenance share. */
#ifndef SCHEDRIG_KBUILD_KERNEL_H
#define SCHEDRIG_KBUILD_KERNEL_H

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

/* kbuild_prepare, fetching a package only with fetch: without, a package
 * neither installed nor in CACHE/debs gives KSOURCE_NOT_HERE (err says
 * which), nothing downloaded. */
int kbuild_resolve(const struct experiment *e, const char *name, const char *cache,
		   const char *log, bool fetch, struct kbuild *b, char *err, size_t errsz);

void kbuild_free(struct kbuild *b);

#endif
