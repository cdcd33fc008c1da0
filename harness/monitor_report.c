/* Monitor table of a stored run: SQL aggregation per variant. */
#include "monitor_report.h"

#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_table.h"

static int db_err(sqlite3 *db, char *err, size_t errsz)
{
	snprintf(err, errsz, "cannot read monitor series: %s", sqlite3_errmsg(db));
	return -1;
}

static double col_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Mean and max of one system-wide series over the variant's iterations. */
static int system_rows(sqlite3 *db, struct monitor_table *t, size_t col, int64_t variant_id,
		       char *err, size_t errsz)
{
	static const struct {
		const char *monitor, *key, *label;
		bool max;
	} rows[] = {
		{"stat", "user_pct", "CPU User %", true},
		{"stat", "system_pct", "CPU System %", true},
		{"stat", "idle_pct", "CPU Idle %", true},
		{"stat", "ctxt_per_s", "Context switches/s", true},
		{"stat", "processes_per_s", "Forks/s", false},
		{"psi", "cpu_some_pct", "PSI cpu some %", true},
	};
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			       "SELECT avg(s.value), max(s.value) FROM series s"
			       " JOIN iteration i ON i.id = s.iteration_id"
			       " WHERE i.variant_id = ? AND s.monitor = ? AND s.key = ?"
			       " AND s.cpu IS NULL AND s.pid IS NULL",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(db, err, errsz);
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		char label[128];
		sqlite3_bind_int64(st, 1, variant_id);
		sqlite3_bind_text(st, 2, rows[k].monitor, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, rows[k].key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			return db_err(db, err, errsz);
		}
		snprintf(label, sizeof(label), "%s Mean", rows[k].label);
		monitor_table_row(t, label)[col] = col_double(st, 0);
		if (rows[k].max) {
			snprintf(label, sizeof(label), "%s Max", rows[k].label);
			monitor_table_row(t, label)[col] = col_double(st, 1);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Per load of the variant (config order): migrations/s, involuntary
 * switches per CPU second, durations. */
static int load_rows(sqlite3 *db, struct monitor_table *t, size_t col, int64_t variant_id,
		     char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    db,
		    "WITH inst AS (SELECT li.* FROM load_instance li"
		    "  JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1),"
		    " migr AS (SELECT s.iteration_id, s.tgid, max(s.value) - min(s.value) AS d"
		    "  FROM series s JOIN iteration i ON i.id = s.iteration_id"
		    "  WHERE i.variant_id = ?1 AND s.monitor = 'sched' AND s.key = 'nr_migrations'"
		    "  GROUP BY s.iteration_id, s.pid),"
		    " nivcsw AS (SELECT s.iteration_id, s.tgid, s.value AS v FROM series s"
		    "  JOIN iteration i ON i.id = s.iteration_id"
		    "  WHERE i.variant_id = ?1 AND s.monitor = 'rusage' AND s.key = 'nivcsw')"
		    " SELECT inst.name, min(inst.seq),"
		    "  (SELECT sum(m.d) FROM migr m JOIN inst x ON x.iteration_id = m.iteration_id"
		    "    AND x.pid = m.tgid WHERE x.name = inst.name),"
		    "  (SELECT sum(n.v) FROM nivcsw n JOIN inst x ON x.iteration_id = n.iteration_id"
		    "    AND x.pid = n.tgid WHERE x.name = inst.name),"
		    "  (SELECT sum(x.user_s + x.system_s) FROM nivcsw n JOIN inst x"
		    "    ON x.iteration_id = n.iteration_id AND x.pid = n.tgid"
		    "    WHERE x.name = inst.name),"
		    "  sum(inst.elapsed_s), sum(inst.user_s), sum(inst.system_s)"
		    " FROM inst GROUP BY inst.name ORDER BY min(inst.seq)",
		    -1, &st, NULL) != SQLITE_OK)
		return db_err(db, err, errsz);
	sqlite3_bind_int64(st, 1, variant_id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		double migr = col_double(st, 2), niv = col_double(st, 3), cpu_s = col_double(st, 4);
		double elapsed = col_double(st, 5);
		char label[256];
		snprintf(label, sizeof(label), "%s Migrations/s", name);
		monitor_table_row(t, label)[col] = elapsed > 0 ? migr / elapsed : NAN;
		snprintf(label, sizeof(label), "%s Invol switches/CPU s", name);
		monitor_table_row(t, label)[col] = cpu_s > 0 ? niv / cpu_s : NAN;
		snprintf(label, sizeof(label), "%s Duration User", name);
		monitor_table_row(t, label)[col] = col_double(st, 6);
		snprintf(label, sizeof(label), "%s Duration System", name);
		monitor_table_row(t, label)[col] = col_double(st, 7);
		snprintf(label, sizeof(label), "%s Duration Elapsed", name);
		monitor_table_row(t, label)[col] = elapsed;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(db, err, errsz);
}

int monitor_report_run(sqlite3 *db, int64_t run_id, struct buf *out, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	char **names = NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = 0;
	char title[512];

	if (sqlite3_prepare_v2(db,
			       "SELECT EXISTS (SELECT 1 FROM series s JOIN iteration i"
			       " ON i.id = s.iteration_id JOIN variant v ON v.id = i.variant_id"
			       " WHERE v.run_id = ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(db, err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	bool any = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!any)
		return 1;

	if (sqlite3_prepare_v2(db,
			       "SELECT v.id, v.name, r.name FROM variant v"
			       " JOIN run r ON r.id = v.run_id WHERE v.run_id = ? ORDER BY v.seq",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(db, err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	snprintf(title, sizeof(title), "monitors: run %lld", (long long)run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		names = xrealloc(names, (n + 1) * sizeof(*names));
		ids[n] = sqlite3_column_int64(st, 0);
		names[n++] = xstrdup((const char *)sqlite3_column_text(st, 1));
		snprintf(title, sizeof(title), "monitors: run %lld %s", (long long)run_id,
			 (const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);

	struct monitor_table t;
	monitor_table_init(&t, title, (const char *const *)names, n);
	for (size_t c = 0; c < n && !rc; c++)
		rc = system_rows(db, &t, c, ids[c], err, errsz);
	for (size_t c = 0; c < n && !rc; c++)
		rc = load_rows(db, &t, c, ids[c], err, errsz);
	if (!rc)
		report_monitor_table(out, &t, 2);
	monitor_table_free(&t);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(ids);
	return rc;
}
