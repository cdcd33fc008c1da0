#include "bisect_config.h"

#include <stdlib.h>
#include <string.h>

#include "ytree.h"

const struct ynode *bisect_config_variant(const struct ynode *root, const char *name)
{
	const struct ynode *vs = ynode_get(root, "variants");
	for (size_t i = 0; vs && vs->kind == YNODE_SEQUENCE && i < vs->n; i++) {
		const struct ynode *v = vs->items[i], *n;
		if (v->kind == YNODE_MAPPING && (n = ynode_get(v, "name")) &&
		    n->kind == YNODE_SCALAR && !strcmp(n->text, name))
			return v;
	}
	return NULL;
}

char *bisect_point_config(struct ytree *t, const struct ynode *root, const struct ynode *variant,
			  const char *extra_key, const struct ynode *extra, char *err,
			  size_t errsz)
{
	struct ynode *r = ytree_copy(t, root), *vs = ytree_sequence(t);
	ytree_append(t, vs, variant);
	ytree_set(t, r, "variants", vs);
	ytree_set(t, r, "bisect", NULL);
	if (extra_key)
		ytree_set(t, r, extra_key, extra);
	return ytree_emit(r, err, errsz);
}

int bisect_series_take(struct bisect_series *out, struct ytree *t, char *name, char *label,
		       char *text)
{
	int rc = text ? 0 : -1;
	if (text)
		bisect_series_add(out, name, label, text);
	free(name);
	free(label);
	free(text);
	ytree_free(t);
	return rc;
}
