/* What schedrig show reads from a results database (store.h) besides the
 * run's provenance (store_runs.h) and knob journal: every load instance of
 * a run with its scheduling attributes, exit status, sample counts and raw
 * output, typed, so the command holds no SQL. */
#ifndef SCHEDRIG_STORE_SHOW_H
#define SCHEDRIG_STORE_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* One load instance. Strings are borrowed for the duration of the callback
 * and NULL where the column is NULL. */
struct stored_instance_view {
	const char *variant, *cell;
	int iteration;
	const char *iteration_status;  /* complete|failed|interrupted */
	const char *name, *role, *state;
	int repetition;                /* background repeat count, 0 first */
	bool exited;                   /* exit_code stored */
	int exit_code;
	bool signalled;                /* term_signal stored */
	int term_signal;
	const char *sched_requested, *sched_applied, *argv, *reason;
	double elapsed_s;              /* 0 when not stored (an imported run) */
	int64_t n_samples;
	int64_t n_flagged;             /* its samples with a tool warning */
	const char *flags;             /* their distinct warnings, ','-separated */
	const char *out, *err;         /* raw stdout and stderr, NULL when none */
	size_t out_len, err_len;       /* bytes */
};

/* Call fn for every load instance of run run_id, ordered by variant, cell
 * (config and plan order), iteration, load (config order) and repetition.
 * A non-zero return of fn stops the walk and is returned. 0, or -1 with
 * err on a database error. */
int store_instance_views(struct store *s, int64_t run_id,
			 int (*fn)(const struct stored_instance_view *v, void *ctx), void *ctx,
			 char *err, size_t errsz);

#endif
