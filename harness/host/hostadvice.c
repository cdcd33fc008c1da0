/* The advice of schedrig host (hostadvice.h). */
#include "hostadvice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

/* A deep idle state: exit latency above this many microseconds (mmtests
 * and rt-tests advise holding such states off for latency work). */
#define DEEP_IDLE_US 10

static const char *get(const struct host_fp *fp, const char *field)
{
	const struct host_field *f = hostfp_get(fp, field);
	return f ? f->value : "";
}

static bool known(const char *v)
{
	return *v && strcmp(v, "absent") && strncmp(v, "unreadable", 10) && strcmp(v, "no cpufreq");
}

/* The deepest enabled idle state's name and exit latency in states
 * ("POLL 0us, C1 2us, C6 disabled 133us (cpus 3); ..."), into name/us. */
static long deepest_enabled(const char *states, char *name, size_t size)
{
	long deepest = -1;
	char *copy = xstrdup(states), *save = NULL;
	for (char *tok = strtok_r(copy, ",;", &save); tok; tok = strtok_r(NULL, ",;", &save)) {
		tok += strspn(tok, " ");
		char *us = strstr(tok, "us");
		char *sp = us ? us : NULL;
		while (sp && sp > tok && sp[-1] != ' ')
			sp--;
		if (!us || strstr(tok, " disabled ") || sp == tok)
			continue;
		long lat = strtol(sp, NULL, 10);
		if (lat > deepest) {
			deepest = lat;
			snprintf(name, size, "%.*s", (int)(strcspn(tok, " ")), tok);
		}
	}
	free(copy);
	return deepest;
}

static int count_cpus(const char *list)
{
	size_t n;
	bool ok;
	free(cpulist_parse(list, &n, &ok));
	return ok ? (int)n : 0;
}

/* A setting the rig advises against: field's value is `value` (or, with
 * differs, a known value other than it); the advice, a format that may
 * take the value once with %s. */
struct advice_rule {
	const char *field, *value;
	bool differs;
	const char *advice;
};

static const struct advice_rule frequency_rules[] = {
	{"cpufreq.governor", "performance", true,
	 "cpufreq governor %s: the frequency follows the load, so it moves with what is measured;"
	 " host: {governor: performance}"},
	{"cpufreq.boost", "on", false,
	 "turbo/boost is on: the frequency depends on temperature and on how many cores are busy;"
	 " host: {boost: off}"},
};

static const struct advice_rule service_rules[] = {
	{"services.irqbalance", "running", false,
	 "irqbalance is running: it moves IRQs during a run; stop it, and pin them:"
	 " host: {housekeeping_cpus: \"0\", irq_affinity: housekeeping}"},
	{"services.tuned", "running", false,
	 "tuned is running: it may change the governor and other settings during a run; stop it"},
	{"thp.enabled", "always", false,
	 "THP is always: khugepaged and compaction run when they will; host: {thp: madvise}"
	 " (or never)"},
};

static const struct advice_rule clock_rules[] = {
	{"clocksource", "tsc", true,
	 "clocksource %s: reading the time costs more than with tsc, and every timestamp a load"
	 " takes pays it"},
	{"sysctl.kernel.sched_autogroup_enabled", "1", false,
	 "autogroup is on: nice only weighs tasks of one session; set autogroup: off on variants"
	 " that compare nice across loads"},
};

/* The advice of each of the n rules that fp matches, in their order. */
static void advise(const struct host_fp *fp, const struct advice_rule *rules, size_t n,
		   struct argv *a)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = get(fp, rules[i].field);
		bool match = rules[i].differs ? known(v) && strcmp(v, rules[i].value)
					      : !strcmp(v, rules[i].value);
		if (match)
			argv_addf(a, rules[i].advice, v);
	}
}

#define N_RULES(r) (sizeof(r) / sizeof((r)[0]))

size_t hostadvice(const struct host_fp *fp, struct argv *a)
{
	size_t before = a->n;
	advise(fp, frequency_rules, N_RULES(frequency_rules), a);
	if (!strcmp(get(fp, "smt.control"), "on") && strcmp(get(fp, "smt.active"), "0"))
		argv_addf(a, "SMT is on: a load shares its core with whatever runs on the sibling"
			  " thread; for latency work host: {smt: off}");
	char name[64] = "";
	long deep = deepest_enabled(get(fp, "cpuidle.states"), name, sizeof(name));
	long long held;
	bool limit = parse_ll(get(fp, "pm_qos.cpu_dma_latency_us"), &held) && held <= DEEP_IDLE_US;
	if (deep > DEEP_IDLE_US && !limit)
		argv_addf(a, "idle state %s (exit latency %ld us) is enabled: a wakeup from it adds"
			  " that to latencies (cyclictest's max); host: {cpu_dma_latency_us: 0}"
			  " holds deep states off for the run", name, deep);
	advise(fp, service_rules, N_RULES(service_rules), a);
	const char *nodes = get(fp, "topology.numa_nodes");
	if (!strcmp(get(fp, "sysctl.kernel.numa_balancing"), "1") && atoi(nodes) > 1)
		argv_addf(a, "NUMA balancing is on over %d nodes: it migrates tasks and pages during"
			  " a run; host: {numa_balancing: off} unless it is what you measure",
			  atoi(nodes));
	int online = count_cpus(get(fp, "cpu.online"));
	const char *iso = get(fp, "cpu.isolated");
	if (online >= 4 && (!strcmp(iso, "none") || !known(iso)))
		argv_addf(a, "no CPU is isolated: the rig, IRQs and kernel threads share CPUs with"
			  " the loads; host: {housekeeping_cpus: \"0\", irq_affinity: housekeeping},"
			  " or boot with isolcpus= and nohz_full= (rteval's housekeeping CPUs)");
	advise(fp, clock_rules, N_RULES(clock_rules), a);
	double load = atof(get(fp, "loadavg"));
	if (online && load > online / 4.0)
		argv_addf(a, "the machine is busy (load average %.2f on %d CPUs): other work competes"
			  " with the loads", load, online);
	return a->n - before;
}
