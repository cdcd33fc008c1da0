/* Adaptive iterations: after min iterations a cell goes on until the 95 %
 * confidence interval of its primary metric's mean is narrow enough, max is
 * reached, or its time budget is spent. */
#ifndef SCHEDRIG_ADAPTIVE_H
#define SCHEDRIG_ADAPTIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "runner.h"

struct adaptive_rule {
	int min, max;        /* iterations; min == max: a fixed count */
	double ci_pct;       /* stop when the CI half-width <= ci_pct % of |mean|; 0: never */
	double max_time_s;   /* stop when the cell has run this long; 0: no budget */
};

/* Should the cell stop after these n per-iteration values (the primary
 * metric's mean of each iteration; NaN values are ignored) and elapsed_s of
 * the cell? Half-width = t_{0.975, n-1} · Stddev / sqrt(n) (Student t, GSL,
 * via stats_ci_half_t). Writes the reason to why, e.g. "CI 0.8 % <= 1 %",
 * "max reached, CI 3.1 %", "max_time_s 60 reached, CI 2.0 %". */
bool adaptive_should_stop(const struct adaptive_rule *r, const double *values, size_t n,
			  double elapsed_s, char *why, size_t whysz);

/* Per-cell progress of one variant: each finished iteration's primary value
 * and when the cell's first iteration started. */
struct adaptive_cells;

/* Progress for n_cells cells, all empty; free with adaptive_cells_free. */
struct adaptive_cells *adaptive_cells_new(size_t n_cells);
void adaptive_cells_free(struct adaptive_cells *a);
/* Forget all progress (a new variant starts). */
void adaptive_cells_reset(struct adaptive_cells *a);
/* Record a finished iteration of cell: its CLOCK_MONOTONIC start in ns and
 * its primary value (NaN when it produced none). */
void adaptive_cells_add(struct adaptive_cells *a, size_t cell, int64_t started_ns, double value);
/* adaptive_should_stop for cell, its elapsed time counted from the start of
 * its first iteration to now_ns. */
bool adaptive_cells_enough(const struct adaptive_cells *a, size_t cell,
			   const struct adaptive_rule *r, int64_t now_ns, char *why, size_t whysz);

/* The primary value of one iteration: the mean of the samples of the primary
 * metric of the primary load — the first load naming primary_metric:, else
 * the first measured load with its driver's primary_metric (or its first
 * metric). samples[i] are the parsed samples of res->r[i]. NaN when none. */
double adaptive_primary_value(const struct experiment *e, const struct iteration_result *res,
			      const struct sample_vec *samples);

#endif
