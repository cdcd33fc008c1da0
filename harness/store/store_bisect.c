/* A bisection's rows in the results database (store_bisect.h). */
#include "store_bisect.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

/* A bisection row (store_bisect_get). */
static const struct store_row_shape bisection_shape = {
	"SELECT id, config_path, config_text, good, bad, kind, load, metric, op, cell, alpha, status,"
	" result, cwd, host, rig_pid, rig_start_ticks, boot_id, rule, min_effect_pct FROM bisection"
	" WHERE id = ?1 OR (?1 = 0 AND id = (SELECT max(id) FROM bisection))",
	"cannot read the bisection", sizeof(struct stored_bisection), NULL, {
	{STORE_INT64, offsetof(struct stored_bisection, id)},
	{STORE_TEXT, offsetof(struct stored_bisection, config_path)},
	{STORE_TEXT, offsetof(struct stored_bisection, config_text)},
	{STORE_TEXT, offsetof(struct stored_bisection, good)},
	{STORE_TEXT, offsetof(struct stored_bisection, bad)},
	{STORE_TEXT, offsetof(struct stored_bisection, kind)},
	{STORE_TEXT, offsetof(struct stored_bisection, load)},
	{STORE_TEXT, offsetof(struct stored_bisection, metric)},
	{STORE_TEXT, offsetof(struct stored_bisection, op)},
	{STORE_TEXT, offsetof(struct stored_bisection, cell)},
	{STORE_REAL, offsetof(struct stored_bisection, alpha)},
	{STORE_TEXT, offsetof(struct stored_bisection, status)},
	{STORE_TEXT, offsetof(struct stored_bisection, result)},
	{STORE_TEXT, offsetof(struct stored_bisection, cwd)},
	{STORE_TEXT, offsetof(struct stored_bisection, host)},
	{STORE_INT64, offsetof(struct stored_bisection, rig_pid)},
	{STORE_INT64, offsetof(struct stored_bisection, rig_start_ticks)},
	{STORE_TEXT, offsetof(struct stored_bisection, boot_id)},
	{STORE_TEXT, offsetof(struct stored_bisection, rule)},
	{STORE_REAL, offsetof(struct stored_bisection, min_effect_pct)},
}};

static const struct store_row_shape bisect_point_shape = {
	"SELECT k, verdict, reason, ifnull(decided_seq, 0), ifnull(n, 0),"
	" mean, ci95_half, p_good, p_bad, t_good, t_bad, ifnull(look, 0), alpha"
	" FROM bisect_point"
	" WHERE bisection_id = ?1 ORDER BY k",
	"cannot read the bisect points", sizeof(struct stored_bisect_point), NULL, {
	{STORE_INT, offsetof(struct stored_bisect_point, k)},
	{STORE_TEXT, offsetof(struct stored_bisect_point, verdict)},
	{STORE_TEXT, offsetof(struct stored_bisect_point, reason)},
	{STORE_INT, offsetof(struct stored_bisect_point, decided_seq)},
	{STORE_INT, offsetof(struct stored_bisect_point, n)},
	{STORE_REAL, offsetof(struct stored_bisect_point, mean)},
	{STORE_REAL, offsetof(struct stored_bisect_point, ci95_half)},
	{STORE_REAL, offsetof(struct stored_bisect_point, p_good)},
	{STORE_REAL, offsetof(struct stored_bisect_point, p_bad)},
	{STORE_REAL, offsetof(struct stored_bisect_point, t_good)},
	{STORE_REAL, offsetof(struct stored_bisect_point, t_bad)},
	{STORE_INT, offsetof(struct stored_bisect_point, look)},
	{STORE_REAL, offsetof(struct stored_bisect_point, alpha)},
}};

static const struct store_row_shape bisect_run_shape = {
	"SELECT k, attempt, config_path, ifnull(run_id, 0), ifnull(phase,"
	" 'walk') FROM bisect_run"
	" WHERE bisection_id = ?1 ORDER BY k, attempt",
	"cannot read the bisect runs", sizeof(struct stored_bisect_run), NULL, {
	{STORE_INT, offsetof(struct stored_bisect_run, k)},
	{STORE_INT, offsetof(struct stored_bisect_run, attempt)},
	{STORE_TEXT, offsetof(struct stored_bisect_run, config_path)},
	{STORE_INT64, offsetof(struct stored_bisect_run, run_id)},
	{STORE_TEXT, offsetof(struct stored_bisect_run, phase)},
}};

static const struct store_row_shape bisect_check_shape = {
	"SELECT seq, what, k_a, k_b, n_a, n_b, mean_a, mean_b, effect_pct, p,"
	" statistic, alpha, rounds, outcome FROM bisect_check WHERE"
	" bisection_id = ?1 ORDER BY seq",
	"cannot read the bisection's checks", sizeof(struct stored_bisect_check), NULL, {
	{STORE_INT, offsetof(struct stored_bisect_check, seq)},
	{STORE_TEXT, offsetof(struct stored_bisect_check, what)},
	{STORE_INT, offsetof(struct stored_bisect_check, k_a)},
	{STORE_INT, offsetof(struct stored_bisect_check, k_b)},
	{STORE_INT, offsetof(struct stored_bisect_check, n_a)},
	{STORE_INT, offsetof(struct stored_bisect_check, n_b)},
	{STORE_REAL, offsetof(struct stored_bisect_check, mean_a)},
	{STORE_REAL, offsetof(struct stored_bisect_check, mean_b)},
	{STORE_REAL, offsetof(struct stored_bisect_check, effect_pct)},
	{STORE_REAL, offsetof(struct stored_bisect_check, p)},
	{STORE_REAL, offsetof(struct stored_bisect_check, statistic)},
	{STORE_REAL, offsetof(struct stored_bisect_check, alpha)},
	{STORE_INT, offsetof(struct stored_bisect_check, rounds)},
	{STORE_TEXT, offsetof(struct stored_bisect_check, outcome)},
}};

static const struct store_row_shape bisect_step_shape = {
	"SELECT b.bisection_id, b.k, p.name, p.label, b.attempt, ifnull(b.phase,"
	" 'walk') FROM bisect_run b"
	" JOIN bisect_point p ON p.bisection_id = b.bisection_id AND p.k = b.k"
	" WHERE b.run_id = ?1 ORDER BY b.bisection_id, b.attempt",
	"cannot read the run's bisection steps", sizeof(struct stored_bisect_step), NULL, {
	{STORE_INT64, offsetof(struct stored_bisect_step, bisection_id)},
	{STORE_INT, offsetof(struct stored_bisect_step, k)},
	{STORE_TEXT, offsetof(struct stored_bisect_step, name)},
	{STORE_TEXT, offsetof(struct stored_bisect_step, label)},
	{STORE_INT, offsetof(struct stored_bisect_step, attempt)},
	{STORE_TEXT, offsetof(struct stored_bisect_step, phase)},
}};

void store_bisection_free(struct stored_bisection *bi)
{
	store_row_clear(&bisection_shape, bi);
}

/* The bisection row and its points, inside the caller's transaction. */
static int insert_bisection(struct store *st, struct stored_bisection *bi,
			    const struct bisect_series *s, char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(st, "INSERT INTO bisection (config_path, config_text, good, bad, kind,"
			     " alpha, status, started_at, cwd, host, rig_pid, rig_start_ticks, boot_id,"
			     " rule, min_effect_pct)"
			     " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)",
			     "tttttdtttIIttd", bi->config_path, bi->config_text, bi->good, bi->bad,
			     s->kind, bi->alpha, now, bi->cwd, bi->host, (int64_t)bi->rig_pid,
			     (int64_t)bi->rig_start_ticks, bi->boot_id, bi->rule, bi->min_effect_pct))
		return store_fail(st, "cannot record the bisection", err, errsz);
	bi->id = sqlite3_last_insert_rowid(store_db(st));
	for (size_t k = 0; k < s->n; k++)
		if (store_exec_bound(st, "INSERT INTO bisect_point (bisection_id, k, name, label,"
				     " config_text) VALUES (?, ?, ?, ?, ?)", "IIttt", bi->id,
				     (int64_t)k, s->p[k].name, s->p[k].label, s->p[k].config))
			return store_fail(st, "cannot record a bisect point", err, errsz);
	return 0;
}

int store_bisect_begin(struct store *st, struct stored_bisection *bi, const struct bisect_series *s,
		       char *err, size_t errsz)
{
	if (store_begin(st, err, errsz))
		return -1;
	if (insert_bisection(st, bi, s, err, errsz)) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err, errsz);
}

static int read_points(struct store *st, int64_t id, struct bisect_series *s, char *err,
		       size_t errsz)
{
	static const char what[] = "cannot read the bisect points";
	sqlite3_stmt *q = store_prepare_id(st, "SELECT name, label, config_text FROM bisect_point"
					   " WHERE bisection_id = ?1 ORDER BY k", id, what, err,
					   errsz);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		bisect_series_add(s, (const char *)sqlite3_column_text(q, 0),
				  (const char *)sqlite3_column_text(q, 1),
				  (const char *)sqlite3_column_text(q, 2));
	int ret = rc == SQLITE_DONE ? 0 : store_fail(st, what, err, errsz);
	sqlite3_finalize(q);
	return ret;
}

int store_bisect_get(struct store *st, int64_t id, struct stored_bisection *bi,
		     struct bisect_series *s, char *err, size_t errsz)
{
	int rc = store_row_get(st, &bisection_shape, id, bi, err, errsz);
	if (rc > 0 && id)
		snprintf(err, errsz, "no bisection %lld in the database", (long long)id);
	else if (rc > 0)
		snprintf(err, errsz, "no bisection in the database");
	if (rc)
		return -1;
	return s ? read_points(st, bi->id, s, err, errsz) : 0;
}

int store_bisect_unfinished(struct store *st, int64_t *id, char *err, size_t errsz)
{
	sqlite3_stmt *q;
	*id = 0;
	if (sqlite3_prepare_v2(store_db(st), "SELECT max(id) FROM bisection WHERE status NOT IN"
			       " ('complete', 'refused')", -1, &q, NULL) != SQLITE_OK)
		return store_fail(st, "cannot read the bisections", err, errsz);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "cannot read the bisections", err, errsz);
}

int store_bisect_claim(struct store *st, int64_t id, const char *host, const struct rig_id *rig,
		       char *err, size_t errsz)
{
	return store_job_claim(st, "bisection", id, host, rig, "cannot claim the bisection", err,
			       errsz);
}

int store_bisect_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz)
{
	return store_job_choice(st, "bisection", id, load, metric, op, cell,
				"cannot record the bisection's metric", err, errsz);
}

int store_bisect_min_effect(struct store *st, int64_t id, double pct, char *err, size_t errsz)
{
	return store_write(st, "cannot record the bisection's minimum effect", err, errsz,
			   "UPDATE bisection SET min_effect_pct = ? WHERE id = ?", "dI", pct, id);
}

int store_bisect_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz)
{
	return store_job_end(st, "bisection", id, status, result,
			     "cannot record the end of the bisection", err, errsz);
}

int store_bisect_points(struct store *st, int64_t id, struct stored_bisect_point **rows, size_t *n,
			char *err, size_t errsz)
{
	return store_rows(st, &bisect_point_shape, id, (void **)rows, n, err, errsz);
}

void store_bisect_point_rows_free(struct stored_bisect_point *rows, size_t n)
{
	store_rows_free(&bisect_point_shape, rows, n);
}

int store_bisect_verdict(struct store *st, int64_t id, const struct stored_bisect_point *r,
			 char *err, size_t errsz)
{
	return store_write(st, "cannot record a verdict", err, errsz,
			   "UPDATE bisect_point SET verdict = ?1, reason = ?2,"
			   " decided_seq = (SELECT ifnull(max(decided_seq), 0) + 1 FROM"
			   " bisect_point WHERE bisection_id = ?3), n = ?4, mean = ?5,"
			   " ci95_half = ?6, p_good = ?7, p_bad = ?8, t_good = ?9, t_bad = ?10,"
			   " look = ?12, alpha = ?13 WHERE bisection_id = ?3 AND k = ?11",
			   "ttIiddddddiid", r->verdict, r->reason, id, r->n, r->mean, r->ci95_half,
			   r->p_good, r->p_bad, r->t_good, r->t_bad, r->k, r->look, r->alpha);
}

int store_bisect_runs(struct store *st, int64_t id, int k, struct stored_bisect_run **rows,
		      size_t *n, char *err, size_t errsz)
{
	struct stored_bisect_run *all;
	size_t n_all;
	if (store_rows(st, &bisect_run_shape, id, (void **)&all, &n_all, err, errsz))
		return -1;
	/* Point k's rows to the front, the others released. */
	*n = 0;
	for (size_t i = 0; i < n_all; i++) {
		if (k < 0 || all[i].k == k)
			all[(*n)++] = all[i];
		else
			store_row_clear(&bisect_run_shape, &all[i]);
	}
	*rows = all;
	return 0;
}

void store_bisect_run_rows_free(struct stored_bisect_run *rows, size_t n)
{
	store_rows_free(&bisect_run_shape, rows, n);
}

int store_bisect_run_add(struct store *st, int64_t id, int k, int attempt, const char *phase,
			 const char *config_path, char *err, size_t errsz)
{
	return store_write(st, "cannot record a bisect run", err, errsz,
			   "INSERT INTO bisect_run (bisection_id, k, attempt, config_path,"
			   " phase) VALUES (?, ?, ?, ?, ?)", "Iiitt", id, k, attempt, config_path,
			   phase);
}

/* The newest run whose config_path is the attempt's (0: none). */
static int attempt_run(struct store *st, int64_t id, int k, int attempt, int64_t *run_id,
		       char *err, size_t errsz)
{
	static const char what[] = "cannot find the run of a bisect step";
	sqlite3_stmt *q = store_prepare_id(st, "SELECT ifnull((SELECT max(r.id) FROM run r"
					   " JOIN bisect_run b ON r.config_path = b.config_path"
					   " WHERE b.bisection_id = ?1 AND b.k = ?2 AND"
					   " b.attempt = ?3), 0)", id, what, err, errsz);
	if (!q)
		return -1;
	sqlite3_bind_int(q, 2, k);
	sqlite3_bind_int(q, 3, attempt);
	int rc = sqlite3_step(q);
	*run_id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : store_fail(st, what, err, errsz);
}

int store_bisect_run_link(struct store *st, int64_t id, int k, int attempt, int64_t *run_id,
			  char *err, size_t errsz)
{
	if (attempt_run(st, id, k, attempt, run_id, err, errsz))
		return -1;
	if (*run_id && store_exec_bound(st, "UPDATE bisect_run SET run_id = ? WHERE"
					" bisection_id = ? AND k = ? AND attempt = ?", "IIii",
					*run_id, id, k, attempt))
		return store_fail(st, "cannot link a bisect run", err, errsz);
	return 0;
}

int store_bisect_check_add(struct store *st, int64_t id, const struct stored_bisect_check *c,
			   char *err, size_t errsz)
{
	return store_write(st, "cannot record a bisection check", err, errsz,
			   "INSERT INTO bisect_check (bisection_id, seq, what, k_a, k_b, n_a,"
			   " n_b, mean_a, mean_b, effect_pct, p, statistic, alpha, rounds, outcome)"
			   " VALUES (?1, (SELECT ifnull(max(seq), 0) + 1 FROM bisect_check WHERE"
			   " bisection_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
			   " ?13, ?14)", "Itiiiiddddddit", id, c->what, c->k_a, c->k_b, c->n_a,
			   c->n_b, c->mean_a, c->mean_b, c->effect_pct, c->p, c->statistic,
			   c->alpha, c->rounds, c->outcome);
}

int store_bisect_checks(struct store *st, int64_t id, struct stored_bisect_check **rows,
			size_t *n, char *err, size_t errsz)
{
	return store_rows(st, &bisect_check_shape, id, (void **)rows, n, err, errsz);
}

void store_bisect_check_rows_free(struct stored_bisect_check *rows, size_t n)
{
	store_rows_free(&bisect_check_shape, rows, n);
}

int store_bisect_steps_of_run(struct store *st, int64_t run_id, struct stored_bisect_step **rows,
			      size_t *n, char *err, size_t errsz)
{
	return store_rows(st, &bisect_step_shape, run_id, (void **)rows, n, err, errsz);
}

void store_bisect_step_rows_free(struct stored_bisect_step *rows, size_t n)
{
	store_rows_free(&bisect_step_shape, rows, n);
}
