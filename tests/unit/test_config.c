/* Config loading and plan expansion: values, defaults and every error path
 * with its file:line:col. Uses the real driver registry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "plan.h"

static struct experiment *parse(const char *text, char *err, size_t errsz)
{
	return config_parse("t.yaml", text, strlen(text), err, errsz);
}

/* Parse text, expect failure with exactly the message want. */
static void expect_error(const char *text, const char *want)
{
	char err[1024] = "";
	struct experiment *e = parse(text, err, sizeof(err));
	if (e) {
		struct plan p;
		if (plan_build(e, &p, err, sizeof(err)) == 0) {
			plan_free(&p);
			experiment_free(e);
			fail_msg("expected error '%s', config was accepted", want);
		}
		experiment_free(e);
	}
	assert_string_equal(err, want);
}

static const char good[] =
	"name: demo\n"
	"iterations: 4\n"
	"warmup_s: 0.5\n"
	"loads:\n"
	"  - name: hb\n"
	"    tool: hackbench\n"
	"    role: background\n"
	"    repeat: true\n"
	"    params: {groups: [2, 4], loops: 100}\n"
	"    sched: {nice: [0, 19]}\n"
	"  - tool: cyclictest\n"
	"    params: {duration_s: 1}\n"
	"    sched: {policy: other, slice_us: 300}\n";

static void test_good_config(void **state)
{
	(void)state;
	char err[512] = "";
	struct experiment *e = parse(good, err, sizeof(err));
	assert_non_null(e);
	assert_string_equal(e->name, "demo");
	assert_int_equal(e->iterations, 4);
	assert_true(e->warmup_s == 0.5);
	assert_int_equal(e->n_variants, 1);
	assert_string_equal(e->variants[0].name, "running");
	assert_int_equal(e->n_loads, 2);
	assert_string_equal(e->loads[1].name, "cyclictest");
	assert_int_equal(e->loads[0].role, ROLE_BACKGROUND);
	assert_true(e->loads[0].repeat);
	assert_int_equal(e->loads[1].role, ROLE_MEASURED);
	experiment_free(e);
}

static void test_plan_cells_in_file_order(void **state)
{
	(void)state;
	char err[512] = "";
	struct plan p;
	struct experiment *e = parse(good, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(plan_build(e, &p, err, sizeof(err)), 0);
	assert_int_equal(p.n_cells, 4);
	assert_int_equal(p.n_axes, 2);
	/* groups (line 9) varies slowest, nice (line 10) fastest. */
	assert_string_equal(p.cells[0].name, "hb.groups=2,hb.nice=0");
	assert_string_equal(p.cells[1].name, "hb.groups=2,hb.nice=19");
	assert_string_equal(p.cells[2].name, "hb.groups=4,hb.nice=0");
	assert_string_equal(p.cells[3].name, "hb.groups=4,hb.nice=19");
	const struct plan_instance *hb = &p.cells[3].inst[0];
	assert_string_equal(params_get(&hb->params, "groups"), "4");
	assert_string_equal(params_get(&hb->params, "loops"), "100");
	assert_true(hb->sched.has_nice);
	assert_int_equal(hb->sched.nice, 19);
	assert_string_equal(hb->sched_text, "nice=19");
	const struct plan_instance *ct = &p.cells[3].inst[1];
	assert_string_equal(ct->sched_text, "policy=other slice_us=300");
	assert_string_equal(ct->argv.v[0], "cyclictest");
	plan_free(&p);
	experiment_free(e);
}

static void test_version_stays_string(void **state)
{
	(void)state;
	char err[512] = "";
	struct experiment *e = parse("name: v\ndescription: 6.10\nloads: [{tool: hackbench}]\n", err,
				     sizeof(err));
	assert_non_null(e);
	assert_string_equal(e->description, "6.10");
	experiment_free(e);
}

/* timeout_s bounds how long a kernel takes to come up: the qemu boot, or
 * an ssh machine coming back after kexec. */
static void test_boot_timeout(void **state)
{
	(void)state;
	char err[512] = "";
	struct experiment *e = parse("name: a\nvariants:\n"
				     "  - {name: q, boot: qemu, kernel: /k, timeout_s: 90}\n"
				     "  - {name: s, boot: ssh, host: h, timeout_s: 300,"
				     " kexec: {kernel: /k}}\n"
				     "  - {name: d, boot: ssh, host: h}\n"
				     "loads: [{tool: hackbench}]\n", err, sizeof(err));
	assert_non_null(e);
	assert_true(e->variants[0].boot_timeout_s == 90);
	assert_true(e->variants[1].boot_timeout_s == 300);
	assert_true(e->variants[2].boot_timeout_s == 600);
	experiment_free(e);
}

/* Parse and plan a config whose only load has sched: {cpus: CPUS}, under
 * the variants given as YAML flow mappings; 0 when accepted, else -1 with
 * the message in err. */
static int plan_cpus(const char *variants, const char *cpus, char *err, size_t errsz)
{
	char text[1024];
	struct plan p;
	snprintf(text, sizeof(text),
		 "name: a\nvariants: [%s]\nloads: [{tool: fake, sched: {cpus: \"%s\"}}]\n",
		 variants, cpus);
	struct experiment *e = parse(text, err, errsz);
	if (!e)
		return -1;
	int rc = plan_build(e, &p, err, errsz);
	if (!rc)
		plan_free(&p);
	experiment_free(e);
	return rc;
}

/* sched: cpus: names CPUs of the machine the loads run on: this one for
 * boot: local, the guest's cpus: for boot: qemu (whatever this machine
 * has), none known for boot: ssh. */
static void test_cpus_where_loads_run(void **state)
{
	(void)state;
	char err[1024] = "", want[512], beyond[32], within[32];
	long host = sysconf(_SC_NPROCESSORS_CONF);

	/* One CPU beyond this machine's, one within it. */
	snprintf(beyond, sizeof(beyond), "0-%ld", host);
	snprintf(within, sizeof(within), "0-%ld", host - 1);
	assert_int_equal(plan_cpus("{name: here}", within, err, sizeof(err)), 0);
	assert_int_equal(plan_cpus("{name: here}", beyond, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "t.yaml:3:36: cpus '0-%ld' names CPU %ld, but this machine"
		 " has CPUs 0-%ld", host, host, host - 1);
	assert_string_equal(err, want);

	/* A guest of 64 vCPUs takes CPUs 0-63 (more than this machine has,
	 * unless it has 64 or more), not 64. */
	assert_int_equal(plan_cpus("{name: g, boot: qemu, kernel: /k, cpus: 64}", "0-63", err,
				   sizeof(err)), 0);
	assert_int_equal(plan_cpus("{name: g, boot: qemu, kernel: /k, cpus: 64}", "0,64", err,
				   sizeof(err)), -1);
	assert_string_equal(err, "t.yaml:3:36: cpus '0,64' names CPU 64, but variant g (boot: qemu)"
			    " has cpus: 64, CPUs 0-63");
	assert_int_equal(plan_cpus("{name: g, boot: qemu, kernel: /k}", "2", err, sizeof(err)), -1);
	assert_string_equal(err, "t.yaml:3:36: cpus '2' names CPU 2, but variant g (boot: qemu)"
			    " has cpus: 2, CPUs 0-1");

	/* boot: ssh: the remote's CPUs are not known here. */
	assert_int_equal(plan_cpus("{name: box, boot: ssh, host: h}", "0-63", err, sizeof(err)), 0);

	/* Every variant counts: a local one next to the guest limits it. */
	assert_int_equal(plan_cpus("{name: g, boot: qemu, kernel: /k, cpus: 64}, {name: here}",
				   beyond, err, sizeof(err)), -1);
	assert_string_equal(err, want);
}

static void test_merge_keys(void **state)
{
	(void)state;
	char err[512] = "";
	struct experiment *e = parse("name: m\n"
				     "loads:\n"
				     "  - &base {tool: hackbench, timeout_s: 5, role: background}\n"
				     "  - <<: *base\n"
				     "    name: second\n"
				     "    role: measured\n",
				     err, sizeof(err));
	assert_non_null(e);
	assert_string_equal(e->loads[1].name, "second");
	assert_int_equal(e->loads[1].role, ROLE_MEASURED);
	assert_true(e->loads[1].timeout_s == 5);
	experiment_free(e);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "t.yaml:1:1: empty config");
	expect_error("name: x\n\tloads: []\n",
		     "t.yaml:2:1: tab character where YAML needs spaces (found a tab character that violates indentation)");
	expect_error("name: a\nname: b\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:1: duplicate key 'name' (first at line 1)");
	expect_error("name: a\nlods: []\n", "t.yaml:2:1: unknown key 'lods' in the config (did you mean 'loads'?)");
	expect_error("name: a\nloads: [{tool: hackbnech}]\n",
		     "t.yaml:2:16: unknown tool 'hackbnech' (did you mean 'hackbench'?)");
	expect_error("name: a\nloads: [{tool: hackbench, params: {grups: 2}}]\n",
		     "t.yaml:2:36: unknown key 'grups' in params of hackbench (did you mean 'groups'?)");
	expect_error("name: a\nloads: [{tool: hackbench, params: {groups: many}}]\n",
		     "t.yaml:2:44: groups must be a whole number, not 'many'");
	expect_error("name: a\nloads: [{tool: hackbench, sched: {nice: 20}}]\n",
		     "t.yaml:2:41: nice must be between -20 and 19, not 20");
	expect_error("name: a\nloads: [{tool: hackbench, sched: {slice_us: 10}}]\n",
		     "t.yaml:2:45: slice_us must be between 100 and 100000, not 10");
	expect_error("name: a\nloads: [{tool: hackbench, sched: {policy: fifo}}]\n",
		     "t.yaml:2:9: load hackbench: policy fifo needs priority (1-99)");
	expect_error("name: a\nloads: [{tool: hackbench, sched: {cpus: \"0-4096\"}}]\n",
		     "t.yaml:2:41: cpus '0-4096' names CPU 4096, but a CPU set ends at CPU 1023");
	expect_error("name: a\niterations: 0\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:13: iterations must be between 1 and 10000, not 0");
	expect_error("name: a\nloads: [{tool: hackbench, role: background}]\n",
		     "t.yaml:2:8: no load has role: measured, so nothing would end an iteration");
	expect_error("name: a\nvariants: [{name: k, boot: qemu}]\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:12: boot: qemu needs 'kernel:' (a bzImage, a linux-image .deb, or a Debian package name)");
	expect_error("name: a\nvariants: [{name: k, append: quiet}]\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:22: 'append' is for boot: qemu or boot: lava, not boot: local");
	expect_error("name: a\nvariants: [{name: k, timeout_s: 60}]\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:22: 'timeout_s' is for boot: qemu, ssh or lava, not boot: local");
	expect_error("name: a\nvariants: [{name: k, sched_features: [no_place_lag]}]\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:39: sched_features entries are names such as PLACE_LAG or NO_PLACE_LAG");
	expect_error("name: a b\nloads: [{tool: hackbench}]\n",
		     "t.yaml:1:7: name 'a b' must be 1-64 characters of letters, digits, '.', '_', '-'");
	expect_error("name: a\nloads: [{tool: hackbench}, {tool: hackbench}]\n",
		     "t.yaml:2:28: load name 'hackbench' is used twice; give each load a name:");
	expect_error("name: a\nloads: [{tool: hackbench, params: {groups: [2, 2]}}]\n",
		     "t.yaml:2:48: groups: value '2' is listed twice");
	expect_error("name: a\nloads: [{tool: hackbench, params: {groups: [1, 01]}}]\n",
		     "t.yaml:2:48: groups: value '01' is '1' again");
	expect_error("name: a\nloads: {tool: hackbench}\n",
		     "t.yaml:2:8: loads must be a list, not a mapping");
	expect_error("name: a\nloads: [{tool: hackbench, repeat: true}]\n",
		     "t.yaml:2:35: repeat: true is for background loads only");
	expect_error("name: [a\n", "t.yaml:2:1: did not find expected ',' or ']' while parsing a flow sequence");
	expect_error("name: \"a\xff\"\nloads: []\n",
		     "t.yaml:1:9: invalid UTF-8 (byte 0xff); a config is UTF-8 text");
}

/* Driver plan-time checks: a policy cyclictest would silently undo on its
 * measuring threads, and "until stopped" on a load that must end. */
static void test_driver_checks(void **state)
{
	(void)state;
	expect_error("name: a\nloads: [{tool: cyclictest, sched: {policy: fifo, priority: 50}}]\n",
		     "t.yaml:2:9: load cyclictest: cyclictest sets its measuring threads' policy itself: use params {priority: N} for SCHED_FIFO instead of sched: policy fifo");
	expect_error("name: a\nloads: [{tool: cyclictest, params: {priority: 50}, sched: {policy: other}}]\n",
		     "t.yaml:2:9: load cyclictest: params priority > 0 runs cyclictest's threads at SCHED_FIFO, which contradicts sched: policy other");
	expect_error("name: a\nloads: [{tool: cyclictest, params: {duration_s: 0}}]\n",
		     "t.yaml:2:9: load cyclictest: duration_s: 0 runs until stopped, which only a background load is; a measured load needs a duration");
	expect_error("name: a\nloads: [{tool: wakeup-lat, params: {runtime_s: 0}}]\n",
		     "t.yaml:2:9: load wakeup-lat: runtime_s: 0 runs until stopped, which only a background load is; a measured load needs a duration");
	/* The same as a background load is fine. */
	char err[512];
	struct plan p;
	const char ok[] = "name: a\nloads:\n  - {tool: tcp-rr, role: background, params: {duration_s: 0}}\n"
			  "  - {tool: fake}\n";
	struct experiment *e = config_parse("t.yaml", ok, strlen(ok), err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(plan_build(e, &p, err, sizeof(err)), 0);
	plan_free(&p);
	experiment_free(e);
}

static void test_deep_nesting(void **state)
{
	(void)state;
	char text[1024] = "name: a\ndescription: ";
	for (int i = 0; i < 100; i++)
		strcat(text, "[");
	strcat(text, "\n");
	char err[512] = "";
	assert_null(parse(text, err, sizeof(err)));
	assert_non_null(strstr(err, "t.yaml:"));
}

/* An axis may carry a label for table headers; the cell names (the stored
 * identity of a cell) do not change; a label names one axis only. */
static void test_axis_labels(void **state)
{
	(void)state;
	static const char text[] =
		"name: lab\n"
		"loads:\n"
		"  - {name: hb, tool: fake, role: background,\n"
		"     sched: {latency_nice: {values: [0, -20], label: HB-LN}}}\n"
		"  - {name: ct, tool: fake, params: {mean: {values: [1, 2]}}}\n";
	char err[512] = "";
	struct plan p;
	struct experiment *e = parse(text, err, sizeof(err));
	assert_non_null(e);
	assert_string_equal(e->loads[0].sched[0].label, "HB-LN");
	assert_true(e->loads[0].sched[0].is_axis);
	assert_int_equal(e->loads[0].sched[0].n, 2);
	assert_null(e->loads[1].params[0].label);
	assert_int_equal(plan_build(e, &p, err, sizeof(err)), 0);
	assert_string_equal(p.cells[3].name, "hb.latency_nice=-20,ct.mean=2");
	plan_free(&p);
	experiment_free(e);
	expect_error("name: x\nloads:\n  - {name: a, tool: fake, params: {mean: {values: [1, 2], label: M}}}\n"
		     "  - {name: b, tool: fake, params: {mean: {values: [3], label: M}}}\n",
		     "t.yaml:4:36: label 'M' is given to two axes (line 3 too)");
	expect_error("name: x\nloads:\n  - {tool: fake, params: {mean: {label: M}}}\n",
		     "t.yaml:3:33: mean: an axis written as a mapping needs values: [...]");
	expect_error("name: x\nloads:\n  - {tool: fake, params: {mean: {values: 1, label: M}}}\n",
		     "t.yaml:3:42: values must be a list, not a scalar");
	expect_error("name: x\nloads:\n  - {tool: fake, params: {mean: {values: [1], label: 'M:1'}}}\n",
		     "t.yaml:3:54: label 'M:1' must be 1-64 characters of letters, digits, '.', '_', '-'");
}

/* order: defaults to interleaved; random takes a seed; nothing else. */
static void test_order(void **state)
{
	(void)state;
	char err[512] = "";
	struct experiment *e = parse("name: x\nloads:\n  - tool: fake\n", err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(e->order, ORDER_INTERLEAVED);
	assert_false(e->order_given);
	experiment_free(e);
	e = parse("name: x\norder: random\nseed: 99\nloads:\n  - tool: fake\n", err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(e->order, ORDER_RANDOM);
	assert_true(e->order_given && e->seed_given);
	assert_true(e->seed == 99);
	experiment_free(e);
	expect_error("name: x\norder: sideways\nloads:\n  - tool: fake\n",
		     "t.yaml:2:8: order must be blocked, interleaved or random, not 'sideways'");
	expect_error("name: x\norder: random\nseed: -1\nloads:\n  - tool: fake\n",
		     "t.yaml:3:7: seed must be between 0 and 9223372036854775807, not -1");
}

/* trace: the shorthand, the events with and without a group, buffer_kb,
 * iterations; a load's trace: joins the top one (events in the order first
 * written, the larger buffer, the iterations together); the errors. */
static void test_trace(void **state)
{
	(void)state;
	char err[512];
	struct experiment *e = parse("name: t\niterations: 4\ntrace: sched\nloads: [{tool: hackbench}]\n",
				     err, sizeof(err));
	assert_non_null(e);
	assert_true(e->trace_all.enabled);
	assert_int_equal(e->trace_all.n_events, 4);
	assert_string_equal(e->trace_all.events[0], "sched:sched_switch");
	assert_string_equal(e->trace_all.events[3], "sched:sched_migrate_task");
	assert_int_equal(e->trace_all.buffer_kb, 8192);
	assert_int_equal(e->trace_all.n_iterations, 0);
	for (int it = 1; it <= 4; it++)
		assert_true(config_trace_iteration(&e->trace_all, it));
	experiment_free(e);

	e = parse("name: t\niterations: 4\n"
		  "trace: {events: [sched_switch, irq:irq_handler_entry], buffer_kb: 128, iterations: [3, 1]}\n"
		  "loads:\n  - {tool: hackbench, role: background}\n"
		  "  - {tool: cyclictest, trace: {events: [sched_waking, sched_switch], buffer_kb: 256,"
		  " iterations: [2]}}\n", err, sizeof(err));
	assert_non_null(e);
	const struct cfg_trace *u = &e->trace_all;
	assert_int_equal(u->n_events, 3);
	assert_string_equal(u->events[0], "sched:sched_switch");
	assert_string_equal(u->events[1], "irq:irq_handler_entry");
	assert_string_equal(u->events[2], "sched:sched_waking");
	assert_int_equal(u->buffer_kb, 256);
	assert_int_equal(u->n_iterations, 3);
	assert_true(config_trace_iteration(u, 1) && config_trace_iteration(u, 2) &&
		    config_trace_iteration(u, 3) && !config_trace_iteration(u, 4));
	assert_true(e->loads[1].trace.enabled && !e->loads[0].trace.enabled);
	experiment_free(e);

	e = parse("name: t\nloads: [{tool: hackbench}]\n", err, sizeof(err));
	assert_false(e->trace_all.enabled);
	assert_false(config_trace_iteration(&e->trace_all, 1));
	experiment_free(e);

	expect_error("name: t\ntrace: all\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:8: trace must be sched or {events: [...], buffer_kb: N, iterations: [...]}, not 'all'");
	expect_error("name: t\ntrace: {events: [irq_handler_entry]}\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:18: trace: event 'irq_handler_entry' needs its group: write"
		     " GROUP:irq_handler_entry (a name alone is a sched_* event)");
	expect_error("name: t\ntrace: {events: [Sched_Switch]}\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:18: trace: event 'Sched_Switch' is not a tracefs event name (lower-case"
		     " letters, digits, '_')");
	expect_error("name: t\ntrace: {events: [sched_switch, sched_switch]}\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:32: trace: event 'sched_switch' is listed twice");
	expect_error("name: t\ntrace: {events: sched, buffer_kb: 8}\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:35: trace: buffer_kb must be between 64 and 1048576, not 8");
	expect_error("name: t\niterations: 2\ntrace: {events: sched, iterations: [3]}\nloads: [{tool: hackbench}]\n",
		     "t.yaml:3:8: trace: iteration 3 is beyond iterations: 2");
	expect_error("name: t\ntrace: {event: [sched_switch]}\nloads: [{tool: hackbench}]\n",
		     "t.yaml:2:9: unknown key 'event' in trace (did you mean 'events'?)");
	expect_error("name: t\nloads: [{tool: hackbench, trace: {events: sched, iterations: [1, 1]}}]\n",
		     "t.yaml:2:66: trace: iteration 1 is listed twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_config),
		cmocka_unit_test(test_plan_cells_in_file_order),
		cmocka_unit_test(test_version_stays_string),
		cmocka_unit_test(test_merge_keys),
		cmocka_unit_test(test_boot_timeout),
		cmocka_unit_test(test_cpus_where_loads_run),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_driver_checks),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_axis_labels),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
