/* The recipe every cache entry keeps: CACHE/builds/KEY/recipe/ holds
 * config.yaml, a config of kernels: alone that builds KEY again (the source
 * as an absolute path or package name, commit:, make_args, the config
 * items and the patches as files of the recipe, consecutive patches of
 * one patch_fuzz in one entry of a base: chain, the last entry named
 * "recipe"), with those files beside it. Its key is KEY as long as the
 * source and the toolchain are what they were (`schedrig cache verify
 * KEY`, kbuild_verify.h). */
#ifndef SCHEDRIG_KBUILD_RECIPE_H
#define SCHEDRIG_KBUILD_RECIPE_H

#include <stddef.h>

#include "kbuild_kernel.h"

/* Write entry/recipe/ for b (built; entry its new entry directory).
 * Returns 0, or -1 with err. */
int krecipe_write(const struct kbuild *b, const char *entry, char *err, size_t errsz);

/* The recipe's config of the entry KEY in cache: its path (malloc'd), or
 * NULL with err (no such entry, or an entry made before recipes). */
char *krecipe_of(const char *cache, const char *key, char *err, size_t errsz);

#endif
