/* The stored histograms of the selected runs as tables of the summary's
 * shape: one group per (load, metric, unit and the dimensions that are not
 * columns), its columns on the summary's column axis (baseline first), its
 * rows the histograms' ops, each (op, column) pooled over the runs
 * (report_pooled: one per iteration, or the repetitions of a repeating
 * load). The percentile and latency layouts both read them. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "load.h"

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

/* Append name to a list of names unless present; its index. */
static size_t name_add(const char ***v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return i;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = name;
	return (*n)++;
}

/* The histograms of one table of the summary's shape: every row of h like
 * h->rows[first], pooled per op and column. */
struct hist_group {
	const struct hist_row *first;
	const char **cols, **ops;
	size_t n_cols, n_ops;
	struct report_pooled *pool; /* n_ops × n_cols */
};

/* Collect the group of h->rows[first]; done[] marks its rows. Columns in
 * the order of the summary's tables of the load (baseline first), then any
 * other in first appearance; --baseline first (a load without tables:
 * --metric named its histograms only). */
static void group_collect(struct hist_group *g, const struct summary *s,
			  const struct report_opts *o, size_t first, bool *done)
{
	const struct hist_table *h = o->hists;
	const struct hist_row *t0 = &h->rows[first];
	enum summary_axis ax = s->columns;
	memset(g, 0, sizeof(*g));
	g->first = t0;
	for (size_t k = 0; k < s->n_tables; k++)
		if (!strcmp(s->tables[k].load, t0->load))
			for (size_t c = 0; c < s->tables[k].n_cols; c++)
				for (size_t i = first; i < h->n; i++)
					if (hist_same_table(t0, &h->rows[i], ax) &&
					    !strcmp(hist_axis(&h->rows[i], ax), s->tables[k].cols[c])) {
						name_add(&g->cols, &g->n_cols, s->tables[k].cols[c]);
						break;
					}
	for (size_t i = first; i < h->n; i++)
		if (hist_same_table(t0, &h->rows[i], ax)) {
			name_add(&g->cols, &g->n_cols, hist_axis(&h->rows[i], ax));
			name_add(&g->ops, &g->n_ops, h->rows[i].op);
		}
	const char *base = o->select ? o->select->baseline : NULL;
	for (size_t c = 1; base && c < g->n_cols; c++)
		if (!strcmp(g->cols[c], base)) {
			base = g->cols[c];
			memmove(g->cols + 1, g->cols, c * sizeof(*g->cols));
			g->cols[0] = base;
			break;
		}
	g->pool = xcalloc(g->n_ops * g->n_cols, sizeof(*g->pool));
	for (size_t k = 0; k < g->n_ops * g->n_cols; k++)
		pooled_init(&g->pool[k]);
	for (size_t i = first; i < h->n; i++) {
		const struct hist_row *r = &h->rows[i];
		if (!hist_same_table(t0, r, ax))
			continue;
		done[i] = true;
		size_t op = name_add(&g->ops, &g->n_ops, r->op);
		size_t c = name_add(&g->cols, &g->n_cols, hist_axis(r, ax));
		pooled_add(&g->pool[op * g->n_cols + c], r);
	}
}

static void group_free(struct hist_group *g)
{
	for (size_t k = 0; k < g->n_ops * g->n_cols; k++)
		pooled_free(&g->pool[k]);
	free(g->pool);
	free(g->cols);
	free(g->ops);
}

/* The title of a histogram group, as a summary table's. */
static void group_title(struct buf *out, const struct summary *s, const struct hist_group *g)
{
	const struct hist_row *t0 = g->first;
	enum summary_axis ax = s->columns;
	struct summary_table tt = {
		.load = t0->load, .metric = t0->metric, .unit = t0->unit, .better = BETTER_LOWER,
		.run = ax == AXIS_RUN ? NULL : t0->run,
		.variant = ax == AXIS_VARIANT ? NULL : t0->variant,
		.cell = ax == AXIS_CELL ? NULL : t0->cell,
	};
	summary_table_title(out, s, &tt);
}

/* Column names of a group in their header form (report_cols). */
static char **group_col_names(const struct hist_group *g, const struct report_opts *o)
{
	struct summary_table t = {.cols = g->cols, .n_cols = g->n_cols};
	struct report_cols rc;
	report_cols_init(&rc, &t, o);
	char **names = rc.name;
	rc.name = NULL;
	cell_names_free(rc.first, rc.n);
	cell_names_free(rc.second, rc.n);
	return names;
}

/* Digits after the point for a histogram: --decimals, else those of the
 * summary's table of its load and metric (wakeup-lat), else of its
 * driver's metric of that name, else of its driver's first metric in its
 * unit (cyclictest's latency histogram: max_latency's 0), else of a table
 * of its load in its unit, else 2. */
static int hist_decimals(const struct summary *s, const struct hist_row *r,
			 const struct report_opts *o)
{
	if (o->decimals >= 0)
		return o->decimals;
	int same_unit = -1;
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		if (strcmp(t->load, r->load))
			continue;
		if (!strcmp(t->metric, r->metric))
			return t->decimals;
		if (same_unit < 0 && !strcmp(t->unit, r->unit))
			same_unit = t->decimals;
	}
	const struct load_ops *ops = r->tool ? load_find(r->tool) : NULL;
	for (size_t k = 0; ops && k < ops->n_metrics; k++)
		if (!strcmp(ops->metrics[k].name, r->metric))
			return ops->metrics[k].decimals;
	for (size_t k = 0; ops && k < ops->n_metrics; k++)
		if (!strcmp(ops->metrics[k].unit, r->unit))
			return ops->metrics[k].decimals;
	return same_unit >= 0 ? same_unit : 2;
}

/* true when h holds a histogram of t's load and metric. */
static bool has_histogram(const struct hist_table *h, const struct summary_table *t)
{
	for (size_t i = 0; h && i < h->n; i++)
		if (!strcmp(h->rows[i].load, t->load) && !strcmp(h->rows[i].metric, t->metric))
			return true;
	return false;
}

/* true when histogram row r is shown: with --metric, when it names r's
 * metric (and --load passes); else when the summary kept a table of r's
 * load (--load). */
static bool shown(const struct summary *s, const struct report_opts *o, const struct hist_row *r)
{
	if (o->select && o->select->n_metrics)
		return summary_opts_selects(o->select, r->load, r->metric);
	for (size_t k = 0; k < s->n_tables; k++)
		if (!strcmp(s->tables[k].load, r->load))
			return true;
	return false;
}

const char *hist_group_noun(const struct hist_group_view *g)
{
	for (size_t k = 0; k < g->n_ops * g->n_cols; k++)
		if (g->pool[k].shares_iteration)
			return "runs";
	return "iterations";
}

void report_hist_groups(const struct summary *s, const struct report_opts *o,
			void (*fn)(void *ctx, const struct hist_group_view *g), void *ctx)
{
	const struct hist_table *h = o->hists;
	bool *done = h && h->n ? xcalloc(h->n, sizeof(*done)) : NULL;
	for (size_t i = 0; h && i < h->n; i++) {
		if (done[i] || !shown(s, o, &h->rows[i]))
			continue;
		struct hist_group g;
		group_collect(&g, s, o, i, done);
		char **names = group_col_names(&g, o);
		struct buf title = {0};
		group_title(&title, s, &g);
		struct hist_group_view v = {
			.title = buf_str(&title), .unit = g.first->unit,
			.decimals = hist_decimals(s, g.first, o),
			.cols = (const char *const *)names, .n_cols = g.n_cols,
			.ops = (const char *const *)g.ops, .n_ops = g.n_ops, .pool = g.pool,
		};
		fn(ctx, &v);
		buf_free(&title);
		cell_names_free(names, g.n_cols);
		group_free(&g);
	}
	free(done);
}

bool report_has_histogram(const struct report_opts *o, const struct summary_table *t)
{
	return has_histogram(o->hists, t);
}
