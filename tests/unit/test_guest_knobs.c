/* Guest knobs: the knob lines a qemu guest's agent streams go through the
 * host's agent session into the knob table of a real SQLite file (the host's
 * journal, knob_journal.h), marked as the guest's; what the guest did not
 * report restored is marked restored when the guest is gone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_host.h"
#include "agent_proto.h"
#include "knob_journal.h"
#include "store.h"

static char dir[] = "/tmp/schedrig-guest-knobs.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static int on_kernel(void *ctx, const struct variant_kernel *k)
{
	(void)ctx;
	(void)k;
	return 0;
}

static void line(struct agent_session *s, struct buf *b, char *err, size_t errsz)
{
	agent_session_line(s, b->data, b->len, err, errsz);
	b->len = 0;
}

/* Feed hello and the knob lines of two changes; the guest restores only the
 * first before it is gone. */
static void feed(struct agent_session *s, char *err, size_t errsz)
{
	struct buf b = {0};
	agent_encode_hello(&b, "6.1.0-57-amd64", "console=ttyS0", 0);
	line(s, &b, err, errsz);
	agent_encode_knob(&b, "record", 0, "debugfs", "latency_ns",
			  "/sys/kernel/debug/sched/latency_ns", "6000000", "12000000", NULL);
	line(s, &b, err, errsz);
	agent_encode_knob(&b, "applied", 0, "debugfs", "latency_ns",
			  "/sys/kernel/debug/sched/latency_ns", "6000000", "12000000", "12000000");
	line(s, &b, err, errsz);
	agent_encode_knob(&b, "record", 1, "sched_features", "NO_GENTLE_FAIR_SLEEPERS",
			  "/sys/kernel/debug/sched/features", "GENTLE_FAIR_SLEEPERS",
			  "NO_GENTLE_FAIR_SLEEPERS", NULL);
	line(s, &b, err, errsz);
	agent_encode_knob(&b, "applied", 1, "sched_features", "NO_GENTLE_FAIR_SLEEPERS",
			  "/sys/kernel/debug/sched/features", "GENTLE_FAIR_SLEEPERS",
			  "NO_GENTLE_FAIR_SLEEPERS", "NO_GENTLE_FAIR_SLEEPERS");
	line(s, &b, err, errsz);
	agent_encode_knob(&b, "restored", 0, "debugfs", "latency_ns",
			  "/sys/kernel/debug/sched/latency_ns", "6000000", "12000000", "12000000");
	line(s, &b, err, errsz);
	buf_free(&b);
}

static void test_guest_rows(void **state)
{
	(void)state;
	char path[256], err[512] = "";
	struct store *st;
	int64_t run;
	struct stored_knob *rows;
	size_t n;

	snprintf(path, sizeof(path), "%s/g.db", dir);
	assert_int_equal(store_open(path, false, &st, err, sizeof(err)), 0);
	struct run_info ri = {.name = "g", .config_text = "name: g\n", .iterations = 1};
	assert_int_equal(store_run_begin(st, &ri, &run, err, sizeof(err)), 0);
	struct knob_db_journal kj;
	knob_db_journal_init(&kj, st, run, "v61");
	struct cfg_variant v = {.name = "v61"};
	struct plan p = {0};
	struct variant_run vr = {.v = &v, .p = &p, .on_kernel = on_kernel, .journal = &kj.ops};
	struct agent_session s = {.vr = &vr, .label = "qemu", .where = "the guest",
				  .t0_s = agent_mono_s(), .knob_host = KNOB_HOST_GUEST_PREFIX "v61"};

	feed(&s, err, sizeof(err));
	assert_false(s.failed);
	assert_int_equal(store_knob_list(st, run, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].host, "guest:v61");
	assert_string_equal(rows[0].boot_id, KNOB_GUEST_BOOT_ID);
	assert_string_equal(rows[0].applied_value, "12000000");
	assert_non_null(rows[0].restored_at);
	assert_string_equal(rows[1].name, "NO_GENTLE_FAIR_SLEEPERS");
	assert_string_equal(rows[1].old_value, "GENTLE_FAIR_SLEEPERS");
	assert_string_equal(rows[1].applied_value, "NO_GENTLE_FAIR_SLEEPERS");
	assert_null(rows[1].restored_at);
	assert_true(knob_host_is_guest(rows[1].host));
	store_knob_rows_free(rows, n);

	/* The guest is gone: its last knob died with it. */
	assert_int_equal(agent_session_knobs_gone(&s, err, sizeof(err)), 0);
	assert_int_equal(store_knob_unrestored(st, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	store_knob_rows_free(rows, n);

	/* A knob restored that was never recorded fails the session. */
	struct buf b = {0};
	agent_encode_knob(&b, "restored", 7, "sysctl", "kernel.x", "/proc/sys/kernel/x", "1", "0",
			  "0");
	line(&s, &b, err, sizeof(err));
	buf_free(&b);
	assert_true(s.failed);
	assert_non_null(strstr(err, "knob 7 (kernel.x) restored but never recorded"));
	agent_session_free(&s);
	knob_db_journal_free(&kj);
	store_close(st);
}

/* Without knob_host (boot: ssh today) knob lines only pass by. */
static void test_no_knob_host(void **state)
{
	(void)state;
	char err[512] = "";
	int calls = 0;
	struct knob_journal_ops ops = {.ctx = &calls};
	struct cfg_variant v = {.name = "box"};
	struct plan p = {0};
	struct variant_run vr = {.v = &v, .p = &p, .on_kernel = on_kernel, .journal = &ops};
	struct agent_session s = {.vr = &vr, .label = "ssh", .where = "box", .t0_s = agent_mono_s()};

	feed(&s, err, sizeof(err));
	assert_false(s.failed);
	assert_int_equal(s.n_knobs, 0);
	assert_int_equal(agent_session_knobs_gone(&s, err, sizeof(err)), 0);
	agent_session_free(&s);
	assert_false(knob_host_is_guest("box"));
	assert_false(knob_host_is_guest(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_rows),
		cmocka_unit_test(test_no_knob_host),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
