/* The points a bisection walks, good end first: each a name, a label and
 * the config text of one variant. bisect's providers build a series
 * (harness/bisect/bisect_series.h), the store keeps it
 * (harness/store/store_bisect.h). */
#ifndef SCHEDRIG_BISECT_POINTS_H
#define SCHEDRIG_BISECT_POINTS_H

#include <stddef.h>

struct bisect_point {
	char *name;    /* the point's variant name, as tables show it */
	char *label;   /* what the point is, for the output: the variant name,
			* or "0003-x.patch: sched/fair: subject" for a patch,
			* "commit HASH subject" for a commit */
	char *config;  /* the config text of the point: the user's config with
			* variants: replaced by the point's variant alone */
};

struct bisect_series {
	const char *kind;   /* "variants" | "patches" | "commits" (static string) */
	struct bisect_point *p;
	size_t n;
};

/* Append a point (strings copied). */
void bisect_series_add(struct bisect_series *s, const char *name, const char *label,
		       const char *config);
/* Free the points and their strings; *s is empty again. */
void bisect_series_free(struct bisect_series *s);

#endif
