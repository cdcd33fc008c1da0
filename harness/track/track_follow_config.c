/* The configs of track --follow (track_follow_config.h). */
#include "track_follow_config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_builds.h"
#include "util.h"
#include "ytree.h"

void track_target_free(struct track_target *t)
{
	free(t->variant);
	free(t->build);
	free(t->entry);
	free(t->source);
	*t = (struct track_target){0};
}

/* The scalar of key in kernels: entry, or NULL. */
static const char *entry_text(const struct ynode *root, const char *entry, const char *key)
{
	const struct ynode *n = ynode_get(bisect_build_node(root, entry), key);
	return n && n->kind == YNODE_SCALAR ? n->text : NULL;
}

/* Do a and b name one directory? */
static bool same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* The one variant of root, or NULL with err. */
static const struct ynode *one_variant(const char *path, const struct ynode *root, char *err,
				       size_t errsz)
{
	const struct ynode *vs = ynode_get(root, "variants");
	if (!vs || vs->kind != YNODE_SEQUENCE || vs->n != 1 || vs->items[0]->kind != YNODE_MAPPING) {
		err_printf(err, errsz, "%s: track --follow needs a config of one variant (it has %zu):"
			   " the variant whose kernel is built at each commit", path,
			   vs && vs->kind == YNODE_SEQUENCE ? vs->n : 0);
		return NULL;
	}
	return vs->items[0];
}

/* t's build, entry and source from the chain of root's build. 0 or -1. */
static int read_chain(const char *path, const struct ynode *root, const char *tree,
		      struct track_target *t, char *err, size_t errsz)
{
	const char *chain[BISECT_MAX_CHAIN], *entry = NULL, *source = NULL;
	size_t n = bisect_build_chain(path, root, t->build, chain, err, errsz);
	if (!n)
		return -1;
	for (size_t i = n; i-- > 0;) {
		const struct ynode *b = bisect_build_node(root, chain[i]);
		if (!entry && (ynode_get(b, "source") || ynode_get(b, "commit")))
			entry = chain[i];
		if (!source)
			source = entry_text(root, chain[i], "source");
	}
	if (!source || !same_dir(source, tree))
		return err_printf(err, errsz, "%s: kernels: %s is built from %s, not from --tree %s",
				  path, t->build, source ? source : "no source:", tree);
	t->entry = xstrdup(entry);
	t->source = xstrdup(source);
	return 0;
}

int track_target_read(const char *path, const char *text, const char *tree,
		      struct track_target *t, char *err, size_t errsz)
{
	*t = (struct track_target){0};
	struct ydoc *d = ydoc_parse(path, text, strlen(text), err, errsz);
	if (!d)
		return -1;
	const struct ynode *root = ydoc_root(d), *v = one_variant(path, root, err, errsz);
	const struct ynode *name = v ? ynode_get(v, "name") : NULL;
	const char *build = v ? bisect_variant_build(v) : NULL;
	int rc = -1;
	if (v && (!build || !name || name->kind != YNODE_SCALAR))
		err_printf(err, errsz, "%s: track --follow needs the variant's kernel built from the"
			   " tree: kernel: {build: NAME} with NAME under kernels:", path);
	else if (v) {
		t->variant = xstrdup(name->text);
		t->build = xstrdup(build);
		rc = read_chain(path, root, tree, t, err, errsz);
	}
	ydoc_free(d);
	if (rc)
		track_target_free(t);
	return rc;
}

char *track_step_config(const char *path, const char *text, const struct track_target *t,
			const char *hash, char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse(path, text, strlen(text), err, errsz);
	if (!d)
		return NULL;
	const struct ynode *root = ydoc_root(d);
	struct ytree *y = ytree_new();
	struct ynode *r = ytree_copy(y, root);
	struct ynode *kernels = ytree_copy(y, ynode_get(root, "kernels"));
	struct ynode *entry = ytree_copy(y, bisect_build_node(root, t->entry));
	ytree_set(y, entry, "commit", ytree_scalar(y, hash));
	ytree_set(y, kernels, t->entry, entry);
	ytree_set(y, r, "kernels", kernels);
	char *out = ytree_emit(r, err, errsz);
	ytree_free(y);
	ydoc_free(d);
	return out;
}

/* A variant copied from v, named name, booting build. */
static struct ynode *variant_at(struct ytree *y, const struct ynode *v, const char *name,
				const char *build)
{
	struct ynode *c = ytree_copy(y, v), *k = ytree_mapping(y);
	ytree_set(y, k, "build", ytree_scalar(y, build));
	ytree_set(y, c, "name", ytree_scalar(y, name));
	ytree_set(y, c, "kernel", k);
	return c;
}

/* The build {base: t->build, commit: hash}. */
static struct ynode *build_at(struct ytree *y, const struct track_target *t, const char *hash)
{
	struct ynode *b = ytree_mapping(y);
	ytree_set(y, b, "base", ytree_scalar(y, t->build));
	ytree_set(y, b, "commit", ytree_scalar(y, hash));
	return b;
}

char *track_bisect_config(const char *path, const char *text, const struct track_target *t,
			  const char *good, const char *bad, char **good_name, char **bad_name,
			  char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse(path, text, strlen(text), err, errsz);
	if (!d)
		return NULL;
	const struct ynode *root = ydoc_root(d), *v = one_variant(path, root, err, errsz);
	char *out = NULL;
	if (v) {
		struct ytree *y = ytree_new();
		struct ynode *r = ytree_copy(y, root), *vs = ytree_sequence(y);
		struct ynode *kernels = ytree_copy(y, ynode_get(root, "kernels"));
		char *gb = xasprintf("track-%.12s", good), *bb = xasprintf("track-%.12s", bad);
		*good_name = xasprintf("%s-%.12s", t->variant, good);
		*bad_name = xasprintf("%s-%.12s", t->variant, bad);
		ytree_set(y, kernels, gb, build_at(y, t, good));
		ytree_set(y, kernels, bb, build_at(y, t, bad));
		ytree_append(y, vs, variant_at(y, v, *good_name, gb));
		ytree_append(y, vs, variant_at(y, v, *bad_name, bb));
		ytree_set(y, r, "kernels", kernels);
		ytree_set(y, r, "variants", vs);
		out = ytree_emit(r, err, errsz);
		free(gb);
		free(bb);
		ytree_free(y);
	}
	ydoc_free(d);
	return out;
}
