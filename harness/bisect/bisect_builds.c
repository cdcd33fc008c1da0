#include "bisect_builds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ytree.h"

const struct ynode *bisect_build_node(const struct ynode *root, const char *name)
{
	const struct ynode *k = ynode_get(root, "kernels");
	if (!k || k->kind != YNODE_MAPPING)
		return NULL;
	const struct ynode *b = ynode_get(k, name);
	return b && b->kind == YNODE_MAPPING ? b : NULL;
}

const char *bisect_variant_build(const struct ynode *v)
{
	const struct ynode *k = v ? ynode_get(v, "kernel") : NULL, *b;
	if (!k || k->kind != YNODE_MAPPING || !(b = ynode_get(k, "build")) ||
	    b->kind != YNODE_SCALAR)
		return NULL;
	return b->text;
}

size_t bisect_build_chain(const char *path, const struct ynode *root, const char *name,
			  const char **chain, char *err, size_t errsz)
{
	const char *rev[BISECT_MAX_CHAIN];
	size_t n = 0;
	for (const char *b = name; b; n++) {
		const struct ynode *node = bisect_build_node(root, b), *base;
		if (!node)
			return (size_t)err_printf(err, errsz, "%s: kernels: has no build '%s'", path, b);
		if (n == BISECT_MAX_CHAIN)
			return (size_t)err_printf(err, errsz, "%s: kernels: the base: chain of '%s' is"
						  " longer than %d or a loop", path, name,
						  BISECT_MAX_CHAIN);
		rev[n] = b;
		base = ynode_get(node, "base");
		b = base && base->kind == YNODE_SCALAR ? base->text : NULL;
	}
	for (size_t i = 0; i < n; i++)
		chain[i] = rev[n - 1 - i];
	return n;
}

char *bisect_node_text(const struct ynode *n)
{
	char err[128];
	char *t = n ? ytree_emit(n, err, sizeof(err)) : NULL;
	return t ? t : xstrdup("");
}

char *bisect_chain_text(const struct ynode *root, const char *const *chain, size_t n,
			const char *key)
{
	struct buf b = {0};
	for (size_t i = 0; i < n; i++) {
		char *t = bisect_node_text(ynode_get(bisect_build_node(root, chain[i]), key));
		buf_puts(&b, t);
		free(t);
	}
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

bool bisect_variants_alike(struct ytree *t, const struct ynode *g, const struct ynode *b)
{
	struct ynode *cg = ytree_copy(t, g), *cb = ytree_copy(t, b);
	ytree_set(t, cg, "name", NULL);
	ytree_set(t, cg, "kernel", NULL);
	ytree_set(t, cb, "name", NULL);
	ytree_set(t, cb, "kernel", NULL);
	char *a = bisect_node_text(cg), *c = bisect_node_text(cb);
	bool same = !strcmp(a, c);
	free(a);
	free(c);
	return same;
}
