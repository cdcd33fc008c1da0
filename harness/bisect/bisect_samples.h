/* The numbers a bisection decides on: the samples of one metric, op and
 * cell of a point's runs (complete iterations only, as in every report:
 * store_load_rows), and the choice of that metric. */
#ifndef SCHEDRIG_BISECT_SAMPLES_H
#define SCHEDRIG_BISECT_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "samples.h"
#include "stats.h"
#include "store.h"

/* Which samples: load (its name in the config), metric, op and cell. */
struct bisect_metric {
	char *load, *metric, *op, *cell;
};
void bisect_metric_free(struct bisect_metric *m);

/* The samples of a point, sorted ascending, with their summary. */
struct bisect_sample_set {
	double *v;
	size_t n;
	size_t iterations;     /* distinct (run, iteration) pairs they came from */
	enum better better;
	char unit[32];
	struct stats_summary sum;
};
void bisect_sample_set_free(struct bisect_sample_set *s);

/* The samples of m in runs ids (variant variant), NaN left out. 0, or -1
 * with err (the database). n 0 when there are none. */
int bisect_samples_load(struct store *st, const int64_t *ids, size_t n_ids, const char *variant,
			const struct bisect_metric *m, struct bisect_sample_set *out, char *err,
			size_t errsz);

/* Decide the metric from the good end's runs ids (variant variant):
 * want_metric "LOAD:METRIC" (NULL: default_load:default_metric, the
 * config's primary metric), want_op and want_cell (NULL: the only one the
 * samples have). Every value the samples must have; else -1 with err
 * naming what they have ("metric fake:value has ops 0, 1: choose one with
 * --op"); -2 with err when the runs have no sample of the metric at all
 * (a failed run may have none). 0 with out filled (malloc'd strings). */
int bisect_metric_choose(struct store *st, const int64_t *ids, size_t n_ids, const char *variant,
			 const char *want_metric, const char *want_op, const char *want_cell,
			 const char *default_load, const char *default_metric,
			 struct bisect_metric *out, char *err, size_t errsz);

/* Why run id gave a point no samples, the reason stored with its skip:
 * "run ID failed: MESSAGE" (the run's first failure event), else "run ID
 * has no complete iteration". malloc'd. */
char *bisect_run_failure(struct store *st, int64_t id);

#endif
