#include "bisect_patches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_builds.h"
#include "kbuild_series.h"
#include "util.h"
#include "ytree.h"

void bisect_patch_list_add(struct bisect_patch_list *l, const char *file, const char *origin,
			   const char *subject)
{
	l->p = xrealloc(l->p, (l->n + 1) * sizeof(*l->p));
	l->p[l->n++] = (struct bisect_patch){xstrdup(file), xstrdup(origin), xstrdup(subject), 0};
}

void bisect_patch_list_free(struct bisect_patch_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->p[i].file);
		free(l->p[i].origin);
		free(l->p[i].subject);
	}
	free(l->p);
	*l = (struct bisect_patch_list){0};
}

/* How many patches of s came from file. */
static size_t patches_of(const struct kseries *s, const char *file)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += !strcmp(s->p[i].file, file);
	return n;
}

int bisect_patch_files(const char *path, const struct ynode *entry,
		       struct bisect_patch_list *out, char *err, size_t errsz)
{
	struct kseries s = {0};
	char why[1024];
	int rc = 0;
	if (entry->kind != YNODE_SCALAR)
		return err_printf(err, errsz, "%s:%d:%d: a patches: entry is a file name", path,
			    entry->line, entry->col);
	if (kseries_add(&s, entry->text, 0, why, sizeof(why)))
		rc = err_printf(err, errsz, "%s:%d:%d: %s", path, entry->line, entry->col, why);
	for (size_t i = 0; i < s.n && rc == 0; i++) {
		size_t n = patches_of(&s, s.p[i].file);
		if (n > 1)
			rc = err_printf(err, errsz, "%s:%d:%d: %s holds %zu patches, and a point of a"
					" bisection names its patches by file: put them in a directory,"
					" one file each (git format-patch -o DIR, or git mailsplit)", path,
					entry->line, entry->col, s.p[i].file, n);
		else
			bisect_patch_list_add(out, s.p[i].file, s.p[i].file, s.p[i].subject);
	}
	kseries_free(&s);
	return rc;
}

/* The patches of builds chain[from..n) expanded, in order. */
static int expand_chain(const char *path, const struct ynode *root, const char **chain,
			size_t from, size_t n, bisect_expand_fn expand,
			struct bisect_patch_list *out, char *err, size_t errsz)
{
	for (size_t i = from; i < n; i++) {
		const struct ynode *p = ynode_get(bisect_build_node(root, chain[i]), "patches");
		if (!p)
			continue;
		if (p->kind != YNODE_SEQUENCE)
			return err_printf(err, errsz, "%s:%d:%d: kernels: %s: patches: is a list", path,
				    p->line, p->col, chain[i]);
		const struct ynode *f = ynode_get(bisect_build_node(root, chain[i]), "patch_fuzz");
		long long fuzz = 0;
		if (f && (f->kind != YNODE_SCALAR || !parse_ll(f->text, &fuzz)))
			return err_printf(err, errsz, "%s:%d:%d: kernels: %s: patch_fuzz: is an"
					  " integer", path, f->line, f->col, chain[i]);
		size_t before = out->n;
		for (size_t j = 0; j < p->n; j++)
			if (expand(path, p->items[j], out, err, errsz))
				return -1;
		for (size_t j = before; j < out->n; j++)
			out->p[j].fuzz = (int)fuzz;
	}
	return 0;
}

/* Do builds a and b (chains ca, cb) set key alike along their chains?
 * Compared as written. */
static bool same_key(const struct ynode *root, const char **ca, size_t na, const char **cb,
		     size_t nb, const char *key)
{
	char *a = bisect_chain_text(root, ca, na, key), *b = bisect_chain_text(root, cb, nb, key);
	bool same = !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

/* The refusal of a series the wrong way round: good's build gb has bad's
 * patches and more (-1 with err). */
static int reversed(const char *path, const char *gb, const char *bb, char *err, size_t errsz)
{
	return err_printf(err, errsz, "%s: kernels: the good end's build %s has every patch of the"
			  " bad end's %s and more: the good end must be the shorter patch list;"
			  " to find the patch that changed something (for the better too), give"
			  " --good the variant of %s and --bad the variant of %s (a bisection"
			  " finds where the metric moved, either way)", path, gb, bb, bb, gb);
}

/* The patches beyond good's build in bad's (the series to bisect). */
static int series_beyond(const char *path, const struct ynode *root, const char *gb,
			 const char *bb, bisect_expand_fn expand, struct bisect_patch_list *out,
			 char *err, size_t errsz)
{
	const char *cg[BISECT_MAX_CHAIN], *cb[BISECT_MAX_CHAIN];
	size_t ng = bisect_build_chain(path, root, gb, cg, err, errsz);
	size_t nb = ng ? bisect_build_chain(path, root, bb, cb, err, errsz) : 0;
	if (!ng || !nb)
		return -1;
	/* good's build on bad's chain: the patches of the builds after it. */
	static const char *const own[] = {"source", "commit", "config", "make_args"};
	for (size_t i = 0; i < nb; i++) {
		if (strcmp(cb[i], gb))
			continue;
		for (size_t j = i + 1; j < nb; j++)
			for (size_t o = 0; o < 4; o++)
				if (ynode_get(bisect_build_node(root, cb[j]), own[o]))
					return err_printf(err, errsz, "%s: kernels: %s sets %s: of"
							  " its own, so %s is not %s plus patches",
							  path, cb[j], own[o], bb, gb);
		return expand_chain(path, root, cb, i + 1, nb, expand, out, err, errsz);
	}
	for (size_t i = 0; i < ng; i++)
		if (!strcmp(cg[i], bb))
			return reversed(path, gb, bb, err, errsz);
	if (!same_key(root, cg, ng, cb, nb, "source") || !same_key(root, cg, ng, cb, nb, "commit") ||
	    !same_key(root, cg, ng, cb, nb, "config") ||
	    !same_key(root, cg, ng, cb, nb, "make_args"))
		return err_printf(err, errsz, "%s: kernels: %s and %s are not builds of one source with"
			    " one config and make_args (source:, commit:, config: or make_args:"
			    " differ along their base: chains)", path, gb, bb);
	struct bisect_patch_list pg = {0}, pb = {0};
	int rc = expand_chain(path, root, cg, 0, ng, expand, &pg, err, errsz) ||
		 expand_chain(path, root, cb, 0, nb, expand, &pb, err, errsz) ? -1 : 0;
	bool prefix = rc == 0 && pb.n < pg.n;
	for (size_t i = 0; prefix && i < pb.n; i++)
		prefix = !strcmp(pg.p[i].file, pb.p[i].file);
	if (prefix)
		rc = reversed(path, gb, bb, err, errsz);
	for (size_t i = 0; rc == 0 && i < pg.n; i++)
		if (i >= pb.n || strcmp(pg.p[i].file, pb.p[i].file))
			rc = err_printf(err, errsz, "%s: the patch list of %s is not a prefix of %s's"
				  " (patch %zu: %s)", path, gb, bb, i + 1, pg.p[i].origin);
	for (size_t i = pg.n; rc == 0 && i < pb.n; i++)
		bisect_patch_list_add(out, pb.p[i].file, pb.p[i].origin, pb.p[i].subject);
	bisect_patch_list_free(&pg);
	bisect_patch_list_free(&pb);
	return rc;
}

/* The builds of point k's first k patches, added to kernels: each run of
 * patches of one fuzz a build based on the one before (the first on gb),
 * the last named name, the others NAME-partJ. */
static void point_builds(struct ytree *t, struct ynode *kernels, const char *gb,
			 const struct bisect_patch_list *s, size_t k, const char *name)
{
	const char *base = gb;
	char *prev = NULL;
	for (size_t i = 0, part = 0; i < k; part++) {
		struct ynode *build = ytree_mapping(t), *patches = ytree_sequence(t);
		int fuzz = s->p[i].fuzz;
		for (; i < k && s->p[i].fuzz == fuzz; i++)
			ytree_append(t, patches, ytree_scalar(t, s->p[i].file));
		ytree_set(t, build, "base", ytree_scalar(t, base));
		ytree_set(t, build, "patches", patches);
		if (fuzz) {
			char *f = xasprintf("%d", fuzz);
			ytree_set(t, build, "patch_fuzz", ytree_scalar(t, f));
			free(f);
		}
		char *mine = i == k ? xstrdup(name) : xasprintf("%s-part%zu", name, part + 1);
		ytree_set(t, kernels, mine, build);
		free(prev);
		prev = mine;
		base = prev;
	}
	free(prev);
}

/* Point k of the series: the good variant on build GOOD-pK. */
static char *patch_point(struct ytree *t, const struct ynode *root, const struct ynode *gv,
			 const char *gb, const struct bisect_patch_list *s, size_t k,
			 const char *name, char *err, size_t errsz)
{
	struct ynode *kernels = ytree_copy(t, ynode_get(root, "kernels"));
	struct ynode *var = ytree_copy(t, gv), *kernel = ytree_mapping(t);
	point_builds(t, kernels, gb, s, k, name);
	ytree_set(t, kernel, "build", ytree_scalar(t, name));
	ytree_set(t, var, "name", ytree_scalar(t, name));
	ytree_set(t, var, "kernel", kernel);
	return bisect_point_config(t, root, var, "kernels", kernels, err, errsz);
}

static int add_points(const char *path, const struct ynode *root, const struct ynode *gv,
		      const struct ynode *bv, const char *gb, const struct bisect_patch_list *s,
		      struct bisect_series *out, char *err, size_t errsz)
{
	const char *good = ynode_get(gv, "name")->text, *bad = ynode_get(bv, "name")->text;
	out->kind = "patches";
	for (size_t k = 0; k <= s->n; k++) {
		struct ytree *t = ytree_new();
		char *name = k == 0 ? xstrdup(good) : k == s->n ? xstrdup(bad)
							       : xasprintf("%s-p%zu", good, k);
		char *label = k == 0 ? xasprintf("%s (no patch of the series)", good)
					   : xasprintf("%s: %s", s->p[k - 1].origin, s->p[k - 1].subject);
		char *text = k == 0 ? bisect_point_config(t, root, gv, NULL, NULL, err, errsz)
			     : k == s->n ? bisect_point_config(t, root, bv, NULL, NULL, err, errsz)
					 : patch_point(t, root, gv, gb, s, k, name, err, errsz);
		if (bisect_series_take(out, t, name, label, text))
			return -1;
	}
	(void)path;
	return 0;
}

int bisect_patch_series(const char *path, const struct ynode *root, const char *good,
			const char *bad, bisect_expand_fn expand, struct bisect_series *out,
			char *err, size_t errsz)
{
	const struct ynode *gv = bisect_config_variant(root, good);
	const struct ynode *bv = bisect_config_variant(root, bad);
	const char *gb = bisect_variant_build(gv), *bb = bisect_variant_build(bv);
	if (!gb && !bb)
		return 1;
	if (!gb || !bb)
		return err_printf(err, errsz, "%s: --%s %s is %s, so there is no patch series or git"
			    " range between the two", path, gb ? "bad" : "good", gb ? bad : good,
			    (gb ? bv : gv) ? "not a kernel: {build: NAME} variant"
					   : "not a variant of variants:");
	if (!strcmp(gb, bb))
		return err_printf(err, errsz, "%s: --good %s and --bad %s run the same build '%s'", path,
			    good, bad, gb);
	struct ytree *t = ytree_new();
	bool alike = bisect_variants_alike(t, gv, bv);
	ytree_free(t);
	if (!alike)
		return err_printf(err, errsz, "%s: variants %s and %s differ in more than their kernel"
			    " build: a step would change more than the patches", path, good, bad);
	struct bisect_patch_list s = {0};
	int rc = series_beyond(path, root, gb, bb, expand, &s, err, errsz);
	if (rc == 0 && s.n == 0)
		rc = err_printf(err, errsz, "%s: %s's build has no patch beyond %s's: nothing to bisect",
			  path, bad, good);
	if (rc == 0)
		rc = add_points(path, root, gv, bv, gb, &s, out, err, errsz);
	bisect_patch_list_free(&s);
	return rc;
}
