/* Adaptive iterations: the stopping rule on known sequences. CI half-widths
 * computed independently in python: t_{0.975,n-1}·s/sqrt(n)·100/mean with
 * t_{0.975,1} = 12.706204736174707, t_{0.975,2} = 4.302652729911275,
 * t_{0.975,3} = 3.182446305284263. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "adaptive.h"

static void test_low_variance_stops_at_min(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 30, 5.0, 0};
	const double x[] = {100, 101, 99};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 2, 0, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 3, 0, 1, why, sizeof(why)));
	/* half-width 2.4841 % of the mean */
	assert_string_equal(why, "CI 2.5 % <= 5 %");
}

static void test_high_variance_goes_on_to_max(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 4, 5.0, 0};
	const double x[] = {100, 110, 90, 100};
	char why[128];
	/* 24.84 % after 3, 12.99 % after 4: only max stops it */
	assert_false(adaptive_should_stop(&r, x, 3, 0, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 4, 0, 1, why, sizeof(why)));
	assert_string_equal(why, "max reached, CI 13.0 %");
}

static void test_time_budget(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 30, 1.0, 10};
	const double x[] = {100, 110, 90, 100};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 4, 0, 9.9, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 4, 0, 10.0, why, sizeof(why)));
	assert_string_equal(why, "max_time_s 10 reached, CI 13.0 %");
}

static void test_nan_values_do_not_stop(void **state)
{
	(void)state;
	struct adaptive_rule r = {2, 30, 50.0, 0};
	const double x[] = {NAN, NAN, NAN};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 3, 0, 1, why, sizeof(why)));
}

static void test_fixed_count(void **state)
{
	(void)state;
	struct adaptive_rule r = {5, 5, 0, 0};
	const double x[] = {1, 2, 3, 4, 5};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 4, 0, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 5, 0, 1, why, sizeof(why)));
	assert_non_null(strstr(why, "fixed count"));
}

/* Failed iterations count toward max, never toward min or the CI: a load
 * that always fails stops the cell at max, saying so. */
static void test_failed_count_toward_max_only(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 5, 1.0, 0};
	const double x[] = {100, 100.1, 99.9};
	char why[128];
	/* 3 failed and 2 complete values: not min complete, not max yet. */
	assert_false(adaptive_should_stop(&r, x, 2, 2, 1, why, sizeof(why)));
	/* 3 complete with a CI of 0.25 % stop however many failed. */
	assert_true(adaptive_should_stop(&r, x, 3, 1, 1, why, sizeof(why)));
	assert_string_equal(why, "1 failed, CI 0.2 % <= 1 %");
	/* Nothing complete: only max stops it. */
	assert_false(adaptive_should_stop(&r, x, 0, 4, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 0, 5, 1, why, sizeof(why)));
	assert_string_equal(why, "5 failed, max reached, no complete iteration");
	assert_true(adaptive_should_stop(&r, x, 2, 3, 1, why, sizeof(why)));
	assert_string_equal(why, "3 failed, max reached, CI 0.6 %");
}

/* The per-cell state: a failed iteration adds no value; the note counts
 * complete and failed iterations; once enough, the cell is stopped. */
static void test_cells_failed_and_stopped(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 5, 1.0, 0};
	struct adaptive_cells *a = adaptive_cells_new(2);
	char why[256];
	for (int i = 0; i < 4; i++) {
		adaptive_cells_add_failed(a, 0, 1000);
		assert_false(adaptive_cells_enough(a, 0, &r, 2000, why, sizeof(why)));
	}
	adaptive_cells_add_failed(a, 0, 1000);
	assert_false(adaptive_cells_stopped(a, 0));
	assert_true(adaptive_cells_enough(a, 0, &r, 2000, why, sizeof(why)));
	assert_string_equal(why, "5 iteration(s), 5 failed, max reached, no complete iteration");
	assert_true(adaptive_cells_stopped(a, 0));
	assert_false(adaptive_cells_stopped(a, 1));
	adaptive_cells_reset(a);
	assert_false(adaptive_cells_stopped(a, 0));
	adaptive_cells_free(a);
}

/* run --resume: a cell restored from its stored complete iterations goes
 * on from there — its values count toward min and the CI, its spent time
 * toward max_time_s; a cell marked stopped stays stopped. */
static void test_cells_restore(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 10, 5.0, 0};
	struct adaptive_rule budget = {3, 10, 0.001, 10};
	const double stored[] = {100, 101};
	struct adaptive_cells *a = adaptive_cells_new(3);
	char why[256];

	adaptive_cells_restore(a, 0, stored, 2, 1.0);
	adaptive_cells_add(a, 0, 0, 99);
	assert_true(adaptive_cells_enough(a, 0, &r, 1000, why, sizeof(why)));
	assert_string_equal(why, "3 iteration(s), CI 2.5 % <= 5 %");

	/* 9.5 s spent before, 0.5 s now: the budget of 10 s is used up. */
	adaptive_cells_restore(a, 1, stored, 2, 9.5);
	adaptive_cells_add(a, 1, 0, 150);
	assert_false(adaptive_cells_enough(a, 1, &budget, 400000000, why, sizeof(why)));
	assert_true(adaptive_cells_enough(a, 1, &budget, 500000000, why, sizeof(why)));
	assert_string_equal(why, "3 iteration(s), max_time_s 10 reached, CI 60.7 %");

	/* Paused between visits (order: interleaved): the 9 s the cell waited
	 * for other cells do not count, its own 0.3 s + 0.3 s do. */
	struct adaptive_cells *b = adaptive_cells_new(1);
	adaptive_cells_add(b, 0, 0, 150);
	adaptive_cells_pause(b, 0, 300000000);
	adaptive_cells_add(b, 0, 9300000000LL, 150);
	assert_false(adaptive_cells_enough(b, 0, &(struct adaptive_rule){2, 30, 0, 0.7}, 9600000000LL,
					   why, sizeof(why)));
	assert_true(adaptive_cells_enough(b, 0, &(struct adaptive_rule){2, 30, 0, 0.6}, 9600000000LL,
					  why, sizeof(why)));
	adaptive_cells_free(b);

	adaptive_cells_stop(a, 2);
	assert_true(adaptive_cells_stopped(a, 2));
	adaptive_cells_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_low_variance_stops_at_min),
		cmocka_unit_test(test_high_variance_goes_on_to_max),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_nan_values_do_not_stop),
		cmocka_unit_test(test_fixed_count),
		cmocka_unit_test(test_failed_count_toward_max_only),
		cmocka_unit_test(test_cells_failed_and_stopped),
		cmocka_unit_test(test_cells_restore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
