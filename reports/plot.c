/* plot_all (plot.h): which figures a summary gets, each drawn by its kind's
 * file (plot_common.h). */
#include "plot.h"

#include <stdlib.h>
#include <string.h>

static bool table_is_interval(const struct summary_table *t)
{
	long long k;
	size_t len;
	for (size_t i = 0; i < t->n_ops; i++)
		if (!plot_interval_op(t->ops[i], &k, &len))
			return false;
	return t->n_ops > 0;
}

static bool table_is_latency(const struct summary_table *t)
{
	return strcasestr(t->metric, "lat") || !strcmp(t->unit, "ns") || !strcmp(t->unit, "us") ||
	       !strcmp(t->unit, "usec");
}

int plot_all(const struct sample_table *t, const struct summary *s,
	     const struct plot_opts *o, struct plot_result *r, char *err, size_t errsz)
{
	struct plot_ctx c = {.o = o, .t = t, .s = s, .r = r};
	int rc = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < s->n_tables && !rc; i++) {
		const struct summary_table *tb = &s->tables[i];
		if (table_is_interval(tb)) {
			rc = plot_interval(&c, tb, err, errsz);
			continue;
		}
		rc = plot_mean(&c, tb, err, errsz);
		if (!rc)
			rc = plot_box(&c, tb, err, errsz);
		for (size_t op = 0; !rc && table_is_latency(tb) && op < tb->n_ops; op++) {
			rc = plot_hist(&c, tb, op, err, errsz);
			if (!rc)
				rc = plot_cdf(&c, tb, op, err, errsz);
		}
	}
	/* Heat maps need the cells as columns. */
	if (!rc && s->n_tables) {
		struct summary_opts so;
		struct summary by_cell;
		char e2[256];
		summary_opts_init(&so);
		so.columns = AXIS_CELL;
		so.significance = SIG_NONE;
		if (!summary_build(t, &so, &by_cell, e2, sizeof(e2))) {
			struct plot_ctx hc = c;
			hc.s = &by_cell;
			for (size_t i = 0; i < by_cell.n_tables && !rc; i++) {
				const struct summary_table *bt = &by_cell.tables[i];
				bool wanted = false;   /* only what s holds (--load, --metric) */
				for (size_t j = 0; j < s->n_tables && !wanted; j++)
					wanted = !strcmp(s->tables[j].load, bt->load) &&
						 !strcmp(s->tables[j].metric, bt->metric);
				if (wanted && !table_is_interval(bt))
					rc = plot_heatmap(&hc, &by_cell, bt, err, errsz);
			}
			c.used = hc.used;
			c.n_used = hc.n_used;
			summary_free(&by_cell);
		}
	}
	for (size_t i = 0; i < c.n_used; i++)
		free(c.used[i]);
	free(c.used);
	return rc;
}
