/* Adaptive iterations: after min iterations a cell goes on until the 95 %
 * confidence interval of its primary metric's mean is narrow enough, max is
 * reached, or its time budget is spent. */
#ifndef SCHEDRIG_ADAPTIVE_H
#define SCHEDRIG_ADAPTIVE_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
