/* Adaptive iterations: the stopping rule on known sequences. CI half-widths
 * computed independently in python: t_{0.975,n-1}·s/sqrt(n)·100/mean with
 * t_{0.975,2} = 4.302652729911275, t_{0.975,3} = 3.182446305284263. */
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
	assert_false(adaptive_should_stop(&r, x, 2, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 3, 1, why, sizeof(why)));
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
	assert_false(adaptive_should_stop(&r, x, 3, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 4, 1, why, sizeof(why)));
	assert_string_equal(why, "max reached, CI 13.0 %");
}

static void test_time_budget(void **state)
{
	(void)state;
	struct adaptive_rule r = {3, 30, 1.0, 10};
	const double x[] = {100, 110, 90, 100};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 4, 9.9, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 4, 10.0, why, sizeof(why)));
	assert_string_equal(why, "max_time_s 10 reached, CI 13.0 %");
}

static void test_nan_values_do_not_stop(void **state)
{
	(void)state;
	struct adaptive_rule r = {2, 30, 50.0, 0};
	const double x[] = {NAN, NAN, NAN};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 3, 1, why, sizeof(why)));
}

static void test_fixed_count(void **state)
{
	(void)state;
	struct adaptive_rule r = {5, 5, 0, 0};
	const double x[] = {1, 2, 3, 4, 5};
	char why[128];
	assert_false(adaptive_should_stop(&r, x, 4, 1, why, sizeof(why)));
	assert_true(adaptive_should_stop(&r, x, 5, 1, why, sizeof(why)));
	assert_non_null(strstr(why, "fixed count"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_low_variance_stops_at_min),
		cmocka_unit_test(test_high_variance_goes_on_to_max),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_nan_values_do_not_stop),
		cmocka_unit_test(test_fixed_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
