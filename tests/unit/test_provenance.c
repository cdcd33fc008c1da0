/* Provenance of runs: this process's start time and whether the rig of a
 * stored run is still alive (what list and show call abandoned). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "provenance.h"

/* Field 22 of /proc/self/stat, split the plain way (this test's command
 * name has no spaces or parentheses). */
static long long starttime_of_self(void)
{
	char line[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	char *tok = strtok(line, " ");
	for (int field = 2; field <= 22; field++)
		tok = strtok(NULL, " ");
	assert_non_null(tok);
	return atoll(tok);
}

static void test_start_ticks(void **state)
{
	(void)state;
	long long mine = provenance_start_ticks(getpid());
	assert_true(mine > 0);
	assert_int_equal(mine, starttime_of_self());
	struct provenance p;
	provenance_read(&p);
	assert_int_equal(p.pid, getpid());
	assert_int_equal(p.start_ticks, mine);
	assert_int_equal(strlen(p.boot_id), 36);
	/* A pid that is gone. */
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(provenance_start_ticks(child), -1);
}

static void test_run_status(void **state)
{
	(void)state;
	struct provenance p;
	provenance_read(&p);
	assert_string_equal(provenance_run_status("running", p.host, p.boot_id, p.pid,
						  p.start_ticks), "running");
	/* The same pid started at another time: a reused pid, not the rig. */
	assert_string_equal(provenance_run_status("running", p.host, p.boot_id, p.pid,
						  p.start_ticks + 1), "abandoned");
	assert_string_equal(provenance_run_status("running", p.host,
						  "00000000-0000-0000-0000-000000000000", p.pid,
						  p.start_ticks), "abandoned");
	/* Another machine's run, or one that does not know its rig: unknown. */
	assert_string_equal(provenance_run_status("running", "elsewhere", p.boot_id, p.pid, 1),
			    "running");
	assert_string_equal(provenance_run_status("running", p.host, p.boot_id, p.pid, 0),
			    "running");
	assert_string_equal(provenance_run_status("complete", p.host, p.boot_id, p.pid,
						  p.start_ticks + 1), "complete");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_ticks),
		cmocka_unit_test(test_run_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
