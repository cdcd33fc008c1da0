/* A variant's life in a run (session_impl.h): made current, its run set
 * up, ended, failed or interrupted as a whole; shared by the blocked and interleaved orders (session.c) and the jobs a
 * lab runs (session_jobs.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "knob_journal.h"
#include "progress.h"
#include "runner.h"
#include "session_impl.h"

/* A variant that ended as a whole before its plan did: message, event of
 * kind, status. One that ended before its kernel came up (a guest that
 * never booted) is recorded too, its kernel unknown, so reports name it
 * instead of leaving it out. */
static void variant_stopped(struct run_session *rc, const struct cfg_variant *var, const char *why,
			    const char *kind, const char *status)
{
	char err[512];
	fprintf(stderr, "schedrig: variant %s: %s\n", var->name, why);
	char *msg = xasprintf("variant %s: %s", var->name, why);
	store_event(rc->st, rc->run_id, kind, msg, err, sizeof(err));
	free(msg);
	if (!rc->variant_id)
		store_variant_add(rc->st, rc->run_id, (int)(var - rc->e->variants), var->name,
				  variant_backend_for(var->boot)->name, NULL, NULL, &rc->variant_id,
				  err, sizeof(err));
	if (rc->variant_id)
		store_variant_status(rc->st, rc->variant_id, status, err, sizeof(err));
}

void session_variant_failed(struct run_session *rc, const struct cfg_variant *var, const char *why)
{
	variant_stopped(rc, var, why, "failure", "failed");
	rc->failures++;
}

void session_variant_interrupted(struct run_session *rc, const struct cfg_variant *var,
				 const char *why)
{
	variant_stopped(rc, var, why, "note", "interrupted");
}

int session_variant_current(struct run_session *rc, const struct cfg_variant *var)
{
	char err[512];
	rc->variant = var->name;
	progress_variant(var->name);
	rc->variant_id = 0;
	if (rc->o->resume &&
	    store_variant_id(rc->st, rc->run_id, var->name, &rc->variant_id, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		return -1;
	}
	return 0;
}

/* variant_run.note: a backend's note, stored as an event of the run. */
static int store_note(void *ctx, const char *kind, const char *message)
{
	struct run_session *rc = ctx;
	char err[512];
	if (store_event(rc->st, rc->run_id, kind, message, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "schedrig: %s\n", err);
	rc->store_failed = true;
	return -1;
}

/* variant_run.notes: the run's notes of a kind. */
static int read_notes(void *ctx, const char *kind, char ***msgs, size_t *n)
{
	struct run_session *rc = ctx;
	char err[512];
	if (store_events(rc->st, rc->run_id, kind, msgs, n, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "schedrig: %s\n", err);
	return -1;
}

void session_variant_run_init(struct run_session *rc, const struct cfg_variant *var,
			      const char *self_exe, const char *run_dir,
			      bool (*done)(void *, size_t, int), struct knob_db_journal *kj,
			      struct variant_run *vr)
{
	knob_db_journal_init(kj, rc->st, rc->run_id, var->name);
	*vr = (struct variant_run){
		.e = rc->e, .v = var, .p = rc->p, .iterations = rc->o->iterations,
		.self_exe = self_exe, .work_dir = run_dir, .run_id = rc->run_id,
		.on_kernel = session_on_kernel, .on_host = session_on_host,
		.on_iteration = session_on_iteration, .ctx = rc, .done = done, .journal = &kj->ops,
		.enough = session_adaptive(rc) ? session_cell_enough : NULL,
		.note = store_note, .notes = read_notes, .lava_log = rc->o->lava_log,
	};
}

int session_variant_enter(struct run_session *rc, const struct cfg_variant *var)
{
	char err[512];
	adaptive_cells_reset(rc->cells);
	if (rc->o->resume && session_adaptive(rc) && session_resume_adaptive(rc, var->name, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		return -1;
	}
	return session_variant_current(rc, var);
}

int session_variant_begin(struct run_session *rc, const struct cfg_variant *var)
{
	if (session_variant_enter(rc, var))
		return -1;
	if (session_adaptive(rc) && var->boot != BOOT_LOCAL)
		session_note_whole_plan(rc, var);
	return 0;
}

int session_variant_ended(struct run_session *rc, const struct cfg_variant *var, int vrc,
			  const char *err)
{
	char serr[512];
	if (vrc) {
		if (rc->store_failed)
			return -1;
		/* The variant failed as a whole; the next one still runs. */
		session_variant_failed(rc, var, err);
		return 0;
	}
	store_variant_status(rc->st, rc->variant_id,
			     runner_interrupt_signal() ? "interrupted" : "complete", serr, sizeof(serr));
	return 0;
}

bool session_selected(const struct run_session *rc, const struct cfg_variant *var)
{
	return !rc->o->variant || !strcmp(rc->o->variant, var->name);
}
