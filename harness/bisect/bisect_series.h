/* The series a bisection walks: points 0..n-1 from the good end to the bad
 * end, each an ordinary config of one variant, made by a provider from the
 * user's config:
 *   bisect_list.c     bisect: {points: [...]} of the config, an explicit
 *                     ordered list of variants (knobs, kernels, load params);
 *   bisect_patches.c  kernels built from a tree + a patch series: point k is
 *                     the good build plus the first k patches of the bad
 *                     build's series beyond it.
 *   bisect_git.c      kernels built from two commits of one git repository:
 *                     point k is the k-th commit of `git rev-list
 *                     --first-parent GOOD..BAD`, oldest first.
 * A step of the bisection runs point k's config with schedrig run, so every
 * step is an ordinary run of an ordinary config. */
#ifndef SCHEDRIG_BISECT_SERIES_H
#define SCHEDRIG_BISECT_SERIES_H

#include <stddef.h>

#include "bisect_points.h"
#include "yamlnode.h"

/* The series from good to bad in the config text (path for messages):
 * both names points of bisect: points: (bisect_list_series), or variants
 * whose kernels are builds of kernels: at two commits of one git
 * repository (bisect_git_series), or builds whose patch lists are a
 * prefix of one another (bisect_patch_series). Anything else
 * is an error that says why. Every point's config is checked with
 * config_parse and plan_build, so a series that cannot run is refused
 * before anything runs. 0, or -1 with "file:line:col: message" or a
 * sentence in err. */
int bisect_series_build(const char *path, const char *text, const char *good, const char *bad,
			struct bisect_series *out, char *err, size_t errsz);

/* check-config of bisect: its keys and points (bisect_list_check), then
 * the whole list, first to last, as bisect_series_build checks a series.
 * 0 with *n_points; 1 when the config has no bisect:; -1 with err. */
int bisect_series_check_points(const char *path, const char *text, size_t *n_points, char *err,
			       size_t errsz);

#endif
