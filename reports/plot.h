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

#include "plot_common.h"
#include "samples.h"
#include "summary.h"

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

#endif
