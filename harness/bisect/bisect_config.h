/* What the series providers (bisect_list.c, bisect_patches.c, bisect_git.c)
 * share: a point's config made from the user's config tree. */
#ifndef SCHEDRIG_BISECT_CONFIG_H
#define SCHEDRIG_BISECT_CONFIG_H

#include "bisect_points.h"
#include "yamlnode.h"

/* The point of variant-list and patch providers alike: the config tree
 * root with variants: replaced by [variant] and bisect: removed, as YAML
 * text (ytree_emit); extra (may be NULL) is a top-level key set too
 * (kernels: for a built point). NULL with err on an emit failure. */
struct ytree;
char *bisect_point_config(struct ytree *t, const struct ynode *root, const struct ynode *variant,
			  const char *extra_key, const struct ynode *extra, char *err,
			  size_t errsz);

/* A provider's point done: when text (a point config, or NULL after a
 * failed one) is set, point name with label and text is added to out.
 * Frees name, label, text and the tree t either way. 0, or -1 when text
 * was NULL (err already says why). */
int bisect_series_take(struct bisect_series *out, struct ytree *t, char *name, char *label,
		       char *text);

/* The variant mapping of variants: named name in root, or NULL. */
const struct ynode *bisect_config_variant(const struct ynode *root, const char *name);

#endif
