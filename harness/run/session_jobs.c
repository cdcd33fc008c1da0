/* The variants a lab runs (session_impl.h: session_run_jobs): all their jobs
 * at once, one bounded wait loop, each collected as it finishes. A job's
 * own bound is its backend's (lava.c cancels a job that outlives twice its
 * timeout plus an hour in the queue), so the loop ends. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "knob_journal.h"
#include "runner.h"
#include "session_impl.h"

#define JOBS_POLL_NS 500000000L

/* One variant's job, from start to collect. */
struct job_slot {
	const struct cfg_variant *var;
	struct knob_db_journal kj;
	struct variant_run vr;
	struct variant_job *job; /* NULL: not started, or collected */
};

bool session_runs_as_job(const struct cfg_variant *var)
{
	return variant_backend_for(var->boot)->start != NULL;
}

/* Start the slot's job. A variant with nothing left to run ends at once;
 * one whose job was refused is failed. -1 when the run must stop. */
static int start_one(struct run_session *rc, struct job_slot *s)
{
	char err[512] = "";
	if (session_variant_begin(rc, s->var))
		return -1;
	int vrc = variant_backend_for(s->var->boot)->start(&s->vr, &s->job, err, sizeof(err));
	if (vrc == 0 && s->job)
		return 0;
	return session_variant_ended(rc, s->var, vrc, err);
}

/* The slot's job ended (poll said r, err why when -1): collect it, record
 * the variant. -1 when the run must stop. */
static int end_one(struct run_session *rc, struct job_slot *s, int r, char *err, size_t errsz)
{
	const struct variant_backend *b = variant_backend_for(s->var->boot);
	if (session_variant_enter(rc, s->var)) {
		b->cancel(s->job); /* the run stops: its results are dropped */
		b->collect(s->job, err, errsz);
		s->job = NULL;
		return -1;
	}
	int vrc = b->collect(s->job, err, errsz);
	s->job = NULL;
	return session_variant_ended(rc, s->var, r > 0 ? vrc : -1, err);
}

static void cancel_all(struct job_slot *slots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (slots[i].job)
			variant_backend_for(slots[i].var->boot)->cancel(slots[i].job);
}

/* Look at every open job until none is left. A job canceled because the
 * run stops still ends through poll (bounded), so no job is left behind. */
static int wait_all(struct run_session *rc, struct job_slot *slots, size_t n, size_t open)
{
	bool canceled = false;
	int ret = 0;
	while (open) {
		for (size_t i = 0; i < n; i++) {
			if (!canceled && (runner_poll_interrupt() || ret)) {
				cancel_all(slots, n);
				canceled = true;
			}
			if (!slots[i].job)
				continue;
			char err[1024] = "";
			int r = variant_backend_for(slots[i].var->boot)->poll(slots[i].job, err,
									       sizeof(err));
			if (r == 0)
				continue;
			open--;
			if (end_one(rc, &slots[i], r, err, sizeof(err)))
				ret = -1;
		}
		if (open)
			nanosleep(&(struct timespec){0, JOBS_POLL_NS}, NULL);
	}
	return ret;
}

int session_run_jobs(struct run_session *rc, const char *self_exe, const char *run_dir)
{
	struct job_slot *slots = xcalloc(rc->e->n_variants, sizeof(*slots));
	size_t n = 0, open = 0;
	int ret = 0;
	for (size_t v = 0; v < rc->e->n_variants; v++) {
		const struct cfg_variant *var = &rc->e->variants[v];
		if (rc->build_failed[v] || !session_runs_as_job(var) || !session_selected(rc, var))
			continue;
		struct job_slot *s = &slots[n++];
		s->var = var;
		session_variant_run_init(rc, var, self_exe, run_dir,
					 rc->o->resume ? session_iteration_done : NULL, &s->kj, &s->vr);
		if (!ret && !runner_poll_interrupt() && start_one(rc, s))
			ret = -1;
		open += s->job != NULL;
	}
	if (wait_all(rc, slots, n, open))
		ret = -1;
	for (size_t i = 0; i < n; i++)
		knob_db_journal_free(&slots[i].kj);
	free(slots);
	return ret;
}
