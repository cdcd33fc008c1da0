/* What schedrig track reads and writes (harness/track/track.h): the runs
 * of a config with each variant's kernel revision, the rows a history is
 * made of; and the tables of track --follow (track_follow, track_step,
 * track_change: schema version 13). */
#ifndef SCHEDRIG_STORE_TRACK_H
#define SCHEDRIG_STORE_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_revision.h"

/* One variant of one run, with its kernel revision (has_revision false
 * when the run recorded none for it: kind, revision, commit_hash and
 * source are then 0 and NULL). Strings are malloc'd. */
struct stored_track_run {
	int64_t run_id, variant_id;
	char *config;      /* run.name: the config's name */
	char *started_at, *status;
	char *variant;
	bool has_revision;
	enum revision_kind kind;
	char *revision, *commit_hash, *source;
};

/* Every variant of every run of config (run.name; NULL: every config),
 * by run id then variant in config order. *rows malloc'd (NULL when *n
 * is 0); free with store_track_runs_free. 0, or -1 with err. */
int store_track_runs(struct store *s, const char *config, struct stored_track_run **rows,
		     size_t *n, char *err, size_t errsz);
void store_track_runs_free(struct stored_track_run *rows, size_t n);


/* ---- track --follow (harness/track/track_follow.h) ---- */

/* A followed branch (table track_follow). Strings malloc'd when read
 * (store_follow_free); NULL where the column is. mail: schedrig mail's
 * options, one per line (NULL: no mail). */
struct stored_follow {
	int64_t id;
	char *config_path, *config_text, *tree, *branch, *build;
	int every;
	char *since;
	char *load, *metric, *op, *cell;
	double alpha;
	int permutations;
	int64_t seed;
	double min_change_pct;
	char *mail;
	char *status, *result, *cwd, *host, *boot_id;
	long long rig_pid, rig_start_ticks;
};
void store_follow_free(struct stored_follow *f);

/* Record a new follow (status running, walked by f's host and rig);
 * f->id receives its id. 0, or -1 with err. */
int store_follow_begin(struct store *st, struct stored_follow *f, char *err, size_t errsz);

/* Read follow id (0: the newest) into f. 0, or -1 with err (also "no
 * follow N" / "no follow in DB yet"). */
int store_follow_get(struct store *st, int64_t id, struct stored_follow *f, char *err,
		     size_t errsz);

/* The newest follow of config_path, tree and branch into *id (0: none). */
int store_follow_find(struct store *st, const char *config_path, const char *tree,
		      const char *branch, int64_t *id, char *err, size_t errsz);

/* Mark follow id running, walked by host's schedrig rig. */
int store_follow_claim(struct store *st, int64_t id, const char *host, const struct rig_id *rig,
		       char *err, size_t errsz);

/* Record the metric a follow decided on. */
int store_follow_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz);

/* Set a follow's status and result (NULL: none), ended_at now. */
int store_follow_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz);

/* One commit a follow ran (table track_step); run_id 0 until its run began. */
struct stored_follow_step {
	int seq;
	char *commit_hash, *subject, *config_path;
	int64_t run_id;
};

/* The steps of follow id by seq. *rows malloc'd (NULL when *n is 0). */
int store_follow_steps(struct store *st, int64_t id, struct stored_follow_step **rows, size_t *n,
		       char *err, size_t errsz);
void store_follow_steps_free(struct stored_follow_step *rows, size_t n);

/* Add step seq of follow id (its run not begun yet). */
int store_follow_step_add(struct store *st, int64_t id, int seq, const char *commit_hash,
			  const char *subject, const char *config_path, char *err, size_t errsz);

/* Link step seq to the newest run whose config_path is the step's, into
 * *run_id (0: none began). */
int store_follow_step_link(struct store *st, int64_t id, int seq, int64_t *run_id, char *err,
			   size_t errsz);

/* A change a follow handled (table track_change); bisection_id 0 none.
 * outcome: "verdict" (final), "retryable" (the bisection stopped for a
 * reason of the machine), NULL none yet (or a version 13 row: its result,
 * when it has one, is final); attempts: bisections begun or resumed. */
struct stored_follow_change {
	char *before_commit, *after_commit;
	int commits;
	double mean_before, mean_after, change_pct, p;
	int64_t bisection_id;
	char *result, *mailed_at;
	char *outcome;
	int attempts;
};

/* The changes of follow id, in the order they were found. */
int store_follow_changes(struct store *st, int64_t id, struct stored_follow_change **rows,
			 size_t *n, char *err, size_t errsz);
void store_follow_changes_free(struct stored_follow_change *rows, size_t n);

/* Free the strings of one change c (not c itself: it may be on the stack). */
void store_follow_change_clear(struct stored_follow_change *c);

/* Add change c of follow id (bisection_id, result, mailed_at ignored). */
int store_follow_change_add(struct store *st, int64_t id, const struct stored_follow_change *c,
			    char *err, size_t errsz);

/* Set the bisection (0: none), result (NULL: keep) of follow id's change
 * after after_commit, and with mailed its mailed_at now. */
int store_follow_change_update(struct store *st, int64_t id, const char *after_commit,
			       int64_t bisection_id, const char *result, bool mailed, char *err,
			       size_t errsz);

/* Set the outcome ("verdict" or "retryable") and attempts of follow
 * id's change after after_commit. 0, or -1 with err. */
int store_follow_change_outcome(struct store *st, int64_t id, const char *after_commit,
				const char *outcome, int attempts, char *err, size_t errsz);

/* The newest bisection begun from config_path into *id (0: none). */
int store_bisection_of_config(struct store *st, const char *config_path, int64_t *id, char *err,
			      size_t errsz);

#endif
