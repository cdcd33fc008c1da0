/* Unit tests of the runner (harness/iteration/runner.c) with real processes: a cell
 * of /bin/sh loads built here, run by runner_run_iteration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/resource.h>
#include <unistd.h>

#include "loadcg.h"
#include "runner.h"

/* A driver whose loads are shell commands (argv built by the test). */
static const struct load_ops sh_ops = {.name = "sh", .stop_signal = SIGTERM};

static int lower_nofile(const struct params *p, char *err, size_t errsz)
{
	(void)p;
	(void)err;
	(void)errsz;
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = 2; /* below the poll set's size: poll fails with EINVAL */
	return setrlimit(RLIMIT_NOFILE, &rl);
}
static const struct load_ops nofile_ops = {.name = "nofile", .stop_signal = SIGTERM,
					   .prepare = lower_nofile};

struct cell_fixture {
	struct cfg_load *loads;
	struct plan_cell cell;
};

/* A cell of n measured loads, load i running `sh -c script(i)`. */
static void cell_init(struct cell_fixture *f, size_t n, const char *(*script)(size_t),
		      const struct load_ops *(*ops)(size_t))
{
	f->loads = calloc(n, sizeof(*f->loads));
	f->cell = (struct plan_cell){.name = "default", .inst = calloc(n, sizeof(*f->cell.inst)),
				     .n_inst = n};
	for (size_t i = 0; i < n; i++) {
		f->loads[i] = (struct cfg_load){.name = "sh", .ops = ops ? ops(i) : &sh_ops,
						.role = ROLE_MEASURED, .timeout_s = 20};
		struct plan_instance *pi = &f->cell.inst[i];
		pi->load = &f->loads[i];
		argv_add(&pi->argv, "/bin/sh");
		argv_add(&pi->argv, "-c");
		argv_add(&pi->argv, script(i));
	}
}

static void cell_free(struct cell_fixture *f)
{
	for (size_t i = 0; i < f->cell.n_inst; i++)
		argv_free(&f->cell.inst[i].argv);
	free(f->cell.inst);
	free(f->loads);
}

static int setup(void **state)
{
	char err[256];
	(void)state;
	/* What this test process inherited stays out of its loads. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	return runner_init(err, sizeof(err));
}

static const char *sleepers_then_big_output(size_t i)
{
	return i < 64 ? "sleep 5" : "head -c 100000 /dev/zero | tr '\\0' x";
}

/* 64 loads that sleep, then 6 that write more than a pipe holds: every
 * load's pipes are polled (only the first 64 running ones were, so the
 * last 6 blocked until their timeout of 1.5 s). */
static void test_many_loads(void **state)
{
	struct cell_fixture f;
	struct iteration_result res;
	char err[256] = "";
	(void)state;
	cell_init(&f, 70, sleepers_then_big_output, NULL);
	for (size_t i = 64; i < 70; i++)
		f.loads[i].timeout_s = 1.5;
	assert_int_equal(runner_run_iteration(&f.cell, 0, "/bin/false", &res, err, sizeof(err)), 0);
	assert_int_equal(res.n, 70);
	for (size_t i = 0; i < res.n; i++) {
		if (res.r[i].state != INST_OK)
			print_error("load %zu: %s %s\n", i, inst_state_name(res.r[i].state),
				    res.r[i].reason);
		assert_int_equal(res.r[i].state, INST_OK);
		assert_int_equal(res.r[i].out.len, i < 64 ? 0 : 100000);
	}
	iteration_result_free(&res);
	cell_free(&f);
}

static const char *list_fds(size_t i)
{
	(void)i;
	return "ls /proc/$$/fd"; /* the shell's descriptors while ls runs */
}

/* A load starts with stdin, stdout and stderr only: /dev/null is not left
 * open besides stdin. */
static void test_no_fd_leak(void **state)
{
	struct cell_fixture f;
	struct iteration_result res;
	char err[256] = "";
	(void)state;
	cell_init(&f, 1, list_fds, NULL);
	assert_int_equal(runner_run_iteration(&f.cell, 0, "/bin/false", &res, err, sizeof(err)), 0);
	assert_int_equal(res.r[0].state, INST_OK);
	assert_string_equal(buf_str(&res.r[0].out), "0\n1\n2\n");
	iteration_result_free(&res);
	cell_free(&f);
}

static const char *own_cgroup(size_t i)
{
	(void)i;
	return "grep ^0:: /proc/self/cgroup";
}

/* Each load runs in its own cgroup below the rig's (loadcg), where cgroup2
 * allows one here: "0::/.../schedrig-RIGPID/load-N". */
static void test_own_cgroup(void **state)
{
	struct cell_fixture f;
	struct iteration_result res;
	char err[256] = "", want[64];
	(void)state;
	cell_init(&f, 2, own_cgroup, NULL);
	assert_int_equal(runner_run_iteration(&f.cell, 0, "/bin/false", &res, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "/schedrig-%d/load-", (int)getpid());
	for (size_t i = 0; i < res.n; i++) {
		assert_int_equal(res.r[i].state, INST_OK);
		if (loadcg_base())
			assert_non_null(strstr(buf_str(&res.r[i].out), want));
	}
	if (loadcg_base()) /* two loads, two cgroups */
		assert_string_not_equal(buf_str(&res.r[0].out), buf_str(&res.r[1].out));
	iteration_result_free(&res);
	cell_free(&f);
}

static const char *say_ok(size_t i)
{
	(void)i;
	return "echo ok";
}

/* A load that cannot start is a failure worded with the load's argv[0] and
 * the step that failed, and the other loads run. */
static void test_start_failures(void **state)
{
	struct cell_fixture f;
	struct iteration_result res;
	char err[256] = "";
	(void)state;
	cell_init(&f, 3, say_ok, NULL);
	argv_free(&f.cell.inst[0].argv);
	argv_add(&f.cell.inst[0].argv, "schedrig-no-such-program");
	snprintf(f.cell.inst[1].sched.cpus, sizeof(f.cell.inst[1].sched.cpus), "1000");
	assert_int_equal(runner_run_iteration(&f.cell, 0, "/bin/false", &res, err, sizeof(err)), 0);
	assert_int_equal(res.n, 3);
	assert_int_equal(res.r[0].state, INST_FAILED);
	assert_int_equal(res.r[0].pid, 0);
	assert_string_equal(res.r[0].reason,
			    "cannot run schedrig-no-such-program: No such file or directory");
	assert_int_equal(res.r[1].state, INST_FAILED);
	assert_int_equal(res.r[1].pid, 0);
	assert_string_equal(res.r[1].reason,
			    "cpus 1000: not every CPU of the list is on this machine or allowed"
			    " to the rig (sched_setaffinity: Invalid argument)");
	assert_int_equal(res.r[2].state, INST_OK);
	assert_string_equal(buf_str(&res.r[2].out), "ok\n");
	iteration_result_free(&res);
	cell_free(&f);
}

static const char *sleep_then_second(size_t i)
{
	return i == 0 ? "sleep 1" : "true";
}

static const struct load_ops *second_lowers_nofile(size_t i)
{
	return i == 0 ? &sh_ops : &nofile_ops;
}

/* poll failing is the rig failing: -1 with the reason, not a result. */
static void test_poll_error(void **state)
{
	struct cell_fixture f;
	struct iteration_result res;
	struct rlimit saved;
	char err[256] = "";
	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	cell_init(&f, 2, sleep_then_second, second_lowers_nofile);
	int rc = runner_run_iteration(&f.cell, 0, "/bin/false", &res, err, sizeof(err));
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "poll: Invalid argument");
	iteration_result_free(&res);
	cell_free(&f);
}

static const char *stubborn_and_interrupter(size_t i)
{
	static char kill_rig[64];
	snprintf(kill_rig, sizeof(kill_rig), "sleep 0.3; kill -INT %d", (int)getpid());
	return i == 0 ? "trap '' TERM; sleep 30" : kill_rig;
}

/* Interrupted (SIGINT to the rig): a load that ignores SIGTERM is killed
 * RUNNER_INTERRUPT_GRACE_S after it. Last: the interrupt stays set. */
static void test_interrupt_grace(void **state)
{
	struct cell_fixture f;
	struct iteration_result res;
	char err[256] = "";
	(void)state;
	cell_init(&f, 2, stubborn_and_interrupter, NULL);
	int64_t t0 = mono_ns();
	assert_int_equal(runner_run_iteration(&f.cell, 0, "/bin/false", &res, err, sizeof(err)), 0);
	double took_s = (double)(mono_ns() - t0) / 1e9;
	assert_true(res.interrupted);
	assert_int_equal(runner_interrupt_signal(), SIGINT);
	assert_int_equal(res.r[0].state, INST_INTERRUPTED);
	assert_int_equal(res.r[0].term_signal, SIGKILL);
	if (took_s < 0.3 + RUNNER_INTERRUPT_GRACE_S - 0.1 || took_s > 0.3 + RUNNER_INTERRUPT_GRACE_S + 1.5)
		print_error("interrupted iteration took %.2f s\n", took_s);
	assert_true(took_s >= 0.3 + RUNNER_INTERRUPT_GRACE_S - 0.1);
	assert_true(took_s <= 0.3 + RUNNER_INTERRUPT_GRACE_S + 1.5);
	iteration_result_free(&res);
	cell_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_loads),
		cmocka_unit_test(test_no_fd_leak),
		cmocka_unit_test(test_own_cgroup),
		cmocka_unit_test(test_start_failures),
		cmocka_unit_test(test_poll_error),
		cmocka_unit_test(test_interrupt_grace),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
