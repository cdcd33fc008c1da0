/* Figure "cdf": the empirical distribution function of one table's op, one
 * step line per column: F(x) = (number of samples <= x) / n, from the
 * sorted samples. logx draws x logarithmically (samples <= 0 left out with
 * a note). */
#include "plot_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int plot_cdf(struct plot_ctx *c, const struct summary_table *t, size_t op, char *err,
	     size_t errsz)
{
	struct plot_fig f;
	bool logx = c->o->logx;
	size_t nmax = 0, dropped = 0;

	plot_fig_begin_op(c, &f, t, op, "cdf");
	for (size_t col = 0; col < t->n_cols; col++) {
		const struct summary_group *g = summary_group_at(t, op, col);
		size_t n = 0;
		for (size_t i = 0; i < g->st.n; i++)
			if (!logx || g->sorted[i] > 0)
				n++;
		dropped += g->st.n - n;
		if (n > nmax)
			nmax = n;
	}
	if (dropped)
		plot_note(c, &f, "%zu sample(s) <= 0 left out of the log-x CDF", dropped);
	if (nmax < 2)
		return plot_fig_finish(c, &f, "fewer than 2 finite samples in every series", err,
				       errsz);
	plot_metric_xaxis(&f.setup, t, logx);
	buf_puts(&f.setup, "set ylabel 'fraction of samples <= x' noenhanced\n"
		 "set yrange [0:1.02]\n");
	for (size_t col = 0; col < t->n_cols; col++) {
		const struct summary_group *g = summary_group_at(t, op, col);
		size_t first = 0;
		while (logx && first < g->st.n && !(g->sorted[first] > 0))
			first++;
		size_t n = g->st.n - first;
		if (!n) {
			plot_note(c, &f, "series '%s' left out: no finite value", t->cols[col]);
			continue;
		}
		plot_num(&f.data, g->sorted[first]);
		buf_puts(&f.data, " 0\n");
		for (size_t i = 0; i < n; i++) {
			plot_num(&f.data, g->sorted[first + i]);
			buf_puts(&f.data, " ");
			plot_num(&f.data, (double)(i + 1) / (double)n);
			buf_puts(&f.data, "\n");
		}
		char *key = xasprintf("%s (n=%zu)", t->cols[col], n);
		plot_series_title(&f.plot, f.n_series, "1:2 with steps lw 2", col, key);
		free(key);
		plot_series_end(&f);
	}
	return plot_fig_finish(c, &f, "no series has a finite value", err, errsz);
}
