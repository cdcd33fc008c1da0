/* Report layouts: each renders a struct summary (harness/stats/summary.h) into a
 * growable buffer, one file per layout in reports/, each behind one const
 * struct report_layout that reports/layouts.c lists. Texts end with "\n";
 * numbers are printed in the C locale, NaN as "NaN" (null in JSON). */
#ifndef SCHEDRIG_REPORT_H
#define SCHEDRIG_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "cellname.h"
#include "summary.h"
#include "util.h"

#define REPORT_MAX_PERCENTILES 16
#define REPORT_MAX_GRID_ITEMS 16

struct store;

/* The kernel a variant of a stored run ran (the variant row: uname -r
 * where its kernel came up, NULL when not recorded, as for imported
 * samples; how it was booted: local, qemu, ssh, lava, imported). */
struct report_kernel {
	char *run, *variant, *release, *boot;
};
struct report_kernels {
	struct report_kernel *v;
	size_t n;
};
/* The variants of runs ids[0..n) into out (reports/kernels.c). 0, or -1
 * with a message (a run or its variants unreadable); out is empty then. */
int report_kernels_load(struct store *st, const int64_t *ids, size_t n,
			struct report_kernels *out, char *err, size_t errsz);
void report_kernels_free(struct report_kernels *k);

struct report_opts {
	int decimals;               /* digits after the point for values; -1:
				     * each metric's own (report_decimals) */
	bool plain;                 /* mmtests layouts: the table alone, no
				     * title or footer lines (--plain) */
	bool ratio;                 /* mmtests layouts: compare-mmtests.pl
				     * --print-ratio's view (--ratio) */
	size_t width;               /* grid: the width it should fit (a
				     * terminal's columns; 0: any width) */
	const struct report_kernels *kernels; /* the runs' variants: a
					       * "Kernel ..." line per column
					       * under the text tables (NULL:
					       * none) */
	const struct axis_labels *labels; /* the configs' axis labels (NULL: none) */
	const struct hist_table *hists;   /* the runs' stored histograms, for the
					   * percentile and latency layouts (NULL:
					   * none) */
	const struct summary_opts *select; /* the --metric, --load and --baseline
					    * the summary was built with: which
					    * histograms those layouts show
					    * (NULL: those of the loads with a
					    * table) */
	size_t n_percentiles;       /* percentile table columns (90, 95, 99) */
	double percentiles[REPORT_MAX_PERCENTILES];
	const char *grid_row;       /* grid: axis whose values are the rows */
	const char *grid_col;       /* grid: axis whose values are the columns */
	/* grid: the sub-columns, each a statistic (summary_stat_parse) or an
	 * op of the metric (--stat mean; min,mean,max; p90,p95,p99) */
	size_t n_grid_items;
	char grid_items[REPORT_MAX_GRID_ITEMS][32];
};

/* Defaults: each metric's decimals, percentiles 50,90,95,99,99.9, grid
 * sub-column "mean". */
void report_opts_init(struct report_opts *o);

/* Parse the grid's --stat LIST ("min,mean,max"; each item 1-31
 * characters, at most REPORT_MAX_GRID_ITEMS) into o. Whether an item is a
 * statistic or an op is decided per table. Returns 0 or -1. */
int report_parse_grid_items(struct report_opts *o, const char *list);

/* Digits after the point for table t: --decimals when given, else the
 * metric's own (summary_table.decimals, from the driver's metric table). */
int report_decimals(const struct report_opts *o, const struct summary_table *t);

/* Parse "50,90,99" (each 0 < p <= 100, at most REPORT_MAX_PERCENTILES) into
 * o->percentiles. Returns 0 or -1. */
int report_parse_percentiles(struct report_opts *o, const char *list);

/* Notes under the tables (reports/notes.c): "No samples: ..." (a cell or
 * variant without a complete iteration, so without a column or row in the
 * tables) and "Iterations: ..." (why adaptive iterations stopped), one line
 * of text each without its line end. */
struct report_notes {
	char **v;
	size_t n;
	size_t n_host;  /* of them "Host state differs: ..." (report_notes_host) */
};

/* Append the notes the summary itself gives: "NaN samples (left out of n
 * and every statistic): LOAD METRIC, COLUMN op OP: COUNT; ..." for each
 * group with NaN samples, and "No samples: LOAD METRIC, COLUMN op OP (its
 * statistics are undefined: 0 in the mmtests tables, as compare-mmtests.pl
 * prints them, NaN elsewhere)" for each group left with no value (the table's
 * fixed variant, cell or run named too). Nothing when there are none. */
void report_notes_summary(struct report_notes *n, const struct summary *s);
struct hostdecls;
/* One fingerprint a table's columns come from (harness/host/hostfp.h, as
 * stored: store_host.h): who it is in notes ("run 3", "variant v61",
 * "run 3 variant v61"), its stable fields (field, value pairs: fields[i],
 * values[i]) and what its variant's config declares (hostdecl.h; NULL:
 * nothing known). */
struct host_note_input {
	const char *label;
	char **fields, **values;
	size_t n;
	const struct hostdecls *decl;
};

/* Append one note per fingerprint field the inputs read differently
 * (hostfp_same) that their configs do not declare different (hostdecl.h:
 * one variant sets thp: never, the other does not; two variants boot
 * different kernels, so their kernel.* identity, command line and the
 * fields only one kernel has differ by declaration): "Host state differs:
 * thp.enabled never (run 1) vs madvise (run 2)", the inputs grouped by
 * value in order of first appearance, a field an input lacks as "absent".
 * When the kernels differ, what they differ in undeclared is their
 * defaults: "Host state differs (kernel default): thp.enabled madvise
 * (variant local) vs always (variant g61)". Counts them in n->n_host;
 * identical fingerprints add nothing. */
void report_notes_host(struct report_notes *n, const struct host_note_input *in, size_t n_in);

/* Append note (malloc'd; the notes own it from now on). */
void report_notes_add(struct report_notes *n, char *note);
/* Free every note; n is left empty. */
void report_notes_free(struct report_notes *n);
/* Text layouts: a blank line, then each note on a line of its own; nothing
 * when there are none. */
void report_notes_text(struct buf *out, const struct report_notes *n);
/* Markdown: a blank line, then a list with one item "- NOTE" per note, the
 * characters markdown would interpret (\ ` * _ [ ] < > | & ~) escaped with
 * a backslash; nothing when there are none. */
void report_notes_markdown(struct buf *out, const struct report_notes *n);

/* What a layout lays out: the summary, the options, and the notes of the
 * runs and of the summary (JSON carries them; text and markdown callers
 * print them after the tables; NULL: none). */
struct report_input {
	const struct summary *s;
	const struct report_opts *o;
	const struct report_notes *notes;
};

/* One layout in one format: appends to out. Returns 0, or with a message
 * in err the command's exit status: 1 a failure (JSON encoding), 2 options
 * that do not fit the summary (a --grid axis that is none of the cells'). */
typedef int report_layout_fn(struct buf *out, const struct report_input *in, char *err,
			     size_t errsz);

/* A report layout (the table of slots in the spirit of curl's backends):
 * a NULL slot is a format the layout does not have. compare picks one by
 * --layout NAME (its --help lists the descriptions), report lays out every
 * layout with a section in registry order, the runs' notes after the first,
 * mail the default layout's text. */
struct report_layout {
	const char *name;           /* compare --layout NAME */
	const char *description;    /* compare --help: lines separated by '\n';
				     * NULL: not listed (grid: --grid says it) */
	const char *section;        /* heading in schedrig report (text, markdown
				     * and html); NULL: not in report */
	const char *anchor;         /* the html id of that section */
	bool histograms;            /* pools the stored histograms: the summary is
				     * built with them (summary_opts.hists,
				     * report_opts.hists and .select) */
	report_layout_fn *text;     /* never NULL */
	report_layout_fn *markdown; /* NULL: report puts the text in a code block */
	report_layout_fn *csv;
	report_layout_fn *json;
	report_layout_fn *html;     /* NULL: report --format html puts the text in
				     * <pre> */
};

/* The layout compare and mail use when none is named. */
#define REPORT_LAYOUT_DEFAULT "mmtests"

/* Every layout in registry order (reports/layouts.c); *n the count. */
const struct report_layout *const *report_layout_all(size_t *n);
/* The layout named name, or NULL. */
const struct report_layout *report_layout_find(const char *name);

/* Split a variant or run name for the two mmtests header rows where
 * mmtests Compare.pm _generateHeaderTable splits a test name, but only at
 * a boundary and never inside a word: at its first '-', which neither part
 * keeps ("hackbench-cyclictest" → "hackbench" / "cyclictest"), except that
 * when "-rc" and a digit occur among the i + 3 characters starting at that
 * dash (i its index; its "bodge identification of -rc") the split moves
 * past the -rc number to the '-' after it ("5.15.0-rc1-vanilla" →
 * "5.15.0-rc1" / "vanilla"; "6.12-rc10-foo" → "6.12-rc10" / "foo"; a name
 * ending in the number, "6.12-rc10", is all first row, "" second), and
 * stays at the first dash when the number runs into a letter. A name
 * without '-' is not split: "" / the name ("v6.12" stays "v6.12", where
 * mmtests prints "v6.1" over it, its substr($name, 0, -1)). first and
 * second receive NUL-terminated copies (truncated to size). */
void report_split_header(const char *name, char *first, size_t first_size,
			 char *second, size_t second_size);

/* How the columns of a table read in text headers: name[c] the one-line
 * form (a cell in its short form, cell_display_all with o->labels:
 * "LN:-20,CT-LN:19"; variants and runs as they are); first[c] / second[c]
 * the two mmtests header rows: a cell's axes but the last over its last
 * axis ("nice=0" / "slice_us=100"), a one-axis cell's "AXIS=" or "LABEL:"
 * over its value, else report_split_header. */
struct report_cols {
	size_t n;
	char **name, **first, **second;
};
void report_cols_init(struct report_cols *rc, const struct summary_table *t,
		      const struct report_opts *o);
void report_cols_free(struct report_cols *rc);

/* mmtests classic layout (seed 000): per table a title line, two header
 * rows (report_split_header) right-aligned to each column of 12 + 11
 * characters after a prefix as wide as the longest row label, space, and
 * longest op; then for each statistic of report_mmtests_stats and each op
 * of the baseline column (an op without a sample there is left out, as
 * mmtests leaves it out) a row "%-9s %-*s" + per column "%12.*f" and
 * " (%7.2f%%)", or " *%7.2f%%*" on the mean row when the test against the
 * baseline (first) column is significant. A statistic without a value
 * prints as compare-mmtests.pl prints it: 0 with 0.00% (one sample's
 * Stddev, a missing op), CoeffVar 0 where the mean or spread is undefined,
 * and the others' change against an undefined baseline as Perl's pdiff
 * and pndiff make it (100%, or NaN%). Then a footer naming the rule,
 * alpha, the undefined statistics printed 0 and the ops left out, n per
 * column and a line per column with its kernel (report_kernel_lines).
 * Tables are separated by a blank line; o->plain leaves out title and
 * footer, so that with --significance ci-overlap the text is byte for byte
 * compare-mmtests.pl's (mmtests 096661fd, 2025-11), header rows apart where
 * report_split_header departs from mmtests' split. o->ratio gives the
 * --print-ratio view instead (mmtests_ratio.c). */
void report_mmtests(struct buf *out, const struct summary *s, const struct report_opts *o);

/* mmtests wide layout (compare-mmtests.pl since 2026, commit 638401e0):
 * as report_mmtests with 18-character values (columns 18 + 11), rows Min,
 * Amean|Hmean, Stddev|HStddev, CoeffVar|HCoeffVar, Max, BAmean.95|BHmean.95,
 * and ops labelled METRIC-OP ("time-4"; the metric alone for an empty op),
 * as its ExtractShellpack labels them. */
void report_mmtests_wide(struct buf *out, const struct summary *s, const struct report_opts *o);

/* Under a text table: "Kernel COLUMN: RELEASE (BOOT)" for each column (the
 * variant's kernel release and how it booted, o->kernels; "not recorded"
 * where the variant row has none), or one line for the table's variant
 * when the columns are cells; nothing when no column's kernel is known
 * (imported samples) or o->kernels is NULL. */
void report_kernel_lines(struct buf *out, const struct summary *s, const struct summary_table *t,
			 const struct report_opts *o);

/* Grid layout (seed 002): needs a summary with columns = cell. For each
 * table, combination of the other axes, and op (unless the sub-columns are
 * ops), rows are the values of o->grid_row, columns those of o->grid_col
 * (each an axis, its label or its shortest form; parsed from cell names
 * "load.param=value,..."). One sub-column (o->grid_items): each cell
 * "VALUE (x.xx%)" with the change against the baseline cell (first row,
 * first column, report_pct_change); several: the seed's boxed table, a
 * group of sub-columns per column value. A grid wider than o->width (not
 * 0) is transposed when that makes it narrower, with a line saying so. A '*' follows every value whose
 * (cell, op) differs significantly from the summary's baseline column (its
 * mean's test); the footer names the rule; "n: N per cell" (or per row
 * when they differ) follows. Returns 0, or -1 with a message when an axis
 * is not exactly one axis of the cells, a cell lacks one, an item is
 * neither a statistic nor an op (or they mix), or the summary is not by
 * cell. */
int report_grid(struct buf *out, const struct summary *s, const struct report_opts *o,
		char *err, size_t errsz);

/* Percentile tables (seed 002, schbench style), in the box of report_box:
 * first, for each (load, metric) of o->hists of a load the summary kept,
 * the distribution of every event: groups on the summary's column axis (in
 * its order, baseline first), rows the histograms' ops, sub-columns
 * o->percentiles of the bucket counts of all iterations pooled into one
 * histogram (report_pooled; never an average of percentiles), a
 * percentile in the overflow as ">=LIMIT"; footer: the pooling rule and n
 * as events (and iterations) per column. Then each summary table whose
 * load and metric have no histogram: per-iteration summaries, said so in
 * the footer with n = iterations: a tool's own statistics (ops named pNN,
 * min, max, mean, avg: schbench, sysbench's latency_p95) as the mean over
 * iterations of each, one row; any other metric as nearest-rank
 * percentiles of its per-iteration values (stats_percentile_sorted). */
void report_percentiles(struct buf *out, const struct summary *s, const struct report_opts *o);

/* Latency summary (seed 003 "BFS vs. mainline", latt's lines): per table,
 * column and op the lines Max, Avg, Stdev and "Stdev mean" (Stdev /
 * sqrt(n)), "        %-10s%14.*f %s" with the unit, then n. A metric
 * with histograms (o->hists) over every event pooled over iterations
 * (report_pooled: the exact mean and Stdev where the tool gave its sums,
 * else from the bucket bounds), n = events; any other over the
 * per-iteration values, the title saying so, n = iterations. With several
 * columns the Avg line ends in its change against the baseline column,
 * " (%7.2f%%)", or " *%7.2f%%*" where the summary's rule finds the Avg
 * differs (tested on the per-iteration values, for pooled events on each
 * histogram's mean, pooled.means; Welch and ci-overlap on the Amean
 * whatever the metric's direction), and a footer names the rule and what
 * it tested; a line per column with its kernel follows each table of
 * values (report_kernel_lines). */
void report_latency(struct buf *out, const struct summary *s, const struct report_opts *o);

/* One group of histograms as report_hist_groups hands it over: its title
 * (as a summary table's), unit, the decimals of its metric (--decimals,
 * else the driver's), columns in header form, ops ("" for a load's one
 * histogram per metric), and pool[op · n_cols + col]. */
struct hist_group_view {
	const char *title, *unit;
	int decimals;
	const char *const *cols;
	size_t n_cols;
	const char *const *ops;
	size_t n_ops;
	const struct report_pooled *pool;
};
/* What g's histograms are the runs of: "iterations" when each came from an
 * iteration of its own, else "runs" (report_pooled.shares_iteration). */
const char *hist_group_noun(const struct hist_group_view *g);
/* Call fn once per group of o->hists (reports/hist_groups.c), in the order
 * of their first rows: with --metric (o->select) the groups of the metrics
 * it names (and --load passes), else those of a load the summary kept;
 * columns baseline first. */
void report_hist_groups(const struct summary *s, const struct report_opts *o,
			void (*fn)(void *ctx, const struct hist_group_view *g), void *ctx);
/* true when o->hists holds a histogram of t's load and metric: the table's
 * events are there, its samples are the tool's summaries of them. */
bool report_has_histogram(const struct report_opts *o, const struct summary_table *t);

/* The stored histograms of one (load, metric, op, column) pooled into one
 * distribution of every event (reports/pooled.c): the non-empty buckets of
 * every iteration merged by bound (equal bounds add up), overflows added. */
struct report_pooled {
	size_t n_hists;            /* histograms (runs of the load) pooled */
	int last_iteration;        /* of the latest histogram added */
	bool shares_iteration;     /* two in a row came from one iteration (the
				    * repetitions of a repeating load): n_hists
				    * counts runs, not iterations */
	double *upper;             /* n ascending bucket bounds */
	uint64_t *count;
	size_t n;
	uint64_t overflow;
	double limit;              /* the smallest limit */
	bool limits_differ;
	double min, max;           /* observed extremes; NaN when one is unknown */
	double sum, sum_sq;        /* exact sums; NaN when one histogram lacks them */
	double *means;             /* n_hists: each histogram's mean over its
				    * events (its exact sum / its events, else
				    * from its bucket bounds; NaN with overflows
				    * and no sum), the per-run values the
				    * latency layout's test compares */
};
void pooled_init(struct report_pooled *p);
void pooled_add(struct report_pooled *p, const struct hist_row *r);
void pooled_free(struct report_pooled *p);
/* Events: Σcount + overflow. */
uint64_t pooled_events(const struct report_pooled *p);
/* Overflows under different limits: the ranks cannot be ordered, no
 * statistic is given. */
bool pooled_mixed(const struct report_pooled *p);
/* stats_hist_percentile of the pool: the bucket bound at rank
 * ceil(pct·N/100), clamped to the observed [min, max]; -1 when there is
 * no event or the pool is mixed. */
int pooled_percentile(const struct report_pooled *p, double pct, struct stats_hist_pct *out);
/* The mean over all events: Σsum / N when every histogram gave its exact
 * sum, else Σ bound·count / N (exact for cyclictest's 1 us buckets of
 * whole microseconds), NaN with overflows and no sums, or mixed. */
double pooled_mean(const struct report_pooled *p);
/* The sample standard deviation over all events (divisor N − 1): from the
 * exact sums, sqrt((Σx² − (Σx)²/N)/(N − 1)), else from the bucket bounds
 * as pooled_mean; NaN where the mean is or N < 2. */
double pooled_stddev(const struct report_pooled *p);

/* Markdown: per table a "### title" and a pipe table with the mmtests rows;
 * significant mean cells in bold; a footer naming the rule. */
void report_markdown(struct buf *out, const struct summary *s, const struct report_opts *o);

/* CSV of the summaries, one row per table, statistic, op and column:
 * load,metric,unit,better,run,variant,cell,op,stat,value,pct,n,p_value,significant
 * (the column axis fills its own field; pct against the baseline column;
 * p_value and significant only on the mean row). Statistics: Min, Amean,
 * Hmean, Gmean, Median, Stddev, CoeffVar, Max, BAmean-50/95/99, SEM, CI95,
 * HStddev, HCoeffVar, BHmean-50/95/99, for every table. */
void report_csv(struct buf *out, const struct summary *s, const struct report_opts *o);

/* JSON of the summaries (jansson): {"columns", "significance", "alpha",
 * "tables": [{load, metric, unit, better, run|variant|cell, columns, ops,
 * "groups": [{op, column, n, n_nan, min, ..., hstddev, hcoeffvar,
 * bhmean_50|95|99, sem, ci95_half, mean_stat, pct_mean, p_value,
 * significant, n_too_small}]}], "notes": [the text of each note, in
 * order]}; mean_stat names the mean that pct_mean compares and p_value
 * tested, the table's mean row ("Amean", or "Hmean" for a higher-is-better
 * metric; CSV's stat); NaN as
 * null; notes NULL gives "notes": []. Returns 0 or -1 (jansson failure). */
int report_json(struct buf *out, const struct summary *s, const struct report_opts *o,
		const struct report_notes *notes);

/* The boxed table of seed 002 (reports/box.c): a title line, then rows of
 * groups of sub-columns. cells holds n_rows · n_groups · n_sub texts, row
 * by row, group by group. */
struct report_box {
	const char *title;                  /* the line above, or NULL */
	const char *corner;                 /* above the row names ("Op") */
	const char *const *groups;          /* n_groups names, centred */
	size_t n_groups;
	const char *const *sub;             /* n_sub labels under each group */
	size_t n_sub;
	const char *const *rows;            /* n_rows names, left-aligned */
	size_t n_rows;
	const char *const *cells;
};
/* Render b: dashes above and below, the group names centred over their
 * sub-columns, each sub-cell " %*s " right-aligned to the widest label or
 * value (widened until every group name fits), no trailing blanks. */
void report_box(struct buf *out, const struct report_box *b);

/* Shared by the layouts (reports/common.c). The mmtests classic rows: Min,
 * the mean, its spread, CoeffVar, Max, best-50/95/99 means, each following
 * the metric's direction (Amean, Stddev, CoeffVar, BAmean-K, or Hmean,
 * HStddev, HCoeffVar, BHmean-K). */
extern const struct summary_stat report_mmtests_stats[8];
/* The percent change of v against base for a statistic of a metric:
 * stats_pct_change (mmtests pdiff/pndiff) in the statistic's direction
 * (summary_stat_better: the spreads compare lower-is-better); NaN stays
 * NaN. */
double report_pct_change(const struct summary_stat *st, enum better metric_better, double base,
			 double v);
/* report_pct_change of column col against column 0 for a statistic. */
double report_pct(const struct summary_table *t, const struct summary_stat *st, size_t op, size_t col);
/* What n of t counts: "iterations" when every sample came from an
 * iteration of its own, else "samples" (summary_group.shares_iteration:
 * the repetitions of a repeating load, a tool's per-thread values). */
const char *report_n_noun(const struct summary_table *t);
/* "n: vanilla 5, patched 4-5" — count of samples per column over all ops,
 * columns named as in headers (report_cols). */
void report_n_per_column(struct buf *out, const struct summary_table *t,
			 const struct report_opts *o);
/* Footer line "Significance (MARK, on the Amean|Hmean row): RULE against
 * BASELINE, alpha A, n >= 2 on both sides" (Mann-Whitney: n >= 1)
 * ("Significance: none ..." without a test), RULE saying what was tested for the table's direction
 * (Welch on the samples for an Amean row, on their reciprocals for an
 * Hmean row; ci-overlap on Amean +- z*Stddev or Hmean +- z*HStddev),
 * followed by ", none where both Stddev are 0 (t undefined)" when the
 * table has such a comparison (summary_group.zero_variance); for
 * Mann-Whitney "; p exact ... | tie-corrected normal approximation" and
 * "; n too small (...): COLUMNS" naming the columns whose exact p can
 * never reach alpha (stats_test.too_small; with ties the approximate p
 * decides, so no such claim). */
void report_significance_footer(struct buf *out, const struct summary *s,
				const struct summary_table *t, const struct report_opts *o,
				const char *mark);

#endif
