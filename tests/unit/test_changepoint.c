/* E-divisive means (harness/stats/changepoint.h). Expected values are
 * computed by hand or by tests/integration/edivisive_check.py (the
 * paper's statistic summed directly in Python, the same splitmix64
 * stream), never with the code under test; track_edivisive.sh compares
 * the two on longer series. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <cmocka.h>

#include "changepoint.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("expected %.17g, got %.17g", want, got);
}

/* The generator's outputs: seed 1234567 gives the reference values of
 * Vigna's splitmix64.c, seed 0 those python computes. */
static void test_splitmix64(void **state)
{
	(void)state;
	uint64_t s = 1234567;
	assert_true(changepoint_splitmix64(&s) == 6457827717110365317ULL);
	assert_true(changepoint_splitmix64(&s) == 3203168211198807973ULL);
	assert_true(changepoint_splitmix64(&s) == 9817491932198370423ULL);
	s = 0;
	assert_true(changepoint_splitmix64(&s) == 16294208416658607535ULL);
	assert_true(changepoint_splitmix64(&s) == 7960286522194355700ULL);
}

/* Q of 1 2 | 10 11 by hand: between 9+10+8+9 = 36, within 1 and 1;
 * 2·2/4 · (2·36/4 − 2·1/2 − 2·1/2) = 16. A side of one point has no Q. */
static void test_q_by_hand(void **state)
{
	(void)state;
	const double x[] = {1, 2, 10, 11};
	assert_close(changepoint_q(x, 0, 2, 4), 16, 1e-12);
	assert_true(isnan(changepoint_q(x, 0, 1, 4)));
	assert_true(isnan(changepoint_q(x, 0, 2, 3)));
}

/* A step after five points, 19 permutations at alpha 0.05: the one
 * change point at 5 with edivisive_check.py's Q (8.3) and the smallest p
 * 19 permutations give, 1/20; the next candidate (python: at 2, p 0.7)
 * stops the procedure. */
static void test_step(void **state)
{
	(void)state;
	const double x[] = {10, 10.5, 9.5, 10.2, 9.8, 12, 12.3, 11.8, 12.1, 11.9};
	struct changepoint_opts o = {.alpha = 0.05, .permutations = 19, .seed = 1, .min_segment = 2};
	struct changepoint cp[N(x)], rej;
	size_t n = changepoint_edivisive(x, N(x), &o, cp, &rej);
	assert_int_equal(n, 1);
	assert_int_equal(cp[0].index, 5);
	assert_close(cp[0].q, 8.3, 1e-9);
	assert_close(cp[0].p, 0.05, 1e-12);
	assert_int_equal(cp[0].rank, 1);
	assert_int_equal(rej.index, 2);
	assert_close(rej.p, 0.7, 1e-12);
	double before, after;
	changepoint_levels(x, N(x), cp, n, 0, &before, &after);
	assert_close(before, 10, 1e-12);
	assert_close(after, 12.02, 1e-12);
	assert_close(changepoint_change_pct(before, after), 20.2, 1e-9);
	/* At alpha 0.04 no p of 19 permutations is small enough. */
	o.alpha = 0.04;
	assert_int_equal(changepoint_edivisive(x, N(x), &o, cp, &rej), 0);
	assert_int_equal(rej.index, 5);
}

/* Points that are all equal: every Q is 0, so is every permutation's,
 * p = 1: no change point. Too short a series (fewer than two segments of
 * min_segment) has no candidate at all. */
static void test_flat_and_short(void **state)
{
	(void)state;
	const double x[] = {5, 5, 5, 5, 5, 5, 5, 5};
	struct changepoint_opts o = {.alpha = 0.5, .permutations = 9, .seed = 3, .min_segment = 2};
	struct changepoint cp[N(x)], rej;
	assert_int_equal(changepoint_edivisive(x, N(x), &o, cp, &rej), 0);
	assert_close(rej.p, 1, 0);
	assert_int_equal(changepoint_edivisive(x, 3, &o, cp, &rej), 0);
	assert_int_equal(rej.index, 0);
}

/* A change may only begin where boundary allows (the first run of a
 * revision): the step at 5 is placed at 4 or 6, never inside. */
static void test_boundary(void **state)
{
	(void)state;
	const double x[] = {10, 10.5, 9.5, 10.2, 9.8, 12, 12.3, 11.8, 12.1, 11.9};
	bool even[N(x)];
	for (size_t i = 0; i < N(x); i++)
		even[i] = i % 2 == 0;
	struct changepoint_opts o = {.alpha = 0.2, .permutations = 19, .seed = 1, .min_segment = 2,
				     .boundary = even};
	struct changepoint cp[N(x)];
	size_t n = changepoint_edivisive(x, N(x), &o, cp, NULL);
	assert_true(n >= 1);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(cp[k].index % 2, 0);
}

/* Pruning: levels 100 | 100.4 | 110 (change points at 3 and 6): the first
 * changes by 0.4 %, so at 1 % it goes and the second is measured against
 * the merged first six points (100.2 -> 110, +9.78 %). */
static void test_prune(void **state)
{
	(void)state;
	const double x[] = {100, 100, 100, 100.4, 100.4, 100.4, 110, 110, 110};
	struct changepoint cp[] = {{3, 1, 0.01, 1}, {6, 2, 0.01, 2}};
	size_t n = 2;
	changepoint_prune(x, N(x), cp, &n, 0);
	assert_int_equal(n, 2);
	changepoint_prune(x, N(x), cp, &n, 1);
	assert_int_equal(n, 1);
	assert_int_equal(cp[0].index, 6);
	double before, after;
	changepoint_levels(x, N(x), cp, n, 0, &before, &after);
	assert_close(before, 100.2, 1e-9);
	assert_close(changepoint_change_pct(before, after), (110 - 100.2) / 100.2 * 100, 1e-9);
	changepoint_prune(x, N(x), cp, &n, 10);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splitmix64),
		cmocka_unit_test(test_q_by_hand),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_flat_and_short),
		cmocka_unit_test(test_boundary),
		cmocka_unit_test(test_prune),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
