/* Statistics, significance tests, histogram percentiles, the sample CSV
 * reader/writer and the summary grouping. Expected values are computed by
 * hand or with python3 (math only: Simpson integration of the Student t
 * density, erfc for the normal), never with the code under test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "csvio.h"
#include "stats.h"
#include "summary.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EPS 1e-9

static void assert_close(double got, double want, double eps)
{
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("expected NaN, got %.17g", got);
		return;
	}
	if (!(fabs(got - want) <= eps))
		fail_msg("expected %.17g, got %.17g", want, got);
}

/* Hmean of ascending values through the summary (stats_summarise). */
static double hmean_of(const double *sorted, size_t n)
{
	struct stats_summary st;
	stats_summarise(sorted, n, BETTER_LOWER, &st);
	return st.hmean;
}

static void test_hmean_edges(void **state)
{
	(void)state;
	const double with_zero[] = {0, 50, 60}, two[] = {50, 60}, neg[] = {-1, 50};
	assert_close(hmean_of(with_zero, N(with_zero)), NAN, 0);
	assert_close(hmean_of(neg, N(neg)), NAN, 0);
	/* 2 / (1/50 + 1/60) = 600/11 */
	assert_close(hmean_of(two, N(two)), 54.545454545454545, EPS);
	assert_close(hmean_of(two, 0), NAN, 0);
	assert_close(stats_gmean(with_zero, N(with_zero)), NAN, 0);
	/* sqrt(50·60) */
	assert_close(stats_gmean(two, N(two)), 54.772255750516611, EPS);
}

static void test_stddev_coeffvar_edges(void **state)
{
	(void)state;
	const double one[] = {7}, three[] = {2, 4, 6};
	assert_close(stats_stddev(one, N(one)), NAN, 0);
	assert_close(stats_stddev(three, N(three)), 2.0, EPS);
	assert_close(stats_amean(three, N(three)), 4.0, EPS);
	assert_close(stats_coeffvar(2.0, 4.0), 50.0, EPS);
	assert_close(stats_coeffvar(NAN, 4.0), NAN, 0);
	assert_close(stats_coeffvar(2.0, 0.0), NAN, 0);
	struct stats_summary s;
	stats_summarise(one, 1, BETTER_LOWER, &s);
	assert_close(s.stddev, NAN, 0);
	assert_close(s.coeffvar, NAN, 0);
	assert_close(s.sem, NAN, 0);
	assert_close(s.ci95_half, NAN, 0);
	assert_close(s.amean, 7, 0);
	stats_summarise(three, 3, BETTER_LOWER, &s);
	assert_close(s.coeffvar, 50.0, EPS);
	assert_close(s.median, 4.0, 0);
}

static void test_bamean(void **state)
{
	(void)state;
	double x[] = {5, 1, 4, 2};
	struct stats_summary lo, hi, one, none;
	stats_sort(x, N(x));
	stats_summarise(x, N(x), BETTER_LOWER, &lo);
	stats_summarise(x, N(x), BETTER_HIGHER, &hi);
	stats_summarise(x, 1, BETTER_LOWER, &one);
	stats_summarise(x, 0, BETTER_LOWER, &none);
	/* lower is better: best-first 1,2,4,5; first floor(4·50/100) = 2 */
	assert_close(lo.bamean50, 1.5, EPS);
	/* higher is better: best-first 5,4,2,1 */
	assert_close(hi.bamean50, 4.5, EPS);
	/* floor(4·95/100) = 3 */
	assert_close(lo.bamean95, 7.0 / 3.0, EPS);
	/* n·K/100 < 1 → max(1, ·) = 1: the best value */
	assert_close(one.bamean50, 1, 0);
	assert_close(none.bamean50, NAN, 0);
}

static void test_percentile_median(void **state)
{
	(void)state;
	/* Nearest-rank example: 15, 20, 35, 40, 50 */
	const double x[] = {15, 20, 35, 40, 50};
	assert_close(stats_percentile_sorted(x, 5, 5), 15, 0);
	assert_close(stats_percentile_sorted(x, 5, 30), 20, 0);
	assert_close(stats_percentile_sorted(x, 5, 40), 20, 0);
	assert_close(stats_percentile_sorted(x, 5, 50), 35, 0);
	assert_close(stats_percentile_sorted(x, 5, 100), 50, 0);
	assert_close(stats_percentile_sorted(x, 5, 0), NAN, 0);
	assert_close(stats_percentile_sorted(x, 0, 50), NAN, 0);
	double y[100];
	for (int i = 0; i < 100; i++)
		y[i] = i + 1;
	assert_close(stats_percentile_sorted(y, 100, 99), 99, 0);
	assert_close(stats_percentile_sorted(y, 100, 99.9), 100, 0);
	assert_close(stats_median_sorted(x, 5), 35, 0);
	assert_close(stats_median_sorted(x, 4), 27.5, 0);
}

static void test_pct_change(void **state)
{
	(void)state;
	assert_close(stats_pct_change(100, 110, BETTER_HIGHER), 10, EPS);
	assert_close(stats_pct_change(100, 110, BETTER_LOWER), -10, EPS);
	/* seed 000: 15.99 → 16.20 lower-is-better is −1.31 % (printed −1.27 %
	 * there from unrounded means) */
	assert_close(stats_pct_change(15.99, 16.20, BETTER_LOWER), 100 - 16.20 / 15.99 * 100, EPS);
	/* mmtests pdiff/pndiff edge rules (Stat.pm) */
	assert_close(stats_pct_change(0, 5, BETTER_HIGHER), 100, 0);
	assert_close(stats_pct_change(5, 0, BETTER_HIGHER), 0, 0);
	assert_close(stats_pct_change(0, 5, BETTER_LOWER), -99, 0);
	assert_close(stats_pct_change(5, 0, BETTER_LOWER), 100, 0);
	assert_close(stats_pct_change(0, 0, BETTER_LOWER), 0, 0);
	assert_close(stats_pct_change(NAN, 5, BETTER_HIGHER), NAN, 0);
	assert_close(stats_pct_change(5, NAN, BETTER_LOWER), NAN, 0);
	/* new·100/base, as Perl evaluates $_[0] * 100 / $_[1]: not new/base·100 */
	assert_true(stats_pct_change(3, 0.7, BETTER_LOWER) == 100.0 - 0.7 * 100.0 / 3);
}

static void test_sem_ci(void **state)
{
	(void)state;
	const double x[] = {10, 11, 12, 13, 14};
	double sd = stats_stddev(x, 5);
	assert_close(sd, sqrt(2.5), EPS);
	assert_close(stats_sem(sd, 5), sqrt(0.5), EPS);
	/* t_{0.975,4} = 2.7764451051977987 (tables) · sqrt(2.5)/sqrt(5) */
	assert_close(stats_ci_half_t(sd, 5, 0.95), 1.9632431614775607, 1e-9);
}

/* Welch significant (p = 0.0369 < 0.05), the intervals mean ± 1.96·Stddev
 * overlap (cidiff 0.403). a = 10..14, b = 12.5..16.5: t = 2.5, df = 8.
 * p and cidiff computed independently in python (Simpson integration of the
 * t density). */
static void test_welch_yes_ci_no(void **state)
{
	(void)state;
	const double a[] = {10, 11, 12, 13, 14}, b[] = {12.5, 13.5, 14.5, 15.5, 16.5};
	struct stats_summary sa, sb;
	struct stats_test w, c;
	stats_summarise(a, 5, BETTER_LOWER, &sa);
	stats_summarise(b, 5, BETTER_LOWER, &sb);
	stats_compare(SIG_WELCH, 0.05, BETTER_LOWER, a, &sa, b, &sb, &w);
	assert_true(w.valid);
	assert_close(w.statistic, 2.5, 1e-12);
	assert_close(w.df, 8, 1e-12);
	assert_close(w.p, 0.0369420377, 1e-8);
	assert_true(w.significant);
	stats_compare(SIG_CI_OVERLAP, 0.05, BETTER_LOWER, a, &sa, b, &sb, &c);
	assert_true(c.valid);
	/* mmtests' cidiff is baseline minus other: (12 − 14.5) / (2·q), q =
	 * 1.959964·sqrt(2.5) rounded to 7 digits as R prints it: 3.098975 */
	assert_close(c.statistic, -2.5 / (2 * 3.098975), 1e-12);
	assert_false(c.significant);
}

/* ci-overlap significant (|cidiff| 2.044 > 1), Welch not (p = 0.1053):
 * a = {10, 10.2}, b = {20, 24}: unequal spreads give t = 5.9426 with only
 * df = 1.005 (Welch-Satterthwaite). p computed independently in python as
 * the regularised incomplete beta I_{df/(df+t²)}(df/2, 1/2) (Lentz continued
 * fraction), not with GSL. */
static void test_ci_yes_welch_no(void **state)
{
	(void)state;
	const double a[] = {10, 10.2}, b[] = {20, 24};
	struct stats_summary sa, sb;
	struct stats_test w, c;
	stats_summarise(a, 2, BETTER_LOWER, &sa);
	stats_summarise(b, 2, BETTER_LOWER, &sb);
	stats_compare(SIG_WELCH, 0.05, BETTER_LOWER, a, &sa, b, &sb, &w);
	assert_true(w.valid);
	assert_close(w.statistic, 5.9425764163, 1e-8);
	assert_close(w.df, 1.0049999688, 1e-8);
	assert_close(w.p, 0.1052846249, 1e-9);
	assert_false(w.significant);
	stats_compare(SIG_CI_OVERLAP, 0.05, BETTER_LOWER, a, &sa, b, &sb, &c);
	/* q_a = 1.959964·0.141421 → 0.2771808, q_b = 1.959964·2.828427 →
	 * 5.543615 (7 digits): (10.1 − 22) / (0.2771808 + 5.543615) */
	assert_close(c.statistic, (10.1 - 22) / (0.2771808 + 5.543615), 1e-12);
	assert_true(c.significant);
}

/* The Hmean row of a higher-is-better metric is tested as an Hmean:
 * Welch on the reciprocals (t, df from python statistics on 1/x), the
 * CI-overlap rule on Hmean +- z·HStddev. */
static void test_hmean_row_tests(void **state)
{
	(void)state;
	const double a[] = {10, 10.2}, b[] = {20, 24};
	struct stats_summary sa, sb;
	struct stats_test w, c;
	stats_summarise(a, 2, BETTER_HIGHER, &sa);
	stats_summarise(b, 2, BETTER_HIGHER, &sb);
	stats_compare(SIG_WELCH, 0.05, BETTER_HIGHER, a, &sa, b, &sb, &w);
	assert_true(w.valid);
	assert_close(w.statistic, -12.425383854610937, 1e-9);
	assert_close(w.df, 1.110388292729507, 1e-9);
	stats_compare(SIG_CI_OVERLAP, 0.05, BETTER_HIGHER, a, &sa, b, &sb, &c);
	assert_true(c.valid);
	/* HStddev = H²·pstdev(1/x) (python statistics): a 0.0999902, b
	 * 1.983471 → q 0.1959772, 3.887532 (7 digits as R prints them) */
	double ha = 10.099009900990097, hb = 21.818181818181817;
	assert_close(sa.hstddev, 0.09999019703950554, 1e-12);
	assert_close(sb.hstddev, 1.9834710743801662, 1e-12);
	assert_close(c.statistic, (ha - hb) / (0.1959772 + 3.887532), 1e-12);
	assert_true(c.significant);
}

/* mmtests' fallback when both spreads are 0 (Stat.pm cidiff: the
 * difference itself when cisum is 0): significant when the means differ by
 * more than 1, in the metric's unit. */
static void test_ci_overlap_zero_spread(void **state)
{
	(void)state;
	struct stats_test c;
	stats_ci_overlap(12.5, 0, 5, 14.5, 0, 5, 0.05, &c);
	assert_true(c.valid);
	assert_close(c.statistic, -2, 0);
	assert_true(c.significant);
	stats_ci_overlap(12.5, 0, 5, 12.9, 0, 5, 0.05, &c);
	assert_close(c.statistic, 12.5 - 12.9, 0);
	assert_false(c.significant);
	stats_ci_overlap(12.5, 0, 5, 12.5, 0, 5, 0.05, &c);
	assert_false(c.significant);
}

static void test_tests_need_two(void **state)
{
	(void)state;
	const double a[] = {10, 12}, b[] = {15};
	struct stats_summary sa, sb;
	struct stats_test t;
	stats_summarise(a, 2, BETTER_LOWER, &sa);
	stats_summarise(b, 1, BETTER_LOWER, &sb);
	for (int rule = SIG_WELCH; rule <= SIG_NONE; rule++) {
		if (rule == SIG_MANN_WHITNEY)
			continue;
		stats_compare((enum stats_significance)rule, 0.05, BETTER_LOWER, a, &sa, b, &sb, &t);
		assert_false(t.valid);
		assert_false(t.significant);
		assert_true(isnan(t.p));
	}
	/* Mann-Whitney ranks one value: 15 above 10 and 12 is U = 2 of 0..2,
	 * each rank of the one value equally likely, P(U >= 2) = 1/3, p = 2/3:
	 * valid, exact, and no arrangement can do better, so n too small. */
	stats_compare(SIG_MANN_WHITNEY, 0.05, BETTER_LOWER, a, &sa, b, &sb, &t);
	assert_true(t.valid);
	assert_true(t.exact);
	assert_close(t.p, 2.0 / 3, 1e-15);
	assert_true(t.too_small);
	assert_false(t.significant);
	/* 1 vs 1: U = 1 of 0..1, p = 2·min(1, 1/2) = 1, n too small */
	const double one[] = {1}, two[] = {2};
	stats_mann_whitney(one, 1, two, 1, 0.05, &t);
	assert_true(t.valid);
	assert_close(t.p, 1, 0);
	assert_true(t.too_small);
	assert_false(t.significant);
	/* no values on one side: no test */
	stats_mann_whitney(one, 1, two, 0, 0.05, &t);
	assert_false(t.valid);
	assert_false(t.too_small);
	/* zero variance on both sides */
	const double c[] = {3, 3};
	stats_welch(3, 0, 2, 4, 0, 2, 0.05, &t);
	assert_true(t.significant);
	assert_close(t.p, 0, 0);
	stats_welch(3, 0, 2, 3, 0, 2, 0.05, &t);
	assert_false(t.significant);
	assert_close(t.p, 1, 0);
	stats_mann_whitney(c, 2, c, 2, 0.05, &t);
	assert_close(t.p, 1, 0);
}

/* Exact p without ties: every p below was counted in python by
 * enumerating all C(N, n_a) arrangements (itertools.combinations). */
static void test_mann_whitney(void **state)
{
	(void)state;
	const double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
	struct stats_test t;
	/* 5 vs 5 apart: U 25, p = 2/252 */
	stats_mann_whitney(a, 5, b, 5, 0.05, &t);
	assert_true(t.valid);
	assert_true(t.exact);
	assert_false(t.too_small);
	assert_close(t.statistic, 25, 0);
	assert_close(t.p, 2.0 / 252, 1e-15);
	assert_true(t.significant);
	const double c[] = {1, 2, 4, 6, 7}, d[] = {3, 5, 8, 9, 10};
	stats_mann_whitney(c, 5, d, 5, 0.05, &t);
	assert_close(t.statistic, 20, 0);
	assert_close(t.p, 0.15079365079365079, 1e-15);
	assert_false(t.significant);
	const double e[] = {1.5, 2.5, 3.1, 4.2, 5.0, 6.1}, f[] = {2.0, 3.3, 7.0, 8.5, 9.1, 9.9, 10.2};
	stats_mann_whitney(e, 6, f, 7, 0.05, &t);
	assert_true(t.exact);
	assert_close(t.statistic, 34, 0);
	assert_close(t.p, 0.07342657342657342, 1e-15);
	/* 4 vs 4 apart: p = 2/70 < 0.05 */
	stats_mann_whitney(a, 4, b, 4, 0.05, &t);
	assert_close(t.p, 2.0 / 70, 1e-15);
	assert_true(t.significant);
	/* ties: ranks averaged, tie-corrected normal approximation */
	const double g[] = {1, 2, 2, 3}, h[] = {2, 3, 3, 4};
	stats_mann_whitney(g, 4, h, 4, 0.05, &t);
	assert_false(t.exact);
	assert_close(t.statistic, 1.365698202000489, 1e-12);
	assert_close(t.p, 0.17203370892182296, 1e-12);
	assert_false(t.significant);
}

/* 3 vs 3 without ties can never reach p < 0.05 (the smallest exact
 * two-sided p is 2/20 = 0.1): "n too small", never a star. With ties the
 * p is the tie-corrected normal approximation's and it decides: 1,1,1
 * against 2,2,2 ranks 2,2,2 | 5,5,5, U = 15 − 3·4/2 = 9, mean 4.5,
 * Σ(t³−t) = 2·24 = 48, σ² = 9/12·(7 − 48/30) = 4.05, z = (4.5 − 0.5)/√4.05
 * = 1.98761598, p = 2·Q(z) = 0.0468541776 (python statistics.NormalDist;
 * R wilcox.test gives the same): significant, not too small. */
static void test_mann_whitney_too_small(void **state)
{
	(void)state;
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6}, c[] = {1, 1, 1}, d[] = {2, 2, 2};
	struct stats_test t;
	stats_mann_whitney(a, 3, b, 3, 0.05, &t);
	assert_true(t.valid);
	assert_true(t.exact);
	assert_close(t.p, 0.1, 1e-15);
	assert_true(t.too_small);
	assert_false(t.significant);
	stats_mann_whitney(c, 3, d, 3, 0.05, &t);
	assert_false(t.exact);
	assert_close(t.statistic, 1.9876159799998132, 1e-12);
	assert_close(t.p, 0.04685417760387378, 1e-12);
	assert_false(t.too_small);
	assert_true(t.significant);
	/* at alpha 0.2 the same n can: not too small */
	stats_mann_whitney(a, 3, b, 3, 0.2, &t);
	assert_false(t.too_small);
	assert_true(t.significant);
}

/* HStddev, HCoeffVar and BHmean-K as mmtests computes them (Stat.pm
 * calc_stddev("hmean")): expected values from python statistics,
 * HStddev = harmonic_mean(x)² · pstdev(1/x). */
static void test_harmonic_spread(void **state)
{
	(void)state;
	double x[] = {20, 40, 10};
	struct stats_summary s;
	stats_sort(x, N(x));
	stats_summarise(x, N(x), BETTER_HIGHER, &s);
	assert_close(s.hmean, 17.142857142857142, 1e-12);
	assert_close(s.hstddev, 9.16324257985455, 1e-12);
	assert_close(s.hcoeffvar, 53.452248382484875, 1e-12);
	/* best first: 40, 20, 10; int(3·50/100) = 1, int(3·95/100) = 2 */
	assert_close(s.bhmean50, 40, 0);
	assert_close(s.bhmean95, 26.666666666666664, 1e-12);
	assert_close(s.bhmean99, 26.666666666666664, 1e-12);
	assert_close(s.recip_amean, 0.058333333333333334, 1e-15);
	assert_close(s.recip_stddev, 0.038188130791298666, 1e-15);
	double y[] = {0, 5};
	stats_summarise(y, 2, BETTER_HIGHER, &s);
	assert_close(s.hstddev, NAN, 0);
	assert_close(s.recip_amean, NAN, 0);
	stats_summarise(x, 1, BETTER_HIGHER, &s);
	assert_close(s.hstddev, NAN, 0);
}

static void test_significance_names(void **state)
{
	(void)state;
	assert_int_equal(stats_significance_parse("welch"), SIG_WELCH);
	assert_int_equal(stats_significance_parse("ci-overlap"), SIG_CI_OVERLAP);
	assert_int_equal(stats_significance_parse("mann-whitney"), SIG_MANN_WHITNEY);
	assert_int_equal(stats_significance_parse("none"), SIG_NONE);
	assert_int_equal(stats_significance_parse("t-test"), -1);
	assert_string_equal(stats_significance_name(SIG_CI_OVERLAP), "ci-overlap");
}

static void test_hist_percentile(void **state)
{
	(void)state;
	const double upper[] = {0, 1, 2, 3, 4};
	const uint64_t count[] = {0, 5, 3, 1, 0};
	struct stats_hist h = {upper, count, 5, 1, 5, NAN, NAN};
	struct stats_hist_pct r;
	/* N = 10 */
	assert_int_equal(stats_hist_percentile(&h, 50, &r), 0);
	assert_close(r.value, 1, 0);
	assert_false(r.censored);
	assert_int_equal(stats_hist_percentile(&h, 80, &r), 0);
	assert_close(r.value, 2, 0);
	assert_int_equal(stats_hist_percentile(&h, 90, &r), 0);
	assert_close(r.value, 3, 0);
	/* rank 10 is the overflow sample: "≥ 5", never a bucket value */
	assert_int_equal(stats_hist_percentile(&h, 95, &r), 0);
	assert_true(r.censored);
	assert_close(r.value, 5, 0);
	/* no overflow, observed Max 2.5: bucket bound 3 is capped at 2.5 */
	struct stats_hist h2 = {upper, count, 5, 0, 5, 2.5, NAN};
	assert_int_equal(stats_hist_percentile(&h2, 100, &r), 0);
	assert_false(r.censored);
	assert_close(r.value, 2.5, 0);
	assert_int_equal(stats_hist_percentile(&h2, 50, &r), 0);
	assert_close(r.value, 1, 0);
	/* errors */
	const uint64_t zero[] = {0, 0, 0, 0, 0};
	struct stats_hist h3 = {upper, zero, 5, 0, 5, NAN, NAN};
	assert_int_equal(stats_hist_percentile(&h3, 50, &r), -1);
	assert_int_equal(stats_hist_percentile(&h, 0, &r), -1);
	assert_int_equal(stats_hist_percentile(&h, 100.5, &r), -1);
	const double bad_upper[] = {0, 2, 1, 3, 4};
	struct stats_hist h4 = {bad_upper, count, 5, 0, 5, NAN, NAN};
	assert_int_equal(stats_hist_percentile(&h4, 50, &r), -1);
	/* clamped to the observed Min as well: a one-event run whose bucket
	 * bound 2 lies above its Min and Max 1.3 reads 1.3 at every rank */
	const uint64_t one[] = {0, 0, 1, 0, 0};
	struct stats_hist h5 = {upper, one, 5, 0, 5, 1.3, 1.3};
	assert_int_equal(stats_hist_percentile(&h5, 50, &r), 0);
	assert_close(r.value, 1.3, 0);
	/* a bucket bound below the observed Min is raised to it */
	const double low[] = {0.5, 1, 2};
	const uint64_t two[] = {2, 0, 1};
	struct stats_hist h6 = {low, two, 3, 0, 3, 2, 0.8};
	assert_int_equal(stats_hist_percentile(&h6, 50, &r), 0);
	assert_close(r.value, 0.8, 0);
}

static void test_csv_round_trip(void **state)
{
	(void)state;
	static const char in[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		",v1,\"a.x=1,b.y=2\",hackbench,time,s,lower,4,1,0.1\n"
		"r,\"we said \"\"hi\"\"\",,cyclictest,latency,us,higher,p99,2,NaN\r\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,3,1518.87\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,4,-1e-300\n";
	static const char out_want[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value,tool,repetition\n"
		"dflt,v1,\"a.x=1,b.y=2\",hackbench,time,s,lower,4,1,0.1,,0\n"
		"r,\"we said \"\"hi\"\"\",,cyclictest,latency,us,higher,p99,2,NaN,,0\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,3,1518.87,,0\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,4,-1e-300,,0\n";
	struct sample_table t;
	char err[256];
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(in, "in.csv", "dflt", &t, err, sizeof(err)), 4);
	assert_string_equal(t.rows[0].run, "dflt");
	assert_string_equal(t.rows[0].cell, "a.x=1,b.y=2");
	assert_string_equal(t.rows[1].variant, "we said \"hi\"");
	assert_true(isnan(t.rows[1].value));
	assert_int_equal(t.rows[1].better, BETTER_HIGHER);
	assert_int_equal(t.rows[2].iteration, 3);
	struct buf out = {0};
	csv_write_samples(&out, &t);
	assert_string_equal(buf_str(&out), out_want);
	/* and it reads back to the same table */
	struct sample_table t2;
	sample_table_init(&t2);
	assert_int_equal(csv_read_samples_str(buf_str(&out), "out.csv", NULL, &t2, err, sizeof(err)), 4);
	for (size_t i = 0; i < 4; i++) {
		if (isnan(t.rows[i].value))
			assert_true(isnan(t2.rows[i].value));
		else
			assert_true(t.rows[i].value == t2.rows[i].value);
	}
	buf_free(&out);
	sample_table_free(&t);
	sample_table_free(&t2);

	char num[40];
	csv_format_double(num, sizeof(num), 0.1 + 0.2);
	assert_string_equal(num, "0.30000000000000004");
	csv_format_double(num, sizeof(num), 54.54545454545455);
	assert_string_equal(num, "54.54545454545455");
	csv_format_double(num, sizeof(num), NAN);
	assert_string_equal(num, "NaN");
}

static void expect_csv_error(const char *text, const char *want)
{
	struct sample_table t;
	char err[512] = "";
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(text, "x.csv", NULL, &t, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	sample_table_free(&t);
}

/* The tool column: read into sample_row.tool (empty: NULL), written back
 * as read; a CSV from before it (ten columns) reads with no tool. */
static void test_csv_tool(void **state)
{
	(void)state;
	static const char in[] =
		CSV_SAMPLE_HEADER "\n"
		"r,v,c,ct,max_latency,us,lower,0,1,12,cyclictest,0\n"
		"r,v,c,\"h,b\",time,s,lower,1,1,0.5,\"hack,bench\",0\n"
		"r,v,c,x,m,u,lower,,1,1,,0\n";
	struct sample_table t;
	char err[256];
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(in, "in.csv", NULL, &t, err, sizeof(err)), 3);
	assert_string_equal(t.rows[0].tool, "cyclictest");
	assert_string_equal(t.rows[1].tool, "hack,bench");
	assert_null(t.rows[2].tool);
	struct buf out = {0};
	csv_write_samples(&out, &t);
	assert_string_equal(buf_str(&out), in);
	buf_free(&out);
	sample_table_free(&t);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(CSV_SAMPLE_HEADER_NO_TOOL "\nr,v,c,ct,m,us,lower,0,1,12\n",
					      "old.csv", NULL, &t, err, sizeof(err)), 1);
	assert_null(t.rows[0].tool);
	sample_table_free(&t);
	expect_csv_error(CSV_SAMPLE_HEADER_NO_TOOL "\nr,v,c,ct,m,us,lower,0,1,12,cyclictest\n",
			 "x.csv:2: 11 fields, expected 10 (" CSV_SAMPLE_HEADER_NO_TOOL ")");
	expect_csv_error(CSV_SAMPLE_HEADER_NO_REPETITION "\nr,v,c,ct,m,us,lower,0,1,12\n",
			 "x.csv:2: 10 fields, expected 11 (" CSV_SAMPLE_HEADER_NO_REPETITION ")");
}

/* The repetition column: a repeating background load's runs within one
 * iteration are distinct samples, read and written back as they are; a
 * CSV without the column reads as repetitions 0; a repetition twice, or
 * one that is not an integer >= 0, is an error. */
static void test_csv_repetition(void **state)
{
	(void)state;
	static const char in[] =
		CSV_SAMPLE_HEADER "\n"
		"r,v,c,hb,time,s,lower,,1,0.5,hackbench,0\n"
		"r,v,c,hb,time,s,lower,,1,0.25,hackbench,1\n"
		"r,v,c,hb,time,s,lower,,2,0.75,hackbench,0\n";
	struct sample_table t;
	char err[256];
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(in, "in.csv", NULL, &t, err, sizeof(err)), 3);
	assert_int_equal(t.rows[0].repetition, 0);
	assert_int_equal(t.rows[1].repetition, 1);
	assert_true(t.rows[1].value == 0.25);
	assert_int_equal(t.rows[2].repetition, 0);
	struct buf out = {0};
	csv_write_samples(&out, &t);
	assert_string_equal(buf_str(&out), in);
	buf_free(&out);
	sample_table_free(&t);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(CSV_SAMPLE_HEADER_NO_REPETITION
					      "\nr,v,c,ct,m,us,lower,0,1,12,cyclictest\n",
					      "old.csv", NULL, &t, err, sizeof(err)), 1);
	assert_int_equal(t.rows[0].repetition, 0);
	sample_table_free(&t);
	expect_csv_error(CSV_SAMPLE_HEADER "\nr,v,c,hb,time,s,lower,,1,0.5,hackbench,1\n"
			 "r,v,c,hb,time,s,lower,,1,0.6,hackbench,1\n",
			 "x.csv:3: the same sample as line 2 (variant, cell, load, metric, op,"
			 " iteration and repetition)");
	expect_csv_error(CSV_SAMPLE_HEADER "\nr,v,c,hb,time,s,lower,,1,0.5,hackbench,-1\n",
			 "x.csv:2: repetition '-1' is not an integer >= 0");
	expect_csv_error(CSV_SAMPLE_HEADER "\nr,v,c,hb,time,s,lower,,1,0.5,hackbench,+1\n",
			 "x.csv:2: repetition '+1' is not an integer >= 0");
}

static void test_csv_errors(void **state)
{
	(void)state;
#define H "run,variant,cell,load,metric,unit,better,op,iteration,value\n"
	expect_csv_error("", "x.csv:1: empty file, expected the header " CSV_SAMPLE_HEADER);
	expect_csv_error("run,variant\n", "x.csv:1: bad header, expected " CSV_SAMPLE_HEADER
			 " (or, as older exports wrote it, " CSV_SAMPLE_HEADER_NO_REPETITION " or "
			 CSV_SAMPLE_HEADER_NO_TOOL ")");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1,1\nr,v,c,l,m,u,worse,1,1,1\n",
			 "x.csv:3: better is 'worse', expected lower or higher");
	/* a quoted newline is valid CSV but no name holds one */
	expect_csv_error(H "r,v,\"two\nlines\",l,m,u,lower,1,1,1\nr,v,c,l,m,u,lower,1,0,1\n",
			 "x.csv:2: cell is not UTF-8 text without control characters");
	/* a quoted comma moves nothing: the next record is line 3 */
	expect_csv_error(H "r,v,\"two,cells\",l,m,u,lower,1,1,1\nr,v,c,l,m,u,lower,1,0,1\n",
			 "x.csv:3: iteration '0' is not an integer >= 1");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1,fast\n",
			 "x.csv:2: value 'fast' is not a decimal number in range (NaN for none)");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1\n",
			 "x.csv:2: 9 fields, expected 10 (" CSV_SAMPLE_HEADER_NO_TOOL ")");
	expect_csv_error(H "r,,c,l,m,u,lower,1,1,1\n", "x.csv:2: empty variant");
	expect_csv_error(H "r,v,\"c,l,m,u,lower,1,1,1\n", "x.csv:2: unterminated quoted field");
	expect_csv_error(H "r,v,c\"x,l,m,u,lower,1,1,1\n", "x.csv:2: quote inside an unquoted field");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1,\n",
			 "x.csv:2: value '' is not a decimal number in range (NaN for none)");
#undef H
}

static void test_summary_grouping(void **state)
{
	(void)state;
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,base,c1,l,m,s,lower,1,1,2\n"
		"r,base,c1,l,m,s,lower,2,1,20\n"
		"r,new,c1,l,m,s,lower,1,1,4\n"
		"r,base,c1,l,m,s,lower,1,2,4\n"
		"r,base,c1,l,m,s,lower,1,3,6\n"
		"r,new,c1,l,m,s,lower,1,2,NaN\n"
		"r,base,c2,l,m,s,lower,1,1,9\n"
		"r,base,c1,l,other,ops/s,higher,1,1,50\n"
		"r,base,c1,l,other,ops/s,higher,1,2,60\n";
	struct sample_table t;
	struct summary_opts o;
	struct summary s;
	char err[256];

	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "s.csv", NULL, &t, err, sizeof(err)), 9);
	summary_opts_init(&o);
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	/* two variants → columns are variants; tables: (m, c1), (m, c2), (other, c1) */
	assert_int_equal(s.columns, AXIS_VARIANT);
	assert_int_equal(s.n_tables, 3);
	const struct summary_table *tb = &s.tables[0];
	assert_string_equal(tb->metric, "m");
	assert_string_equal(tb->cell, "c1");
	assert_null(tb->variant);
	assert_int_equal(tb->n_cols, 2);
	assert_string_equal(tb->cols[0], "base");
	assert_int_equal(tb->n_ops, 2);
	assert_string_equal(tb->ops[1], "2");
	const struct summary_group *g = summary_group_at(tb, 0, 0);
	assert_int_equal(g->st.n, 3);
	assert_close(g->st.stddev, 2, EPS);
	assert_close(g->st.coeffvar, 50, EPS);
	g = summary_group_at(tb, 0, 1);
	assert_int_equal(g->st.n, 1);
	assert_int_equal(g->n_nan, 1);
	assert_false(g->test.valid);
	/* op 2 has no "new" samples: an empty group, NaN everywhere */
	g = summary_group_at(tb, 1, 1);
	assert_int_equal(g->st.n, 0);
	assert_true(isnan(g->st.amean));
	assert_int_equal(s.tables[1].n_cols, 1);
	assert_close(summary_group_at(&s.tables[2], 0, 0)->st.hmean, 600.0 / 11.0, EPS);
	summary_free(&s);

	/* --baseline moves a column first; the c2 table gets an empty "new" */
	o.baseline = "new";
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_string_equal(s.tables[0].cols[0], "new");
	assert_string_equal(s.tables[1].cols[0], "new");
	assert_int_equal(s.tables[1].n_cols, 2);
	assert_int_equal(summary_group_at(&s.tables[1], 0, 0)->st.n, 0);
	summary_free(&s);

	o.baseline = "nope";
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "--baseline: no variant named 'nope'");

	/* columns by cell, filtered to one metric */
	summary_opts_init(&o);
	o.columns = AXIS_CELL;
	assert_int_equal(summary_opts_add_metrics(&o, "m", err, sizeof(err)), 0);
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_tables, 2);
	assert_string_equal(s.tables[0].variant, "base");
	assert_int_equal(s.tables[0].n_cols, 2);
	assert_string_equal(s.tables[0].cols[1], "c2");
	assert_int_equal(s.n_samples, 7);
	summary_free(&s);
	sample_table_free(&t);
}

/* --metric takes several (repeated or a list) and refuses a name that
 * matches no metric, naming the ones there are; ops come in numeric order
 * when all are numbers; interval series (tcp-rr interval_transactions) are
 * left out of headline tables unless asked for. */
static void test_summary_filters(void **state)
{
	(void)state;
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,v,c,tcp-rr,interval_transactions,transactions/s,higher,pair0-s0,1,100\n"
		"r,v,c,tcp-rr,transactions,transactions/s,higher,0,1,100\n"
		"r,v,c,hackbench,time,s,lower,16,1,2\n"
		"r,v,c,hackbench,time,s,lower,100,1,3\n"
		"r,v,c,hackbench,time,s,lower,2,1,1\n"
		"r,v,c,x,lat,us,lower,b,1,1\n"
		"r,v,c,x,lat,us,lower,a,1,1\n"
		"r,v,c,x,lat,us,lower,10,1,1\n";
	struct sample_table t;
	struct summary_opts o;
	struct summary s;
	char err[256];

	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "s.csv", NULL, &t, err, sizeof(err)), 8);
	summary_opts_init(&o);
	o.headline_only = true;
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_tables, 3);
	assert_string_equal(s.tables[0].metric, "transactions");
	assert_string_equal(s.tables[1].metric, "time");
	/* numeric ops sort as numbers, mixed ones keep their first appearance */
	assert_string_equal(s.tables[1].ops[0], "2");
	assert_string_equal(s.tables[1].ops[1], "16");
	assert_string_equal(s.tables[1].ops[2], "100");
	assert_string_equal(s.tables[2].ops[0], "b");
	assert_string_equal(s.tables[2].ops[2], "10");
	/* the driver's decimals: hackbench time 4, tcp-rr 2, unknown load 2 */
	assert_int_equal(s.tables[1].decimals, 4);
	assert_int_equal(s.tables[0].decimals, 2);
	assert_int_equal(s.tables[2].decimals, 2);
	assert_int_equal(s.n_samples, 7);
	summary_free(&s);

	/* asked for: two metrics, one of them the series */
	assert_int_equal(summary_opts_add_metrics(&o, "interval_transactions,time", err, sizeof(err)), 0);
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_tables, 2);
	assert_string_equal(s.tables[0].metric, "interval_transactions");
	assert_string_equal(s.tables[1].metric, "time");
	summary_free(&s);
	assert_int_equal(summary_opts_add_metrics(&o, "lat", err, sizeof(err)), 0);
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_tables, 3);
	summary_free(&s);

	/* a name matching nothing is refused */
	assert_int_equal(summary_opts_add_metrics(&o, "latency", err, sizeof(err)), 0);
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "--metric latency matches no metric (the selected runs hold: "
				 "interval_transactions, transactions, time, lat)");
	assert_int_equal(summary_opts_add_metrics(&o, "a,,b", err, sizeof(err)), -1);
	assert_string_equal(err, "--metric: an empty metric name in 'a,,b'");
	assert_int_equal(summary_opts_add_metrics(&o, ",", err, sizeof(err)), -1);
	summary_opts_init(&o);
	for (int i = 0; i < SUMMARY_MAX_FILTERS; i++)
		assert_int_equal(summary_opts_add_metrics(&o, "m", err, sizeof(err)), 0);
	assert_int_equal(summary_opts_add_metrics(&o, "m", err, sizeof(err)), -1);
	sample_table_free(&t);
}

static void test_summary_stats(void **state)
{
	(void)state;
	struct summary_stat st;
	assert_int_equal(summary_stat_parse("p99", &st), 0);
	assert_int_equal(st.kind, STAT_PERCENTILE);
	assert_close(st.p, 99, 0);
	assert_int_equal(summary_stat_parse("BAmean-95", &st), 0);
	assert_int_equal(st.kind, STAT_BAMEAN95);
	assert_int_equal(summary_stat_parse("p0", &st), -1);
	assert_int_equal(summary_stat_parse("mode", &st), -1);
	char label[32];
	st.kind = STAT_MEAN;
	summary_stat_label(&st, BETTER_HIGHER, label, sizeof(label));
	assert_string_equal(label, "Hmean");
	summary_stat_label(&st, BETTER_LOWER, label, sizeof(label));
	assert_string_equal(label, "Amean");
	st.kind = STAT_STDDEV;
	assert_int_equal(summary_stat_better(&st, BETTER_HIGHER), BETTER_LOWER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmean_edges),
		cmocka_unit_test(test_stddev_coeffvar_edges),
		cmocka_unit_test(test_bamean),
		cmocka_unit_test(test_percentile_median),
		cmocka_unit_test(test_pct_change),
		cmocka_unit_test(test_sem_ci),
		cmocka_unit_test(test_welch_yes_ci_no),
		cmocka_unit_test(test_ci_yes_welch_no),
		cmocka_unit_test(test_tests_need_two),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_mann_whitney_too_small),
		cmocka_unit_test(test_harmonic_spread),
		cmocka_unit_test(test_hmean_row_tests),
		cmocka_unit_test(test_ci_overlap_zero_spread),
		cmocka_unit_test(test_significance_names),
		cmocka_unit_test(test_hist_percentile),
		cmocka_unit_test(test_csv_round_trip),
		cmocka_unit_test(test_csv_tool),
		cmocka_unit_test(test_csv_repetition),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_summary_grouping),
		cmocka_unit_test(test_summary_filters),
		cmocka_unit_test(test_summary_stats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
