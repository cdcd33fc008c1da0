/* What the two views of the mmtests layouts share (reports/mmtests.c, the
 * statistic rows; reports/mmtests_ratio.c, compare --ratio): the layout's
 * flavour, its op labels, its header rows, which ops it shows, how it
 * prints a value that compare-mmtests.pl has no number for, and the footer
 * lines that say so. Internal to reports/. */
#ifndef SCHEDRIG_MMTESTS_COMMON_H
#define SCHEDRIG_MMTESTS_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

/* mmtests Compare.pm: " (%7.2f%%)" after each value, and its header
 * column FieldLength + CompareLength (7) + 4 wide. */
#define MMTESTS_PCT_WIDTH 7
#define MMTESTS_PCT_EXTRA 4

/* One of the layouts compare-mmtests.pl has printed. */
struct mmtests_flavour {
	int value_width;                  /* mmtests _FieldLength: 12, or 18 */
	const struct summary_stat *stats; /* the statistic rows, in order */
	size_t n_stats;
	bool metric_op;                   /* ops labelled METRIC-OP */
};

/* The op label of op in t: the op, or METRIC-OP with f->metric_op (mmtests
 * ExtractShellpack: the metric, then each factor after a '-'; the metric
 * alone for an empty op). malloc'd. */
char *mmtests_op_label(const struct mmtests_flavour *f, const struct summary_table *t, size_t op);

/* The ops a table of compare-mmtests.pl has: those of its baseline
 * (Compare.pm walks the baseline's operations), so an op without a sample
 * in the baseline column is left out, as mmtests leaves it out. */
bool mmtests_op_shown(const struct summary_table *t, size_t op);

/* The two header rows (report_cols first/second) after prefix blanks,
 * each right-aligned in a column of f->value_width + 11 characters; a
 * cell column is widened when a header part would touch its neighbour
 * (widths[c] receives each column's width; the caller's array of
 * t->n_cols). */
void mmtests_header(struct buf *out, const struct summary_table *t, const struct report_opts *o,
		    const struct mmtests_flavour *f, size_t prefix, int *widths);

/* A value as compare-mmtests.pl prints it: "%*.*f", and 0 for NaN (an
 * undefined statistic: mmtests pushes 0 for a "NaN" or missing value). */
void mmtests_put_value(struct buf *out, double v, int width, int decimals);

/* Under a table (not --plain): "Undefined (printed 0 as compare-mmtests.pl
 * prints it): COLUMN op OP (n = 1); ..." naming each group of a shown op
 * whose statistic rows hold an undefined value and why (no samples, n = 1,
 * mean 0, a value <= 0); nothing when there is none. */
void mmtests_undefined_footer(struct buf *out, const struct summary_table *t,
			      const struct report_opts *o, const struct mmtests_flavour *f);
/* "Left out as compare-mmtests.pl leaves them out (no sample in the
 * baseline BASE): op OP, ..." for the ops mmtests_op_shown drops; nothing
 * when there are none. */
void mmtests_left_out_footer(struct buf *out, const struct summary_table *t,
			     const struct report_opts *o);

#endif
