#include "bisect_list.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ytree.h"

static int err_at(char *err, size_t errsz, const char *path, int line, int col,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int err_at(char *err, size_t errsz, const char *path, int line, int col,
		  const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errsz, "%s:%d:%d: %s", path, line, col, msg);
	return -1;
}

/* The variant mapping of point item: the item itself, or the variant of
 * variants: it names. NULL with err. */
static const struct ynode *point_variant(const char *path, const struct ynode *root,
					 const struct ynode *item, char *err, size_t errsz)
{
	if (item->kind == YNODE_MAPPING) {
		const struct ynode *name = ynode_get(item, "name");
		if (!name || name->kind != YNODE_SCALAR) {
			err_at(err, errsz, path, item->line, item->col,
			       "a bisect point needs name: (a variant's name)");
			return NULL;
		}
		return item;
	}
	if (item->kind == YNODE_SCALAR) {
		const struct ynode *v = bisect_config_variant(root, item->text);
		if (!v)
			err_at(err, errsz, path, item->line, item->col,
			       "bisect point '%s' is not a variant of variants:", item->text);
		return v;
	}
	err_at(err, errsz, path, item->line, item->col,
	       "a bisect point is a variant (a mapping) or the name of one, not a list");
	return NULL;
}

static const char *variant_name(const struct ynode *v)
{
	return ynode_get(v, "name")->text;
}

/* The load mapping of loads: called name (name: or, without it, tool:). */
static const struct ynode *config_load_node(const struct ynode *loads, const char *name,
					    size_t *index)
{
	for (size_t i = 0; loads && loads->kind == YNODE_SEQUENCE && i < loads->n; i++) {
		const struct ynode *l = loads->items[i];
		if (l->kind != YNODE_MAPPING)
			continue;
		const struct ynode *n = ynode_get(l, "name");
		if (!n)
			n = ynode_get(l, "tool");
		if (n && n->kind == YNODE_SCALAR && !strcmp(n->text, name)) {
			*index = i;
			return l;
		}
	}
	return NULL;
}

/* root with the params: of point variant v applied to its loads (a copy
 * made in t when v has params:, else root itself). NULL with err. */
static const struct ynode *apply_params(struct ytree *t, const char *path,
					const struct ynode *root, const struct ynode *v,
					char *err, size_t errsz)
{
	const struct ynode *params = ynode_get(v, "params");
	if (!params)
		return root;
	if (params->kind != YNODE_MAPPING) {
		err_at(err, errsz, path, params->line, params->col,
		       "a point's params: is a mapping of load names to {KEY: VALUE}");
		return NULL;
	}
	struct ynode *r = ytree_copy(t, root);
	struct ynode *loads = ytree_copy(t, ynode_get(root, "loads"));
	for (size_t i = 0; i < params->n; i++) {
		const struct ypair *lp = &params->pairs[i];
		size_t idx;
		const struct ynode *l = config_load_node(loads, lp->key, &idx);
		if (!l) {
			err_at(err, errsz, path, lp->key_line, lp->key_col,
			       "params: '%s' is not a load of loads:", lp->key);
			return NULL;
		}
		if (lp->value->kind != YNODE_MAPPING) {
			err_at(err, errsz, path, lp->value->line, lp->value->col,
			       "params: %s: is a mapping {KEY: VALUE}", lp->key);
			return NULL;
		}
		struct ynode *nl = ytree_copy(t, l);
		const struct ynode *old = ynode_get(l, "params");
		struct ynode *np = old && old->kind == YNODE_MAPPING ? ytree_copy(t, old)
								     : ytree_mapping(t);
		for (size_t j = 0; j < lp->value->n; j++) {
			const struct ypair *kv = &lp->value->pairs[j];
			if (kv->value->kind != YNODE_SCALAR) {
				err_at(err, errsz, path, kv->value->line, kv->value->col,
				       "params: %s: %s: a point takes single values (a list would"
				       " make other cells than the ends have)", lp->key, kv->key);
				return NULL;
			}
			ytree_set(t, np, kv->key, kv->value);
		}
		ytree_set(t, nl, "params", np);
		loads->items[idx] = nl;
	}
	ytree_set(t, r, "loads", loads);
	return r;
}

/* The index of the point named name in points, or -1. */
static long point_index(const struct ynode *root, const struct ynode *points, const char *name)
{
	for (size_t i = 0; i < points->n; i++) {
		const struct ynode *it = points->items[i];
		const struct ynode *v = it->kind == YNODE_SCALAR ? bisect_config_variant(root, it->text)
		       : it->kind == YNODE_MAPPING ? it : NULL;
		const char *n = it->kind == YNODE_SCALAR ? it->text : NULL;
		if (v && ynode_get(v, "name") && ynode_get(v, "name")->kind == YNODE_SCALAR)
			n = variant_name(v);
		if (n && !strcmp(n, name))
			return (long)i;
	}
	return -1;
}

const struct ynode *bisect_list_point(const struct ynode *root, const char *name)
{
	const struct ynode *b = ynode_get(root, "bisect");
	const struct ynode *points = b ? ynode_get(b, "points") : NULL;
	if (!points || points->kind != YNODE_SEQUENCE)
		return NULL;
	long i = point_index(root, points, name);
	return i < 0 ? NULL : points->items[i];
}

/* Add point item of the list to out. */
static int add_point(const char *path, const struct ynode *root, const struct ynode *item,
		     struct bisect_series *out, char *err, size_t errsz)
{
	const struct ynode *v = point_variant(path, root, item, err, errsz);
	if (!v)
		return -1;
	struct ytree *t = ytree_new();
	const struct ynode *r = apply_params(t, path, root, v, err, errsz);
	char *text = NULL;
	if (r) {
		struct ynode *var = ytree_copy(t, v);
		ytree_set(t, var, "params", NULL);
		text = bisect_point_config(t, r, var, NULL, NULL, err, errsz);
	}
	return bisect_series_take(out, t, xstrdup(variant_name(v)), xstrdup(variant_name(v)), text);
}

const char *bisect_list_item_name(const struct ynode *item)
{
	const struct ynode *n = item->kind == YNODE_MAPPING ? ynode_get(item, "name") : item;
	return n && n->kind == YNODE_SCALAR ? n->text : NULL;
}

/* Every point of the whole list has its own name (--good and --bad pick a
 * point by name): else -1 with err at the second item of a name. */
static int check_unique(const char *path, const struct ynode *points, char *err, size_t errsz)
{
	for (size_t i = 0; i < points->n; i++) {
		const char *n = bisect_list_item_name(points->items[i]);
		for (size_t j = 0; n && j < i; j++) {
			const char *m = bisect_list_item_name(points->items[j]);
			if (m && !strcmp(n, m))
				return err_at(err, errsz, path, points->items[i]->line,
					      points->items[i]->col,
					      "bisect point name '%s' is used twice (first at"
					      " line %d)", n, points->items[j]->line);
		}
	}
	return 0;
}

int bisect_list_check(const char *path, const struct ynode *root, char *err, size_t errsz)
{
	const struct ynode *b = ynode_get(root, "bisect"), *points;
	if (!b || b->kind != YNODE_MAPPING)
		return 1;
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->pairs[i].key, "points"))
			return err_at(err, errsz, path, b->pairs[i].key_line, b->pairs[i].key_col,
				      "unknown key '%s' in bisect: (it takes points:)",
				      b->pairs[i].key);
	if (!(points = ynode_get(b, "points")))
		return err_at(err, errsz, path, b->line, b->col,
			      "bisect: needs points: (the variants to bisect over, in order)");
	if (points->kind != YNODE_SEQUENCE)
		return err_at(err, errsz, path, points->line, points->col,
			      "bisect: points: is a list of variants or variant names");
	if (points->n < 2)
		return err_at(err, errsz, path, points->line, points->col,
			      "bisect: points: has %zu point(s): a bisection needs at least 2 (its"
			      " good and bad ends)", points->n);
	for (size_t i = 0; i < points->n; i++)
		if (!point_variant(path, root, points->items[i], err, errsz))
			return -1;
	return check_unique(path, points, err, errsz);
}

int bisect_list_series(const char *path, const struct ynode *root, const char *good,
		       const char *bad, struct bisect_series *out, char *err, size_t errsz)
{
	int rc = bisect_list_check(path, root, err, errsz);
	if (rc)
		return rc;
	const struct ynode *points = ynode_get(ynode_get(root, "bisect"), "points");
	long g = point_index(root, points, good), k = point_index(root, points, bad);
	if (g < 0 && k < 0)
		return 1;
	if (g < 0 || k < 0)
		return err_at(err, errsz, path, points->line, points->col,
			      "--%s %s is not a point of bisect: points: (--%s %s is)",
			      g < 0 ? "good" : "bad", g < 0 ? good : bad, g < 0 ? "bad" : "good",
			      g < 0 ? bad : good);
	if (g == k)
		return err_at(err, errsz, path, points->line, points->col,
			      "--good and --bad are the same point '%s'", good);
	long step = g < k ? 1 : -1;
	out->kind = "variants";
	for (long i = g; i != k + step; i += step)
		if (add_point(path, root, points->items[i], out, err, errsz))
			return -1;
	return 0;
}
