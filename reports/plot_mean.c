/* Figure "mean": per table the Amean of each column against the op, with
 * error bars of ± Stddev (sample, n-1) or ± the half-width of the 95 %
 * confidence interval of the mean (Student t, stats_ci_half_t), one line
 * per column; the bars stop at 0 when no sample of the table is negative.
 * Numeric ops (groups, clients, threads) are an x axis of their own
 * (logarithmic when all are > 0 and span a factor of 16 or more); other
 * ops are categories 0..n-1 labelled with the op. */
#include "plot_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int plot_mean(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz)
{
	struct plot_fig f;
	bool numeric = plot_ops_numeric(t);
	bool ci = c->o->errorbars == PLOT_ERR_CI95;
	bool nonnegative = plot_table_nonnegative(t);

	plot_fig_begin(c, &f, t, NULL, "mean");
	if (numeric) {
		double v, lo = INFINITY, hi = -INFINITY;
		for (size_t i = 0; i < t->n_ops; i++) {
			parse_double(t->ops[i], &v);
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		/* Powers-of-two client counts (1 .. 128) read better on a log axis. */
		if (lo > 0 && hi / lo >= 16)
			buf_puts(&f.setup, "set logscale x 2\n");
		buf_puts(&f.setup, "set xtics noenhanced (");
		for (size_t i = 0; i < t->n_ops; i++) {
			parse_double(t->ops[i], &v);
			buf_printf(&f.setup, "%s", i ? ", " : "");
			plot_quote(&f.setup, t->ops[i]);
			buf_puts(&f.setup, " ");
			plot_num(&f.setup, v);
		}
		buf_puts(&f.setup, ")\nset offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n");
	} else {
		plot_op_xtics(&f.setup, t);
	}
	char *yl = xasprintf("%s%s%s, Amean ± %s", t->metric, *t->unit ? " " : "",
			     *t->unit ? t->unit : "", ci ? "95% CI (Student t)" : "Stddev");
	plot_axis_labels(&f.setup, "op", yl);
	free(yl);

	for (size_t col = 0; col < t->n_cols; col++) {
		size_t points = 0;
		for (size_t op = 0; op < t->n_ops; op++) {
			const struct summary_group *g = summary_group_at(t, op, col);
			if (!g->st.n || !isfinite(g->st.amean))
				continue;
			double x = (double)op, e = ci ? g->st.ci95_half : g->st.stddev;
			if (numeric)
				parse_double(t->ops[op], &x);
			plot_errorbar_point(&f.data, x, g->st.amean, e, nonnegative);
			points++;
		}
		plot_series_close(c, &f, points, "1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8", col,
				  t->cols[col]);
	}
	return plot_fig_finish(c, &f, "no series has a finite value", err, errsz);
}
