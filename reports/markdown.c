/* Markdown: the mmtests rows as a pipe table per summary table, for
 * pasting into issues and review comments. Significant mean cells are
 * bold. */
#include "report.h"

#include <math.h>
#include <stdio.h>

/* Escape '|' so a name cannot break the table. */
static void cell_text(struct buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			buf_puts(out, "\\|");
		else
			buf_append(out, s, 1);
	}
}

void report_markdown(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		if (k)
			buf_puts(out, "\n");
		buf_puts(out, "### ");
		summary_table_title(out, s, t);
		buf_puts(out, "\n\n| Stat | Op |");
		struct report_cols rc;
		report_cols_init(&rc, t, o);
		for (size_t c = 0; c < t->n_cols; c++) {
			buf_puts(out, " ");
			cell_text(out, rc.name[c]);
			buf_puts(out, " |");
		}
		report_cols_free(&rc);
		buf_puts(out, "\n|:---|:---|");
		for (size_t c = 0; c < t->n_cols; c++)
			buf_puts(out, "---:|");
		buf_puts(out, "\n");
		for (size_t i = 0; i < sizeof(report_mmtests_stats) / sizeof(report_mmtests_stats[0]); i++) {
			const struct summary_stat *st = &report_mmtests_stats[i];
			char label[32];
			summary_stat_label(st, t->better, label, sizeof(label));
			bool mean = summary_stat_is_mean(st, t->better);
			for (size_t op = 0; op < t->n_ops; op++) {
				buf_printf(out, "| %s | ", label);
				cell_text(out, t->ops[op]);
				buf_puts(out, " |");
				for (size_t c = 0; c < t->n_cols; c++) {
					const struct summary_group *g = summary_group_at(t, op, c);
					double v = summary_stat_value(st, t->better, g);
					double pct = c ? report_pct(t, st, op, c) : isnan(v) ? NAN : 0.0;
					char num[64], pnum[64];
					fmt_double(num, sizeof(num), v, report_decimals(o, t));
					fmt_double(pnum, sizeof(pnum), pct, 2);
					const char *b = c && mean && g->test.significant ? "**" : "";
					buf_printf(out, " %s%s (%s%%)%s |", b, num, pnum, b);
				}
				buf_puts(out, "\n");
			}
		}
		buf_puts(out, "\n");
		report_significance_footer(out, s, t, o, "bold");
		buf_puts(out, "\n");
		report_n_per_column(out, t, o);
		buf_puts(out, "\n");
	}
}
