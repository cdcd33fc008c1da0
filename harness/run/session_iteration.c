/* The run engine's side of each finished iteration and kernel: what the
 * backends call back (session_impl.h). An iteration's outcomes are decided
 * (outcome_iteration) and stored in one transaction, its failures become
 * events, its primary value feeds the cell's adaptive iterations; the raw
 * outputs are kept in the run directory when the database refuses them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adaptive.h"
#include "outcome.h"
#include "preflight.h"
#include "progress.h"
#include "session_impl.h"
#include "store_adaptive.h"
#include "trace_gz.h"

/* variant_run.enough: stop the cell when its CI is narrow enough, at max or
 * when its time is up, with a note "variant V cell C: N iteration(s), why"
 * (an interrupted cell has not stopped: run --resume goes on with it). */
bool session_cell_enough(void *ctx, size_t c, int iteration)
{
	struct run_session *rc = ctx;
	struct adaptive_rule rule = {rc->e->min_iterations, rc->o->iterations, rc->e->ci_pct,
				     rc->e->max_time_s};
	char why[256], err[256];

	(void)iteration; /* the cell's count is its complete and failed iterations */
	if (runner_interrupt_signal() ||
	    !adaptive_cells_enough(rc->cells, c, &rule, mono_ns(), why, sizeof(why)))
		return false;
	char *msg = xasprintf("variant %s cell %s: %s", rc->variant, rc->p->cells[c].name, why);
	store_cell_stop(rc->st, rc->run_id, rc->variant, rc->cell_ids[c], msg, err, sizeof(err));
	if (!rc->o->quiet)
		printf("%s\n", msg);
	free(msg);
	return true;
}

/* A qemu or ssh variant's agent gets its whole plan before the first
 * iteration, so session_cell_enough never runs for it: say so where the adaptive
 * notes go ("iterations" events, printed under the tables). */
void session_note_whole_plan(struct run_session *rc, const struct cfg_variant *var)
{
	char err[256];
	char *msg = xasprintf("variant %s: boot: %s runs every cell to max (%d iterations);"
			      " adaptive stopping applies to boot: local variants", var->name,
			      variant_backend_for(var->boot)->name, rc->o->iterations);
	store_event(rc->st, rc->run_id, "iterations", msg, err, sizeof(err));
	if (!rc->o->quiet)
		printf("%s\n", msg);
	free(msg);
}

bool session_adaptive(const struct run_session *rc)
{
	return rc->e->min_iterations < rc->o->iterations || rc->e->max_time_s > 0;
}

static void log_iteration(const struct run_session *rc, size_t c, int it,
			  const struct iteration_result *res, const struct sample_vec *samples)
{
	struct buf states = {0};
	for (size_t i = 0; i < res->n; i++) {
		const struct inst_result *r = &res->r[i];
		buf_printf(&states, " %s", r->pi->load->name);
		if (r->repetition)
			buf_printf(&states, "#%d", r->repetition);
		buf_printf(&states, " %s", inst_state_name(r->state));
		if (samples[i].n)
			buf_printf(&states, " (%zu samples)", samples[i].n);
		if (r->reason[0] && r->state != INST_OK)
			buf_printf(&states, " [%s]", r->reason);
		buf_puts(&states, ";");
	}
	/* The log line, and on a terminal the live status line (progress.h). */
	progress_iteration(c, rc->p->cells[c].name, it, buf_str(&states));
	buf_free(&states);
}

/* Write b to path in full; 0, or -1 with nothing half-written left. */
static int write_raw(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	bool ok = fwrite(buf_str(b), 1, b->len, f) == b->len;
	if (fclose(f))
		ok = false;
	if (!ok)
		unlink(path);
	return ok ? 0 : -1;
}

/* The database refused the iteration: keep its raw outputs in the run
 * directory so nothing the tools printed is lost, or, when that cannot be
 * written either (a full disk holding both), in a new /tmp/schedrig-raw-*. */
static void keep_raw_outputs(const struct run_session *rc, size_t c, int it,
			     const struct iteration_result *res)
{
	char tmp[] = "/tmp/schedrig-raw-XXXXXX";
	const char *dir = rc->run_dir;

	for (int attempt = 0; attempt < 2; attempt++) {
		bool ok = true;
		if (attempt == 1 && !(dir = mkdtemp(tmp)))
			break;
		for (size_t i = 0; i < res->n && ok; i++) {
			const struct inst_result *r = &res->r[i];
			for (int stream = 0; stream < 2 && ok; stream++) {
				char *path = xasprintf("%s/%s-cell%zu-it%d-%s-rep%d.%s", dir,
						       rc->variant, c + 1, it, r->pi->load->name,
						       r->repetition, stream ? "stderr" : "stdout");
				ok = write_raw(path, stream ? &r->err : &r->out) == 0;
				free(path);
			}
		}
		if (ok) {
			fprintf(stderr, "schedrig: raw outputs of the iteration kept in %s\n", dir);
			return;
		}
	}
	fprintf(stderr, "schedrig: the raw outputs of the iteration could not be kept: %s\n",
		strerror(errno));
}

/* A trace that lost events or is otherwise incomplete: a "warning" event
 * naming its file, and on stderr. */
static void trace_warning(const struct run_session *rc, const char *cell, int it,
			  const char *file, const struct trace_result *t)
{
	char err[256];
	char *msg;
	if (t->lost)
		msg = xasprintf("variant %s cell %s iteration %d: trace %s lost %llu event(s) (the"
				" ring buffer overran: raise trace: buffer_kb, now %d KiB per CPU, or"
				" trace fewer events)%s%s", rc->variant, cell, it, file,
				(unsigned long long)t->lost, rc->e->trace_all.buffer_kb,
				t->warning[0] ? "; " : "", t->warning);
	else
		msg = xasprintf("variant %s cell %s iteration %d: trace %s: %s", rc->variant, cell,
				it, file, t->warning);
	fprintf(stderr, "schedrig: warning: %s\n", msg);
	store_event(rc->st, rc->run_id, "warning", msg, err, sizeof(err));
	free(msg);
}

/* The iteration's trace (res->trace, a text file where it was captured or
 * brought back to) compressed into the run's traces/ directory and its row
 * made for the iteration's transaction (row, its strings malloc'd into
 * rel and events); false when there is none or it could not be kept (a
 * warning says why; the text stays where it is). */
static bool trace_keep(const struct run_session *rc, size_t c, int it,
		       const struct iteration_result *res, struct stored_trace_row *row,
		       char **rel, char **events)
{
	const struct trace_result *t = &res->trace;
	char err[512];
	if (!t->captured)
		return false;
	const char *cell = rc->p->cells[c].name;
	char *name = xasprintf("%s-c%zu-it%d.trace.gz", rc->variant, c + 1, it);
	char *dir = xasprintf("%s/traces", rc->run_dir);
	char *full = xasprintf("%s/%s", dir, name);
	*rel = xasprintf("runs/%lld/traces/%s", (long long)rc->run_id, name);
	bool ok = !mkdir_p(dir, err, sizeof(err)) && !trace_gz_write(t->path, full, err, sizeof(err));
	if (ok) {
		unlink(t->path);
	} else {
		struct trace_result w = *t;
		int n = snprintf(w.warning, sizeof(w.warning), "not stored: %.200s", err);
		snprintf(w.warning + n, sizeof(w.warning) - (size_t)n, " (its text is in %.250s)",
			 t->path);
		w.lost = 0;
		trace_warning(rc, cell, it, *rel, &w);
	}
	if (ok && (t->lost || t->warning[0]))
		trace_warning(rc, cell, it, *rel, t);
	struct buf evs = {0};
	for (size_t i = 0; i < rc->e->trace_all.n_events; i++)
		buf_printf(&evs, "%s%s", i ? "," : "", rc->e->trace_all.events[i]);
	*events = xstrdup(buf_str(&evs));
	buf_free(&evs);
	*row = (struct stored_trace_row){
		.path = *rel, .events = *events, .buffer_kb = rc->e->trace_all.buffer_kb,
		.window_start_ns = t->window_start_ns, .window_end_ns = t->window_end_ns,
		.bytes = t->bytes, .lines = t->lines, .lost = t->lost, .warning = t->warning,
	};
	free(name);
	free(dir);
	free(full);
	return ok;
}

/* Parse and store one finished iteration (iteration_fn). */
int session_on_iteration(void *ctx, size_t c, int it, struct iteration_result *res)
{
	struct run_session *rc = ctx;
	char err[512];
	const struct plan_cell *cell = &rc->p->cells[c];
	struct stored_instance *st = xcalloc(res->n ? res->n : 1, sizeof(*st));
	struct sample_vec *samples = xcalloc(res->n ? res->n : 1, sizeof(*samples));
	struct sample_vec *window = xcalloc(res->n ? res->n : 1, sizeof(*window));
	char **argv_text = xcalloc(res->n ? res->n : 1, sizeof(*argv_text));
	size_t failures = outcome_iteration(res, st, samples, window, argv_text);

	for (size_t i = 0; i < res->n; i++)
		st[i].seq = (int)(res->r[i].pi - cell->inst);
	const char *status = res->interrupted ? "interrupted" : failures ? "failed" : "complete";
	/* Series sampled where the iteration ran: by the agent of a qemu/ssh
	 * variant (res->series), else by the local monitor. */
	store_iteration_series(rc->st, res->series ? res->series : monitor_take_series(rc->mon));
	struct stored_trace_row trace_row;
	char *trace_rel = NULL, *trace_events = NULL;
	if (trace_keep(rc, c, it, res, &trace_row, &trace_rel, &trace_events))
		store_iteration_trace(rc->st, &trace_row);
	int rcode = store_iteration_save(rc->st, rc->variant_id, rc->cell_ids[c], it, status,
					 res->started_at, res->ended_at, st, res->n, err, sizeof(err));
	if (rcode) {
		fprintf(stderr, "schedrig: %s\n", err);
		keep_raw_outputs(rc, c, it, res);
		rc->store_failed = true;
	}
	for (size_t i = 0; i < res->n && !rcode; i++) {
		if (strcmp(st[i].state, "failed") && strcmp(st[i].state, "timeout"))
			continue;
		char *msg = xasprintf("variant %s cell %s iteration %d load %s: %s: %s", rc->variant,
				      cell->name, it, st[i].name, st[i].state,
				      st[i].reason ? st[i].reason : "");
		store_event(rc->st, rc->run_id, "failure", msg, err, sizeof(err));
		free(msg);
	}
	rc->failures += failures;
	/* Only complete iterations measure the cell; a failed one counts toward
	 * max only; an interrupted one not at all (run --resume repeats it). */
	int64_t started_ns = res->n ? res->r[0].start_ns : mono_ns();
	if (!strcmp(status, "complete"))
		adaptive_cells_add(rc->cells, c, started_ns, adaptive_primary_value(rc->e, res, samples));
	else if (!strcmp(status, "failed"))
		adaptive_cells_add_failed(rc->cells, c, started_ns);
	log_iteration(rc, c, it, res, samples);
	for (size_t i = 0; i < res->n; i++) {
		sample_vec_free(&samples[i]);
		sample_vec_free(&window[i]);
		free(argv_text[i]);
	}
	free(samples);
	free(window);
	free(trace_rel);
	free(trace_events);
	free(argv_text);
	free(st);
	return rcode;
}

/* Record with the run (a "provenance" event) whether autogroup was on for
 * the variant's loads: the variant's autogroup: knob, else what its
 * kernel had. With autogroup on and loads of one cell at different nice,
 * say (and record as a "warning" event) that nice may not weigh as meant:
 * each session is an autogroup of its own, and nice only weighs tasks of
 * one autogroup. */
static void note_autogroup(struct run_session *rc, const struct cfg_variant *v,
			   const struct variant_kernel *k)
{
	char err[256], detail[512];
	int on = v->autogroup >= 0 ? v->autogroup : k->autogroup;
	const char *state = on < 0 ? "unknown" : on ? "on" : "off";
	char *msg = v->autogroup >= 0 ?
		xasprintf("variant %s: autogroup %s (the variant's autogroup: %s)", v->name, state,
			  state) :
		on < 0 ? xasprintf("variant %s: autogroup unknown (no kernel.sched_autogroup_enabled"
				   " where its loads ran)", v->name) :
		xasprintf("variant %s: autogroup %s (kernel.sched_autogroup_enabled = %d where its"
			  " loads ran)", v->name, state, on);
	store_event(rc->st, rc->run_id, "provenance", msg, err, sizeof(err));
	free(msg);
	if (on != 1 || !preflight_nice_differs(rc->p, detail, sizeof(detail)))
		return;
	msg = xasprintf("variant %s: autogroup is on and loads run at different nice (%s): nice"
			" only weighs tasks of one autogroup, and a load that starts a session of"
			" its own (setsid) has an autogroup of its own, where its nice does not"
			" compete with the others; set autogroup: off on the variant to compare"
			" nice across loads", v->name, detail);
	fprintf(stderr, "schedrig: warning: %s\n", msg);
	store_event(rc->st, rc->run_id, "warning", msg, err, sizeof(err));
	free(msg);
}

/* The variant's kernel is up (kernel_fn): record it. */
int session_on_kernel(void *ctx, const struct variant_kernel *k)
{
	struct run_session *rc = ctx;
	char err[512];
	/* An interleaved run comes back to a variant on the running kernel
	 * many times; its record and the kernel are the same each time. */
	if (rc->stint && rc->variant_id && rc->variant_local)
		return 0;
	const struct cfg_variant *v = NULL;
	for (size_t i = 0; i < rc->e->n_variants; i++)
		if (!strcmp(rc->e->variants[i].name, rc->variant))
			v = &rc->e->variants[i];
	if (store_variant_add(rc->st, rc->run_id, (int)(v - rc->e->variants), rc->variant,
			      variant_backend_for(v->boot)->name, k->release, k->cmdline,
			      &rc->variant_id, err, sizeof(err)) ||
	    store_variant_status(rc->st, rc->variant_id, "running", err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		return -1;
	}
	note_autogroup(rc, v, k);
	return 0;
}

/* Is cell c outside the current variant's cells: (plan_cell_runs)? */
static bool outside_cells(const struct run_session *rc, size_t c)
{
	for (size_t v = 0; v < rc->e->n_variants; v++)
		if (!strcmp(rc->e->variants[v].name, rc->variant))
			return !plan_cell_runs(rc->p, c, v);
	return false;
}

bool session_cell_skip(void *ctx, size_t c, int it)
{
	(void)it;
	return outside_cells(ctx, c);
}

/* run --resume: skip what is complete already, and every iteration of a
 * cell whose adaptive iterations have stopped. */
bool session_iteration_done(void *ctx, size_t c, int it)
{
	struct run_session *rc = ctx;
	return outside_cells(rc, c) || adaptive_cells_stopped(rc->cells, c) ||
	       store_iteration_complete(rc->st, rc->variant_id, rc->cell_ids[c], it);
}

/* variant_run.done of an interleaved or random run: only the (cell,
 * iteration) pairs of the current stint run, and of those only what is
 * not stored complete (run --resume) and whose cell has not stopped. */
bool session_stint_skip(void *ctx, size_t c, int it)
{
	struct run_session *rc = ctx;
	bool in_stint = false;
	for (size_t i = 0; i < rc->n_stint && !in_stint; i++)
		in_stint = rc->stint[i].cell == c && rc->stint[i].iteration == it;
	if (!in_stint || outside_cells(rc, c) || adaptive_cells_stopped(rc->cells, c))
		return true;
	return rc->o->resume && store_iteration_complete(rc->st, rc->variant_id, rc->cell_ids[c], it);
}

/* run --resume with adaptive iterations: rebuild the variant's cells from
 * the stored run. A cell that stopped (store_cell_stopped) stays stopped;
 * any other starts from the primary values and the time of its complete
 * iterations (failed ones run again and count then). 0, or -1 with err. */
int session_resume_adaptive(struct run_session *rc, const char *variant, char *err, size_t errsz)
{
	const struct cfg_load *load;
	const char *metric;
	int ret = 0;

	if (!adaptive_primary(rc->e, &load, &metric)) {
		snprintf(err, errsz, "the config has no primary metric");
		return -1;
	}
	for (size_t c = 0; c < rc->p->n_cells && !ret; c++) {
		bool stopped;
		if (store_cell_stopped(rc->st, rc->run_id, variant, rc->cell_ids[c], &stopped, err,
				       errsz))
			return -1;
		if (stopped) {
			adaptive_cells_stop(rc->cells, c);
			continue;
		}
		double *values, spent_s;
		size_t n;
		ret = store_adaptive_values(rc->st, rc->run_id, variant, rc->cell_ids[c], load->name,
					    metric, &values, &n, &spent_s, err, errsz);
		if (!ret)
			adaptive_cells_restore(rc->cells, c, values, n, spent_s);
		free(values);
	}
	return ret;
}
