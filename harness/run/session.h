/* harness/run/: the run engine: session (session.c, session_variant.c,
 * session_jobs.c, session_iteration.c; session_impl.h), adaptive,
 * measurelock, preflight_check. One iteration of a cell is
 * harness/iteration/.
 */

/* One run of an experiment, from its plan to its stored outcomes: the
 * engine behind schedrig run. It records the run (or takes over a run to
 * resume), keeps its order, brings up each variant through its backend
 * (variant.h), has every finished iteration turned into samples or
 * failures (outcome_iteration) and stored, keeps the adaptive iterations
 * per cell, and ends the run with its status. What the command does
 * before (options, config, preflight, opening the store) and after (the
 * table) is in harness/cmd/cmd_run.c. */
#ifndef SCHEDRIG_SESSION_H
#define SCHEDRIG_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "monitor.h"
#include "order.h"
#include "plan.h"
#include "store.h"
#include "util.h"

/* What schedrig run was asked (its options). */
struct run_opts {
	const char *config;
	const char *db;
	char *run_root;      /* directory of the database: runs/ID go there */
	const char *resume;  /* run selector, or NULL */
	const char *variant; /* --variant: the only variant run, or NULL */
	const char *lava_log; /* --lava-log: the job log of that boot: lava variant */
	const char *revision; /* --revision: the label of variants without a revision
			       * of their own (revisions.h), or NULL */
	int iterations;
	bool dry_run;
	bool quiet;
	bool concurrent;     /* run beside another measuring run (no lock) */
	double wait_s;       /* longest wait for the measuring lock */
	bool wait_given;     /* --wait-s was given */
};

/* The state of one run while it executes. The command fills o, e, p, st,
 * notes and mon (and run_id for --resume); the engine the rest. */
struct run_session {
	const struct run_opts *o;
	struct experiment *e;  /* the kernels the run builds become its variants' (runbuild.h) */
	const struct plan *p;
	struct store *st;
	int64_t run_id;
	int64_t *cell_ids;
	const char *variant;
	int64_t variant_id;
	const char *run_dir;
	size_t failures;
	bool store_failed;   /* the database refused a write: stop the run */
	struct monitor *mon; /* monitors: of the config; NULL when off */
	struct adaptive_cells *cells; /* adaptive iterations, per cell of the variant */
	/* The rig's own CPU time (getrusage RUSAGE_SELF: this process, not its
	 * loads) and the wall time, both over the variants' period only. */
	bool rig_measured;
	bool recorded;  /* begun or resumed: its table is printed at the end */
	const struct buf *notes; /* preflight's notes, stored as the run's note events */
	double rig_user_s, rig_system_s, rig_wall_s;
	/* Interleaved and random orders: the visits the current backend run
	 * makes (variant_run.done skips every other). */
	const struct visit *stint;
	size_t n_stint;
	bool variant_local;  /* the current variant runs on the running kernel */
	bool *build_failed;  /* per variant: its kernel was not built, it does not run */
};

/* Whether var keeps its own block in order o: every variant in order
 * blocked, a variant that boots its own kernel unless the config wrote
 * order:, and always a boot: lava variant (one lab job for its whole
 * plan). */
bool session_keeps_block(const struct experiment *e, enum run_order o,
			 const struct cfg_variant *var);

/* Run rs (with o->variant set, only that variant): check that no knobs
 * are left changed (here or in rs->st), take the measuring lock (unless
 * rs->o->concurrent), record the run (store_run_begin, or store_run_resume
 * with rs->run_id), its notes, cells and order, build or find in the cache
 * the kernels its variants name (runbuild.h: a variant whose kernel was not
 * built is a recorded failure and does not run), run every other variant
 * in that order and end the run with its status. self_exe is the rig's own
 * executable (for backends that ship it). Returns the exit status: 0 all
 * complete, 1 a failure was recorded or the store refused a write, 128+N
 * interrupted by signal N. */
int session_execute(struct run_session *rs, const char *self_exe);

/* Store the rig's own cost over the variants' period as a note event ("rig
 * cpu: user_s=U system_s=S wall_s=W pct_of_one_cpu=P", which schedrig show
 * lists and bench/ reads), with the monitors' notes. Only after
 * session_execute measured it (rs->rig_measured). */
void session_note_rig_cost(struct run_session *rs);

/* Free what session_execute allocated in rs (its cells); not what the
 * command filled in. */
void session_free(struct run_session *rs);

#endif
