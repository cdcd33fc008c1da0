/* The variant-list provider of bisections (bisect_series.h):
 *
 *   bisect:
 *     points:                         # in order, from good to bad or back
 *       - base                        # a variant of variants:, by name
 *       - {name: p1, boot: local, sysctl: {kernel.sched_autogroup_enabled: 0}}
 *       - {name: p2, params: {fake: {mean: 120}}}   # a variant plus load params
 *
 * A point is a variant (every key a variant of variants: takes) and may
 * add params: {LOAD: {KEY: VALUE}}, single values that replace the named
 * load's parameter in that point's config (a point must measure the same
 * cells as the ends: a list there is refused). --good and --bad name two
 * points; the series is the points between them, inclusive, in the order
 * from good to bad. */
#ifndef SCHEDRIG_BISECT_LIST_H
#define SCHEDRIG_BISECT_LIST_H

#include <stddef.h>

#include "bisect_config.h"
#include "yamlnode.h"

/* Check bisect: of root (the parsed config at path) whatever --good and
 * --bad will be: its only key is points:, a list of at least 2 points,
 * each a mapping with name: or the name of a variant of variants:, no name
 * twice. 0; 1 when root has no bisect: mapping (no message); -1 with
 * "path:line:col: message" in err: "unknown key 'pointz' in bisect: (it
 * takes points:)", "bisect: points: has 1 point(s): a bisection needs at
 * least 2 (its good and bad ends)", "a bisect point needs name: (a
 * variant's name)", ... */
int bisect_list_check(const char *path, const struct ynode *root, char *err, size_t errsz);

/* The series good..bad of bisect: points: in root (the parsed config at
 * path), bisect: checked first (bisect_list_check). 0; 1 when root has
 * no bisect: or its points: do not name good and bad (out untouched, no
 * message); -1 with "path:line:col: message" in err for a bisect: that
 * is malformed or points: that name only one of them. */
int bisect_list_series(const char *path, const struct ynode *root, const char *good,
		       const char *bad, struct bisect_series *out, char *err, size_t errsz);

/* The item of bisect: points: in root whose point is called name (for a
 * message's position), or NULL when there is none. */
const struct ynode *bisect_list_point(const struct ynode *root, const char *name);

/* The name of item of bisect: points: (a variant name, or a mapping's
 * name:), or NULL when it has none. */
const char *bisect_list_item_name(const struct ynode *item);

#endif
