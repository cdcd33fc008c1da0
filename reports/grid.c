/* Grid layout (seed 002): one matrix axis down, another across.
 *
 * With one statistic (--stat mean, the default) each cell is the value and
 * its change from the baseline cell, as the seed's hackbench tables:
 *
 *   hackbench.latency_nice:   cyclictest.latency_nice=0  cyclictest.latency_nice=-20
 *                        0:       6.44 (0.00%)               5.50 (14.59%)*
 *
 * (the seed's "pct" printed as "%"). Geometry, generalising the seed: row
 * labels "VALUE:" right-aligned to L (the first header cell "ROW_AXIS:"
 * left-aligned in L); column k starts at L + P·k; its header starts 9
 * characters in; its value is right-aligned to end NW = max(13, longest
 * value + 1) characters in, followed by " (x.xx%)" and the marker;
 * P = max(24, longest header + 2, longest value + longest " (x.xx%)*" + 3).
 *
 * With several statistics (--stat min,mean,max) or ops of the metric
 * (--stat p90,p95,p99 for schbench's percentiles) the cells are groups of
 * sub-columns in the seed's boxed table (reports/box.c), one group per
 * value of the column axis.
 *
 * Either way a '*' follows each value whose (cell, op) differs
 * significantly from the baseline column in its mean, the footer names the
 * rule, and the samples per cell (n) follow below. Lines carry no trailing
 * blanks.
 *
 * A grid wider than o->width (compare: the terminal's width when stdout is
 * one, or --width) is transposed, the column axis down and the row axis
 * across, when that makes it narrower (nine values of slice_us across and
 * three of nice down, about 240 characters, become three columns), and a
 * line under it says so; otherwise it stays as --grid names it. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellname.h"

#define HEADER_OFFSET 9

int report_parse_grid_items(struct report_opts *o, const char *list)
{
	size_t n = 0;
	for (const char *p = list;; p += strcspn(p, ",") + 1) {
		size_t len = strcspn(p, ",");
		if (!len || len >= sizeof(o->grid_items[0]) || n == REPORT_MAX_GRID_ITEMS)
			return -1;
		snprintf(o->grid_items[n++], sizeof(o->grid_items[0]), "%.*s", (int)len, p);
		if (!p[len])
			break;
	}
	o->n_grid_items = n;
	return 0;
}

/* One sub-column of a table: an op of the metric, or a statistic. */
struct item {
	size_t op;                 /* SIZE_MAX: a statistic */
	struct summary_stat stat;
	char label[32];
};

/* Resolve o's items against table t: when t has several ops and every
 * item names one of them, the sub-columns are those ops (op mode: the
 * tool's own p90, p95, p99); else every item must be a statistic. Returns
 * the count, or 0 with a message. */
static size_t resolve_items(const struct summary_table *t, const struct report_opts *o,
			    struct item *items, bool *op_mode, char *err, size_t errsz)
{
	size_t n_ops = 0;
	for (size_t i = 0; i < o->n_grid_items; i++) {
		items[i].op = SIZE_MAX;
		for (size_t op = 0; t->n_ops > 1 && op < t->n_ops; op++)
			if (!strcmp(t->ops[op], o->grid_items[i]))
				items[i].op = op;
		n_ops += items[i].op != SIZE_MAX;
	}
	*op_mode = n_ops == o->n_grid_items;
	for (size_t i = 0; i < o->n_grid_items; i++) {
		const char *text = o->grid_items[i];
		if (*op_mode) {
			items[i].stat.kind = STAT_MEAN;
			snprintf(items[i].label, sizeof(items[i].label), "%s", text);
			continue;
		}
		items[i].op = SIZE_MAX;
		if (summary_stat_parse(text, &items[i].stat)) {
			snprintf(err, errsz, "--stat %s is neither a statistic nor, with the other items,"
				 " an op of %s %s", text, t->load, t->metric);
			return 0;
		}
		summary_stat_label(&items[i].stat, t->better, items[i].label, sizeof(items[i].label));
	}
	return o->n_grid_items;
}

/* The axis of the table's cells that name stands for: the axis itself, its
 * label, its shortest form (axis_display) or its key without the load.
 * Returns the number of axes it matches, *axis the first. */
static size_t resolve_axis(const char *name, char *const *axes, size_t n_axes,
			   const struct axis_labels *labels, const char **axis)
{
	size_t n = 0;
	*axis = NULL;
	for (size_t i = 0; i < n_axes; i++) {
		char *shown = axis_display(axes[i], labels, axes, n_axes);
		const char *label = axis_labels_get(labels, axes[i]);
		const char *dot = strchr(axes[i], '.');
		if (!strcmp(axes[i], name) || !strcmp(shown, name) || (label && !strcmp(label, name)) ||
		    (dot && !strcmp(dot + 1, name))) {
			*axis = *axis ? *axis : axes[i];
			n++;
		}
		free(shown);
	}
	return n;
}

/* "--grid NAME: ..." when name is not exactly one axis of the table. */
static int axis_error(const char *name, size_t matches, const struct summary_table *t,
		      char *const *axes, size_t n_axes, char *err, size_t errsz)
{
	struct buf b = {0};
	for (size_t i = 0; i < n_axes; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", axes[i]);
	snprintf(err, errsz, "%s %s of the cells of %s %s (axes: %s)", name,
		 matches ? "stands for several axes" : "is no axis", t->load, t->metric,
		 b.len ? buf_str(&b) : "none");
	buf_free(&b);
	return -1;
}

/* The other axes of a cell as "a=1,b=2" (the grid's group key). */
static char *rest_key(const struct cell_axes *c, const char *row, const char *col)
{
	struct buf b = {0};
	for (size_t i = 0; i < c->n; i++) {
		if (!strcmp(c->kv[i].axis, row) || !strcmp(c->kv[i].axis, col))
			continue;
		buf_printf(&b, "%s%s=%s", b.len ? "," : "", c->kv[i].axis, c->kv[i].value);
	}
	return b.data ? b.data : xstrdup("");
}

static size_t str_index(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = xstrdup(s);
	return (*n)++;
}

/* Append spaces until the current line (started at line_start) is col wide. */
static void pad_to(struct buf *out, size_t line_start, size_t col)
{
	size_t len = out->len - line_start;
	if (len < col)
		buf_printf(out, "%*s", (int)(col - len), "");
}

/* One grid: the table's columns whose other axes read rest, laid out as
 * rows × cols (names in order of appearance), at[r·n_cols + k] the table
 * column or SIZE_MAX. */
struct grid {
	const struct summary *s;
	const struct summary_table *t;
	const struct report_opts *o;
	const struct item *items;
	size_t n_items;
	size_t op;                 /* stat mode: the op; op mode: unused */
	const char *row_axis, *col_axis;
	char *row_shown, *col_shown;
	bool col_labelled;
	char **rows, **cols;
	size_t n_rows, n_cols;
	size_t *at;
};

/* The group of item i in grid cell (r, k), or NULL where there is none. */
static const struct summary_group *item_group(const struct grid *g, size_t i, size_t r, size_t k)
{
	size_t c = g->at[r * g->n_cols + k];
	if (c == SIZE_MAX)
		return NULL;
	size_t op = g->items[i].op != SIZE_MAX ? g->items[i].op : g->op;
	return summary_group_at(g->t, op, c);
}

/* The value of item i in cell (r, k) and its marker. */
static void item_text(const struct grid *g, size_t i, size_t r, size_t k, char *dst, size_t size)
{
	const struct summary_group *grp = item_group(g, i, r, k);
	double v = grp ? summary_stat_value(&g->items[i].stat, g->t->better, grp) : NAN;
	char num[64];
	fmt_double(num, sizeof(num), v, report_decimals(g->o, g->t));
	snprintf(dst, size, "%s%s", num, grp && grp->test.significant ? "*" : "");
}

static void title(struct buf *out, const struct grid *g, const char *rest)
{
	summary_table_title(out, g->s, g->t);
	if (g->items[0].op == SIZE_MAX && *g->t->ops[g->op])
		buf_printf(out, ", op %s", g->t->ops[g->op]);
	if (*rest)
		buf_printf(out, ", %s", rest);
	buf_puts(out, ": ");
	for (size_t i = 0; i < g->n_items; i++)
		buf_printf(out, "%s%s", i ? ", " : "", g->items[i].label);
	buf_printf(out, "; rows %s, columns %s\n", g->row_shown, g->col_shown);
}

/* A column value's header: "AXIS=VALUE", or "LABEL:VALUE" for a label. */
static char *col_header(const struct grid *g, size_t k)
{
	return xasprintf("%s%s%s", g->col_shown, g->col_labelled ? ":" : "=", g->cols[k]);
}

/* The seed's single-statistic grid. */
static void single(struct buf *out, const struct grid *g)
{
	const struct summary_stat *st = &g->items[0].stat;
	size_t n = g->n_rows * g->n_cols;
	double base = NAN;
	const struct summary_group *b0 = item_group(g, 0, 0, 0);
	if (b0)
		base = summary_stat_value(st, g->t->better, b0);
	char **val = xcalloc(n, sizeof(*val)), **pct = xcalloc(n, sizeof(*pct));
	char **head = xcalloc(g->n_cols, sizeof(*head));
	size_t max_val = 0, max_pct = 0, max_head = 0, label_w = strlen(g->row_shown) + 1;
	for (size_t r = 0; r < g->n_rows; r++)
		for (size_t k = 0; k < g->n_cols; k++) {
			size_t i = r * g->n_cols + k;
			const struct summary_group *grp = item_group(g, 0, r, k);
			double v = grp ? summary_stat_value(st, g->t->better, grp) : NAN;
			char num[64], pnum[64];
			fmt_double(num, sizeof(num), v, report_decimals(g->o, g->t));
			fmt_double(pnum, sizeof(pnum), report_pct_change(st, g->t->better, base, v), 2);
			val[i] = xstrdup(num);
			pct[i] = xasprintf(" (%s%%)%s", pnum, grp && grp->test.significant ? "*" : "");
			max_val = strlen(val[i]) > max_val ? strlen(val[i]) : max_val;
			max_pct = strlen(pct[i]) > max_pct ? strlen(pct[i]) : max_pct;
		}
	for (size_t k = 0; k < g->n_cols; k++) {
		head[k] = col_header(g, k);
		max_head = strlen(head[k]) > max_head ? strlen(head[k]) : max_head;
	}
	for (size_t r = 0; r < g->n_rows; r++)
		if (strlen(g->rows[r]) + 1 > label_w)
			label_w = strlen(g->rows[r]) + 1;
	size_t nw = 13 > max_val + 1 ? 13 : max_val + 1;
	size_t pitch = 24;
	if (max_head + 2 > pitch)
		pitch = max_head + 2;
	if (max_val + max_pct + 3 > pitch)
		pitch = max_val + max_pct + 3;

	size_t start = out->len;
	buf_printf(out, "%s:", g->row_shown);
	for (size_t k = 0; k < g->n_cols; k++) {
		pad_to(out, start, label_w + pitch * k + HEADER_OFFSET);
		buf_puts(out, head[k]);
	}
	buf_puts(out, "\n");
	for (size_t r = 0; r < g->n_rows; r++) {
		start = out->len;
		buf_printf(out, "%*s:", (int)label_w - 1, g->rows[r]);
		for (size_t k = 0; k < g->n_cols; k++) {
			size_t i = r * g->n_cols + k;
			size_t end = label_w + pitch * k + nw;
			size_t want = end - strlen(val[i]);
			if (out->len - start >= want)
				buf_puts(out, " ");
			else
				pad_to(out, start, want);
			buf_printf(out, "%s%s", val[i], pct[i]);
		}
		buf_puts(out, "\n");
	}
	cell_names_free(val, n);
	cell_names_free(pct, n);
	cell_names_free(head, g->n_cols);
}

/* The boxed grid: a group of sub-columns per column value. */
static void boxed(struct buf *out, const struct grid *g)
{
	size_t n = g->n_rows * g->n_cols * g->n_items;
	char **cells = xcalloc(n, sizeof(*cells)), **head = xcalloc(g->n_cols, sizeof(*head));
	const char **sub = xcalloc(g->n_items, sizeof(*sub));
	for (size_t r = 0; r < g->n_rows; r++)
		for (size_t k = 0; k < g->n_cols; k++)
			for (size_t i = 0; i < g->n_items; i++) {
				char text[80];
				item_text(g, i, r, k, text, sizeof(text));
				cells[(r * g->n_cols + k) * g->n_items + i] = xstrdup(text);
			}
	for (size_t k = 0; k < g->n_cols; k++)
		head[k] = col_header(g, k);
	for (size_t i = 0; i < g->n_items; i++)
		sub[i] = g->items[i].label;
	struct report_box b = {
		.title = NULL, .corner = g->row_shown, .groups = (const char *const *)head,
		.n_groups = g->n_cols, .sub = sub, .n_sub = g->n_items,
		.rows = (const char *const *)g->rows, .n_rows = g->n_rows,
		.cells = (const char *const *)cells,
	};
	report_box(out, &b);
	cell_names_free(cells, n);
	cell_names_free(head, g->n_cols);
	free(sub);
}

/* n below the grid: "n: N per cell", or a row of counts per grid row. */
static void counts(struct buf *out, const struct grid *g)
{
	size_t lo = SIZE_MAX, hi = 0;
	for (size_t r = 0; r < g->n_rows; r++)
		for (size_t k = 0; k < g->n_cols; k++)
			for (size_t i = 0; i < g->n_items; i++) {
				const struct summary_group *grp = item_group(g, i, r, k);
				size_t n = grp ? grp->st.n : 0;
				lo = n < lo ? n : lo;
				hi = n > hi ? n : hi;
			}
	if (lo == hi) {
		buf_printf(out, "n: %zu per cell\n", lo);
		return;
	}
	buf_printf(out, "n (%s across):\n", g->col_shown);
	for (size_t r = 0; r < g->n_rows; r++) {
		buf_printf(out, "  %s:", g->rows[r]);
		for (size_t k = 0; k < g->n_cols; k++) {
			const struct summary_group *grp = item_group(g, 0, r, k);
			buf_printf(out, " %zu", grp ? grp->st.n : 0);
		}
		buf_puts(out, "\n");
	}
}

/* The widest line of text. */
static size_t text_width(const struct buf *b)
{
	size_t widest = 0;
	for (const char *p = buf_str(b); *p;) {
		size_t len = strcspn(p, "\n");
		widest = len > widest ? len : widest;
		p += len + (p[len] == '\n');
	}
	return widest;
}

/* The table alone: one statistic's cells, or the boxed sub-columns. */
static void body(struct buf *out, const struct grid *g)
{
	if (g->n_items == 1)
		single(out, g);
	else
		boxed(out, g);
}

/* Swap g's rows and columns: the column axis down, the row axis across. */
static void transpose(struct grid *g)
{
	size_t *at = xmalloc(g->n_rows * g->n_cols * sizeof(*at));
	for (size_t r = 0; r < g->n_rows; r++)
		for (size_t k = 0; k < g->n_cols; k++)
			at[k * g->n_rows + r] = g->at[r * g->n_cols + k];
	free(g->at);
	g->at = at;
	const char *axis = g->row_axis;
	g->row_axis = g->col_axis;
	g->col_axis = axis;
	char *shown = g->row_shown, **names = g->rows;
	g->row_shown = g->col_shown;
	g->col_shown = shown;
	g->rows = g->cols;
	g->cols = names;
	size_t n = g->n_rows;
	g->n_rows = g->n_cols;
	g->n_cols = n;
	g->col_labelled = axis_labels_get(g->o->labels, g->col_axis) != NULL;
}

/* The grid's table, transposed when it is wider than o->width and the
 * transposed one is narrower; *transposed says which. g is left as laid
 * out. */
static void fitted_body(struct buf *out, struct grid *g, size_t *asked, bool *transposed)
{
	body(out, g);
	*asked = text_width(out);
	*transposed = false;
	if (!g->o->width || *asked <= g->o->width)
		return;
	struct buf other = {0};
	transpose(g);
	body(&other, g);
	if (text_width(&other) < *asked) {
		buf_free(out);
		*out = other;
		*transposed = true;
		return;
	}
	transpose(g);
	buf_free(&other);
}

static void one_grid(struct buf *out, struct grid *g, const struct cell_axes *cells,
		     const char *rest, char *const *rest_of)
{
	const struct summary_table *t = g->t;
	g->rows = g->cols = NULL;
	g->n_rows = g->n_cols = 0;
	for (size_t c = 0; c < t->n_cols; c++) {
		if (strcmp(rest_of[c], rest))
			continue;
		str_index(&g->rows, &g->n_rows, cell_axes_value(&cells[c], g->row_axis));
		str_index(&g->cols, &g->n_cols, cell_axes_value(&cells[c], g->col_axis));
	}
	g->at = xmalloc(g->n_rows * g->n_cols * sizeof(*g->at));
	for (size_t i = 0; i < g->n_rows * g->n_cols; i++)
		g->at[i] = SIZE_MAX;
	for (size_t c = 0; c < t->n_cols; c++) {
		if (strcmp(rest_of[c], rest))
			continue;
		size_t r = str_index(&g->rows, &g->n_rows, cell_axes_value(&cells[c], g->row_axis));
		size_t k = str_index(&g->cols, &g->n_cols, cell_axes_value(&cells[c], g->col_axis));
		g->at[r * g->n_cols + k] = c;
	}
	struct buf table = {0};
	size_t asked;
	bool transposed;
	fitted_body(&table, g, &asked, &transposed);
	title(out, g, rest);
	buf_append(out, table.data ? table.data : "", table.len);
	buf_free(&table);
	if (transposed)
		buf_printf(out, "Transposed to fit %zu columns (rows and columns as --grid names them:"
			   " %zu wide; --width 0 keeps them)\n", g->o->width, asked);
	report_significance_footer(out, g->s, t, g->o, "*");
	counts(out, g);
	report_kernel_lines(out, g->s, t, g->o);
	if (transposed)
		transpose(g);
	free(g->at);
	cell_names_free(g->rows, g->n_rows);
	cell_names_free(g->cols, g->n_cols);
}

/* Every grid of table t. Returns 0, or -1 with a message. */
static int table_grids(struct buf *out, const struct summary *s, const struct summary_table *t,
		       const struct report_opts *o, bool *first, char *err, size_t errsz)
{
	struct item items[REPORT_MAX_GRID_ITEMS];
	bool op_mode;
	if (!resolve_items(t, o, items, &op_mode, err, errsz))
		return -1;
	size_t n_axes;
	char **axes = cell_axis_names(t->cols, t->n_cols, &n_axes);
	struct grid g = {.s = s, .t = t, .o = o, .items = items, .n_items = o->n_grid_items};
	size_t n_row = resolve_axis(o->grid_row, axes, n_axes, o->labels, &g.row_axis);
	size_t n_col = resolve_axis(o->grid_col, axes, n_axes, o->labels, &g.col_axis);
	int rc = 0;
	if (n_row != 1 || n_col != 1 || g.row_axis == g.col_axis) {
		if (n_row != 1)
			axis_error(o->grid_row, n_row, t, axes, n_axes, err, errsz);
		else if (n_col != 1)
			axis_error(o->grid_col, n_col, t, axes, n_axes, err, errsz);
		else
			snprintf(err, errsz, "%s and %s are one axis", o->grid_row, o->grid_col);
		cell_names_free(axes, n_axes);
		return -1;
	}
	g.row_shown = axis_display(g.row_axis, o->labels, axes, n_axes);
	g.col_shown = axis_display(g.col_axis, o->labels, axes, n_axes);
	g.col_labelled = axis_labels_get(o->labels, g.col_axis) != NULL;

	struct cell_axes *cells = xcalloc(t->n_cols, sizeof(*cells));
	char **rest_of = xcalloc(t->n_cols, sizeof(*rest_of));
	for (size_t c = 0; c < t->n_cols; c++) {
		cell_axes_parse(t->cols[c], &cells[c]);
		rest_of[c] = rest_key(&cells[c], g.row_axis, g.col_axis);
		const char *missing = !cell_axes_value(&cells[c], g.row_axis) ? g.row_axis
				      : !cell_axes_value(&cells[c], g.col_axis) ? g.col_axis : NULL;
		if (missing && !rc) {
			snprintf(err, errsz, "cell '%s' has no axis '%s'", t->cols[c], missing);
			rc = -1;
		}
	}
	/* One grid per combination of the other axes, and per op unless the
	 * sub-columns are the ops. */
	char **rests = NULL;
	size_t n_rests = 0;
	for (size_t c = 0; !rc && c < t->n_cols; c++)
		str_index(&rests, &n_rests, rest_of[c]);
	for (size_t op = 0; !rc && op < (op_mode ? 1 : t->n_ops); op++) {
		g.op = op;
		for (size_t r = 0; r < n_rests; r++) {
			if (!*first)
				buf_puts(out, "\n");
			*first = false;
			one_grid(out, &g, cells, rests[r], rest_of);
		}
	}
	cell_names_free(rests, n_rests);
	for (size_t c = 0; c < t->n_cols; c++)
		cell_axes_free(&cells[c]);
	cell_names_free(rest_of, t->n_cols);
	free(cells);
	free(g.row_shown);
	free(g.col_shown);
	cell_names_free(axes, n_axes);
	return rc;
}

int report_grid(struct buf *out, const struct summary *s, const struct report_opts *o,
		char *err, size_t errsz)
{
	if (s->columns != AXIS_CELL) {
		snprintf(err, errsz, "a grid needs the cells as columns");
		return -1;
	}
	if (!o->grid_row || !o->grid_col || !strcmp(o->grid_row, o->grid_col)) {
		snprintf(err, errsz, "a grid needs two different axes ROW,COL");
		return -1;
	}
	bool first = true;
	for (size_t k = 0; k < s->n_tables; k++)
		if (table_grids(out, s, &s->tables[k], o, &first, err, errsz))
			return -1;
	return 0;
}

static int grid_text(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	char why[512] = "";
	if (!report_grid(out, in->s, in->o, why, sizeof(why)))
		return 0;
	snprintf(err, errsz, "--grid: %s", why);
	return 2;
}

/* compare --grid ROW,COL (which also sets the cell columns) picks it. */
const struct report_layout grid_layout = {
	.name = "grid",
	.text = grid_text,
};
