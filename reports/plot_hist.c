/* Figure "hist": the latency histogram of one table's op, one step line
 * per column: the fraction of the column's samples in each bin, so columns
 * with different sample counts compare. Bins are shared by all columns:
 * clamp(ceil(sqrt(largest n)), 5, 40) of them, equal-width between the
 * smallest and largest finite sample, or equal-width in log10 with logx
 * (then samples <= 0 are left out with a note). The x range is the bins'
 * edges, so the first and last bin are drawn whole. */
#include "plot_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int plot_hist(struct plot_ctx *c, const struct summary_table *t, size_t op, char *err,
	      size_t errsz)
{
	struct plot_fig f;
	bool logx = c->o->logx;
	double lo = INFINITY, hi = -INFINITY;
	size_t nmax = 0, dropped = 0;

	plot_fig_begin_op(c, &f, t, op, "hist");
	for (size_t col = 0; col < t->n_cols; col++) {
		const struct summary_group *g = summary_group_at(t, op, col);
		size_t n = 0;
		for (size_t i = 0; i < g->st.n; i++) {
			double v = g->sorted[i];
			if (logx && !(v > 0)) {
				dropped++;
				continue;
			}
			lo = fmin(lo, v);
			hi = fmax(hi, v);
			n++;
		}
		if (n > nmax)
			nmax = n;
	}
	if (dropped)
		plot_note(c, &f, "%zu sample(s) <= 0 left out of the log-x histogram", dropped);
	if (nmax < 2)
		return plot_fig_finish(c, &f, "fewer than 2 finite samples in every series", err,
				       errsz);

	size_t bins = (size_t)ceil(sqrt((double)nmax));
	bins = bins < 5 ? 5 : bins > 40 ? 40 : bins;
	double a = logx ? log10(lo) : lo, b = logx ? log10(hi) : hi;
	if (!(b > a)) {     /* every sample equal: one bin around it */
		a -= 0.5;
		b += 0.5;
		bins = 1;
	}
	double w = (b - a) / (double)bins;
	size_t *count = xcalloc(bins, sizeof(*count));

	plot_metric_xaxis(&f.setup, t, logx);
	/* The bins' edges, not their centres (the points): autoscaling to the
	 * points would cut the first and the last bin in half. */
	buf_puts(&f.setup, "set xrange [");
	plot_num(&f.setup, logx ? pow(10, a) : a);
	buf_puts(&f.setup, ":");
	plot_num(&f.setup, logx ? pow(10, b) : b);
	buf_puts(&f.setup, "]\n");
	buf_puts(&f.setup, "set ylabel 'fraction of samples' noenhanced\n"
		 "set yrange [0:*]\n");
	for (size_t col = 0; col < t->n_cols; col++) {
		const struct summary_group *g = summary_group_at(t, op, col);
		size_t n = 0;
		for (size_t i = 0; i < bins; i++)
			count[i] = 0;
		for (size_t i = 0; i < g->st.n; i++) {
			double v = g->sorted[i];
			if (logx && !(v > 0))
				continue;
			double x = logx ? log10(v) : v;
			size_t k = (size_t)floor((x - a) / w);
			count[k >= bins ? bins - 1 : k]++;
			n++;
		}
		if (!n) {
			plot_note(c, &f, "series '%s' left out: no finite value", t->cols[col]);
			continue;
		}
		for (size_t i = 0; i < bins; i++) {
			double x = a + ((double)i + 0.5) * w;
			plot_num(&f.data, logx ? pow(10, x) : x);
			buf_puts(&f.data, " ");
			plot_num(&f.data, (double)count[i] / (double)n);
			buf_puts(&f.data, "\n");
		}
		char *key = xasprintf("%s (n=%zu)", t->cols[col], n);
		plot_series_title(&f.plot, f.n_series, "1:2 with histeps lw 2", col, key);
		free(key);
		plot_series_end(&f);
	}
	free(count);
	return plot_fig_finish(c, &f, "no series has a finite value", err, errsz);
}
