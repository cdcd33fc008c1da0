/* Change points of a series: E-divisive means with a permutation test
 * (Matteson & James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", JASA 109(505), 2014, section 3 with
 * alpha = 1), the method MongoDB's signal-processing-algorithms (ICPE
 * 2020) and Apache Otava (formerly Hunter, ICPE 2023) run over
 * performance histories. Pure functions over arrays of doubles; no
 * NaN in the input.
 *
 * The statistic. For the points X = x[s..tau) (n of them) and Y =
 * x[tau..kappa) (m of them):
 *   Q(tau, kappa) = n·m/(n+m) · ( 2/(n·m) · Σ_{i∈X, j∈Y} |x_i − x_j|
 *                                − 2/(n(n−1)) · Σ_{i<k ∈ X} |x_i − x_k|
 *                                − 2/(m(m−1)) · Σ_{j<k ∈ Y} |x_j − x_k| )
 * (the paper's Q̂ with the U-statistic within-sample means, as Otava has
 * it; MongoDB's current code divides the within sums by n² and m²). The
 * best split of a segment [s, e) is the tau maximising
 * max_kappa Q(tau, kappa) over s + min_segment <= tau <= e − min_segment,
 * tau a permitted boundary, and tau + min_segment <= kappa <= e (the
 * paper's kappa: Y may stop short of the segment's end, so a second
 * change later in the segment does not blur the first); the first tau
 * and then the first kappa win ties.
 *
 * The procedure (the paper's hierarchical divisive estimation). The
 * segments are the series cut at the change points found so far (none at
 * first). The candidate is the best split of the segment whose best split
 * has the largest Q (the first such segment on a tie). Its significance:
 * R times, the points of each segment are permuted within the segment
 * and the largest best-split Q over all segments of the permuted series
 * is taken; p = (1 + #{permutations with Q >= candidate's Q}) / (R + 1)
 * (the paper's approximate p-value, which counts the observed statistic
 * as one of the permutations; MongoDB and Otava leave that 1 out of the
 * numerator, which can give p = 0). Q >= means Q >= candidate − 1e-9 ·
 * |candidate| (equal sums added in another order are equal). The
 * candidate is a change point when p <= alpha; then its segment is cut
 * there and the next candidate sought; else the procedure stops. Under
 * no change (exchangeable points) the chance of any change point is at
 * most alpha: the first test has level alpha (exactly, when alpha·(R+1)
 * is an integer and Q has no ties) and nothing follows its rejection.
 *
 * The permutations are reproducible: a working copy of the series is made
 * for each test and each permutation shuffles every segment of it in
 * place, in order, by Fisher-Yates (for i from the segment's length − 1
 * down to 1, j = uniform below i + 1, swap its points i and j), the
 * uniforms drawn from one splitmix64 stream (changepoint_splitmix64)
 * seeded once per detection: uniform below m is ((r >> 32) · m) >> 32 of
 * the next output r. */
#ifndef SCHEDRIG_CHANGEPOINT_H
#define SCHEDRIG_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The rule's settings. */
struct changepoint_opts {
	double alpha;          /* significance level, 0 < alpha < 1 */
	int permutations;      /* R, >= 1 */
	uint64_t seed;         /* the splitmix64 stream's start */
	size_t min_segment;    /* the fewest points on either side of a split, >= 2 */
	/* boundary[i] (0 < i < n): a change may begin at point i (the first
	 * run of a revision, when a revision has several runs); NULL: at any
	 * point. */
	const bool *boundary;
};

/* One change point: index is the first point of the new level (the
 * change lies between index − 1 and index); q its Q, p its p-value, rank
 * the order it was found in (1 first). */
struct changepoint {
	size_t index;
	double q, p;
	size_t rank;
};

/* The change points of x[0..n) by the procedure above, into out (room
 * for n / min_segment entries), sorted by index; their count. rejected
 * (NULL: not wanted) receives the candidate whose test stopped the
 * procedure (index 0 when no segment could be split any more). */
size_t changepoint_edivisive(const double *x, size_t n, const struct changepoint_opts *o,
			     struct changepoint *out, struct changepoint *rejected);

/* Q(tau, kappa) of x[s..kappa) split at tau (above), directly; NaN unless
 * s + 2 <= tau and tau + 2 <= kappa. */
double changepoint_q(const double *x, size_t s, size_t tau, size_t kappa);

/* The next output of the splitmix64 generator whose state is *state
 * (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014; the constants of Vigna's reference splitmix64.c). */
uint64_t changepoint_splitmix64(uint64_t *state);

/* The levels between change points: for cp[k] (sorted by index), the
 * Amean of x from the previous change point (or 0) to cp[k].index, and
 * from there to the next change point (or n). */
void changepoint_levels(const double *x, size_t n, const struct changepoint *cp, size_t n_cp,
			size_t k, double *before, double *after);

/* Percent change of after against before: (after − before) / |before| ·
 * 100; ±inf when before is 0 and after is not, 0 when both are. */
double changepoint_change_pct(double before, double after);

/* Drop the change points of cp[0..*n_cp) whose change (changepoint_levels,
 * changepoint_change_pct) is smaller than min_pct in size: the smallest
 * first, the levels of its neighbours then taken again over the merged
 * segment, until every one left changes by min_pct or more (as Otava
 * merges weak change points). min_pct 0 drops none. */
void changepoint_prune(const double *x, size_t n, struct changepoint *cp, size_t *n_cp,
		       double min_pct);

#endif
