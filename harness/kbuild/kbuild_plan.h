/* What building a config's kernels will take, said before anything runs
 * (check-config, run --dry-run): for each kernel a variant builds, whether
 * it is cached (probably: the final .config, made when it builds, has the
 * last word), built from its base's cached objects, or built cold; about
 * how long that takes here, from the cache's own past builds of the same
 * source (provenance.txt's build_s, the newest of that kind); and what
 * must be downloaded first (a linux-source package neither installed nor
 * in CACHE/debs: its size from apt-cache). Nothing is downloaded, copied
 * or built. */
#ifndef SCHEDRIG_KBUILD_PLAN_H
#define SCHEDRIG_KBUILD_PLAN_H

#include <stdio.h>

#include "config.h"

/* One line per kernel e's variants build, "PREFIX: note: kernel K: ..."
 * on out (PREFIX: the config's path). cache: the results directory's
 * cache/. Program output (version probes) goes to CACHE/logs/plan-K.log. */
void kbuild_plan_notes(const struct experiment *e, const char *cache, FILE *out);

#endif
