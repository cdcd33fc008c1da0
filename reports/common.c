/* Helpers shared by the report layouts. */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellname.h"

const struct summary_stat report_mmtests_stats[8] = {
	{STAT_MIN, 0}, {STAT_MEAN, 0}, {STAT_STDDEV, 0}, {STAT_COEFFVAR, 0},
	{STAT_MAX, 0}, {STAT_BAMEAN50, 0}, {STAT_BAMEAN95, 0}, {STAT_BAMEAN99, 0},
};

void report_opts_init(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->decimals = 2;
	o->n_percentiles = 3;
	o->percentiles[0] = 90;
	o->percentiles[1] = 95;
	o->percentiles[2] = 99;
	o->grid_stat.kind = STAT_MEAN;
}

int report_parse_percentiles(struct report_opts *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	size_t n = 0;
	int rc = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double p;
		if (n == REPORT_MAX_PERCENTILES || !parse_double(tok, &p) || !(p > 0) || p > 100) {
			rc = -1;
			break;
		}
		o->percentiles[n++] = p;
	}
	free(copy);
	if (!rc && !n)
		rc = -1;
	if (!rc)
		o->n_percentiles = n;
	return rc;
}

void report_split_header(const char *name, char *first, size_t first_size,
			 char *second, size_t second_size)
{
	/* Cell names (hb.nice=0,ct.slice_us=100): the last axis goes below;
	 * one axis splits after its '='. */
	if (strchr(name, '=')) {
		struct cell_axes c;
		cell_axes_parse(name, &c);
		const struct cell_axis *last = &c.kv[c.n - 1];
		if (c.n == 1) {
			snprintf(first, first_size, "%s=", last->axis);
			snprintf(second, second_size, "%s", last->value);
		} else {
			size_t head = strlen(name) - strlen(last->axis) - strlen(last->value) - 2;
			snprintf(first, first_size, "%.*s", (int)head, name);
			snprintf(second, second_size, "%s=%s", last->axis, last->value);
		}
		cell_axes_free(&c);
		return;
	}
	const char *dash = strchr(name, '-');
	if (!dash) {
		snprintf(first, first_size, "%s", "");
		snprintf(second, second_size, "%s", name);
		return;
	}
	/* "-rcN" stays with the first part; the dash split at stays at the
	 * end of the first part, so the two rows read back as the name. */
	if (dash[1] == 'r' && dash[2] == 'c' && isdigit((unsigned char)dash[3])) {
		const char *p = dash + 3;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '-' || !*p) {
			snprintf(first, first_size, "%.*s", (int)(p - name + (*p == '-')), name);
			snprintf(second, second_size, "%s", *p ? p + 1 : "");
			return;
		}
	}
	snprintf(first, first_size, "%.*s", (int)(dash - name + 1), name);
	snprintf(second, second_size, "%s", dash + 1);
}

double report_pct_change(const struct summary_stat *st, enum better metric_better, double base,
			 double v)
{
	/* The spread statistics are those lower-is-better whatever the metric. */
	bool spread = summary_stat_better(st, BETTER_HIGHER) == BETTER_LOWER;
	if (spread && base == 0 && !isnan(v))
		return v == 0 ? 0.0 : -99.0;
	return stats_pct_change(base, v, summary_stat_better(st, metric_better));
}

double report_pct(const struct summary_table *t, const struct summary_stat *st, size_t op, size_t col)
{
	double base = summary_stat_value(st, t->better, summary_group_at(t, op, 0));
	double v = summary_stat_value(st, t->better, summary_group_at(t, op, col));
	return report_pct_change(st, t->better, base, v);
}

void report_n_per_column(struct buf *out, const struct summary_table *t)
{
	buf_puts(out, "n:");
	for (size_t c = 0; c < t->n_cols; c++) {
		size_t lo = SIZE_MAX, hi = 0;
		for (size_t op = 0; op < t->n_ops; op++) {
			size_t n = summary_group_at(t, op, c)->st.n;
			if (n < lo)
				lo = n;
			if (n > hi)
				hi = n;
		}
		if (!t->n_ops)
			lo = 0;
		buf_printf(out, "%s %s ", c ? "," : "", t->cols[c]);
		if (lo == hi)
			buf_printf(out, "%zu", lo);
		else
			buf_printf(out, "%zu-%zu", lo, hi);
	}
}

void report_significance_footer(struct buf *out, const struct summary *s,
				const struct summary_table *t, const char *mark)
{
	if (s->significance == SIG_NONE) {
		buf_puts(out, "Significance: none (--significance none)\n");
		return;
	}
	bool zero_variance = false;
	for (size_t i = 0; i < t->n_ops * t->n_cols; i++)
		zero_variance = zero_variance || t->g[i].zero_variance;
	buf_printf(out, "Significance (%s): %s against %s, alpha %g, n >= 2 on both sides%s\n",
		   mark, stats_significance_describe(s->significance),
		   t->n_cols ? t->cols[0] : "-", s->alpha,
		   zero_variance ? ", none where both Stddev are 0 (t undefined)" : "");
}
