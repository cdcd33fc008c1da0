/* Figures: gnuplot scripts and data files for a struct summary (and the
 * sample rows it came from), one file per figure kind in reports/plot_*.c,
 * rendered by running "gnuplot SCRIPT" as a process (argv, never a shell)
 * in the output directory.
 *
 * Every figure BASE leaves BASE.gp (the script), BASE.dat (the data,
 * gnuplot datasets separated by two blank lines, one per series, numbers
 * printed in the C locale with %.17g) and BASE.png (pngcairo) and/or
 * BASE.svg in the directory; the script can be re-run by hand there. Titles
 * and keys are printed literally (noenhanced: "v6.10-rc1_sched_ext" keeps its
 * underscore). A series with no finite value is left out with a note; a
 * figure with no series is not drawn, with a note that says why. */
#ifndef SCHEDRIG_PLOT_H
#define SCHEDRIG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples.h"
#include "summary.h"
#include "util.h"

enum { PLOT_PNG = 1, PLOT_SVG = 2 };

/* What the error bars of the mean figure show. */
enum plot_errorbars { PLOT_ERR_STDDEV = 0, PLOT_ERR_CI95 };

struct plot_opts {
	const char *dir;              /* output directory (must exist) */
	unsigned formats;             /* PLOT_PNG | PLOT_SVG */
	bool logx;                    /* histogram and CDF: logarithmic x axis */
	enum plot_errorbars errorbars;
	int width_px, height_px;      /* 1000 x 600 */
};

/* Defaults: PNG and SVG, linear x, ± Stddev, 1000 x 600. */
void plot_opts_init(struct plot_opts *o);

/* One drawn figure. */
struct plot_figure {
	char *base;    /* file name without extension, e.g. "dbench-latency-mean" */
	char *kind;    /* "mean" | "box" | "hist" | "cdf" | "heatmap" | "interval" |
	                  "monitor" */
	char *title;   /* as printed on the figure */
};

/* What plot_all did: the figures drawn (in a deterministic order) and the
 * notes (series left out, figures not drawn, each with its reason). */
struct plot_result {
	struct plot_figure *fig;
	size_t n_fig;
	char **notes;
	size_t n_notes;
};
/* Free the figure names and notes of r. */
void plot_result_free(struct plot_result *r);

/* Draw every figure of s (built from t; tables by first appearance):
 *   mean      per table: Amean ± Stddev (or ± 95 % CI half-width, Student t)
 *             against the op, one line per column (plot_mean.c);
 *   box       per table: min, Q1, median, Q3, max per column and op
 *             (plot_box.c; quartiles are nearest-rank percentiles 25/75);
 *   hist, cdf per latency table (metric name holding "lat" or unit ns/us/usec)
 *             and op: the samples' histogram (fraction per bin) and their
 *             empirical CDF, one line per column (plot_hist.c, plot_cdf.c);
 *   heatmap   per load, metric, op and fixed variant/run when the cell names
 *             hold exactly two varying matrix axes: the Amean of each cell
 *             (plot_heatmap.c);
 *   interval  per table whose every op is an interval label "P-sK" (tcp-rr
 *             interval_transactions "pair0-s3"): per column the sum over
 *             the P's of each iteration, Amean ± Stddev over iterations,
 *             against K (plot_interval.c); such tables get no mean/box.
 * File names are BASE = sanitised "LOAD-METRIC[-fixed dims][-OP]-KIND"
 * (characters outside [A-Za-z0-9._+-] become '_', a repeat gets "-2", ...).
 * Returns 0 (r filled, possibly with no figure), or -1 with a message when
 * a file cannot be written or gnuplot is missing or fails (its stderr is
 * part of err). */
int plot_all(const struct sample_table *t, const struct summary *s,
	     const struct plot_opts *o, struct plot_result *r, char *err, size_t errsz);

/* Append to r (after plot_all) the monitor figures of runs run_ids (their
 * table series, harness/monitor/monitor.h), per run, variant and cell that have
 * series (reports/plot_monitor.c), x = s since the iteration started:
 *   cpu_user_pct, cpu_system_pct, cpu_idle_pct   stat per CPU, one line per
 *                              CPU, the first iteration with the series;
 *   ctxt_per_s                 stat, all CPUs, one line per iteration;
 *   psi_cpu_some_pct           psi cpu_some_pct, one line per iteration;
 *   nr_involuntary_switches    sched, summed over each load's threads at
 *                              each sample (cumulative), one line per load
 *                              instance and iteration.
 * BASE = sanitised "[RUNID-]VARIANT[-CELL]-NAME-monitor" (RUNID when more
 * than one run, CELL when the variant has series in more than one cell);
 * titles "run ID NAME, variant V[, cell C]: what". A series that was not
 * sampled draws no figure and adds no note; a run without series draws
 * nothing. Returns 0, or -1 with err (database, files, gnuplot). */
struct store;
int plot_monitors(struct store *s, const int64_t *run_ids, size_t n_runs,
		  const struct plot_opts *o, struct plot_result *r, char *err, size_t errsz);

/* One line of a wakeup-latency CDF from traces: its label (a variant) and
 * the wakeup latencies of its traced iterations pooled, ns, ascending. */
struct plot_trace_series {
	const char *label;
	const int64_t *ns;
	size_t n;
};

/* One figure: a load (and its cell, NULL when the runs have one). */
struct plot_trace_figure {
	const char *load, *cell;
	const struct plot_trace_series *s;
	size_t n;
};

/* Append to r the figures "trace-cdf" (reports/plot_trace.c), one per
 * figs[i]: the empirical CDF of each series' wakeup latencies in us, a
 * step line per series; BASE = sanitised "LOAD-wakeup_latency_us[-CELL]-
 * trace-cdf". 0, or -1 with err (files, gnuplot). */
int plot_trace_cdfs(const struct plot_trace_figure *figs, size_t n, const struct plot_opts *o,
		    struct plot_result *r, char *err, size_t errsz);

/* --- shared by the figure kinds (reports/plot_common.c) --- */

/* One figure under construction. */
struct plot_ctx {
	const struct plot_opts *o;
	const struct sample_table *t;
	const struct summary *s;
	struct plot_result *r;
	char **used;         /* every file base handed out so far */
	size_t n_used;
};

struct plot_fig {
	char *base;          /* unique file base */
	const char *kind;
	struct buf title;    /* plain text, written quoted */
	struct buf setup;    /* gnuplot commands before "plot" (axes, labels) */
	struct buf plot;     /* the plot command's argument list, without "plot " */
	struct buf data;     /* BASE.dat */
	size_t n_series;     /* datasets written (index 0 .. n_series-1) */
};

/* Start a figure named after table t (NULL: extra and kind only) plus the
 * optional extra part (an op) and kind; title starts as the table title. */
void plot_fig_begin(struct plot_ctx *c, struct plot_fig *f, const struct summary_table *t,
		    const char *extra, const char *kind);
/* Append s to b as a gnuplot single-quoted string ('' doubles a quote;
 * control characters become '?'), e.g. a title or key. */
void plot_quote(struct buf *b, const char *s);
/* Append the x axis of a distribution of t's metric: "set xlabel 'METRIC
 * (UNIT)' noenhanced" and, with logx, a base-10 log scale. */
void plot_metric_xaxis(struct buf *setup, const struct summary_table *t, bool logx);
/* Append a double in the C locale, shortest round-trip form ("%.17g"). */
void plot_num(struct buf *b, double v);
/* End the current dataset in f->data (two blank lines) and count it. */
void plot_series_end(struct plot_fig *f);
/* Add a note "BASE: text" to the result. */
void plot_note(struct plot_ctx *c, const struct plot_fig *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write BASE.dat and BASE.gp and run gnuplot when the figure has a series,
 * else note that it is not drawn (why: the reason). Frees f. 0 or -1. */
int plot_fig_finish(struct plot_ctx *c, struct plot_fig *f, const char *why,
		    char *err, size_t errsz);
/* A palette colour for series i (a fixed list, cycled), "#rrggbb". */
const char *plot_color(size_t i);
/* true when every sample of t (all ops and columns; NaN left out) is >= 0.
 * Such a metric is taken to be one that cannot be negative (a latency, a
 * time, a throughput): its error bars stop at 0 (plot_errorbar_point). */
bool plot_table_nonnegative(const struct summary_table *t);
/* Append one point of a yerrorlines series, "x y ylow yhigh" (using
 * 1:2:3:4): y ± e (e not finite: 0), ylow clamped at 0 when nonnegative. */
void plot_errorbar_point(struct buf *data, double x, double y, double e, bool nonnegative);
/* true when every op of t is a number (parse_double, finite). */
bool plot_ops_numeric(const struct summary_table *t);
/* Set xtics to the op labels at 0, 1, ... n-1 (categorical axis). */
void plot_op_xtics(struct buf *setup, const struct summary_table *t);
/* true when the row belongs to table t and has column col of t. */
bool plot_row_in(const struct summary *s, const struct summary_table *t,
		 const struct sample_row *row, size_t *col);

/* The figure kinds. Each draws zero or more figures for table t. */
int plot_mean(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz);
int plot_box(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz);
int plot_hist(struct plot_ctx *c, const struct summary_table *t, size_t op, char *err,
	      size_t errsz);
int plot_cdf(struct plot_ctx *c, const struct summary_table *t, size_t op, char *err,
	     size_t errsz);
int plot_interval(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz);
/* Heat maps take a summary by cell (columns = cell). */
int plot_heatmap(struct plot_ctx *c, const struct summary *by_cell,
		 const struct summary_table *t, char *err, size_t errsz);

/* true when op is an interval label "P-sK" (K decimal digits); *k and the
 * length of P (the prefix) are returned. */
bool plot_interval_op(const char *op, long long *k, size_t *prefix_len);

/* Run "gnuplot SCRIPT" in dir (stdin /dev/null, stdout discarded, stderr
 * captured, 120 s limit). 0, or -1 with "gnuplot ...: why" plus its stderr
 * in err (a missing gnuplot is named as such). */
int plot_run_gnuplot(const char *dir, const char *script, char *err, size_t errsz);

#endif
