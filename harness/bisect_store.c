#include "bisect_store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

static int fail(struct store *st, char *err, size_t errsz, const char *what)
{
	snprintf(err, errsz, "%s: %s", what, sqlite3_errmsg(store_db(st)));
	return -1;
}

/* Prepare sql and bind its parameters from types: 't' a string (NULL
 * binds NULL), 'i' an int64_t, 'd' a double (NaN binds NULL). NULL on a
 * prepare error. */
static sqlite3_stmt *prepare(struct store *st, const char *sql, const char *types, ...)
{
	sqlite3_stmt *s;
	va_list ap;
	if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK)
		return NULL;
	va_start(ap, types);
	for (int i = 0; types[i]; i++) {
		if (types[i] == 't') {
			const char *v = va_arg(ap, const char *);
			sqlite3_bind_text(s, i + 1, v, -1, SQLITE_TRANSIENT);
		} else if (types[i] == 'i') {
			sqlite3_bind_int64(s, i + 1, va_arg(ap, int64_t));
		} else {
			double d = va_arg(ap, double);
			if (isnan(d))
				sqlite3_bind_null(s, i + 1);
			else
				sqlite3_bind_double(s, i + 1, d);
		}
	}
	va_end(ap);
	return s;
}

/* Step a prepared statement that returns no rows; finalize it. */
static int done(struct store *st, sqlite3_stmt *s, char *err, size_t errsz, const char *what)
{
	if (!s)
		return fail(st, err, errsz, what);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : fail(st, err, errsz, what);
}

static char *col_dup(sqlite3_stmt *s, int c)
{
	const unsigned char *t = sqlite3_column_text(s, c);
	return t ? xstrdup((const char *)t) : NULL;
}

static double col_double(sqlite3_stmt *s, int c)
{
	return sqlite3_column_type(s, c) == SQLITE_NULL ? NAN : sqlite3_column_double(s, c);
}

void bisection_info_free(struct bisection_info *bi)
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
	memset(bi, 0, sizeof(*bi));
}

int bisect_store_begin(struct store *st, struct bisection_info *bi, const struct bisect_series *s,
		       char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	if (sqlite3_exec(store_db(st), "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return fail(st, err, errsz, "cannot start a transaction");
	sqlite3_stmt *q = prepare(st, "INSERT INTO bisection (config_path, config_text, good, bad,"
				  " kind, alpha, status, started_at) VALUES (?, ?, ?, ?, ?, ?,"
				  " 'running', ?)", "tttttdt", bi->config_path, bi->config_text,
				  bi->good, bi->bad, s->kind, bi->alpha, now);
	int rc = done(st, q, err, errsz, "cannot record the bisection");
	bi->id = sqlite3_last_insert_rowid(store_db(st));
	for (size_t k = 0; rc == 0 && k < s->n; k++) {
		q = prepare(st, "INSERT INTO bisect_point (bisection_id, k, name, label, config_text)"
			    " VALUES (?, ?, ?, ?, ?)", "iittt", bi->id, (int64_t)k, s->p[k].name,
			    s->p[k].label, s->p[k].config);
		rc = done(st, q, err, errsz, "cannot record a bisect point");
	}
	if (rc == 0 && sqlite3_exec(store_db(st), "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = fail(st, err, errsz, "cannot commit the bisection");
	if (rc)
		sqlite3_exec(store_db(st), "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int read_points(struct store *st, int64_t id, struct bisect_series *s, char *err,
		       size_t errsz)
{
	sqlite3_stmt *q = prepare(st, "SELECT name, label, config_text FROM bisect_point"
				  " WHERE bisection_id = ? ORDER BY k", "i", id);
	if (!q)
		return fail(st, err, errsz, "cannot read the bisect points");
	while (sqlite3_step(q) == SQLITE_ROW)
		bisect_series_add(s, (const char *)sqlite3_column_text(q, 0),
				  (const char *)sqlite3_column_text(q, 1),
				  (const char *)sqlite3_column_text(q, 2));
	sqlite3_finalize(q);
	return 0;
}

int bisect_store_get(struct store *st, int64_t id, struct bisection_info *bi,
		     struct bisect_series *s, char *err, size_t errsz)
{
	sqlite3_stmt *q = prepare(st, "SELECT id, config_path, config_text, good, bad, kind, load,"
				  " metric, op, cell, alpha, status, result FROM bisection"
				  " WHERE id = ? OR (? = 0 AND id = (SELECT max(id) FROM bisection))",
				  "ii", id, id);
	if (!q)
		return fail(st, err, errsz, "cannot read the bisection");
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		if (id)
			snprintf(err, errsz, "no bisection %lld in the database", (long long)id);
		else
			snprintf(err, errsz, "no bisection in the database");
		return -1;
	}
	memset(bi, 0, sizeof(*bi));
	bi->id = sqlite3_column_int64(q, 0);
	bi->config_path = col_dup(q, 1);
	bi->config_text = col_dup(q, 2);
	bi->good = col_dup(q, 3);
	bi->bad = col_dup(q, 4);
	bi->kind = col_dup(q, 5);
	bi->load = col_dup(q, 6);
	bi->metric = col_dup(q, 7);
	bi->op = col_dup(q, 8);
	bi->cell = col_dup(q, 9);
	bi->alpha = sqlite3_column_double(q, 10);
	bi->status = col_dup(q, 11);
	bi->result = col_dup(q, 12);
	sqlite3_finalize(q);
	return s ? read_points(st, bi->id, s, err, errsz) : 0;
}

int bisect_store_choice(struct store *st, int64_t id, const char *load, const char *metric,
			const char *op, const char *cell, char *err, size_t errsz)
{
	return done(st, prepare(st, "UPDATE bisection SET load = ?, metric = ?, op = ?, cell = ?"
				" WHERE id = ?", "tttti", load, metric, op, cell, id),
		    err, errsz, "cannot record the bisection's metric");
}

int bisect_store_end(struct store *st, int64_t id, const char *status, const char *result,
		     char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	return done(st, prepare(st, "UPDATE bisection SET status = ?, result = ?, ended_at = ?"
				" WHERE id = ?", "ttti", status, result, now, id),
		    err, errsz, "cannot record the end of the bisection");
}

int bisect_store_points(struct store *st, int64_t id, struct bisect_point_row **rows, size_t *n,
			char *err, size_t errsz)
{
	sqlite3_stmt *q = prepare(st, "SELECT k, verdict, reason, ifnull(decided_seq, 0),"
				  " ifnull(n, 0), mean, ci95_half, p_good, p_bad, t_good, t_bad"
				  " FROM bisect_point WHERE bisection_id = ? ORDER BY k", "i", id);
	if (!q)
		return fail(st, err, errsz, "cannot read the bisect points");
	*rows = NULL;
	*n = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
		(*rows)[(*n)++] = (struct bisect_point_row){
			.k = sqlite3_column_int(q, 0), .verdict = col_dup(q, 1),
			.reason = col_dup(q, 2), .decided_seq = sqlite3_column_int(q, 3),
			.n = sqlite3_column_int(q, 4), .mean = col_double(q, 5),
			.ci95_half = col_double(q, 6), .p_good = col_double(q, 7),
			.p_bad = col_double(q, 8), .t_good = col_double(q, 9),
			.t_bad = col_double(q, 10),
		};
	}
	sqlite3_finalize(q);
	return 0;
}

void bisect_point_rows_free(struct bisect_point_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].verdict);
		free(rows[i].reason);
	}
	free(rows);
}

int bisect_store_verdict(struct store *st, int64_t id, const struct bisect_point_row *r,
			 char *err, size_t errsz)
{
	return done(st, prepare(st, "UPDATE bisect_point SET verdict = ?1, reason = ?2,"
				" decided_seq = (SELECT ifnull(max(decided_seq), 0) + 1 FROM"
				" bisect_point WHERE bisection_id = ?3), n = ?4, mean = ?5,"
				" ci95_half = ?6, p_good = ?7, p_bad = ?8, t_good = ?9, t_bad = ?10"
				" WHERE bisection_id = ?3 AND k = ?11",
				"ttiiddddddi", r->verdict, r->reason, id, (int64_t)r->n, r->mean,
				r->ci95_half, r->p_good, r->p_bad, r->t_good, r->t_bad,
				(int64_t)r->k),
		    err, errsz, "cannot record a verdict");
}

int bisect_store_runs(struct store *st, int64_t id, int k, struct bisect_run_row **rows,
		      size_t *n, char *err, size_t errsz)
{
	sqlite3_stmt *q = prepare(st, "SELECT attempt, config_path, ifnull(run_id, 0) FROM"
				  " bisect_run WHERE bisection_id = ? AND k = ? ORDER BY attempt",
				  "ii", id, (int64_t)k);
	if (!q)
		return fail(st, err, errsz, "cannot read the bisect runs");
	*rows = NULL;
	*n = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
		(*rows)[(*n)++] = (struct bisect_run_row){sqlite3_column_int(q, 0), col_dup(q, 1),
							  sqlite3_column_int64(q, 2)};
	}
	sqlite3_finalize(q);
	return 0;
}

void bisect_run_rows_free(struct bisect_run_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].config_path);
	free(rows);
}

int bisect_store_run_add(struct store *st, int64_t id, int k, int attempt,
			 const char *config_path, char *err, size_t errsz)
{
	return done(st, prepare(st, "INSERT INTO bisect_run (bisection_id, k, attempt, config_path)"
				" VALUES (?, ?, ?, ?)", "iiit", id, (int64_t)k, (int64_t)attempt,
				config_path),
		    err, errsz, "cannot record a bisect run");
}

int bisect_store_run_link(struct store *st, int64_t id, int k, int attempt, int64_t *run_id,
			  char *err, size_t errsz)
{
	sqlite3_stmt *q = prepare(st, "SELECT ifnull((SELECT max(r.id) FROM run r JOIN bisect_run b"
				  " ON r.config_path = b.config_path WHERE b.bisection_id = ? AND"
				  " b.k = ? AND b.attempt = ?), 0)", "iii", id, (int64_t)k,
				  (int64_t)attempt);
	if (!q || sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		return fail(st, err, errsz, "cannot find the run of a bisect step");
	}
	*run_id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (!*run_id)
		return 0;
	return done(st, prepare(st, "UPDATE bisect_run SET run_id = ? WHERE bisection_id = ? AND"
				" k = ? AND attempt = ?", "iiii", *run_id, id, (int64_t)k,
				(int64_t)attempt),
		    err, errsz, "cannot link a bisect run");
}

static void read_step(sqlite3_stmt *q, void *row)
{
	struct bisect_step_of_run *r = row;
	r->bisection_id = sqlite3_column_int64(q, 0);
	r->k = sqlite3_column_int(q, 1);
	r->name = store_col_strdup(q, 2);
	r->label = store_col_strdup(q, 3);
	r->attempt = sqlite3_column_int(q, 4);
}

static void clear_step(void *row)
{
	struct bisect_step_of_run *r = row;
	free(r->name);
	free(r->label);
}

int bisect_store_steps_of_run(struct store *st, int64_t run_id, struct bisect_step_of_run **rows,
			      size_t *n, char *err, size_t errsz)
{
	return store_rows(st,
			  "SELECT b.bisection_id, b.k, p.name, p.label, b.attempt FROM bisect_run b"
			  " JOIN bisect_point p ON p.bisection_id = b.bisection_id AND p.k = b.k"
			  " WHERE b.run_id = ?1 ORDER BY b.bisection_id, b.attempt",
			  run_id, sizeof(**rows), (void **)rows, n, read_step, clear_step,
			  "cannot read the run's bisection steps", err, errsz);
}

void bisect_steps_of_run_free(struct bisect_step_of_run *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_step);
}
