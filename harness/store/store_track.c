/* schedrig track's rows (store_track.h). */
#include "store_track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

static void read_track_run(sqlite3_stmt *st, struct stored_track_run *r)
{
	int kind = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1
			: revision_kind_parse(store_col_text(st, 6));
	*r = (struct stored_track_run){
		.run_id = sqlite3_column_int64(st, 0), .config = store_col_strdup(st, 1),
		.started_at = store_col_strdup(st, 2), .status = store_col_strdup(st, 3),
		.variant_id = sqlite3_column_int64(st, 4), .variant = store_col_strdup(st, 5),
		.has_revision = kind >= 0, .kind = kind >= 0 ? (enum revision_kind)kind : 0,
	};
	if (r->has_revision) {
		r->revision = store_col_strdup(st, 7);
		r->commit_hash = store_col_strdup(st, 8);
		r->source = store_col_strdup(st, 9);
	}
}

int store_track_runs(struct store *s, const char *config, struct stored_track_run **rows,
		     size_t *n, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	*rows = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(store_db(s),
			       "SELECT r.id, r.name, r.started_at, r.status, v.id, v.name, k.kind,"
			       " k.revision, k.commit_hash, k.source FROM run r"
			       " JOIN variant v ON v.run_id = r.id"
			       " LEFT JOIN kernel_revision k ON k.run_id = r.id AND k.variant = v.name"
			       " WHERE ?1 IS NULL OR r.name = ?1 ORDER BY r.id, v.seq, v.id",
			       -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read the runs of a history", err, errsz);
	sqlite3_bind_text(st, 1, config, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap)
			*rows = xrealloc(*rows, (cap = cap ? 2 * cap : 16) * sizeof(**rows));
		read_track_run(st, &(*rows)[(*n)++]);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	store_track_runs_free(*rows, *n);
	*rows = NULL;
	*n = 0;
	return store_fail(s, "cannot read the runs of a history", err, errsz);
}

void store_track_runs_free(struct stored_track_run *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct stored_track_run *r = &rows[i];
		free(r->config);
		free(r->started_at);
		free(r->status);
		free(r->variant);
		free(r->revision);
		free(r->commit_hash);
		free(r->source);
	}
	free(rows);
}

void store_follow_free(struct stored_follow *f)
{
	char *s[] = {f->config_path, f->config_text, f->tree, f->branch, f->build, f->since,
		     f->load, f->metric, f->op, f->cell, f->mail, f->status, f->result, f->cwd,
		     f->host, f->boot_id};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		free(s[i]);
	*f = (struct stored_follow){0};
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

static void read_follow(sqlite3_stmt *q, struct stored_follow *f)
{
	char **text[] = {&f->config_path, &f->config_text, &f->tree, &f->branch, &f->build,
			 &f->since, &f->load, &f->metric, &f->op, &f->cell, &f->mail, &f->status,
			 &f->result, &f->cwd, &f->host, &f->boot_id};
	f->id = sqlite3_column_int64(q, 0);
	for (int k = 0; k < 16; k++)
		*text[k] = store_col_strdup(q, k + 1);
	f->every = sqlite3_column_int(q, 17);
	f->alpha = sqlite3_column_double(q, 18);
	f->permutations = sqlite3_column_int(q, 19);
	f->seed = sqlite3_column_int64(q, 20);
	f->min_change_pct = sqlite3_column_double(q, 21);
	f->rig_pid = sqlite3_column_int64(q, 22);
	f->rig_start_ticks = sqlite3_column_int64(q, 23);
}

int store_follow_get(struct store *st, int64_t id, struct stored_follow *f, char *err,
		     size_t errsz)
{
	sqlite3_stmt *q = store_prepare_id(st,
		"SELECT id, config_path, config_text, tree, branch, build, since, load, metric, op,"
		" cell, mail, status, result, cwd, host, boot_id, every, alpha, permutations, seed,"
		" min_change_pct, rig_pid, rig_start_ticks FROM track_follow"
		" WHERE id = ?1 OR ?1 = 0 ORDER BY id DESC LIMIT 1", id, "cannot read the follow", err,
		errsz);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	*f = (struct stored_follow){0};
	if (rc == SQLITE_ROW)
		read_follow(q, f);
	else if (rc == SQLITE_DONE && id)
		snprintf(err, errsz, "no follow %lld in the results database", (long long)id);
	else if (rc == SQLITE_DONE)
		snprintf(err, errsz, "the results database holds no follow yet");
	else
		store_fail(st, "cannot read the follow", err, errsz);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : -1;
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
	if (store_exec_bound(st, "UPDATE track_follow SET status = 'running', result = NULL,"
			     " ended_at = NULL, host = ?, rig_pid = ?, rig_start_ticks = ?,"
			     " boot_id = ? WHERE id = ?", "tIItI", host, (int64_t)rig->pid,
			     (int64_t)rig->start_ticks, rig->boot_id, id))
		return store_fail(st, "cannot claim the follow", err, errsz);
	return 0;
}

int store_follow_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz)
{
	if (store_exec_bound(st, "UPDATE track_follow SET load = ?, metric = ?, op = ?, cell = ?"
			     " WHERE id = ?", "ttttI", load, metric, op, cell, id))
		return store_fail(st, "cannot record the follow's metric", err, errsz);
	return 0;
}

int store_follow_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(st, "UPDATE track_follow SET status = ?, result = ?, ended_at = ?"
			     " WHERE id = ?", "tttI", status, result, now, id))
		return store_fail(st, "cannot record the end of the follow", err, errsz);
	return 0;
}

static void read_step(sqlite3_stmt *q, void *row)
{
	*(struct stored_follow_step *)row = (struct stored_follow_step){
		sqlite3_column_int(q, 0), store_col_strdup(q, 1), store_col_strdup(q, 2),
		store_col_strdup(q, 3), sqlite3_column_int64(q, 4)};
}

static void clear_step(void *row)
{
	struct stored_follow_step *s = row;
	free(s->commit_hash);
	free(s->subject);
	free(s->config_path);
}

int store_follow_steps(struct store *st, int64_t id, struct stored_follow_step **rows, size_t *n,
		       char *err, size_t errsz)
{
	return store_rows(st, "SELECT seq, commit_hash, subject, config_path, coalesce(run_id, 0)"
			  " FROM track_step WHERE follow_id = ?1 ORDER BY seq", id, sizeof(**rows),
			  (void **)rows, n, read_step, clear_step, "cannot read the follow's steps",
			  err, errsz);
}

void store_follow_steps_free(struct stored_follow_step *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_step);
}

int store_follow_step_add(struct store *st, int64_t id, int seq, const char *commit_hash,
			  const char *subject, const char *config_path, char *err, size_t errsz)
{
	if (store_exec_bound(st, "INSERT INTO track_step (follow_id, seq, commit_hash, subject,"
			     " config_path) VALUES (?, ?, ?, ?, ?)", "Iittt", id, seq, commit_hash,
			     subject, config_path))
		return store_fail(st, "cannot record a step of the follow", err, errsz);
	return 0;
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

static void read_change(sqlite3_stmt *q, void *row)
{
	*(struct stored_follow_change *)row = (struct stored_follow_change){
		store_col_strdup(q, 0), store_col_strdup(q, 1), sqlite3_column_int(q, 2),
		sqlite3_column_double(q, 3), sqlite3_column_double(q, 4),
		sqlite3_column_double(q, 5), sqlite3_column_double(q, 6),
		sqlite3_column_int64(q, 7), store_col_strdup(q, 8), store_col_strdup(q, 9),
		store_col_strdup(q, 10), sqlite3_column_int(q, 11)};
}

static void clear_change(void *row)
{
	struct stored_follow_change *c = row;
	free(c->before_commit);
	free(c->after_commit);
	free(c->result);
	free(c->mailed_at);
	free(c->outcome);
}

int store_follow_changes(struct store *st, int64_t id, struct stored_follow_change **rows,
			 size_t *n, char *err, size_t errsz)
{
	return store_rows(st, "SELECT before_commit, after_commit, commits, mean_before, mean_after,"
			  " change_pct, p, coalesce(bisection_id, 0), result, mailed_at,"
			  " outcome, attempts FROM track_change WHERE follow_id = ?1 ORDER BY rowid", id,
			  sizeof(**rows), (void **)rows, n, read_change, clear_change,
			  "cannot read the follow's changes", err, errsz);
}

void store_follow_changes_free(struct stored_follow_change *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_change);
}

void store_follow_change_clear(struct stored_follow_change *c)
{
	clear_change(c);
}

int store_follow_change_add(struct store *st, int64_t id, const struct stored_follow_change *c,
			    char *err, size_t errsz)
{
	if (store_exec_bound(st, "INSERT INTO track_change (follow_id, before_commit, after_commit,"
			     " commits, mean_before, mean_after, change_pct, p) VALUES (?, ?, ?, ?, ?,"
			     " ?, ?, ?)", "Ittidddd", id, c->before_commit, c->after_commit,
			     c->commits, c->mean_before, c->mean_after, c->change_pct, c->p))
		return store_fail(st, "cannot record a change of the follow", err, errsz);
	return 0;
}

int store_follow_change_update(struct store *st, int64_t id, const char *after_commit,
			       int64_t bisection_id, const char *result, bool mailed, char *err,
			       size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(st, "UPDATE track_change SET bisection_id = nullif(?, 0),"
			     " result = coalesce(?, result), mailed_at = CASE WHEN ? THEN ? ELSE"
			     " mailed_at END WHERE follow_id = ? AND after_commit = ?", "ItitIt",
			     bisection_id, result, (int)mailed, now, id, after_commit))
		return store_fail(st, "cannot record what the follow did about a change", err, errsz);
	return 0;
}

int store_follow_change_outcome(struct store *st, int64_t id, const char *after_commit,
				const char *outcome, int attempts, char *err, size_t errsz)
{
	if (store_exec_bound(st, "UPDATE track_change SET outcome = ?, attempts = ? WHERE"
			     " follow_id = ? AND after_commit = ?", "tiIt", outcome, attempts, id,
			     after_commit))
		return store_fail(st, "cannot record the outcome of a change's bisection", err,
				  errsz);
	return 0;
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
