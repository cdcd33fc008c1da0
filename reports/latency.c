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
 * says why Avg and Stdev are NaN when events overflowed the histogram. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void line(struct buf *out, const char *label, double v, int decimals, const char *unit)
{
	char num[64];
	fmt_double(num, sizeof(num), v, decimals);
	buf_printf(out, "        %-10s%14s%s%s\n", label, num, *unit ? " " : "", unit);
}

static void block(struct buf *out, const char *col, const char *op, bool ops, double max,
		  double mean, double stddev, size_t n, int decimals, const char *unit,
		  const char *what)
{
	buf_puts(out, "\n");
	if (ops)
		buf_printf(out, "%s %s\n", col, *op ? op : "all");
	else
		buf_printf(out, "%s\n", col);
	line(out, "Max", max, decimals, unit);
	line(out, "Avg", mean, decimals, unit);
	line(out, "Stdev", stddev, decimals, unit);
	line(out, "Stdev mean", n ? stddev / sqrt((double)n) : NAN, decimals, unit);
	buf_printf(out, "        %-10s%14zu %s\n", "n", n, what);
}

static void events(void *ctx, const struct hist_group_view *g)
{
	struct buf *out = ctx;
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
			block(out, g->cols[c], g->ops[op], g->n_ops > 1, pooled_mixed(p) ? NAN : p->max,
			      mean, pooled_stddev(p), (size_t)pooled_events(p), g->decimals, g->unit,
			      "events");
		}
	if (overflow)
		buf_puts(out, "\nNaN Avg and Stdev: events in the histogram overflow (at or above its"
			      " limit) have no value, so their mean is unknown; a larger histogram"
			      " range (cyclictest histogram_us) resolves it\n");
	if (mixed)
		buf_puts(out, "\nNaN: iterations with overflows above different histogram limits are"
			      " not pooled\n");
}

void report_latency(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	struct buf own = {0};
	report_hist_groups(s, o, events, &own);
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		if (report_has_histogram(o, t))
			continue;
		if (own.len)
			buf_puts(&own, "\n");
		const char *n_noun = report_n_noun(t);
		summary_table_title(&own, s, t);
		buf_printf(&own, ": per-%s values, n = %s (no histogram of its events is stored)\n",
			   strcmp(n_noun, "iterations") ? "sample" : "iteration", n_noun);
		struct report_cols rc;
		report_cols_init(&rc, t, o);
		for (size_t c = 0; c < t->n_cols; c++)
			for (size_t op = 0; op < t->n_ops; op++) {
				const struct summary_group *g = summary_group_at(t, op, c);
				block(&own, rc.name[c], t->ops[op], t->n_ops > 1, g->st.max, g->st.amean,
				      g->st.stddev, g->st.n, report_decimals(o, t), t->unit, n_noun);
			}
		report_cols_free(&rc);
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
