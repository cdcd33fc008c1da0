/* What a variant's config declares about its fingerprint (hostdecl.h). */
#include "hostdecl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "knobs.h"
#include "util.h"

/* Fields another kernel declares: its identity (build, version, the
 * command line its boot gives it), what its source decides (the scheduler
 * features and debugfs tunables, memory it reserves, its drivers' IRQ
 * numbering). Not its defaults of what a config can set (THP, NUMA
 * balancing, the other sysctls, the idle and frequency governors, the
 * clocksource): two kernels that differ there are noted, marked "(kernel
 * default)", for they are what a reader of a kernel-against-kernel table
 * must be told (report_notes_host). */
static const char *const kernel_fields[] = {
	"kernel.release", "kernel.version", "kernel.config_sha256", "kernel.cmdline",
	"sched.features", "debugfs.sched*", "mem.total_kb", "irq.*",
};

/* Fields the machine decides (or a guest's size): declared when two
 * variants run on different machines or guests. The debugfs tunables are
 * among them: the kernel scales latency_ns, min_granularity_ns,
 * wakeup_granularity_ns and base_slice_ns by 1 + log2(online CPUs)
 * (tunable_scaling 1). */
static const char *const machine_fields[] = {
	"cpu.*", "topology.*", "cache.*", "mem.*", "irq.*", "cpufreq.*", "cpuidle.*", "smt.*",
	"clocksource", "pm_qos.*", "services.*", "rig.cpus", "debugfs.sched*",
};

/* Fields the kernel command line decides. */
static const char *const cmdline_fields[] = {"kernel.cmdline", "cmdline.*", "cpu.isolated",
					     "cpu.nohz_full"};

static void add(struct hostdecls *d, const char *field, const char *value, const char *by,
		enum hostdecl_check check)
{
	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	d->v[d->n++] = (struct hostdecl){xstrdup(field), xstrdup(value), xstrdup(by), check};
}

static void add_group(struct hostdecls *d, const char *const *fields, size_t n, const char *value,
		      const char *by)
{
	for (size_t i = 0; i < n; i++)
		add(d, fields[i], value, by, HOSTDECL_NONE);
}

/* A knob's field: its canonical name with '/' as '.' under prefix. */
static void add_knob(struct hostdecls *d, const char *kind, const char *prefix, const char *key,
		     const char *value)
{
	char *canon = knob_canonical(kind, key);
	for (char *p = canon; *p; p++)
		*p = *p == '/' ? '.' : *p;
	char *field = xasprintf("%s%s", prefix, canon), *by = xasprintf("%s %s", kind, key);
	add(d, field, value, by, HOSTDECL_SAME);
	free(field);
	free(by);
	free(canon);
}

/* What v boots and where: the kernel's identity and the machine's. */
static void add_identity(const struct cfg_variant *v, struct hostdecls *d)
{
	char *kernel, *machine, *append;
	const char *build = v->build ? v->build : NULL;
	switch (v->boot) {
	case BOOT_QEMU:
		kernel = xasprintf("kernel %s%s", build ? "build " : "", build ? build : v->kernel);
		machine = xasprintf("qemu cpus=%d threads=%d memory_mb=%d accel=%s", v->cpus,
				    v->threads, v->memory_mb, v->accel ? v->accel : "auto");
		append = xstrdup(v->append ? v->append : "");
		break;
	case BOOT_SSH:
		kernel = v->kexec_kernel || build ? xasprintf("kexec %s%s", build ? "build " : "",
							     build ? build : v->kexec_kernel)
						  : xasprintf("the running kernel of %s", v->host);
		machine = xasprintf("ssh %s", v->host);
		append = xstrdup(v->kexec_append ? v->kexec_append : "");
		break;
	case BOOT_LAVA:
		kernel = xasprintf("kernel %s", v->kernel);
		machine = xasprintf("lava %s %s", v->lab ? v->lab->name : "", v->device_type);
		append = xstrdup(v->append ? v->append : "");
		break;
	default:
		kernel = xstrdup("the running kernel");
		machine = xstrdup("this machine");
		append = xstrdup("");
		break;
	}
	add_group(d, kernel_fields, sizeof(kernel_fields) / sizeof(kernel_fields[0]), kernel, "kernel");
	add_group(d, machine_fields, sizeof(machine_fields) / sizeof(machine_fields[0]), machine,
		  "machine");
	add_group(d, cmdline_fields, sizeof(cmdline_fields) / sizeof(cmdline_fields[0]), append,
		  "append");
	free(kernel);
	free(machine);
	free(append);
}

/* The host: settings' fields. */
static void add_settings(const struct cfg_host *h, struct hostdecls *d)
{
	char num[32];
	if (h->governor)
		add(d, "cpufreq.governor", h->governor, "host: governor", HOSTDECL_SAME);
	if (h->boost >= 0)
		add(d, "cpufreq.boost", h->boost ? "on" : "off", "host: boost", HOSTDECL_SAME);
	if (h->smt >= 0) {
		const char *v = h->smt ? "on" : "off";
		add(d, "smt.control", v, "host: smt", HOSTDECL_SAME);
		/* What SMT off moves besides: the siblings go offline, and
		 * the scaled debugfs tunables follow the online CPUs. */
		static const char *const moved[] = {"smt.active", "cpu.online", "topology.*",
						    "cache.llc", "irq.*", "cpuidle.*", "cpufreq.*",
						    "cpu.microcode", "debugfs.sched*"};
		for (size_t i = 0; i < sizeof(moved) / sizeof(moved[0]); i++)
			add(d, moved[i], v, "host: smt", HOSTDECL_NONE);
	}
	if (h->thp)
		add(d, "thp.enabled", h->thp, "host: thp", HOSTDECL_SAME);
	if (h->numa_balancing >= 0)
		add(d, "sysctl.kernel.numa_balancing", h->numa_balancing ? "1" : "0",
		    "host: numa_balancing", HOSTDECL_SAME);
	if (h->cpu_dma_latency_us >= 0) {
		snprintf(num, sizeof(num), "%lld", h->cpu_dma_latency_us);
		add(d, "pm_qos.cpu_dma_latency_us", num, "host: cpu_dma_latency_us", HOSTDECL_AT_MOST);
	}
	if (h->irq_affinity) {
		const char *cpus = !strcmp(h->irq_affinity, "housekeeping") ? h->housekeeping_cpus
									    : h->irq_affinity;
		add(d, "irq.*", cpus, "host: irq_affinity", HOSTDECL_NONE);
	}
	if (h->housekeeping_cpus)
		add(d, "rig.cpus", h->housekeeping_cpus, "host: housekeeping_cpus", HOSTDECL_CPUS);
}

void hostdecl_of_variant(const struct cfg_variant *v, struct hostdecls *d)
{
	memset(d, 0, sizeof(*d));
	if (v->autogroup >= 0)
		add(d, "sysctl.kernel.sched_autogroup_enabled", v->autogroup ? "1" : "0", "autogroup",
		    HOSTDECL_SAME);
	for (size_t i = 0; i < v->n_sysctl; i++)
		add_knob(d, "sysctl", "sysctl.", v->sysctl[i].key, v->sysctl[i].value);
	for (size_t i = 0; i < v->n_debugfs; i++)
		add_knob(d, "debugfs", "debugfs.sched.", v->debugfs[i].key, v->debugfs[i].value);
	if (v->n_sched_features) {
		struct buf b = {0};
		for (size_t i = 0; i < v->n_sched_features; i++)
			buf_printf(&b, "%s%s", i ? " " : "", v->sched_features[i].key);
		add(d, "sched.features", buf_str(&b), "sched_features", HOSTDECL_LISTS);
		buf_free(&b);
	}
	add_settings(&v->host_set, d);
	add_identity(v, d);
}

void hostdecls_free(struct hostdecls *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].field);
		free(d->v[i].value);
		free(d->v[i].by);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* Does pattern (exact, or a prefix ending in '*') name field? */
static bool matches(const char *pattern, const char *field)
{
	size_t n = strlen(pattern);
	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, field, n - 1);
	return !strcmp(pattern, field);
}

void hostdecl_values(const struct hostdecls *d, const char *field, struct buf *out)
{
	for (size_t i = 0; i < d->n; i++)
		if (matches(d->v[i].field, field))
			buf_printf(out, "%s=%s;", d->v[i].by, d->v[i].value);
}

/* Is every word of want among the words of have? */
static bool words_in(const char *want, const char *have)
{
	char *copy = xstrdup(want), *save = NULL;
	bool all = true;
	for (char *w = strtok_r(copy, " ", &save); w && all; w = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(w);
		bool found = false;
		for (const char *p = have; !found && (p = strstr(p, w)); p += n)
			found = (p == have || p[-1] == ' ') && (p[n] == ' ' || !p[n]);
		all = found;
	}
	free(copy);
	return all;
}

static bool same_cpus(const char *a, const char *b)
{
	size_t na, nb;
	bool oka, okb;
	int *x = cpulist_parse(a, &na, &oka), *y = cpulist_parse(b, &nb, &okb);
	bool same = oka && okb && na == nb && (!na || !memcmp(x, y, na * sizeof(*x)));
	free(x);
	free(y);
	return same;
}

static bool holds(const struct hostdecl *dc, const char *value)
{
	long long have, want;
	switch (dc->check) {
	case HOSTDECL_SAME: {
		/* Numbers compare as numbers ("010" is not written, "1" == "1"). */
		if (parse_ll(value, &have) && parse_ll(dc->value, &want))
			return have == want;
		return !strcmp(value, dc->value);
	}
	case HOSTDECL_AT_MOST:
		return parse_ll(value, &have) && parse_ll(dc->value, &want) && have <= want;
	case HOSTDECL_LISTS:
		return words_in(dc->value, value);
	case HOSTDECL_CPUS:
		return same_cpus(dc->value, value);
	case HOSTDECL_NONE:
		break;
	}
	return true;
}

int hostdecl_check(const struct hostdecls *d, const struct host_fp *fp, char *err, size_t errsz)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct hostdecl *dc = &d->v[i];
		const struct host_field *f = dc->check == HOSTDECL_NONE ? NULL : hostfp_get(fp, dc->field);
		if (f && !holds(dc, f->value))
			return err_printf(err, errsz, "%s reads %s, %s asked for %s%s", dc->field,
					  f->value, dc->by, dc->check == HOSTDECL_AT_MOST ? "at most " : "",
					  dc->value);
	}
	return 0;
}
