/* Monitor table: what the monitors saw (harness/monitor/monitor.h), one column per
 * variant and one row per quantity, in mmtests' monitor style — a label and
 * one value per column, no percent-change columns (mmtests
 * compare-kernels.sh "Duration User" / "Ops" tables). */
#ifndef SCHEDRIG_MONITOR_TABLE_H
#define SCHEDRIG_MONITOR_TABLE_H

#include <stddef.h>

#include "util.h"

struct monitor_row {
	char *label;
	double *values;   /* n_columns values; NaN when a column has none */
};

struct monitor_table {
	char *title;
	char **columns;   /* column names (variants) */
	size_t n_columns;
	struct monitor_row *rows;
	size_t n_rows;
};

/* Start an empty table titled title with n columns (names copied). */
void monitor_table_init(struct monitor_table *t, const char *title, const char *const *columns,
			size_t n);
/* The row labelled label, appended (all values NaN) when it is new; rows
 * keep the order of their first use. Returns its n_columns values. */
double *monitor_table_row(struct monitor_table *t, const char *label);
void monitor_table_free(struct monitor_table *t);

/* Render: the title line, two header rows (each column name split at its
 * first '-' by report_split_header, right-aligned to the 13-character
 * columns), then one line per row: the label left-aligned to the longest
 * label, each value "%13.*f" (NaN as "NaN"). Ends with a blank line. */
void report_monitor_table(struct buf *out, const struct monitor_table *t, int decimals);

#endif
