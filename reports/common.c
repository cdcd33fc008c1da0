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
	{STAT_MIN, 0}, {STAT_MEAN, 0}, {STAT_SPREAD, 0}, {STAT_SPREAD_COEFFVAR, 0},
	{STAT_MAX, 0}, {STAT_BMEAN50, 0}, {STAT_BMEAN95, 0}, {STAT_BMEAN99, 0},
};

void report_opts_init(struct report_opts *o)
{
	static const double percentiles[] = {50, 90, 95, 99, 99.9};
	memset(o, 0, sizeof(*o));
	o->decimals = -1;
	o->n_percentiles = sizeof(percentiles) / sizeof(percentiles[0]);
	memcpy(o->percentiles, percentiles, sizeof(percentiles));
	o->n_grid_items = 1;
	snprintf(o->grid_items[0], sizeof(o->grid_items[0]), "mean");
}

int report_decimals(const struct report_opts *o, const struct summary_table *t)
{
	return o->decimals >= 0 ? o->decimals : t->decimals;
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

/* The end of an "-rcN" number starting at p ("-rc" and a digit), when a
 * boundary follows it (the end of the name or a '-'); NULL otherwise. */
static const char *rc_end(const char *p)
{
	p += 3;
	while (isdigit((unsigned char)*p))
		p++;
	return !*p || *p == '-' ? p : NULL;
}

void report_split_header(const char *name, char *first, size_t first_size,
			 char *second, size_t second_size)
{
	const char *dash = strchr(name, '-');
	if (!dash) {
		snprintf(first, first_size, "%s", "");
		snprintf(second, second_size, "%s", name);
		return;
	}
	/* mmtests: index($name, "-"); its -rc bodge looks at
	 * substr($name, $index, $index + 3) for /-rc[0-9]/. */
	size_t i = (size_t)(dash - name), look = i + 3, len = strlen(name);
	if (look > len - i)
		look = len - i;
	const char *split = dash;
	for (size_t k = 0; k + 4 <= look; k++) {
		const char *p = dash + k;
		if (p[0] == '-' && p[1] == 'r' && p[2] == 'c' && isdigit((unsigned char)p[3])) {
			const char *end = rc_end(p);
			split = end ? end : dash;
			break;
		}
	}
	snprintf(first, first_size, "%.*s", (int)(split - name), name);
	snprintf(second, second_size, "%s", *split ? split + 1 : "");
}

/* A cell's two header rows from its displayed parts. */
static void cell_header(char **parts, size_t n, char **first, char **second)
{
	if (n == 1) {
		size_t head = strcspn(parts[0], "=:") + 1;
		*first = xasprintf("%.*s", (int)head, parts[0]);
		*second = xstrdup(parts[0] + (head <= strlen(parts[0]) ? head : strlen(parts[0])));
		return;
	}
	struct buf b = {0};
	for (size_t k = 0; k + 1 < n; k++)
		buf_printf(&b, "%s%s", k ? "," : "", parts[k]);
	*first = b.data ? b.data : xstrdup("");
	*second = xstrdup(parts[n - 1]);
}

void report_cols_init(struct report_cols *rc, const struct summary_table *t,
		      const struct report_opts *o)
{
	size_t n_axes;
	char **axes = cell_axis_names(t->cols, t->n_cols, &n_axes);
	rc->n = t->n_cols;
	rc->name = cell_display_all(t->cols, t->n_cols, o->labels);
	rc->first = xcalloc(rc->n ? rc->n : 1, sizeof(*rc->first));
	rc->second = xcalloc(rc->n ? rc->n : 1, sizeof(*rc->second));
	for (size_t c = 0; c < rc->n; c++) {
		if (strchr(t->cols[c], '=')) {
			size_t n_parts;
			char **parts = cell_display_parts(t->cols[c], o->labels, axes, n_axes, &n_parts);
			cell_header(parts, n_parts, &rc->first[c], &rc->second[c]);
			cell_names_free(parts, n_parts);
			continue;
		}
		char first[256], second[256];
		report_split_header(t->cols[c], first, sizeof(first), second, sizeof(second));
		rc->first[c] = xstrdup(first);
		rc->second[c] = xstrdup(second);
	}
	cell_names_free(axes, n_axes);
}

void report_cols_free(struct report_cols *rc)
{
	cell_names_free(rc->name, rc->n);
	cell_names_free(rc->first, rc->n);
	cell_names_free(rc->second, rc->n);
	memset(rc, 0, sizeof(*rc));
}

double report_pct_change(const struct summary_stat *st, enum better metric_better, double base,
			 double v)
{
	return stats_pct_change(base, v, summary_stat_better(st, metric_better));
}

double report_pct(const struct summary_table *t, const struct summary_stat *st, size_t op, size_t col)
{
	double base = summary_stat_value(st, t->better, summary_group_at(t, op, 0));
	double v = summary_stat_value(st, t->better, summary_group_at(t, op, col));
	return report_pct_change(st, t->better, base, v);
}

const char *report_n_noun(const struct summary_table *t)
{
	for (size_t k = 0; k < t->n_ops * t->n_cols; k++)
		if (t->g[k].shares_iteration)
			return "samples";
	return "iterations";
}

void report_n_per_column(struct buf *out, const struct summary_table *t,
			 const struct report_opts *o)
{
	struct report_cols rc;
	report_cols_init(&rc, t, o);
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
		buf_printf(out, "%s %s ", c ? "," : "", rc.name[c]);
		if (lo == hi)
			buf_printf(out, "%zu", lo);
		else
			buf_printf(out, "%zu-%zu", lo, hi);
	}
	report_cols_free(&rc);
}

/* What the rule tested on the mean row of a table of direction better. */
static const char *rule_text(enum stats_significance rule, enum better better)
{
	bool h = better == BETTER_HIGHER;
	switch (rule) {
	case SIG_WELCH:
		return h ? "Welch's two-sample t-test of the reciprocals 1/x, whose mean is 1/Hmean"
			   " (two-sided, Welch-Satterthwaite df)"
			 : "Welch's two-sample t-test (two-sided, Welch-Satterthwaite df)";
	case SIG_CI_OVERLAP:
		return h ? "mmtests' CI-overlap rule: the intervals Hmean +- z*HStddev do not overlap"
			   " (both HStddev 0: the Hmeans differ by more than 1)"
			 : "mmtests' CI-overlap rule: the intervals Amean +- z*Stddev do not overlap"
			   " (both Stddev 0: the Ameans differ by more than 1)";
	default:
		return stats_significance_describe(rule);
	}
}

/* Mann-Whitney: which p the table's tests used, and the columns whose n
 * can never reach alpha. */
static void mann_whitney_text(struct buf *out, const struct summary *s,
			      const struct summary_table *t, const struct report_cols *rc)
{
	bool exact = false, approx = false;
	struct buf small = {0};
	for (size_t c = 1; c < t->n_cols; c++) {
		bool col_small = false;
		for (size_t op = 0; op < t->n_ops; op++) {
			const struct stats_test *x = &summary_group_at(t, op, c)->test;
			exact = exact || (x->valid && x->exact);
			approx = approx || (x->valid && !x->exact);
			col_small = col_small || x->too_small;
		}
		if (col_small)
			buf_printf(&small, "%s%s", small.len ? ", " : "", rc->name[c]);
	}
	if (exact || approx)
		buf_printf(out, "; p %s", exact && approx ? "exact without ties and n < 50, else tie-corrected"
							  " normal approximation"
					  : exact ? "exact (no ties, n < 50)"
						  : "tie-corrected normal approximation");
	if (small.len)
		buf_printf(out, "; n too small (no arrangement of so few values gives p < %g, so no"
			   " star does not mean no change): %s", s->alpha, buf_str(&small));
	buf_free(&small);
}

void report_significance_footer(struct buf *out, const struct summary *s,
				const struct summary_table *t, const struct report_opts *o,
				const char *mark)
{
	if (s->significance == SIG_NONE) {
		buf_puts(out, "Significance: none (--significance none)\n");
		return;
	}
	bool zero_variance = false;
	for (size_t i = 0; i < t->n_ops * t->n_cols; i++)
		zero_variance = zero_variance || t->g[i].zero_variance;
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	buf_printf(out, "Significance (%s, on the %s row): %s against %s, alpha %g, n >= %d on both"
		   " sides%s", mark, t->better == BETTER_HIGHER ? "Hmean" : "Amean",
		   rule_text(s->significance, t->better), t->n_cols ? rc.name[0] : "-", s->alpha,
		   s->significance == SIG_MANN_WHITNEY ? 1 : 2,
		   zero_variance ? ", none where both Stddev are 0 (t undefined)" : "");
	if (s->significance == SIG_MANN_WHITNEY)
		mann_whitney_text(out, s, t, &rc);
	buf_puts(out, "\n");
	report_cols_free(&rc);
}
