/* mmtests classic comparison table (seed 000). */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUE_WIDTH 12
#define PCT_WIDTH 7
/* " (%7.2f%%)" is 11 characters. */
#define COLUMN_WIDTH (VALUE_WIDTH + PCT_WIDTH + 4)

static void rstrip_line(struct buf *out, size_t line_start)
{
	while (out->len > line_start && out->data[out->len - 1] == ' ')
		out->len--;
	if (out->data)
		out->data[out->len] = '\0';
}

static void put_value(struct buf *out, double v, int decimals)
{
	if (isnan(v))
		buf_printf(out, "%*s", VALUE_WIDTH, "NaN");
	else
		buf_printf(out, "%*.*f", VALUE_WIDTH, decimals, v);
}

static void put_pct(struct buf *out, double pct, bool stars)
{
	const char *open = stars ? " *" : " (", *close = stars ? "%*" : "%)";
	if (isnan(pct))
		buf_printf(out, "%s%*s%s", open, PCT_WIDTH, "NaN", close);
	else
		buf_printf(out, "%s%*.2f%s", open, PCT_WIDTH, pct, close);
}

static void table(struct buf *out, const struct summary *s, const struct summary_table *t,
		  const struct report_opts *o)
{
	size_t opw = 0;
	for (size_t op = 0; op < t->n_ops; op++)
		if (strlen(t->ops[op]) > opw)
			opw = strlen(t->ops[op]);
	int prefix = 9 + 1 + (int)opw;

	/* Cell names (hb.nice=0,...) are long by nature: such a column is
	 * widened when a header part would touch its neighbour, values staying
	 * right-aligned under it. Variant and run names keep mmtests' fixed
	 * width, collisions included, as on the mailing list. */
	int *width = xcalloc(t->n_cols ? t->n_cols : 1, sizeof(*width));
	for (size_t c = 0; c < t->n_cols; c++) {
		char first[256], second[256];
		report_split_header(t->cols[c], first, sizeof(first), second, sizeof(second));
		size_t longest = strlen(first) > strlen(second) ? strlen(first) : strlen(second);
		bool cell = strchr(t->cols[c], '=') != NULL;
		width[c] = cell && longest + 1 > COLUMN_WIDTH ? (int)longest + 1 : COLUMN_WIDTH;
	}
	summary_table_title(out, s, t);
	buf_puts(out, "\n");
	for (int row = 0; row < 2; row++) {
		size_t start = out->len;
		buf_printf(out, "%*s", prefix, "");
		for (size_t c = 0; c < t->n_cols; c++) {
			char first[256], second[256];
			report_split_header(t->cols[c], first, sizeof(first), second, sizeof(second));
			buf_printf(out, "%*s", width[c], row ? second : first);
		}
		rstrip_line(out, start);
		buf_puts(out, "\n");
	}
	for (size_t k = 0; k < sizeof(report_mmtests_stats) / sizeof(report_mmtests_stats[0]); k++) {
		const struct summary_stat *st = &report_mmtests_stats[k];
		char label[32];
		summary_stat_label(st, t->better, label, sizeof(label));
		bool mean = summary_stat_is_mean(st, t->better);
		for (size_t op = 0; op < t->n_ops; op++) {
			buf_printf(out, "%-9s %-*s", label, (int)opw, t->ops[op]);
			for (size_t c = 0; c < t->n_cols; c++) {
				const struct summary_group *g = summary_group_at(t, op, c);
				buf_printf(out, "%*s", width[c] - COLUMN_WIDTH, "");
				double v = summary_stat_value(st, t->better, g);
				put_value(out, v, o->decimals);
				double pct = c ? report_pct(t, st, op, c) : isnan(v) ? NAN : 0.0;
				put_pct(out, pct, c && mean && g->test.significant);
			}
			buf_puts(out, "\n");
		}
	}
	free(width);
	report_significance_footer(out, s, t, "stars");
	report_n_per_column(out, t);
	buf_puts(out, "\n");
}

void report_mmtests(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		if (k)
			buf_puts(out, "\n");
		table(out, s, &s->tables[k], o);
	}
}
