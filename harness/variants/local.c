/* boot: local — the running kernel; the runner works in-process. That
 * every load tool of the plan is installed here, run checks once for all
 * local variants before it records anything (variant_check_local_tools). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostfp.h"
#include "hostset.h"
#include "knobs.h"
#include "preflight.h"
#include "provenance.h"
#include "schedattr.h"
#include "trace_variant.h"
#include "variant.h"

/* The plan's cells × iterations on the running kernel, each traced when
 * the config's trace: names it (tv). */
static int run_iterations(const struct variant_run *vr, struct trace_variant *tv, char *err,
			  size_t errsz)
{
	for (size_t c = 0; c < vr->p->n_cells && !runner_interrupt_signal(); c++) {
		for (int it = 1; it <= vr->iterations && !runner_interrupt_signal(); it++) {
			struct iteration_result res;
			if (vr->done && vr->done(vr->ctx, c, it))
				continue;
			if (trace_variant_arm(tv, c, it, err, errsz))
				return -1;
			if (runner_run_iteration(&vr->p->cells[c], vr->e->warmup_s, vr->self_exe, &res,
						 err, errsz)) {
				iteration_result_free(&res);
				return -1;
			}
			int rc = vr->on_iteration(vr->ctx, c, it, &res);
			iteration_result_free(&res);
			if (rc)
				return -1;
			if (vr->enough && vr->enough(vr->ctx, c, it))
				break;
		}
	}
	return 0;
}

/* Is some (cell, iteration) this backend run will run traced? */
static bool traces_any(const struct variant_run *vr)
{
	for (size_t c = 0; c < vr->p->n_cells; c++)
		for (int it = 1; it <= vr->iterations; it++)
			if (config_trace_iteration(&vr->e->trace_all, it) &&
			    !(vr->done && vr->done(vr->ctx, c, it)))
				return true;
	return false;
}

/* The fingerprint of this machine as the variant's loads will find it,
 * handed to vr->on_host with what applying the settings skipped. */
static int report_host(const struct variant_run *vr, const struct hostset *hs, char *err,
		       size_t errsz)
{
	struct host_fp fp;
	if (!vr->on_host)
		return 0;
	hostfp_read("/", &fp);
	int rc = vr->on_host(vr->ctx, &fp, hs ? &hs->notes : NULL, err, errsz);
	hostfp_free(&fp);
	return rc;
}

static int local_run(const struct variant_run *vr, char *err, size_t errsz)
{
	struct provenance pv;
	struct variant_kernel k;
	struct hostset *hs = NULL;
	char why[1024];

	provenance_read(&pv);
	snprintf(k.release, sizeof(k.release), "%s", pv.kernel_release);
	snprintf(k.cmdline, sizeof(k.cmdline), "%s", pv.kernel_cmdline);
	k.autogroup = pv.autogroup;
	if (vr->on_kernel(vr->ctx, &k))
		return -1;
	/* Knobs and host: settings are journalled before each change and
	 * restored whatever happens next: a failed iteration, a storage error,
	 * or SIGINT/SIGTERM (the loop stops at runner_interrupt_signal and
	 * returns here). */
	if (hostset_any(vr->v) && hostset_apply(vr->v, vr->journal, &hs, err, errsz))
		return -1;
	/* The trace instance, like a knob, is journalled (after the knobs'
	 * and host: settings' rows) before it is made and taken down whatever
	 * happens next, before the settings are restored. */
	struct trace_variant tv = {0};
	int seq = hostset_journal_rows(hs);
	int rc = traces_any(vr) ?
		 trace_variant_open(&tv, vr->e, vr->v->name, vr->run_id, vr->work_dir, vr->journal,
				    seq, seq == 0, err, errsz) : 0;
	if (!rc) {
		runner_set_load_cpus(hostset_load_cpus(hs));
		rc = report_host(vr, hs, err, errsz);
		runner_set_trace(trace_variant_capture(&tv));
		if (!rc)
			rc = run_iterations(vr, &tv, err, errsz);
		runner_set_trace(NULL);
		runner_set_load_cpus(NULL);
		if (trace_variant_close(&tv, why, sizeof(why)) && !rc) {
			snprintf(err, errsz, "%s", why);
			rc = -1;
		}
	}
	if (hostset_restore(hs, vr->journal, why, sizeof(why))) {
		if (rc) {
			size_t len = strlen(err);
			snprintf(err + len, errsz - len, "; %s", why);
		} else {
			snprintf(err, errsz, "%s", why);
		}
		rc = -1;
	}
	hostset_free(hs);
	return rc;
}

/* trace: here needs root (tracefs, the instance), a tracefs mounted or
 * mountable and every event it names in this kernel. */
static void local_trace_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	const struct cfg_trace *t = &pf->e->trace_all;
	char err[1024];
	if (!t->enabled)
		return;
	if (geteuid() != 0) {
		preflight_refuse(pf, v->name, NULL, "trace: capturing a trace needs root (tracefs and"
				 " its instances are root's)");
		return;
	}
	struct trace_request rq = {.events = t->events, .n_events = t->n_events,
				   .buffer_kb = t->buffer_kb};
	if (trace_capture_probe(&rq, err, sizeof(err)))
		preflight_refuse(pf, v->name, NULL, "trace: %s", err);
}

/* Before anything runs: latency_nice and slice_us on the running kernel, the knobs
 * (read and writable here: this machine's debugfs may be locked), and what
 * this process may do. */
/* One of hostset_probe's problems: a host: setting's ("host: KEY: ...") at
 * its key, a knob's as the variant's. */
static void refuse_problem(struct preflight *pf, const struct cfg_variant *v, const char *problem)
{
	int line = 0, col = 0;
	if (strncmp(problem, "host: ", 6)) {
		preflight_refuse(pf, v->name, NULL, "knob: %s", problem);
		return;
	}
	char *key = xasprintf("%.*s", (int)strcspn(problem + 6, ": "), problem + 6);
	cfg_host_key_at(&v->host_set, key, &line, &col);
	preflight_refuse_at(pf, line, col, v->name, "%s", problem);
	free(key);
}

static void local_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	struct provenance pv;
	struct argv problems = {0};

	provenance_read(&pv);
	for (size_t l = 0; l < pf->e->n_loads; l++)
		if (plan_uses_latency_nice(pf->p, &pf->e->loads[l]) &&
		    !sched_latency_nice_supported())
			preflight_refuse(pf, v->name, pf->e->loads[l].name,
					 "latency_nice: this kernel (%s) does not support latency_nice (it"
					 " needs the out-of-tree latency-nice series); slice_us, the EEVDF"
					 " custom slice of mainline 6.12+, is the stand-in",
					 pv.kernel_release);
	preflight_check_slice(pf, v, pv.kernel_release);
	preflight_privileges(pf, v);
	preflight_cgroup_controller(pf, v);
	if (geteuid() == 0 && hostset_any(v) && hostset_probe(v, &problems))
		for (size_t i = 0; i < problems.n; i++)
			refuse_problem(pf, v, problems.v[i]);
	argv_free(&problems);
	local_trace_preflight(pf, v);
}

const struct variant_backend local_backend = {
	.name = "local",
	.run = local_run,
	.preflight = local_preflight,
};
