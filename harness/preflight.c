/* Preflight checks before anything runs (preflight.h). */
#include "preflight.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "knobs.h"
#include "schedattr.h"
#include "variant.h"

#define CAP_SYS_NICE_BIT 23

/* Append the message to b unless b holds it already (a load's instances,
 * a variant's features, ask the same); true when it was new. */
static bool add(struct buf *b, const char *variant, const char *load, const char *fmt,
		va_list ap)
{
	char *msg = NULL;
	struct buf line = {0};
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	buf_puts(&line, "\n");
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
	if (add(&pf->refusals, variant, load, fmt, ap))
		pf->n_refusals++;
	va_end(ap);
}

void preflight_warn(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(&pf->warnings, variant, load, fmt, ap);
	va_end(ap);
}

void preflight_note(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add(&pf->notes, variant, load, fmt, ap);
	va_end(ap);
}

/* Whether this process may lower nice, use FIFO/RR and negative
 * latency_nice: effective uid 0 or CAP_SYS_NICE in its effective set
 * (/proc/self/status CapEff, bit 23). */
static bool can_sys_nice(void)
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
	return caps & (1ULL << CAP_SYS_NICE_BIT);
}

/* The soft limit of resource res (RLIM_INFINITY as a large value). */
static rlim_t soft_limit(int res)
{
	struct rlimit rl;
	return getrlimit(res, &rl) ? 0 : rl.rlim_cur;
}

/* What instance attributes need CAP_SYS_NICE ("" none): beyond what the
 * resource limits the loads inherit allow without it (sched(7):
 * RLIMIT_NICE lets nice go down to 20 - limit, RLIMIT_RTPRIO allows FIFO
 * and RR up to the limit). */
static const char *needs_sys_nice(const struct sched_req *r)
{
	if (r->has_nice && r->nice < 0 && (rlim_t)(20 - r->nice) > soft_limit(RLIMIT_NICE))
		return "a negative nice";
	if (r->has_policy && (r->policy == SCHED_FIFO || r->policy == SCHED_RR) &&
	    (rlim_t)(r->has_priority ? r->priority : 1) > soft_limit(RLIMIT_RTPRIO))
		return "a real-time policy (fifo, rr)";
	if (r->has_latency_nice && r->latency_nice < 0)
		return "a negative latency_nice";
	return "";
}

void preflight_privileges(struct preflight *pf, const struct cfg_variant *v)
{
	const struct plan *p = pf->p;
	if (geteuid() != 0 && knobs_count(v))
		preflight_refuse(pf, v->name, NULL, "its knobs (sysctl, debugfs, sched_features) need"
				 " root, and schedrig runs as uid %d", (int)geteuid());
	if (can_sys_nice())
		return;
	for (size_t l = 0; l < pf->e->n_loads; l++) {
		const char *why = "";
		for (size_t c = 0; c < p->n_cells && !*why; c++)
			for (size_t i = 0; i < p->cells[c].n_inst && !*why; i++)
				if (p->cells[c].inst[i].load == &pf->e->loads[l])
					why = needs_sys_nice(&p->cells[c].inst[i].sched);
		if (*why)
			preflight_refuse(pf, v->name, pf->e->loads[l].name, "%s needs CAP_SYS_NICE"
					 " (or a higher RLIMIT_NICE, RLIMIT_RTPRIO), which schedrig (uid %d)"
					 " does not have: run it as root", why,
					 (int)geteuid());
	}
}

/* The plan's own checks: background lifetimes. */
static void check_background(struct preflight *pf)
{
	const struct experiment *e = pf->e;
	for (size_t l = 0; l < e->n_loads; l++) {
		const struct cfg_load *ld = &e->loads[l];
		if (ld->role != ROLE_BACKGROUND)
			continue;
		if (ld->timeout_s <= e->warmup_s)
			preflight_refuse(pf, NULL, ld->name, "timeout_s %g ends before the measured loads"
					 " start (warmup_s %g): a background load's timeout_s guards its"
					 " start-up and its stop", ld->timeout_s, e->warmup_s);
		if (ld->ops->summarizes_on_stop)
			continue;
		if (ld->repeat)
			preflight_note(pf, NULL, ld->name, "%s cannot report a run the stop cuts short:"
				       " each repetition that ends while the measured loads run is a"
				       " sample, the one running at their end is not", ld->ops->name);
		else
			preflight_note(pf, NULL, ld->name, "%s cannot report a run the stop cuts short:"
				       " it yields samples only when it ends before the measured loads"
				       " do (with repeat: true, each run that fits is a sample)",
				       ld->ops->name);
	}
}

size_t preflight_check(struct preflight *pf)
{
	for (size_t v = 0; v < pf->e->n_variants; v++) {
		const struct variant_backend *b = variant_backend_for(pf->e->variants[v].boot);
		if (b->preflight)
			b->preflight(pf, &pf->e->variants[v]);
	}
	check_background(pf);
	return pf->n_refusals;
}

static void print_lines(const struct buf *b, const char *path, const char *kind, FILE *f)
{
	char *copy = xstrdup(buf_str(b)), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		fprintf(f, "%s: %s%s\n", path, kind, l);
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
