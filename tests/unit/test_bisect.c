/* The bisection search (next point, windows, result), the rule
 * (classification against both ends, the minimum effect, the tests, the
 * alpha shares and looks), and the two providers' configs. Expected
 * p-values and t statistics are R's t.test (Welch) and wilcox.test on the
 * same numbers; expected step counts come from the closed form
 * ceil(log2(n-1)) + 2. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bisect.h"
#include "bisect_list.h"
#include "bisect_patches.h"
#include "bisect_engine.h"
#include "bisect_report.h"
#include "bisect_rule.h"
#include "bisect_series.h"
#include "util.h"
#include "ytree.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("expected %.15g, got %.15g", want, got);
}

/* Bisect n points whose first bad one is bad_at (the oracle), skipping the
 * points in skip[] (a 0-terminated list); returns the points measured. */
static int simulate(size_t n, size_t bad_at, const size_t *skip, struct bisect_result *r)
{
	struct bisect_search s;
	long k;
	int measured = 0;
	bisect_search_init(&s, n);
	while ((k = bisect_search_next(&s)) >= 0) {
		bool skipped = false;
		for (size_t i = 0; skip && skip[i]; i++)
			skipped |= skip[i] == (size_t)k;
		s.v[k] = skipped ? BISECT_SKIP : (size_t)k >= bad_at ? BISECT_BAD : BISECT_GOOD;
		measured++;
	}
	bisect_search_result(&s, r);
	bisect_search_free(&s);
	return measured;
}

/* Every series of 2..65 points and every step position: found, and in at
 * most ceil(log2(n-1)) + 2 measurements (the ends and the halvings). */
static void test_search_finds_every_step(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 65; n++) {
		int bound = 2;
		while ((size_t)1 << (bound - 2) < n - 1)
			bound++;
		for (size_t bad_at = 1; bad_at < n; bad_at++) {
			struct bisect_result r;
			int m = simulate(n, bad_at, NULL, &r);
			assert_true(r.exact);
			assert_int_equal(r.first_bad, bad_at);
			assert_int_equal(r.last_good, bad_at - 1);
			if (m > bound)
				fail_msg("n %zu step %zu: %d measurements > %d", n, bad_at, m, bound);
		}
	}
}

/* The order of a 9-point series with its step at 5: 0, 8, 4, 6, 5. */
static void test_search_order(void **state)
{
	(void)state;
	struct bisect_search s;
	bisect_search_init(&s, 9);
	long want[] = {0, 8, 4, 6, 5, -1};
	for (size_t i = 0; i < 6; i++) {
		long k = bisect_search_next(&s);
		assert_int_equal(k, want[i]);
		if (k >= 0)
			s.v[k] = k >= 5 ? BISECT_BAD : BISECT_GOOD;
	}
	bisect_search_free(&s);
}

/* Skips are stepped around: the answer is exact when a skipped point is
 * not next to the step, a range when it is. */
static void test_search_skips(void **state)
{
	(void)state;
	struct bisect_result r;
	size_t skip_far[] = {4, 0};
	simulate(9, 7, skip_far, &r);
	assert_true(r.exact);
	assert_int_equal(r.first_bad, 7);
	/* 4 is the last good point, skipped: 3 good, 5 bad, a range. */
	size_t skip_near[] = {4, 0};
	simulate(9, 5, skip_near, &r);
	assert_false(r.exact);
	assert_int_equal(r.last_good, 3);
	assert_int_equal(r.first_bad, 5);
	size_t skip_step[] = {5, 0};
	simulate(9, 5, skip_step, &r);
	assert_false(r.exact);
	assert_int_equal(r.last_good, 4);
	assert_int_equal(r.first_bad, 6);
	size_t skip_two[] = {4, 5, 0};
	simulate(9, 5, skip_two, &r);
	assert_false(r.exact);
	assert_int_equal(r.last_good, 3);
	assert_int_equal(r.first_bad, 6);
}

/* A sample set of the n values v, lower is better unless better says. */
static struct bisect_sample_set set_of(const double *v, size_t n, enum better better)
{
	struct bisect_sample_set s = {.n = n, .iterations = n, .better = better};
	s.v = xcalloc(n, sizeof(*s.v));
	memcpy(s.v, v, n * sizeof(*v));
	stats_sort(s.v, n);
	stats_summarise(s.v, n, better, &s.sum);
	return s;
}

static struct bisect_rule rule_of(enum bisect_test t, double min_effect_pct)
{
	return (struct bisect_rule){t, 0.05, min_effect_pct, 9, 3, 6};
}

/* Classify point against g and b at alpha 0.05 by rule r. */
static void classify(const struct bisect_rule *r, const double *g, size_t ng, const double *b,
		     size_t nb, const double *p, size_t np, enum better better,
		     struct bisect_class *c)
{
	struct bisect_sample_set sg = set_of(g, ng, better), sb = set_of(b, nb, better);
	struct bisect_sample_set sp = set_of(p, np, better);
	bisect_classify(r, 0.05, &sg, &sb, &sp, c);
	bisect_sample_set_free(&sg);
	bisect_sample_set_free(&sb);
	bisect_sample_set_free(&sp);
}

/* R: t.test(point, good), t.test(point, bad) on these numbers; the
 * verdict by the rule (differs: p < 0.05 and at least the minimum effect). */
static void test_classify(void **state)
{
	(void)state;
	double g[] = {10, 11, 12, 13}, b[] = {20, 21, 22, 23};
	double bad_like[] = {19, 20, 22, 24}, good_like[] = {11, 15, 9, 14, 12};
	double noisy[] = {5, 30, 10, 25}, between[] = {17, 18, 17.5, 18.5};
	struct bisect_rule r = rule_of(BISECT_TEST_WELCH, 1);
	struct bisect_class c;

	classify(&r, g, 4, b, 4, bad_like, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	assert_close(c.vs_good.t.statistic, 7.59996668880108, 1e-9);
	assert_close(c.vs_good.t.p, 0.000733349109051068, 1e-6);
	assert_close(c.vs_bad.t.statistic, -0.194870940738489, 1e-9);
	assert_close(c.vs_bad.t.p, 0.853433542009181, 1e-6);
	/* (21.25 - 11.5) / 11.5 */
	assert_close(c.vs_good.effect_pct, 84.7826086956522, 1e-12);

	classify(&r, g, 4, b, 4, good_like, 5, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_GOOD);
	assert_close(c.vs_good.t.p, 0.594053741853094, 1e-6);
	assert_close(c.vs_bad.t.p, 0.000233076824188393, 1e-6);

	classify(&r, g, 4, b, 4, noisy, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_UNTESTED);
	assert_close(c.vs_good.t.p, 0.388503635786356, 1e-6);
	assert_close(c.vs_bad.t.p, 0.550799316676206, 1e-6);

	/* Different from both: between (the change is not one step). */
	classify(&r, g, 4, b, 4, between, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BETWEEN);
	assert_close(c.vs_good.t.statistic, 8.66025403784439, 1e-9);
	assert_close(c.vs_bad.t.statistic, -5.19615242270663, 1e-9);

	/* Different from both, outside their interval (faster than the good
	 * end, or slower than the bad one): beyond an end, not between. */
	double faster[] = {2, 3, 2.5, 3.5}, slower[] = {30, 31, 30.5, 31.5};
	classify(&r, g, 4, b, 4, faster, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BEYOND);
	classify(&r, g, 4, b, 4, slower, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BEYOND);
	assert_string_equal(bisect_verdict_name(BISECT_BEYOND), "beyond");

	/* One sample: no test, ambiguous. */
	double one[] = {20};
	classify(&r, g, 4, b, 4, one, 1, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_UNTESTED);
	assert_false(c.vs_good.t.valid);
}

/* The minimum effect: a difference below it is no change whatever its p.
 * p4 is 0.5 % above a tight good end (significant: p ~ 1e-6) but that is
 * below 1 %: it differs from neither end (ambiguous); with 0.4 % it differs
 * from the good end and is bad. */
static void test_classify_min_effect(void **state)
{
	(void)state;
	double g[] = {100.0, 100.01, 99.99, 100.0}, b[] = {100.5, 100.51, 100.49, 100.5};
	double p[] = {100.5, 100.49, 100.51, 100.5};
	struct bisect_rule r = rule_of(BISECT_TEST_WELCH, 1);
	struct bisect_class c;
	struct bisect_sample_set sg = set_of(g, 4, BETTER_LOWER), sb = set_of(b, 4, BETTER_LOWER);
	struct bisect_diff d;
	bisect_diff_test(&r, 0.05, &sg, &sb, &d);
	assert_true(d.significant);
	assert_false(d.differs);
	assert_close(d.effect_pct, 0.5, 1e-9);
	classify(&r, g, 4, b, 4, p, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_UNTESTED);
	r.min_effect_pct = 0.4;
	classify(&r, g, 4, b, 4, p, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	bisect_sample_set_free(&sg);
	bisect_sample_set_free(&sb);
}

/* Points and ends that do not vary: t undefined where neither side varies
 * (equal values p 1, different p 0). Expected t and p against the varying
 * bad end: Welch by hand, df = 2 exactly, p = 1 - |t|/sqrt(2 + t^2)
 * (Student t with 2 df). */
static void test_classify_constant(void **state)
{
	(void)state;
	double g[] = {100, 100, 100}, b[] = {190, 200, 210}, near_good[] = {101, 101, 101};
	struct bisect_rule r = rule_of(BISECT_TEST_WELCH, 1);
	struct bisect_class c;
	classify(&r, g, 3, b, 3, near_good, 3, BETTER_LOWER, &c);
	assert_true(isinf(c.vs_good.t.statistic) && c.vs_good.t.statistic > 0);
	assert_true(c.vs_good.t.p == 0);
	assert_close(c.vs_bad.t.statistic, -17.147302994931884, 1e-9);
	assert_close(c.vs_bad.t.p, 0.003383760928875823, 1e-6);
	/* 1 % from the good end is the minimum effect: it differs from both. */
	assert_int_equal(c.verdict, BISECT_BETWEEN);
	r.min_effect_pct = 2;
	classify(&r, g, 3, b, 3, near_good, 3, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_GOOD);

	/* Equal to the good end: t 0, p 1 against it. */
	double same[] = {100, 100, 100};
	classify(&r, g, 3, b, 3, same, 3, BETTER_LOWER, &c);
	assert_true(c.vs_good.t.statistic == 0 && c.vs_good.t.p == 1);
	assert_int_equal(c.verdict, BISECT_GOOD);

	/* Nothing varies anywhere: equal to an end is that end's, else between. */
	double cb[] = {200, 200, 200}, mid[] = {150, 150, 150};
	classify(&r, g, 3, cb, 3, cb, 3, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	classify(&r, g, 3, cb, 3, mid, 3, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BETWEEN);

	/* Equal values whose mean is not exact in binary (a Stddev of ~1e-14,
	 * not 0): still no spread, decided by the values. */
	double ng[] = {120.227183, 120.227183, 120.227183};
	double nb[] = {130.1, 130.1, 130.1};
	classify(&r, ng, 3, nb, 3, ng, 3, BETTER_LOWER, &c);
	assert_true(c.vs_good.t.p == 1 && isinf(c.vs_bad.t.statistic));
	assert_int_equal(c.verdict, BISECT_GOOD);

	/* Higher is better: the effect is on the Hmean, the direction too: a
	 * point beyond the good end (better than it) is not bad: it is beyond
	 * an end, not between them. */
	double hg[] = {100, 100, 100}, hb[] = {50, 50, 50}, hp[] = {150, 150, 150};
	classify(&r, hg, 3, hb, 3, hb, 3, BETTER_HIGHER, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	assert_close(c.vs_good.effect_pct, -50, 1e-12);
	classify(&r, hg, 3, hb, 3, hp, 3, BETTER_HIGHER, &c);
	assert_int_equal(c.verdict, BISECT_BEYOND);
}

/* Mann-Whitney and range separation as the test: R wilcox.test(exact) of
 * 4 vs 4 separated samples gives p = 2/70; the range test the same count
 * (untrimmed: only the separated orders). */
static void test_classify_rules(void **state)
{
	(void)state;
	double g[] = {10, 11, 12, 13}, b[] = {20, 21, 22, 23}, p[] = {19.5, 20.5, 21.5, 22.5};
	struct bisect_rule mw = rule_of(BISECT_TEST_MANN_WHITNEY, 1);
	struct bisect_rule range = rule_of(BISECT_TEST_RANGE, 1);
	struct bisect_class c;
	classify(&mw, g, 4, b, 4, p, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	assert_close(c.vs_good.t.p, 2.0 / 70, 1e-12);
	classify(&range, g, 4, b, 4, p, 4, BETTER_LOWER, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	assert_close(c.vs_good.t.p, 2.0 / 70, 1e-12);
	assert_close(c.vs_good.t.statistic, 19.5 - 13, 1e-12);
	assert_true(c.vs_bad.t.p == 1);
	assert_close(bisect_test_floor_p(BISECT_TEST_MANN_WHITNEY, 5, 5), 2.0 / 252, 1e-12);
	assert_true(bisect_test_floor_p(BISECT_TEST_WELCH, 3, 3) == 0);
}

/* The error rates: D = ceil(log2 N) + 2 planned decisions for N + 1
 * points, alpha / (D + 1) each, the reserve halved beyond the plan; the
 * looks' alphas add up to the share (O'Brien-Fleming-type: the values of
 * 2 - 2 Phi(z(1 - share/2) / sqrt(t)) at share 0.05/6, computed in python
 * by bisection on erfc), and the look targets. */
static void test_alpha_shares(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 65; n++) {
		struct bisect_rule r = {BISECT_TEST_WELCH, 0.05, 1, n, 3, 6};
		size_t steps = 0;
		while (pow(2, (double)steps) < (double)(n - 1))
			steps++;
		assert_int_equal(bisect_rule_planned(&r), steps + 2);
		assert_close(bisect_rule_share(&r), 0.05 / (double)(steps + 3), 1e-12);
		double sum = 0;
		for (size_t j = 1; j <= 60; j++)
			sum += bisect_rule_point_alpha(&r, j);
		/* The planned points' shares plus at most the reserve. */
		if (sum > bisect_rule_share(&r) * (double)(steps + 1) + 1e-15)
			fail_msg("n %zu: the points spend %g", n, sum);
	}
	struct bisect_rule r = {BISECT_TEST_WELCH, 0.05, 1, 9, 3, 6};
	double share = bisect_rule_share(&r);
	assert_close(share, 0.05 / 6, 1e-12);
	assert_close(bisect_rule_point_alpha(&r, 3), share, 1e-12);
	assert_close(bisect_rule_point_alpha(&r, 4), share / 2, 1e-12);
	assert_close(bisect_rule_point_alpha(&r, 6), share / 8, 1e-12);
	assert_int_equal(bisect_look_target(3, 6, 1), 3);
	assert_int_equal(bisect_look_target(3, 6, 2), 5);
	assert_int_equal(bisect_look_target(3, 6, 3), 6);
	assert_int_equal(bisect_look_target(3, 10, 2), 7);
	assert_int_equal(bisect_look_target(4, 4, 3), 4);
	/* Looks at distinct counts only: max 4 from min 3 has two (3, 4), max
	 * 5 three (3, 4, 5); each look spends alpha, together the share. */
	for (int last = 3; last <= 12; last++) {
		int looks = bisect_look_count(3, last), prev = 0;
		assert_int_equal(looks, last == 3 ? 1 : last == 4 ? 2 : 3);
		double sum = 0;
		for (int l = 1; l <= looks; l++) {
			int now = bisect_look_target(3, last, l);
			if (now <= prev)
				fail_msg("max %d: look %d at %d after %d", last, l, now, prev);
			double a = bisect_look_alpha(share, prev, now, last);
			if (!(a > 0))
				fail_msg("max %d: look %d spends %g", last, l, a);
			sum += a;
			prev = now;
		}
		assert_int_equal(prev, last);
		assert_close(sum, share, 1e-12);
	}
	assert_close(bisect_look_alpha(share, 0, 3, 6), 0.00019067639332750045, 1e-6);
	assert_close(bisect_look_alpha(share, 0, 5, 6), 0.003851609008615712, 1e-6);
	double spent = bisect_look_alpha(share, 0, 3, 6) + bisect_look_alpha(share, 3, 5, 6) +
		       bisect_look_alpha(share, 5, 6, 6);
	assert_close(spent, share, 1e-12);
	assert_true(bisect_look_alpha(share, 5, 5, 6) == 0);
	assert_true(bisect_look_alpha(share, 6, 9, 6) == 0);
}

/* A rule the config's iterations cannot decide by is refused, naming the
 * iterations it needs: range separation at 5 vs 5 can give p = 2/252 =
 * 0.0079 at best, above the 0.0051 the last look (4 -> 5 iterations) of a
 * 9-point series adds (0.008333 - 2 Q(2.638 / sqrt(0.8))); at 6 vs 6 its
 * 2/924 = 0.0022 is below that look's 0.0045. */
static void test_rule_feasible(void **state)
{
	(void)state;
	char err[256];
	struct bisect_rule r = {BISECT_TEST_RANGE, 0.05, 1, 9, 3, 5};
	assert_int_equal(bisect_rule_feasible(&r, err, sizeof(err)), -1);
	if (!strstr(err, "--rule range: with at most 5 iterations a side its smallest p is 0.007937"))
		fail_msg("%s", err);
	assert_non_null(strstr(err, "iterations max must be at least 6"));
	r.n_max = 6;
	assert_int_equal(bisect_rule_feasible(&r, err, sizeof(err)), 0);
	r = (struct bisect_rule){BISECT_TEST_WELCH, 0.05, 1, 9, 3, 3};
	assert_int_equal(bisect_rule_feasible(&r, err, sizeof(err)), 0);
	/* Max 4 from min 3: two looks (3, 4), the last adds share − f(3/4) =
	 * 0.008333 − 2 Q(2.638 / sqrt(0.75)) = 0.006017 > 0: Welch decides;
	 * Mann-Whitney's 2 / C(8, 4) = 0.02857 is refused with those numbers. */
	r.n_max = 4;
	assert_int_equal(bisect_rule_feasible(&r, err, sizeof(err)), 0);
	r.test = BISECT_TEST_MANN_WHITNEY;
	assert_int_equal(bisect_rule_feasible(&r, err, sizeof(err)), -1);
	if (!strstr(err, "--rule mann-whitney: with at most 4 iterations a side its smallest p is"
			 " 0.02857, not below the 0.006017 a decision's last look tests at:"
			 " iterations max must be at least 6"))
		fail_msg("%s", err);
}

/* The default minimum effect by kind of metric. */
static void test_default_min_effect(void **state)
{
	(void)state;
	assert_true(bisect_default_min_effect_pct("time", "0") == 1);
	assert_true(bisect_default_min_effect_pct("transactions_per_s", "8") == 1);
	assert_true(bisect_default_min_effect_pct("avg_latency", "0") == 1);
	assert_true(bisect_default_min_effect_pct("max_latency", "0") == 10);
	assert_true(bisect_default_min_effect_pct("wakeup_latency", "max") == 10);
	assert_true(bisect_default_min_effect_pct("wakeup_latency", "p99.9") == 10);
	assert_true(bisect_default_min_effect_pct("wakeup_latency", "p50") == 1);
	assert_true(bisect_default_min_effect_pct("latency_p95", "4") == 1);
	assert_true(bisect_default_min_effect_pct("latency_p99", "4") == 10);
}

/* The rule names the reciprocals only for a higher-is-better metric, and
 * states the shares and looks. */
static void test_rule_text(void **state)
{
	(void)state;
	struct bisect_rule r = {BISECT_TEST_WELCH, 0.05, 1, 9, 3, 6};
	char *lower = bisect_rule_describe(&r, BETTER_LOWER);
	char *higher = bisect_rule_describe(&r, BETTER_HIGHER);
	assert_null(strstr(lower, "Hmean"));
	assert_non_null(strstr(lower, "Family-wise alpha 0.05"));
	assert_non_null(strstr(lower, "Bonferroni over the 5 planned decisions"));
	assert_non_null(strstr(lower, "0.05 / 6 = 0.008333"));
	assert_non_null(strstr(lower, "at most 3 look(s) at iteration counts fixed in advance (3, 5, 6;"));
	assert_non_null(strstr(lower, "ci_pct and max_time_s stop no run of a bisection"));
	assert_non_null(strstr(lower, "t is undefined: equal values p = 1"));
	assert_non_null(strstr(lower, "the minimum effect, 1 %"));
	assert_non_null(strstr(higher, "on the Hmean, i.e. the reciprocals"));
	free(lower);
	free(higher);
	/* No metric decided yet (-1): nothing said of the Hmean. */
	r.min_effect_pct = NAN;
	char *unknown = bisect_rule_describe(&r, -1);
	assert_null(strstr(unknown, "Hmean"));
	assert_non_null(strstr(unknown, "(--min-effect-pct)"));
	free(unknown);
	r.test = BISECT_TEST_RANGE;
	char *range = bisect_rule_describe(&r, BETTER_LOWER);
	assert_non_null(strstr(range, "range separation as lkp-tests bisects by"));
	free(range);
}

/* The "No regression" line names the mean the test compared: the Hmean
 * of a higher-is-better metric (3 / (1/20000 + 1/25000 + 1/30000) =
 * 24324.32, by hand; its Amean 25000), the Amean of a lower-is-better
 * one; and the minimum effect when that is why. */
static void test_no_regression_text(void **state)
{
	(void)state;
	struct bisect_metric m = {"t", "transactions", "0", "default"};
	struct bisect_sample_set g = {.better = BETTER_HIGHER}, b = {.better = BETTER_HIGHER};
	struct bisect_rule r = {BISECT_TEST_WELCH, 0.05, 1, 9, 3, 6};
	struct bisect_diff d = {.t = {.p = 0.25}, .alpha = 0.05, .effect_pct = -23};
	g.sum.amean = 25000;
	g.sum.hmean = 24324.32;
	b.sum.amean = 19540;
	b.sum.hmean = 18649.01;
	char *hi = bisect_no_regression_text(&r, &m, "small", &g, "big", &b, &d);
	assert_string_equal(hi, "No regression to bisect: t:transactions op 0 (cell default), small"
			    " 2.432e+04 vs big 1.865e+04 (Hmean), Welch's t-test on the"
			    " reciprocals p = 0.25 >= alpha 0.05");
	g.better = b.better = BETTER_LOWER;
	d = (struct bisect_diff){.t = {.p = 0.001}, .alpha = 0.003, .effect_pct = 0.42,
				 .significant = true};
	char *lo = bisect_no_regression_text(&r, &m, "small", &g, "big", &b, &d);
	assert_string_equal(lo, "No regression to bisect: t:transactions op 0 (cell default), small"
			    " 2.5e+04 vs big 1.954e+04 (Amean), Welch's t-test p = 0.001 < alpha"
			    " 0.003, but by 0.42 %, less than the minimum effect 1 %");
	free(hi);
	free(lo);
}

/* Mean ± CI95 of the step table: the same decimals for both, from the
 * mean's magnitude (4 significant digits), no exponent for ordinary
 * magnitudes; the expected strings written by hand. */
static void test_fmt_mean(void **state)
{
	(void)state;
	char b[96];
	bisect_fmt_mean(b, sizeof(b), 3011.4, 241.7);
	assert_string_equal(b, "3011 ± 242");
	bisect_fmt_mean(b, sizeof(b), 448.2, 120.3);
	assert_string_equal(b, "448.2 ± 120.3");
	bisect_fmt_mean(b, sizeof(b), 120.227183, 4.3e-14);
	assert_string_equal(b, "120.2 ± 0.0");
	bisect_fmt_mean(b, sizeof(b), 0.51234, 0.01);
	assert_string_equal(b, "0.5123 ± 0.0100");
	bisect_fmt_mean(b, sizeof(b), 123456.7, 9876.6);
	assert_string_equal(b, "123457 ± 9877");
	bisect_fmt_mean(b, sizeof(b), 99.96, NAN);
	assert_string_equal(b, "99.96");
	bisect_fmt_mean(b, sizeof(b), 0.00001234, 0.000002);
	assert_string_equal(b, "1.234e-05 ± 2e-06");
	bisect_fmt_mean(b, sizeof(b), NAN, 1);
	assert_string_equal(b, "-");
}

/* Emitted text parses back to the same tree; an edited copy leaves the
 * original alone. */
static void test_ytree_round_trip(void **state)
{
	(void)state;
	const char *text = "name: x\nloads:\n  - {tool: fake, params: {mean: 100, note: 'a: b, c'}}\n"
			   "list: [1, \"two\", 'three #']\nempty: ''\n";
	char err[256];
	struct ydoc *d = ydoc_parse("t", text, strlen(text), err, sizeof(err));
	assert_non_null(d);
	struct ytree *t = ytree_new();
	struct ynode *root = ytree_copy(t, ydoc_root(d));
	ytree_set(t, root, "name", ytree_scalar(t, "y"));
	ytree_set(t, root, "list", NULL);
	char *out = ytree_emit(root, err, sizeof(err));
	assert_non_null(out);
	struct ydoc *d2 = ydoc_parse("t2", out, strlen(out), err, sizeof(err));
	assert_non_null(d2);
	const struct ynode *r2 = ydoc_root(d2);
	assert_string_equal(ynode_get(r2, "name")->text, "y");
	assert_null(ynode_get(r2, "list"));
	assert_string_equal(ynode_get(r2, "empty")->text, "");
	const struct ynode *params = ynode_get(ynode_get(r2, "loads")->items[0], "params");
	assert_string_equal(ynode_get(params, "mean")->text, "100");
	assert_string_equal(ynode_get(params, "note")->text, "a: b, c");
	assert_string_equal(ynode_get(ydoc_root(d), "name")->text, "x");
	assert_int_equal(ynode_get(ydoc_root(d), "list")->n, 3);
	free(out);
	ydoc_free(d2);
	ytree_free(t);
	ydoc_free(d);
}

static const char list_config[] =
	"name: l\n"
	"variants:\n"
	"  - {name: base, boot: local}\n"
	"loads:\n"
	"  - {name: f, tool: fake, params: {mean: 100, seed: 1}}\n"
	"bisect:\n"
	"  points:\n"
	"    - base\n"
	"    - {name: p1, params: {f: {mean: 110}}}\n"
	"    - {name: p2, params: {f: {mean: 120, seed: 7}}}\n"
	"    - {name: p3, boot: local}\n";

static int list_series(const char *text, const char *good, const char *bad,
		       struct bisect_series *s, char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse("l.yaml", text, strlen(text), err, errsz);
	assert_non_null(d);
	int rc = bisect_list_series("l.yaml", ydoc_root(d), good, bad, s, err, errsz);
	ydoc_free(d);
	return rc;
}

/* A point's config is the config with variants: [the point] and its
 * params applied, without bisect:; --good after --bad walks backwards. */
static void test_list_provider(void **state)
{
	(void)state;
	struct bisect_series s = {0};
	char err[512];
	assert_int_equal(list_series(list_config, "base", "p2", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.kind, "variants");
	assert_string_equal(s.p[0].name, "base");
	assert_string_equal(s.p[2].name, "p2");
	struct ydoc *d = ydoc_parse("p", s.p[2].config, strlen(s.p[2].config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *r = ydoc_root(d);
	assert_null(ynode_get(r, "bisect"));
	assert_int_equal(ynode_get(r, "variants")->n, 1);
	const struct ynode *v = ynode_get(r, "variants")->items[0];
	assert_string_equal(ynode_get(v, "name")->text, "p2");
	assert_null(ynode_get(v, "params"));
	const struct ynode *p = ynode_get(ynode_get(r, "loads")->items[0], "params");
	assert_string_equal(ynode_get(p, "mean")->text, "120");
	assert_string_equal(ynode_get(p, "seed")->text, "7");
	ydoc_free(d);
	bisect_series_free(&s);

	assert_int_equal(list_series(list_config, "p3", "p1", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.p[0].name, "p3");
	assert_string_equal(s.p[1].name, "p2");
	assert_string_equal(s.p[2].name, "p1");
	bisect_series_free(&s);

	assert_int_equal(list_series(list_config, "nope", "nada", &s, err, sizeof(err)), 1);
	assert_int_equal(list_series(list_config, "base", "nada", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "l.yaml:8:5: --bad nada is not a point of bisect: points:"
				 " (--good base is)");
	bisect_series_free(&s);
}

static void test_list_provider_errors(void **state)
{
	(void)state;
	struct bisect_series s = {0};
	char err[512];
	const char *axis = "name: l\nloads:\n  - {tool: fake}\nbisect:\n  points:\n"
			   "    - {name: a}\n    - {name: b, params: {fake: {mean: [1, 2]}}}\n";
	assert_int_equal(list_series(axis, "a", "b", &s, err, sizeof(err)), -1);
	if (!strstr(err, "l.yaml:7:39: params: fake: mean: a point takes single values"))
		fail_msg("%s", err);
	bisect_series_free(&s);
	const char *noload = "name: l\nloads:\n  - {tool: fake}\nbisect:\n  points:\n"
			     "    - {name: a}\n    - {name: b, params: {hackbench: {loops: 1}}}\n";
	assert_int_equal(list_series(noload, "a", "b", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "l.yaml:7:26: params: 'hackbench' is not a load of loads:");
	bisect_series_free(&s);
	const char *unknown = "name: l\nloads:\n  - {tool: fake}\nbisect:\n  points: [a, b]\n";
	assert_int_equal(list_series(unknown, "a", "b", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "l.yaml:5:12: bisect point 'a' is not a variant of variants:");
	bisect_series_free(&s);
}

/* Patch files of a series in a fresh directory; their paths in files[]. */
static void write_patches(char *dir, char files[][256], size_t n)
{
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < n; i++) {
		snprintf(files[i], 256, "%s/%04zu-change-%zu.patch", dir, i + 1, i + 1);
		FILE *f = fopen(files[i], "w");
		assert_non_null(f);
		fprintf(f, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
			   "From: A <a@b>\nSubject: [PATCH %zu/%zu]"
			   " sched/fair: change %zu\n\n---\n--- a/f%zu\n+++ b/f%zu\n@@ -0,0 +1 @@\n+x\n",
			i + 1, n, i + 1, i, i);
		fclose(f);
	}
}

static int patch_series(const char *text, const char *good, const char *bad,
			struct bisect_series *s, char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse("k.yaml", text, strlen(text), err, errsz);
	assert_non_null(d);
	int rc = bisect_patch_series("k.yaml", ydoc_root(d), good, bad, bisect_patch_files, s, err,
				     errsz);
	ydoc_free(d);
	return rc;
}

/* Point k is the good variant on a build of the good build plus the first
 * k patches; its label names the k-th patch and its subject. */
static void test_patch_provider(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-bisect-XXXXXX", files[4][256], err[512];
	write_patches(dir, files, 4);
	char *text = xasprintf(
		"name: k\nkernels:\n  base: {source: linux-source-6.12, config: [tinyconfig]}\n"
		"  series: {base: base, patches: [%s, %s]}\n  more: {base: series, patches: [%s, %s]}\n"
		"variants:\n  - {name: v6.12, boot: qemu, kernel: {build: base}, cpus: 2}\n"
		"  - {name: v6.12-s, boot: qemu, kernel: {build: more}, cpus: 2}\n"
		"  - {name: v6.12-x, boot: qemu, kernel: {build: more}, cpus: 1}\n"
		"loads:\n  - {tool: fake}\n", files[0], files[1], files[2], files[3]);
	struct bisect_series s = {0};
	assert_int_equal(patch_series(text, "v6.12", "v6.12-s", &s, err, sizeof(err)), 0);
	assert_string_equal(s.kind, "patches");
	assert_int_equal(s.n, 5);
	assert_string_equal(s.p[0].name, "v6.12");
	assert_string_equal(s.p[2].name, "v6.12-p2");
	assert_string_equal(s.p[4].name, "v6.12-s");
	char *label = xasprintf("%s: sched/fair: change 3", files[2]);
	assert_string_equal(s.p[3].label, label);
	free(label);
	struct ydoc *d = ydoc_parse("p", s.p[2].config, strlen(s.p[2].config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *b = ynode_get(ynode_get(ydoc_root(d), "kernels"), "v6.12-p2");
	assert_non_null(b);
	assert_string_equal(ynode_get(b, "base")->text, "base");
	const struct ynode *p = ynode_get(b, "patches");
	assert_int_equal(p->n, 2);
	assert_string_equal(p->items[0]->text, files[0]);
	assert_string_equal(p->items[1]->text, files[1]);
	const struct ynode *v = ynode_get(ydoc_root(d), "variants")->items[0];
	assert_string_equal(ynode_get(ynode_get(v, "kernel"), "build")->text, "v6.12-p2");
	assert_string_equal(ynode_get(v, "cpus")->text, "2");
	ydoc_free(d);
	bisect_series_free(&s);

	/* The wrong way round (the longer list as the good end): said so. */
	assert_int_equal(patch_series(text, "v6.12-s", "v6.12", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the good end's build more has every patch of the bad end's"
				    " base and more: the good end must be the shorter patch list"));
	/* Two variants that differ in more than the build. */
	assert_int_equal(patch_series(text, "v6.12", "v6.12-x", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "differ in more than their kernel build"));
	/* Not patch variants at all: not this provider's. */
	assert_int_equal(patch_series("name: k\nloads: []\n", "a", "b", &s, err, sizeof(err)), 1);
	free(text);

	/* Two roots of one source: good's list a prefix of bad's. */
	text = xasprintf("name: k\nkernels:\n  a: {source: src, patches: [%s]}\n"
			 "  b: {source: src, patches: [%s, %s, %s]}\n  c: {source: other, patches: [%s]}\n"
			 "variants:\n  - {name: a, kernel: {build: a}}\n  - {name: b, kernel: {build: b}}\n"
			 "  - {name: c, kernel: {build: c}}\nloads:\n  - {tool: fake}\n",
			 files[0], files[0], files[1], files[2], files[0]);
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_non_null(strstr(s.p[1].config, files[1]));
	bisect_series_free(&s);
	assert_int_equal(patch_series(text, "b", "a", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the good end's build b has every patch of the bad end's a"));
	assert_int_equal(patch_series(text, "c", "b", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not builds of one source"));
	free(text);
	for (size_t i = 0; i < 4; i++)
		unlink(files[i]);
	rmdir(dir);
}

/* make_args: are part of what a point builds: a build between good's and
 * bad's that sets its own, or two roots whose make_args differ, is not
 * good's build plus patches (the points would blame the wrong patch). A
 * patch_fuzz: travels with its patches into the points' builds. */
static void test_patch_series_make_args(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-bisect-XXXXXX", files[2][256], err[512];
	write_patches(dir, files, 2);
	char *text = xasprintf(
		"name: k\nkernels:\n  base: {source: src, config: [tinyconfig]}\n"
		"  more: {base: base, patches: [%s, %s], make_args: [KCFLAGS=-O3]}\n"
		"  a: {source: src, make_args: [LLVM=1], patches: [%s]}\n"
		"  b: {source: src, patches: [%s, %s]}\n"
		"  fz: {base: base, patches: [%s], patch_fuzz: 2}\n  fz2: {base: fz, patches: [%s]}\n"
		"variants:\n  - {name: v, kernel: {build: base}}\n  - {name: m, kernel: {build: more}}\n"
		"  - {name: a, kernel: {build: a}}\n  - {name: b, kernel: {build: b}}\n"
		"  - {name: z, kernel: {build: fz2}}\nloads:\n  - {tool: fake}\n",
		files[0], files[1], files[0], files[0], files[1], files[0], files[1]);
	struct bisect_series s = {0};
	assert_int_equal(patch_series(text, "v", "m", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more sets make_args: of its own, so more is not base plus patches"));
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "make_args: differ along their base: chains"));
	/* Point 1 of base..fz2: base + the first patch, allowed fuzz 2. */
	assert_int_equal(patch_series(text, "v", "z", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	struct ydoc *d = ydoc_parse("p", s.p[1].config, strlen(s.p[1].config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *b = ynode_get(ynode_get(ydoc_root(d), "kernels"), "v-p1");
	assert_non_null(b);
	assert_string_equal(ynode_get(b, "patch_fuzz")->text, "2");
	assert_string_equal(ynode_get(b, "base")->text, "base");
	ydoc_free(d);
	bisect_series_free(&s);
	free(text);
	for (size_t i = 0; i < 2; i++)
		unlink(files[i]);
	rmdir(dir);
}

/* A directory entry is the patch files in it, in name order, each with
 * its subject; an mbox of two patches is refused, saying how to split it. */
static void test_patch_directory(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-bisect-XXXXXX", files[3][256], err[512];
	write_patches(dir, files, 3);
	char *readme = xasprintf("%s/README", dir);
	FILE *f = fopen(readme, "w");
	assert_non_null(f);
	fputs("not a patch\n", f);
	fclose(f);
	char *text = xasprintf("name: k\nkernels:\n  base: {source: src}\n"
			       "  s: {base: base, patches: [%s]}\n"
			       "variants:\n  - {name: a, kernel: {build: base}}\n"
			       "  - {name: b, kernel: {build: s}}\nloads:\n  - {tool: fake}\n", dir);
	struct bisect_series s = {0};
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 4);
	for (size_t k = 1; k <= 3; k++) {
		char *label = xasprintf("%s: sched/fair: change %zu", files[k - 1], k);
		assert_string_equal(s.p[k].label, label);
		free(label);
	}
	assert_non_null(strstr(s.p[2].config, files[1]));
	assert_null(strstr(s.p[2].config, files[2]));
	bisect_series_free(&s);
	free(text);

	/* files[0] and files[1] as one mbox. */
	char *mbox = xasprintf("%s/two.mbox", dir);
	FILE *out = fopen(mbox, "w");
	assert_non_null(out);
	for (size_t i = 0; i < 2; i++) {
		FILE *in = fopen(files[i], "r");
		assert_non_null(in);
		int c;
		while ((c = fgetc(in)) != EOF)
			fputc(c, out);
		fclose(in);
		if (i == 0)
			fputc('\n', out);
	}
	fclose(out);
	text = xasprintf("name: k\nkernels:\n  base: {source: src}\n"
			 "  s: {base: base, patches: [%s]}\n"
			 "variants:\n  - {name: a, kernel: {build: base}}\n"
			 "  - {name: b, kernel: {build: s}}\nloads:\n  - {tool: fake}\n", mbox);
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "two.mbox holds 2 patches"));
	assert_non_null(strstr(err, "git format-patch -o DIR"));
	assert_non_null(strstr(err, "k.yaml:4:"));
	free(text);
	unlink(mbox);
	free(mbox);
	unlink(readme);
	free(readme);
	for (size_t i = 0; i < 3; i++)
		unlink(files[i]);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_finds_every_step),
		cmocka_unit_test(test_search_order),
		cmocka_unit_test(test_search_skips),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_classify_min_effect),
		cmocka_unit_test(test_classify_constant),
		cmocka_unit_test(test_classify_rules),
		cmocka_unit_test(test_alpha_shares),
		cmocka_unit_test(test_rule_feasible),
		cmocka_unit_test(test_default_min_effect),
		cmocka_unit_test(test_rule_text),
		cmocka_unit_test(test_no_regression_text),
		cmocka_unit_test(test_fmt_mean),
		cmocka_unit_test(test_ytree_round_trip),
		cmocka_unit_test(test_list_provider),
		cmocka_unit_test(test_list_provider_errors),
		cmocka_unit_test(test_patch_provider),
		cmocka_unit_test(test_patch_series_make_args),
		cmocka_unit_test(test_patch_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
