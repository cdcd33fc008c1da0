/* compare --ratio: compare-mmtests.pl --print-ratio (Compare.pm
 * _generateRatioComparisonTable and _generateRenderRatioTable, Summarise.pm
 * extractRatioSummary, Stat.pm rdiff, pdiff/pndiff, cidiff, calc_geomean),
 * step for step, in either flavour of the mmtests layouts:
 *
 *                       5.15.0-rc1             5.15.0-rc1
 *                          vanilla sched-moveforward-v1r1
 *   Ratio 1           1.00 (0.00%) (+0.00s)        1.00 (0.16%) (+0.07s)
 *   Dmean Higher        0.00                         1.03
 *   Gmean Higher        1.00                         1.01
 *
 * A "Ratio OP" row per op of the baseline: each column's mean (Amean, or
 * Hmean for a higher-is-better metric) over the baseline's, the change of
 * that ratio from 1 in percent, and (+Ns) mmtests' cidiff of the two means
 * against their intervals mean ± q (q = z·spread as R prints it); then
 * Dmean, Dmin, Dmax of those cidiffs over the ops (when the baseline has
 * any interval) and Gmean, the geometric mean of the ratios. Where mmtests
 * reads an interval it never computed (a column with one sample of an op)
 * it does arithmetic on Perl's undef, so the bounds count as 0 there, as
 * they do here. Departure: compare-mmtests.pl has value formats for only
 * ops + 1 columns and prints the rest as bare "%12.2f" triples; here every
 * column keeps the format. */
#include "mmtests_ratio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A column's mean of one op and its interval, as extractRatioSummary
 * gives them: ci false where mmtests has none (n < 2, or an undefined mean
 * or spread), the bounds then 0 (undef in Perl's arithmetic). */
struct side {
	double mean, lo, hi;
	bool ci;
};

static struct side side_of(const struct summary_table *t, const struct summary_group *g,
			   double alpha)
{
	bool h = t->better == BETTER_HIGHER;
	struct side r = {.mean = g->st.n ? (h ? g->st.hmean : g->st.amean) : NAN};
	double q = stats_meanci_q(h ? g->st.hstddev : g->st.stddev, alpha);
	r.ci = g->st.n >= 2 && !isnan(r.mean) && !isnan(q);
	r.lo = r.ci ? r.mean - q : 0;
	r.hi = r.ci ? r.mean + q : 0;
	return r;
}

/* Stat.pm rdiff: new / base, 0 for a base of 0, 1 for a new of 0. */
static double rdiff(double new_mean, double base)
{
	if (base == 0)
		return 0;
	if (new_mean == 0)
		return 1;
	return new_mean / base;
}

/* One cell of a Ratio row. norm is NaN when the baseline has no interval
 * at all (mmtests prints "(NaNs)" and no D rows then). */
struct cell {
	double ratio, pct, norm;
};

static struct cell cell_of(const struct summary_table *t, size_t op, size_t c, double alpha,
			   bool base_ci)
{
	struct side a = side_of(t, summary_group_at(t, op, c), alpha);
	struct side b = side_of(t, summary_group_at(t, op, 0), alpha);
	struct cell r = {1, 0, base_ci ? 0 : NAN};
	if (isnan(a.mean) || isnan(b.mean))
		return r;
	r.ratio = rdiff(a.mean, b.mean);
	r.pct = stats_pct_change(1, r.ratio, t->better);
	if (base_ci) {
		r.norm = stats_cidiff(a.mean, a.lo, a.hi, b.mean, b.lo, b.hi);
		r.norm = isnan(r.norm) ? 0 : r.norm;
	}
	return r;
}

/* Dmean, Dmin, Dmax and Gmean of column c over the shown ops. */
struct column_stats {
	double dmean, dmin, dmax, gmean;
};

static struct column_stats column_stats(const struct summary_table *t, size_t c, double alpha,
					bool base_ci)
{
	double sum = 0, product = 1;
	size_t n = 0;
	struct column_stats r = {NAN, NAN, NAN, NAN};
	for (size_t op = 0; op < t->n_ops; op++) {
		if (!mmtests_op_shown(t, op))
			continue;
		struct cell x = cell_of(t, op, c, alpha, base_ci);
		sum += x.norm;
		r.dmin = n && r.dmin <= x.norm ? r.dmin : x.norm;
		r.dmax = n && r.dmax >= x.norm ? r.dmax : x.norm;
		product *= x.ratio != 0 ? x.ratio : 0.00001;
		n++;
	}
	if (n) {
		r.dmean = sum / (double)n;
		r.gmean = pow(product, 1.0 / (double)n);
	}
	return r;
}

/* A summary row: its label, then per column one value in the value's
 * format and blanks where the ratio rows have " (x%) (+Ns)". */
static void summary_row(struct buf *out, const char *label, size_t prefix, const double *v,
			const struct summary_table *t, const struct report_opts *o,
			const struct mmtests_flavour *f, const int *widths)
{
	int column = f->value_width + MMTESTS_PCT_WIDTH + MMTESTS_PCT_EXTRA;
	buf_printf(out, "%-*s", (int)prefix, label);
	for (size_t c = 0; c < t->n_cols; c++) {
		buf_printf(out, "%*s", widths[c] - column, "");
		mmtests_put_value(out, v[c], f->value_width, report_decimals(o, t));
		/* sprintf(" (%.2f%%)", undef) and sprintf(" (%+.2fs)", undef)
		 * replaced by as many blanks: 8 and 9. */
		buf_printf(out, "%17s", "");
	}
	buf_puts(out, "\n");
}

static void ratio_rows(struct buf *out, const struct summary_table *t, const struct report_opts *o,
		       const struct mmtests_flavour *f, double alpha, size_t prefix,
		       const int *widths, bool base_ci)
{
	int column = f->value_width + MMTESTS_PCT_WIDTH + MMTESTS_PCT_EXTRA;
	for (size_t op = 0; op < t->n_ops; op++) {
		if (!mmtests_op_shown(t, op))
			continue;
		char *label = mmtests_op_label(f, t, op);
		char *row = xasprintf("Ratio %s", label);
		buf_printf(out, "%-*s", (int)prefix, row);
		for (size_t c = 0; c < t->n_cols; c++) {
			struct cell x = cell_of(t, op, c, alpha, base_ci);
			buf_printf(out, "%*s", widths[c] - column, "");
			mmtests_put_value(out, x.ratio, f->value_width, report_decimals(o, t));
			buf_printf(out, " (%.2f%%)", x.pct);
			if (isnan(x.norm))
				buf_puts(out, " (NaNs)");
			else
				buf_printf(out, " (%+.2fs)", x.norm);
		}
		buf_puts(out, "\n");
		free(row);
		free(label);
	}
}

static void footer(struct buf *out, const struct summary *s, const struct summary_table *t,
		   const struct report_opts *o)
{
	bool h = t->better == BETTER_HIGHER;
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	buf_printf(out, "Ratio (compare-mmtests.pl --print-ratio): each column's %s over %s's, (x%%)"
		   " its change from 1; (+Ns) the difference of the %ss over the facing halves of"
		   " both intervals %s +- z*%s (mmtests cidiff, z for alpha %g); Dmean, Dmin, Dmax:"
		   " their mean, least and greatest over the ops; Gmean: the geometric mean of the"
		   " ratios\n", h ? "Hmean" : "Amean", t->n_cols ? rc.name[0] : "-",
		   h ? "Hmean" : "Amean", h ? "Hmean" : "Amean", h ? "HStddev" : "Stddev",
		   s->alpha);
	report_cols_free(&rc);
	mmtests_left_out_footer(out, t, o);
	report_n_per_column(out, t, o);
	buf_puts(out, "\n");
	report_kernel_lines(out, s, t, o);
}

void mmtests_ratio_table(struct buf *out, const struct summary *s, const struct summary_table *t,
			 const struct report_opts *o, const struct mmtests_flavour *f)
{
	double alpha = s->alpha;
	size_t prefix = 0;
	bool base_ci = false;
	for (size_t op = 0; op < t->n_ops; op++) {
		if (!mmtests_op_shown(t, op))
			continue;
		char *label = mmtests_op_label(f, t, op);
		prefix = strlen(label) > prefix ? strlen(label) : prefix;
		free(label);
		base_ci = base_ci || side_of(t, summary_group_at(t, op, 0), alpha).ci;
	}
	prefix += strlen("Ratio ");
	if (!o->plain) {
		summary_table_title(out, s, t);
		buf_puts(out, "\n");
	}
	int *widths = xcalloc(t->n_cols ? t->n_cols : 1, sizeof(*widths));
	mmtests_header(out, t, o, f, prefix, widths);
	ratio_rows(out, t, o, f, alpha, prefix, widths, base_ci);
	const char *preferred = t->better == BETTER_HIGHER ? "Higher" : "Lower";
	double *v[4];
	for (int k = 0; k < 4; k++)
		v[k] = xcalloc(t->n_cols ? t->n_cols : 1, sizeof(*v[k]));
	for (size_t c = 0; c < t->n_cols; c++) {
		struct column_stats cs = column_stats(t, c, alpha, base_ci);
		v[0][c] = cs.dmean;
		v[1][c] = cs.dmin;
		v[2][c] = cs.dmax;
		v[3][c] = cs.gmean;
	}
	static const char *const names[] = {"Dmean", "Dmin ", "Dmax ", "Gmean"};
	for (int k = base_ci ? 0 : 3; k < 4; k++) {
		char label[32];
		snprintf(label, sizeof(label), "%s %s", names[k], preferred);
		summary_row(out, label, prefix, v[k], t, o, f, widths);
	}
	for (int k = 0; k < 4; k++)
		free(v[k]);
	free(widths);
	if (!o->plain)
		footer(out, s, t, o);
}
