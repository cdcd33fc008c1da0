/* The stored runs of one point of a bisection and what they measured: the
 * attempt that serves the engine's next measurement of it (bisect_engine.h
 * ops.measure), and the samples of its attempts so far in a phase. Shared
 * by the walk (which runs the attempt when it is not stored yet) and the
 * checks of a stored bisection (which only read). */
#ifndef SCHEDRIG_BISECT_RUNS_H
#define SCHEDRIG_BISECT_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bisect_engine.h"
#include "bisect_samples.h"
#include "store.h"
#include "store_bisect.h"

/* "walk" | "confirm", as bisect_run.phase holds it. */
const char *bisect_phase_name(enum bisect_phase ph);

/* Point k's attempts (every phase), by attempt. */
struct bisect_point_runs {
	struct stored_bisect_run *rows;
	size_t n;
};
int bisect_point_runs_load(struct store *st, int64_t id, int k, struct bisect_point_runs *r,
			   char *err, size_t errsz);
void bisect_point_runs_free(struct bisect_point_runs *r);

/* The row of attempt a, or NULL. */
const struct stored_bisect_run *bisect_point_attempt(const struct bisect_point_runs *r, int a);

/* The run ids of r's attempts of phase ph up to attempt upto that have a
 * run, into ids (room for r->n); how many. */
size_t bisect_point_run_ids(const struct bisect_point_runs *r, enum bisect_phase ph, int upto,
			    int64_t *ids);

/* The attempt that serves the measurement after attempt prev: prev + 1.
 * With retry (an end's first measurement, a confirm round) a stored
 * attempt whose run failed without measuring (bisect_run_measured false)
 * is passed over when a later attempt exists, and when it is the last one
 * a new attempt measures again: *failed_run is then its run (else 0). m
 * may have no metric yet (a run then measured when it did not fail). */
int bisect_point_next_attempt(struct store *st, const struct bisect_point_runs *r, int prev,
			      bool retry, const char *variant, const struct bisect_metric *m,
			      int64_t *failed_run);

/* Did run id measure the point: it did not fail, or (m's metric known) it
 * has a sample of m? */
bool bisect_run_measured(struct store *st, int64_t id, const char *variant,
			 const struct bisect_metric *m);

/* The samples of m in r's runs of phase ph up to attempt upto (variant
 * variant), as bisect_samples_load; *last_run the newest of those runs (0:
 * none). 0, or -1 with err. */
int bisect_point_samples(struct store *st, const struct bisect_point_runs *r, enum bisect_phase ph,
			 int upto, const char *variant, const struct bisect_metric *m,
			 struct bisect_sample_set *out, int64_t *last_run, char *err, size_t errsz);

/* The stored row of a decided point (its strings ev's, not copied):
 * verdict, reason, n, Amean and CI of its walk samples, p and t against
 * each end, the look and its alpha (an end's: the ends' test's). */
struct stored_bisect_point bisect_point_row(const struct bisect_point_event *ev);

/* The stored row of a check (strings c's; seq 0): n, the mean a report
 * shows (the Amean, the Hmean of a higher-is-better metric) of each side,
 * the effect, p, statistic and alpha of its test. */
struct stored_bisect_check bisect_check_row(const struct bisect_check *c);

#endif
