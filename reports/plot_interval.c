/* Figure "interval": a metric sampled per interval, op "P-sK" (tcp-rr
 * interval_transactions "pair0-s3": pair 0, interval 3). Per column and
 * iteration the values of all P at the same K are summed (total over the
 * pairs; an iteration whose sum holds a NaN is left out at that K); the
 * line is the Amean of those totals over iterations against K, with error
 * bars of ± Stddev over iterations, stopping at 0 when no sample of the
 * table is negative. */
#include "plot_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	long long k;
	int iteration;
	double value;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->iteration > y->iteration) - (x->iteration < y->iteration);
}

int plot_interval(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz)
{
	struct plot_fig f;
	const char **prefixes = NULL;
	size_t n_prefixes = 0;
	bool nonnegative = plot_table_nonnegative(t);  /* then so is every total */

	plot_fig_begin(c, &f, t, NULL, "interval");
	for (size_t col = 0; col < t->n_cols; col++) {
		struct point *pt = NULL;
		size_t n = 0, cap = 0, points = 0;
		for (size_t i = 0; i < c->t->n; i++) {
			const struct sample_row *row = &c->t->rows[i];
			size_t rc_col, plen;
			long long k;
			if (!plot_row_in(c->s, t, row, &rc_col) || rc_col != col ||
			    !plot_interval_op(row->op, &k, &plen))
				continue;
			bool seen = false;
			for (size_t p = 0; p < n_prefixes && !seen; p++)
				seen = strlen(prefixes[p]) == plen && !strncmp(prefixes[p], row->op, plen);
			if (!seen) {
				prefixes = xrealloc(prefixes, (n_prefixes + 1) * sizeof(*prefixes));
				prefixes[n_prefixes++] = row->op;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				pt = xrealloc(pt, cap * sizeof(*pt));
			}
			pt[n++] = (struct point){k, row->iteration, row->value};
		}
		qsort(pt, n, sizeof(*pt), cmp_point);
		/* Sum per (K, iteration), then Amean and Stddev over iterations. */
		double *totals = xmalloc((n ? n : 1) * sizeof(*totals));
		for (size_t i = 0; i < n;) {
			size_t nt = 0;
			long long k = pt[i].k;
			while (i < n && pt[i].k == k) {
				int it = pt[i].iteration;
				double sum = 0;
				while (i < n && pt[i].k == k && pt[i].iteration == it)
					sum += pt[i++].value;
				if (isfinite(sum))
					totals[nt++] = sum;
			}
			if (!nt)
				continue;
			plot_errorbar_point(&f.data, (double)k, stats_amean(totals, nt),
					    stats_stddev(totals, nt), nonnegative);
			points++;
		}
		free(totals);
		free(pt);
		plot_series_close(c, &f, points, "1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.6", col,
				  t->cols[col]);
	}
	char *yl = xasprintf("%s %s, total over %zu %s, Amean ± Stddev over iterations", t->metric,
			     t->unit, n_prefixes, n_prefixes == 1 ? "series" : "series");
	plot_axis_labels(&f.setup, "interval (s since start)", yl);
	free(yl);
	free(prefixes);
	return plot_fig_finish(c, &f, "no series has a finite value", err, errsz);
}
