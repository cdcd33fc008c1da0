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
 * percentiles are nearest rank of the samples, never averaged. */
#include "report.h"

#include <stdio.h>
#include <string.h>

static void dashes(struct buf *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_puts(out, "-");
}

static void table(struct buf *out, const struct summary *s, const struct summary_table *t,
		  const struct report_opts *o)
{
	size_t np = o->n_percentiles, sw = 0, ow = 2;
	char labels[REPORT_MAX_PERCENTILES][32];
	for (size_t i = 0; i < np; i++) {
		snprintf(labels[i], sizeof(labels[i]), "%gth", o->percentiles[i]);
		if (strlen(labels[i]) > sw)
			sw = strlen(labels[i]);
	}
	for (size_t op = 0; op < t->n_ops; op++) {
		if (strlen(t->ops[op]) > ow)
			ow = strlen(t->ops[op]);
		for (size_t c = 0; c < t->n_cols; c++) {
			const struct summary_group *g = summary_group_at(t, op, c);
			for (size_t i = 0; i < np; i++) {
				char num[64];
				fmt_double(num, sizeof(num),
					   stats_percentile_sorted(g->sorted, g->st.n, o->percentiles[i]),
					   o->decimals);
				if (strlen(num) > sw)
					sw = strlen(num);
			}
		}
	}
	/* Widen the sub-columns until every column name fits over its group. */
	for (size_t c = 0; c < t->n_cols; c++)
		while (np * (sw + 2) + np - 1 < strlen(t->cols[c]))
			sw++;
	size_t group = np * (sw + 2) + np - 1;
	size_t total = 1 + ow + 1 + t->n_cols * (group + 1);

	summary_table_title(out, s, t);
	buf_puts(out, "\n");
	dashes(out, total);
	buf_printf(out, "\n|%-*s|", (int)ow, "Op");
	for (size_t c = 0; c < t->n_cols; c++) {
		size_t len = strlen(t->cols[c]), left = (group - len) / 2;
		buf_printf(out, "%*s%s%*s|", (int)left, "", t->cols[c], (int)(group - len - left), "");
	}
	buf_printf(out, "\n|%*s|", (int)ow, "");
	for (size_t c = 0; c < t->n_cols; c++) {
		dashes(out, group);
		buf_puts(out, "|");
	}
	buf_printf(out, "\n|%*s|", (int)ow, "");
	for (size_t c = 0; c < t->n_cols; c++)
		for (size_t i = 0; i < np; i++)
			buf_printf(out, " %*s |", (int)sw, labels[i]);
	buf_puts(out, "\n|");
	dashes(out, ow);
	buf_puts(out, "|");
	for (size_t c = 0; c < t->n_cols; c++)
		for (size_t i = 0; i < np; i++) {
			dashes(out, sw + 2);
			buf_puts(out, "|");
		}
	buf_puts(out, "\n");
	for (size_t op = 0; op < t->n_ops; op++) {
		buf_printf(out, "|%-*s|", (int)ow, t->ops[op]);
		for (size_t c = 0; c < t->n_cols; c++) {
			const struct summary_group *g = summary_group_at(t, op, c);
			for (size_t i = 0; i < np; i++) {
				char num[64];
				fmt_double(num, sizeof(num),
					   stats_percentile_sorted(g->sorted, g->st.n, o->percentiles[i]),
					   o->decimals);
				buf_printf(out, " %*s |", (int)sw, num);
			}
		}
		buf_puts(out, "\n");
	}
	dashes(out, total);
	buf_puts(out, "\n");
	report_n_per_column(out, t);
	buf_puts(out, "\n");
}

void report_percentiles(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		if (k)
			buf_puts(out, "\n");
		table(out, s, &s->tables[k], o);
	}
}
