/* What the statistic rows and the ratio view of the mmtests layouts share
 * (mmtests_common.h). */
#include "mmtests_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mmtests_put_value(struct buf *out, double v, int width, int decimals)
{
	buf_printf(out, "%*.*f", width, decimals, isnan(v) ? 0.0 : v);
}

char *mmtests_op_label(const struct mmtests_flavour *f, const struct summary_table *t, size_t op)
{
	if (!f->metric_op)
		return xstrdup(t->ops[op]);
	return xasprintf("%s%s%s", t->metric, *t->ops[op] ? "-" : "", t->ops[op]);
}

bool mmtests_op_shown(const struct summary_table *t, size_t op)
{
	return t->n_cols && summary_group_at(t, op, 0)->st.n > 0;
}

void mmtests_header(struct buf *out, const struct summary_table *t, const struct report_opts *o,
		    const struct mmtests_flavour *f, size_t prefix, int *widths)
{
	/* Cell names (hb.nice=0,...) are long by nature: such a column is
	 * widened when a header part would touch its neighbour, values staying
	 * right-aligned under it. Variant and run names keep mmtests' fixed
	 * width, collisions included, as on the mailing list. */
	int column = f->value_width + MMTESTS_PCT_WIDTH + MMTESTS_PCT_EXTRA;
	struct report_cols rc;
	report_cols_init(&rc, t, o);
	for (size_t c = 0; c < t->n_cols; c++) {
		size_t longest = strlen(rc.first[c]) > strlen(rc.second[c]) ? strlen(rc.first[c])
									    : strlen(rc.second[c]);
		bool cell = strchr(t->cols[c], '=') != NULL;
		widths[c] = cell && longest + 1 > (size_t)column ? (int)longest + 1 : column;
	}
	for (int row = 0; row < 2; row++) {
		buf_printf(out, "%*s", (int)prefix, "");
		for (size_t c = 0; c < t->n_cols; c++)
			buf_printf(out, "%*s", widths[c], row ? rc.second[c] : rc.first[c]);
		buf_puts(out, "\n");
	}
	report_cols_free(&rc);
}

/* Why g has no value for some statistic row, or NULL when it has all. */
static const char *undefined_reason(const struct summary_table *t, const struct summary_group *g,
				    const struct mmtests_flavour *f)
{
	if (!g->st.n)
		return "no samples";
	if (g->st.n == 1)
		return "n = 1";
	for (size_t k = 0; k < f->n_stats; k++)
		if (isnan(summary_stat_value(&f->stats[k], t->better, g)))
			return g->st.amean == 0 ? "mean 0" : "a value <= 0";
	return NULL;
}

void mmtests_undefined_footer(struct buf *out, const struct summary_table *t,
			      const struct report_opts *o, const struct mmtests_flavour *f)
{
	struct report_cols rc;
	struct buf undef = {0};
	report_cols_init(&rc, t, o);
	for (size_t op = 0; op < t->n_ops; op++)
		for (size_t c = 0; mmtests_op_shown(t, op) && c < t->n_cols; c++) {
			const char *why = undefined_reason(t, summary_group_at(t, op, c), f);
			if (!why)
				continue;
			buf_printf(&undef, "%s%s", undef.len ? "; " : "", rc.name[c]);
			if (*t->ops[op])
				buf_printf(&undef, " op %s", t->ops[op]);
			buf_printf(&undef, " (%s)", why);
		}
	if (undef.len)
		buf_printf(out, "Undefined (printed 0 as compare-mmtests.pl prints it): %s\n",
			   buf_str(&undef));
	buf_free(&undef);
	report_cols_free(&rc);
}

void mmtests_left_out_footer(struct buf *out, const struct summary_table *t,
			     const struct report_opts *o)
{
	struct buf left = {0};
	for (size_t op = 0; op < t->n_ops; op++)
		if (!mmtests_op_shown(t, op))
			buf_printf(&left, "%sop %s", left.len ? ", " : "", t->ops[op]);
	if (left.len) {
		struct report_cols rc;
		report_cols_init(&rc, t, o);
		buf_printf(out, "Left out as compare-mmtests.pl leaves them out (no sample in the"
			   " baseline %s): %s\n", t->n_cols ? rc.name[0] : "-", buf_str(&left));
		report_cols_free(&rc);
	}
	buf_free(&left);
}
