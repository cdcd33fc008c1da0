/* schedrig track's rows (store_track.h). */
#include "store_track.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

/* The kind of a track run's kernel revision, from column 9 (NULL: the
 * run recorded none, or one of no kind the rig writes: the JOIN left it). */
static void track_run_kind(sqlite3_stmt *st, void *row)
{
	struct stored_track_run *r = row;
	int kind = sqlite3_column_type(st, 9) == SQLITE_NULL ? -1
			: revision_kind_parse(store_col_text(st, 9));
	r->has_revision = kind >= 0;
	r->kind = kind >= 0 ? (enum revision_kind)kind : 0;
}

static const struct store_row_shape track_run_shape = {
	"SELECT r.id, r.name, r.started_at, r.status, v.id, v.name, k.revision, k.commit_hash,"
	" k.source, k.kind FROM run r JOIN variant v ON v.run_id = r.id"
	" LEFT JOIN kernel_revision k ON k.run_id = r.id AND k.variant = v.name"
	" AND k.kind IN ('git', 'package', 'label')"
	" WHERE ?1 IS NULL OR r.name = ?1 ORDER BY r.id, v.seq, v.id",
	"cannot read the runs of a history", sizeof(struct stored_track_run), track_run_kind, {
	{STORE_INT64, offsetof(struct stored_track_run, run_id)},
	{STORE_TEXT, offsetof(struct stored_track_run, config)},
	{STORE_TEXT, offsetof(struct stored_track_run, started_at)},
	{STORE_TEXT, offsetof(struct stored_track_run, status)},
	{STORE_INT64, offsetof(struct stored_track_run, variant_id)},
	{STORE_TEXT, offsetof(struct stored_track_run, variant)},
	{STORE_TEXT, offsetof(struct stored_track_run, revision)},
	{STORE_TEXT, offsetof(struct stored_track_run, commit_hash)},
	{STORE_TEXT, offsetof(struct stored_track_run, source)},
}};

/* A follow row (store_follow_get). */
static const struct store_row_shape follow_shape = {
	"SELECT id, config_path, config_text, tree, branch, build, since, load, metric, op, cell, mail,"
	" status, result, cwd, host, boot_id, every, alpha, permutations, seed, min_change_pct,"
	" rig_pid, rig_start_ticks FROM track_follow WHERE id = ?1 OR ?1 = 0 ORDER BY id DESC LIMIT 1",
	"cannot read the follow", sizeof(struct stored_follow), NULL, {
	{STORE_INT64, offsetof(struct stored_follow, id)},
	{STORE_TEXT, offsetof(struct stored_follow, config_path)},
	{STORE_TEXT, offsetof(struct stored_follow, config_text)},
	{STORE_TEXT, offsetof(struct stored_follow, tree)},
	{STORE_TEXT, offsetof(struct stored_follow, branch)},
	{STORE_TEXT, offsetof(struct stored_follow, build)},
	{STORE_TEXT, offsetof(struct stored_follow, since)},
	{STORE_TEXT, offsetof(struct stored_follow, load)},
	{STORE_TEXT, offsetof(struct stored_follow, metric)},
	{STORE_TEXT, offsetof(struct stored_follow, op)},
	{STORE_TEXT, offsetof(struct stored_follow, cell)},
	{STORE_TEXT, offsetof(struct stored_follow, mail)},
	{STORE_TEXT, offsetof(struct stored_follow, status)},
	{STORE_TEXT, offsetof(struct stored_follow, result)},
	{STORE_TEXT, offsetof(struct stored_follow, cwd)},
	{STORE_TEXT, offsetof(struct stored_follow, host)},
	{STORE_TEXT, offsetof(struct stored_follow, boot_id)},
	{STORE_INT, offsetof(struct stored_follow, every)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow, alpha)},
	{STORE_INT, offsetof(struct stored_follow, permutations)},
	{STORE_INT64, offsetof(struct stored_follow, seed)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow, min_change_pct)},
	{STORE_INT64, offsetof(struct stored_follow, rig_pid)},
	{STORE_INT64, offsetof(struct stored_follow, rig_start_ticks)},
}};

static const struct store_row_shape follow_step_shape = {
	"SELECT seq, commit_hash, subject, config_path, coalesce(run_id, 0)"
	" FROM track_step WHERE follow_id = ?1 ORDER BY seq",
	"cannot read the follow's steps", sizeof(struct stored_follow_step), NULL, {
	{STORE_INT, offsetof(struct stored_follow_step, seq)},
	{STORE_TEXT, offsetof(struct stored_follow_step, commit_hash)},
	{STORE_TEXT, offsetof(struct stored_follow_step, subject)},
	{STORE_TEXT, offsetof(struct stored_follow_step, config_path)},
	{STORE_INT64, offsetof(struct stored_follow_step, run_id)},
}};

static const struct store_row_shape follow_change_shape = {
	"SELECT before_commit, after_commit, commits, mean_before, mean_after,"
	" change_pct, p, coalesce(bisection_id, 0), result, mailed_at, outcome, attempts"
	" FROM track_change WHERE follow_id = ?1 ORDER BY rowid",
	"cannot read the follow's changes", sizeof(struct stored_follow_change), NULL, {
	{STORE_TEXT, offsetof(struct stored_follow_change, before_commit)},
	{STORE_TEXT, offsetof(struct stored_follow_change, after_commit)},
	{STORE_INT, offsetof(struct stored_follow_change, commits)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, mean_before)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, mean_after)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, change_pct)},
	{STORE_REAL_OR_0, offsetof(struct stored_follow_change, p)},
	{STORE_INT64, offsetof(struct stored_follow_change, bisection_id)},
	{STORE_TEXT, offsetof(struct stored_follow_change, result)},
	{STORE_TEXT, offsetof(struct stored_follow_change, mailed_at)},
	{STORE_TEXT, offsetof(struct stored_follow_change, outcome)},
	{STORE_INT, offsetof(struct stored_follow_change, attempts)},
}};

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

int store_follow_change_outcome(struct store *st, int64_t id, const char *after_commit,
				const char *outcome, int attempts, char *err, size_t errsz)
{
	return store_write(st, "cannot record the outcome of a change's bisection", err, errsz,
			   "UPDATE track_change SET outcome = ?, attempts = ? WHERE"
			   " follow_id = ? AND after_commit = ?", "tiIt", outcome, attempts, id,
			   after_commit);
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
