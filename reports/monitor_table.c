/* Monitor table in mmtests' monitor style (label + one value per column). */
#include "monitor_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define COLUMN_WIDTH 13

void monitor_table_init(struct monitor_table *t, const char *title, const char *const *columns,
			size_t n)
{
	memset(t, 0, sizeof(*t));
	t->title = xstrdup(title);
	t->columns = xcalloc(n ? n : 1, sizeof(*t->columns));
	for (size_t i = 0; i < n; i++)
		t->columns[i] = xstrdup(columns[i]);
	t->n_columns = n;
}

double *monitor_table_row(struct monitor_table *t, const char *label)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (!strcmp(t->rows[i].label, label))
			return t->rows[i].values;
	t->rows = xrealloc(t->rows, (t->n_rows + 1) * sizeof(*t->rows));
	struct monitor_row *r = &t->rows[t->n_rows++];
	r->label = xstrdup(label);
	r->values = xcalloc(t->n_columns ? t->n_columns : 1, sizeof(*r->values));
	for (size_t c = 0; c < t->n_columns; c++)
		r->values[c] = NAN;
	return r->values;
}

void monitor_table_free(struct monitor_table *t)
{
	for (size_t i = 0; i < t->n_rows; i++) {
		free(t->rows[i].label);
		free(t->rows[i].values);
	}
	for (size_t i = 0; i < t->n_columns; i++)
		free(t->columns[i]);
	free(t->rows);
	free(t->columns);
	free(t->title);
	memset(t, 0, sizeof(*t));
}

static void end_line(struct buf *out, size_t start)
{
	while (out->len > start && out->data[out->len - 1] == ' ')
		out->len--;
	if (out->data)
		out->data[out->len] = '\0';
	buf_puts(out, "\n");
}

void report_monitor_table(struct buf *out, const struct monitor_table *t, int decimals)
{
	int width = 0;
	for (size_t i = 0; i < t->n_rows; i++)
		if ((int)strlen(t->rows[i].label) > width)
			width = (int)strlen(t->rows[i].label);

	buf_printf(out, "%s\n", t->title);
	for (int row = 0; row < 2; row++) {
		size_t start = out->len;
		buf_printf(out, "%*s", width, "");
		for (size_t c = 0; c < t->n_columns; c++) {
			char first[256], second[256];
			report_split_header(t->columns[c], first, sizeof(first), second,
					    sizeof(second));
			buf_printf(out, "%*s", COLUMN_WIDTH, row ? second : first);
		}
		end_line(out, start);
	}
	for (size_t i = 0; i < t->n_rows; i++) {
		size_t start = out->len;
		buf_printf(out, "%-*s", width, t->rows[i].label);
		for (size_t c = 0; c < t->n_columns; c++) {
			char v[64];
			fmt_double(v, sizeof(v), t->rows[i].values[c], decimals);
			buf_printf(out, "%*s", COLUMN_WIDTH, v);
		}
		end_line(out, start);
	}
	buf_puts(out, "\n");
}
