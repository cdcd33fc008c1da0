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

/* Should the cell stop after n complete iterations with these primary
 * values (the primary metric's mean of each; NaN values are ignored) and
 * n_failed failed ones, elapsed_s into the cell? A failed iteration counts
 * toward max only (a cell that always fails still stops at max), never
 * toward min or the CI. Half-width = t_{0.975, n-1} · Stddev / sqrt(n)
 * (Student t, GSL, via stats_ci_half_t). Writes the reason to why, e.g.
 * "CI 0.8 % <= 1 %", "max reached, CI 3.1 %", "max_time_s 60 reached, CI
 * 2.0 %"; with failures first "2 failed, max reached, CI 3.1 %", and with
 * no complete iteration "5 failed, max reached, no complete iteration". */
bool adaptive_should_stop(const struct adaptive_rule *r, const double *values, size_t n,
			  size_t n_failed, double elapsed_s, char *why, size_t whysz);

/* Per-cell progress of one variant: each complete iteration's primary
 * value, the failed iterations, the time the cell has run, and whether it
 * has stopped. */
struct adaptive_cells;

/* Progress for n_cells cells, all empty; free with adaptive_cells_free. */
struct adaptive_cells *adaptive_cells_new(size_t n_cells);
void adaptive_cells_free(struct adaptive_cells *a);
/* Forget all progress (a new variant starts). */
void adaptive_cells_reset(struct adaptive_cells *a);
/* Record a complete iteration of cell: its CLOCK_MONOTONIC start in ns and
 * its primary value (NaN when it produced none). */
void adaptive_cells_add(struct adaptive_cells *a, size_t cell, int64_t started_ns, double value);
/* Record a failed iteration of cell (a load failed or timed out): it counts
 * toward max only. started_ns as for adaptive_cells_add. */
void adaptive_cells_add_failed(struct adaptive_cells *a, size_t cell, int64_t started_ns);
/* Start cell from what an earlier process of the run stored (run --resume):
 * the primary values of its n complete iterations and the seconds they ran,
 * which count toward max_time_s. Call on an empty cell. */
void adaptive_cells_restore(struct adaptive_cells *a, size_t cell, const double *values, size_t n,
			    double spent_s);
/* adaptive_should_stop for cell, its elapsed time being the restored
 * seconds plus the time from the start of its first iteration in this
 * process to now_ns. When true, the cell is stopped (adaptive_cells_stopped)
 * and why reads "N iteration(s), " (complete and failed) then the reason. */
bool adaptive_cells_enough(struct adaptive_cells *a, size_t cell, const struct adaptive_rule *r,
			   int64_t now_ns, char *why, size_t whysz);
/* The cell's clock stops at now_ns until its next iteration starts: an
 * interleaved run (harness/config/order.h) visits other cells in between, and a
 * cell's time budget counts its own iterations only. */
void adaptive_cells_pause(struct adaptive_cells *a, size_t cell, int64_t now_ns);
/* Mark cell stopped: it runs no more iterations (run --resume of a cell
 * that stopped before). */
void adaptive_cells_stop(struct adaptive_cells *a, size_t cell);
/* true once cell has stopped (adaptive_cells_enough or _stop). */
bool adaptive_cells_stopped(const struct adaptive_cells *a, size_t cell);

/* The primary load and metric of e: the first load naming primary_metric:
 * and that metric, else the first measured load with its driver's
 * primary_metric (or its first metric). false when e has no measured load
 * and none names primary_metric:. */
bool adaptive_primary(const struct experiment *e, const struct cfg_load **load,
		      const char **metric);

/* The primary value of one iteration: the mean of the samples of the primary
 * metric of the primary load (adaptive_primary), NaN samples left out.
 * samples[i] are the parsed samples of res->r[i]. NaN when none. */
double adaptive_primary_value(const struct experiment *e, const struct iteration_result *res,
			      const struct sample_vec *samples);

#endif
