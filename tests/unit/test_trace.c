/* Unit tests of the trace text parser (harness/trace/trace_text.c) and the
 * analysis (trace_analysis.c): real line shapes of tracefs (with and
 * without the flags and the tgid column) and of perf script, LOST lines,
 * garbage; and a small trace whose every number was worked out by hand from
 * the rules of trace_analysis.h (the comments below show the arithmetic). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "trace_analysis.h"
#include "trace_report.h"
#include "trace_text.h"
#include "util.h"

static int parse(const char *line, struct trace_ev *ev)
{
	return trace_text_line(line, strlen(line), ev);
}

static void test_ftrace_switch(void **state)
{
	(void)state;
	struct trace_ev ev;
	assert_int_equal(parse("      cyclictest-21496   [001] d..2. 11481.083531: sched_switch:"
			       " prev_comm=cyclictest prev_pid=21496 prev_prio=120 prev_state=D"
			       " ==> next_comm=hackbench next_pid=21472 next_prio=130", &ev), 1);
	assert_int_equal(ev.type, TEV_SWITCH);
	assert_int_equal(ev.pid, 21496);
	assert_int_equal(ev.cpu, 1);
	assert_true(ev.ts_ns == 11481083531000LL);
	assert_int_equal(ev.prev_pid, 21496);
	assert_int_equal(ev.next_pid, 21472);
	assert_int_equal(ev.next_prio, 130);
	assert_string_equal(ev.prev_state, "D");
	assert_string_equal(ev.prev_comm, "cyclictest");
	assert_string_equal(ev.next_comm, "hackbench");
}

/* A comm with blanks and dashes, the tgid column, no flags, ns stamps. */
static void test_ftrace_shapes(void **state)
{
	(void)state;
	struct trace_ev ev;
	assert_int_equal(parse("     Web Content-4242  (   4200) [000] d..3.   5.000001: sched_switch:"
			       " prev_comm=Web Content prev_pid=4242 prev_prio=120 prev_state=R+"
			       " ==> next_comm=kworker/u8:0-ev next_pid=12 next_prio=120", &ev), 1);
	assert_int_equal(ev.pid, 4242);
	assert_string_equal(ev.prev_comm, "Web Content");
	assert_string_equal(ev.prev_state, "R+");
	assert_string_equal(ev.next_comm, "kworker/u8:0-ev");
	assert_int_equal(parse("  <idle>-0     [003]  7.123456789: sched_waking: comm=a b pid=7"
			       " prio=100 target_cpu=003", &ev), 1);
	assert_int_equal(ev.type, TEV_WAKING);
	assert_int_equal(ev.pid, 0);
	assert_int_equal(ev.cpu, 3);
	assert_true(ev.ts_ns == 7123456789LL);
	assert_string_equal(ev.comm, "a b");
	assert_int_equal(ev.target_pid, 7);
	assert_int_equal(ev.target_cpu, 3);
	assert_int_equal(parse("  kworker/0:1-30  [000] d..2. 1.000000: sched_migrate_task: comm=x"
			       " pid=9 prio=120 orig_cpu=0 dest_cpu=1", &ev), 1);
	assert_int_equal(ev.type, TEV_MIGRATE);
	assert_int_equal(ev.pid, 30);
	assert_int_equal(ev.orig_cpu, 0);
	assert_int_equal(ev.dest_cpu, 1);
	assert_int_equal(parse("  make-5 [001] .... 2.000000: sched_process_fork: comm=make pid=5"
			       " child_comm=make child_pid=6", &ev), 1);
	assert_int_equal(ev.type, TEV_FORK);
	assert_int_equal(ev.target_pid, 5);
	assert_int_equal(ev.child_pid, 6);
	assert_int_equal(parse("  make-5 [001] .... 2.000001: irq_handler_entry: irq=3 name=x", &ev), 1);
	assert_int_equal(ev.type, TEV_OTHER);
	assert_string_equal(ev.event, "irq_handler_entry");
}

/* perf script's lines (perf 6.1, tracepoints). */
static void test_perf_script(void **state)
{
	(void)state;
	struct trace_ev ev;
	assert_int_equal(parse("     migration/0    18 [000] 10763.714438:       sched:sched_waking:"
			       " comm=perf pid=21085 prio=120 target_cpu=000", &ev), 1);
	assert_int_equal(ev.type, TEV_WAKING);
	assert_int_equal(ev.pid, 18);
	assert_int_equal(ev.target_pid, 21085);
	assert_int_equal(parse("         swapper     0 [000] 13856.894178:       sched:sched_switch:"
			       " prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==>"
			       " next_comm=hackbench next_pid=3883 next_prio=120", &ev), 1);
	assert_int_equal(ev.next_pid, 3883);
	assert_true(ev.ts_ns == 13856894178000LL);
	assert_int_equal(parse("            perf 21085 [000] 10763.714418: sched:sched_stat_runtime:"
			       " comm=perf pid=21085 runtime=83945 [ns]", &ev), 1);
	assert_int_equal(ev.type, TEV_OTHER);
	assert_string_equal(ev.event, "sched_stat_runtime");
}

static void test_lost_comments_garbage(void **state)
{
	(void)state;
	struct trace_ev ev;
	assert_int_equal(parse("CPU:1 [LOST 1234 EVENTS]", &ev), 1);
	assert_int_equal(ev.type, TEV_LOST);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.lost, 1234);
	assert_int_equal(parse("CPU:1 [LOST many EVENTS]", &ev), -1);
	assert_int_equal(parse("# tracer: nop", &ev), 0);
	assert_int_equal(parse("   ", &ev), 0);
	assert_int_equal(parse("hello world", &ev), -1);
	/* a switch without its fields is not a switch */
	assert_int_equal(parse("  a-1 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=1", &ev),
			 -1);
	/* 3 digits of fraction: not a timestamp of tracefs or perf */
	assert_int_equal(parse("  a-1 [000] d..2. 1.000: sched_waking: comm=a pid=1 prio=1", &ev), -1);
}

static void test_meta_lines(void **state)
{
	(void)state;
	int64_t s = 0, e = 0;
	uint64_t lost = 0;
	struct trace_task_line t;
	const char *w = "# window_ns 10 20", *l = "# lost 7", *k = "# task hb 2 100 100 101 102";
	assert_int_equal(trace_text_meta(w, strlen(w), &s, &e, &lost, &t), 1);
	assert_true(s == 10 && e == 20);
	assert_int_equal(trace_text_meta(l, strlen(l), &s, &e, &lost, &t), 2);
	assert_int_equal(lost, 7);
	assert_int_equal(trace_text_meta(k, strlen(k), &s, &e, &lost, &t), 3);
	assert_string_equal(t.load, "hb");
	assert_int_equal(t.repetition, 2);
	assert_int_equal(t.pid, 100);
	const char *bad[] = {"# window_ns 20 10", "# lost -1", "# task hb x 1", "# task hb 0 1 2 x"};
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(trace_text_meta(bad[i], strlen(bad[i]), &s, &e, &lost, &t), -1);
	assert_int_equal(trace_text_meta("# schedrig-trace 1", 18, &s, &e, &lost, &t), 0);
}

/* The hand-computed trace. Window 100.000000 .. 100.010000 (10 ms), load a
 * is tids 10 and 11, load b tid 20; 30 is a kworker of no load. */
static const char hand_trace[] =
	"# schedrig-trace 1 clock=mono buffer_kb=64 events=sched:sched_switch,sched:sched_waking\n"
	/* 10 unknown -> woken (waking .000100), enqueued again by its wakeup .000150 */
	"  kworker/0:1-30  [000] d..2. 100.000100: sched_waking: comm=a pid=10 prio=120 target_cpu=000\n"
	"  kworker/0:1-30  [000] d..2. 100.000150: sched_wakeup: comm=a pid=10 prio=120 target_cpu=000\n"
	/* cpu0 ran 30 since the window began: 300 us; 10: wait 150, wakeup 200 */
	"  kworker/0:1-30  [000] d..2. 100.000300: sched_switch: prev_comm=kworker/0:1 prev_pid=30"
	" prev_prio=120 prev_state=I ==> next_comm=a next_pid=10 next_prio=120\n"
	/* 10 ran 1000 us, preempted (R+): runnable from .001300 */
	"        a-10    (     10) [000] d..2. 100.001300: sched_switch: prev_comm=a prev_pid=10"
	" prev_prio=120 prev_state=R+ ==> next_comm=b next_pid=20 next_prio=120\n"
	"   <idle>-0     [001] d..2. 100.001500: sched_migrate_task: comm=a pid=10 prio=120 orig_cpu=0"
	" dest_cpu=1\n"
	/* 10 switched in after 300 us on a runqueue, no wakeup (a preemption) */
	"   <idle>-0     [001] d..2. 100.001600: sched_switch: prev_comm=swapper/1 prev_pid=0"
	" prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
	"        a    10 [001]      100.002000: sched:sched_waking: comm=a pid=11 prio=120"
	" target_cpu=001\n"
	/* 10 ran 1000 us (cpu1); 11: wait and wakeup 600 us */
	"        a-10    [001] d..2. 100.002600: sched_switch: prev_comm=a prev_pid=10 prev_prio=120"
	" prev_state=S ==> next_comm=a next_pid=11 next_prio=120\n"
	/* a gap: every state forgotten, cpu1's time unknown until its next switch */
	"CPU:1 [LOST 5 EVENTS]\n"
	"        a-11    [001] d..2. 100.003000: sched_switch: prev_comm=a prev_pid=11 prev_prio=120"
	" prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	/* cpu0 ran 20 from .001300: 2700 us (b); 10 then runs to the window's end: 6000 us */
	"        b-20    [000] d..2. 100.004000: sched_switch: prev_comm=b prev_pid=20 prev_prio=120"
	" prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n"
	"# window_ns 100000000000 100010000000\n"
	"# lost 0\n"
	"# task a 0 10 10 11\n"
	"# task b 0 20 20\n"
	"# end\n";

static void assert_dist(const struct trace_dist *d, const int64_t *us, size_t n)
{
	assert_int_equal(d->n, n);
	for (size_t i = 0; i < n; i++)
		assert_true(d->v[i] == us[i] * 1000);
}

static void test_hand_trace(void **state)
{
	(void)state;
	struct trace_analysis a;
	char err[256];
	assert_int_equal(trace_analyze(hand_trace, strlen(hand_trace), TRACE_BY_TASK_LINES, &a, err,
				       sizeof(err)), 0);
	assert_int_equal(a.n_cpus, 2);
	assert_int_equal(a.lost, 5);
	assert_int_equal(a.bad_lines, 0);
	assert_int_equal(a.n_task_lines, 2);
	const struct trace_load_result *la = trace_analysis_load(&a, "a"),
				       *lb = trace_analysis_load(&a, "b"),
				       *all = trace_analysis_load(&a, TRACE_ALL_TASKS);
	assert_non_null(la);
	assert_non_null(lb);
	assert_non_null(all);
	assert_dist(&la->wakeup, (int64_t[]){200, 600}, 2);
	assert_dist(&la->rqwait, (int64_t[]){150, 300, 600}, 3);
	assert_dist(&la->run, (int64_t[]){1000, 1000}, 2);
	assert_int_equal(la->preemptions, 1);
	assert_int_equal(la->migrations, 1);
	assert_true(la->busy_ns[0] == 7000000 && la->busy_ns[1] == 1000000);
	assert_int_equal(lb->wakeup.n + lb->rqwait.n + lb->run.n, 0);
	assert_true(lb->busy_ns[0] == 2700000 && lb->busy_ns[1] == 0);
	assert_true(all->busy_ns[0] == 10000000 && all->busy_ns[1] == 1000000);
	assert_int_equal(all->rqwait.n, 3);
	/* nearest rank over 150 300 600: p50 rank 2, p90 rank 3 */
	assert_true(trace_dist_percentile(&la->rqwait, 50) == 300000);
	assert_true(trace_dist_percentile(&la->rqwait, 90) == 600000);
	assert_true(fabs(trace_dist_mean(&la->rqwait) - 350000.0) < 1e-6);
	trace_analysis_free(&a);
}

/* Grouped by comm (a trace from elsewhere): the same tasks, named a, b and
 * kworker/0:1. */
static void test_by_comm(void **state)
{
	(void)state;
	struct trace_analysis a;
	char err[256];
	assert_int_equal(trace_analyze(hand_trace, strlen(hand_trace), TRACE_BY_COMM, &a, err,
				       sizeof(err)), 0);
	const struct trace_load_result *la = trace_analysis_load(&a, "a"),
				       *kw = trace_analysis_load(&a, "kworker/0:1");
	assert_non_null(la);
	assert_non_null(kw);
	assert_int_equal(la->rqwait.n, 3);
	assert_true(kw->busy_ns[0] == 300000);
	trace_analysis_free(&a);
}

/* A child a task of a load forked (sched_process_fork) is the load's. */
static void test_fork_follows(void **state)
{
	(void)state;
	const char *text =
		"  make-5 [000] .... 1.000000: sched_process_fork: comm=make pid=5 child_comm=make"
		" child_pid=6\n"
		"  make-5 [000] d..2. 1.000100: sched_waking: comm=cc1 pid=6 prio=120 target_cpu=001\n"
		"  <idle>-0 [001] d..2. 1.000400: sched_switch: prev_comm=swapper/1 prev_pid=0"
		" prev_prio=120 prev_state=R ==> next_comm=cc1 next_pid=6 next_prio=120\n"
		"# window_ns 1000000000 1001000000\n"
		"# task kb 0 5 5\n";
	struct trace_analysis a;
	char err[256];
	assert_int_equal(trace_analyze(text, strlen(text), TRACE_BY_TASK_LINES, &a, err, sizeof(err)), 0);
	const struct trace_load_result *kb = trace_analysis_load(&a, "kb");
	assert_non_null(kb);
	assert_dist(&kb->wakeup, (int64_t[]){300}, 1);
	trace_analysis_free(&a);
}

/* Garbage is no trace; a stray line is counted, not fatal. */
static void test_garbage(void **state)
{
	(void)state;
	struct trace_analysis a;
	char err[256];
	struct buf b = {0};
	for (int i = 0; i < 20; i++)
		buf_puts(&b, "this is not a trace line\n");
	assert_int_equal(trace_analyze(buf_str(&b), b.len, TRACE_BY_COMM, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a trace"));
	buf_free(&b);
	buf_puts(&b, hand_trace);
	buf_puts(&b, "one stray line\n");
	assert_int_equal(trace_analyze(buf_str(&b), b.len, TRACE_BY_TASK_LINES, &a, err, sizeof(err)), 0);
	assert_int_equal(a.bad_lines, 1);
	trace_analysis_free(&a);
	buf_free(&b);
	const char *bad = "# window_ns 5 1\n";
	assert_int_equal(trace_analyze(bad, strlen(bad), TRACE_BY_COMM, &a, err, sizeof(err)), -1);
}

/* The rows of the hand trace: the statistics as samples, in us. */
static void test_report_rows(void **state)
{
	(void)state;
	struct trace_analysis a;
	char err[256];
	assert_int_equal(trace_analyze(hand_trace, strlen(hand_trace), TRACE_BY_TASK_LINES, &a, err,
				       sizeof(err)), 0);
	struct sample_table t;
	struct hist_table h;
	sample_table_init(&t);
	hist_table_init(&h);
	struct trace_rows r = {.t = &t, .h = &h, .run = "1", .variant = "v", .cell = "c",
			       .iteration = 2, .load = "a"};
	trace_report_rows(&a, &r);
	int found = 0;
	for (size_t i = 0; i < t.n; i++) {
		const struct sample_row *x = &t.rows[i];
		assert_string_equal(x->load, "a");
		assert_int_equal(x->iteration, 2);
		if (!strcmp(x->metric, "runqueue_wait_us") && !strcmp(x->op, "p50"))
			found += x->value == 300.0;
		if (!strcmp(x->metric, "runqueue_wait_us") && !strcmp(x->op, "mean"))
			found += fabs(x->value - 350.0) < 1e-9;
		if (!strcmp(x->metric, "runqueue_waits"))
			found += x->value == 3.0;
		if (!strcmp(x->metric, "cpu_busy_pct") && !strcmp(x->op, "cpu0"))
			found += fabs(x->value - 70.0) < 1e-9;
		if (!strcmp(x->metric, "preemptions"))
			found += x->value == 1.0;
	}
	assert_int_equal(found, 5);
	/* exact histograms: rqwait 150, 300, 600 us one each */
	bool hist = false;
	for (size_t i = 0; i < h.n; i++) {
		if (strcmp(h.rows[i].metric, "runqueue_wait_us"))
			continue;
		hist = true;
		assert_int_equal(h.rows[i].n_buckets, 3);
		assert_true(h.rows[i].bounds[0] == 150 && h.rows[i].bounds[2] == 600);
		assert_true(h.rows[i].counts[1] == 1);
	}
	assert_true(hist);
	hist_table_free(&h);
	sample_table_free(&t);
	trace_analysis_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftrace_switch),
		cmocka_unit_test(test_ftrace_shapes),
		cmocka_unit_test(test_perf_script),
		cmocka_unit_test(test_lost_comments_garbage),
		cmocka_unit_test(test_meta_lines),
		cmocka_unit_test(test_hand_trace),
		cmocka_unit_test(test_by_comm),
		cmocka_unit_test(test_fork_follows),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_report_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
