/* Percentile tables (seed 002, schbench style), boxed by report_box:
 *
 *   cyclictest latency (us, lower is better), run r: every event, pooled over iterations
 *   ---------------------------------------------------------
 *   |Op |        vanilla        |        patched        |
 *   ...
 *
 * A metric with stored histograms shows the distribution of every event:
 * the bucket counts of all iterations of an op and column pooled into one
 * histogram (report_pooled), read at each percentile (nearest rank, the
 * bucket's bound clamped to the observed Min and Max). A metric without
 * one is a per-iteration summary, and its footer says so with n =
 * iterations: a tool's own statistics (schbench's p90, p99 ...) as their
 * mean over the iterations, anything else as percentiles of the
 * per-iteration values. Where an iteration gave several samples or
 * histograms (a repeating load's repetitions, per-thread values) the
 * words are samples and runs instead (report_n_noun, hist_group_noun). */
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL_MAX 64

/* The percentile labels of o: "50th", "99.9th". */
static char **pct_labels(const struct report_opts *o)
{
	char **l = xcalloc(o->n_percentiles, sizeof(*l));
	for (size_t i = 0; i < o->n_percentiles; i++)
		l[i] = xasprintf("%gth", o->percentiles[i]);
	return l;
}

/* "n: COL N events (K iterations), ..." of a group ("K runs" when some
 * iteration gave several: hist_group_noun). */
static void group_counts(struct buf *out, const struct hist_group_view *g)
{
	buf_puts(out, "n:");
	for (size_t c = 0; c < g->n_cols; c++) {
		size_t lo = SIZE_MAX, hi = 0;
		uint64_t n = 0;
		for (size_t op = 0; op < g->n_ops; op++) {
			const struct report_pooled *p = &g->pool[op * g->n_cols + c];
			lo = p->n_hists < lo ? p->n_hists : lo;
			hi = p->n_hists > hi ? p->n_hists : hi;
			n += pooled_events(p);
		}
		buf_printf(out, "%s %s %llu events (", c ? "," : "", g->cols[c], (unsigned long long)n);
		if (lo == hi)
			buf_printf(out, "%zu", lo);
		else
			buf_printf(out, "%zu-%zu", lo, hi);
		buf_printf(out, " %s)", hist_group_noun(g));
	}
	buf_puts(out, "\n");
}

/* The text of percentile pct of p: the value, ">=LIMIT" in the overflow,
 * NaN when there is none. Sets *censored, *mixed. */
static void pooled_cell(const struct report_pooled *p, double pct, int decimals, char *dst,
			bool *censored, bool *mixed)
{
	struct stats_hist_pct r;
	*mixed = *mixed || pooled_mixed(p);
	if (pooled_percentile(p, pct, &r)) {
		fmt_double(dst, CELL_MAX, NAN, decimals);
	} else if (r.censored) {
		char num[CELL_MAX - 2];
		fmt_double(num, sizeof(num), r.value, decimals);
		snprintf(dst, CELL_MAX, ">=%s", num);
		*censored = true;
	} else {
		fmt_double(dst, CELL_MAX, r.value, decimals);
	}
}

/* Where the boxes go and how. */
struct box_ctx {
	struct buf *out;
	const struct report_opts *o;
};

/* The box of one histogram group (report_hist_groups). */
static void hist_box(void *ctx, const struct hist_group_view *g)
{
	struct buf *out = ((struct box_ctx *)ctx)->out;
	const struct report_opts *o = ((struct box_ctx *)ctx)->o;
	size_t np = o->n_percentiles, n = g->n_ops * g->n_cols * np;
	char **cells = xcalloc(n ? n : 1, sizeof(*cells)), **sub = pct_labels(o);
	const char **rows = xcalloc(g->n_ops ? g->n_ops : 1, sizeof(*rows));
	bool censored = false, mixed = false;
	for (size_t op = 0; op < g->n_ops; op++) {
		rows[op] = *g->ops[op] ? g->ops[op] : "all";
		for (size_t c = 0; c < g->n_cols; c++)
			for (size_t i = 0; i < np; i++) {
				char text[CELL_MAX];
				pooled_cell(&g->pool[op * g->n_cols + c], o->percentiles[i], g->decimals,
					    text, &censored, &mixed);
				cells[(op * g->n_cols + c) * np + i] = xstrdup(text);
			}
	}
	char *title = xasprintf("%s: every event, pooled over %s", g->title, hist_group_noun(g));
	struct report_box b = {
		.title = title, .corner = "Op", .groups = g->cols, .n_groups = g->n_cols,
		.sub = (const char *const *)sub, .n_sub = np, .rows = rows, .n_rows = g->n_ops,
		.cells = (const char *const *)cells,
	};
	if (out->len)
		buf_puts(out, "\n");
	report_box(out, &b);
	buf_printf(out, "Pooled: the bucket counts of all %s of an op and column summed into"
		   " one histogram (percentiles of every event, never an average of"
		   " per-iteration percentiles); nearest rank, the bucket's upper bound within"
		   " the observed Min and Max\n", hist_group_noun(g));
	group_counts(out, g);
	if (censored)
		buf_puts(out, ">=LIMIT: the percentile lies in the histogram overflow, at or above"
			 " its limit; a larger histogram range (cyclictest histogram_us) resolves it\n");
	if (mixed)
		buf_puts(out, "NaN: iterations with overflows above different histogram limits are"
			 " not pooled\n");
	free(title);
	cell_names_free(cells, n);
	cell_names_free(sub, np);
	free(rows);
}

/* true when op names a statistic a tool computed itself (schbench's p99,
 * a min, max or mean): a per-iteration summary of events. */
static bool tool_statistic(const char *op)
{
	double p;
	return !strcmp(op, "min") || !strcmp(op, "max") || !strcmp(op, "mean") || !strcmp(op, "avg") ||
	       (op[0] == 'p' && parse_double(op + 1, &p) && p > 0 && p <= 100);
}

/* A summary table without histograms: per-iteration summaries, or
 * per-sample ones where an iteration gave several (report_n_noun). */
static void summary_box(struct buf *out, const struct summary *s, const struct summary_table *t,
			const struct report_opts *o)
{
	bool own = t->n_ops > 0;
	for (size_t op = 0; op < t->n_ops; op++)
		own = own && tool_statistic(t->ops[op]);
	size_t n_sub = own ? t->n_ops : o->n_percentiles, n_rows = own ? 1 : t->n_ops;
	size_t n = n_rows * t->n_cols * n_sub;
	char **cells = xcalloc(n ? n : 1, sizeof(*cells));
	char **sub = own ? NULL : pct_labels(o);
	const char *mean_row[] = {"mean"};
	const struct summary_stat mean = {STAT_MEAN, 0};
	for (size_t r = 0; r < n_rows; r++)
		for (size_t c = 0; c < t->n_cols; c++)
			for (size_t i = 0; i < n_sub; i++) {
				const struct summary_group *g = summary_group_at(t, own ? i : r, c);
				double v = own ? summary_stat_value(&mean, t->better, g)
					       : stats_percentile_sorted(g->sorted, g->st.n, o->percentiles[i]);
				char num[CELL_MAX];
				fmt_double(num, sizeof(num), v, report_decimals(o, t));
				cells[(r * t->n_cols + c) * n_sub + i] = xstrdup(num);
			}
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	const char *n_noun = report_n_noun(t);
	bool per_iteration = !strcmp(n_noun, "iterations");
	struct buf title = {0};
	summary_table_title(&title, s, t);
	buf_puts(&title, per_iteration ? ": per-iteration summaries" :
		 ": per-sample summaries (several samples per iteration)");
	struct report_box b = {
		.title = buf_str(&title), .corner = own ? "" : "Op",
		.groups = (const char *const *)rc.name, .n_groups = t->n_cols,
		.sub = own ? t->ops : (const char *const *)sub, .n_sub = n_sub,
		.rows = own ? mean_row : t->ops, .n_rows = n_rows, .cells = (const char *const *)cells,
	};
	report_box(out, &b);
	if (own)
		buf_printf(out, "Summaries: %s prints its own %s statistics per run and no events to"
			   " pool; each is its mean over the %s\n", t->load, t->metric, n_noun);
	else
		buf_puts(out, per_iteration ? "Per-iteration values: nearest-rank percentiles of"
			 " whole-iteration results, not of events\n" : "Per-sample values:"
			 " nearest-rank percentiles of the samples (the repetitions of a repeating"
			 " load, a tool's per-thread values), not of events\n");
	report_n_per_column(out, t, o);
	buf_printf(out, " %s\n", n_noun);
	report_cols_free(&rc);
	buf_free(&title);
	cell_names_free(cells, n);
	if (sub)
		cell_names_free(sub, n_sub);
}

void report_percentiles(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	struct buf own = {0};
	struct box_ctx ctx = {&own, o};
	report_hist_groups(s, o, hist_box, &ctx);
	for (size_t k = 0; k < s->n_tables; k++) {
		if (report_has_histogram(o, &s->tables[k]))
			continue;
		if (own.len)
			buf_puts(&own, "\n");
		summary_box(&own, s, &s->tables[k], o);
	}
	buf_append(out, own.data ? own.data : "", own.len);
	buf_free(&own);
}

static int percentiles_text(struct buf *out, const struct report_input *in, char *err,
			    size_t errsz)
{
	(void)err;
	(void)errsz;
	report_percentiles(out, in->s, in->o);
	return 0;
}

const struct report_layout percentiles_layout = {
	.name = "percentiles",
	.description = "p50 p90 p95 p99 p99.9 of every event, the\n"
		       "stored histograms of all runs pooled\n"
		       "(cyclictest histogram_us, tcp-rr,\n"
		       "wakeup-lat); other metrics say they are\n"
		       "per-iteration summaries (n = iterations;\n"
		       "samples where an iteration gave several)",
	.section = "Percentiles",
	.anchor = "percentiles",
	.histograms = true,
	.text = percentiles_text,
};
