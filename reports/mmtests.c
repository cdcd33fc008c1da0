/* mmtests comparison tables (seed 000), in the two layouts mmtests has
 * printed: classic (compare-mmtests.pl up to 2025: 12-character values,
 * rows Min, Amean, Stddev, CoeffVar, Max, BAmean-50/95/99, or their
 * harmonic forms) and wide (since its 2026 shellpack extraction:
 * 18-character values, METRIC-OP row labels, one BAmean.95 row). The
 * header rows, row labels, values and percent changes are byte for byte
 * what compare-mmtests.pl prints for the same samples (golden files in
 * tests/data/mmtests/, produced by mmtests itself). */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/* mmtests Compare.pm: " (%7.2f%%)" after each value. */
#define PCT_WIDTH 7
#define PCT_EXTRA 4

struct flavour {
	int value_width;                  /* mmtests _FieldLength */
	const struct summary_stat *stats; /* the rows, in order */
	size_t n_stats;
	bool metric_op;                   /* rows labelled METRIC-OP */
};

static const struct summary_stat wide_stats[] = {
	{STAT_MIN, 0}, {STAT_MEAN, 0}, {STAT_SPREAD, 0}, {STAT_SPREAD_COEFFVAR, 0},
	{STAT_MAX, 0}, {STAT_BMEAN95, 0},
};

static const struct flavour classic = {
	12, report_mmtests_stats, sizeof(report_mmtests_stats) / sizeof(report_mmtests_stats[0]),
	false,
};
static const struct flavour wide = {18, wide_stats, sizeof(wide_stats) / sizeof(wide_stats[0]), true};

static void put_value(struct buf *out, double v, int width, int decimals)
{
	if (isnan(v))
		buf_printf(out, "%*s", width, "NaN");
	else
		buf_printf(out, "%*.*f", width, decimals, v);
}

static void put_pct(struct buf *out, double pct, bool stars)
{
	const char *open = stars ? " *" : " (", *close = stars ? "%*" : "%)";
	if (isnan(pct))
		buf_printf(out, "%s%*s%s", open, PCT_WIDTH, "NaN", close);
	else
		buf_printf(out, "%s%*.2f%s", open, PCT_WIDTH, pct, close);
}

/* The row label of st: mmtests' name, "BAmean.95" in the wide layout. */
static void stat_label(const struct flavour *f, const struct summary_stat *st, enum better better,
		       char *dst, size_t size)
{
	summary_stat_label(st, better, dst, size);
	char *dash = strchr(dst, '-');
	if (f->metric_op && dash && strstr(dst, "mean-"))
		*dash = '.';
}

/* The op label: the op, or METRIC-OP in the wide layout (mmtests
 * ExtractShellpack: metric, then each factor after a '-'). */
static char *op_label(const struct flavour *f, const struct summary_table *t, size_t op)
{
	if (!f->metric_op)
		return xstrdup(t->ops[op]);
	return xasprintf("%s%s%s", t->metric, *t->ops[op] ? "-" : "", t->ops[op]);
}

static void table(struct buf *out, const struct summary *s, const struct summary_table *t,
		  const struct report_opts *o, const struct flavour *f)
{
	int decimals = report_decimals(o, t);
	int column = f->value_width + PCT_WIDTH + PCT_EXTRA;
	char **ops = xcalloc(t->n_ops ? t->n_ops : 1, sizeof(*ops));
	size_t opw = 0, statw = 0;
	for (size_t op = 0; op < t->n_ops; op++) {
		ops[op] = op_label(f, t, op);
		if (strlen(ops[op]) > opw)
			opw = strlen(ops[op]);
	}
	for (size_t k = 0; k < f->n_stats; k++) {
		char label[32];
		stat_label(f, &f->stats[k], t->better, label, sizeof(label));
		if (strlen(label) > statw)
			statw = strlen(label);
	}

	/* Cell names (hb.nice=0,...) are long by nature: such a column is
	 * widened when a header part would touch its neighbour, values staying
	 * right-aligned under it. Variant and run names keep mmtests' fixed
	 * width, collisions included, as on the mailing list. */
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	int *width = xcalloc(t->n_cols ? t->n_cols : 1, sizeof(*width));
	for (size_t c = 0; c < t->n_cols; c++) {
		size_t longest = strlen(rc.first[c]) > strlen(rc.second[c]) ? strlen(rc.first[c])
									    : strlen(rc.second[c]);
		bool cell = strchr(t->cols[c], '=') != NULL;
		width[c] = cell && longest + 1 > (size_t)column ? (int)longest + 1 : column;
	}
	if (!o->plain) {
		summary_table_title(out, s, t);
		buf_puts(out, "\n");
	}
	for (int row = 0; row < 2; row++) {
		buf_printf(out, "%*s", (int)(statw + 1 + opw), "");
		for (size_t c = 0; c < t->n_cols; c++)
			buf_printf(out, "%*s", width[c], row ? rc.second[c] : rc.first[c]);
		buf_puts(out, "\n");
	}
	for (size_t k = 0; k < f->n_stats; k++) {
		const struct summary_stat *st = &f->stats[k];
		char label[32];
		stat_label(f, st, t->better, label, sizeof(label));
		bool mean = summary_stat_is_mean(st, t->better);
		for (size_t op = 0; op < t->n_ops; op++) {
			buf_printf(out, "%-*s %-*s", (int)statw, label, (int)opw, ops[op]);
			for (size_t c = 0; c < t->n_cols; c++) {
				const struct summary_group *g = summary_group_at(t, op, c);
				buf_printf(out, "%*s", width[c] - column, "");
				double v = summary_stat_value(st, t->better, g);
				put_value(out, v, f->value_width, decimals);
				double pct = c ? report_pct(t, st, op, c) : isnan(v) ? NAN : 0.0;
				put_pct(out, pct, c && mean && g->test.significant);
			}
			buf_puts(out, "\n");
		}
	}
	for (size_t op = 0; op < t->n_ops; op++)
		free(ops[op]);
	free(ops);
	free(width);
	report_cols_free(&rc);
	if (!o->plain) {
		report_significance_footer(out, s, t, o, "stars");
		report_n_per_column(out, t, o);
		buf_puts(out, "\n");
	}
}

static void tables(struct buf *out, const struct summary *s, const struct report_opts *o,
		   const struct flavour *f)
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
