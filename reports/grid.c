/* Grid layout (seed 002): one matrix axis down, another across, a statistic
 * and its change from the baseline cell in each cell:
 *
 *   Test:              Latency Nice: 0         Latency Nice: -20
 *    1-groups:         6.44 (0.00 pct)         5.50 (14.59 pct)
 *
 * (the seed's "pct" printed as "%", as in the other layouts). Geometry,
 * generalising the seed: row labels "VALUE:" right-aligned to L (the first
 * header cell "ROW_AXIS:" left-aligned in L); column k starts at L + P·k;
 * its header starts 9 characters in; its value is right-aligned to end
 * NW = max(13, longest value + 1) characters in, followed by " (x.xx%)";
 * P = max(24, longest header + 2, longest value + longest " (x.xx%)" + 3).
 * Lines carry no trailing blanks. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellname.h"

#define HEADER_OFFSET 9


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

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Append spaces until the current line (started at line_start) is col wide. */
static void pad_to(struct buf *out, size_t line_start, size_t col)
{
	size_t len = out->len - line_start;
	if (len < col)
		buf_printf(out, "%*s", (int)(col - len), "");
}

static void one_grid(struct buf *out, const struct summary *s, const struct summary_table *t,
		     const struct report_opts *o, size_t op, const struct cell_axes *cells,
		     const char *rest, const char *const *rest_of)
{
	char **rows = NULL, **cols = NULL;
	size_t n_rows = 0, n_cols = 0;
	for (size_t c = 0; c < t->n_cols; c++) {
		if (strcmp(rest_of[c], rest))
			continue;
		str_index(&rows, &n_rows, cell_axes_value(&cells[c], o->grid_row));
		str_index(&cols, &n_cols, cell_axes_value(&cells[c], o->grid_col));
	}
	/* grid[r][c] = the table column holding that cell, or SIZE_MAX */
	size_t *at = xmalloc(n_rows * n_cols * sizeof(*at));
	for (size_t i = 0; i < n_rows * n_cols; i++)
		at[i] = (size_t)-1;
	for (size_t c = 0; c < t->n_cols; c++) {
		if (strcmp(rest_of[c], rest))
			continue;
		size_t r = str_index(&rows, &n_rows, cell_axes_value(&cells[c], o->grid_row));
		size_t k = str_index(&cols, &n_cols, cell_axes_value(&cells[c], o->grid_col));
		at[r * n_cols + k] = c;
	}

	const struct summary_stat *st = &o->grid_stat;
	double base = at[0] == (size_t)-1 ? NAN
		      : summary_stat_value(st, t->better, summary_group_at(t, op, at[0]));
	char **val = xcalloc(n_rows * n_cols, sizeof(*val));
	char **pct = xcalloc(n_rows * n_cols, sizeof(*pct));
	size_t max_val = 0, max_pct = 0, max_head = 0, label_w = strlen(o->grid_row) + 1;
	for (size_t i = 0; i < n_rows * n_cols; i++) {
		double v = at[i] == (size_t)-1 ? NAN
			   : summary_stat_value(st, t->better, summary_group_at(t, op, at[i]));
		double p = report_pct_change(st, t->better, base, v);
		char num[64], pnum[64];
		fmt_double(num, sizeof(num), v, report_decimals(o, t));
		fmt_double(pnum, sizeof(pnum), p, 2);
		val[i] = xstrdup(num);
		pct[i] = xasprintf(" (%s%%)", pnum);
		if (strlen(val[i]) > max_val)
			max_val = strlen(val[i]);
		if (strlen(pct[i]) > max_pct)
			max_pct = strlen(pct[i]);
	}
	for (size_t k = 0; k < n_cols; k++) {
		size_t h = strlen(o->grid_col) + 2 + strlen(cols[k]);
		if (h > max_head)
			max_head = h;
	}
	for (size_t r = 0; r < n_rows; r++)
		if (strlen(rows[r]) + 1 > label_w)
			label_w = strlen(rows[r]) + 1;
	size_t nw = 13 > max_val + 1 ? 13 : max_val + 1;
	size_t pitch = 24;
	if (max_head + 2 > pitch)
		pitch = max_head + 2;
	if (max_val + max_pct + 3 > pitch)
		pitch = max_val + max_pct + 3;

	char label[64];
	summary_stat_label(st, t->better, label, sizeof(label));
	summary_table_title(out, s, t);
	if (*t->ops[op])
		buf_printf(out, ", op %s", t->ops[op]);
	if (*rest)
		buf_printf(out, ", %s", rest);
	buf_printf(out, ": %s, rows %s, columns %s\n", label, o->grid_row, o->grid_col);

	size_t start = out->len;
	buf_printf(out, "%s:", o->grid_row);
	for (size_t k = 0; k < n_cols; k++) {
		pad_to(out, start, label_w + pitch * k + HEADER_OFFSET);
		buf_printf(out, "%s: %s", o->grid_col, cols[k]);
	}
	buf_puts(out, "\n");
	for (size_t r = 0; r < n_rows; r++) {
		start = out->len;
		buf_printf(out, "%*s:", (int)label_w - 1, rows[r]);
		for (size_t k = 0; k < n_cols; k++) {
			size_t i = r * n_cols + k;
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
	for (size_t i = 0; i < n_rows * n_cols; i++) {
		free(val[i]);
		free(pct[i]);
	}
	free(val);
	free(pct);
	free(at);
	free_strs(rows, n_rows);
	free_strs(cols, n_cols);
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
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		struct cell_axes *cells = xcalloc(t->n_cols, sizeof(*cells));
		char **rest_of = xcalloc(t->n_cols, sizeof(*rest_of));
		int rc = 0;
		for (size_t c = 0; c < t->n_cols; c++) {
			cell_axes_parse(t->cols[c], &cells[c]);
			rest_of[c] = rest_key(&cells[c], o->grid_row, o->grid_col);
			const char *missing = !cell_axes_value(&cells[c], o->grid_row) ? o->grid_row
					      : !cell_axes_value(&cells[c], o->grid_col) ? o->grid_col : NULL;
			if (missing && !rc) {
				snprintf(err, errsz, "cell '%s' has no axis '%s'", t->cols[c], missing);
				rc = -1;
			}
		}
		/* One grid per op and per combination of the other axes. */
		char **rests = NULL;
		size_t n_rests = 0;
		for (size_t c = 0; !rc && c < t->n_cols; c++)
			str_index(&rests, &n_rests, rest_of[c]);
		for (size_t op = 0; !rc && op < t->n_ops; op++) {
			for (size_t r = 0; r < n_rests; r++) {
				if (!first)
					buf_puts(out, "\n");
				first = false;
				one_grid(out, s, t, o, op, cells, rests[r], (const char *const *)rest_of);
			}
		}
		free_strs(rests, n_rests);
		for (size_t c = 0; c < t->n_cols; c++)
			cell_axes_free(&cells[c]);
		free_strs(rest_of, t->n_cols);
		free(cells);
		if (rc)
			return -1;
	}
	return 0;
}
