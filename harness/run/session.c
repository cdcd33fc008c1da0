/* The run engine (session.h): a run and its variants, in the run's order. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "adaptive.h"
#include "knob_journal.h"
#include "knobs.h"
#include "measurelock.h"
#include "progress.h"
#include "provenance.h"
#include "revisions.h"
#include "runbuild.h"
#include "runner.h"
#include "session_impl.h"
#include "store_adaptive.h"

bool session_keeps_block(const struct experiment *e, enum run_order o, const struct cfg_variant *var)
{
	return o == ORDER_BLOCKED || var->boot == BOOT_LAVA ||
	       (var->boot != BOOT_LOCAL && !e->order_given);
}

/* Knobs another run has changed on this boot falsify what is measured now,
 * and changing knobs on top of them would journal the changed values as the
 * "old" ones. So any run, with knobs or without, refuses while a rig changes
 * knobs on this machine, while the host-wide record names a run that left
 * changes behind (whatever its database: knobs_host_clean), or while this
 * database holds unrestored changes of this boot. Also names this run's
 * database for the record its own changes write (knob_journal_set_db).
 * Returns 0, or -1 after printing what to do. */
static int check_unrestored_knobs(const struct run_session *rc)
{
	struct stored_knob *rows;
	size_t n, mine = 0;
	char err[1024], boot_id[64];

	knob_journal_set_db(rc->o->db);
	if (knobs_host_clean(err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		return -1;
	}
	if (store_knob_unrestored(rc->st, &rows, &n, err, sizeof(err))) {
		/* Unknown is not clean: a run on changed knobs measures them. */
		fprintf(stderr, "schedrig: %s: %s; whether a killed run left knobs changed is"
			" unknown, so nothing runs\n", rc->o->db, err);
		return -1;
	}
	knob_boot_id(boot_id, sizeof(boot_id));
	const struct stored_knob *first = NULL;
	for (size_t i = 0; i < n; i++) {
		if (knob_host_is_guest(rows[i].host) || !rows[i].boot_id ||
		    strcmp(rows[i].boot_id, boot_id))
			continue;
		first = first ? first : &rows[i];
		mine++;
	}
	if (first)
		fprintf(stderr,
			"schedrig: %s holds %zu knob change(s) a killed run did not restore (e.g. %s,"
			" old value %s); run 'schedrig restore --db %s' first\n",
			rc->o->db, mine, first->path, first->old_value ? first->old_value : "?",
			rc->o->db);
	store_knob_rows_free(rows, n);
	return first ? -1 : 0;
}

static double timeval_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The variants' period ends: keep the rig's CPU and wall time since
 * ru_start and start_ns (its start) for note_rig_cost. */
static void rig_cost_measured(struct run_session *rc, const struct rusage *ru_start, int64_t start_ns)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	rc->rig_measured = true;
	rc->rig_wall_s = (double)(mono_ns() - start_ns) / 1e9;
	rc->rig_user_s = timeval_s(&ru.ru_utime) - timeval_s(&ru_start->ru_utime);
	rc->rig_system_s = timeval_s(&ru.ru_stime) - timeval_s(&ru_start->ru_stime);
}

/* The notes of preflight, stored as the run's "note" events (show lists them). */
static void store_notes(const struct run_session *rc, const struct buf *notes)
{
	char err[512];
	char *copy = xstrdup(buf_str(notes)), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		store_event(rc->st, rc->run_id, "note", l, err, sizeof(err));
	free(copy);
}

/* The kernels the variants build (runbuild.h), before any variant runs: a
 * variant whose kernel was not built is a failed variant (stored with its
 * boot and no kernel) and does not run; the others do. -1 when the run
 * must stop (interrupted, store failed). */
static int build_kernels(struct run_session *rc, const char *run_dir)
{
	char err[512];
	size_t n = rc->e->n_variants;
	char **why = xcalloc(n, sizeof(*why));
	int ret = runbuild_kernels(rc->e, rc->st, rc->run_id, rc->o->run_root, run_dir,
				   rc->o->quiet, why, err, sizeof(err));
	if (ret && !runner_interrupt_signal()) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
	}
	for (size_t v = 0; v < n; v++) {
		const struct cfg_variant *var = &rc->e->variants[v];
		if (!why[v])
			continue;
		rc->build_failed[v] = true;
		/* Stored by variant_failed with its boot and no kernel (run
		 * --resume: its row is there already). */
		if (session_variant_current(rc, var) == 0)
			session_variant_failed(rc, var, why[v]);
		rc->variant_id = 0;
		free(why[v]);
	}
	free(why);
	return ret;
}

/* Run var's plan in one block (its whole plan, or with done the stint).
 * Returns the backend's result; err holds why it failed. */
static int variant_backend_run(struct run_session *rc, const struct cfg_variant *var,
			       const char *self_exe, const char *run_dir,
			       bool (*done)(void *, size_t, int), char *err, size_t errsz)
{
	struct knob_db_journal kj;
	struct variant_run vr;
	session_variant_run_init(rc, var, self_exe, run_dir, done, &kj, &vr);
	err[0] = '\0';
	int vrc = variant_backend_for(var->boot)->run(&vr, err, errsz);
	knob_db_journal_free(&kj);
	return vrc;
}

/* One variant as one block (order: blocked, and variants that boot their
 * own kernel unless order: is written). -1 when the run must stop. */
static int run_blocked(struct run_session *rc, const struct cfg_variant *var, const char *self_exe,
		       const char *run_dir)
{
	char err[512];
	if (session_variant_begin(rc, var))
		return -1;
	int vrc = variant_backend_run(rc, var, self_exe, run_dir,
				      rc->o->resume ? session_iteration_done : session_cell_skip, err,
				      sizeof(err));
	return session_variant_ended(rc, var, vrc, err);
}

/* Per variant of an interleaved or random run. */
struct vstate {
	const struct cfg_variant *var;
	int64_t id;
	struct adaptive_cells *cells;
	bool failed;
};

/* Each visit of one round and variant in a row is one backend run (one
 * boot, one knob change), in plan order; random order runs every visit on
 * its own. Returns how many visits from v[0] make the stint. */
static size_t stint_length(enum run_order o, const struct visit *v, size_t n)
{
	size_t k = 1;
	while (o == ORDER_INTERLEAVED && k < n && v[k].variant == v[0].variant &&
	       v[k].iteration == v[0].iteration)
		k++;
	return k;
}

/* The variants vs[0..n) in order o: rounds of iterations, each visiting
 * every variant and cell. -1 when the run must stop. */
static int run_rounds(struct run_session *rc, struct vstate *vs, size_t n, enum run_order o,
		      uint64_t seed, const char *self_exe, const char *run_dir)
{
	char err[512];
	struct adaptive_cells *shared = rc->cells;
	int ret = 0;
	for (size_t i = 0; i < n; i++)
		vs[i].cells = adaptive_cells_new(rc->p->n_cells);
	for (size_t i = 0; i < n && !ret; i++) {
		rc->cells = vs[i].cells;
		if (session_variant_current(rc, vs[i].var))
			ret = -1;
		if (!ret && rc->o->resume && session_adaptive(rc) &&
		    session_resume_adaptive(rc, vs[i].var->name, err, sizeof(err))) {
			fprintf(stderr, "schedrig: %s\n", err);
			rc->store_failed = true;
			ret = -1;
		}
		vs[i].id = rc->variant_id;
		if (!ret && session_adaptive(rc) && vs[i].var->boot != BOOT_LOCAL)
			session_note_whole_plan(rc, vs[i].var);
	}
	struct visit *v;
	size_t n_v = order_visits(o, seed, n, rc->p->n_cells, rc->o->iterations, &v);
	for (size_t k = 0; k < n_v && !ret && !runner_interrupt_signal(); ) {
		size_t len = stint_length(o, v + k, n_v - k);
		struct vstate *cur = &vs[v[k].variant];
		if (!cur->failed) {
			rc->variant = cur->var->name;
			rc->variant_id = cur->id;
			rc->variant_local = cur->var->boot == BOOT_LOCAL;
			rc->cells = cur->cells;
			rc->stint = v + k;
			rc->n_stint = len;
			bool any = false;
			for (size_t i = 0; i < len && !any; i++)
				any = !session_stint_skip(rc, v[k + i].cell, v[k + i].iteration);
			if (any) {
				progress_variant(cur->var->name);
				int vrc = variant_backend_run(rc, cur->var, self_exe, run_dir, session_stint_skip, err,
							      sizeof(err));
				cur->id = rc->variant_id;
				for (size_t i = 0; i < len; i++)
					adaptive_cells_pause(cur->cells, v[k + i].cell, mono_ns());
				if (vrc && rc->store_failed)
					ret = -1;
				else if (vrc) {
					session_variant_failed(rc, cur->var, err);
					cur->failed = true;
				}
			}
		}
		k += len;
	}
	free(v);
	for (size_t i = 0; i < n; i++) {
		if (!vs[i].failed && vs[i].id && !ret)
			store_variant_status(rc->st, vs[i].id,
					     runner_interrupt_signal() ? "interrupted" : "complete", err,
					     sizeof(err));
		adaptive_cells_free(vs[i].cells);
	}
	rc->cells = shared;
	rc->stint = NULL;
	rc->n_stint = 0;
	return ret;
}

/* The order this run keeps, from its config, or on run --resume from
 * what the run stored (an "order" event; runs from before it: blocked).
 * A fresh random order without seed: draws one. Stores the order of a
 * fresh run. 0, or -1 after a message. */
static int run_order_of(struct run_session *rc, enum run_order *o, uint64_t *seed)
{
	char err[512], **msgs;
	size_t n;
	if (rc->o->resume) {
		if (store_events(rc->st, rc->run_id, "order", &msgs, &n, err, sizeof(err))) {
			fprintf(stderr, "schedrig: %s\n", err);
			return -1;
		}
		int bad = n && order_parse_description(msgs[0], o, seed);
		if (!n) {
			*o = ORDER_BLOCKED;
			*seed = 0;
		}
		if (bad)
			fprintf(stderr, "schedrig: run %lld: stored order '%s' is not one the rig"
				" writes\n", (long long)rc->run_id, msgs[0]);
		strv_free(msgs, n);
		return bad ? -1 : 0;
	}
	*o = rc->e->order;
	*seed = rc->e->seed;
	if (*o == ORDER_RANDOM && !rc->e->seed_given) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		*seed = ((uint64_t)ts.tv_sec * 1000000007ULL) ^ (uint64_t)ts.tv_nsec ^
			((uint64_t)getpid() << 32);
		*seed &= (uint64_t)LLONG_MAX;
	}
	return 0;
}

/* The order of the run (run_order_of), stored and printed for a fresh
 * run before its first iteration. 0, or -1 (the run must not start). */
static int order_setup(struct run_session *rc, enum run_order *o, uint64_t *seed)
{
	char err[512];
	if (run_order_of(rc, o, seed))
		return -1;
	if (rc->o->resume)
		return 0;
	const char **blocked = xcalloc(rc->e->n_variants, sizeof(*blocked));
	size_t n_blocked = 0;
	for (size_t v = 0; v < rc->e->n_variants; v++)
		if (session_keeps_block(rc->e, *o, &rc->e->variants[v]))
			blocked[n_blocked++] = rc->e->variants[v].name;
	char *msg = order_describe(*o, *seed, blocked, n_blocked);
	int ret = store_event(rc->st, rc->run_id, "order", msg, err, sizeof(err));
	if (ret)
		fprintf(stderr, "schedrig: %s\n", err);
	else if (!rc->o->quiet)
		printf("order: %s\n", msg);
	free(msg);
	free(blocked);
	return ret ? -1 : 0;
}

/* Every variant of the run in order o: first those a lab runs as jobs, all
 * at once (session_run_jobs: their jobs wait in the lab's queue while
 * nothing else of this run competes with them for the rig's attention);
 * then the interleaved ones in rounds; then those that keep their block,
 * in config order. -1 when the run stopped (store failed). */
static int run_variants(struct run_session *rc, enum run_order o, uint64_t seed, const char *self_exe,
			const char *run_dir)
{
	int ret = session_run_jobs(rc, self_exe, run_dir);
	struct vstate *vs = xcalloc(rc->e->n_variants, sizeof(*vs));
	size_t n_vs = 0;
	for (size_t v = 0; v < rc->e->n_variants; v++)
		if (!rc->build_failed[v] && !session_keeps_block(rc->e, o, &rc->e->variants[v]) &&
		    session_selected(rc, &rc->e->variants[v]))
			vs[n_vs++].var = &rc->e->variants[v];
	if (n_vs && !ret && !runner_interrupt_signal())
		ret = run_rounds(rc, vs, n_vs, o, seed, self_exe, run_dir);
	for (size_t v = 0; v < rc->e->n_variants && !ret && !runner_interrupt_signal(); v++)
		if (!rc->build_failed[v] && session_keeps_block(rc->e, o, &rc->e->variants[v]) &&
		    !session_runs_as_job(&rc->e->variants[v]) && session_selected(rc, &rc->e->variants[v]))
			ret = run_blocked(rc, &rc->e->variants[v], self_exe, run_dir);
	free(vs);
	return ret;
}

/* Some variant that runs (--variant) runs on this machine: not as a job in
 * a lab (session_runs_as_job). */
static bool measures_here(const struct run_session *rc)
{
	for (size_t v = 0; v < rc->e->n_variants; v++)
		if (session_selected(rc, &rc->e->variants[v]) &&
		    !session_runs_as_job(&rc->e->variants[v]))
			return true;
	return false;
}

int session_execute(struct run_session *rc, const char *self_exe)
{
	struct provenance pv;
	char err[512];

	provenance_read(&pv);
	/* A run whose variants all run in a lab measures nothing here. */
	bool here = measures_here(rc);
	if (here && check_unrestored_knobs(rc))
		return 1;
	/* One run measures here at a time (measurelock.h); the knobs are
	 * checked again after a wait: the other run had the machine. */
	char shared_with[600] = "";
	if (rc->o->concurrent) {
		measure_lock_holder(shared_with, sizeof(shared_with));
	} else if (here && measure_lock(rc->o->db, rc->o->wait_s, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedrig: %s; nothing was run\n", err);
		return runner_interrupt_signal() ? 128 + runner_interrupt_signal() : 1;
	} else if (here && check_unrestored_knobs(rc)) {
		return 1;
	}
	if (rc->o->resume) {
		struct rig_id rig = {pv.pid, pv.start_ticks, pv.boot_id};
		if (store_run_resume(rc->st, rc->run_id, &rig, err, sizeof(err)))
			goto out_err;
	} else {
		struct run_info ri = {
			.name = rc->e->name, .config_path = rc->e->path, .config_text = rc->e->text,
			.host = pv.host, .kernel_release = pv.kernel_release,
			.kernel_cmdline = pv.kernel_cmdline, .cpu_model = pv.cpu_model,
			.cpu_count = pv.cpu_count, .iterations = rc->o->iterations,
			.rig = {pv.pid, pv.start_ticks, pv.boot_id},
		};
		if (store_run_begin(rc->st, &ri, &rc->run_id, err, sizeof(err)))
			goto out_err;
	}
	rc->recorded = true;
	if (session_run_fingerprint(rc)) {
		store_run_end(rc->st, rc->run_id, "failed", err, sizeof(err));
		return 1;
	}
	if (rc->o->concurrent) {
		char *msg = xasprintf("concurrent: run with --concurrent: it did not wait for other"
				      " runs measuring on this machine; %s%s", shared_with[0] ?
				      "when it began, another was measuring: " :
				      "when it began, none was measuring", shared_with);
		store_event(rc->st, rc->run_id, "provenance", msg, err, sizeof(err));
		free(msg);
	}
	if (!rc->o->resume)
		store_notes(rc, rc->notes);
	rc->cell_ids = xcalloc(rc->p->n_cells, sizeof(*rc->cell_ids));
	rc->cells = adaptive_cells_new(rc->p->n_cells);
	for (size_t c = 0; c < rc->p->n_cells; c++)
		if (store_cell_add(rc->st, rc->run_id, (int)c, rc->p->cells[c].name, &rc->cell_ids[c],
				   err, sizeof(err)))
			goto out_err;
	char *run_dir = xasprintf("%s/runs/%lld", rc->o->run_root, (long long)rc->run_id);
	if (mkdir_p(run_dir, err, sizeof(err))) {
		free(run_dir);
		goto out_err;
	}
	rc->run_dir = run_dir;
	if (!rc->o->quiet)
		printf("run %lld: %s on %s (%s), %zu variant(s) x %zu cell(s) x %d iteration(s)\n",
		       (long long)rc->run_id, rc->e->name, pv.host, pv.kernel_release,
		       rc->e->n_variants, rc->p->n_cells, rc->o->iterations);
	enum run_order order;
	uint64_t seed;
	if (order_setup(rc, &order, &seed)) {
		free(run_dir);
		rc->run_dir = NULL;
		store_run_end(rc->st, rc->run_id, "failed", err, sizeof(err));
		return 1;
	}
	rc->build_failed = xcalloc(rc->e->n_variants, sizeof(*rc->build_failed));
	if (build_kernels(rc, run_dir)) {
		free(run_dir);
		rc->run_dir = NULL;
		goto ended;
	}
	/* After the builds, which record the revisions of git trees. */
	if (revisions_record(rc->st, rc->run_id, rc->e, rc->o->variant, rc->o->revision, err,
			     sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		free(run_dir);
		rc->run_dir = NULL;
		goto ended;
	}
	progress_begin(stdout, rc->o->quiet, rc->e->n_variants, rc->p->n_cells, rc->o->iterations);

	struct rusage ru_start;
	int64_t start_ns = mono_ns();
	getrusage(RUSAGE_SELF, &ru_start);
	/* A stop (store failed) is in rc->store_failed, failures in rc->failures. */
	run_variants(rc, order, seed, self_exe, run_dir);
	progress_end();
	rig_cost_measured(rc, &ru_start, start_ns);
	free(run_dir);
	rc->run_dir = NULL;

ended:;
	int sig = runner_interrupt_signal();
	const char *run_status = rc->store_failed ? "failed" :
				 sig ? "interrupted" : rc->failures ? "failed" : "complete";
	if (store_run_end(rc->st, rc->run_id, run_status, err, sizeof(err)))
		fprintf(stderr, "schedrig: %s\n", err);
	if (sig) {
		fprintf(stderr,
			"schedrig: interrupted by %s; run %lld kept its completed iterations"
			" (schedrig run --resume %lld continues it)\n",
			strsignal(sig), (long long)rc->run_id, (long long)rc->run_id);
		return 128 + sig;
	}
	if (rc->store_failed)
		return 1;
	if (rc->failures)
		fprintf(stderr, "schedrig: run %lld had %zu failure(s); see schedrig show %lld\n",
			(long long)rc->run_id, rc->failures, (long long)rc->run_id);
	return rc->failures ? 1 : 0;

out_err:
	fprintf(stderr, "schedrig: %s\n", err);
	return 1;
}

/* The rig's own cost while its variants ran (rig_cost_measured: what it
 * spent starting up and before the first variant is not counted): its CPU
 * time as % of one CPU over that wall time, stored as a note event ("rig
 * cpu: user_s=U system_s=S wall_s=W pct_of_one_cpu=P"), which schedrig
 * show lists and bench/ reads (not printed: it is for benchmarks of the
 * rig, not for every run's reader); with the monitors' notes. */
void session_note_rig_cost(struct run_session *rc)
{
	char err[512];
	double user_s = rc->rig_user_s, system_s = rc->rig_system_s, wall_s = rc->rig_wall_s;
	char *msg = xasprintf("rig cpu: user_s=%.6f system_s=%.6f wall_s=%.6f pct_of_one_cpu=%.4f",
			      user_s, system_s, wall_s,
			      wall_s > 0 ? 100 * (user_s + system_s) / wall_s : 0.0);
	store_event(rc->st, rc->run_id, "note", msg, err, sizeof(err));
	free(msg);
	if (rc->mon && *monitor_notes(rc->mon)) {
		char *notes = xstrdup(monitor_notes(rc->mon)), *save = NULL;
		for (char *l = strtok_r(notes, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			store_event(rc->st, rc->run_id, "note", l, err, sizeof(err));
		free(notes);
	}
}

void session_free(struct run_session *rs)
{
	free(rs->cell_ids);
	adaptive_cells_free(rs->cells);
	free(rs->build_failed);
	rs->cell_ids = NULL;
	rs->cells = NULL;
	rs->build_failed = NULL;
}
