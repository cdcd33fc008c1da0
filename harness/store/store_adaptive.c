/* Adaptive iterations in the results database (store_adaptive.h). */
#include "store_adaptive.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_impl.h"
#include "util.h"

int store_adaptive_values(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
			  const char *load, const char *metric, double **values, size_t *n,
			  double *spent_s, char *err, size_t errsz)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	int rc;

	*values = NULL;
	*n = 0;
	*spent_s = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT (SELECT avg(sv.value) FROM load_instance li"
			       "  JOIN sample_value sv ON sv.load_instance_id = li.id"
			       "  JOIN sample_key k ON k.id = sv.key_id"
			       "  WHERE li.iteration_id = i.id AND li.name = ?4 AND k.metric = ?5),"
			       " (SELECT max(ended_ns) - min(started_ns) FROM load_instance"
			       "  WHERE iteration_id = i.id)"
			       " FROM iteration i JOIN variant v ON v.id = i.variant_id"
			       " WHERE v.run_id = ?1 AND v.name = ?2 AND i.cell_id = ?3"
			       " AND i.status = 'complete' ORDER BY i.iteration",
			       -1, &st, NULL) != SQLITE_OK)
		goto out_err;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, cell_id);
	sqlite3_bind_text(st, 4, load, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*values = xrealloc(*values, (*n + 1) * sizeof(**values));
		(*values)[(*n)++] = sqlite3_column_type(st, 0) == SQLITE_NULL
					    ? NAN : sqlite3_column_double(st, 0);
		*spent_s += (double)sqlite3_column_int64(st, 1) / 1e9;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	free(*values);
	*values = NULL;
	*n = 0;
out_err:
	snprintf(err, errsz, "cannot read the iterations to resume: %s", sqlite3_errmsg(db));
	return -1;
}

/* sql prepared with run_id, variant and cell_id bound to ?1, ?2 and ?3;
 * NULL, with err, when it cannot be. */
static sqlite3_stmt *cell_stmt(struct store *s, const char *sql, int64_t run_id,
			       const char *variant, int64_t cell_id, const char *what, char *err,
			       size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(s, sql, run_id, what, err, errsz);
	if (st) {
		sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, cell_id);
	}
	return st;
}

/* The event and the cell_stop row of store_cell_stop, inside its
 * transaction. */
static int insert_stop(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
		       const char *message, char *err, size_t errsz)
{
	static const char what[] = "cannot record a stopped cell";
	if (store_event(s, run_id, "iterations", message, err, errsz))
		return -1;
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st = cell_stmt(s,
				     "INSERT INTO cell_stop (variant_id, cell_id, event_id)"
				     " SELECT id, ?3, ?4 FROM variant WHERE run_id = ?1 AND name = ?2",
				     run_id, variant, cell_id, what, err, errsz);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 4, sqlite3_last_insert_rowid(db));
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, what, err, errsz);
	if (sqlite3_changes(db) != 1) {
		snprintf(err, errsz, "%s: run %lld has no variant %s", what, (long long)run_id,
			 variant);
		return -1;
	}
	return 0;
}

int store_cell_stop(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
		    const char *message, char *err, size_t errsz)
{
	if (store_begin(s, err, errsz))
		return -1;
	if (insert_stop(s, run_id, variant, cell_id, message, err, errsz)) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err, errsz);
}

int store_cell_stopped(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
		       bool *stopped, char *err, size_t errsz)
{
	static const char what[] = "cannot read the stopped cells";
	sqlite3_stmt *st = cell_stmt(s,
				     "SELECT 1 FROM cell_stop cs JOIN variant v ON v.id = cs.variant_id"
				     " WHERE v.run_id = ?1 AND v.name = ?2 AND cs.cell_id = ?3",
				     run_id, variant, cell_id, what, err, errsz);
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, what, err, errsz);
	*stopped = rc == SQLITE_ROW;
	return 0;
}
