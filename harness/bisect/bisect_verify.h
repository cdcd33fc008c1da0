/* A stored bisection checked against what the rig computes itself, before
 * --resume walks on from it or --show reports it (nothing read from the
 * database is trusted):
 *   the series: regenerated from the bisection's config, --good and --bad
 *     (bisect_series_build) and compared point for point (name, label,
 *     config) with the stored points;
 *   the decisions: the engine's procedure (bisect_engine.h) run again by
 *     the bisection's rule over the samples of its stored runs (each run's
 *     config the point's own; the attempts the walk's: bisect_runs.h),
 *     as far as they go: every stored verdict must be the one it makes
 *     there, with its statistics (n, mean, p vs either end, the look's
 *     alpha) and reason; a stored verdict it does not reach is one no run
 *     decides; the points' decided_seq, in their order, are the points it
 *     decides in its order; every stored check (the confirm, the drift
 *     guard) is the one it makes, in order, number for number; and a
 *     finished bisection's result line is the one it ends with. */
#ifndef SCHEDRIG_BISECT_VERIFY_H
#define SCHEDRIG_BISECT_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "bisect.h"
#include "bisect_series.h"
#include "store.h"
#include "store_bisect.h"

/* Regenerate bi's series into fresh (freed by the caller, also on error)
 * and compare it with stored. 0, or -1 with err ("bisection 1: point 2
 * p2: its stored config is not the one its config makes ..."). */
int bisect_verify_series(const struct stored_bisection *bi, const struct bisect_series *stored,
			 struct bisect_series *fresh, char *err, size_t errsz);

/* The rule bi decides by, checked (a rule this schedrig decides by,
 * alpha in (0, 0.5), a minimum effect >= 0 or not decided yet), with the
 * points' iterations from point 0's config of s. 0, or -1 with err (a
 * bisection made before schema version 13 has no rule to check by). */
struct bisect_rule;
int bisect_stored_rule(const struct stored_bisection *bi, const struct bisect_series *s,
		       struct bisect_rule *r, char *err, size_t errsz);

/* What a checked bisection has stored: its decided points and checks,
 * which the engine makes first again when it is resumed. */
struct bisect_stored_counts {
	size_t points, checks;
};

/* Check the stored decisions of bi (series s) as above; *counts receives
 * how many there are. 0, or -1 with err naming the point or check and
 * what its samples say. */
int bisect_verify_verdicts(struct store *st, const struct stored_bisection *bi,
			   const struct bisect_series *s, struct bisect_stored_counts *counts,
			   char *err, size_t errsz);

/* --show: bisection id (0 the newest) read, its points k 0..N, its series
 * regenerated in the directory the bisection was begun in (this process
 * back where it was after) and its decisions checked, as above. 0, or -1
 * with err naming what disagrees. */
int bisect_verify_show(struct store *st, int64_t id, char *err, size_t errsz);

#endif
