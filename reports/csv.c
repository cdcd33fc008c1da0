/* CSV of the summaries: one row per table, statistic, op and column. */
#include "report.h"

#include <math.h>
#include <stdio.h>

#include "csvio.h"

static const struct summary_stat csv_stats[] = {
	{STAT_MIN, 0}, {STAT_AMEAN, 0}, {STAT_HMEAN, 0}, {STAT_GMEAN, 0}, {STAT_MEDIAN, 0},
	{STAT_STDDEV, 0}, {STAT_COEFFVAR, 0}, {STAT_MAX, 0}, {STAT_BAMEAN50, 0},
	{STAT_BAMEAN95, 0}, {STAT_BAMEAN99, 0}, {STAT_SEM, 0}, {STAT_CI95, 0},
	{STAT_HSTDDEV, 0}, {STAT_HCOEFFVAR, 0}, {STAT_BHMEAN50, 0}, {STAT_BHMEAN95, 0},
	{STAT_BHMEAN99, 0},
};

static void field(struct buf *out, const char *s)
{
	csv_put_field(out, s ? s : "");
	buf_puts(out, ",");
}

static void number(struct buf *out, double v, const char *sep)
{
	char num[40];
	csv_format_double(num, sizeof(num), v);
	buf_printf(out, "%s%s", num, sep);
}

void report_csv(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	(void)o;
	buf_puts(out, "load,metric,unit,better,run,variant,cell,op,stat,value,pct,n,p_value,significant\n");
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		for (size_t i = 0; i < sizeof(csv_stats) / sizeof(csv_stats[0]); i++) {
			const struct summary_stat *st = &csv_stats[i];
			char label[32];
			summary_stat_label(st, t->better, label, sizeof(label));
			bool mean = summary_stat_is_mean(st, t->better);
			for (size_t op = 0; op < t->n_ops; op++) {
				for (size_t c = 0; c < t->n_cols; c++) {
					const struct summary_group *g = summary_group_at(t, op, c);
					double v = summary_stat_value(st, t->better, g);
					double pct = c ? report_pct(t, st, op, c) : isnan(v) ? NAN : 0.0;
					field(out, t->load);
					field(out, t->metric);
					field(out, t->unit);
					field(out, better_name(t->better));
					field(out, t->run ? t->run : s->columns == AXIS_RUN ? t->cols[c] : "");
					field(out, t->variant ? t->variant : s->columns == AXIS_VARIANT ? t->cols[c] : "");
					field(out, t->cell ? t->cell : s->columns == AXIS_CELL ? t->cols[c] : "");
					field(out, t->ops[op]);
					field(out, label);
					number(out, v, ",");
					number(out, pct, ",");
					buf_printf(out, "%zu,", g->st.n);
					if (mean && c && g->test.valid) {
						number(out, g->test.p, ",");
						buf_puts(out, g->test.significant ? "true\n" : "false\n");
					} else {
						buf_puts(out, ",\n");
					}
				}
			}
		}
	}
}
