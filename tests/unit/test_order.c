/* The order of a run's visits (harness/config/order.h): blocked, interleaved, and
 * random rounds whose shuffle was recomputed in python (splitmix64 and
 * Fisher-Yates written out again there, not with the code under test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "order.h"

/* order_visits(o, seed, nv, nc, its) gives exactly the n visits want. */
static void expect(enum run_order o, uint64_t seed, size_t nv, size_t nc, int its,
		   const int (*want)[3], size_t n)
{
	struct visit *v;
	assert_int_equal(order_visits(o, seed, nv, nc, its, &v), n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[i].variant, want[i][0]);
		assert_int_equal(v[i].cell, want[i][1]);
		assert_int_equal(v[i].iteration, want[i][2]);
	}
	free(v);
}

static void test_blocked_and_interleaved(void **state)
{
	(void)state;
	static const int blocked[][3] = {{0, 0, 1}, {0, 0, 2}, {0, 1, 1}, {0, 1, 2},
					 {1, 0, 1}, {1, 0, 2}, {1, 1, 1}, {1, 1, 2}};
	static const int interleaved[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1},
					     {0, 0, 2}, {0, 1, 2}, {1, 0, 2}, {1, 1, 2}};
	expect(ORDER_BLOCKED, 0, 2, 2, 2, blocked, 8);
	expect(ORDER_INTERLEAVED, 0, 2, 2, 2, interleaved, 8);
	expect(ORDER_INTERLEAVED, 0, 2, 2, 0, interleaved, 0);
}

static void test_random_rounds(void **state)
{
	(void)state;
	static const int seed7[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1},
				       {0, 0, 2}, {0, 1, 2}, {1, 1, 2}, {1, 0, 2},
				       {0, 1, 3}, {1, 0, 3}, {0, 0, 3}, {1, 1, 3}};
	static const int seed12345[][3] = {{1, 0, 1}, {2, 0, 1}, {0, 0, 1},
					   {1, 0, 2}, {0, 0, 2}, {2, 0, 2}};
	expect(ORDER_RANDOM, 7, 2, 2, 3, seed7, 12);
	expect(ORDER_RANDOM, 12345, 3, 1, 2, seed12345, 6);
}

static void test_descriptions(void **state)
{
	(void)state;
	enum run_order o;
	uint64_t seed;
	const char *boot[] = {"v6.1", "box"};
	char *d = order_describe(ORDER_RANDOM, 18446744073709551615ULL, boot, 2);
	assert_string_equal(d, "random, seed 18446744073709551615; blocked: v6.1, box (they boot a kernel)");
	assert_int_equal(order_parse_description(d, &o, &seed), 0);
	assert_int_equal(o, ORDER_RANDOM);
	assert_true(seed == 18446744073709551615ULL);
	free(d);
	d = order_describe(ORDER_BLOCKED, 0, boot, 2);
	assert_string_equal(d, "blocked");
	free(d);
	assert_int_equal(order_parse_description("interleaved", &o, &seed), 0);
	assert_int_equal(o, ORDER_INTERLEAVED);
	assert_int_equal(order_parse_description("random", &o, &seed), -1);
	assert_int_equal(order_parse_description("random, seed 18446744073709551616", &o, &seed), -1);
	assert_int_equal(order_parse_description("random, seed 12x", &o, &seed), -1);
	assert_int_equal(order_parse_description("sideways", &o, &seed), -1);
	assert_int_equal(run_order_parse("interleaved"), ORDER_INTERLEAVED);
	assert_int_equal(run_order_parse("Blocked"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocked_and_interleaved),
		cmocka_unit_test(test_random_rounds),
		cmocka_unit_test(test_descriptions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
