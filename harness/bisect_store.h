/* A bisection in the results database (tables bisection, bisect_point,
 * bisect_run of results-schema/schema.sql): what was asked, the points of
 * the series with their verdicts and statistics, and the ordinary runs
 * that measured each point. Every function returns 0, or -1 with a message
 * in err. Strings returned are malloc'd (the _free functions free them). */
#ifndef SCHEDRIG_BISECT_STORE_H
#define SCHEDRIG_BISECT_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "bisect_series.h"
#include "store.h"

struct bisection_info {
	int64_t id;
	char *config_path, *config_text;
	char *good, *bad;       /* --good, --bad */
	char *kind;             /* the provider: variants|patches */
	char *load, *metric, *op, *cell;  /* NULL until the ends are measured */
	double alpha;
	char *status;           /* running|complete|refused|interrupted|failed */
	char *result;           /* NULL until it ends */
};
void bisection_info_free(struct bisection_info *bi);

/* Record a new bisection (status running) with every point of s, in one
 * transaction; bi->id receives its id. */
int bisect_store_begin(struct store *st, struct bisection_info *bi, const struct bisect_series *s,
		       char *err, size_t errsz);
/* Read bisection id (0: the newest) into bi and its points into s (name,
 * label, config). */
int bisect_store_get(struct store *st, int64_t id, struct bisection_info *bi,
		     struct bisect_series *s, char *err, size_t errsz);
/* Record the metric the bisection decides on. */
int bisect_store_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz);
/* Set status and result (NULL: none) and ended_at = now. */
int bisect_store_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz);

/* A point's verdict and statistics (NaN stored as NULL). */
struct bisect_point_row {
	int k;
	char *verdict;          /* NULL: untested */
	char *reason;
	int decided_seq;        /* 0 while untested */
	int n;
	double mean, ci95_half, p_good, p_bad, t_good, t_bad;
};
/* Every point of bisection id in order of k; *rows malloc'd. */
int bisect_store_points(struct store *st, int64_t id, struct bisect_point_row **rows, size_t *n,
			char *err, size_t errsz);
void bisect_point_rows_free(struct bisect_point_row *rows, size_t n);
/* Record point r->k's verdict (decided_seq: the next in the bisection). */
int bisect_store_verdict(struct store *st, int64_t id, const struct bisect_point_row *r,
			 char *err, size_t errsz);

/* The runs of point k, by attempt: config_path names the point config the
 * run reads; run_id 0 until the run has begun. */
struct bisect_run_row {
	int attempt;
	char *config_path;
	int64_t run_id;
};
int bisect_store_runs(struct store *st, int64_t id, int k, struct bisect_run_row **rows,
		      size_t *n, char *err, size_t errsz);
void bisect_run_rows_free(struct bisect_run_row *rows, size_t n);
/* Add attempt of point k reading config_path (run_id not known yet). */
int bisect_store_run_add(struct store *st, int64_t id, int k, int attempt,
			 const char *config_path, char *err, size_t errsz);
/* Link the attempt to its run: the newest run whose config_path is the
 * attempt's. *run_id 0 (and nothing changed) when no such run exists. */
int bisect_store_run_link(struct store *st, int64_t id, int k, int attempt, int64_t *run_id,
			  char *err, size_t errsz);

/* A bisection step a run measured (schedrig show): the bisection, the
 * point (k, variant name, label) and the attempt. */
struct bisect_step_of_run {
	int64_t bisection_id;
	int k, attempt;
	char *name, *label;
};
/* Every bisection step run_id measured (none for an ordinary run), by
 * bisection; *rows malloc'd (NULL when *n is 0). 0, or -1 with err. */
int bisect_store_steps_of_run(struct store *st, int64_t run_id, struct bisect_step_of_run **rows,
			      size_t *n, char *err, size_t errsz);
void bisect_steps_of_run_free(struct bisect_step_of_run *rows, size_t n);

#endif
