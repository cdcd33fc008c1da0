/* Latency summary (seed 003, "BFS vs. mainline scheduler benchmarks"):
 *
 *   -rc9
 *           Max                23772 usec
 *           Avg                 1129 usec
 *           Stdev               4328 usec
 *           Stdev mean           117 usec
 *
 * per table, column and op: Max, Avg = Amean, Stdev = sample Stddev,
 * "Stdev mean" = standard error of the mean, Stddev/sqrt(n). */
#include "report.h"

#include <stdio.h>

static void line(struct buf *out, const char *label, double v, int decimals, const char *unit)
{
	char num[64];
	fmt_double(num, sizeof(num), v, decimals);
	buf_printf(out, "        %-10s%14s%s%s\n", label, num, *unit ? " " : "", unit);
}

void report_latency(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		if (k)
			buf_puts(out, "\n");
		summary_table_title(out, s, t);
		buf_puts(out, "\n");
		for (size_t c = 0; c < t->n_cols; c++) {
			for (size_t op = 0; op < t->n_ops; op++) {
				const struct summary_group *g = summary_group_at(t, op, c);
				buf_puts(out, "\n");
				if (t->n_ops > 1)
					buf_printf(out, "%s %s\n", t->cols[c], t->ops[op]);
				else
					buf_printf(out, "%s\n", t->cols[c]);
				line(out, "Max", g->st.max, report_decimals(o, t), t->unit);
				line(out, "Avg", g->st.amean, report_decimals(o, t), t->unit);
				line(out, "Stdev", g->st.stddev, report_decimals(o, t), t->unit);
				line(out, "Stdev mean", g->st.sem, report_decimals(o, t), t->unit);
			}
		}
	}
}
