/* A stored bisection checked against what the rig computes itself, before
 * --resume walks on from it or --show reports it (nothing read from the
 * database is trusted):
 *   the series: regenerated from the bisection's config, --good and --bad
 *     (bisect_series_build) and compared point for point (name, label,
 *     config) with the stored points;
 *   the verdicts: the points are exactly k 0..N, and every stored verdict
 *     is decided again from the samples of the point's linked runs (each
 *     run's config the point's own) by the walk's rule (bisect.h
 *     bisect_classify against both ends): a verdict that disagrees, or one
 *     without runs that measured it, is an error naming the point; so is
 *     a statistic (n, mean, p vs either end) or a reason (bisect.h
 *     bisect_class_reason, or a failed run's bisect_run_failure) other
 *     than the one the samples give, naming it;
 *   the order: the decided points' decided_seq, in their order, are the
 *     points the walk measures given the verdicts before (the ends, then
 *     bisect_search_next). */
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

/* Check the stored points of bi (series s) and their verdicts as above;
 * search (initialised for s->n points) receives the verdicts. 0, or -1
 * with err naming the point and what its samples say. */
int bisect_verify_verdicts(struct store *st, const struct stored_bisection *bi,
			   const struct bisect_series *s, struct bisect_search *search, char *err,
			   size_t errsz);

/* --show: bisection id (0 the newest) read, its points k 0..N, its series
 * regenerated in the directory the bisection was begun in (this process
 * back where it was after) and its verdicts checked, as above; a complete
 * one's stored result must be the one its verdicts give
 * (bisect_result_text). 0, or -1 with err naming what disagrees. */
int bisect_verify_show(struct store *st, int64_t id, char *err, size_t errsz);

#endif
