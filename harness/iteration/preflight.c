/* Preflight checks before anything runs (preflight.h). */
#include "preflight.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "knobs.h"
#include "loadcg.h"
#include "schedattr.h"

#define CAP_SYS_NICE_BIT 23
#define CAP_DAC_OVERRIDE_BIT 1

/* Append the message to b unless b holds it already (a load's instances,
 * a variant's features, ask the same); true when it was new. A message at
 * a config position (at_line > 0) starts ":LINE:COL: " (print_lines). */
static bool add(struct buf *b, int at_line, int at_col, const char *variant, const char *load,
		const char *fmt, va_list ap)
{
	char *msg = NULL;
	struct buf line = {0};
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	buf_puts(&line, "\n");
	if (at_line > 0)
		buf_printf(&line, ":%d:%d: ", at_line, at_col);
	if (variant)
		buf_printf(&line, "variant %s", variant);
	if (load)
		buf_printf(&line, "%sload %s", variant ? ", " : "", load);
	buf_printf(&line, "%s%s\n", variant || load ? ": " : "", msg ? msg : fmt);
	free(msg);
	/* b's lines each end in '\n': compare with "\n" before them. */
	struct buf all = {0};
	buf_puts(&all, "\n");
	buf_puts(&all, buf_str(b));
	bool fresh = !strstr(buf_str(&all), buf_str(&line));
	if (fresh)
		buf_puts(b, buf_str(&line) + 1);
	buf_free(&all);
	buf_free(&line);
	return fresh;
}

void preflight_refuse(struct preflight *pf, const char *variant, const char *load,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (add(&pf->refusals, 0, 0, variant, load, fmt, ap))
		pf->n_refusals++;
	va_end(ap);
}

void preflight_refuse_at(struct preflight *pf, int line, int col, const char *variant,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (add(&pf->refusals, line, col, variant, NULL, fmt, ap))
		pf->n_refusals++;
	va_end(ap);
}

void preflight_warn(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(&pf->warnings, 0, 0, variant, load, fmt, ap);
	va_end(ap);
}

void preflight_note(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(&pf->notes, 0, 0, variant, load, fmt, ap);
	va_end(ap);
}

/* Whether this process has capability bit: effective uid 0 or the bit in
 * its effective set (/proc/self/status CapEff). CAP_SYS_NICE (23): lower
 * nice, use FIFO/RR and negative latency_nice; CAP_DAC_OVERRIDE (1): write
 * files it does not own. */
static bool has_cap(int bit)
{
	char line[256];
	unsigned long long caps = 0;
	if (geteuid() == 0)
		return true;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7))
			caps = strtoull(line + 7, NULL, 16);
	if (f)
		fclose(f);
	return (caps >> bit) & 1;
}

/* The soft limit of resource res (RLIM_INFINITY as a large value). */
static rlim_t soft_limit(int res)
{
	struct rlimit rl;
	return getrlimit(res, &rl) ? 0 : rl.rlim_cur;
}

/* The lowest nice a load may be given without CAP_SYS_NICE: 20 - the
 * RLIMIT_NICE soft limit (sched(7)), or this process's own nice when
 * lower (the loads inherit it, and keeping it needs no privilege). */
static long long nice_floor(void)
{
	rlim_t lim = soft_limit(RLIMIT_NICE);
	long long floor = lim == RLIM_INFINITY || lim >= 40 ? -20 : 20 - (long long)lim;
	errno = 0;
	int own = getpriority(PRIO_PROCESS, 0);
	return !errno && own < floor ? own : floor;
}

/* What instance pi asks for that needs CAP_SYS_NICE ("" none), into why:
 * beyond what the resource limits the loads inherit allow without it
 * (sched(7): RLIMIT_NICE lets nice go down to 20 - limit, RLIMIT_RTPRIO
 * allows FIFO and RR up to the limit, whether by policy or by the
 * driver's own priority parameter). */
static void needs_sys_nice(const struct plan_instance *pi, char *why, size_t size)
{
	const struct sched_req *r = &pi->sched;
	const char *param = pi->load->ops->rt_priority_param;
	long long prio = r->has_priority ? r->priority :
			 param ? params_int(&pi->params, param, 0) : 0;
	long long floor = nice_floor();
	rlim_t rt = soft_limit(RLIMIT_RTPRIO);
	why[0] = '\0';
	if (r->has_nice && r->nice < floor)
		snprintf(why, size, "%s", r->nice < 0 ? "a negative nice" :
			 "a nice below schedrig's own");
	else if (preflight_is_rt(pi) && (rlim_t)(prio > 0 ? prio : 1) > rt)
		snprintf(why, size, "a real-time policy (fifo, rr)");
	else if (r->has_latency_nice && r->latency_nice < 0)
		snprintf(why, size, "a negative latency_nice");
}

void preflight_privileges(struct preflight *pf, const struct cfg_variant *v)
{
	const struct plan *p = pf->p;
	if (geteuid() != 0 && knobs_count(v))
		preflight_refuse(pf, v->name, NULL, "its knobs (sysctl, debugfs, sched_features) need"
				 " root, and schedrig runs as uid %d", (int)geteuid());
	if (geteuid() != 0 && cfg_host_any(&v->host_set))
		preflight_refuse(pf, v->name, NULL, "its host: settings need root, and schedrig runs"
				 " as uid %d", (int)geteuid());
	char dir[1024];
	int denied = plan_uses_cgroup(p, NULL) && loadcg_cpu_dir(dir, sizeof(dir)) == 0 &&
		     access(dir, W_OK) ? errno : 0;
	if (denied && !has_cap(CAP_DAC_OVERRIDE_BIT))
		preflight_refuse(pf, v->name, NULL, "cgroup attributes need write access to %s and the"
				 " cgroups below it (%s)", dir, strerror(denied));
	if (has_cap(CAP_SYS_NICE_BIT))
		return;
	for (size_t l = 0; l < pf->e->n_loads; l++) {
		char why[160] = "";
		for (size_t c = 0; c < p->n_cells && !*why; c++)
			for (size_t i = 0; i < p->cells[c].n_inst && !*why; i++)
				if (p->cells[c].inst[i].load == &pf->e->loads[l])
					needs_sys_nice(&p->cells[c].inst[i], why, sizeof(why));
		if (*why)
			preflight_refuse(pf, v->name, pf->e->loads[l].name, "%s needs CAP_SYS_NICE"
					 " (or a higher RLIMIT_NICE, RLIMIT_RTPRIO), which schedrig (uid %d)"
					 " does not have: run it as root", why,
					 (int)geteuid());
	}
}

void preflight_cgroup_controller(struct preflight *pf, const struct cfg_variant *v)
{
	char why[1024];
	if (!plan_uses_cgroup(pf->p, NULL) || loadcg_cpu_controller(why, sizeof(why)) == 0)
		return;
	for (size_t l = 0; l < pf->e->n_loads; l++)
		if (plan_uses_cgroup(pf->p, &pf->e->loads[l]))
			preflight_refuse(pf, v->name, pf->e->loads[l].name, "%s", why);
}

static void print_lines(const struct buf *b, const char *path, const char *kind, FILE *f)
{
	char *copy = xstrdup(buf_str(b)), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* ":LINE:COL: MESSAGE" (add): "PATH:LINE:COL: KIND MESSAGE". */
		size_t at = l[0] == ':' ? 1 + strspn(l + 1, "0123456789:") : 0;
		if (at)
			fprintf(f, "%s%.*s %s%s\n", path, (int)at, l, kind, l + at + 1);
		else
			fprintf(f, "%s: %s%s\n", path, kind, l);
	}
	free(copy);
}

void preflight_print(const struct preflight *pf, FILE *problems, FILE *notes)
{
	print_lines(&pf->refusals, pf->e->path, "", problems);
	print_lines(&pf->warnings, pf->e->path, "warning: ", problems);
	if (notes)
		print_lines(&pf->notes, pf->e->path, "note: ", notes);
}

void preflight_free(struct preflight *pf)
{
	buf_free(&pf->refusals);
	buf_free(&pf->warnings);
	buf_free(&pf->notes);
}

bool preflight_is_rt(const struct plan_instance *pi)
{
	const char *param = pi->load->ops->rt_priority_param;
	bool rt_policy = pi->sched.has_policy &&
			 (pi->sched.policy == SCHED_FIFO || pi->sched.policy == SCHED_RR);
	return rt_policy || (param && params_int(&pi->params, param, 0) > 0);
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
	bool cgroup = plan_uses_cgroup(p, NULL);
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

void preflight_check_slice(struct preflight *pf, const struct cfg_variant *v,
			   const char *release)
{
	int major = 0, minor = 0;
	bool known = release && sscanf(release, "%d.%d", &major, &minor) == 2;
	for (size_t l = 0; l < pf->e->n_loads; l++) {
		if (!plan_uses_slice(pf->p, &pf->e->loads[l]))
			continue;
		if (!known)
			preflight_warn(pf, v->name, pf->e->loads[l].name, "slice_us: whether kernel"
				       " %s supports it is known when it boots", v->kernel);
		else if (major < 6 || (major == 6 && minor < 12))
			preflight_refuse(pf, v->name, pf->e->loads[l].name, "slice_us: kernel %s does"
					 " not support slice_us (custom slices came in 6.12)", release);
	}
}
