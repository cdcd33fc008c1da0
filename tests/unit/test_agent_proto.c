/* The agent protocol (agent_proto.h): base64 against RFC 4648 section 10's
 * test vectors, and encode -> decode round trips of every line type and of
 * the plan file, including raw output that is not UTF-8. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "agent_proto.h"
#include "base64.h"

static void test_base64_rfc4648_vectors(void **state)
{
	static const char *const vec[][2] = {
		{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
		{"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
		{"foobar", "Zm9vYmFy"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		struct buf e = {0}, d = {0};
		base64_encode(&e, vec[i][0], strlen(vec[i][0]));
		assert_string_equal(buf_str(&e), vec[i][1]);
		assert_int_equal(base64_decode(&d, vec[i][1], strlen(vec[i][1])), 0);
		assert_int_equal(d.len, strlen(vec[i][0]));
		assert_memory_equal(buf_str(&d), vec[i][0], d.len);
		buf_free(&e);
		buf_free(&d);
	}
}

static void test_base64_rejects_garbage(void **state)
{
	struct buf d = {0};
	(void)state;
	assert_int_equal(base64_decode(&d, "Zm9", 3), -1);      /* length */
	assert_int_equal(base64_decode(&d, "Zm9*", 4), -1);     /* alphabet */
	assert_int_equal(base64_decode(&d, "Z===", 4), -1);     /* padding too early */
	assert_int_equal(base64_decode(&d, "Zg==Zg==", 8), -1); /* padding inside */
	buf_free(&d);
}

static void test_inst_round_trip(void **state)
{
	/* Bytes 0x00, 0xff and an invalid UTF-8 sequence survive. */
	static const char raw_out[] = "T: 0 ( 123) P: 0 I:1000 C: 4982 Min: 26\n\xff\xfe\x00tail";
	struct inst_result r = {0};
	struct buf line = {0};
	struct agent_msg m;
	char err[256];
	(void)state;

	r.repetition = 2;
	r.pid = 4242;
	snprintf(r.applied, sizeof(r.applied), "policy=other nice=19");
	r.state = INST_STOPPED;
	snprintf(r.reason, sizeof(r.reason), "stopped by SIGINT");
	r.exited = false;
	r.exit_code = 0;
	r.term_signal = 2;
	r.start_ns = 1234567890123LL;
	r.end_ns = 1234567890123LL + 5000000000LL;
	r.ru.ru_utime.tv_sec = 3;
	r.ru.ru_utime.tv_usec = 250000;
	r.ru.ru_stime.tv_sec = 0;
	r.ru.ru_stime.tv_usec = 999999;
	buf_append(&r.out, raw_out, sizeof(raw_out) - 1);
	buf_puts(&r.err, "warning: \x80\n");

	agent_encode_inst(&line, 3, 7, 1, &r);
	assert_int_equal(line.data[line.len - 1], '\n');
	assert_null(memchr(line.data, '\n', line.len - 1)); /* one line */
	assert_int_equal(agent_decode_line(line.data, line.len, &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_INST);
	assert_int_equal(m.cell, 3);
	assert_int_equal(m.iteration, 7);
	assert_int_equal(m.load, 1);
	assert_null(m.inst.pi);
	assert_int_equal(m.inst.repetition, 2);
	assert_int_equal(m.inst.pid, 4242);
	assert_string_equal(m.inst.applied, "policy=other nice=19");
	assert_int_equal(m.inst.state, INST_STOPPED);
	assert_string_equal(m.inst.reason, "stopped by SIGINT");
	assert_false(m.inst.exited);
	assert_int_equal(m.inst.term_signal, 2);
	assert_true(m.inst.start_ns == 1234567890123LL);
	assert_true(m.inst.end_ns == 1234567890123LL + 5000000000LL);
	assert_int_equal(m.inst.ru.ru_utime.tv_sec, 3);
	assert_int_equal(m.inst.ru.ru_utime.tv_usec, 250000);
	assert_int_equal(m.inst.ru.ru_stime.tv_sec, 0);
	assert_int_equal(m.inst.ru.ru_stime.tv_usec, 999999);
	assert_int_equal(m.inst.out.len, sizeof(raw_out) - 1);
	assert_memory_equal(m.inst.out.data, raw_out, sizeof(raw_out) - 1);
	assert_string_equal(buf_str(&m.inst.err), "warning: \x80\n");
	agent_msg_free(&m);
	buf_free(&line);
	buf_free(&r.out);
	buf_free(&r.err);
}

static void test_inst_empty_output(void **state)
{
	struct inst_result r = {0};
	struct buf line = {0};
	struct agent_msg m;
	char err[256];
	(void)state;

	r.state = INST_FAILED;
	r.exited = true;
	r.exit_code = 127;
	snprintf(r.reason, sizeof(r.reason), "cannot run hackbench: No such file or directory");
	agent_encode_inst(&line, 0, 1, 0, &r);
	assert_int_equal(agent_decode_line(line.data, line.len, &m, err, sizeof(err)), 0);
	assert_int_equal(m.inst.state, INST_FAILED);
	assert_int_equal(m.inst.exit_code, 127);
	assert_true(m.inst.exited);
	assert_int_equal(m.inst.out.len, 0);
	assert_int_equal(m.inst.err.len, 0);
	assert_string_equal(m.inst.reason, "cannot run hackbench: No such file or directory");
	agent_msg_free(&m);
	buf_free(&line);
}

/* A guest's background run that ended in the warm-up comes back as one. */
static void test_inst_warmup(void **state)
{
	struct inst_result r = {.state = INST_WARMUP, .exited = true};
	struct buf line = {0};
	struct agent_msg m;
	char err[256];
	(void)state;

	agent_encode_inst(&line, 0, 1, 0, &r);
	assert_int_equal(agent_decode_line(line.data, line.len, &m, err, sizeof(err)), 0);
	assert_int_equal(m.inst.state, INST_WARMUP);
	agent_msg_free(&m);
	buf_free(&line);
}

static void test_hello_iteration_knob_end(void **state)
{
	struct buf lines = {0};
	struct iteration_result res = {0};
	struct agent_msg m;
	char err[256];
	(void)state;

	res.n = 2;
	res.interrupted = true;
	snprintf(res.started_at, sizeof(res.started_at), "2024-05-01T10:00:00Z");
	snprintf(res.ended_at, sizeof(res.ended_at), "2024-05-01T10:00:07Z");
	agent_encode_hello(&lines, "6.1.0-57-amd64", "console=ttyS0 panic=-1 preempt=full", 1);
	agent_encode_iteration(&lines, 1, 2, &res);
	agent_encode_knob(&lines, "applied", 0, "sched_features", "NO_PLACE_LAG",
			  "/sys/kernel/debug/sched/features", "PLACE_LAG", "NO_PLACE_LAG",
			  "NO_PLACE_LAG");
	agent_encode_knob(&lines, "record", 1, "sysctl", "kernel.x", "/proc/sys/kernel/x", "1",
			  "0", NULL);
	agent_encode_end(&lines, false, "variant v: knob refused: EPERM", NULL);

	char *save = NULL, *l = strtok_r(lines.data, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_HELLO);
	assert_int_equal(m.proto, AGENT_PROTO_VERSION);
	assert_string_equal(m.release, "6.1.0-57-amd64");
	assert_string_equal(m.cmdline, "console=ttyS0 panic=-1 preempt=full");
	assert_int_equal(m.autogroup, 1);
	/* An agent without "autogroup" (older) reads as unknown; 2 is no value. */
	static const char old_hello[] =
		"{\"type\":\"hello\",\"proto\":3,\"release\":\"6.1\",\"cmdline\":\"x\"}";
	assert_int_equal(agent_decode_line(old_hello, strlen(old_hello), &m, err, sizeof(err)), 0);
	assert_int_equal(m.autogroup, -1);
	static const char bad_hello[] = "{\"type\":\"hello\",\"proto\":3,\"release\":\"6.1\","
					"\"cmdline\":\"x\",\"autogroup\":2}";
	assert_int_equal(agent_decode_line(bad_hello, strlen(bad_hello), &m, err, sizeof(err)), -1);

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_ITERATION);
	assert_int_equal(m.cell, 1);
	assert_int_equal(m.iteration, 2);
	assert_int_equal(m.n, 2);
	assert_true(m.interrupted);
	assert_string_equal(m.started_at, "2024-05-01T10:00:00Z");
	assert_string_equal(m.ended_at, "2024-05-01T10:00:07Z");

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_KNOB);
	assert_string_equal(m.event, "applied");
	assert_string_equal(m.kind, "sched_features");
	assert_string_equal(m.old_value, "PLACE_LAG");
	assert_true(m.has_applied);
	assert_string_equal(m.applied, "NO_PLACE_LAG");

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.seq, 1);
	assert_string_equal(m.path, "/proc/sys/kernel/x");
	assert_false(m.has_applied);

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_END);
	assert_false(m.ok);
	assert_string_equal(m.message, "variant v: knob refused: EPERM");
	buf_free(&lines);
}

static void test_decode_errors(void **state)
{
	struct agent_msg m;
	char err[256];
	static const char *const bad[] = {
		"Linux version 6.1.0 (console noise)",
		"[1,2]",
		"{\"type\":\"bogus\"}",
		"{\"type\":\"hello\",\"proto\":1}",
		"{\"type\":\"iteration\",\"cell\":-1,\"iteration\":1,\"n\":0,\"interrupted\":false,"
		"\"started_at\":\"\",\"ended_at\":\"\"}",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(agent_decode_line(bad[i], strlen(bad[i]), &m, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
	}
	/* An inst line whose stdout is not base64. */
	struct inst_result r = {.pid = 1, .exited = true};
	struct buf line = {0};
	agent_encode_inst(&line, 0, 1, 0, &r);
	char *p = strstr(line.data, "\"stdout\":\"");
	assert_non_null(p);
	memmove(p + 10 + 2, p + 10, strlen(p + 10) + 1);
	memcpy(p + 10, "!!", 2);
	assert_int_equal(agent_decode_line(line.data, strlen(line.data), &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "base64"));
	buf_free(&line);
}

/* Monitor series: one line per series, points grouped by series in the
 * set's order, NaN as null, doubles exact (%.17g). */
static void test_series_round_trip(void **state)
{
	static const struct stored_series series[] = {
		{"stat", "user_pct", -1, 0, 0},
		{"stat", "user_pct", 3, 0, 0},
		{"sched", "nr_involuntary_switches", -1, 4242, 4240},
		{"psi", "cpu_some_pct", -1, 0, 0},   /* no points */
	};
	static const struct stored_point points[] = {
		{0, 200.125, 12.5}, {1, 200.125, 0.1}, {2, 201.5, 17},
		{0, 400.25, NAN},   {1, 400.25, 99.99999999999999}, {2, 402, 1e15},
	};
	const struct stored_series_set set = {series, 4, points, 6};
	struct buf lines = {0};
	struct agent_msg m;
	char err[256];
	(void)state;

	agent_encode_series(&lines, 2, 3, &set);
	agent_encode_series(&lines, 2, 3, NULL);   /* nothing */
	size_t n_lines = 0;
	for (size_t i = 0; i < lines.len; i++)
		n_lines += lines.data[i] == '\n';
	assert_int_equal(n_lines, 4);
	assert_non_null(strstr(lines.data, "\"value\":[12.5,null]"));

	char *save = NULL, *l = strtok_r(lines.data, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_SERIES);
	assert_int_equal(m.cell, 2);
	assert_int_equal(m.iteration, 3);
	assert_string_equal(m.monitor, "stat");
	assert_string_equal(m.key, "user_pct");
	assert_int_equal(m.cpu, -1);
	assert_int_equal(m.pid, 0);
	assert_int_equal(m.n_points, 2);
	assert_true(m.t_ms[0] == 200.125 && m.value[0] == 12.5);
	assert_true(m.t_ms[1] == 400.25 && isnan(m.value[1]));
	agent_msg_free(&m);

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_int_equal(m.cpu, 3);
	assert_int_equal(m.n_points, 2);
	assert_true(m.value[1] == 99.99999999999999);
	agent_msg_free(&m);

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_string_equal(m.monitor, "sched");
	assert_string_equal(m.key, "nr_involuntary_switches");
	assert_int_equal(m.pid, 4242);
	assert_int_equal(m.tgid, 4240);
	assert_true(m.t_ms[0] == 201.5 && m.value[0] == 17);
	assert_true(m.t_ms[1] == 402 && m.value[1] == 1e15);
	agent_msg_free(&m);

	l = strtok_r(NULL, "\n", &save);
	assert_int_equal(agent_decode_line(l, strlen(l), &m, err, sizeof(err)), 0);
	assert_string_equal(m.key, "cpu_some_pct");
	assert_int_equal(m.n_points, 0);
	agent_msg_free(&m);
	buf_free(&lines);

	static const char *const bad[] = {
		/* arrays of different lengths */
		"{\"type\":\"series\",\"cell\":0,\"iteration\":1,\"monitor\":\"stat\",\"key\":\"k\","
		"\"cpu\":-1,\"pid\":0,\"tgid\":0,\"t_ms\":[1,2],\"value\":[1]}",
		/* a value that is not a number */
		"{\"type\":\"series\",\"cell\":0,\"iteration\":1,\"monitor\":\"stat\",\"key\":\"k\","
		"\"cpu\":-1,\"pid\":0,\"tgid\":0,\"t_ms\":[1],\"value\":[\"x\"]}",
		/* cpu below -1 */
		"{\"type\":\"series\",\"cell\":0,\"iteration\":1,\"monitor\":\"stat\",\"key\":\"k\","
		"\"cpu\":-2,\"pid\":0,\"tgid\":0,\"t_ms\":[],\"value\":[]}",
		/* key missing */
		"{\"type\":\"series\",\"cell\":0,\"iteration\":1,\"monitor\":\"stat\","
		"\"cpu\":-1,\"pid\":0,\"tgid\":0,\"t_ms\":[],\"value\":[]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(agent_decode_line(bad[i], strlen(bad[i]), &m, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "series"));
	}
}

static void test_plan_round_trip(void **state)
{
	char *cells[] = {"hackbench.groups=2", "hackbench.groups=4"};
	char *mods[] = {"/lib/modules/x/virtio.ko", "/lib/modules/x/virtio_console.ko"};
	struct agent_step run[] = {{0, 1}, {1, 1}, {1, 2}};
	struct agent_plan in = {
		.config_name = "configs/x.yaml", .config = "name: x\nloads: []\n# é\n",
		.variant = "v61", .iterations = 2, .cells = cells, .n_cells = 2,
		.modules = mods, .n_modules = 2, .run = run, .n_run = 3,
	}, out;
	char err[256];
	(void)state;

	char *text = agent_plan_encode(&in);
	assert_int_equal(agent_plan_decode(text, strlen(text), &out, err, sizeof(err)), 0);
	assert_int_equal(out.proto, AGENT_PROTO_VERSION);
	assert_string_equal(out.config_name, "configs/x.yaml");
	assert_string_equal(out.config, "name: x\nloads: []\n# é\n");
	assert_string_equal(out.variant, "v61");
	assert_int_equal(out.iterations, 2);
	assert_int_equal(out.n_cells, 2);
	assert_string_equal(out.cells[1], "hackbench.groups=4");
	assert_int_equal(out.n_modules, 2);
	assert_string_equal(out.modules[1], "/lib/modules/x/virtio_console.ko");
	assert_int_equal(out.n_run, 3);
	assert_int_equal(out.run[2].cell, 1);
	assert_int_equal(out.run[2].iteration, 2);
	assert_int_equal(out.run_id, 0);
	agent_plan_free(&out);
	free(text);
	in.run_id = 42;
	text = agent_plan_encode(&in);
	assert_int_equal(agent_plan_decode(text, strlen(text), &out, err, sizeof(err)), 0);
	assert_int_equal(out.run_id, 42);
	agent_plan_free(&out);
	free(text);
}

/* Version 3: the inst line's window sums and the trace lines round trip;
 * numbers out of range are refused. */
static void no_flush(void *ctx, struct buf *out)
{
	(void)ctx;
	(void)out;
}
#define NULL_FLUSH no_flush

static void test_window_and_trace(void **state)
{
	struct inst_result r = {.pid = 9, .exited = true, .state = INST_OK, .start_ns = 1,
				.end_ns = 2, .window_progress = 17};
	struct buf line = {0};
	struct agent_msg m;
	char err[256], path[] = "/tmp/schedrig-test-trace-XXXXXX";
	(void)state;

	r.window = (struct schedwin_totals){.valid = true, .v = {11, 22, 33, 44, 55, 66},
					    .tasks = 3, .cgroup_cpu_us = -1, .ns = 777};
	agent_encode_inst(&line, 0, 1, 0, &r);
	assert_int_equal(agent_decode_line(line.data, line.len, &m, err, sizeof(err)), 0);
	assert_true(m.inst.window.valid);
	for (int k = 0; k < SCHEDWIN_N; k++)
		assert_int_equal(m.inst.window.v[k], 11 * (k + 1));
	assert_int_equal(m.inst.window.tasks, 3);
	assert_true(m.inst.window.cgroup_cpu_us == -1 && m.inst.window.ns == 777);
	assert_true(m.inst.window_progress == 17);
	agent_msg_free(&m);
	line.len = 0;
	/* no window: none, and no progress */
	r.window.valid = false;
	r.window_progress = -1;
	agent_encode_inst(&line, 0, 1, 0, &r);
	assert_null(strstr(buf_str(&line), "window"));
	assert_int_equal(agent_decode_line(line.data, line.len, &m, err, sizeof(err)), 0);
	assert_false(m.inst.window.valid);
	assert_true(m.inst.window_progress == -1);
	agent_msg_free(&m);
	const char *neg = "{\"type\":\"inst\",\"cell\":0,\"iteration\":1,\"load\":0,\"repetition\":0,"
		"\"pid\":9,\"applied\":\"\",\"state\":\"ok\",\"reason\":\"\",\"exited\":true,"
		"\"exit_code\":0,\"term_signal\":0,\"start_ns\":1,\"end_ns\":2,\"user_us\":0,"
		"\"system_us\":0,\"stdout\":\"\",\"stderr\":\"\",\"window\":{\"run_ns\":-1,"
		"\"wait_ns\":0,\"timeslices\":0,\"voluntary\":0,\"involuntary\":0,\"migrations\":0,"
		"\"tasks\":1,\"ns\":1,\"cgroup_cpu_us\":-1,\"progress\":-1}}";
	assert_int_equal(agent_decode_line(neg, strlen(neg), &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "window"));

	/* a trace of 100000 bytes: three pieces and the end */
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct buf text = {0};
	for (int i = 0; i < 100000; i++)
		buf_append(&text, i % 61 ? "x" : "\n", 1);
	assert_int_equal(write(fd, text.data, text.len), (ssize_t)text.len);
	close(fd);
	struct trace_result t = {.captured = true, .lines = 5, .lost = 2, .window_start_ns = 10,
				 .window_end_ns = 20};
	snprintf(t.path, sizeof(t.path), "%s", path);
	snprintf(t.warning, sizeof(t.warning), "w");
	line.len = 0;
	assert_int_equal(agent_encode_trace(&line, 1, 2, &t, NULL_FLUSH, NULL, err, sizeof(err)), 0);
	unlink(path);
	struct buf back = {0};
	int pieces = 0, ends = 0;
	for (char *l = line.data, *nl; l < line.data + line.len; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(line.data + line.len - l));
		assert_int_equal(agent_decode_line(l, (size_t)(nl - l), &m, err, sizeof(err)), 0);
		assert_int_equal(m.cell, 1);
		assert_int_equal(m.iteration, 2);
		if (m.type == AGENT_MSG_TRACE) {
			pieces++;
			assert_true(m.trace_data.len <= AGENT_TRACE_CHUNK);
			buf_append(&back, m.trace_data.data, m.trace_data.len);
		} else {
			assert_int_equal(m.type, AGENT_MSG_TRACE_END);
			ends++;
			assert_int_equal(m.trace.bytes, 100000);
			assert_int_equal(m.trace.lines, 5);
			assert_int_equal(m.trace.lost, 2);
			assert_true(m.trace.window_start_ns == 10 && m.trace.window_end_ns == 20);
			assert_string_equal(m.trace.warning, "w");
		}
		agent_msg_free(&m);
	}
	assert_int_equal(pieces, 3);
	assert_int_equal(ends, 1);
	assert_int_equal(back.len, text.len);
	assert_memory_equal(back.data, text.data, text.len);
	const char *bad_end = "{\"type\":\"trace_end\",\"cell\":0,\"iteration\":1,\"bytes\":5,"
		"\"lines\":1,\"lost\":0,\"window_start_ns\":9,\"window_end_ns\":8,\"warning\":\"\"}";
	assert_int_equal(agent_decode_line(bad_end, strlen(bad_end), &m, err, sizeof(err)), -1);
	buf_free(&back);
	buf_free(&text);
	buf_free(&line);
}

/* The host line and the end line's agent_cpu read back as written; a
 * field named twice, a value with a newline, too many notes are refused. */
static void test_host_and_cpu(void **state)
{
	struct buf b = {0};
	struct host_fp fp = {0};
	struct argv notes = {0};
	struct agent_msg m;
	char err[256];
	(void)state;
	hostfp_add(&fp, "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled", true, "never");
	hostfp_add(&fp, "loadavg", "/proc/loadavg", false, "0.10 0.20 0.30");
	argv_add(&notes, "irq_affinity: IRQ 9: EIO");
	agent_encode_host(&b, &fp, &notes);
	assert_int_equal(agent_decode_line(b.data, b.len, &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, AGENT_MSG_HOST);
	assert_int_equal(m.fp.n, 2);
	assert_string_equal(m.fp.v[0].field, "thp.enabled");
	assert_string_equal(m.fp.v[0].value, "never");
	assert_string_equal(m.fp.v[0].source, "/sys/kernel/mm/transparent_hugepage/enabled");
	assert_true(m.fp.v[0].stable);
	assert_false(m.fp.v[1].stable);
	assert_int_equal(m.notes.n, 1);
	assert_string_equal(m.notes.v[0], "irq_affinity: IRQ 9: EIO");
	agent_msg_free(&m);
	b.len = 0;
	struct agent_cpu cpu = {1500, 500, 3000000};
	agent_encode_end(&b, true, "", &cpu);
	assert_int_equal(agent_decode_line(b.data, b.len, &m, err, sizeof(err)), 0);
	assert_true(m.has_cpu);
	assert_int_equal(m.cpu_user_us, 1500);
	assert_int_equal(m.cpu_system_us, 500);
	assert_int_equal(m.cpu_wall_us, 3000000);
	agent_msg_free(&m);
	static const char *const bad[] = {
		"{\"type\":\"host\",\"fields\":[{\"field\":\"a\",\"value\":\"1\",\"source\":\"s\","
		"\"stable\":true},{\"field\":\"a\",\"value\":\"2\",\"source\":\"s\",\"stable\":true}],"
		"\"notes\":[]}",
		"{\"type\":\"host\",\"fields\":[{\"field\":\"a\",\"value\":\"1\\n2\",\"source\":\"s\","
		"\"stable\":true}],\"notes\":[]}",
		"{\"type\":\"host\",\"fields\":{},\"notes\":[]}",
		"{\"type\":\"end\",\"status\":\"ok\",\"message\":\"\",\"agent_cpu\":{\"user_us\":-1,"
		"\"system_us\":0,\"wall_us\":1}}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!agent_decode_line(bad[i], strlen(bad[i]), &m, err, sizeof(err)))
			fail_msg("line %zu accepted", i);
	}
	hostfp_free(&fp);
	argv_free(&notes);
	buf_free(&b);
}

static void test_plan_errors(void **state)
{
	struct agent_plan out;
	char err[256];
	static const char wrong_version[] =
		"{\"schedrig_agent\":99,\"config_name\":\"a\",\"config\":\"\",\"variant\":\"v\","
		"\"iterations\":1,\"cells\":[],\"modules\":[],\"run\":[]}";
	static const char bad_step[] =
		"{\"schedrig_agent\":3,\"config_name\":\"a\",\"config\":\"\",\"variant\":\"v\","
		"\"iterations\":1,\"cells\":[\"c\"],\"modules\":[],\"run\":[[0,2]]}";
	(void)state;
	assert_int_equal(agent_plan_decode(wrong_version, strlen(wrong_version), &out, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "protocol version 99"));
	assert_int_equal(agent_plan_decode(bad_step, strlen(bad_step), &out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'run' item 0"));
	assert_int_equal(agent_plan_decode("{", 1, &out, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base64_rfc4648_vectors),
		cmocka_unit_test(test_base64_rejects_garbage),
		cmocka_unit_test(test_inst_round_trip),
		cmocka_unit_test(test_inst_warmup),
		cmocka_unit_test(test_inst_empty_output),
		cmocka_unit_test(test_hello_iteration_knob_end),
		cmocka_unit_test(test_decode_errors),
		cmocka_unit_test(test_series_round_trip),
		cmocka_unit_test(test_plan_round_trip),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_window_and_trace),
		cmocka_unit_test(test_host_and_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
