/* The host's side of the agent protocol trusts nothing the guest or remote
 * machine says: every line is checked against the plan the host sent (a
 * real config and plan here: 2 cells x 2 iterations, two loads per cell,
 * one of them a repeating background load). */
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
#include "config.h"
#include "plan.h"

static const char config[] =
	"name: s\n"
	"iterations: 2\n"
	"loads:\n"
	"  - {name: bg, tool: fake, role: background, repeat: true}\n"
	"  - {name: m, tool: fake, params: {mean: [10, 20]}}\n";

struct fix {
	struct experiment *e;
	struct plan p;
	struct variant_run vr;
	struct agent_session s;
	int stored;            /* on_iteration calls */
	size_t last_n;         /* results of the last one */
	struct trace_result last_trace; /* and its trace */
	struct buf trace_text; /* that trace's file as handed over */
	int hosts;             /* on_host calls */
	char thp[64];          /* thp.enabled of the last one */
	size_t notes;          /* its notes */
	bool refuse_host;      /* on_host refuses */
	char note[512];        /* the last vr->note */
	char err[512];
};

static int on_kernel(void *ctx, const struct variant_kernel *k)
{
	(void)ctx;
	(void)k;
	return 0;
}

static int on_iteration(void *ctx, size_t cell, int it, struct iteration_result *res)
{
	struct fix *f = ctx;
	(void)cell;
	(void)it;
	f->stored++;
	f->last_n = res->n;
	f->last_trace = res->trace;
	buf_free(&f->trace_text);
	if (res->trace.captured)
		buf_read_file(&f->trace_text, res->trace.path, 1 << 20);
	return 0;
}

static int on_host(void *ctx, const struct host_fp *fp, const struct argv *notes, char *err,
		   size_t errsz)
{
	struct fix *f = ctx;
	const struct host_field *thp = hostfp_get(fp, "thp.enabled");
	f->hosts++;
	snprintf(f->thp, sizeof(f->thp), "%s", thp ? thp->value : "");
	f->notes = notes->n;
	return f->refuse_host ? err_printf(err, errsz, "thp.enabled reads %s", f->thp) : 0;
}

static int on_note(void *ctx, const char *kind, const char *message)
{
	struct fix *f = ctx;
	snprintf(f->note, sizeof(f->note), "%s: %s", kind, message);
	return 0;
}

static void fix_init(struct fix *f)
{
	memset(f, 0, sizeof(*f));
	f->e = config_parse("s.yaml", config, strlen(config), f->err, sizeof(f->err));
	assert_non_null(f->e);
	assert_int_equal(plan_build(f->e, &f->p, f->err, sizeof(f->err)), 0);
	assert_int_equal(f->p.n_cells, 2);
	f->vr = (struct variant_run){.e = f->e, .v = &f->e->variants[0], .p = &f->p, .iterations = 2,
				     .on_kernel = on_kernel, .on_iteration = on_iteration, .ctx = f,
				     .on_host = on_host, .note = on_note};
	f->s = (struct agent_session){.vr = &f->vr, .label = "qemu", .where = "the guest"};
}

static void fix_free(struct fix *f)
{
	buf_free(&f->trace_text);
	agent_session_free(&f->s);
	plan_free(&f->p);
	experiment_free(f->e);
}

/* Feed one encoded line (b is emptied). */
static void feed(struct fix *f, struct buf *b)
{
	agent_session_line(&f->s, b->data, b->len, f->err, sizeof(f->err));
	b->len = 0;
}

/* The host line of a guest whose THP reads thp, with a note. */
static void host_line(struct fix *f, const char *thp)
{
	struct buf b = {0};
	struct host_fp fp = {0};
	struct argv notes = {0};
	hostfp_add(&fp, "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled", true, "%s", thp);
	hostfp_add(&fp, "cpu.online", "/sys/devices/system/cpu/online", true, "0-3");
	hostfp_add(&fp, "rig.cpus", "/proc/self/status", true, "0");
	argv_add(&notes, "irq_affinity: IRQ 36: EIO");
	agent_encode_host(&b, &fp, &notes);
	feed(f, &b);
	buf_free(&b);
	hostfp_free(&fp);
	argv_free(&notes);
}

/* hello, then the host line. */
static void hello(struct fix *f)
{
	struct buf b = {0};
	agent_encode_hello(&b, "6.1.0", "console=ttyS0", 1);
	feed(f, &b);
	buf_free(&b);
	assert_false(f->s.failed);
	host_line(f, "never");
	assert_false(f->s.failed);
}

/* The inst line of load (0 bg, 1 m) of (cell, it), repetition rep. */
static void inst(struct fix *f, size_t cell, int it, size_t load, int rep)
{
	struct buf b = {0};
	struct inst_result r = {.repetition = rep, .pid = 100, .exited = true, .state = INST_OK,
				.start_ns = 1, .end_ns = 2};
	agent_encode_inst(&b, cell, it, load, &r);
	feed(f, &b);
	buf_free(&b);
}

static void iteration(struct fix *f, size_t cell, int it, size_t n, bool interrupted)
{
	struct buf b = {0};
	struct iteration_result res = {.n = n, .interrupted = interrupted};
	agent_encode_iteration(&b, cell, it, &res);
	feed(f, &b);
	buf_free(&b);
}

static void end(struct fix *f, bool ok)
{
	struct buf b = {0};
	struct agent_cpu cpu = {30000, 10000, 20000000};
	agent_encode_end(&b, ok, ok ? "" : "bad", &cpu);
	feed(f, &b);
	buf_free(&b);
}

static void expect_failure(struct fix *f, const char *part)
{
	assert_true(f->s.failed);
	if (!strstr(f->err, part))
		print_error("'%s' not in '%s'\n", part, f->err);
	assert_non_null(strstr(f->err, part));
}

/* An agent of another protocol (a stale schedrig-agent): its hello is
 * refused, both versions named, before anything of it is stored. */
static void test_other_protocol(void **state)
{
	struct fix f;
	(void)state;
	fix_init(&f);
	static const char line[] =
		"{\"type\":\"hello\",\"proto\":1,\"release\":\"6.1.0\",\"cmdline\":\"x\"}";
	agent_session_line(&f.s, line, strlen(line), f.err, sizeof(f.err));
	expect_failure(&f, "the guest's agent speaks agent protocol 1, this schedrig speaks 3");
	assert_false(f.s.hello);
	assert_int_equal(f.stored, 0);
	fix_free(&f);
}

/* The whole plan, in order, with a background repetition: accepted. */
static void test_whole_plan(void **state)
{
	struct fix f;
	(void)state;
	fix_init(&f);
	hello(&f);
	for (size_t c = 0; c < 2; c++) {
		for (int it = 1; it <= 2; it++) {
			inst(&f, c, it, 0, 0);
			inst(&f, c, it, 0, 1);
			inst(&f, c, it, 1, 0);
			iteration(&f, c, it, 3, false);
		}
	}
	end(&f, true);
	assert_false(f.s.failed);
	assert_int_equal(f.stored, 4);
	assert_int_equal(f.last_n, 3);
	assert_true(f.s.end_ok);
	/* The fingerprint reached on_host; the agent's CPU is a note: 0.04 s
	 * of 20 s is 0.2 % of one CPU, over 3 measured CPUs (online 0-3 less
	 * the agent's 0). */
	assert_int_equal(f.hosts, 1);
	assert_string_equal(f.thp, "never");
	assert_int_equal(f.notes, 1);
	assert_string_equal(f.note, "note: agent cpu: variant running: user_s=0.030000 system_s=0.010000"
			    " wall_s=20.000000 pct_of_one_cpu=0.2000 measured_cpus=3"
			    " pct_per_measured_cpu=0.06667");
	fix_free(&f);
}

/* The host line comes once, before the first step, and before an end ok;
 * on_host's refusal fails the session; a field name that is none is
 * refused. */
static void test_host_line(void **state)
{
	struct fix f;
	struct buf b = {0};
	(void)state;
	fix_init(&f);
	hello(&f);
	host_line(&f, "never");
	expect_failure(&f, "a host line twice");
	fix_free(&f);

	fix_init(&f);
	agent_encode_hello(&b, "6.1.0", "console=ttyS0", 1);
	feed(&f, &b);
	inst(&f, 0, 1, 0, 0);
	expect_failure(&f, "an inst line before the host line");
	fix_free(&f);

	fix_init(&f);
	agent_encode_hello(&b, "6.1.0", "console=ttyS0", 1);
	feed(&f, &b);
	end(&f, true);
	expect_failure(&f, "the agent ended ok after 0 of the plan's 4 iterations");
	fix_free(&f);

	fix_init(&f);
	f.refuse_host = true;
	agent_encode_hello(&b, "6.1.0", "console=ttyS0", 1);
	feed(&f, &b);
	host_line(&f, "madvise");
	expect_failure(&f, "thp.enabled reads madvise");
	fix_free(&f);

	fix_init(&f);
	agent_encode_hello(&b, "6.1.0", "console=ttyS0", 1);
	feed(&f, &b);
	static const char bad[] = "{\"type\":\"host\",\"fields\":[{\"field\":\"../etc\","
				  "\"value\":\"x\",\"source\":\"y\",\"stable\":true}],\"notes\":[]}";
	agent_session_line(&f.s, bad, strlen(bad), f.err, sizeof(f.err));
	expect_failure(&f, "is not a field name");
	fix_free(&f);
	buf_free(&b);
}

/* An iteration line with no instances is not a complete iteration. */
static void test_empty_iteration(void **state)
{
	struct fix f;
	(void)state;
	fix_init(&f);
	hello(&f);
	iteration(&f, 0, 1, 0, false);
	expect_failure(&f, "ended without a result of load 0");
	assert_int_equal(f.stored, 0);
	fix_free(&f);
	/* ... nor one missing a load. */
	fix_init(&f);
	hello(&f);
	inst(&f, 0, 1, 0, 0);
	iteration(&f, 0, 1, 1, false);
	expect_failure(&f, "ended without a result of load 1");
	assert_int_equal(f.stored, 0);
	fix_free(&f);
	/* An interrupted one may lack loads (it is stored as interrupted). */
	fix_init(&f);
	hello(&f);
	iteration(&f, 0, 1, 0, true);
	assert_false(f.s.failed);
	assert_int_equal(f.stored, 1);
	fix_free(&f);
}

/* An iteration number beyond int is refused, not narrowed (2^32 + 1 would
 * have become iteration 1). */
static void test_iteration_narrowing(void **state)
{
	struct fix f;
	(void)state;
	fix_init(&f);
	hello(&f);
	static const char line[] =
		"{\"type\":\"inst\",\"cell\":0,\"iteration\":4294967297,\"load\":0,\"repetition\":0,"
		"\"pid\":100,\"applied\":\"\",\"state\":\"ok\",\"reason\":\"\",\"exited\":true,"
		"\"exit_code\":0,\"term_signal\":0,\"start_ns\":1,\"end_ns\":2,\"user_us\":0,"
		"\"system_us\":0,\"stdout\":\"\",\"stderr\":\"\"}";
	agent_session_line(&f.s, line, strlen(line), f.err, sizeof(f.err));
	expect_failure(&f, "a number is out of range");
	fix_free(&f);
	fix_init(&f);
	hello(&f);
	static const char it_line[] =
		"{\"type\":\"iteration\",\"cell\":0,\"iteration\":4294967297,\"n\":0,"
		"\"interrupted\":true,\"started_at\":\"\",\"ended_at\":\"\"}";
	agent_session_line(&f.s, it_line, strlen(it_line), f.err, sizeof(f.err));
	expect_failure(&f, "a number is out of range");
	assert_int_equal(f.stored, 0);
	fix_free(&f);
}

/* Lines out of the plan's order, loads twice, repetitions of a load that
 * does not repeat, an early "ok", lines after the end, a second hello. */
static void test_against_the_plan(void **state)
{
	struct fix f;
	(void)state;
	fix_init(&f);
	hello(&f);
	inst(&f, 0, 2, 0, 0); /* iteration 1 comes first */
	expect_failure(&f, "is not the next step of the plan");
	fix_free(&f);

	fix_init(&f);
	hello(&f);
	inst(&f, 0, 1, 1, 0);
	inst(&f, 0, 1, 1, 0);
	expect_failure(&f, "reported twice, or repeated without repeat: true");
	fix_free(&f);

	fix_init(&f);
	hello(&f);
	inst(&f, 0, 1, 1, 1); /* m is measured: no repetitions */
	expect_failure(&f, "repeated without repeat: true");
	fix_free(&f);

	fix_init(&f);
	hello(&f);
	inst(&f, 0, 1, 0, 0);
	inst(&f, 0, 1, 1, 0);
	iteration(&f, 0, 1, 2, false);
	end(&f, true);
	expect_failure(&f, "the agent ended ok after 1 of the plan's 4 iterations");
	fix_free(&f);

	fix_init(&f);
	hello(&f);
	end(&f, false);
	assert_false(f.s.failed);
	inst(&f, 0, 1, 0, 0);
	expect_failure(&f, "a line after the end line");
	fix_free(&f);

	fix_init(&f);
	hello(&f);
	struct buf b = {0};
	agent_encode_hello(&b, "6.1.0", "console=ttyS0", 1);
	feed(&f, &b);
	buf_free(&b);
	expect_failure(&f, "a second hello");
	fix_free(&f);
}

/* Every field is checked: a state ok of a process that did not exit 0, an
 * exit status no process has, an end before its start, text with control
 * characters, a knob path outside its kind's files. */
static void test_fields(void **state)
{
	struct agent_msg m;
	char err[256];
	(void)state;
	static const char *const bad[] = {
		"{\"type\":\"inst\",\"cell\":0,\"iteration\":1,\"load\":0,\"repetition\":0,"
		"\"pid\":100,\"applied\":\"\",\"state\":\"ok\",\"reason\":\"\",\"exited\":true,"
		"\"exit_code\":3,\"term_signal\":0,\"start_ns\":1,\"end_ns\":2,\"user_us\":0,"
		"\"system_us\":0,\"stdout\":\"\",\"stderr\":\"\"}",
		"{\"type\":\"inst\",\"cell\":0,\"iteration\":1,\"load\":0,\"repetition\":0,"
		"\"pid\":100,\"applied\":\"\",\"state\":\"failed\",\"reason\":\"\",\"exited\":true,"
		"\"exit_code\":256,\"term_signal\":0,\"start_ns\":1,\"end_ns\":2,\"user_us\":0,"
		"\"system_us\":0,\"stdout\":\"\",\"stderr\":\"\"}",
		"{\"type\":\"inst\",\"cell\":0,\"iteration\":1,\"load\":0,\"repetition\":0,"
		"\"pid\":100,\"applied\":\"\",\"state\":\"failed\",\"reason\":\"\",\"exited\":false,"
		"\"exit_code\":0,\"term_signal\":9,\"start_ns\":5,\"end_ns\":2,\"user_us\":0,"
		"\"system_us\":0,\"stdout\":\"\",\"stderr\":\"\"}",
		"{\"type\":\"inst\",\"cell\":0,\"iteration\":1,\"load\":0,\"repetition\":0,"
		"\"pid\":100,\"applied\":\"\\u001b[2J\",\"state\":\"failed\",\"reason\":\"\",\"exited\":true,"
		"\"exit_code\":1,\"term_signal\":0,\"start_ns\":1,\"end_ns\":2,\"user_us\":0,"
		"\"system_us\":0,\"stdout\":\"\",\"stderr\":\"\"}",
		"{\"type\":\"series\",\"cell\":0,\"iteration\":1,\"monitor\":\"stat\",\"key\":\"k\","
		"\"cpu\":-1,\"pid\":0,\"tgid\":0,\"t_ms\":[-5],\"value\":[1]}",
		"{\"type\":\"end\",\"status\":\"sure\",\"message\":\"\"}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (agent_decode_line(bad[i], strlen(bad[i]), &m, err, sizeof(err)) != -1) {
			print_error("line %zu accepted\n", i);
			agent_msg_free(&m);
			fail();
		}
		assert_true(err[0] != '\0');
	}
	struct fix f;
	fix_init(&f);
	const char *kh = "guest:v";
	f.s.knob_host = kh;
	struct knob_journal_ops ops = {0};
	f.vr.journal = &ops;
	hello(&f);
	struct buf b = {0};
	agent_encode_knob(&b, "record", 0, "sysctl", "x", "/etc/passwd", "1", "0", NULL);
	feed(&f, &b);
	buf_free(&b);
	expect_failure(&f, "knob path '/etc/passwd' is not a sysctl file");
	fix_free(&f);
}

/* vr->done: (0, 1) and (1, 2) are stored already. */
static bool two_done(void *ctx, size_t cell, int it)
{
	(void)ctx;
	return (cell == 0 && it == 1) || (cell == 1 && it == 2);
}

/* One step's lines: both loads, no repetition. */
static void step(struct fix *f, size_t cell, int it)
{
	inst(f, cell, it, 0, 0);
	inst(f, cell, it, 1, 0);
	iteration(f, cell, it, 2, false);
}

/* The steps of the whole plan but those in skip[] (cell * 2 + it - 1),
 * then end ok, with done = two_done and skip_done as given. */
static void run_steps(struct fix *f, bool skip_done, const bool skip[4])
{
	fix_init(f);
	f->vr.done = two_done;
	f->s.skip_done = skip_done;
	hello(f);
	for (size_t c = 0; c < 2; c++)
		for (int it = 1; it <= 2; it++)
			if (!skip[c * 2 + (size_t)it - 1])
				step(f, c, it);
	end(f, true);
}

/* skip_done (boot: lava following a job whose log a killed rig had begun
 * to store): a step done already is dropped when the log has it and passed
 * over when the job's plan left it out; a step not done must be there. */
static void test_skip_done(void **state)
{
	struct fix f;
	(void)state;
	/* The job ran every step: the two not done are stored. */
	run_steps(&f, true, (const bool[4]){false, false, false, false});
	assert_false(f.s.failed);
	assert_true(f.s.end_ok);
	assert_int_equal(f.stored, 2);
	fix_free(&f);
	/* The job's plan left (0, 1) out (done when it was written). */
	run_steps(&f, true, (const bool[4]){true, false, false, false});
	assert_false(f.s.failed);
	assert_int_equal(f.stored, 2);
	fix_free(&f);
	/* And both done steps missing. */
	run_steps(&f, true, (const bool[4]){true, false, false, true});
	assert_false(f.s.failed);
	assert_true(f.s.end_ok);
	assert_int_equal(f.stored, 2);
	fix_free(&f);
	/* (1, 1) is not done: it cannot be missing. */
	run_steps(&f, true, (const bool[4]){false, false, true, false});
	expect_failure(&f, "cell 1 load 0 iteration 2 is not the next step of the plan");
	assert_int_equal(f.stored, 1);
	fix_free(&f);
	/* Without skip_done a done step is not in the plan at all. */
	run_steps(&f, false, (const bool[4]){false, false, false, false});
	expect_failure(&f, "cell 0 load 0 iteration 1 is not the next step of the plan");
	assert_int_equal(f.stored, 0);
	fix_free(&f);
}

/* The trace of a traced iteration arrives in pieces, is written to the
 * run's directory and handed over with its totals; one of an iteration the
 * config does not trace, one whose end miscounts its bytes and an
 * iteration line before the trace's end fail the session. */
static const char trace_config[] =
	"name: s\n"
	"iterations: 2\n"
	"trace: {events: sched, iterations: [2]}\n"
	"loads:\n"
	"  - {name: m, tool: fake}\n";

static void trace_fix(struct fix *f, char *dir)
{
	memset(f, 0, sizeof(*f));
	f->e = config_parse("s.yaml", trace_config, strlen(trace_config), f->err, sizeof(f->err));
	assert_non_null(f->e);
	assert_int_equal(plan_build(f->e, &f->p, f->err, sizeof(f->err)), 0);
	f->vr = (struct variant_run){.e = f->e, .v = &f->e->variants[0], .p = &f->p, .iterations = 2,
				     .work_dir = dir, .on_kernel = on_kernel,
				     .on_iteration = on_iteration, .ctx = f};
	f->s = (struct agent_session){.vr = &f->vr, .label = "qemu", .where = "the guest"};
	hello(f);
}

static void raw(struct fix *f, const char *line)
{
	agent_session_line(&f->s, line, strlen(line), f->err, sizeof(f->err));
}

static void test_trace_lines(void **state)
{
	struct fix f;
	char dir[] = "/tmp/schedrig-test-XXXXXX";
	(void)state;
	assert_non_null(mkdtemp(dir));
	trace_fix(&f, dir);
	inst(&f, 0, 1, 0, 0);
	iteration(&f, 0, 1, 1, false);
	inst(&f, 0, 2, 0, 0);
	raw(&f, "{\"type\":\"trace\",\"cell\":0,\"iteration\":2,\"data\":\"IyBoZWFk\"}"); /* "# head" */
	raw(&f, "{\"type\":\"trace\",\"cell\":0,\"iteration\":2,\"data\":\"ZXIK\"}"); /* "er\n" */
	raw(&f, "{\"type\":\"trace_end\",\"cell\":0,\"iteration\":2,\"bytes\":9,\"lines\":1,"
		"\"lost\":3,\"window_start_ns\":5,\"window_end_ns\":7,\"warning\":\"\"}");
	iteration(&f, 0, 2, 1, false);
	end(&f, true);
	assert_false(f.s.failed);
	assert_int_equal(f.stored, 2);
	assert_true(f.last_trace.captured);
	assert_int_equal(f.last_trace.lost, 3);
	assert_string_equal(buf_str(&f.trace_text), "# header\n");
	unlink(f.last_trace.path);
	fix_free(&f);

	/* iteration 1 is not traced */
	trace_fix(&f, dir);
	inst(&f, 0, 1, 0, 0);
	raw(&f, "{\"type\":\"trace\",\"cell\":0,\"iteration\":1,\"data\":\"eA==\"}");
	expect_failure(&f, "an iteration the config does not trace");
	fix_free(&f);
	/* an end that counts other bytes than came */
	trace_fix(&f, dir);
	inst(&f, 0, 1, 0, 0);
	iteration(&f, 0, 1, 1, false);
	inst(&f, 0, 2, 0, 0);
	raw(&f, "{\"type\":\"trace\",\"cell\":0,\"iteration\":2,\"data\":\"eA==\"}");
	raw(&f, "{\"type\":\"trace_end\",\"cell\":0,\"iteration\":2,\"bytes\":2,\"lines\":1,"
		"\"lost\":0,\"window_start_ns\":5,\"window_end_ns\":7,\"warning\":\"\"}");
	expect_failure(&f, "does not match the next step and the 1 bytes that came");
	fix_free(&f);
	/* the iteration ends before its trace did */
	trace_fix(&f, dir);
	inst(&f, 0, 1, 0, 0);
	iteration(&f, 0, 1, 1, false);
	inst(&f, 0, 2, 0, 0);
	raw(&f, "{\"type\":\"trace\",\"cell\":0,\"iteration\":2,\"data\":\"eA==\"}");
	iteration(&f, 0, 2, 1, false);
	expect_failure(&f, "iteration end before its trace's end");
	assert_int_equal(f.stored, 1);
	fix_free(&f);
	/* every file the failed sessions began is gone */
	char *rm = xasprintf("rmdir %s", dir);
	assert_int_equal(system(rm), 0);
	free(rm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_other_protocol),
		cmocka_unit_test(test_whole_plan),
		cmocka_unit_test(test_empty_iteration),
		cmocka_unit_test(test_iteration_narrowing),
		cmocka_unit_test(test_against_the_plan),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_host_line),
		cmocka_unit_test(test_skip_done),
		cmocka_unit_test(test_trace_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
