/* A bisection in the results database (tables bisection, bisect_point,
 * bisect_run of results-schema/schema.sql): what was asked, the points of
 * the series with their verdicts and statistics, and the ordinary runs
 * that measured each point (schedrig bisect: harness/bisect/). Every
 * function returns 0, or -1 with a message in err ("cannot ...: SQLite's
 * message"). Strings returned are malloc'd (the _free functions free
 * them). */
#ifndef SCHEDRIG_STORE_BISECT_H
#define SCHEDRIG_STORE_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include "bisect_points.h"
#include "store.h"

struct stored_bisection {
	int64_t id;
	char *config_path, *config_text;
	char *good, *bad;       /* --good, --bad */
	char *kind;             /* the provider: variants|patches|commits */
	char *load, *metric, *op, *cell;  /* NULL until the ends are measured */
	double alpha;           /* family-wise */
	char *rule;             /* welch|mann-whitney|range; NULL: before schema 13 */
	double min_effect_pct;  /* NaN until decided (with the metric, or --min-effect-pct) */
	char *status;           /* running|complete|refused|interrupted|failed */
	char *result;           /* NULL until it ends; failed: why */
	char *cwd;              /* the directory it was begun in (NULL: schema 11) */
	/* The schedrig walking it (status running), as run.host, rig_pid,
	 * rig_start_ticks, boot_id (provenance_run_status reads them); NULL
	 * and 0 when the database does not know (schema 11). */
	char *host, *boot_id;
	long long rig_pid, rig_start_ticks;
};
void store_bisection_free(struct stored_bisection *bi);

/* Record a new bisection (status running, walked by bi's cwd, host and
 * rig) with every point of s, in one transaction; bi->id receives its id. */
int store_bisect_begin(struct store *st, struct stored_bisection *bi, const struct bisect_series *s,
		       char *err, size_t errsz);
/* Read bisection id (0: the newest) into bi and its points into s (name,
 * label, config). */
int store_bisect_get(struct store *st, int64_t id, struct stored_bisection *bi,
		     struct bisect_series *s, char *err, size_t errsz);
/* Mark bisection id running again, walked by host's schedrig rig (the
 * caller's transaction makes the check before it and this one step). */
int store_bisect_claim(struct store *st, int64_t id, const char *host, const struct rig_id *rig,
		       char *err, size_t errsz);
/* The newest bisection that is not complete or refused (--resume without
 * an ID) into *id; 0 when there is none. */
int store_bisect_unfinished(struct store *st, int64_t *id, char *err, size_t errsz);
/* Record the metric the bisection decides on. */
int store_bisect_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz);
/* Record its minimum effect (percent). */
int store_bisect_min_effect(struct store *st, int64_t id, double pct, char *err, size_t errsz);
/* Set status and result (NULL: none) and ended_at = now. */
int store_bisect_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz);

/* A point's verdict and statistics (NaN stored as NULL). */
struct stored_bisect_point {
	int k;
	char *verdict;          /* NULL: untested */
	char *reason;
	int decided_seq;        /* 0 while untested */
	int n;
	double mean, ci95_half, p_good, p_bad, t_good, t_bad;
	int look;               /* 0 while untested or when its run failed */
	double alpha;           /* the alpha its look tested at (NaN: none) */
};
/* Every point of bisection id in order of k; *rows malloc'd. */
int store_bisect_points(struct store *st, int64_t id, struct stored_bisect_point **rows, size_t *n,
			char *err, size_t errsz);
void store_bisect_point_rows_free(struct stored_bisect_point *rows, size_t n);
/* Record point r->k's verdict (decided_seq: the next in the bisection). */
int store_bisect_verdict(struct store *st, int64_t id, const struct stored_bisect_point *r,
			 char *err, size_t errsz);

/* The runs of point k (k < 0: of every point, by k), by attempt: config_path names the point config the
 * run reads; run_id 0 until the run has begun; phase "walk" or "confirm"
 * ("walk" for a row before schema 13). */
struct stored_bisect_run {
	int k, attempt;
	char *config_path;
	int64_t run_id;
	char *phase;
};
int store_bisect_runs(struct store *st, int64_t id, int k, struct stored_bisect_run **rows,
		      size_t *n, char *err, size_t errsz);
void store_bisect_run_rows_free(struct stored_bisect_run *rows, size_t n);
/* Add attempt of point k in phase ("walk" | "confirm") reading config_path
 * (run_id not known yet). */
int store_bisect_run_add(struct store *st, int64_t id, int k, int attempt, const char *phase,
			 const char *config_path, char *err, size_t errsz);
/* Link the attempt to its run: the newest run whose config_path is the
 * attempt's. *run_id 0 (and nothing changed) when no such run exists. */
int store_bisect_run_link(struct store *st, int64_t id, int k, int attempt, int64_t *run_id,
			  char *err, size_t errsz);

/* A check of the confirm or the drift guard (table bisect_check): b
 * tested against a. NaN stored as NULL. */
struct stored_bisect_check {
	int seq;                /* 1, 2, ... in the order they were made */
	char *what;             /* confirm|good end|bad end|last good|first bad */
	int k_a, k_b, n_a, n_b;
	double mean_a, mean_b, effect_pct, p, statistic, alpha;
	int rounds;
	char *outcome;          /* step|no step, held|moved, same|differs */
};
/* Record c (c->seq: the next of the bisection). */
int store_bisect_check_add(struct store *st, int64_t id, const struct stored_bisect_check *c,
			   char *err, size_t errsz);
/* Every check of bisection id in seq order; *rows malloc'd. */
int store_bisect_checks(struct store *st, int64_t id, struct stored_bisect_check **rows,
			size_t *n, char *err, size_t errsz);
void store_bisect_check_rows_free(struct stored_bisect_check *rows, size_t n);

/* A bisection step a run measured (schedrig show): the bisection, the
 * point (k, variant name, label), the attempt and its phase (walk |
 * confirm). */
struct stored_bisect_step {
	int64_t bisection_id;
	int k, attempt;
	char *name, *label, *phase;
};
/* Every bisection step run_id measured (none for an ordinary run), by
 * bisection; *rows malloc'd (NULL when *n is 0). 0, or -1 with err. */
int store_bisect_steps_of_run(struct store *st, int64_t run_id, struct stored_bisect_step **rows,
			      size_t *n, char *err, size_t errsz);
void store_bisect_step_rows_free(struct stored_bisect_step *rows, size_t n);

#endif
