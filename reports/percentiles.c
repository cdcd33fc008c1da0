/* Percentile table (seed 002, schbench style):
 *
 *   -------------------------------------------
 *   |Op  |        vanilla        |  patched ...
 *   |    |-----------------------|---------
 *   |    |  90th |  95th |  99th |  90th ...
 *   |----|-------|-------|-------|---------
 *   |1   |  4264 |  6744 | 15664 |  ...
 *   -------------------------------------------
 *
 * Each sub-cell is " %*s " right-aligned to the widest label or value of the
 * table; a column name is centred over its group (extra space right);
 * percentiles are nearest rank of the samples, never averaged.
 *
 * With histograms (report_percentiles_hist) each (load, metric) of
 * histograms gets one more box of the same shape after the sample tables:
 * the bucket counts of all iterations of an op and column pooled into one
 * histogram (pooling counts is the distribution of all wake-ups, not an
 * average of percentiles), read with stats_hist_percentile; a percentile in
 * the overflow prints as ">=LIMIT". */
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dashes(struct buf *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_puts(out, "-");
}

#define CELL_MAX 64

/* The box: title line, header rows, one row per op; cells[(op·n_cols + c)·np
 * + i] is the text of percentile i of op in column c. */
static void box(struct buf *out, const char *title, const char *const *cols, size_t n_cols,
		const char *const *ops, size_t n_ops, const struct report_opts *o,
		char (*cells)[CELL_MAX])
{
	size_t np = o->n_percentiles, sw = 0, ow = 2;
	char labels[REPORT_MAX_PERCENTILES][32];
	for (size_t i = 0; i < np; i++) {
		snprintf(labels[i], sizeof(labels[i]), "%gth", o->percentiles[i]);
		if (strlen(labels[i]) > sw)
			sw = strlen(labels[i]);
	}
	for (size_t op = 0; op < n_ops; op++) {
		if (strlen(ops[op]) > ow)
			ow = strlen(ops[op]);
		for (size_t k = 0; k < n_cols * np; k++)
			if (strlen(cells[op * n_cols * np + k]) > sw)
				sw = strlen(cells[op * n_cols * np + k]);
	}
	/* Widen the sub-columns until every column name fits over its group. */
	for (size_t c = 0; c < n_cols; c++)
		while (np * (sw + 2) + np - 1 < strlen(cols[c]))
			sw++;
	size_t group = np * (sw + 2) + np - 1;
	size_t total = 1 + ow + 1 + n_cols * (group + 1);

	buf_puts(out, title);
	buf_puts(out, "\n");
	dashes(out, total);
	buf_printf(out, "\n|%-*s|", (int)ow, "Op");
	for (size_t c = 0; c < n_cols; c++) {
		size_t len = strlen(cols[c]), left = (group - len) / 2;
		buf_printf(out, "%*s%s%*s|", (int)left, "", cols[c], (int)(group - len - left), "");
	}
	buf_printf(out, "\n|%*s|", (int)ow, "");
	for (size_t c = 0; c < n_cols; c++) {
		dashes(out, group);
		buf_puts(out, "|");
	}
	buf_printf(out, "\n|%*s|", (int)ow, "");
	for (size_t c = 0; c < n_cols; c++)
		for (size_t i = 0; i < np; i++)
			buf_printf(out, " %*s |", (int)sw, labels[i]);
	buf_puts(out, "\n|");
	dashes(out, ow);
	buf_puts(out, "|");
	for (size_t c = 0; c < n_cols; c++)
		for (size_t i = 0; i < np; i++) {
			dashes(out, sw + 2);
			buf_puts(out, "|");
		}
	buf_puts(out, "\n");
	for (size_t op = 0; op < n_ops; op++) {
		buf_printf(out, "|%-*s|", (int)ow, ops[op]);
		for (size_t k = 0; k < n_cols * np; k++)
			buf_printf(out, " %*s |", (int)sw, cells[op * n_cols * np + k]);
		buf_puts(out, "\n");
	}
	dashes(out, total);
	buf_puts(out, "\n");
}

static void table(struct buf *out, const struct summary *s, const struct summary_table *t,
		  const struct report_opts *o)
{
	size_t np = o->n_percentiles;
	char (*cells)[CELL_MAX] = xcalloc(t->n_ops * t->n_cols * np + 1, sizeof(*cells));
	struct buf title = {0};

	for (size_t op = 0; op < t->n_ops; op++)
		for (size_t c = 0; c < t->n_cols; c++) {
			const struct summary_group *g = summary_group_at(t, op, c);
			for (size_t i = 0; i < np; i++)
				fmt_double(cells[(op * t->n_cols + c) * np + i], CELL_MAX,
					   stats_percentile_sorted(g->sorted, g->st.n, o->percentiles[i]),
					   report_decimals(o, t));
		}
	summary_table_title(&title, s, t);
	box(out, buf_str(&title), t->cols, t->n_cols, t->ops, t->n_ops, o, cells);
	report_n_per_column(out, t, o);
	buf_puts(out, "\n");
	buf_free(&title);
	free(cells);
}

/* ---- histograms -------------------------------------------------------- */

/* The value of axis a of a histogram row. */
static const char *hist_axis(const struct hist_row *r, enum summary_axis a)
{
	return a == AXIS_VARIANT ? r->variant : a == AXIS_CELL ? r->cell : r->run;
}

/* Same table: load, metric, unit and the dimensions other than the column axis. */
static bool hist_same_table(const struct hist_row *a, const struct hist_row *b,
			    enum summary_axis cols)
{
	return !strcmp(a->load, b->load) && !strcmp(a->metric, b->metric) &&
	       !strcmp(a->unit, b->unit) &&
	       (cols == AXIS_VARIANT || !strcmp(a->variant, b->variant)) &&
	       (cols == AXIS_CELL || !strcmp(a->cell, b->cell)) &&
	       (cols == AXIS_RUN || !strcmp(a->run, b->run));
}

/* Append name to a list of names unless present. */
static void name_add(const char ***v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = name;
}

/* One pooled histogram: every row of one table, op and column. */
struct pooled {
	size_t n_hists;
	bool mixed;           /* rows with different buckets or limit: not pooled */
	double width, limit, max_observed;
	size_t n_buckets;
	uint64_t *counts, overflow;
};

static void pool_add(struct pooled *p, const struct hist_row *r)
{
	if (!p->n_hists++) {
		p->width = r->bucket_width;
		p->limit = r->limit;
		p->n_buckets = r->n_buckets;
		p->max_observed = r->max_observed;
		p->counts = xcalloc(r->n_buckets + 1, sizeof(*p->counts));
	} else if (p->width != r->bucket_width || p->limit != r->limit ||
		   p->n_buckets != r->n_buckets) {
		p->mixed = true;
		return;
	}
	for (size_t i = 0; i < r->n_buckets; i++)
		p->counts[i] += r->counts[i];
	p->overflow += r->overflow;
	if (isnan(p->max_observed) || isnan(r->max_observed))
		p->max_observed = NAN; /* unknown in one: no cap */
	else if (r->max_observed > p->max_observed)
		p->max_observed = r->max_observed;
}

/* Text of percentile pct of p: the bucket bound, ">=LIMIT" when censored,
 * NaN when the rows could not be pooled or hold no value. Sets *censored. */
static void pooled_cell(const struct pooled *p, double pct, int decimals, char *dst,
			bool *censored)
{
	struct stats_hist_pct r;
	double *upper = xcalloc(p->n_buckets + 1, sizeof(*upper));
	for (size_t i = 0; i < p->n_buckets; i++)
		upper[i] = (double)i * p->width;
	struct stats_hist h = {
		.upper = upper, .count = p->counts, .n = p->n_buckets, .overflow = p->overflow,
		.limit = p->limit, .max_observed = p->max_observed,
	};
	if (!p->n_hists || p->mixed || stats_hist_percentile(&h, pct, &r)) {
		fmt_double(dst, CELL_MAX, NAN, decimals);
	} else if (r.censored) {
		char num[CELL_MAX - 2];
		fmt_double(num, sizeof(num), r.value, decimals);
		snprintf(dst, CELL_MAX, ">=%s", num);
		*censored = true;
	} else {
		fmt_double(dst, CELL_MAX, r.value, decimals);
	}
	free(upper);
}

/* The box of the histograms of rows[0]'s table (rows after it of the same
 * table included); done[] marks the rows used. */
static void hist_box(struct buf *out, const struct summary *s, const struct hist_table *h,
		     size_t first, bool *done, const struct report_opts *o)
{
	const struct hist_row *t0 = &h->rows[first];
	enum summary_axis ax = s->columns;
	const char **cols = NULL, **ops = NULL;
	size_t n_cols = 0, n_ops = 0, np = o->n_percentiles;

	/* Columns in the order of the sample tables of the load (baseline
	 * first), then any other by first appearance. */
	for (size_t k = 0; k < s->n_tables; k++)
		if (!strcmp(s->tables[k].load, t0->load))
			for (size_t c = 0; c < s->tables[k].n_cols; c++)
				for (size_t i = first; i < h->n; i++)
					if (hist_same_table(t0, &h->rows[i], ax) &&
					    !strcmp(hist_axis(&h->rows[i], ax), s->tables[k].cols[c])) {
						name_add(&cols, &n_cols, s->tables[k].cols[c]);
						break;
					}
	for (size_t i = first; i < h->n; i++)
		if (hist_same_table(t0, &h->rows[i], ax)) {
			name_add(&cols, &n_cols, hist_axis(&h->rows[i], ax));
			name_add(&ops, &n_ops, h->rows[i].op);
		}

	struct pooled *pool = xcalloc(n_ops * n_cols, sizeof(*pool));
	for (size_t i = first; i < h->n; i++) {
		const struct hist_row *r = &h->rows[i];
		if (!hist_same_table(t0, r, ax))
			continue;
		done[i] = true;
		size_t op = 0, c = 0;
		while (strcmp(ops[op], r->op))
			op++;
		while (strcmp(cols[c], hist_axis(r, ax)))
			c++;
		pool_add(&pool[op * n_cols + c], r);
	}

	char (*cells)[CELL_MAX] = xcalloc(n_ops * n_cols * np + 1, sizeof(*cells));
	bool censored = false, mixed = false;
	for (size_t op = 0; op < n_ops; op++)
		for (size_t c = 0; c < n_cols; c++) {
			const struct pooled *p = &pool[op * n_cols + c];
			mixed = mixed || p->mixed;
			for (size_t i = 0; i < np; i++)
				pooled_cell(p, o->percentiles[i], o->decimals >= 0 ? o->decimals : 2,
					    cells[(op * n_cols + c) * np + i], &censored);
		}

	char metric[128];
	snprintf(metric, sizeof(metric), "%s histogram", t0->metric);
	struct summary_table tt = {
		.load = t0->load, .metric = metric, .unit = t0->unit, .better = BETTER_LOWER,
		.run = ax == AXIS_RUN ? NULL : t0->run,
		.variant = ax == AXIS_VARIANT ? NULL : t0->variant,
		.cell = ax == AXIS_CELL ? NULL : t0->cell,
	};
	struct buf title = {0};
	summary_table_title(&title, s, &tt);
	box(out, buf_str(&title), cols, n_cols, ops, n_ops, o, cells);

	buf_puts(out, "Pooled: the bucket counts of all iterations of an op and column summed into"
		      " one histogram (percentiles of all wake-ups, never an average of"
		      " per-iteration percentiles); nearest rank, the bucket's upper bound, at"
		      " most the observed Max\n");
	buf_puts(out, "pooled:");
	for (size_t c = 0; c < n_cols; c++) {
		size_t lo = SIZE_MAX, hi = 0;
		uint64_t n = 0;
		for (size_t op = 0; op < n_ops; op++) {
			const struct pooled *p = &pool[op * n_cols + c];
			lo = p->n_hists < lo ? p->n_hists : lo;
			hi = p->n_hists > hi ? p->n_hists : hi;
			if (!p->mixed) {
				n += p->overflow;
				for (size_t i = 0; i < p->n_buckets; i++)
					n += p->counts[i];
			}
		}
		buf_printf(out, "%s %s ", c ? "," : "", cols[c]);
		if (lo == hi)
			buf_printf(out, "%zu", lo);
		else
			buf_printf(out, "%zu-%zu", lo, hi);
		buf_printf(out, " iterations, %llu samples", (unsigned long long)n);
	}
	buf_puts(out, "\n");
	if (censored)
		buf_puts(out, ">=LIMIT: the percentile lies in the histogram overflow, at or above"
			 " its limit; a larger histogram range (cyclictest histogram_us) resolves it\n");
	if (mixed)
		buf_puts(out, "NaN: iterations with different histogram buckets are not pooled\n");
	buf_free(&title);
	free(cells);
	for (size_t k = 0; k < n_ops * n_cols; k++)
		free(pool[k].counts);
	free(pool);
	free(cols);
	free(ops);
}

void report_percentiles_hist(struct buf *out, const struct summary *s, const struct hist_table *h,
			     const struct report_opts *o)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		if (k)
			buf_puts(out, "\n");
		table(out, s, &s->tables[k], o);
	}
	if (!h || !h->n)
		return;
	bool *done = xcalloc(h->n, sizeof(*done));
	for (size_t i = 0; i < h->n; i++) {
		if (done[i])
			continue;
		/* Only loads the summary kept (--load). */
		bool kept = false;
		for (size_t k = 0; k < s->n_tables && !kept; k++)
			kept = !strcmp(s->tables[k].load, h->rows[i].load);
		if (!kept) {
			done[i] = true;
			continue;
		}
		buf_puts(out, "\n");
		hist_box(out, s, h, i, done, o);
	}
	free(done);
}

void report_percentiles(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	report_percentiles_hist(out, s, NULL, o);
}
