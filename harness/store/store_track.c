/* schedrig track's rows (store_track.h). */
#include "store_track.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "store_shapes.h"
#include "util.h"

int store_track_runs(struct store *s, const char *config, struct stored_track_run **rows,
		     size_t *n, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	*rows = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(store_db(s), track_run_shape.sql, -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, track_run_shape.what, err, errsz);
	sqlite3_bind_text(st, 1, config, -1, SQLITE_STATIC);
	return store_rows_stmt(s, st, &track_run_shape, (void **)rows, n, err, errsz);
}

void store_track_runs_free(struct stored_track_run *rows, size_t n)
{
	store_rows_free(&track_run_shape, rows, n);
}

void store_follow_free(struct stored_follow *f)
{
	store_row_clear(&follow_shape, f);
}

int store_follow_begin(struct store *st, struct stored_follow *f, char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(st,
		       "INSERT INTO track_follow (config_path, config_text, tree, branch, build, every,"
		       " since, load, metric, op, cell, alpha, permutations, seed, min_change_pct, mail,"
		       " status, started_at, cwd, host, rig_pid, rig_start_ticks, boot_id)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?,"
		       " ?, ?)", "tttttitttttdiIdttttIIt", f->config_path, f->config_text, f->tree,
		       f->branch, f->build, f->every, f->since, f->load, f->metric, f->op, f->cell,
		       f->alpha, f->permutations, f->seed, f->min_change_pct, f->mail, now, f->cwd,
		       f->host, (int64_t)f->rig_pid, (int64_t)f->rig_start_ticks, f->boot_id))
		return store_fail(st, "cannot record the follow", err, errsz);
	f->id = sqlite3_last_insert_rowid(store_db(st));
	return 0;
}

int store_follow_get(struct store *st, int64_t id, struct stored_follow *f, char *err,
		     size_t errsz)
{
	*f = (struct stored_follow){0};
	int rc = store_row_get(st, &follow_shape, id, f, err, errsz);
	if (rc > 0 && id)
		snprintf(err, errsz, "no follow %lld in the results database", (long long)id);
	else if (rc > 0)
		snprintf(err, errsz, "the results database holds no follow yet");
	return rc ? -1 : 0;
}

int store_follow_find(struct store *st, const char *config_path, const char *tree,
		      const char *branch, int64_t *id, char *err, size_t errsz)
{
	sqlite3_stmt *q;
	*id = 0;
	if (sqlite3_prepare_v2(store_db(st), "SELECT id FROM track_follow WHERE config_path = ?"
			       " AND tree = ? AND branch = ? ORDER BY id DESC LIMIT 1", -1, &q,
			       NULL) != SQLITE_OK)
		return store_fail(st, "cannot read the follows", err, errsz);
	sqlite3_bind_text(q, 1, config_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, branch, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, "cannot read the follows", err, errsz);
	return 0;
}

int store_follow_claim(struct store *st, int64_t id, const char *host, const struct rig_id *rig,
		       char *err, size_t errsz)
{
	return store_job_claim(st, "track_follow", id, host, rig, "cannot claim the follow", err,
			       errsz);
}

int store_follow_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz)
{
	return store_job_choice(st, "track_follow", id, load, metric, op, cell,
				"cannot record the follow's metric", err, errsz);
}

int store_follow_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz)
{
	return store_job_end(st, "track_follow", id, status, result,
			     "cannot record the end of the follow", err, errsz);
}

int store_follow_steps(struct store *st, int64_t id, struct stored_follow_step **rows, size_t *n,
		       char *err, size_t errsz)
{
	return store_rows(st, &follow_step_shape, id, (void **)rows, n, err, errsz);
}

void store_follow_steps_free(struct stored_follow_step *rows, size_t n)
{
	store_rows_free(&follow_step_shape, rows, n);
}

int store_follow_step_add(struct store *st, int64_t id, int seq, const char *commit_hash,
			  const char *subject, const char *config_path, char *err, size_t errsz)
{
	return store_write(st, "cannot record a step of the follow", err, errsz,
			   "INSERT INTO track_step (follow_id, seq, commit_hash, subject,"
			   " config_path) VALUES (?, ?, ?, ?, ?)", "Iittt", id, seq, commit_hash,
			   subject, config_path);
}

int store_follow_step_link(struct store *st, int64_t id, int seq, int64_t *run_id, char *err,
			   size_t errsz)
{
	sqlite3_stmt *q;
	*run_id = 0;
	if (store_exec_bound(st, "UPDATE track_step SET run_id = (SELECT r.id FROM run r WHERE"
			     " r.config_path = track_step.config_path ORDER BY r.id DESC LIMIT 1)"
			     " WHERE follow_id = ? AND seq = ?", "Ii", id, seq) ||
	    sqlite3_prepare_v2(store_db(st), "SELECT coalesce(run_id, 0) FROM track_step"
			       " WHERE follow_id = ? AND seq = ?", -1, &q, NULL) != SQLITE_OK)
		return store_fail(st, "cannot link a step of the follow to its run", err, errsz);
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int(q, 2, seq);
	if (sqlite3_step(q) == SQLITE_ROW)
		*run_id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return 0;
}

int store_follow_changes(struct store *st, int64_t id, struct stored_follow_change **rows,
			 size_t *n, char *err, size_t errsz)
{
	return store_rows(st, &follow_change_shape, id, (void **)rows, n, err, errsz);
}

void store_follow_changes_free(struct stored_follow_change *rows, size_t n)
{
	store_rows_free(&follow_change_shape, rows, n);
}

void store_follow_change_clear(struct stored_follow_change *c)
{
	store_row_clear(&follow_change_shape, c);
}

int store_follow_change_add(struct store *st, int64_t id, const struct stored_follow_change *c,
			    char *err, size_t errsz)
{
	return store_write(st, "cannot record a change of the follow", err, errsz,
			   "INSERT INTO track_change (follow_id, before_commit, after_commit,"
			   " commits, mean_before, mean_after, change_pct, p) VALUES (?, ?, ?, ?, ?,"
			   " ?, ?, ?)", "Ittidddd", id, c->before_commit, c->after_commit,
			   c->commits, c->mean_before, c->mean_after, c->change_pct, c->p);
}

int store_follow_change_update(struct store *st, int64_t id, const char *after_commit,
			       int64_t bisection_id, const char *result, bool mailed, char *err,
			       size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	return store_write(st, "cannot record what the follow did about a change", err, errsz,
			   "UPDATE track_change SET bisection_id = nullif(?, 0),"
			   " result = coalesce(?, result), mailed_at = CASE WHEN ? THEN ? ELSE"
			   " mailed_at END WHERE follow_id = ? AND after_commit = ?", "ItitIt",
			   bisection_id, result, (int)mailed, now, id, after_commit);
}

int store_bisection_of_config(struct store *st, const char *config_path, int64_t *id, char *err,
			      size_t errsz)
{
	sqlite3_stmt *q;
	*id = 0;
	if (sqlite3_prepare_v2(store_db(st), "SELECT id FROM bisection WHERE config_path = ?"
			       " ORDER BY id DESC LIMIT 1", -1, &q, NULL) != SQLITE_OK)
		return store_fail(st, "cannot read the bisections", err, errsz);
	sqlite3_bind_text(q, 1, config_path, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return 0;
}
