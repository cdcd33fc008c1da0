/* harness/stats/: statistics. stats (means, spread, significance tests,
 * pure functions) and summary (the samples of a report grouped into the
 * cells of its tables; summary_stat.c: the statistic rows of a table).
 */

/* Statistics on the samples of one metric, op, cell and variant: pure
 * functions over arrays of doubles, no allocation except where noted.
 * Distribution functions (Student t, standard normal) come from GSL.
 *
 * Conventions: n is the number of values; an empty input yields NaN; NaN
 * inputs are the caller's business (summary.c drops them before calling). */
#ifndef SCHEDRIG_STATS_H
#define SCHEDRIG_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples.h"

/* Sort n values ascending in place (qsort; NaN must not be present). */
void stats_sort(double *x, size_t n);

/* Arithmetic mean Σx/n; NaN when n == 0. mmtests Stat.pm calc_amean. */
double stats_amean(const double *x, size_t n);

/* Geometric mean exp(Σln x / n); NaN when n == 0 or any x <= 0.
 * mmtests Stat.pm calc_geomean. */
double stats_gmean(const double *x, size_t n);

/* Sample standard deviation sqrt(Σ(x-mean)²/(n-1)), two-pass; NaN when
 * n <= 1. mmtests Stat.pm calc_stddev. */
double stats_stddev(const double *x, size_t n);

/* Coefficient of variation in percent: stddev·100/mean; NaN when stddev or
 * mean is NaN, or mean is 0. mmtests Stat.pm calc_coeffvar (which prints 0
 * where we print NaN: an undefined value is never shown as a number). */
double stats_coeffvar(double stddev, double mean);

/* Median of ascending values: the middle value, or the mean of the two
 * middle values for even n; NaN when n == 0. */
double stats_median_sorted(const double *sorted, size_t n);

/* Nearest-rank percentile p (0 < p <= 100) of ascending values: the value
 * at 1-based rank ceil(p·n/100), clamped to 1..n; NaN when n == 0 or p is
 * outside (0, 100]. Never interpolates, so the result is always a sample.
 * Source: the nearest-rank definition (NIST Engineering Statistics Handbook
 * 7.2.5.2, method "nearest rank"). */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

/* Standard error of the mean stddev/sqrt(n); NaN when stddev is NaN. */
double stats_sem(double stddev, size_t n);

/* Half-width of the two-sided confidence interval of the mean at the given
 * level (0.95 for 95 %), Student t with n-1 degrees of freedom:
 * t_{(1+level)/2, n-1} · stddev/sqrt(n) (GSL gsl_cdf_tdist_Pinv). NaN when
 * n <= 1 or stddev is NaN. */
double stats_ci_half_t(double stddev, size_t n, double level);

/* Percent change of new against base, positive always meaning better, as
 * mmtests Stat.pm pdiff (BETTER_HIGHER) and pndiff (BETTER_LOWER) compute
 * it, operation for operation (so the last printed digit agrees):
 *   pdiff:  0 when new == base or new == 0; 100 when base == 0;
 *           else new·100/base − 100
 *   pndiff: 0 when new == base; 100 when new == 0; −99 when base == 0;
 *           else 100 − new·100/base
 * NaN when either value is NaN (mmtests prints a NaN statistic as 0 with
 * 0 %; an undefined value is never shown as a number here). */
double stats_pct_change(double base, double new_value, enum better better);

/* Everything the reports show about one group of samples, computed once. */
struct stats_summary {
	size_t n;
	double min, max;
	/* hmean n / Σ(1/x), NaN when any x <= 0 (mmtests Stat.pm calc_hmean,
	 * which returns NaN for x <= 0 as well) */
	double amean, gmean, hmean, median;
	double stddev;      /* sample (n-1) */
	double coeffvar;    /* stddev·100/amean, percent */
	/* BAmean-K ("best K percent mean"): the values best-first (ascending
	 * for BETTER_LOWER, descending for BETTER_HIGHER), the arithmetic mean
	 * of the first max(1, floor(n·K/100)), summed in that order; NaN when
	 * n == 0. mmtests Summarise.pm runStatFunc ("_mean-K": the first
	 * int(n·K/100), at least 1, of its sorted data) + calc_amean. */
	double bamean50, bamean95, bamean99;
	/* The spread around the Hmean (mmtests Stat.pm calc_stddev("hmean"),
	 * since 2024): the reciprocals' population spread mapped back through
	 * the harmonic mean, HStddev = sqrt(Σ(1/x − 1/Hmean)² · Hmean⁴ / n);
	 * HCoeffVar = HStddev·100/Hmean; BHmean-K the Hmean of the best K %
	 * (as BAmean-K). NaN where the Hmean is (a value <= 0) or n <= 1. */
	double hstddev, hcoeffvar;
	double bhmean50, bhmean95, bhmean99;
	/* Arithmetic mean and sample Stddev of the reciprocals 1/x: Welch's
	 * test of the Hmean (1/Hmean is their mean). NaN where a value <= 0. */
	double recip_amean, recip_stddev;
	double sem;         /* stddev/sqrt(n) */
	double ci95_half;   /* Student t, stats_ci_half_t(stddev, n, 0.95) */
};

/* Summarise n values already sorted ascending (stats_sort). better selects
 * the BAmean/BHmean direction and, as in mmtests Summarise.pm (which sorts
 * higher-is-better data descending), the order in which sums run:
 * ascending for BETTER_LOWER, descending for BETTER_HIGHER, so means agree
 * with mmtests' to the last bit. */
void stats_summarise(const double *sorted, size_t n, enum better better,
		     struct stats_summary *out);

/* The rule that decides the stars of a comparison. */
enum stats_significance {
	SIG_WELCH = 0,      /* Welch's two-sample t-test, two-sided */
	SIG_CI_OVERLAP,     /* mmtests: the confidence intervals do not overlap */
	SIG_MANN_WHITNEY,   /* Mann-Whitney U, two-sided, exact or normal */
	SIG_NONE,           /* no stars */
};

/* "welch" | "ci-overlap" | "mann-whitney" | "none"; parse returns -1 for
 * anything else. */
const char *stats_significance_name(enum stats_significance s);
int stats_significance_parse(const char *s);
/* One line for report footers naming the rule, e.g. "Welch's two-sample
 * t-test (two-sided, Welch-Satterthwaite df)". */
const char *stats_significance_describe(enum stats_significance s);

/* Result of one significance test of b against a. valid is false (and
 * significant false, p NaN) when the test does not apply: n < 2 on either
 * side (Mann-Whitney: n < 1), or a NaN input. */
struct stats_test {
	bool valid;
	bool significant;
	bool exact;         /* Mann-Whitney: p from the exact distribution of U */
	bool too_small;     /* Mann-Whitney, exact p: these n can never give
			     * p < alpha (stats_mann_whitney); significant
			     * is false */
	double statistic;   /* t (Welch), z or U (Mann-Whitney), cidiff (ci-overlap) */
	double df;          /* Welch-Satterthwaite degrees of freedom; NaN otherwise */
	double p;           /* two-sided p-value; NaN for ci-overlap */
};

/* Welch's t-test on means, variances and counts:
 *   t  = (mean_b − mean_a) / sqrt(va/na + vb/nb)
 *   df = (va/na + vb/nb)² / ((va/na)²/(na−1) + (vb/nb)²/(nb−1))
 *   p  = 2·Q_t(|t|; df)  (GSL gsl_cdf_tdist_Q), significant when p < alpha.
 * Both variances 0: p = 1 when the means are equal, else 0.
 * Source: Welch (1947), Satterthwaite (1946); mmtests Stat.pm
 * calc_welch_test (which floors df; we do not). Needs n >= 2 both sides. */
void stats_welch(double mean_a, double sd_a, size_t n_a,
		 double mean_b, double sd_b, size_t n_b, double alpha,
		 struct stats_test *out);

/* mmtests' half-width of the interval around a mean (Stat.pm _calc_meanci):
 * q = z_{1−alpha/2}·sd (standard normal quantile, GSL) rounded to 7
 * significant digits, as R prints the qnorm() mmtests reads back; its
 * interval is mean ± q (not a confidence interval of the mean: no
 * sqrt(n)). NaN when sd is NaN or alpha is outside (0, 1). */
double stats_meanci_q(double sd, double alpha);

/* mmtests Stat.pm cidiff, operation for operation: the difference of two
 * means over the sum of the interval halves that face each other,
 *   new < base:  cisum = (new_hi − new) + base − base_lo
 *   else:        cisum = (new − new_lo) + base_hi − base
 *   (new − base) / cisum, or new − base when cisum is 0. */
double stats_cidiff(double new_mean, double new_lo, double new_hi, double base_mean,
		    double base_lo, double base_hi);

/* mmtests' CI-overlap rule (Compare.pm _generateComparisonTable since
 * 2024-11-28, Stat.pm _calc_meanci and cidiff), step for step: each side
 * gets the interval mean ± q with q = z_{1−alpha/2}·sd (z = 1.96 at alpha
 * 0.05, standard normal quantile, GSL) rounded to 7 significant digits, as
 * R prints the qnorm() mmtests reads back; then, a being the baseline,
 *   a < b:  cisum = (hi_a − mean_a) + mean_b − lo_b
 *   else:   cisum = (mean_a − lo_a) + hi_b − mean_b
 *   cidiff = (mean_a − mean_b) / cisum, or mean_a − mean_b when cisum is 0
 * (both spreads 0: mmtests' fallback compares the bare difference with 1),
 * significant when |cidiff| > 1. It asks whether the runs' spreads
 * separate, not whether the means do, so it disagrees with Welch both
 * ways. statistic holds mmtests' cidiff (baseline minus other); p is NaN.
 * Needs n >= 2 both sides. */
void stats_ci_overlap(double mean_a, double sd_a, size_t n_a,
		      double mean_b, double sd_b, size_t n_b, double alpha,
		      struct stats_test *out);

/* Mann-Whitney U test on two ascending samples: ranks with ties averaged,
 * U_b = R_b − n_b(n_b+1)/2. Without ties and with n_a, n_b < 50 the
 * two-sided p is exact: p = min(1, 2·min(P(U <= U_b), P(U >= U_b))) from
 * the permutation distribution of U (counted with the generating function
 * Π_{i=1..n_a} (1 − q^{n_b+i}) / (1 − q^i)); statistic holds U_b. Otherwise
 * the tie-corrected normal approximation: z = (U_b − n_a·n_b/2 ∓ 0.5) / σ,
 * σ² = n_a·n_b/12 · ((N+1) − Σ(t³−t)/(N(N−1))), continuity correction toward
 * 0, p = 2·Q(|z|) (GSL); statistic holds z; σ = 0 (all values tied) gives
 * p = 1. Significant when p < alpha. Without ties no arrangement of
 * N = n_a + n_b values can give an exact two-sided p below 2 / C(N, n_a)
 * (0.1 at 3 vs 3, 1 at 1 vs 1): when the p is exact and that bound is
 * >= alpha, too_small is set and significant stays false ("n too small",
 * not "no change"). With ties the approximation's p alone decides (three
 * 100s against three 200s: p = 0.0469, significant at 0.05). Source: Mann
 * & Whitney (1947); exact and approximate p as R wilcox.test (exact when
 * n < 50 without ties). Needs n >= 1 both sides. */
void stats_mann_whitney(const double *a_sorted, size_t n_a,
			const double *b_sorted, size_t n_b, double alpha,
			struct stats_test *out);

/* Run the chosen test on two summarised, ascending samples of a metric of
 * direction better. A higher-is-better metric's row is the Hmean, so the
 * test is of the Hmean: Welch on the reciprocals 1/x (recip_amean,
 * recip_stddev), ci-overlap on Hmean ± z·HStddev (as mmtests); Mann-Whitney
 * ranks 1/x as x reversed, so it is the same test either way. A lower-is-
 * better metric's row is the Amean: Welch and ci-overlap on Amean, Stddev. */
void stats_compare(enum stats_significance rule, double alpha, enum better better,
		   const double *a_sorted, const struct stats_summary *a,
		   const double *b_sorted, const struct stats_summary *b,
		   struct stats_test *out);

/* A latency histogram as cyclictest prints it (--histogram / histogram_us):
 * bucket i counts the samples with upper[i-1] < x <= upper[i] (upper[-1] is
 * −inf), upper ascending in the metric's unit (cyclictest: upper[i] = i us,
 * since it stores integer microseconds). overflow counts the samples above
 * the last bucket, i.e. x >= limit (cyclictest "Histogram Overflows"; limit
 * is normally upper[n-1] + 1 for integer data). min_observed and
 * max_observed are the tool's own Min and Max (NaN when unknown). */
struct stats_hist {
	const double *upper;
	const uint64_t *count;
	size_t n;
	uint64_t overflow;
	double limit;
	double max_observed;
	double min_observed;
};

/* A percentile read from a histogram. censored means the percentile falls
 * into the overflow: the true value is ">= value" (value = limit) and no
 * bucket value is given. */
struct stats_hist_pct {
	double value;
	bool censored;
};

/* Nearest-rank percentile p (0 < p <= 100) of a histogram: rank
 * ceil(p·N/100) (clamped to 1..N) with N = Σcount + overflow; the result is
 * the upper bound of the bucket holding that rank, clamped to the observed
 * [min_observed, max_observed] (a bucket's bound is never reported outside
 * what the tool saw: sysbench prints a bucket centre below the Min of a
 * one-event run); a rank in the overflow yields {limit, censored}. Returns
 * 0, or -1 when N is 0, p is outside (0, 100] or upper is not ascending
 * (out untouched). */
int stats_hist_percentile(const struct stats_hist *h, double p, struct stats_hist_pct *out);

#endif
