#include "bisect_git.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_builds.h"
#include "kbuild_git.h"
#include "util.h"
#include "ytree.h"

/* One end of the range: its variant, build and commit. */
struct git_end {
	const char *name;                    /* the variant */
	const struct ynode *v;
	const char *build;
	const char *chain[BISECT_MAX_CHAIN]; /* its base: chain, root first */
	size_t n;
	const char *commit_entry;            /* the entry whose commit: it builds; NULL: none */
	const char *commit, *source;         /* as written (NULL: none) */
	char hash[41];
};

/* The scalar of key in kernels: entry, or NULL. */
static const char *entry_text(const struct ynode *root, const char *entry, const char *key)
{
	const struct ynode *n = ynode_get(bisect_build_node(root, entry), key);
	return n && n->kind == YNODE_SCALAR ? n->text : NULL;
}

/* The last entry of the chain (nearest the build) that sets key or, when
 * also is not NULL, also; NULL when none does. */
static const char *nearest(const struct ynode *root, const struct git_end *e, const char *key,
			   const char *also)
{
	for (size_t i = e->n; i-- > 0;) {
		const struct ynode *b = bisect_build_node(root, e->chain[i]);
		if (ynode_get(b, key) || (also && ynode_get(b, also)))
			return e->chain[i];
	}
	return NULL;
}

/* e's variant, build, chain, source and commit. 1 when the variant is not
 * a build variant; -1 with err. */
static int read_end(const char *path, const struct ynode *root, const char *name,
		    struct git_end *e, char *err, size_t errsz)
{
	e->name = name;
	e->v = bisect_config_variant(root, name);
	e->build = bisect_variant_build(e->v);
	if (!e->build)
		return 1;
	e->n = bisect_build_chain(path, root, e->build, e->chain, err, errsz);
	if (!e->n)
		return -1;
	const char *src = nearest(root, e, "source", NULL);
	const char *at = nearest(root, e, "commit", "source");
	e->source = src ? entry_text(root, src, "source") : NULL;
	e->commit = at ? entry_text(root, at, "commit") : NULL;
	e->commit_entry = e->commit ? at : NULL;
	return 0;
}

/* The text of key as e builds it: the nearest entry's (all of the chain's
 * for patches). malloc'd. */
static char *build_text(const struct ynode *root, const struct git_end *e, const char *key)
{
	if (!strcmp(key, "patches"))
		return bisect_chain_text(root, e->chain, e->n, key);
	const char *at = nearest(root, e, key, NULL);
	return bisect_node_text(at ? ynode_get(bisect_build_node(root, at), key) : NULL);
}

/* Do both builds apply the same patches? */
static bool same_patches(const struct ynode *root, const struct git_end *g,
			 const struct git_end *b)
{
	char *tg = build_text(root, g, "patches"), *tb = build_text(root, b, "patches");
	bool same = !strcmp(tg, tb);
	free(tg);
	free(tb);
	return same;
}

/* Do the builds differ in more than their commit? -1 with err when they
 * do (or the variants differ in more than name: and kernel:). */
static int only_commits_differ(const char *path, const struct ynode *root,
			       const struct git_end *g, const struct git_end *b, char *err,
			       size_t errsz)
{
	static const char *const keys[] = {"config", "make_args", "patches"};
	for (size_t i = 0; i < 3; i++) {
		char *tg = build_text(root, g, keys[i]), *tb = build_text(root, b, keys[i]);
		bool same = !strcmp(tg, tb);
		free(tg);
		free(tb);
		if (!same)
			return err_printf(err, errsz, "%s: kernels: %s and %s differ in %s: as well as"
					  " in commit:, so a step of the git range would change more"
					  " than the commit", path, g->build, b->build, keys[i]);
	}
	struct ytree *t = ytree_new();
	bool alike = bisect_variants_alike(t, g->v, b->v);
	ytree_free(t);
	if (!alike)
		return err_printf(err, errsz, "%s: variants %s and %s differ in more than their kernel"
				  " build: a step would change more than the commit", path,
				  g->name, b->name);
	return 0;
}

/* Both ends at a commit of one source, both commits resolved. 1 when this
 * is no git range (neither at a commit, or both at the same one). */
static int resolve_ends(const char *path, struct git_end *g, struct git_end *b, char *err,
			size_t errsz)
{
	char why[1024];
	if (!g->commit && !b->commit)
		return 1;
	if (!g->commit || !b->commit)
		return err_printf(err, errsz, "%s: --%s %s builds commit: %s of %s, --%s %s no commit:"
				  " (kernels: %s): a git range needs both builds at a commit of one"
				  " repository", path, g->commit ? "good" : "bad",
				  g->commit ? g->name : b->name, g->commit ? g->commit : b->commit,
				  g->commit ? g->source : b->source, g->commit ? "bad" : "good",
				  g->commit ? b->name : g->name, g->commit ? b->build : g->build);
	if (!g->source || !b->source || strcmp(g->source, b->source))
		return err_printf(err, errsz, "%s: --good %s and --bad %s build commits of different"
				  " sources (%s, %s): a git range is of one repository", path,
				  g->name, b->name, g->source ? g->source : "none",
				  b->source ? b->source : "none");
	struct git_end *ends[2] = {g, b};
	for (int i = 0; i < 2; i++)
		if (kgit_resolve(ends[i]->source, ends[i]->commit, ends[i]->hash, why, sizeof(why)))
			return err_printf(err, errsz, "%s: kernels: %s: commit: %s", path,
					  ends[i]->commit_entry, why);
	return strcmp(g->hash, b->hash) ? 0 : 1;
}

/* The range GOOD..BAD, checked: not empty, and starting at a child of
 * GOOD on BAD's first-parent line. */
static int read_range(const char *path, const struct git_end *g, const struct git_end *b,
		      struct kgit_range *r, char *err, size_t errsz)
{
	char why[1024];
	if (kgit_first_parent_range(g->source, g->hash, b->hash, r, why, sizeof(why)))
		return err_printf(err, errsz, "%s: %s", path, why);
	if (r->n == 0)
		return err_printf(err, errsz, "%s: no commit of %s in %.12s..%.12s (git rev-list"
				  " --first-parent): --bad %s (%s) is not after --good %s (%s)",
				  path, g->source, g->hash, b->hash, b->name, b->commit, g->name,
				  g->commit);
	if (strcmp(r->c[0].parent, g->hash))
		return err_printf(err, errsz, "%s: --good %s's commit %.12s is not on the first-parent"
				  " line of --bad %s's %.12s (git rev-list --first-parent %.12s..%.12s"
				  " begins at %.12s, whose first parent is %.12s): bisect between two"
				  " commits of one first-parent history", path, g->name, g->hash,
				  b->name, b->hash, g->hash, b->hash, r->c[0].hash,
				  r->c[0].parent[0] ? r->c[0].parent : "none");
	return 0;
}

/* A copy of kernels: with both ends' commit: pinned to their full hashes,
 * so that no point's config depends on a tag or branch that may move or
 * go before --resume. */
static struct ynode *pinned_kernels(struct ytree *t, const struct ynode *root,
				    const struct git_end *g, const struct git_end *b)
{
	struct ynode *kernels = ytree_copy(t, ynode_get(root, "kernels"));
	const struct git_end *ends[2] = {g, b};
	for (int i = 0; i < 2; i++) {
		struct ynode *entry =
			ytree_copy(t, bisect_build_node(root, ends[i]->commit_entry));
		ytree_set(t, entry, "commit", ytree_scalar(t, ends[i]->hash));
		ytree_set(t, kernels, ends[i]->commit_entry, entry);
	}
	return kernels;
}

/* Point k of the series: the good variant on build name = {base: good's
 * build, commit: hash}. */
static char *commit_point(struct ytree *t, const struct ynode *root, const struct git_end *g,
			  const struct git_end *b, const char *hash, const char *name, char *err,
			  size_t errsz)
{
	struct ynode *build = ytree_mapping(t), *kernel = ytree_mapping(t);
	struct ynode *kernels = pinned_kernels(t, root, g, b), *var = ytree_copy(t, g->v);
	ytree_set(t, build, "base", ytree_scalar(t, g->build));
	ytree_set(t, build, "commit", ytree_scalar(t, hash));
	ytree_set(t, kernels, name, build);
	ytree_set(t, kernel, "build", ytree_scalar(t, name));
	ytree_set(t, var, "name", ytree_scalar(t, name));
	ytree_set(t, var, "kernel", kernel);
	return bisect_point_config(t, root, var, "kernels", kernels, err, errsz);
}

static int add_points(const struct ynode *root, const struct git_end *g,
		      const struct git_end *b, const struct kgit_range *r,
		      struct bisect_series *out, char *err, size_t errsz)
{
	out->kind = "commits";
	for (size_t k = 0; k <= r->n; k++) {
		struct ytree *t = ytree_new();
		const struct git_end *end = k == 0 ? g : k == r->n ? b : NULL;
		char *name = end ? xstrdup(end->name)
				 : xasprintf("%.51s-%.12s", g->name, r->c[k - 1].hash);
		char *label = k == 0 ? xasprintf("commit %s (the good end)", g->hash)
				     : xasprintf("commit %s %s", r->c[k - 1].hash, r->c[k - 1].subject);
		char *text = end ? bisect_point_config(t, root, end->v, "kernels",
						       pinned_kernels(t, root, g, b), err, errsz)
				 : commit_point(t, root, g, b, r->c[k - 1].hash, name, err, errsz);
		if (bisect_series_take(out, t, name, label, text))
			return -1;
	}
	return 0;
}

int bisect_git_series(const char *path, const struct ynode *root, const char *good,
		      const char *bad, struct bisect_series *out, char *err, size_t errsz)
{
	struct git_end g = {0}, b = {0};
	int rc = read_end(path, root, good, &g, err, errsz);
	if (rc == 0)
		rc = read_end(path, root, bad, &b, err, errsz);
	if (rc == 0)
		rc = resolve_ends(path, &g, &b, err, errsz);
	if (rc == 1 && g.commit && b.commit && same_patches(root, &g, &b))
		return err_printf(err, errsz, "%s: --good %s and --bad %s build the same commit %s of"
				  " %s: nothing to bisect", path, good, bad, g.hash, g.source);
	if (rc)
		return rc;
	if (only_commits_differ(path, root, &g, &b, err, errsz))
		return -1;
	struct kgit_range r = {0};
	rc = read_range(path, &g, &b, &r, err, errsz);
	if (rc == 0)
		rc = add_points(root, &g, &b, &r, out, err, errsz);
	kgit_range_free(&r);
	return rc;
}

/* Does the stored kernels: mapping kp differ from the config's ku in
 * commit: values only? */
static bool only_commits_pinned(const struct ynode *ku, const struct ynode *kp)
{
	if (!ku || !kp || ku->kind != YNODE_MAPPING || kp->kind != YNODE_MAPPING || ku->n != kp->n)
		return false;
	bool same = true;
	for (size_t i = 0; i < ku->n && same; i++) {
		const struct ynode *eu = ku->pairs[i].value, *ep = ynode_get(kp, ku->pairs[i].key);
		if (!ep || eu->kind != YNODE_MAPPING || ep->kind != YNODE_MAPPING)
			return false;
		struct ytree *t = ytree_new();
		struct ynode *pinned = ytree_copy(t, eu);
		const struct ynode *commit = ynode_get(ep, "commit");
		if (ynode_get(eu, "commit") && commit)
			ytree_set(t, pinned, "commit", commit);
		char *a = bisect_node_text(pinned), *b = bisect_node_text(ep);
		same = !strcmp(a, b);
		free(a);
		free(b);
		ytree_free(t);
	}
	return same;
}

char *bisect_git_pinned_config(const char *path, const char *text, const char *good_config,
			       char *err, size_t errsz)
{
	struct ydoc *u = ydoc_parse(path, text, strlen(text), err, errsz);
	struct ydoc *p = u ? ydoc_parse("point 0's stored config", good_config,
					strlen(good_config), err, errsz)
			   : NULL;
	char *out = NULL;
	if (p) {
		const struct ynode *kp = ynode_get(ydoc_root(p), "kernels");
		if (!only_commits_pinned(ynode_get(ydoc_root(u), "kernels"), kp)) {
			snprintf(err, errsz, "%s: point 0's stored kernels: differ from the config's"
				 " in more than their commit: values", path);
		} else {
			struct ytree *t = ytree_new();
			struct ynode *root = ytree_copy(t, ydoc_root(u));
			ytree_set(t, root, "kernels", kp);
			out = ytree_emit(root, err, errsz);
			ytree_free(t);
		}
	}
	ydoc_free(p);
	ydoc_free(u);
	return out;
}
