/* A history of plain numbers (schedrig track --values; track.h). */
#include "track.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int track_history_values(const char *name, const char *text, struct track_set *set, char *err,
			 size_t errsz)
{
	struct track_history h = {
		.config = xstrdup(name), .variant = xstrdup(""), .cell = xstrdup(""),
		.load = xstrdup("values"), .metric = xstrdup("value"), .unit = xstrdup(""),
		.op = xstrdup(""), .better = BETTER_LOWER, .part = 1, .n_parts = 1,
		.order = xstrdup("line order"),
	};
	*set = (struct track_set){0};
	size_t line = 0;
	int rc = 0;
	for (const char *p = text; *p && !rc; ) {
		size_t len = strcspn(p, "\n");
		char *l = xasprintf("%.*s", (int)len, p);
		line++;
		p += len + (p[len] == '\n');
		char *t = l + strspn(l, " \t");
		char *end = t + strcspn(t, " \t\r");
		bool one = end[strspn(end, " \t\r")] == '\0'; /* nothing after the word */
		double v;
		if (*t && *t != '#' && !one) {
			t[strcspn(t, "\r")] = '\0';
			rc = err_printf(err, errsz, "%s:%zu: '%s' is not one number", name, line, t);
		} else if (*t && *t != '#') {
			*end = '\0';
			if (!parse_double(t, &v) || !isfinite(v)) {
				rc = err_printf(err, errsz, "%s:%zu: '%s' is not a finite number", name,
						line, t);
			} else {
				h.p = xrealloc(h.p, (h.n + 1) * sizeof(*h.p));
				h.p[h.n++] = (struct track_point){
					.run_id = (int64_t)line, .revision = xasprintf("line%zu", line),
					.has_revision = true, .kind = REVISION_LABEL, .value = v, .n = 1,
				};
			}
		}
		free(l);
	}
	if (!rc && h.n == 0)
		rc = err_printf(err, errsz, "%s: no numbers in it", name);
	h.first = xcalloc(h.n + 1, sizeof(*h.first));
	for (size_t i = 0; i < h.n; i++)
		h.first[i] = true;
	h.n_revisions = h.n;
	set->h = xcalloc(1, sizeof(*set->h));
	set->h[0] = h;
	set->n = 1;
	if (rc)
		track_set_free(set);
	return rc;
}
