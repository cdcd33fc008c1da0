/* Monitor series read back from a results database (store_monitor.h). */
#include "store_monitor.h"

#include <sqlite3.h>
#include <stddef.h>

#include "store_impl.h"
#include "util.h"

static const struct store_row_shape load_monitor_shape = {
	"WITH inst AS (SELECT li.* FROM load_instance li"
	"  JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1),"
	" migr AS (SELECT s.iteration_id, s.tgid, max(s.value) - min(s.value) AS d"
	"  FROM series s JOIN iteration i ON i.id = s.iteration_id"
	"  WHERE i.variant_id = ?1 AND s.monitor = 'sched' AND s.key = 'nr_migrations'"
	"  GROUP BY s.iteration_id, s.pid),"
	" nivcsw AS (SELECT s.iteration_id, s.tgid, s.value AS v FROM series s"
	"  JOIN iteration i ON i.id = s.iteration_id"
	"  WHERE i.variant_id = ?1 AND s.monitor = 'rusage' AND s.key = 'nivcsw')"
	" SELECT inst.name,"
	"  (SELECT sum(m.d) FROM migr m JOIN inst x ON x.iteration_id = m.iteration_id"
	"    AND x.pid = m.tgid WHERE x.name = inst.name),"
	"  (SELECT sum(n.v) FROM nivcsw n JOIN inst x ON x.iteration_id = n.iteration_id"
	"    AND x.pid = n.tgid WHERE x.name = inst.name),"
	"  (SELECT sum(x.user_s + x.system_s) FROM nivcsw n JOIN inst x"
	"    ON x.iteration_id = n.iteration_id AND x.pid = n.tgid"
	"    WHERE x.name = inst.name),"
	"  sum(inst.elapsed_s), sum(inst.user_s), sum(inst.system_s)"
	" FROM inst GROUP BY inst.name ORDER BY min(inst.seq)",
	"cannot read monitor series", sizeof(struct stored_load_monitor), NULL, {
	{STORE_TEXT, offsetof(struct stored_load_monitor, name)},
	{STORE_REAL, offsetof(struct stored_load_monitor, migrations)},
	{STORE_REAL, offsetof(struct stored_load_monitor, nivcsw)},
	{STORE_REAL, offsetof(struct stored_load_monitor, nivcsw_cpu_s)},
	{STORE_REAL, offsetof(struct stored_load_monitor, elapsed_s)},
	{STORE_REAL, offsetof(struct stored_load_monitor, user_s)},
	{STORE_REAL, offsetof(struct stored_load_monitor, system_s)},
}};

static const struct store_row_shape series_cell_shape = {
	"SELECT v.id, v.name, ce.id, ce.name, r.name,"
	" (SELECT count(DISTINCT i2.cell_id) FROM iteration i2"
	"  WHERE i2.variant_id = v.id AND EXISTS (SELECT 1 FROM series s2"
	"  WHERE s2.iteration_id = i2.id))"
	" FROM variant v JOIN run r ON r.id = v.run_id"
	" JOIN cell ce ON ce.run_id = v.run_id"
	" WHERE v.run_id = ?1 AND EXISTS (SELECT 1 FROM iteration i"
	"  JOIN series s ON s.iteration_id = i.id"
	"  WHERE i.variant_id = v.id AND i.cell_id = ce.id)"
	" ORDER BY v.seq, ce.seq",
	"cannot read monitor series", sizeof(struct stored_series_cell), NULL, {
	{STORE_INT64, offsetof(struct stored_series_cell, variant_id)},
	{STORE_TEXT, offsetof(struct stored_series_cell, variant)},
	{STORE_INT64, offsetof(struct stored_series_cell, cell_id)},
	{STORE_TEXT, offsetof(struct stored_series_cell, cell)},
	{STORE_TEXT, offsetof(struct stored_series_cell, run)},
	{STORE_INT64, offsetof(struct stored_series_cell, n_cells)},
}};

static const char series_what[] = "cannot read monitor series";

int store_series_any(struct store *s, int64_t run_id, bool *any, char *err, size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(s,
					    "SELECT EXISTS (SELECT 1 FROM series s JOIN iteration i"
					    " ON i.id = s.iteration_id JOIN variant v"
					    " ON v.id = i.variant_id WHERE v.run_id = ?1)",
					    run_id, series_what, err, errsz);
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	*any = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
	if (rc != SQLITE_ROW)
		store_fail(s, series_what, err, errsz);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

int store_series_stats(struct store *s, int64_t variant_id, const char *monitor,
		       const char *key, double *mean, double *max, char *err, size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(s,
					    "SELECT avg(s.value), max(s.value) FROM series s"
					    " JOIN iteration i ON i.id = s.iteration_id"
					    " WHERE i.variant_id = ?1 AND s.monitor = ?2 AND s.key = ?3"
					    " AND s.cpu IS NULL AND s.pid IS NULL",
					    variant_id, series_what, err, errsz);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 2, monitor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*mean = store_col_real(st, 0);
		*max = store_col_real(st, 1);
	} else {
		store_fail(s, series_what, err, errsz);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

int store_load_monitors(struct store *s, int64_t variant_id, struct stored_load_monitor **rows,
			size_t *n, char *err, size_t errsz)
{
	return store_rows(s, &load_monitor_shape, variant_id, (void **)rows, n, err, errsz);
}

void store_load_monitor_rows_free(struct stored_load_monitor *rows, size_t n)
{
	store_rows_free(&load_monitor_shape, rows, n);
}

int store_series_cells(struct store *s, int64_t run_id, struct stored_series_cell **rows,
		       size_t *n, char *err, size_t errsz)
{
	return store_rows(s, &series_cell_shape, run_id, (void **)rows, n, err, errsz);
}

void store_series_cell_rows_free(struct stored_series_cell *rows, size_t n)
{
	store_rows_free(&series_cell_shape, rows, n);
}

int store_series_points(struct store *s, int64_t variant_id, int64_t cell_id,
			const char *monitor, const char *key, enum series_points which,
			int (*fn)(const struct stored_series_point *p, void *ctx), void *ctx,
			char *err, size_t errsz)
{
	static const char *const sql[] = {
		[SERIES_PER_CPU] = "SELECT i.iteration, s.cpu, NULL, s.t_ms, s.value FROM series s"
				   " JOIN iteration i ON i.id = s.iteration_id"
				   " WHERE i.variant_id = ?1 AND i.cell_id = ?2 AND s.monitor = ?3"
				   " AND s.key = ?4 AND s.cpu IS NOT NULL AND s.pid IS NULL"
				   " ORDER BY i.iteration, s.cpu, s.t_ms",
		[SERIES_SYSTEM] = "SELECT i.iteration, 0, NULL, s.t_ms, s.value FROM series s"
				  " JOIN iteration i ON i.id = s.iteration_id"
				  " WHERE i.variant_id = ?1 AND i.cell_id = ?2 AND s.monitor = ?3"
				  " AND s.key = ?4 AND s.cpu IS NULL AND s.pid IS NULL"
				  " ORDER BY i.iteration, s.t_ms",
		[SERIES_PER_LOAD] = "SELECT i.iteration, 0, li.name || CASE WHEN li.repetition > 0"
				    " THEN ' repetition ' || li.repetition ELSE '' END, s.t_ms,"
				    " sum(s.value) FROM series s"
				    " JOIN iteration i ON i.id = s.iteration_id"
				    " JOIN load_instance li ON li.iteration_id = i.id AND li.pid = s.tgid"
				    " WHERE i.variant_id = ?1 AND i.cell_id = ?2 AND s.monitor = ?3"
				    " AND s.key = ?4 AND s.pid IS NOT NULL"
				    " GROUP BY i.iteration, li.seq, li.repetition, s.t_ms"
				    " ORDER BY li.seq, li.repetition, i.iteration, s.t_ms",
	};
	sqlite3_stmt *st = store_prepare_id(s, sql[which], variant_id, series_what, err, errsz);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 2, cell_id);
	sqlite3_bind_text(st, 3, monitor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, key, -1, SQLITE_STATIC);
	int rc, ret = 0;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct stored_series_point p = {
			.iteration = sqlite3_column_int64(st, 0), .cpu = sqlite3_column_int64(st, 1),
			.load = (const char *)sqlite3_column_text(st, 2),
			.t_ms = sqlite3_column_double(st, 3), .value = store_col_real(st, 4),
		};
		ret = fn(&p, ctx);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_fail(s, series_what, err, errsz);
	sqlite3_finalize(st);
	return ret;
}
