/* Checking that a cache entry is what a cold build of its inputs gives
 * (`schedrig cache verify`), from the entry's recipe (kbuild_recipe.h) or
 * a config.
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
