/* host: settings (harness/host/hostset.h) against files in a temp
 * directory that stand in for /sys, /proc/sys, /proc/irq and
 * /dev/cpu_dma_latency (knobs_set_roots, knobs_set_host_roots,
 * hostset_set_dma_latency_path), read from a config as a user writes it:
 * each setting reaches its file, is journalled with its old value before
 * it is written, read back, and restored; the loads get the CPUs the
 * housekeeping ones leave; a setting this machine cannot take is refused
 * naming the file, with nothing changed; a failure half-way puts back
 * what was changed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "hostset.h"
#include "knobs.h"
#include "util.h"

static char dir[] = "/tmp/schedrig-hostset.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *get(const char *rel)
{
	static char text[4096];
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	return text;
}

#define CPU "sys/devices/system/cpu/"
#define THP "sys/kernel/mm/transparent_hugepage/enabled"

/* A machine with two cpufreq policies, intel_pstate, SMT, THP, NUMA
 * balancing off, three IRQs and the latency device at no limit. */
static int setup(void **state)
{
	(void)state;
	char p[600];
	if (system("true") || !mkdtemp(dir))
		return -1;
	snprintf(p, sizeof(p), "%s/proc/sys", dir);
	knobs_set_roots(p, NULL);
	char sys[300], irq[300];
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	snprintf(irq, sizeof(irq), "%s/proc/irq", dir);
	knobs_set_host_roots(sys, irq);
	knobs_set_lock_dir(dir);
	snprintf(p, sizeof(p), "%s/cpu_dma_latency", dir);
	hostset_set_dma_latency_path(p);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	knobs_set_roots(NULL, NULL);
	knobs_set_host_roots(NULL, NULL);
	knobs_set_lock_dir(NULL);
	hostset_set_dma_latency_path(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void fresh_machine(void)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys %s/proc", dir, dir);
	assert_int_equal(system(cmd), 0);
	put(CPU "online", "0-1\n");
	for (int i = 0; i < 2; i++) {
		char rel[200];
		snprintf(rel, sizeof(rel), CPU "cpufreq/policy%d/scaling_governor", i);
		put(rel, "powersave\n");
		snprintf(rel, sizeof(rel), CPU "cpufreq/policy%d/scaling_available_governors", i);
		put(rel, "performance powersave\n");
	}
	put(CPU "intel_pstate/no_turbo", "0\n");
	put(CPU "smt/control", "on\n");
	put(THP, "always [madvise] never\n");
	put("proc/sys/kernel/numa_balancing", "0\n");
	put("proc/sys/kernel/sched_autogroup_enabled", "1\n");
	put("proc/irq/1/smp_affinity_list", "0-1\n");
	put("proc/irq/9/smp_affinity_list", "0-1\n");
	put("proc/irq/24/smp_affinity_list", "1\n");
	put("proc/irq/default_smp_affinity", "3\n");
	int32_t none = 2000000000;
	char path[400];
	snprintf(path, sizeof(path), "%s/cpu_dma_latency", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite(&none, sizeof(none), 1, f);
	fclose(f);
}

static struct experiment *config(const char *host)
{
	char err[512];
	char *text = xasprintf("name: t\n%s\nvariants: [{name: v, autogroup: off}]\n"
			       "loads: [{tool: fake}]\n", host);
	struct experiment *e = config_parse("t.yaml", text, strlen(text), err, sizeof(err));
	if (!e)
		fail_msg("%s", err);
	free(text);
	return e;
}

/* A journal in memory: "EVENT KIND NAME OLD" lines. */
static struct buf journal_text;

static int note(const char *ev, const struct knob_entry *e)
{
	buf_printf(&journal_text, "%s %s %s %s\n", ev, e->kind, e->name, e->old_value);
	return 0;
}
static int j_record(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)ctx, (void)err, (void)errsz;
	return note("record", e);
}
static int j_restored(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)ctx, (void)err, (void)errsz;
	return note("restored", e);
}
static const struct knob_journal_ops journal = {j_record, NULL, j_restored, NULL};

static void test_apply_restore(void **state)
{
	(void)state;
	char err[1024];
	struct hostset *hs;
	cpu_set_t before, during, after;
	fresh_machine();
	struct experiment *e = config("host: {governor: performance, boost: off, smt: off, thp: never,"
				      " numa_balancing: on, irq_affinity: housekeeping,"
				      " housekeeping_cpus: \"0\", cpu_dma_latency_us: 0}");
	buf_free(&journal_text);
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	if (hostset_apply(&e->variants[0], &journal, &hs, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(get(CPU "cpufreq/policy0/scaling_governor"), "performance");
	assert_string_equal(get(CPU "cpufreq/policy1/scaling_governor"), "performance");
	assert_string_equal(get(CPU "intel_pstate/no_turbo"), "1");
	assert_string_equal(get(CPU "smt/control"), "off");
	assert_string_equal(get(THP), "never");
	assert_string_equal(get("proc/sys/kernel/numa_balancing"), "1");
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "0");
	assert_string_equal(get("proc/irq/9/smp_affinity_list"), "0");
	assert_string_equal(get("proc/irq/24/smp_affinity_list"), "0");
	assert_string_equal(get("proc/irq/default_smp_affinity"), "1");
	assert_string_equal(hostset_load_cpus(hs), "1");
	assert_int_equal(sched_getaffinity(0, sizeof(during), &during), 0);
	assert_int_equal(CPU_COUNT(&during), 1);
	assert_true(CPU_ISSET(0, &during));
	/* Journalled before each write, old values as the files held them
	 * (THP: the mode in brackets). */
	const char *j = buf_str(&journal_text);
	assert_non_null(strstr(j, "record sysctl kernel.sched_autogroup_enabled 1\n"));
	assert_non_null(strstr(j, "record sysfs devices/system/cpu/cpufreq/policy1/scaling_governor"
			       " powersave\n"));
	assert_non_null(strstr(j, "record sysfs devices/system/cpu/intel_pstate/no_turbo 0\n"));
	assert_non_null(strstr(j, "record sysfs kernel/mm/transparent_hugepage/enabled madvise\n"));
	assert_non_null(strstr(j, "record irq 24 1\n"));
	assert_non_null(strstr(j, "record irq default 3\n"));
	assert_null(strstr(j, "restored"));

	assert_int_equal(hostset_restore(hs, &journal, err, sizeof(err)), 0);
	hostset_free(hs);
	assert_string_equal(get(CPU "cpufreq/policy0/scaling_governor"), "powersave");
	assert_string_equal(get(CPU "intel_pstate/no_turbo"), "0");
	assert_string_equal(get(CPU "smt/control"), "on");
	assert_string_equal(get(THP), "madvise");
	assert_string_equal(get("proc/sys/kernel/numa_balancing"), "0");
	assert_string_equal(get("proc/irq/24/smp_affinity_list"), "1");
	assert_string_equal(get("proc/irq/default_smp_affinity"), "3");
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	assert_non_null(strstr(buf_str(&journal_text), "restored sysfs kernel/mm/transparent_hugepage/enabled madvise\n"));
	experiment_free(e);
}

/* Refused before anything changes: no cpufreq (the file named), SMT that
 * reads notsupported, a governor the policy lacks. */
static void test_refused(void **state)
{
	(void)state;
	char err[1024], cmd[300];
	struct hostset *hs;
	struct argv problems = {0};
	fresh_machine();
	snprintf(cmd, sizeof(cmd), "rm -rf %s/" CPU "cpufreq", dir);
	assert_int_equal(system(cmd), 0);
	put(CPU "smt/control", "notsupported\n");
	struct experiment *e = config("host: {governor: performance, smt: off, thp: never}");
	assert_int_equal(hostset_probe(&e->variants[0], &problems), 2);
	assert_non_null(strstr(problems.v[0], "host: governor: "));
	assert_non_null(strstr(problems.v[0], "/sys/devices/system/cpu/cpufreq/policy*/scaling_governor"
					      " is missing: this machine has no cpufreq"));
	assert_non_null(strstr(problems.v[1], "smt/control reads notsupported"));
	assert_int_equal(hostset_apply(&e->variants[0], &journal, &hs, err, sizeof(err)), -1);
	assert_null(hs);
	assert_non_null(strstr(err, "this machine has no cpufreq"));
	assert_string_equal(get(THP), "always [madvise] never");
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	argv_free(&problems);
	experiment_free(e);

	fresh_machine();
	e = config("host: {governor: schedutil}");
	assert_int_equal(hostset_probe(&e->variants[0], &problems), 2);
	assert_non_null(strstr(problems.v[0], "schedutil is not one of policy0's governors"));
	argv_free(&problems);
	experiment_free(e);
}

/* A knob that fails half-way (no kernel.numa_balancing: a kernel without
 * CONFIG_NUMA_BALANCING) puts back what came before it. */
static void test_half_way(void **state)
{
	(void)state;
	char err[1024], path[400];
	struct hostset *hs;
	fresh_machine();
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/numa_balancing", dir);
	assert_int_equal(unlink(path), 0);
	struct experiment *e = config("host: {governor: performance, thp: never, numa_balancing: on}");
	assert_int_equal(hostset_apply(&e->variants[0], &journal, &hs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "numa_balancing: no such file"));
	assert_string_equal(get(CPU "cpufreq/policy0/scaling_governor"), "powersave");
	assert_string_equal(get(THP), "madvise");
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	experiment_free(e);
}

/* What the config refuses itself, at file:line:col. */
static void test_config_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"name: t\nhost: {thp: sometimes}\nloads: [{tool: fake}]\n",
		 "t.yaml:2:13: host: thp must be always, madvise or never, not 'sometimes'"},
		{"name: t\nhost: {smt: yes}\nloads: [{tool: fake}]\n",
		 "t.yaml:2:13: host: smt must be on or off, not 'yes'"},
		{"name: t\nhost: {cpu_dma_latency_us: -1}\nloads: [{tool: fake}]\n",
		 "t.yaml:2:28: host: cpu_dma_latency_us"},
		{"name: t\nhost: {irq_affinity: housekeeping}\nloads: [{tool: fake}]\n",
		 "irq_affinity: housekeeping needs housekeeping_cpus"},
		{"name: t\nhost: {govrnor: performance}\nloads: [{tool: fake}]\n",
		 "t.yaml:2:8: unknown key 'govrnor' in host (did you mean 'governor'?)"},
		{"name: t\nvariants: [{name: g, boot: qemu, kernel: k, cpus: 2,"
		 " host_settings: {housekeeping_cpus: \"0-1\"}}]\nloads: [{tool: fake}]\n",
		 "housekeeping_cpus '0-1' is every CPU of the guest"},
		{"name: t\nvariants: [{name: g, boot: qemu, kernel: k, cpus: 3, threads: 2}]\n"
		 "loads: [{tool: fake}]\n",
		 "threads: 2 does not divide cpus: 3"},
		/* host: numa_balancing is the knob kernel.numa_balancing: set twice. */
		{"name: t\nhost: {numa_balancing: off}\n"
		 "variants: [{name: v, sysctl: {kernel.numa_balancing: 1}}]\nloads: [{tool: fake}]\n",
		 "t.yaml:3:31: variant v: sysctl kernel.numa_balancing is the knob host: numa_balancing"
		 " (line 2) sets already: one knob, one value"},
		{"name: t\nvariants:\n  - name: v\n    sysctl: {kernel/numa_balancing: 0}\n"
		 "    host_settings: {numa_balancing: on}\nloads: [{tool: fake}]\n",
		 "t.yaml:4:14: variant v: sysctl kernel/numa_balancing is the knob host:"
		 " numa_balancing (line 5)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[512] = "";
		struct experiment *e = config_parse("t.yaml", cases[i].text, strlen(cases[i].text), err,
						    sizeof(err));
		if (e || !strstr(err, cases[i].want))
			fail_msg("case %zu: '%s', expected '%s'", i, err, cases[i].want);
	}
	/* A variant's host_settings: over the config's host:, key by key. */
	const char *text = "name: t\nhost: {thp: never, smt: off}\nvariants: [{name: a},"
			   " {name: b, host_settings: {thp: madvise, cpu_dma_latency_us: 10}}]\n"
			   "loads: [{tool: fake}]\n";
	char err[512];
	struct experiment *e = config_parse("t.yaml", text, strlen(text), err, sizeof(err));
	assert_non_null(e);
	assert_string_equal(e->variants[0].host_set.thp, "never");
	assert_int_equal(e->variants[0].host_set.smt, 0);
	assert_int_equal(e->variants[0].host_set.cpu_dma_latency_us, -1);
	assert_string_equal(e->variants[1].host_set.thp, "madvise");
	assert_int_equal(e->variants[1].host_set.smt, 0);
	assert_int_equal(e->variants[1].host_set.cpu_dma_latency_us, 10);
	/* Each key where it was set, the variant's or the top's. */
	int line = 0, col = 0;
	assert_true(cfg_host_key_at(&e->variants[1].host_set, "thp", &line, &col));
	assert_int_equal(line, 3);
	assert_int_equal(col, 49);
	assert_true(cfg_host_key_at(&e->variants[1].host_set, "smt", &line, &col));
	assert_int_equal(line, 2);
	assert_int_equal(col, 20);
	assert_false(cfg_host_key_at(&e->variants[0].host_set, "cpu_dma_latency_us", &line, &col));
	experiment_free(e);
}

/* The new knob kinds as schedrig restore sees a journal row (a database
 * is not trusted): only a host setting's own file, derived from kind and
 * name. */
static void test_row_check(void **state)
{
	(void)state;
	char file[4096], err[1024], want[600];
	fresh_machine();
	snprintf(want, sizeof(want), "%s/sys/kernel/mm/transparent_hugepage/enabled", dir);
	assert_int_equal(knob_row_check("sysfs", "kernel/mm/transparent_hugepage/enabled", want,
					"madvise", file, sizeof(file), err, sizeof(err)), 0);
	assert_string_equal(file, want);
	assert_int_equal(knob_row_check("sysfs", "kernel/mm/transparent_hugepage/../../../etc/x",
					want, "1", file, sizeof(file), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refused"));
	snprintf(want, sizeof(want), "%s/proc/irq/9/smp_affinity_list", dir);
	assert_int_equal(knob_row_check("irq", "9", want, "0-1", file, sizeof(file), err,
					sizeof(err)), 0);
	assert_int_equal(knob_row_check("irq", "24", want, "0-1", file, sizeof(file), err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "refused"));
	assert_int_equal(knob_row_check("irq", "09", want, "0-1", file, sizeof(file), err,
					sizeof(err)), -1);
	/* A write outside the host settings' files is refused whatever the kind. */
	snprintf(want, sizeof(want), "%s/sys/devices/system/cpu/online", dir);
	assert_int_equal(knob_write_verify(want, "0", NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not a knob schedrig sets"));
	assert_string_equal(get(CPU "online"), "0-1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_restore),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_half_way),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_row_check),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
