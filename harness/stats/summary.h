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

#define SUMMARY_MAX_FILTERS 16

struct summary_opts {
	int columns;            /* enum summary_axis, or -1: variant when the rows
				 * hold more than one variant, else cell */
	const char *baseline;   /* column moved first (NULL: first appearance) */
	enum stats_significance significance;
	double alpha;           /* significance level, 0 < alpha < 1 (0.05) */
	/* Only these metrics: each entry one --metric value, a name or a
	 * comma-separated list (n_metric_names names in all); none: every
	 * metric but interval series when headline_only. The strings are the
	 * caller's (argv) and are not copied. */
	size_t n_metrics, n_metric_names;
	const char *metrics[SUMMARY_MAX_FILTERS];
	const char *load;       /* only this load (NULL: all) */
	/* Without metric filters, leave out the metrics a driver marks as
	 * interval series (metric_def.series: tcp-rr interval_transactions):
	 * the default tables hold each load's headline metrics. */
	bool headline_only;
	/* Stored histograms the report shows beside the tables (the percentile
	 * and latency layouts; NULL: none): a --metric may name one of their
	 * metrics (cyclictest's pooled "latency"), and the message for a
	 * --metric that matches nothing lists them too. Their rows pass
	 * --load as samples do. */
	const struct hist_table *hists;
};

/* Defaults: columns -1, Welch, alpha 0.05, no filters, all metrics. */
void summary_opts_init(struct summary_opts *o);

/* Add a --metric value: one name or a comma-separated list (arg must
 * outlive o). Returns 0, or -1 with a message (an empty name, more than
 * SUMMARY_MAX_FILTERS names in all). */
int summary_opts_add_metrics(struct summary_opts *o, const char *arg, char *err, size_t errsz);

/* true when o selects metric of load: load passes --load and metric is
 * one of the --metric names (any metric without --metric). */
bool summary_opts_selects(const struct summary_opts *o, const char *load, const char *metric);

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
	bool shares_iteration;      /* two samples in a row came from one
				     * iteration (the store keeps an iteration's
				     * samples together): the repetitions of a
				     * repeating load, a tool's per-thread
				     * values. n counts samples, not iterations */
};

struct summary_table {
	const char *load, *metric, *unit;
	const char *tool;           /* the load's driver (sample_row.tool), or NULL */
	enum better better;
	/* Digits after the point the driver's metric table gives this metric
	 * (metric_def.decimals, as mmtests sets them per benchmark); 2 when
	 * the driver or metric is unknown (imported data). */
	int decimals;
	/* The fixed value of each dimension other than the column axis; the
	 * column axis' own entry is NULL. */
	const char *run, *variant, *cell;
	size_t n_cols, n_ops;
	const char **cols;          /* column names, baseline first */
	const char **ops;           /* op labels: in numeric order when every op
				     * is a number (1 2 4 8 16 ... 100), else in
				     * first appearance */
	struct summary_group *g;    /* n_ops × n_cols, g[op * n_cols + col] */
};

struct summary {
	enum summary_axis columns;
	enum stats_significance significance;
	double alpha;
	size_t n_tables;
	struct summary_table *tables;
	size_t n_samples;           /* rows used (after filters) */
	bool hists_selected;        /* a --metric named the metric of a stored
				     * histogram (summary_opts.hists): there is
				     * something to show without any table */
};

/* Group t into tables. Samples of one metric with two units or directions
 * (CSV imports, runs of different driver versions) are never merged: each
 * (unit, direction) is a table of its own, titled with it. Reads each row
 * once; memory is one double per sample (kept for sorting: median, BAmean,
 * percentiles, Mann-Whitney) plus the groups. Order: tables and columns by
 * first appearance in t (store rows come in config order), then the
 * baseline column moved first; ops numeric when all are numbers.
 * A --metric name given twice counts once.
 * Returns 0, or -1 with a message: baseline names no column value of any
 * row ("no variant named X"), or a metric filter matches no metric of t nor
 * of o->hists ("--metric X matches no metric (the selected runs hold: a,
 * b)"). An empty table (no rows or all filtered out by load) gives 0
 * tables. */
int summary_build(const struct sample_table *t, const struct summary_opts *o,
		  struct summary *out, char *err, size_t errsz);
void summary_free(struct summary *s);

static inline struct summary_group *summary_group_at(const struct summary_table *t,
						     size_t op, size_t col)
{
	return &t->g[op * t->n_cols + col];
}

/* A statistic a report can show, by name. STAT_MEAN and the STAT_SPREAD_*
 * and STAT_BMEAN* kinds follow the metric's direction as mmtests' rows do:
 * Amean, Stddev, CoeffVar, BAmean-K for lower-is-better metrics; Hmean,
 * HStddev, HCoeffVar, BHmean-K for higher-is-better ones. */
enum summary_stat_kind {
	STAT_MIN, STAT_MEAN, STAT_AMEAN, STAT_HMEAN,
	STAT_GMEAN, STAT_MEDIAN, STAT_STDDEV, STAT_COEFFVAR, STAT_MAX,
	STAT_BAMEAN50, STAT_BAMEAN95, STAT_BAMEAN99, STAT_SEM, STAT_CI95,
	STAT_PERCENTILE,
	STAT_HSTDDEV, STAT_HCOEFFVAR, STAT_BHMEAN50, STAT_BHMEAN95, STAT_BHMEAN99,
	STAT_SPREAD,                /* Stddev | HStddev by direction */
	STAT_SPREAD_COEFFVAR,       /* CoeffVar | HCoeffVar */
	STAT_BMEAN50, STAT_BMEAN95, STAT_BMEAN99, /* BAmean-K | BHmean-K */
};
struct summary_stat {
	enum summary_stat_kind kind;
	double p;                   /* STAT_PERCENTILE: 0 < p <= 100 */
};

/* Parse "min", "mean", "amean", "hmean", "gmean", "median", "stddev",
 * "coeffvar", "max", "bamean-50|95|99", "hstddev", "hcoeffvar",
 * "bhmean-50|95|99", "sem", "ci95", "pNN" (e.g. "p99", "p99.9"),
 * case-insensitive. Returns 0 or -1. */
int summary_stat_parse(const char *s, struct summary_stat *out);
/* The mmtests row label: "Min", "Amean"/"Hmean" (STAT_MEAN by direction),
 * "Stddev", "HStddev", "CoeffVar", "BAmean-50", "BHmean-95", "P99", ...
 * written to dst. */
void summary_stat_label(const struct summary_stat *s, enum better better, char *dst, size_t size);
/* The statistic's value for one group. */
double summary_stat_value(const struct summary_stat *s, enum better better,
			  const struct summary_group *g);
/* The direction used for the statistic's percent change: the spreads
 * (Stddev, HStddev, CoeffVar, HCoeffVar, SEM, CI95) compare lower-is-better
 * whatever the metric (mmtests stat_compare: stddev/coeffvar use pndiff);
 * everything else follows the metric. */
enum better summary_stat_better(const struct summary_stat *s, enum better metric_better);
/* True for the row that carries the stars (STAT_MEAN, and STAT_AMEAN for a
 * lower-is-better / STAT_HMEAN for a higher-is-better metric): the mean
 * the significance test tested (stats_compare). */
bool summary_stat_is_mean(const struct summary_stat *s, enum better better);

/* "hackbench time (s, lower is better), cell X, run Y": load, metric, unit,
 * direction, then the fixed dimensions. Appended to out without newline. */
void summary_table_title(struct buf *out, const struct summary *s, const struct summary_table *t);

#endif
