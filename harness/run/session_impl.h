/* What the parts of the run engine share (session.c: the run and its
 * variants in order; session_variant.c: a variant's life in a run;
 * session_jobs.c: the variants a lab runs as jobs; session_iteration.c:
 * each finished iteration and kernel, the callbacks backends call).
 * Private to harness/run/session*.c. */
#ifndef SCHEDRIG_SESSION_IMPL_H
#define SCHEDRIG_SESSION_IMPL_H

#include "backends.h"
#include "session.h"
#include "variant.h"

/* The config asks for adaptive iterations (a minimum below the count, or a
 * time limit). */
bool session_adaptive(const struct run_session *rc);

/* variant_run callbacks, ctx a struct run_session: the kernel is up
 * (record the variant), an iteration finished (parse and store it), the
 * cell has enough iterations (adaptive), and the done filters of run
 * --resume (session_iteration_done) and of interleaved stints (session_stint_skip). */
int session_on_kernel(void *ctx, const struct variant_kernel *k);
int session_on_iteration(void *ctx, size_t c, int it, struct iteration_result *res);
bool session_cell_enough(void *ctx, size_t c, int iteration);
bool session_iteration_done(void *ctx, size_t c, int it);
bool session_stint_skip(void *ctx, size_t c, int it);
/* The done filter of a fresh blocked run: the cells outside the current
 * variant's cells: (config.h); the other two skip those too. */
bool session_cell_skip(void *ctx, size_t c, int it);

/* variant_run.on_host (session_host.c): the variant's fingerprint,
 * checked against what it asked for (hostdecl_check: a mismatch fails the
 * variant) and stored, or a warning when it changed since its first one;
 * its notes as "note" events. */
int session_on_host(void *ctx, const struct host_fp *fp, const struct argv *notes, char *err,
		    size_t errsz);

/* The fingerprint of the machine the rig runs on, stored as the run's own
 * (store_host.h variant 0); on run --resume a warning when it changed.
 * 0, or -1 after a message (the store failed). */
int session_run_fingerprint(struct run_session *rc);

/* session_variant.c: a variant's life in a run. */

struct knob_db_journal;

/* The variant_run of var in this run (its callbacks the ones above, done
 * the run --resume or stint filter, NULL none) with its knob journal kj,
 * which the caller frees (knob_db_journal_free) after the backend is done. */
void session_variant_run_init(struct run_session *rc, const struct cfg_variant *var,
			      const char *self_exe, const char *run_dir,
			      bool (*done)(void *, size_t, int), struct knob_db_journal *kj,
			      struct variant_run *vr);

/* Make var the current variant: its name, its stored id (run --resume: it
 * is known before its kernel comes up, and qemu and ssh build the agent's
 * plan with variant_run.done before that). 0, or -1 (store failed). */
int session_variant_current(struct run_session *rc, const struct cfg_variant *var);

/* var the current variant, its adaptive cells afresh (run --resume:
 * rebuilt from the store): before a backend runs var, and again before a
 * job's results are handed over. 0, or -1 (store failed: the run stops). */
int session_variant_enter(struct run_session *rc, const struct cfg_variant *var);

/* Before a backend runs var: session_variant_enter, and the whole-plan
 * note of an adaptive run. 0, or -1 (store failed: the run stops). */
int session_variant_begin(struct run_session *rc, const struct cfg_variant *var);

/* After the backend: vrc 0, the current variant's status (complete, or
 * interrupted); else err is its failure (session_variant_failed). 0, or
 * -1 when the run must stop (store failed). */
int session_variant_ended(struct run_session *rc, const struct cfg_variant *var, int vrc,
			  const char *err);

/* The failure of a whole variant: message on stderr, "failure" event,
 * status "failed" (its variant row added when it has none yet). */
void session_variant_failed(struct run_session *rc, const struct cfg_variant *var, const char *why);

/* A whole variant stopped by the rig's interrupt (a lab's job canceled on
 * Ctrl-C): message on stderr, "note" event, status "interrupted"; not a
 * failure. */
void session_variant_interrupted(struct run_session *rc, const struct cfg_variant *var,
				 const char *why);

/* --variant: var is the one that runs, or none was named. */
bool session_selected(const struct run_session *rc, const struct cfg_variant *var);

/* session_jobs.c: the variants a lab runs as jobs. */

/* The variants of the run whose backend runs them as jobs (variant.h:
 * start, poll, cancel, collect; boot: lava), those selected and built:
 * every job started, then one loop that waits for all of them (a look at
 * each every 0.5 s) and collects each as it finishes; Ctrl-C or a store
 * failure cancels the jobs still running. -1 when the run must stop. */
int session_run_jobs(struct run_session *rc, const char *self_exe, const char *run_dir);

/* var runs as a job (its backend has start). */
bool session_runs_as_job(const struct cfg_variant *var);

/* A qemu or ssh variant runs its whole plan: say so in the run's
 * "iterations" events. */
void session_note_whole_plan(struct run_session *rc, const struct cfg_variant *var);

/* run --resume with adaptive iterations: rebuild the variant's cells from
 * the stored run. 0, or -1 with err. */
int session_resume_adaptive(struct run_session *rc, const char *variant, char *err, size_t errsz);

#endif
