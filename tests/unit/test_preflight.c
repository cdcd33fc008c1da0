/* Checks before a run that depend only on the plan: which cell's loads run
 * at different nice (the autogroup warning of cmd_run.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "config.h"
#include "plan.h"
#include "preflight.h"

/* Plan the config text; false and detail "" when no cell's nice differs. */
static bool nice_differs(const char *text, char *detail, size_t size)
{
	char err[512] = "";
	struct plan p;
	struct experiment *e = config_parse("t.yaml", text, strlen(text), err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(plan_build(e, &p, err, sizeof(err)), 0);
	detail[0] = '\0';
	bool differs = preflight_nice_differs(&p, detail, size);
	plan_free(&p);
	experiment_free(e);
	return differs;
}

/* An unset nice counts as 0; the first cell that differs is named with
 * every load's nice, a cell whose loads agree is not. */
static void test_nice_differs(void **state)
{
	(void)state;
	char detail[256];
	assert_false(nice_differs("name: a\nloads:\n  - {name: x, tool: fake, sched: {nice: 0}}\n"
				  "  - {name: y, tool: fake}\n", detail, sizeof(detail)));
	assert_string_equal(detail, "");
	assert_false(nice_differs("name: a\nloads:\n  - {name: x, tool: fake, sched: {nice: 7}}\n",
				  detail, sizeof(detail)));
	assert_true(nice_differs("name: a\nloads:\n  - {name: x, tool: fake, sched: {nice: 5}}\n"
				 "  - {name: y, tool: fake}\n", detail, sizeof(detail)));
	assert_string_equal(detail, "cell default: x nice=5, y nice=0");
	assert_true(nice_differs("name: a\nloads:\n  - {name: x, tool: fake, sched: {nice: [0, 19]}}\n"
				 "  - {name: y, tool: fake, sched: {policy: batch}}\n", detail,
				 sizeof(detail)));
	assert_string_equal(detail, "cell x.nice=19: x nice=19, y nice=0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_differs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
