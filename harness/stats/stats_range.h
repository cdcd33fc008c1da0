/* Range separation, the test lkp-tests' bisection decides by, with the
 * exact chance of it under no change.
 *
 * lkp (lib/stats.rb sort_remove_margin, lib/changed_stat.rb change?)
 * sorts each side, trims a margin of n >> 5 values (at most 3) off both
 * ends of it, and calls the sides changed when every remaining value of
 * one side lies beyond every remaining value of the other. Here that rule
 * gets a p-value: under no change (the n_a + n_b values exchangeable,
 * continuous) every order of the pooled values is equally likely, so the
 * chance of a separation at least as complete is a count of orders over
 * C(n_a + n_b, n_a). A separation of untrimmed sides has p = 2 / C(N, n_a)
 * (0.1 at 3 vs 3, 0.0079 at 5 vs 5); tied values only make a strict
 * separation rarer, so the p stays an upper bound. */
#ifndef SCHEDRIG_STATS_RANGE_H
#define SCHEDRIG_STATS_RANGE_H

#include <stdbool.h>
#include <stddef.h>

/* lkp's margin (MARGIN_SHIFT 5, max_margin 3 for performance stats):
 * min(n >> 5, 3) values trimmed off each end of a side of n. */
size_t stats_range_margin(size_t n);

/* The result of one range test of b against a. */
struct stats_range {
	bool valid;         /* both sides keep a value after trimming */
	bool separated;     /* every kept value of one side beyond every kept one of the other */
	double gap;         /* kept b's lowest − a's highest when b lies above, a's lowest −
			     * b's highest (negated) when below; NaN when not separated */
	double p;           /* two-sided: P(a separation either way | no change) when
			     * separated, else 1; NaN when not valid */
};

/* The test on ascending samples a (n_a) and b (n_b), each trimmed by
 * stats_range_margin. The p of a separation with margins m_a, m_b: the
 * orders in which the (m_a+1)-th smallest a lies above the (n_b−m_b)-th
 * smallest b number sum_{j=n_b−m_b..n_b} C(m_a+j, j)·C(n_a−m_a−1+n_b−j,
 * n_b−j) (j b's before that a), likewise b above a; p is their sum over
 * C(n_a+n_b, n_a), at most 1. */
void stats_range_test(const double *a_sorted, size_t n_a, const double *b_sorted, size_t n_b,
		      struct stats_range *out);

/* The p a separation gives at these n: the smallest p the test can give
 * (1 when a side keeps no value). */
double stats_range_floor_p(size_t n_a, size_t n_b);

#endif
