/* Checks before a run where its loads run: see preflight.h. */
#include "preflight.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "knobs.h"
#include "loadcg.h"

#define CAP_DAC_OVERRIDE 1
#define CAP_SYS_NICE 23

bool preflight_is_rt(const struct plan_instance *pi)
{
	const char *param = pi->load->ops->rt_priority_param;
	bool rt_policy = pi->sched.has_policy &&
			 (pi->sched.policy == SCHED_FIFO || pi->sched.policy == SCHED_RR);
	return rt_policy || (param && params_int(&pi->params, param, 0) > 0);
}

bool preflight_uses_cgroup(const struct plan *p)
{
	for (size_t c = 0; c < p->n_cells; c++)
		for (size_t i = 0; i < p->cells[c].n_inst; i++)
			if (sched_req_has_cgroup(&p->cells[c].inst[i].sched))
				return true;
	return false;
}

/* The first RT instance of p, NULL when none. */
static const struct plan_instance *first_rt(const struct plan *p)
{
	for (size_t c = 0; c < p->n_cells; c++)
		for (size_t i = 0; i < p->cells[c].n_inst; i++)
			if (preflight_is_rt(&p->cells[c].inst[i]))
				return &p->cells[c].inst[i];
	return NULL;
}

/* CONFIG_RT_GROUP_SCHED: the RT budget of the cpu cgroup the rig (and its
 * loads) run in, from its cpu.rt_runtime_us; false when the kernel has no
 * RT group scheduling (no such file). dir receives the cgroup. */
static bool rt_group_budget(long long *runtime_us, char *dir, size_t size)
{
	char path[1200], text[32];
	if (loadcg_cpu_dir(dir, size))
		return false;
	snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(text, sizeof(text), f) != NULL;
	fclose(f);
	text[strcspn(text, "\n")] = '\0';
	return ok && parse_ll(text, runtime_us);
}

int preflight_refusals(const struct plan *p, char *err, size_t errsz)
{
	const struct plan_instance *rt = first_rt(p);
	bool cgroup = preflight_uses_cgroup(p);
	char dir[1024];
	long long budget;
	bool rt_group = rt_group_budget(&budget, dir, sizeof(dir));

	if (rt && rt_group && budget == 0) {
		snprintf(err, errsz, "load %s runs real-time (SCHED_FIFO/RR), but this kernel has"
			 " CONFIG_RT_GROUP_SCHED and the cpu cgroup the loads run in, %s, has"
			 " cpu.rt_runtime_us 0: every real-time load would fail with EPERM; give it"
			 " a budget (echo 950000 > %s/cpu.rt_runtime_us, its parents first) or run"
			 " the rig in the root cpu cgroup", rt->load->name, dir, dir);
		return -1;
	}
	if (rt && rt_group && cgroup) {
		snprintf(err, errsz, "load %s runs real-time (SCHED_FIFO/RR), and cgroup attributes"
			 " give the loads cpu-controlled cgroups of their own, which under this"
			 " kernel's CONFIG_RT_GROUP_SCHED have no real-time budget (EPERM): drop"
			 " sched: cgroup: from this config or the real-time load", rt->load->name);
		return -1;
	}
	return cgroup ? loadcg_enable_cpu(err, errsz) : 0;
}

/* Is capability cap in this process's effective set (/proc/self/status
 * CapEff)? */
static bool has_cap(int cap)
{
	char line[256];
	unsigned long long eff = 0;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7))
			eff = strtoull(line + 7, NULL, 16);
	if (f)
		fclose(f);
	return (eff >> cap) & 1;
}

/* What of pi will fail without CAP_SYS_NICE, into why (""). */
static void nice_privilege(const struct plan_instance *pi, char *why, size_t size)
{
	struct rlimit nice_rl, rt_rl;
	getrlimit(RLIMIT_NICE, &nice_rl);
	getrlimit(RLIMIT_RTPRIO, &rt_rl);
	const struct sched_req *r = &pi->sched;
	const char *param = pi->load->ops->rt_priority_param;
	long long prio = r->has_priority ? r->priority :
			 param ? params_int(&pi->params, param, 0) : 0;
	why[0] = '\0';
	/* RLIMIT_NICE: the nice value may go down to 20 - rlim_cur
	 * (getrlimit(2)); the rig's own nice is the floor without it. */
	long long floor = nice_rl.rlim_cur == RLIM_INFINITY ? -20 : 20 - (long long)nice_rl.rlim_cur;
	errno = 0;
	int own = getpriority(PRIO_PROCESS, 0);
	if (!errno && own < floor)
		floor = own;
	if (r->has_nice && r->nice < floor)
		snprintf(why, size, "nice %d (RLIMIT_NICE allows down to %lld)", r->nice, floor);
	else if (preflight_is_rt(pi) && rt_rl.rlim_cur != RLIM_INFINITY &&
		 (unsigned long long)prio > (unsigned long long)rt_rl.rlim_cur)
		snprintf(why, size, "real-time priority %lld (RLIMIT_RTPRIO is %llu)", prio,
			 (unsigned long long)rt_rl.rlim_cur);
}

size_t preflight_privilege_warnings(const struct experiment *e, const struct plan *p, FILE *out)
{
	size_t n = 0;
	char why[256], dir[1024];
	bool nice_cap = has_cap(CAP_SYS_NICE), files_cap = has_cap(CAP_DAC_OVERRIDE);

	for (size_t c = 0; c < p->n_cells && !nice_cap; c++) {
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			nice_privilege(&p->cells[c].inst[i], why, sizeof(why));
			if (!why[0])
				continue;
			fprintf(out, "schedrig: warning: load %s in cell %s: %s will fail here"
				" without CAP_SYS_NICE (not root)\n", p->cells[c].inst[i].load->name,
				p->cells[c].name, why);
			n++;
		}
	}
	for (size_t v = 0; v < e->n_variants && !files_cap && geteuid() != 0; v++) {
		if (e->variants[v].boot != BOOT_LOCAL || !knobs_count(&e->variants[v]))
			continue;
		fprintf(out, "schedrig: warning: variant %s changes kernel knobs (sysctl, debugfs,"
			" sched_features, autogroup): writing them needs root\n", e->variants[v].name);
		n++;
	}
	if (preflight_uses_cgroup(p) && loadcg_cpu_dir(dir, sizeof(dir)) == 0 &&
	    access(dir, W_OK) && !files_cap) {
		fprintf(out, "schedrig: warning: cgroup attributes need write access to %s and the"
			" cgroups below it (%s)\n", dir, strerror(errno));
		n++;
	}
	return n;
}

bool preflight_nice_differs(const struct plan *p, char *detail, size_t size)
{
	for (size_t c = 0; c < p->n_cells; c++) {
		const struct plan_cell *cell = &p->cells[c];
		bool differs = false;
		for (size_t i = 1; i < cell->n_inst; i++) {
			const struct sched_req *a = &cell->inst[0].sched, *b = &cell->inst[i].sched;
			differs |= (a->has_nice ? a->nice : 0) != (b->has_nice ? b->nice : 0);
		}
		if (!differs)
			continue;
		struct buf b = {0};
		buf_printf(&b, "cell %s:", cell->name);
		for (size_t i = 0; i < cell->n_inst; i++)
			buf_printf(&b, "%s %s nice=%d", i ? "," : "", cell->inst[i].load->name,
				   cell->inst[i].sched.has_nice ? cell->inst[i].sched.nice : 0);
		snprintf(detail, size, "%s", buf_str(&b));
		buf_free(&b);
		return true;
	}
	return false;
}
