/* Range separation (stats_range.h): lkp's margin, and the p of a
 * separation checked against two computations of its own: every order of
 * the pooled labels enumerated (small n), and a lattice-path count (each
 * order a path of n_a a-steps and n_b b-steps; the separation a condition
 * at the step that places the (m_a+1)-th a) for the trimmed sizes too big
 * to enumerate. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_range.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("expected %.15g, got %.15g", want, got);
}

/* Every order of n_a a's and n_b b's (bit i set: position i is an a), the
 * share in which the kept a's (margin m_a off each end) all lie above the
 * kept b's, or below. */
static double enumerated_p(unsigned n_a, unsigned n_b, unsigned m_a, unsigned m_b)
{
	unsigned n = n_a + n_b;
	double hits = 0, total = 0;
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		if ((unsigned)__builtin_popcount(mask) != n_a)
			continue;
		total++;
		/* positions of the kept ones of each side */
		int a_lo = -1, a_hi = -1, b_lo = -1, b_hi = -1;
		unsigned ia = 0, ib = 0;
		for (unsigned i = 0; i < n; i++) {
			if (mask >> i & 1) {
				if (ia == m_a)
					a_lo = (int)i;
				if (ia == n_a - 1 - m_a)
					a_hi = (int)i;
				ia++;
			} else {
				if (ib == m_b)
					b_lo = (int)i;
				if (ib == n_b - 1 - m_b)
					b_hi = (int)i;
				ib++;
			}
		}
		hits += a_lo > b_hi || b_lo > a_hi;
	}
	return hits / total;
}

/* Paths to (n_a, n_b) that reach the (m_a+1)-th a-step with at least
 * n_b - m_b b-steps behind them, over all paths. */
static double path_p_above(unsigned n_a, unsigned n_b, unsigned m_a, unsigned m_b)
{
	static double ok[80][80], all[80][80];
	memset(ok, 0, sizeof(ok));
	memset(all, 0, sizeof(all));
	all[0][0] = 1;
	for (unsigned i = 0; i <= n_a; i++)
		for (unsigned j = 0; j <= n_b; j++) {
			if (i + j == 0)
				continue;
			double a = 0, aok = 0, b = 0, bok = 0;
			if (i) {
				a = all[i - 1][j];
				/* this step places the i-th a */
				aok = i == m_a + 1 ? (j >= n_b - m_b ? all[i - 1][j] : 0) : ok[i - 1][j];
			}
			if (j) {
				b = all[i][j - 1];
				bok = ok[i][j - 1];
			}
			all[i][j] = a + b;
			ok[i][j] = aok + bok;
		}
	return ok[n_a][n_b] / all[n_a][n_b];
}

static void test_margin(void **state)
{
	(void)state;
	assert_int_equal(stats_range_margin(3), 0);
	assert_int_equal(stats_range_margin(31), 0);
	assert_int_equal(stats_range_margin(32), 1);
	assert_int_equal(stats_range_margin(64), 2);
	assert_int_equal(stats_range_margin(200), 3);
}

static void test_floor_p(void **state)
{
	(void)state;
	assert_close(stats_range_floor_p(3, 3), 0.1, 1e-12);
	assert_close(stats_range_floor_p(5, 5), 2.0 / 252, 1e-12);
	for (unsigned na = 1; na <= 9; na++)
		for (unsigned nb = 1; nb <= 9; nb++)
			assert_close(stats_range_floor_p(na, nb), enumerated_p(na, nb, 0, 0), 1e-12);
	/* Trimmed: 32 and 40 values keep 30 and 38 (margin 1 each). */
	double want = path_p_above(32, 40, 1, 1) + path_p_above(40, 32, 1, 1);
	assert_close(stats_range_floor_p(32, 40), want, 1e-9);
	want = path_p_above(70, 33, 2, 1) + path_p_above(33, 70, 1, 2);
	assert_close(stats_range_floor_p(70, 33), want, 1e-9);
	/* The path count agrees with enumeration where both can count. */
	assert_close(path_p_above(6, 5, 0, 0) + path_p_above(5, 6, 0, 0), enumerated_p(6, 5, 0, 0),
		     1e-12);
	assert_close(path_p_above(7, 6, 1, 1) + path_p_above(6, 7, 1, 1), enumerated_p(7, 6, 1, 1),
		     1e-12);
}

static void test_separation(void **state)
{
	(void)state;
	struct stats_range r;
	double a[] = {10, 11, 12, 13}, b[] = {14, 15, 16}, c[] = {12.5, 20, 21};
	stats_range_test(a, 4, b, 3, &r);
	assert_true(r.valid && r.separated);
	assert_close(r.gap, 1, 1e-12);
	assert_close(r.p, 2.0 / 35, 1e-12);
	stats_range_test(b, 3, a, 4, &r);
	assert_true(r.separated);
	assert_close(r.gap, -1, 1e-12);
	stats_range_test(a, 4, c, 3, &r);
	assert_true(r.valid && !r.separated);
	assert_true(r.p == 1 && isnan(r.gap));
	/* Ties across the sides are no separation. */
	double t[] = {13, 14, 15};
	stats_range_test(a, 4, t, 3, &r);
	assert_false(r.separated);
	/* Trimming: of 32 values one off each end is not kept, so one outlier
	 * among them does not break a separation, two do. */
	double big[32], other[32];
	for (int i = 0; i < 32; i++) {
		big[i] = 100 + i * 0.1;
		other[i] = 110 + i * 0.1;
	}
	big[31] = 200;
	stats_range_test(big, 32, other, 32, &r);
	assert_true(r.separated);
	assert_close(r.gap, 110.1 - (100 + 30 * 0.1), 1e-9);
	big[30] = 200;
	stats_range_test(big, 32, other, 32, &r);
	assert_false(r.separated);
	stats_range_test(a, 0, b, 3, &r);
	assert_false(r.valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_margin),
		cmocka_unit_test(test_floor_p),
		cmocka_unit_test(test_separation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
