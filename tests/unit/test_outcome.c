/* Unit tests of harness/iteration/outcome.c: what a finished instance stores, for real
 * drivers on real (captured) output: a rate of 0 is a failure, a failure's
 * reason is the tool's own line, nothing non-finite is stored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "outcome.h"

extern const struct load_ops netperf_tcp_rr_load;
extern const struct load_ops hackbench_load;
extern const struct load_ops kernbench_load;
extern const struct load_ops sysbench_load;
extern const struct load_ops schbench_load;
extern const struct load_ops perf_pipe_load;

/* FIXTURES/NAME (tests/run-tests sets FIXTURES), NAME e.g.
 * "tool-output/x.txt", malloc'd. */
static char *fixture(const char *name, size_t *len)
{
	const char *dir = getenv("FIXTURES");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *b = calloc(1, 1 << 20);
	assert_non_null(b);
	*len = fread(b, 1, (1 << 20) - 1, f);
	fclose(f);
	return b;
}

/* The driver's default parameters. */
static struct params defaults(const struct load_ops *ops, struct param_value *v)
{
	for (size_t i = 0; i < ops->n_params; i++)
		v[i] = (struct param_value){ops->params[i].name, ops->params[i].default_value};
	return (struct params){ops->n_params, v};
}

static enum inst_state decide(const struct load_ops *ops, enum inst_state state, const char *out,
			      const char *err, int exit_code, struct sample_vec *s, char *reason,
			      size_t reasonsz)
{
	struct param_value v[32];
	struct params p = defaults(ops, v);
	struct load_output o = {
		.out = out, .out_len = strlen(out), .err = err, .err_len = strlen(err),
		.exit_code = exit_code,
	};
	return outcome_decide(ops, &p, state, &o, s, reason, reasonsz);
}

/* netperf's rate of exactly 0 is a failed run, not a sample; any other
 * rate is one. */
static void test_zero_rate(void **state)
{
	(void)state;
	struct sample_vec s = {0};
	char reason[256] = "";
	const char *zero = "16384  131072 1        1       10.00    0.00   \n16384  131072\n";
	assert_int_equal(decide(&netperf_tcp_rr_load, INST_OK, zero, "", 0, &s, reason,
				sizeof(reason)), INST_FAILED);
	assert_int_equal(s.n, 0);
	assert_string_equal(reason, "transactions_per_s is 0 transactions/s: the tool measured"
			    " nothing, a failed run");
	const char *some = "16384  131072 1        1       10.00    0.01   \n16384  131072\n";
	reason[0] = '\0';
	assert_int_equal(decide(&netperf_tcp_rr_load, INST_OK, some, "", 0, &s, reason,
				sizeof(reason)), INST_OK);
	assert_int_equal(s.n, 1);
	assert_true(s.v[0].value == 0.01);
	assert_string_equal(reason, "");
	sample_vec_free(&s);
	/* The same rule for every driver whose headline is a rate. */
	const char *sb = "CPU speed:\n    events per second:     0.00\n\nGeneral statistics:\n"
			 "    total time:                          2.0001s\n"
			 "    total number of events:              0\n\nLatency (ms):\n"
			 "         min:                                    0.00\n"
			 "         avg:                                    0.00\n"
			 "         max:                                    0.00\n"
			 "         95th percentile:                        0.00\n\n";
	assert_int_equal(decide(&sysbench_load, INST_OK, sb, "", 0, &s, reason, sizeof(reason)),
			 INST_FAILED);
	assert_non_null(strstr(reason, "events_per_s is 0 events/s"));
}

/* The captured schbench report (load-drivers/schbench-m1-t2-r20) with
 * the line starting with from replaced by to; malloc'd. */
static char *schbench_edited(const char *from, const char *to)
{
	size_t len;
	char *text = fixture("load-drivers/schbench-m1-t2-r20.stderr.txt", &len);
	char *at = strstr(text, from);
	assert_non_null(at);
	size_t cut = strcspn(at, "\n");
	char *out = malloc(len + strlen(to) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + cut);
	free(text);
	return out;
}

/* A rate that is not the headline metric is no sample at 0 either:
 * schbench's headline is wakeup_latency, its rps a rate (avg and its
 * percentiles alike). */
static void test_zero_secondary_rate(void **state)
{
	(void)state;
	struct sample_vec s = {0};
	char reason[256] = "";
	char *text = schbench_edited("average rps:", "average rps: 0.00");
	assert_int_equal(decide(&schbench_load, INST_OK, "", text, 0, &s, reason, sizeof(reason)),
			 INST_FAILED);
	assert_int_equal(s.n, 0);
	assert_string_equal(reason, "rps avg is 0 requests/s: the tool measured nothing, a failed run");
	free(text);
	text = schbench_edited("	  min=4032, max=4143\naverage", "	  min=0, max=4143\naverage");
	assert_int_equal(decide(&schbench_load, INST_OK, "", text, 0, &s, reason, sizeof(reason)),
			 INST_FAILED);
	assert_string_equal(reason, "rps min is 0 requests/s: the tool measured nothing, a failed run");
	free(text);
	/* The report as captured: samples. */
	size_t len;
	text = fixture("load-drivers/schbench-m1-t2-r20.stderr.txt", &len);
	reason[0] = '\0';
	assert_int_equal(decide(&schbench_load, INST_OK, "", text, 0, &s, reason, sizeof(reason)),
			 INST_OK);
	assert_true(s.n > 0);
	sample_vec_free(&s);
	free(text);
}

/* hackbench out of descriptors (captured with prlimit --nofile=16): the
 * reason is its own line, then the runner's. */
static void test_hackbench_emfile(void **state)
{
	(void)state;
	size_t ol, el;
	char *out = fixture("tool-output/hackbench-emfile.txt", &ol);
	char *err = fixture("tool-output/hackbench-emfile.stderr.txt", &el);
	struct sample_vec s = {0};
	char reason[256] = "exit status 1";
	assert_int_equal(decide(&hackbench_load, INST_FAILED, out, err, 1, &s, reason,
				sizeof(reason)), INST_FAILED);
	assert_string_equal(reason, "Creating fdpair (error: Too many open files) (exit status 1)");
	/* A timeout keeps its cause too. */
	snprintf(reason, sizeof(reason), "killed after timeout_s=60");
	assert_int_equal(decide(&hackbench_load, INST_TIMEOUT, out, err, 0, &s, reason,
				sizeof(reason)), INST_TIMEOUT);
	assert_string_equal(reason,
			    "Creating fdpair (error: Too many open files) (killed after timeout_s=60)");
	assert_int_equal(s.n, 0);
	free(out);
	free(err);
}

/* kernbench (the built-in's stderr when the build log had gcc's line):
 * the compiler's words lead the reason. */
static void test_kernbench_killed(void **state)
{
	(void)state;
	const char *err = "schedrig load kernbench: gcc: fatal error: Killed signal terminated"
			  " program cc1\nschedrig load kernbench: make exited 0, but a compiler was"
			  " killed (the OOM killer?); log /x/build.log\n";
	struct sample_vec s = {0};
	char reason[256] = "exit status 1";
	assert_int_equal(decide(&kernbench_load, INST_FAILED, "", err, 1, &s, reason,
				sizeof(reason)), INST_FAILED);
	assert_string_equal(reason, "schedrig load kernbench: gcc: fatal error: Killed signal"
			    " terminated program cc1 (exit status 1)");
}

/* A stopped background load of a driver that does not summarize stays
 * stopped, with no sample and its reason untouched. */
static void test_stopped(void **state)
{
	(void)state;
	struct sample_vec s = {0};
	char reason[64] = "";
	assert_int_equal(decide(&hackbench_load, INST_STOPPED, "Time: 1.0\n", "", 0, &s, reason,
				sizeof(reason)), INST_STOPPED);
	assert_int_equal(s.n, 0);
	assert_string_equal(reason, "");
}

/* A background run that ended in the warm-up is parsed (so garbage is
 * still a failure) but yields no sample: it met no measured load. */
static void test_warmup(void **state)
{
	(void)state;
	struct sample_vec s = {0};
	char reason[128] = "";
	assert_int_equal(decide(&hackbench_load, INST_WARMUP, "Time: 1.0\n", "", 0, &s, reason,
				sizeof(reason)), INST_WARMUP);
	assert_int_equal(s.n, 0);
	assert_string_equal(reason, "ended in the warm-up, before the measured loads started:"
			    " not a sample");
	assert_int_equal(decide(&hackbench_load, INST_WARMUP, "garbage\n", "", 0, &s, reason,
				sizeof(reason)), INST_FAILED);
	assert_int_equal(s.n, 0);
}

/* Good hackbench output from a load the kernel did not give its slice (a
 * 6.1 kernel reads back slice_us=0) is a failure naming both, not a sample. */
static void test_sched_not_applied(void **state)
{
	(void)state;
	size_t ol;
	char *out = fixture("tool-output/hackbench-process-pipe.txt", &ol);
	struct param_value v[32];
	struct params p = defaults(&hackbench_load, v);
	struct load_output o = {
		.out = out, .out_len = ol, .err = "", .sched_requested = "slice_us=200",
		.sched_applied = "policy=other nice=0 slice_us=0",
	};
	struct sample_vec s = {0};
	char reason[256] = "";
	assert_int_equal(outcome_decide(&hackbench_load, &p, INST_OK, &o, &s, reason,
					sizeof(reason)), INST_FAILED);
	assert_string_equal(reason, "scheduling attributes not applied: slice_us: requested 200,"
			    " applied 0 (applied: policy=other nice=0 slice_us=0)");
	assert_int_equal(s.n, 0);
	o.sched_applied = "policy=other nice=0 slice_us=200";
	assert_int_equal(outcome_decide(&hackbench_load, &p, INST_OK, &o, &s, reason,
					sizeof(reason)), INST_OK);
	assert_true(s.n > 0);
	sample_vec_free(&s);
	free(out);
}

/* A duration of no time (load_ops.durations) is a failed run: hackbench's
 * "Time: 0.000" and "Time: -0.0", perf's "Total time: 0.000" and
 * "0.000000 usecs/op"; 0.001 s is a sample. */
static void test_no_time(void **state)
{
	(void)state;
	static const struct {
		const struct load_ops *ops;
		const char *out, *why;
	} cases[] = {
		{&hackbench_load, "Running in process mode with 10 groups using 40 file descriptors"
		 " each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: 0.000\n",
		 "time 4 is 0 s: a duration of no time, a failed run"},
		{&hackbench_load, "Running in process mode with 10 groups using 40 file descriptors"
		 " each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: -0.0\n",
		 "time 4 is -0 s: a duration of no time, a failed run"},
		{&perf_pipe_load, "# Running 'sched/pipe' benchmark:\n# Executed 100000 pipe operations"
		 " between two processes\n\n     Total time: 0.000 [sec]\n\n       40.678120 usecs/op\n"
		 "          24583 ops/sec\n", "time is 0 s: a duration of no time, a failed run"},
		{&perf_pipe_load, "# Running 'sched/pipe' benchmark:\n# Executed 100000 pipe operations"
		 " between two processes\n\n     Total time: 4.067 [sec]\n\n        0.000000 usecs/op\n"
		 "          24583 ops/sec\n", "usecs_per_op is 0 us: a duration of no time, a failed run"},
		{&hackbench_load, "Running in process mode with 10 groups using 40 file descriptors"
		 " each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: 0.001\n",
		 NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sample_vec s = {0};
		char reason[256] = "";
		enum inst_state st = decide(cases[i].ops, INST_OK, cases[i].out, "", 0, &s, reason,
					    sizeof(reason));
		if (cases[i].why) {
			assert_int_equal(st, INST_FAILED);
			assert_string_equal(reason, cases[i].why);
			assert_int_equal(s.n, 0);
		} else {
			assert_int_equal(st, INST_OK);
			assert_true(s.n == 1 && s.v[0].value == 0.001);
		}
		sample_vec_free(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_rate),
		cmocka_unit_test(test_zero_secondary_rate),
		cmocka_unit_test(test_hackbench_emfile),
		cmocka_unit_test(test_kernbench_killed),
		cmocka_unit_test(test_stopped),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_sched_not_applied),
		cmocka_unit_test(test_no_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
