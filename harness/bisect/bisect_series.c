#include "bisect_series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_git.h"
#include "bisect_list.h"
#include "bisect_patches.h"
#include "config.h"
#include "plan.h"
#include "util.h"

/* why without the "NAME:LINE:COL: " of a generated config: its positions
 * are of the point's config, not of the user's file. */
static const char *strip_position(const char *why, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(why, name, n) || why[n] != ':')
		return why;
	const char *p = why + n + 1;
	p += strspn(p, "0123456789");
	if (*p++ != ':')
		return why;
	p += strspn(p, "0123456789");
	return p[0] == ':' && p[1] == ' ' ? p + 2 : why;
}

/* Where point i of s comes from in the config root: its item of bisect:
 * points:, or the variant it is made from (the good end's for a patch or
 * commit point). NULL when unknown. */
static const struct ynode *point_origin(const struct ynode *root, const struct bisect_series *s,
					size_t i, const char *good, const char *bad)
{
	if (!strcmp(s->kind, "variants"))
		return bisect_list_point(root, s->p[i].name);
	return bisect_config_variant(root, i + 1 == s->n ? bad : good);
}

/* Every point's config parses and plans: "PATH:LINE:COL: bisect point
 * NAME: message" else, at the point's origin in root. */
static int check_points(const char *path, const struct ynode *root, const char *good,
			const char *bad, const struct bisect_series *s, char *err, size_t errsz)
{
	char why[1024];
	for (size_t i = 0; i < s->n; i++) {
		const char *name = s->p[i].name;
		struct experiment *e = config_parse(name, s->p[i].config, strlen(s->p[i].config),
						    why, sizeof(why));
		struct plan p = {0};
		int bad_point = !e || plan_build(e, &p, why, sizeof(why));
		plan_free(&p);
		experiment_free(e);
		if (bad_point) {
			const struct ynode *at = point_origin(root, s, i, good, bad);
			char pos[32] = "";
			if (at)
				snprintf(pos, sizeof(pos), ":%d:%d", at->line, at->col);
			snprintf(err, errsz, "%s%s: bisect point %s: %s", path, pos, name,
				 strip_position(why, name));
			return -1;
		}
	}
	return 0;
}

int bisect_series_build(const char *path, const char *text, const char *good, const char *bad,
			struct bisect_series *out, char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse(path, text, strlen(text), err, errsz);
	if (!d)
		return -1;
	const struct ynode *root = ydoc_root(d);
	int rc = bisect_list_series(path, root, good, bad, out, err, errsz);
	if (rc == 1)
		rc = bisect_git_series(path, root, good, bad, out, err, errsz);
	if (rc == 1)
		rc = bisect_patch_series(path, root, good, bad, bisect_patch_files, out, err, errsz);
	if (rc == 1) {
		snprintf(err, errsz, "%s: --good %s and --bad %s are neither points of bisect:"
			 " points: nor variants whose kernels are builds of one source (kernel:"
			 " {build: NAME}) whose patch lists are a prefix of one another or that are"
			 " at two commits of one git repository", path, good, bad);
		rc = -1;
	}
	if (rc == 0 && check_points(path, root, good, bad, out, err, errsz))
		rc = -1;
	ydoc_free(d);
	if (rc)
		bisect_series_free(out);
	return rc;
}

int bisect_series_check_points(const char *path, const char *text, size_t *n_points, char *err,
			       size_t errsz)
{
	struct ydoc *d = ydoc_parse(path, text, strlen(text), err, errsz);
	if (!d)
		return -1;
	int rc = bisect_list_check(path, ydoc_root(d), err, errsz);
	if (rc == 0) {
		const struct ynode *pts = ynode_get(ynode_get(ydoc_root(d), "bisect"), "points");
		struct bisect_series s = {0};
		rc = bisect_series_build(path, text, bisect_list_item_name(pts->items[0]),
					 bisect_list_item_name(pts->items[pts->n - 1]), &s, err,
					 errsz);
		*n_points = s.n;
		bisect_series_free(&s);
	}
	ydoc_free(d);
	return rc;
}
