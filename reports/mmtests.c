/* mmtests comparison tables (seed 000), in the two layouts mmtests has
 * printed: classic (compare-mmtests.pl up to 2025: 12-character values,
 * rows Min, Amean, Stddev, CoeffVar, Max, BAmean-50/95/99, or their
 * harmonic forms) and wide (since its 2026 shellpack extraction:
 * 18-character values, METRIC-OP row labels, one BAmean.95 row), each
 * also as the --print-ratio view (mmtests_ratio.c). The row labels, values
 * and percent changes are byte for byte what compare-mmtests.pl prints for
 * the same samples, undefined statistics included, and so are the header
 * rows but where report_split_header splits a name otherwise on purpose
 * (golden files in tests/data/mmtests/, produced by mmtests itself). */
#include "mmtests_common.h"
#include "mmtests_ratio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

static const struct summary_stat wide_stats[] = {
	{STAT_MIN, 0}, {STAT_MEAN, 0}, {STAT_SPREAD, 0}, {STAT_SPREAD_COEFFVAR, 0},
	{STAT_MAX, 0}, {STAT_BMEAN95, 0},
};

static const struct mmtests_flavour classic = {
	12, report_mmtests_stats, sizeof(report_mmtests_stats) / sizeof(report_mmtests_stats[0]),
	false,
};
static const struct mmtests_flavour wide = {
	18, wide_stats, sizeof(wide_stats) / sizeof(wide_stats[0]), true,
};

static void put_pct(struct buf *out, double pct, bool stars)
{
	const char *open = stars ? " *" : " (", *close = stars ? "%*" : "%)";
	if (isnan(pct))
		buf_printf(out, "%s%*s%s", open, MMTESTS_PCT_WIDTH, "NaN", close);
	else
		buf_printf(out, "%s%*.2f%s", open, MMTESTS_PCT_WIDTH, pct, close);
}

static bool is_coeffvar(const struct summary_stat *st)
{
	return st->kind == STAT_COEFFVAR || st->kind == STAT_HCOEFFVAR ||
	       st->kind == STAT_SPREAD_COEFFVAR;
}

/* The value compare-mmtests.pl has for st of g: NaN where it has none (a
 * missing op; its "NaN" of one sample's spread or an Hmean of a value <=
 * 0), but 0 for a CoeffVar of samples whose mean or spread is undefined
 * (Stat.pm calc_coeffvar returns 0 there, a number the other columns are
 * compared with). */
static double mm_value(const struct summary_stat *st, enum better better,
		       const struct summary_group *g)
{
	double v = summary_stat_value(st, better, g);
	return isnan(v) && g->st.n && is_coeffvar(st) ? 0.0 : v;
}

/* The percent change compare-mmtests.pl prints for v against base (both
 * mm_value, v not NaN): Stat.pm pdiff/pndiff, where a NaN baseline is what
 * Perl makes of "NaN": pdiff gives 100 (0 for a new 0), pndiff NaN (100
 * for a new 0). */
static double mm_pct(const struct summary_stat *st, enum better better, double base, double v)
{
	enum better dir = summary_stat_better(st, better);
	if (!isnan(base))
		return stats_pct_change(base, v, dir);
	if (dir == BETTER_HIGHER)
		return v == 0 ? 0.0 : 100.0;
	return v == 0 ? 100.0 : NAN;
}

/* The row label of st: mmtests' name, "BAmean.95" in the wide layout. */
static void stat_label(const struct mmtests_flavour *f, const struct summary_stat *st,
		       enum better better, char *dst, size_t size)
{
	summary_stat_label(st, better, dst, size);
	char *dash = strchr(dst, '-');
	if (f->metric_op && dash && strstr(dst, "mean-"))
		*dash = '.';
}

/* One statistic row of op: per column the value and its change against
 * the baseline column, starred on the mean row where the test says so. */
static void stat_row(struct buf *out, const struct summary_table *t, const struct report_opts *o,
		     const struct mmtests_flavour *f, const struct summary_stat *st, size_t op,
		     const int *widths)
{
	int column = f->value_width + MMTESTS_PCT_WIDTH + MMTESTS_PCT_EXTRA;
	bool mean = summary_stat_is_mean(st, t->better);
	double base = mm_value(st, t->better, summary_group_at(t, op, 0));
	for (size_t c = 0; c < t->n_cols; c++) {
		const struct summary_group *g = summary_group_at(t, op, c);
		double v = mm_value(st, t->better, g);
		buf_printf(out, "%*s", widths[c] - column, "");
		mmtests_put_value(out, v, f->value_width, report_decimals(o, t));
		put_pct(out, c && !isnan(v) ? mm_pct(st, t->better, base, v) : 0.0,
			c && mean && g->test.significant);
	}
	buf_puts(out, "\n");
}

static void table(struct buf *out, const struct summary *s, const struct summary_table *t,
		  const struct report_opts *o, const struct mmtests_flavour *f)
{
	if (o->ratio) {
		mmtests_ratio_table(out, s, t, o, f);
		return;
	}
	char **ops = xcalloc(t->n_ops ? t->n_ops : 1, sizeof(*ops));
	size_t opw = 0, statw = 0;
	for (size_t op = 0; op < t->n_ops; op++) {
		ops[op] = mmtests_op_label(f, t, op);
		if (mmtests_op_shown(t, op) && strlen(ops[op]) > opw)
			opw = strlen(ops[op]);
	}
	for (size_t k = 0; k < f->n_stats; k++) {
		char label[32];
		stat_label(f, &f->stats[k], t->better, label, sizeof(label));
		if (strlen(label) > statw)
			statw = strlen(label);
	}
	if (!o->plain) {
		summary_table_title(out, s, t);
		buf_puts(out, "\n");
	}
	int *widths = xcalloc(t->n_cols ? t->n_cols : 1, sizeof(*widths));
	mmtests_header(out, t, o, f, statw + 1 + opw, widths);
	for (size_t k = 0; k < f->n_stats; k++) {
		char label[32];
		stat_label(f, &f->stats[k], t->better, label, sizeof(label));
		for (size_t op = 0; op < t->n_ops; op++) {
			if (!mmtests_op_shown(t, op))
				continue;
			buf_printf(out, "%-*s %-*s", (int)statw, label, (int)opw, ops[op]);
			stat_row(out, t, o, f, &f->stats[k], op, widths);
		}
	}
	for (size_t op = 0; op < t->n_ops; op++)
		free(ops[op]);
	free(ops);
	free(widths);
	if (!o->plain) {
		report_significance_footer(out, s, t, o, "stars");
		mmtests_undefined_footer(out, t, o, f);
		mmtests_left_out_footer(out, t, o);
		report_n_per_column(out, t, o);
		buf_puts(out, "\n");
		report_kernel_lines(out, s, t, o);
	}
}

static void tables(struct buf *out, const struct summary *s, const struct report_opts *o,
		   const struct mmtests_flavour *f)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		if (k)
			buf_puts(out, "\n");
		table(out, s, &s->tables[k], o, f);
	}
}

void report_mmtests(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	tables(out, s, o, &classic);
}

void report_mmtests_wide(struct buf *out, const struct summary *s, const struct report_opts *o)
{
	tables(out, s, o, &wide);
}

static int classic_text(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	report_mmtests(out, in->s, in->o);
	return 0;
}

static int wide_text(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	report_mmtests_wide(out, in->s, in->o);
	return 0;
}

static int markdown(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	report_markdown(out, in->s, in->o);
	return 0;
}

static int csv(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	report_csv(out, in->s, in->o);
	return 0;
}

static int json(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	if (!report_json(out, in->s, in->o, in->notes))
		return 0;
	snprintf(err, errsz, "JSON encoding failed");
	return 1;
}

static int html(struct buf *out, const struct report_input *in, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	report_mmtests_html(out, in->s, in->o);
	return 0;
}

/* The mmtests rows in every format: markdown.c, csv.c, json.c and html.c
 * hold the other formats' renderers. */
const struct report_layout mmtests_layout = {
	.name = "mmtests",
	.description = "as compare-mmtests.pl prints it (2025):\n"
		       "Min, Amean, Stddev, CoeffVar, Max,\n"
		       "BAmean-50/95/99; Hmean, HStddev,\n"
		       "HCoeffVar, BHmean-* for higher-is-better",
	.section = "Comparison",
	.anchor = "comparison",
	.text = classic_text,
	.markdown = markdown,
	.csv = csv,
	.json = json,
	.html = html,
};

const struct report_layout mmtests_wide_layout = {
	.name = "mmtests-wide",
	.description = "as mmtests prints it since 2026: values\n"
		       "18 wide, rows METRIC-OP, BAmean.95",
	.text = wide_text,
};
