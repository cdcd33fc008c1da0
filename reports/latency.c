/* Latency summary (seed 003, "BFS vs. mainline scheduler benchmarks"), the
 * lines latt printed over every wake-up:
 *
 *   -rc9
 *           Max                23772 usec
 *           Avg                 1129 usec
 *           Stdev               4328 usec
 *           Stdev mean           117 usec
 *
 * per table, column and op: Max, Avg = the mean, Stdev = the sample
 * standard deviation, "Stdev mean" = Stdev / sqrt(n), then n. Over every
 * event when the metric has histograms (pooled over iterations,
 * report_pooled), else over the per-iteration values, said so (samples and
 * runs where an iteration gave several: report_n_noun, hist_group_noun); a footnote
 * says why Avg and Stdev are NaN when events overflowed the histogram.
 *
 * With several columns each Avg line carries its change against the
 * baseline column as mmtests prints it, " (  -2.50%)", starred
 * " * -23.89%*" where the summary's rule finds the Avg differs: tested on
 * the per-iteration values, or for pooled events on each iteration's mean
 * of its events (the iteration is what was repeated; events within one
 * are not independent samples), and a footer names the rule. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Avg line's comparison with the baseline column: its change in
 * percent (positive is better) and whether the test of the Avg says it
 * differs; none on a table of one column. */
struct avg_cmp {
	bool shown;
	double pct;
	bool significant;
};

static void line(struct buf *out, const char *label, double v, int decimals, const char *unit,
		 const struct avg_cmp *cmp)
{
	char num[64];
	fmt_double(num, sizeof(num), v, decimals);
	buf_printf(out, "        %-10s%14s%s%s", label, num, *unit ? " " : "", unit);
	if (cmp && cmp->shown) {
		/* mmtests Compare.pm: " (%7.2f%%)", starred where significant. */
		const char *open = cmp->significant ? " *" : " (", *close = cmp->significant ? "%*" : "%)";
		if (isnan(cmp->pct))
			buf_printf(out, "%s%7s%s", open, "NaN", close);
		else
			buf_printf(out, "%s%7.2f%s", open, cmp->pct, close);
	}
	buf_puts(out, "\n");
}

/* One column's block: latt's lines, then n. */
struct block_in {
	const char *col, *op;
	bool ops;
	double max, mean, stddev;
	size_t n;
	int decimals;
	const char *unit, *what;
	struct avg_cmp cmp;
};

static void block(struct buf *out, const struct block_in *b)
{
	buf_puts(out, "\n");
	if (b->ops)
		buf_printf(out, "%s %s\n", b->col, *b->op ? b->op : "all");
	else
		buf_printf(out, "%s\n", b->col);
	line(out, "Max", b->max, b->decimals, b->unit, NULL);
	line(out, "Avg", b->mean, b->decimals, b->unit, &b->cmp);
	line(out, "Stdev", b->stddev, b->decimals, b->unit, NULL);
	line(out, "Stdev mean", b->n ? b->stddev / sqrt((double)b->n) : NAN, b->decimals, b->unit,
	     NULL);
	buf_printf(out, "        %-10s%14zu %s\n", "n", b->n, b->what);
}

/* The test of the Avg, the arithmetic mean, of ascending values b against
 * the baseline's a, by the summary's rule (Welch and ci-overlap on Avg and
 * Stdev whatever the metric's direction, since Avg is the Amean); no test
 * under Welch where neither side varies (t undefined, as summary.c). */
static bool avg_significant(const struct summary *s, const double *a, size_t n_a,
			    const double *b, size_t n_b)
{
	struct stats_summary sa, sb;
	struct stats_test t;
	stats_summarise(a, n_a, BETTER_LOWER, &sa);
	stats_summarise(b, n_b, BETTER_LOWER, &sb);
	if (s->significance == SIG_WELCH && n_a >= 2 && n_b >= 2 && sa.stddev == 0 &&
	    sb.stddev == 0)
		return false;
	stats_compare(s->significance, s->alpha, BETTER_LOWER, a, &sa, b, &sb, &t);
	return t.valid && t.significant;
}

/* The per-run means of a pool (NaN left out), ascending, malloc'd. */
static double *run_means(const struct report_pooled *p, size_t *n)
{
	double *v = xcalloc(p->n_hists ? p->n_hists : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < p->n_hists; i++)
		if (!isnan(p->means[i]))
			v[(*n)++] = p->means[i];
	stats_sort(v, *n);
	return v;
}

/* The Avg comparison of pool p (column c) against the baseline pool. */
static struct avg_cmp pool_cmp(const struct summary *s, const struct hist_group_view *g, size_t op,
			       size_t c)
{
	struct avg_cmp r = {.shown = g->n_cols > 1};
	const struct report_pooled *base = &g->pool[op * g->n_cols], *p = &g->pool[op * g->n_cols + c];
	r.pct = c ? stats_pct_change(pooled_mean(base), pooled_mean(p), BETTER_LOWER)
		  : isnan(pooled_mean(p)) ? NAN : 0.0;
	if (!c)
		return r;
	size_t n_a, n_b;
	double *a = run_means(base, &n_a), *b = run_means(p, &n_b);
	r.significant = avg_significant(s, a, n_a, b, n_b);
	free(a);
	free(b);
	return r;
}

/* The significance footer of a latency table: the rule, on the Avg line,
 * and what it tested. */
static void footer(struct buf *out, const struct summary *s, const char *baseline,
		   const char *tested)
{
	if (s->significance == SIG_NONE) {
		buf_puts(out, "\nSignificance: none (--significance none)\n");
		return;
	}
	buf_printf(out, "\nSignificance (stars, on the Avg line; (x%%) its change, positive is"
		   " better): %s of the Avg against %s, alpha %g, n >= %d on both sides, on %s\n",
		   stats_significance_describe(s->significance), baseline, s->alpha,
		   s->significance == SIG_MANN_WHITNEY ? 1 : 2, tested);
}

struct events_ctx {
	struct buf *out;
	const struct summary *s;
};

static void events(void *ctx, const struct hist_group_view *g)
{
	struct events_ctx *e = ctx;
	struct buf *out = e->out;
	bool overflow = false, mixed = false;
	if (out->len)
		buf_puts(out, "\n");
	buf_printf(out, "%s: every event, pooled over %s\n", g->title, hist_group_noun(g));
	for (size_t c = 0; c < g->n_cols; c++)
		for (size_t op = 0; op < g->n_ops; op++) {
			const struct report_pooled *p = &g->pool[op * g->n_cols + c];
			double mean = pooled_mean(p);
			mixed = mixed || pooled_mixed(p);
			overflow = overflow || (isnan(mean) && p->overflow && !pooled_mixed(p));
			struct block_in b = {
				.col = g->cols[c], .op = g->ops[op], .ops = g->n_ops > 1,
				.max = pooled_mixed(p) ? NAN : p->max, .mean = mean,
				.stddev = pooled_stddev(p), .n = (size_t)pooled_events(p),
				.decimals = g->decimals, .unit = g->unit, .what = "events",
				.cmp = pool_cmp(e->s, g, op, c),
			};
			block(out, &b);
		}
	if (overflow)
		buf_puts(out, "\nNaN Avg and Stdev: events in the histogram overflow (at or above its"
			      " limit) have no value, so their mean is unknown; a larger histogram"
			      " range (cyclictest histogram_us) resolves it\n");
	if (mixed)
		buf_puts(out, "\nNaN: iterations with overflows above different histogram limits are"
			      " not pooled\n");
	if (g->n_cols > 1)
		footer(out, e->s, g->cols[0], strcmp(hist_group_noun(g), "runs")
			   ? "the per-iteration means of the events (n = iterations), not on the events"
			   : "the per-run means of the events (n = runs), not on the events");
}

/* A table without histograms: the per-iteration values. */
static void values_table(struct buf *out, const struct summary *s, const struct summary_table *t,
			 const struct report_opts *o)
{
	const char *n_noun = report_n_noun(t);
	summary_table_title(out, s, t);
	buf_printf(out, ": per-%s values, n = %s (no histogram of its events is stored)\n",
		   strcmp(n_noun, "iterations") ? "sample" : "iteration", n_noun);
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	for (size_t c = 0; c < t->n_cols; c++)
		for (size_t op = 0; op < t->n_ops; op++) {
			const struct summary_group *g = summary_group_at(t, op, c);
			const struct summary_group *base = summary_group_at(t, op, 0);
			struct block_in b = {
				.col = rc.name[c], .op = t->ops[op], .ops = t->n_ops > 1,
				.max = g->st.max, .mean = g->st.amean, .stddev = g->st.stddev,
				.n = g->st.n, .decimals = report_decimals(o, t), .unit = t->unit,
				.what = n_noun,
				.cmp = {
					.shown = t->n_cols > 1,
					.pct = c ? stats_pct_change(base->st.amean, g->st.amean, t->better)
						 : isnan(g->st.amean) ? NAN : 0.0,
					.significant = c && avg_significant(s, base->sorted, base->st.n,
									    g->sorted, g->st.n),
				},
			};
			block(out, &b);
		}
	if (t->n_cols > 1)
		footer(out, s, rc.name[0], strcmp(n_noun, "iterations") ? "the samples"
									 : "the per-iteration values");
	report_kernel_lines(out, s, t, o);
	report_cols_free(&rc);
}

void report_latency(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	struct buf own = {0};
	struct events_ctx e = {&own, s};
	report_hist_groups(s, o, events, &e);
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		if (report_has_histogram(o, t))
			continue;
		if (own.len)
			buf_puts(&own, "\n");
		values_table(&own, s, t, o);
	}
	buf_append(out, own.data ? own.data : "", own.len);
	buf_free(&own);
}

static int latency_text(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	report_latency(out, in->s, in->o);
	return 0;
}

const struct report_layout latency_layout = {
	.name = "latency",
	.description = "latt's Max, Avg, Stdev, Stdev mean, n over\n"
		       "every event the same way",
	.section = "Latency summary",
	.anchor = "latency",
	.histograms = true,
	.text = latency_text,
};
