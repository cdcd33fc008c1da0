/* Checking that a cache entry is what a cold build of its inputs gives
 * (`schedrig cache verify`), and the recipe every entry keeps for it.
 *
 * CACHE/builds/KEY/recipe/ holds config.yaml, a config of kernels: alone
 * that builds KEY again (the source as an absolute path or package name,
 * commit:, make_args, the config items and the patches as files of the
 * recipe, consecutive patches of one patch_fuzz in one entry of a base:
 * chain, the last entry named "recipe"), with those files beside it. Its
 * key is KEY as long as the source and the toolchain are what they were.
 *
 * A verification builds the kernel cold (no base objects, no ccache) in a
 * scratch directory CACHE/verify.tmp (under CACHE/verify.lock: one at a
 * time), then compares: the key (else the inputs changed since, and the
 * lines of key.txt that differ are printed), the final .config, the
 * bzImage, and when the bzImage differs the first file of the object
 * directories (in path order, .cmd and .d files left out: they hold
 * command lines) whose bytes differ. */
#ifndef SCHEDRIG_KBUILD_VERIFY_H
#define SCHEDRIG_KBUILD_VERIFY_H

#include <stdio.h>

#include "config.h"
#include "kbuild.h"

/* Write entry/recipe/ for b (built; entry its new entry directory).
 * Returns 0, or -1 with err. */
int kverify_write_recipe(const struct kbuild *b, const char *entry, char *err, size_t errsz);

/* The recipe's config of the entry KEY in cache: its path (malloc'd), or
 * NULL with err (no such entry, or an entry made before recipes). */
char *kverify_recipe_of(const char *cache, const char *key, char *err, size_t errsz);

/* Verify kernel name of e against the cache entry want_key (NULL: the
 * newest entry of its inputs). cache as for kbuild_prepare; log: the cold
 * build's log. Prints what it found to out ("kernel K (key KEY):
 * identical: bzImage SHA256, config SHA256; cold build 212.0 s" or
 * "kernel K (key KEY): DIFFERENT: ..."). Returns 0 identical, 1
 * different, -1 with err (it could not build or compare), or
 * KB_INTERRUPTED. */
int kverify_kernel(const struct experiment *e, const char *name, const char *want_key,
		   const char *cache, const char *log, FILE *out, char *err, size_t errsz);

#endif
