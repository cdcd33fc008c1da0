/* Summaries: a sample_table grouped into comparison tables, with every
 * statistic computed once per group. One table per (load, metric, unit,
 * direction) and per value of each dimension that is not the column axis;
 * columns are the values of the column axis (variant, cell or run); rows
 * are ops. Every report layout renders a struct summary. */
#ifndef SCHEDRIG_SUMMARY_H
#define SCHEDRIG_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "samples.h"
#include "stats.h"
#include "util.h"

enum summary_axis { AXIS_VARIANT = 0, AXIS_CELL, AXIS_RUN };

/* "variant" | "cell" | "run"; parse returns -1 for anything else. */
const char *summary_axis_name(enum summary_axis a);
int summary_axis_parse(const char *s);

struct summary_opts {
	int columns;            /* enum summary_axis, or -1: variant when the rows
				 * hold more than one variant, else cell */
	const char *baseline;   /* column moved first (NULL: first appearance) */
	enum stats_significance significance;
	double alpha;           /* significance level, 0 < alpha < 1 (0.05) */
	const char *metric;     /* only this metric (NULL: all) */
	const char *load;       /* only this load (NULL: all) */
};

/* Defaults: columns -1, Welch, alpha 0.05, no filters. */
void summary_opts_init(struct summary_opts *o);

/* All samples of one (table, op, column). NaN samples are left out of every
 * statistic and counted in n_nan. */
struct summary_group {
	size_t n_nan;
	double *sorted;             /* st.n values, ascending */
	struct stats_summary st;
	struct stats_test test;     /* against the baseline column, same op;
				     * invalid for the baseline column itself
				     * and where zero_variance */
	bool zero_variance;         /* Welch, and n >= 2 with Stddev 0 here and in
				     * the baseline column: t is undefined, so
				     * no test (no star) */
};

struct summary_table {
	const char *load, *metric, *unit;
	enum better better;
	/* The fixed value of each dimension other than the column axis; the
	 * column axis' own entry is NULL. */
	const char *run, *variant, *cell;
	size_t n_cols, n_ops;
	const char **cols;          /* column names, baseline first */
	const char **ops;           /* op labels, first appearance */
	struct summary_group *g;    /* n_ops × n_cols, g[op * n_cols + col] */
};

struct summary {
	enum summary_axis columns;
	enum stats_significance significance;
	double alpha;
	size_t n_tables;
	struct summary_table *tables;
	size_t n_samples;           /* rows used (after filters) */
};

/* Group t into tables. Samples of one metric with two units or directions
 * (CSV imports, runs of different driver versions) are never merged: each
 * (unit, direction) is a table of its own, titled with it. Reads each row
 * once; memory is one double per sample (kept for sorting: median, BAmean,
 * percentiles, Mann-Whitney) plus the groups. Order: tables, columns and
 * ops by first appearance in t (store rows come in config order), then the
 * baseline column moved first.
 * Returns 0, or -1 with a message: baseline names no column value of any
 * row ("no variant named X"). An empty table (no rows or all filtered out)
 * gives 0 tables. */
int summary_build(const struct sample_table *t, const struct summary_opts *o,
		  struct summary *out, char *err, size_t errsz);
void summary_free(struct summary *s);

static inline struct summary_group *summary_group_at(const struct summary_table *t,
						     size_t op, size_t col)
{
	return &t->g[op * t->n_cols + col];
}

/* A statistic a report can show, by name. */
enum summary_stat_kind {
	STAT_MIN, STAT_MEAN /* Amean or Hmean by direction */, STAT_AMEAN, STAT_HMEAN,
	STAT_GMEAN, STAT_MEDIAN, STAT_STDDEV, STAT_COEFFVAR, STAT_MAX,
	STAT_BAMEAN50, STAT_BAMEAN95, STAT_BAMEAN99, STAT_SEM, STAT_CI95,
	STAT_PERCENTILE,
};
struct summary_stat {
	enum summary_stat_kind kind;
	double p;                   /* STAT_PERCENTILE: 0 < p <= 100 */
};

/* Parse "min", "mean", "amean", "hmean", "gmean", "median", "stddev",
 * "coeffvar", "max", "bamean-50|95|99", "sem", "ci95", "pNN" (e.g. "p99",
 * "p99.9"), case-insensitive. Returns 0 or -1. */
int summary_stat_parse(const char *s, struct summary_stat *out);
/* The mmtests row label: "Min", "Amean"/"Hmean" (STAT_MEAN by direction),
 * "Stddev", "CoeffVar", "BAmean-50", "P99", ... written to dst. */
void summary_stat_label(const struct summary_stat *s, enum better better, char *dst, size_t size);
/* The statistic's value for one group. */
double summary_stat_value(const struct summary_stat *s, enum better better,
			  const struct summary_group *g);
/* The direction used for the statistic's percent change: Stddev, CoeffVar,
 * SEM and CI95 compare lower-is-better whatever the metric (mmtests
 * stat_compare: stddev/coeffvar use pndiff); everything else follows the
 * metric. */
enum better summary_stat_better(const struct summary_stat *s, enum better metric_better);
/* True for the row that carries the stars (STAT_MEAN, and STAT_AMEAN for a
 * lower-is-better / STAT_HMEAN for a higher-is-better metric). */
bool summary_stat_is_mean(const struct summary_stat *s, enum better better);

/* "hackbench time (s, lower is better), cell X, run Y": load, metric, unit,
 * direction, then the fixed dimensions. Appended to out without newline. */
void summary_table_title(struct buf *out, const struct summary *s, const struct summary_table *t);

#endif
