/* A bisection's rows in the results database (store_bisect.h). */
#include "store_bisect.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

void store_bisection_free(struct stored_bisection *bi)
{
	free(bi->config_path);
	free(bi->config_text);
	free(bi->good);
	free(bi->bad);
	free(bi->kind);
	free(bi->load);
	free(bi->metric);
	free(bi->op);
	free(bi->cell);
	free(bi->status);
	free(bi->result);
	free(bi->cwd);
	free(bi->host);
	free(bi->boot_id);
	free(bi->rule);
	memset(bi, 0, sizeof(*bi));
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

static void read_bisection(sqlite3_stmt *q, struct stored_bisection *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->id = sqlite3_column_int64(q, 0);
	bi->config_path = store_col_strdup(q, 1);
	bi->config_text = store_col_strdup(q, 2);
	bi->good = store_col_strdup(q, 3);
	bi->bad = store_col_strdup(q, 4);
	bi->kind = store_col_strdup(q, 5);
	bi->load = store_col_strdup(q, 6);
	bi->metric = store_col_strdup(q, 7);
	bi->op = store_col_strdup(q, 8);
	bi->cell = store_col_strdup(q, 9);
	bi->alpha = store_col_real(q, 10);
	bi->status = store_col_strdup(q, 11);
	bi->result = store_col_strdup(q, 12);
	bi->cwd = store_col_strdup(q, 13);
	bi->host = store_col_strdup(q, 14);
	bi->rig_pid = sqlite3_column_int64(q, 15);
	bi->rig_start_ticks = sqlite3_column_int64(q, 16);
	bi->boot_id = store_col_strdup(q, 17);
	bi->rule = store_col_strdup(q, 18);
	bi->min_effect_pct = store_col_real(q, 19);
}

int store_bisect_get(struct store *st, int64_t id, struct stored_bisection *bi,
		     struct bisect_series *s, char *err, size_t errsz)
{
	static const char what[] = "cannot read the bisection";
	sqlite3_stmt *q = store_prepare_id(st, "SELECT id, config_path, config_text, good, bad,"
					   " kind, load, metric, op, cell, alpha, status, result,"
					   " cwd, host, rig_pid, rig_start_ticks, boot_id, rule,"
					   " min_effect_pct FROM bisection WHERE id = ?1 OR (?1 = 0 AND id ="
					   " (SELECT max(id) FROM bisection))", id, what, err, errsz);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		read_bisection(q, bi);
	else if (rc != SQLITE_DONE)
		store_fail(st, what, err, errsz);
	else if (id)
		snprintf(err, errsz, "no bisection %lld in the database", (long long)id);
	else
		snprintf(err, errsz, "no bisection in the database");
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW)
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
	if (store_exec_bound(st, "UPDATE bisection SET status = 'running', result = NULL,"
			     " ended_at = NULL, host = ?, rig_pid = ?, rig_start_ticks = ?,"
			     " boot_id = ? WHERE id = ?", "tIItI", host, (int64_t)rig->pid,
			     (int64_t)rig->start_ticks, rig->boot_id, id))
		return store_fail(st, "cannot claim the bisection", err, errsz);
	return 0;
}

int store_bisect_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz)
{
	if (store_exec_bound(st, "UPDATE bisection SET load = ?, metric = ?, op = ?, cell = ?"
			     " WHERE id = ?", "ttttI", load, metric, op, cell, id))
		return store_fail(st, "cannot record the bisection's metric", err, errsz);
	return 0;
}

int store_bisect_min_effect(struct store *st, int64_t id, double pct, char *err, size_t errsz)
{
	if (store_exec_bound(st, "UPDATE bisection SET min_effect_pct = ? WHERE id = ?", "dI", pct,
			     id))
		return store_fail(st, "cannot record the bisection's minimum effect", err, errsz);
	return 0;
}

int store_bisect_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(st, "UPDATE bisection SET status = ?, result = ?, ended_at = ?"
			     " WHERE id = ?", "tttI", status, result, now, id))
		return store_fail(st, "cannot record the end of the bisection", err, errsz);
	return 0;
}

static void read_point(sqlite3_stmt *q, void *row)
{
	*(struct stored_bisect_point *)row = (struct stored_bisect_point){
		.k = sqlite3_column_int(q, 0), .verdict = store_col_strdup(q, 1),
		.reason = store_col_strdup(q, 2), .decided_seq = sqlite3_column_int(q, 3),
		.n = sqlite3_column_int(q, 4), .mean = store_col_real(q, 5),
		.ci95_half = store_col_real(q, 6), .p_good = store_col_real(q, 7),
		.p_bad = store_col_real(q, 8), .t_good = store_col_real(q, 9),
		.t_bad = store_col_real(q, 10), .look = sqlite3_column_int(q, 11),
		.alpha = store_col_real(q, 12),
	};
}

static void clear_point(void *row)
{
	struct stored_bisect_point *r = row;
	free(r->verdict);
	free(r->reason);
}

int store_bisect_points(struct store *st, int64_t id, struct stored_bisect_point **rows, size_t *n,
			char *err, size_t errsz)
{
	return store_rows(st, "SELECT k, verdict, reason, ifnull(decided_seq, 0), ifnull(n, 0),"
			  " mean, ci95_half, p_good, p_bad, t_good, t_bad, ifnull(look, 0), alpha"
			  " FROM bisect_point"
			  " WHERE bisection_id = ?1 ORDER BY k",
			  id, sizeof(**rows), (void **)rows, n, read_point, clear_point,
			  "cannot read the bisect points", err, errsz);
}

void store_bisect_point_rows_free(struct stored_bisect_point *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_point);
}

int store_bisect_verdict(struct store *st, int64_t id, const struct stored_bisect_point *r,
			 char *err, size_t errsz)
{
	if (store_exec_bound(st, "UPDATE bisect_point SET verdict = ?1, reason = ?2,"
			     " decided_seq = (SELECT ifnull(max(decided_seq), 0) + 1 FROM"
			     " bisect_point WHERE bisection_id = ?3), n = ?4, mean = ?5,"
			     " ci95_half = ?6, p_good = ?7, p_bad = ?8, t_good = ?9, t_bad = ?10,"
			     " look = ?12, alpha = ?13 WHERE bisection_id = ?3 AND k = ?11",
			     "ttIiddddddiid", r->verdict, r->reason, id, r->n, r->mean, r->ci95_half,
			     r->p_good, r->p_bad, r->t_good, r->t_bad, r->k, r->look, r->alpha))
		return store_fail(st, "cannot record a verdict", err, errsz);
	return 0;
}

static void read_run(sqlite3_stmt *q, void *row)
{
	*(struct stored_bisect_run *)row = (struct stored_bisect_run){
		.k = sqlite3_column_int(q, 0), .attempt = sqlite3_column_int(q, 1),
		.config_path = store_col_strdup(q, 2), .run_id = sqlite3_column_int64(q, 3),
		.phase = store_col_strdup(q, 4),
	};
}

static void clear_run(void *row)
{
	free(((struct stored_bisect_run *)row)->config_path);
	free(((struct stored_bisect_run *)row)->phase);
}

int store_bisect_runs(struct store *st, int64_t id, int k, struct stored_bisect_run **rows,
		      size_t *n, char *err, size_t errsz)
{
	struct stored_bisect_run *all;
	size_t n_all;
	if (store_rows(st, "SELECT k, attempt, config_path, ifnull(run_id, 0), ifnull(phase,"
		       " 'walk') FROM bisect_run"
		       " WHERE bisection_id = ?1 ORDER BY k, attempt",
		       id, sizeof(*all), (void **)&all, &n_all, read_run, clear_run,
		       "cannot read the bisect runs", err, errsz))
		return -1;
	/* Point k's rows to the front, the others released. */
	*n = 0;
	for (size_t i = 0; i < n_all; i++) {
		if (k < 0 || all[i].k == k)
			all[(*n)++] = all[i];
		else
			clear_run(&all[i]);
	}
	*rows = all;
	return 0;
}

void store_bisect_run_rows_free(struct stored_bisect_run *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_run);
}

int store_bisect_run_add(struct store *st, int64_t id, int k, int attempt, const char *phase,
			 const char *config_path, char *err, size_t errsz)
{
	if (store_exec_bound(st, "INSERT INTO bisect_run (bisection_id, k, attempt, config_path,"
			     " phase) VALUES (?, ?, ?, ?, ?)", "Iiitt", id, k, attempt, config_path,
			     phase))
		return store_fail(st, "cannot record a bisect run", err, errsz);
	return 0;
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
	if (store_exec_bound(st, "INSERT INTO bisect_check (bisection_id, seq, what, k_a, k_b, n_a,"
			     " n_b, mean_a, mean_b, effect_pct, p, statistic, alpha, rounds, outcome)"
			     " VALUES (?1, (SELECT ifnull(max(seq), 0) + 1 FROM bisect_check WHERE"
			     " bisection_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
			     " ?13, ?14)", "Itiiiiddddddit", id, c->what, c->k_a, c->k_b, c->n_a,
			     c->n_b, c->mean_a, c->mean_b, c->effect_pct, c->p, c->statistic,
			     c->alpha, c->rounds, c->outcome))
		return store_fail(st, "cannot record a bisection check", err, errsz);
	return 0;
}

static void read_check(sqlite3_stmt *q, void *row)
{
	*(struct stored_bisect_check *)row = (struct stored_bisect_check){
		.seq = sqlite3_column_int(q, 0), .what = store_col_strdup(q, 1),
		.k_a = sqlite3_column_int(q, 2), .k_b = sqlite3_column_int(q, 3),
		.n_a = sqlite3_column_int(q, 4), .n_b = sqlite3_column_int(q, 5),
		.mean_a = store_col_real(q, 6), .mean_b = store_col_real(q, 7),
		.effect_pct = store_col_real(q, 8), .p = store_col_real(q, 9),
		.statistic = store_col_real(q, 10), .alpha = store_col_real(q, 11),
		.rounds = sqlite3_column_int(q, 12), .outcome = store_col_strdup(q, 13),
	};
}

static void clear_check(void *row)
{
	struct stored_bisect_check *c = row;
	free(c->what);
	free(c->outcome);
}

int store_bisect_checks(struct store *st, int64_t id, struct stored_bisect_check **rows,
			size_t *n, char *err, size_t errsz)
{
	return store_rows(st, "SELECT seq, what, k_a, k_b, n_a, n_b, mean_a, mean_b, effect_pct, p,"
			  " statistic, alpha, rounds, outcome FROM bisect_check WHERE"
			  " bisection_id = ?1 ORDER BY seq", id, sizeof(**rows), (void **)rows, n,
			  read_check, clear_check, "cannot read the bisection's checks", err, errsz);
}

void store_bisect_check_rows_free(struct stored_bisect_check *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_check);
}

static void read_step(sqlite3_stmt *q, void *row)
{
	struct stored_bisect_step *r = row;
	r->bisection_id = sqlite3_column_int64(q, 0);
	r->k = sqlite3_column_int(q, 1);
	r->name = store_col_strdup(q, 2);
	r->label = store_col_strdup(q, 3);
	r->attempt = sqlite3_column_int(q, 4);
	r->phase = store_col_strdup(q, 5);
}

static void clear_step(void *row)
{
	struct stored_bisect_step *r = row;
	free(r->name);
	free(r->label);
	free(r->phase);
}

int store_bisect_steps_of_run(struct store *st, int64_t run_id, struct stored_bisect_step **rows,
			      size_t *n, char *err, size_t errsz)
{
	return store_rows(st,
			  "SELECT b.bisection_id, b.k, p.name, p.label, b.attempt, ifnull(b.phase,"
			  " 'walk') FROM bisect_run b"
			  " JOIN bisect_point p ON p.bisection_id = b.bisection_id AND p.k = b.k"
			  " WHERE b.run_id = ?1 ORDER BY b.bisection_id, b.attempt",
			  run_id, sizeof(**rows), (void **)rows, n, read_step, clear_step,
			  "cannot read the run's bisection steps", err, errsz);
}

void store_bisect_step_rows_free(struct stored_bisect_step *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_step);
}
