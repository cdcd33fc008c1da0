/* Figure "box": per table and op one box per column: whiskers at min and
 * max, the box from Q1 to Q3, a line at the median. Q1 and Q3 are the
 * nearest-rank percentiles 25 and 75 of the samples (stats_percentile_sorted,
 * always a sample), the median that of stats_median_sorted; NaN samples are
 * left out as in every statistic. */
#include "plot_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int plot_box(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz)
{
	struct plot_fig f;
	double width = 0.8 / (double)(t->n_cols ? t->n_cols : 1);
	struct buf medians = {0};

	plot_fig_begin(c, &f, t, NULL, "box");
	plot_op_xtics(&f.setup, t);
	buf_printf(&f.setup, "set boxwidth %.6f absolute\nset style fill solid 0.35 border\n",
		   width * 0.85);
	char *yl = xasprintf("%s%s%s (min, Q1, median, Q3, max)", t->metric, *t->unit ? " " : "",
			     t->unit);
	plot_axis_labels(&f.setup, "op", yl);
	free(yl);

	for (size_t col = 0; col < t->n_cols; col++) {
		size_t points = 0;
		for (size_t op = 0; op < t->n_ops; op++) {
			const struct summary_group *g = summary_group_at(t, op, col);
			if (!g->st.n)
				continue;
			double x = (double)op + ((double)col - ((double)t->n_cols - 1) / 2.0) * width;
			double q1 = stats_percentile_sorted(g->sorted, g->st.n, 25);
			double q3 = stats_percentile_sorted(g->sorted, g->st.n, 75);
			/* x min q1 median q3 max */
			double v[] = {x, g->st.min, q1, g->st.median, q3, g->st.max};
			for (size_t i = 0; i < 6; i++) {
				plot_num(&f.data, v[i]);
				buf_puts(&f.data, i < 5 ? " " : "\n");
			}
			points++;
		}
		if (!points) {
			plot_note(c, &f, "series '%s' left out: no finite value", t->cols[col]);
			continue;
		}
		plot_series_title(&f.plot, f.n_series, "1:3:2:6:5 with candlesticks whiskerbars lw 1.5",
				  col, t->cols[col]);
		buf_printf(&medians, ", \\\n     DATA index %zu using 1:4:4:4:4 with candlesticks "
			   "lw 2.5 lc rgb 'black' notitle", f.n_series);
		plot_series_end(&f);
	}
	buf_puts(&f.plot, buf_str(&medians));
	buf_free(&medians);
	return plot_fig_finish(c, &f, "no series has a finite value", err, errsz);
}
