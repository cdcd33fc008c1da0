/* What schedrig reparse reads from a results database (store.h): a run's
 * load instances with what the runner decided about each, their raw
 * output, and whether their stored samples equal a new parse. Its writes
 * are store.h's (store_instance_outcome and the others it names). */
#ifndef SCHEDRIG_STORE_REPARSE_H
#define SCHEDRIG_STORE_REPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples.h"
#include "store.h"
#include "util.h"

/* One stored load instance. Strings are malloc'd, NULL where the column is
 * NULL (reason: no failure). */
struct stored_reparse_inst {
	int64_t id, iteration_id;
	char *variant, *cell, *load, *tool, *role, *state, *reason;
	char *it_status;     /* its iteration's status */
	char *sched_requested, *sched_applied; /* as stored; NULL when not */
	int iteration, seq;  /* seq: config order of the load */
	bool started;        /* it has a pid */
	bool exited;         /* it has an exit code */
	int exit_code, term_signal; /* 0 when not stored */
	/* The rig stopped it: stored as stopped; or, when its stored outcome
	 * is not ok (a tool parsed after its stop that failed), a background
	 * instance that ended after the measured ones. An ok one that ended a
	 * moment after them exited by itself: the runner sent it no stop. */
	bool stopped;
	bool warmup;  /* a background instance that ended before the measured ones started */
};

/* Every instance of run run_id, ordered by variant, cell, iteration, load
 * and repetition (so each iteration's instances are adjacent). *rows is
 * malloc'd (NULL when *n is 0); free with store_reparse_rows_free. 0, or
 * -1 with err. */
int store_reparse_instances(struct store *s, int64_t run_id, struct stored_reparse_inst **rows,
			    size_t *n, char *err, size_t errsz);
void store_reparse_rows_free(struct stored_reparse_inst *rows, size_t n);

/* Append instance instance_id's raw stdout to out and stderr to errb (each
 * NUL-terminated, empty when none is stored). 0, or -1 with err. */
int store_raw_output(struct store *s, int64_t instance_id, struct buf *out, struct buf *errb,
		     char *err, size_t errsz);

/* Whether the instance's stored samples equal v (metric, op, value with NaN
 * equal to NaN, and flag, in order; and its histograms, in order, every
 * stored column: buckets, bounds, overflow, min, max, sums) into *same,
 * and how many samples are stored into *n_stored. 0, or -1 with err. */
int store_samples_same(struct store *s, int64_t instance_id, const struct sample_vec *v,
		       bool *same, size_t *n_stored, char *err, size_t errsz);

#endif
