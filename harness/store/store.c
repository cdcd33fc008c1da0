/* SQLite access for the results database. Schema: results-schema/schema.sql. */
#include "store.h"
#include "store_impl.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "strmap.h"
#include "util.h"

#define BUSY_TIMEOUT_MS 30000

static const char schema_sql[] =
#include "schema.inc"
	;

/* Schema version 1..4 -> 5, before schema_sql runs: the old sample table
 * out of the way. */
static const char before_v5_sql[] = "ALTER TABLE sample RENAME TO sample_v4;";

/* ... and after it: the old sample rows into sample_key and sample_value. */
static const char split_samples_sql[] =
	"INSERT OR IGNORE INTO sample_key (metric, unit, better, op)"
	" SELECT metric, unit, better, op FROM sample_v4 ORDER BY load_instance_id, seq;"
	"INSERT INTO sample_value (load_instance_id, seq, key_id, value)"
	" SELECT o.load_instance_id, o.seq, k.id, o.value FROM sample_v4 o JOIN sample_key k"
	" ON k.metric = o.metric AND k.unit = o.unit AND k.better = o.better AND k.op = o.op;"
	"DROP TABLE sample_v4;";

/* Schema version 1..8 -> 9, after schema_sql: the cells that stopped, from
 * the stop notes ("iterations" events "variant V cell C: N iteration(s),
 * ...") that older versions kept alone and run --resume matched by prefix
 * against the run's variant and cell names; the first note of a (variant,
 * cell) is its row, as the first match was. */
static const char stops_from_notes_sql[] =
	"INSERT OR IGNORE INTO cell_stop (variant_id, cell_id, event_id)"
	" SELECT v.id, c.id, e.id FROM event e"
	" JOIN variant v ON v.run_id = e.run_id JOIN cell c ON c.run_id = e.run_id"
	" WHERE e.kind = 'iterations' AND substr(e.message, 1,"
	"  length('variant ' || v.name || ' cell ' || c.name || ': ')) ="
	"  'variant ' || v.name || ' cell ' || c.name || ': '"
	" ORDER BY e.id;";

/* Version 10 added the table kernel_build (schema.sql creates it). */

/* Columns later versions added to older tables: version 6 to run (some
 * version 5 databases have the first two), version 7 to histogram (a
 * table of version 4 and later). */
static const char *const added_columns[][4] = {
	/* table, column, type, the version that made the table */
	{"run", "rig_pid", "INTEGER", "1"},
	{"run", "boot_id", "TEXT", "1"},
	{"run", "rig_start_ticks", "INTEGER", "1"},
	{"histogram", "bounds", "BLOB", "4"},
	{"histogram", "min_observed", "REAL", "4"},
	{"histogram", "sum_value", "REAL", "4"},
	{"histogram", "sum_sq_value", "REAL", "4"},
};

/* Statements of store_iteration_save, prepared on first use and kept until
 * store_close: preparing them per iteration cost more than storing 100
 * samples (bench/ingest.c). */
enum save_stmt {
	SAVE_FIND_INCOMPLETE, SAVE_DROP_SAMPLES, SAVE_DROP_FLAGS, SAVE_DROP_HISTOGRAMS,
	SAVE_DROP_RAW, SAVE_DROP_INSTANCES, SAVE_DROP_SERIES, SAVE_DROP_ITERATION,
	SAVE_ITERATION, SAVE_INSTANCE, SAVE_RAW, SAVE_KEY_ADD, SAVE_KEY_ID, SAVE_VALUE,
	SAVE_VALUES, SAVE_FLAG, SAVE_HISTOGRAM, SAVE_SERIES, SAVE_COUNT
};

/* Rows of sample_value per multi-row INSERT: one statement step for 64
 * rows stores 1.5 times as many samples per second as 64 steps
 * (bench/ingest.c); 64 × 4 parameters stay far below SQLite's limit. */
#define VALUES_PER_INSERT 64

static const char *const save_sql[SAVE_COUNT] = {
	[SAVE_FIND_INCOMPLETE] =
	"SELECT 1 FROM iteration WHERE variant_id = ?1 AND cell_id = ?2 AND iteration = ?3"
	" AND status != 'complete'",
	[SAVE_DROP_SAMPLES] =
	"DELETE FROM sample_value WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_FLAGS] =
	"DELETE FROM sample_flag WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_HISTOGRAMS] =
	"DELETE FROM histogram WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_RAW] =
	"DELETE FROM raw_output WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_INSTANCES] =
	"DELETE FROM load_instance WHERE iteration_id IN (SELECT id FROM iteration WHERE"
	" variant_id = ?1 AND cell_id = ?2 AND iteration = ?3 AND status != 'complete')",
	[SAVE_DROP_SERIES] =
	"DELETE FROM series WHERE iteration_id IN (SELECT id FROM iteration WHERE"
	" variant_id = ?1 AND cell_id = ?2 AND iteration = ?3 AND status != 'complete')",
	[SAVE_DROP_ITERATION] =
	"DELETE FROM iteration WHERE variant_id = ?1 AND cell_id = ?2 AND iteration = ?3"
	" AND status != 'complete'",
	[SAVE_ITERATION] =
	"INSERT INTO iteration (variant_id, cell_id, iteration, status, started_at,"
	" ended_at) VALUES (?, ?, ?, ?, ?, ?)",
	[SAVE_INSTANCE] =
	"INSERT INTO load_instance (iteration_id, seq, repetition, name, tool,"
	" role, argv, pid, sched_requested, sched_applied, state, exit_code,"
	" term_signal, reason, started_ns, ended_ns, elapsed_s, user_s, system_s)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[SAVE_RAW] = "INSERT INTO raw_output (load_instance_id, stdout, stderr) VALUES (?,?,?)",
	[SAVE_KEY_ADD] =
	"INSERT OR IGNORE INTO sample_key (metric, unit, better, op) VALUES (?1, ?2, ?3, ?4)",
	[SAVE_KEY_ID] =
	"SELECT id FROM sample_key WHERE metric = ?1 AND unit = ?2 AND better = ?3 AND op = ?4",
	[SAVE_VALUE] =
	"INSERT INTO sample_value (load_instance_id, seq, key_id, value) VALUES (?, ?, ?, ?)",
	[SAVE_VALUES] = NULL, /* VALUES_PER_INSERT rows of SAVE_VALUE, built by save_stmt */
	[SAVE_FLAG] = "INSERT INTO sample_flag (load_instance_id, seq, flag) VALUES (?, ?, ?)",
	[SAVE_HISTOGRAM] =
	"INSERT INTO histogram (load_instance_id, seq, metric, unit, op, bucket_width,"
	" n_buckets, limit_value, overflow, max_observed, counts, bounds, min_observed,"
	" sum_value, sum_sq_value)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[SAVE_SERIES] =
	"INSERT INTO series (iteration_id, monitor, key, cpu, pid, tgid, t_ms,"
	" value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
};

/* One sample_value row waiting for its multi-row INSERT. */
struct pending_value {
	int64_t instance_id, seq, key_id;
	double value;
};

struct store {
	sqlite3 *db;
	const struct stored_series_set *series; /* for the next iteration save */
	sqlite3_stmt *save_st[SAVE_COUNT];     /* prepared on first use */
	/* "metric\x1funit\x1fbetter\x1fop" -> sample_key.id, of committed or
	 * current-transaction rows; emptied by a rollback. */
	struct strmap key_ids;
	char *key_buf;
	size_t key_cap;
	struct pending_value pending[VALUES_PER_INSERT];
	size_t n_pending;
};

/* The cached statement k, reset with its bindings cleared; NULL when it
 * cannot be prepared (sqlite3_errmsg says why). */
static sqlite3_stmt *save_stmt(struct store *s, enum save_stmt k)
{
	sqlite3_stmt *st = s->save_st[k];
	if (!st) {
		char *many = NULL;
		if (k == SAVE_VALUES) {
			size_t n = strlen(save_sql[SAVE_VALUE]) + VALUES_PER_INSERT * sizeof(",(?,?,?,?)");
			many = xmalloc(n);
			snprintf(many, n, "%s", save_sql[SAVE_VALUE]);
			for (int i = 1; i < VALUES_PER_INSERT; i++)
				strcat(many, ",(?,?,?,?)");
		}
		int rc = sqlite3_prepare_v3(s->db, many ? many : save_sql[k], -1,
					    SQLITE_PREPARE_PERSISTENT, &s->save_st[k], NULL);
		free(many);
		if (rc != SQLITE_OK)
			return s->save_st[k] = NULL;
		return s->save_st[k];
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return st;
}

static int db_fail(struct store *s, char *err, size_t errsz, const char *what)
{
	return err_printf(err, errsz, "%s: %s", what, sqlite3_errmsg(s->db));
}

static const char *text_col(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (const char *)t : "";
}

void store_now(char *dst, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(dst, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* BEGIN IMMEDIATE, retried with backoff while another writer holds the lock
 * longer than the busy timeout. */
static int begin_immediate(struct store *s, char *err, size_t errsz)
{
	useconds_t delay_us = 10000;
	for (int attempt = 0; attempt < 20; attempt++) {
		int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		usleep(delay_us);
		if (delay_us < 1000000)
			delay_us *= 2;
	}
	return db_fail(s, err, errsz, "cannot start a transaction");
}

/* Sample keys added and rows queued in a transaction that is rolled back
 * are gone from the database: drop them here too. */
static void forget_transaction(struct store *s)
{
	strmap_free(&s->key_ids);
	s->n_pending = 0;
}

static void rollback(struct store *s)
{
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	forget_transaction(s);
}

static int commit(struct store *s, char *err, size_t errsz)
{
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	db_fail(s, err, errsz, "cannot commit");
	rollback(s);
	return -1;
}

static int user_version(struct store *s, int *v)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* ALTER TABLE ADD COLUMN for each of added_columns a version v database
 * has the table of but lacks. */
static int add_columns(struct store *s, int v, char **msg)
{
	for (size_t i = 0; i < sizeof(added_columns) / sizeof(added_columns[0]); i++) {
		const char *const *c = added_columns[i];
		if (v < atoi(c[3]))
			continue;
		sqlite3_stmt *st;
		char *q = xasprintf("SELECT 1 FROM pragma_table_info('%s') WHERE name = ?", c[0]);
		int rc = sqlite3_prepare_v2(s->db, q, -1, &st, NULL);
		free(q);
		if (rc != SQLITE_OK)
			return -1;
		sqlite3_bind_text(st, 1, c[1], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW)
			continue;
		char *sql = xasprintf("ALTER TABLE %s ADD COLUMN %s %s", c[0], c[1], c[2]);
		rc = sqlite3_exec(s->db, sql, NULL, NULL, msg);
		free(sql);
		if (rc != SQLITE_OK)
			return -1;
	}
	return 0;
}

/* Tables in a database without a schedrig schema version: someone else's. */
static bool has_tables(struct store *s)
{
	sqlite3_stmt *st;
	bool any = false;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type = 'table'", -1, &st,
			       NULL) == SQLITE_OK)
		any = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return any;
}

static int migrate(struct store *s, const char *path, char *err, size_t errsz)
{
	int v;
	if (begin_immediate(s, err, errsz))
		return -1;
	if (user_version(s, &v)) {
		rollback(s);
		return db_fail(s, err, errsz, path);
	}
	if (v > STORE_SCHEMA_VERSION) {
		rollback(s);
		return err_printf(err, errsz, "%s: schema version %d is newer than this schedrig's (%d)",
			    path, v, STORE_SCHEMA_VERSION);
	}
	if (v == 0 && has_tables(s)) {
		rollback(s);
		return err_printf(err, errsz, "%s: an SQLite database that is not a schedrig results"
			    " database (it has tables but no schedrig schema version); not writing"
			    " into it", path);
	}
	if (v < STORE_SCHEMA_VERSION) {
		char *msg = NULL;
		bool old_samples = v >= 1 && v < 5;
		if ((old_samples && sqlite3_exec(s->db, before_v5_sql, NULL, NULL, &msg) != SQLITE_OK) ||
		    (v >= 1 && add_columns(s, v, &msg)) ||
		    sqlite3_exec(s->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK ||
		    (old_samples && sqlite3_exec(s->db, split_samples_sql, NULL, NULL, &msg) !=
					    SQLITE_OK) ||
		    (v >= 1 && v < 9 && sqlite3_exec(s->db, stops_from_notes_sql, NULL, NULL, &msg) != SQLITE_OK)) {
			err_printf(err, errsz, "%s: cannot create schema: %s", path, msg ? msg : "?");
			sqlite3_free(msg);
			rollback(s);
			return -1;
		}
		char pragma[64];
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
		if (sqlite3_exec(s->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
			rollback(s);
			return db_fail(s, err, errsz, path);
		}
	}
	return commit(s, err, errsz);
}

int store_open(const char *path, bool readonly, struct store **out, char *err, size_t errsz)
{
	struct store *s = xcalloc(1, sizeof(*s));
	/* A store serves one thread: no per-call connection mutex (about 6 %
	 * of compare of 1M samples, 4 % of storing them). */
	int flags = SQLITE_OPEN_NOMUTEX | (readonly ? SQLITE_OPEN_READONLY
						    : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);

	if (readonly && access(path, F_OK) != 0) {
		free(s);
		return err_printf(err, errsz, "%s: no such results database", path);
	}
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		/* SQLite's "unable to open database file" says not why: add errno
		 * (for a new file, why its directory is not writable, e.g. EROFS). */
		int e = s->db ? sqlite3_system_errno(s->db) : 0;
		if (!readonly && access(path, F_OK) != 0) {
			char *dir = xstrdup(path);
			if (access(dirname(dir), W_OK) != 0)
				e = errno;
			free(dir);
		}
		err_printf(err, errsz, "%s: %s%s%s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open",
		     e ? ": " : "", e ? strerror(e) : "");
		sqlite3_close(s->db);
		free(s);
		return -1;
	}
	/* The busy timeout comes before any other statement. */
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (!readonly && sqlite3_db_readonly(s->db, "main") == 1) {
		err_printf(err, errsz, "%s: the results database is not writable", path);
		goto out_fail;
	}
	if (!readonly) {
		if (sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) != SQLITE_OK) {
			db_fail(s, err, errsz, path);
			goto out_fail;
		}
		sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
		if (migrate(s, path, err, errsz))
			goto out_fail;
	} else {
		int v;
		if (user_version(s, &v)) {
			/* Not SQLite, damaged, or (a WAL database in a directory
			 * this user cannot write) its -shm file cannot be made. */
			int e = sqlite3_system_errno(s->db);
			err_printf(err, errsz, "%s: cannot read it: %s%s%s", path, sqlite3_errmsg(s->db),
			     e ? ": " : "", e ? strerror(e) : "");
			goto out_fail;
		}
		if (v < 1) {
			err_printf(err, errsz, "%s: not a schedrig results database (schema version %d)", path,
			     v);
			goto out_fail;
		}
		if (v > STORE_SCHEMA_VERSION) {
			err_printf(err, errsz, "%s: schema version %d is newer than this schedrig's (%d)",
			     path, v, STORE_SCHEMA_VERSION);
			goto out_fail;
		}
		if (v < STORE_SCHEMA_VERSION) {
			/* An older database is migrated once, by a writing open. */
			struct store *rw;
			sqlite3_close(s->db);
			free(s);
			if (store_open(path, false, &rw, err, errsz))
				return -1;
			store_close(rw);
			return store_open(path, true, out, err, errsz);
		}
	}
	sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	*out = s;
	return 0;

out_fail:
	sqlite3_close(s->db);
	free(s);
	return -1;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (int k = 0; k < SAVE_COUNT; k++)
		sqlite3_finalize(s->save_st[k]);
	sqlite3_close(s->db);
	strmap_free(&s->key_ids);
	free(s->key_buf);
	free(s);
}

sqlite3 *store_db(struct store *s)
{
	return s->db;
}

char *store_col_strdup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? xstrdup((const char *)t) : NULL;
}

double store_col_real(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

int64_t store_col_int_or(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, col);
}

sqlite3_stmt *store_prepare_id(struct store *s, const char *sql, int64_t id, const char *what,
			       char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_fail(s, err, errsz, what);
		return NULL;
	}
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, id);
	return st;
}

int store_rows(struct store *s, const char *sql, int64_t id, size_t size, void **rows,
	       size_t *n, void (*read)(sqlite3_stmt *st, void *row), void (*clear)(void *row),
	       const char *what, char *err, size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(s, sql, id, what, err, errsz);
	size_t cap = 0;
	int rc = SQLITE_ERROR;
	*rows = NULL;
	*n = 0;
	while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap)
			*rows = xrealloc(*rows, (cap = cap ? 2 * cap : 8) * size);
		read(st, (char *)*rows + (*n)++ * size);
	}
	if (st && rc != SQLITE_DONE)
		db_fail(s, err, errsz, what);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	store_rows_free(*rows, *n, size, clear);
	*rows = NULL;
	*n = 0;
	return -1;
}

void store_rows_free(void *rows, size_t n, size_t size, void (*clear)(void *row))
{
	for (size_t i = 0; i < n; i++)
		clear((char *)rows + i * size);
	free(rows);
}

int store_fail(struct store *s, const char *what, char *err, size_t errsz)
{
	return db_fail(s, err, errsz, what);
}

/* Prepare, bind by the types in spec, step once. spec: one letter per
 * argument: t text (NULL allowed), i int, I int64, d double (NaN → NULL),
 * b blob (pointer, size_t length). */
static int bind_step(sqlite3_stmt *st, const char *spec, va_list ap)
{
	for (int i = 0; spec[i]; i++) {
		int col = i + 1;
		switch (spec[i]) {
		case 't':
			sqlite3_bind_text(st, col, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
			break;
		case 'i':
			sqlite3_bind_int(st, col, va_arg(ap, int));
			break;
		case 'I':
			sqlite3_bind_int64(st, col, va_arg(ap, int64_t));
			break;
		case 'd': {
			double d = va_arg(ap, double);
			if (isnan(d))
				sqlite3_bind_null(st, col);
			else
				sqlite3_bind_double(st, col, d);
			break;
		}
		case 'b': {
			const void *p = va_arg(ap, const void *);
			size_t n = va_arg(ap, size_t);
			sqlite3_bind_blob64(st, col, p ? p : "", n, SQLITE_TRANSIENT);
			break;
		}
		}
	}
	int rc = sqlite3_step(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

int store_exec_bound(struct store *s, const char *sql, const char *spec, ...)
{
	sqlite3_stmt *st;
	va_list ap;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	va_start(ap, spec);
	int rc = bind_step(st, spec, ap);
	va_end(ap);
	sqlite3_finalize(st);
	return rc;
}

/* store_exec_bound with the cached statement k (left reset-pending, not finalized). */
static int exec_saved(struct store *s, enum save_stmt k, const char *spec, ...)
{
	sqlite3_stmt *st = save_stmt(s, k);
	va_list ap;

	if (!st)
		return -1;
	va_start(ap, spec);
	int rc = bind_step(st, spec, ap);
	va_end(ap);
	sqlite3_reset(st);
	return rc;
}

int store_run_begin(struct store *s, const struct run_info *ri, int64_t *run_id,
		    char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	if (begin_immediate(s, err, errsz))
		return -1;
	if (store_exec_bound(s,
		       "INSERT INTO run (name, config_path, config_text, status, started_at, host,"
		       " kernel_release, kernel_cmdline, cpu_model, cpu_count, schedrig_version,"
		       " iterations, rig_pid, rig_start_ticks, boot_id)"
		       " VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       "ttttttttitiiIt", ri->name, ri->config_path, ri->config_text, now, ri->host,
		       ri->kernel_release, ri->kernel_cmdline, ri->cpu_model, ri->cpu_count,
		       SCHEDRIG_VERSION, ri->iterations, ri->rig.pid, (int64_t)ri->rig.start_ticks,
		       ri->rig.boot_id)) {
		db_fail(s, err, errsz, "cannot record the run");
		rollback(s);
		return -1;
	}
	*run_id = sqlite3_last_insert_rowid(s->db);
	return commit(s, err, errsz);
}

int store_run_end(struct store *s, int64_t run_id, const char *status, char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	if (store_exec_bound(s, "UPDATE run SET status = ?, ended_at = ? WHERE id = ?", "ttI", status,
		       now, run_id))
		return db_fail(s, err, errsz, "cannot finish the run");
	return 0;
}

int store_variant_id(struct store *s, int64_t run_id, const char *name, int64_t *variant_id,
		     char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT id FROM variant WHERE run_id = ? AND name = ?", -1,
			       &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read variants");
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*variant_id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_fail(s, err, errsz, "cannot read variants");
}

int store_variant_add(struct store *s, int64_t run_id, int seq, const char *name, const char *boot,
		      const char *kernel_release, const char *kernel_cmdline,
		      int64_t *variant_id, char *err, size_t errsz)
{
	if (store_exec_bound(s,
		       "INSERT INTO variant (run_id, seq, name, boot, kernel_release, kernel_cmdline)"
		       " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, name) DO UPDATE SET"
		       " kernel_release = excluded.kernel_release,"
		       " kernel_cmdline = excluded.kernel_cmdline",
		       "Iitttt", run_id, seq, name, boot, kernel_release, kernel_cmdline))
		return db_fail(s, err, errsz, "cannot record a variant");
	return store_variant_id(s, run_id, name, variant_id, err, errsz);
}

int store_variant_status(struct store *s, int64_t variant_id, const char *status,
			 char *err, size_t errsz)
{
	if (store_exec_bound(s, "UPDATE variant SET status = ? WHERE id = ?", "tI", status, variant_id))
		return db_fail(s, err, errsz, "cannot update a variant");
	return 0;
}

int store_cell_add(struct store *s, int64_t run_id, int seq, const char *name,
		   int64_t *cell_id, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (store_exec_bound(s, "INSERT OR IGNORE INTO cell (run_id, seq, name) VALUES (?, ?, ?)", "Iit",
		       run_id, seq, name) ||
	    sqlite3_prepare_v2(s->db, "SELECT id FROM cell WHERE run_id = ? AND name = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot record a cell");
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*cell_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(s, err, errsz, "cannot record a cell");
}

int store_run_config(struct store *s, int64_t run_id, char **path, char **text, int *iterations,
		     char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT config_path, config_text, iterations FROM run WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read the run");
	sqlite3_bind_int64(st, 1, run_id);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW || sqlite3_column_type(st, 1) == SQLITE_NULL) {
		sqlite3_finalize(st);
		return err_printf(err, errsz, "run %lld has no config to resume (imported?)",
			    (long long)run_id);
	}
	*path = xstrdup(sqlite3_column_type(st, 0) == SQLITE_NULL ?
				"config" : (const char *)sqlite3_column_text(st, 0));
	*text = xstrdup((const char *)sqlite3_column_text(st, 1));
	*iterations = sqlite3_column_int(st, 2);
	sqlite3_finalize(st);
	return 0;
}

int store_run_owner(struct store *s, int64_t run_id, struct run_owner *o, char *err,
		    size_t errsz)
{
	sqlite3_stmt *st;
	memset(o, 0, sizeof(*o));
	if (sqlite3_prepare_v2(s->db, "SELECT status, host, boot_id, rig_pid, rig_start_ticks"
			       " FROM run WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read the run");
	sqlite3_bind_int64(st, 1, run_id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(o->status, sizeof(o->status), "%s", text_col(st, 0));
		snprintf(o->host, sizeof(o->host), "%s", text_col(st, 1));
		snprintf(o->boot_id, sizeof(o->boot_id), "%s", text_col(st, 2));
		o->pid = sqlite3_column_int64(st, 3);
		o->start_ticks = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return err_printf(err, errsz, "no run %lld in the results database", (long long)run_id);
	return db_fail(s, err, errsz, "cannot read the run");
}

int store_run_resume(struct store *s, int64_t run_id, const struct rig_id *rig, char *err,
		     size_t errsz)
{
	if (store_exec_bound(s, "UPDATE run SET status = 'running', ended_at = NULL, rig_pid = ?,"
		       " rig_start_ticks = ?, boot_id = ? WHERE id = ?", "iItI", rig->pid,
		       (int64_t)rig->start_ticks, rig->boot_id, run_id))
		return db_fail(s, err, errsz, "cannot resume the run");
	return 0;
}

bool store_iteration_complete(struct store *s, int64_t variant_id, int64_t cell_id, int iteration)
{
	sqlite3_stmt *st;
	bool done = false;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT 1 FROM iteration WHERE variant_id = ? AND cell_id = ? AND"
			       " iteration = ? AND status = 'complete'",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, variant_id);
	sqlite3_bind_int64(st, 2, cell_id);
	sqlite3_bind_int(st, 3, iteration);
	done = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return done;
}

int store_event(struct store *s, int64_t run_id, const char *kind, const char *message,
		char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	if (store_exec_bound(s, "INSERT INTO event (run_id, at, kind, message) VALUES (?, ?, ?, ?)",
		       "Ittt", run_id, now, kind, message))
		return db_fail(s, err, errsz, "cannot record an event");
	return 0;
}

int store_events(struct store *s, int64_t run_id, const char *kind, char ***msgs, size_t *n,
		 char *err, size_t errsz)
{
	sqlite3_stmt *st;
	*msgs = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT message FROM event WHERE run_id = ? AND kind = ? ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read events");
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		*msgs = xrealloc(*msgs, (*n + 1) * sizeof(**msgs));
		(*msgs)[(*n)++] = xstrdup(text_col(st, 0));
	}
	sqlite3_finalize(st);
	return 0;
}

static void add_msg(char ***msgs, size_t *n, char *msg)
{
	*msgs = xrealloc(*msgs, (*n + 1) * sizeof(**msgs));
	(*msgs)[(*n)++] = msg;
}

int store_empty_cells(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		      size_t errsz)
{
	sqlite3_stmt *st;
	int64_t reported_variant = 0;
	int rc;

	*msgs = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT v.id, v.name, v.status, c.name, count(i.id),"
			       " coalesce(sum(i.status = 'complete'), 0),"
			       " (SELECT count(*) FROM iteration a WHERE a.variant_id = v.id"
			       " AND a.status = 'complete')"
			       " FROM variant v JOIN cell c ON c.run_id = v.run_id"
			       " LEFT JOIN iteration i ON i.variant_id = v.id AND i.cell_id = c.id"
			       " WHERE v.run_id = ? GROUP BY v.id, c.id ORDER BY v.seq, c.seq",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read iterations");
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t variant = sqlite3_column_int64(st, 0);
		int recorded = sqlite3_column_int(st, 4);
		if (sqlite3_column_int(st, 5) > 0 || variant == reported_variant)
			continue;
		if (sqlite3_column_int(st, 6) == 0) {
			reported_variant = variant;
			bool failed = !strcmp(text_col(st, 2), "failed");
			add_msg(msgs, n, xasprintf("variant %s%s: no complete iteration",
						   text_col(st, 1), failed ? " (failed)" : ""));
		} else if (recorded == 0) {
			add_msg(msgs, n, xasprintf("cell %s on variant %s: not run", text_col(st, 3),
						   text_col(st, 1)));
		} else {
			add_msg(msgs, n, xasprintf("cell %s on variant %s: none of %d iteration(s)"
						   " complete", text_col(st, 3), text_col(st, 1),
						   recorded));
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(s, err, errsz, "cannot read iterations");
}

int store_silent_loads(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		       size_t errsz)
{
	sqlite3_stmt *st;
	int rc;

	*msgs = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT li.name, li.role, count(*), sum(li.state = 'stopped'),"
			       " sum(li.state = 'warmup')"
			       " FROM load_instance li JOIN iteration i ON i.id = li.iteration_id"
			       " JOIN variant v ON v.id = i.variant_id"
			       " WHERE v.run_id = ?1 AND i.status = 'complete'"
			       " GROUP BY li.name HAVING NOT EXISTS (SELECT 1 FROM sample s"
			       " JOIN load_instance l2 ON l2.id = s.load_instance_id"
			       " JOIN iteration i2 ON i2.id = l2.iteration_id"
			       " JOIN variant v2 ON v2.id = i2.variant_id"
			       " WHERE v2.run_id = ?1 AND l2.name = li.name)"
			       " ORDER BY min(li.seq)", -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read load instances");
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char warmup[64] = "";
		if (sqlite3_column_int(st, 4))
			snprintf(warmup, sizeof(warmup), ", %d ended in the warm-up",
				 sqlite3_column_int(st, 4));
		add_msg(msgs, n, xasprintf("load %s (%s): none of its %d run(s) in complete"
					   " iterations finished (%d stopped when the measured"
					   " load ended%s)", text_col(st, 0), text_col(st, 1),
					   sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
					   warmup));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(s, err, errsz, "cannot read load instances");
}

int store_flag_notes(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		     size_t errsz)
{
	sqlite3_stmt *st;
	int rc;

	*msgs = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT v.name, c.name, li.name, f.flag, count(*),"
			       " (SELECT count(*) FROM sample_value x JOIN load_instance y"
			       " ON y.id = x.load_instance_id JOIN iteration z ON z.id = y.iteration_id"
			       " WHERE z.variant_id = v.id AND z.cell_id = c.id AND y.name = li.name"
			       " AND z.status = 'complete' AND x.key_id = k.key_id)"
			       " FROM sample_flag f JOIN sample_value k"
			       " ON k.load_instance_id = f.load_instance_id AND k.seq = f.seq"
			       " JOIN load_instance li ON li.id = f.load_instance_id"
			       " JOIN iteration i ON i.id = li.iteration_id AND i.status = 'complete'"
			       " JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
			       " WHERE v.run_id = ? GROUP BY v.id, c.id, li.name, f.flag"
			       " ORDER BY v.seq, c.seq, min(li.seq)", -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read sample flags");
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		add_msg(msgs, n, xasprintf("variant %s cell %s load %s: %d of %d sample(s): %s",
					   text_col(st, 0), text_col(st, 1), text_col(st, 2),
					   sqlite3_column_int(st, 4), sqlite3_column_int(st, 5),
					   text_col(st, 3)));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(s, err, errsz, "cannot read sample flags");
}

/* The sample_key id of (metric, unit, better, op): from the cache, else
 * added to sample_key (another writer may have added it first) and cached. */
static int sample_key_id(struct store *s, const char *metric, const char *unit,
			 enum better better, const char *op, int64_t *id)
{
	const char *b = better_name(better);
	const char *part[4] = {metric, unit, b, op};
	size_t len[4], need = 0;
	for (int i = 0; i < 4; i++)
		need += (len[i] = strlen(part[i])) + 1;
	if (need > s->key_cap) {
		s->key_cap = need * 2;
		s->key_buf = xrealloc(s->key_buf, s->key_cap);
	}
	char *p = s->key_buf; /* the four joined by \x1f (snprintf: 5 % of storing) */
	for (int i = 0; i < 4; i++) {
		memcpy(p, part[i], len[i]);
		p += len[i];
		*p++ = i < 3 ? '\x1f' : '\0';
	}
	int64_t *cached = strmap_get(&s->key_ids, s->key_buf);
	if (cached) {
		*id = *cached;
		return 0;
	}
	if (exec_saved(s, SAVE_KEY_ADD, "tttt", metric, unit, b, op))
		return -1;
	sqlite3_stmt *st = save_stmt(s, SAVE_KEY_ID);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, unit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, b, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, op, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		strmap_add(&s->key_ids, s->key_buf, *id);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static void bind_value(sqlite3_stmt *st, int first, const struct pending_value *p)
{
	sqlite3_bind_int64(st, first, p->instance_id);
	sqlite3_bind_int64(st, first + 1, p->seq);
	sqlite3_bind_int64(st, first + 2, p->key_id);
	if (isnan(p->value))
		sqlite3_bind_null(st, first + 3);
	else
		sqlite3_bind_double(st, first + 3, p->value);
}

/* Write the queued sample_value rows: a full queue with one multi-row
 * INSERT, a partial one row by row. */
static int flush_values(struct store *s)
{
	size_t n = s->n_pending;
	s->n_pending = 0;
	sqlite3_stmt *st = save_stmt(s, n == VALUES_PER_INSERT ? SAVE_VALUES : SAVE_VALUE);
	if (!st)
		return -1;
	int rc = SQLITE_DONE;
	if (n == VALUES_PER_INSERT) {
		for (size_t i = 0; i < n; i++)
			bind_value(st, (int)(4 * i + 1), &s->pending[i]);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	for (size_t i = 0; n < VALUES_PER_INSERT && i < n && rc == SQLITE_DONE; i++) {
		bind_value(st, 1, &s->pending[i]);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Queue one sample for sample_value (flushed when the queue is full and by
 * flush_values before anything reads the table or the transaction ends). */
static int add_value(struct store *s, int64_t instance_id, int64_t seq, const char *metric,
		     const char *unit, enum better better, const char *op, double value)
{
	struct pending_value *p = &s->pending[s->n_pending];
	if (sample_key_id(s, metric, unit, better, op, &p->key_id))
		return -1;
	p->instance_id = instance_id;
	p->seq = seq;
	p->value = value;
	return ++s->n_pending == VALUES_PER_INSERT ? flush_values(s) : 0;
}

static int insert_samples(struct store *s, int64_t instance_id, const struct sample_vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct sample *x = &v->v[i];
		if (add_value(s, instance_id, (int64_t)i, x->metric, x->unit, x->better, x->op,
			      x->value))
			return -1;
		if (x->flag && exec_saved(s, SAVE_FLAG, "IIt", instance_id, (int64_t)i, x->flag))
			return -1;
	}
	return 0;
}

unsigned char *store_counts_le(const uint64_t *counts, size_t n)
{
	unsigned char *b = xcalloc(n ? n : 1, 8);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(counts[i] >> (8 * k));
	return b;
}

unsigned char *store_doubles_le(const double *v, size_t n)
{
	uint64_t *bits = xcalloc(n ? n : 1, sizeof(*bits));
	for (size_t i = 0; i < n; i++)
		memcpy(&bits[i], &v[i], sizeof(bits[i]));
	unsigned char *b = store_counts_le(bits, n);
	free(bits);
	return b;
}

/* n little-endian u64 from blob (8·n bytes) into out. */
static void le_to_u64(const unsigned char *blob, size_t n, uint64_t *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = 0;
		for (int b = 7; b >= 0; b--)
			out[i] = out[i] << 8 | blob[i * 8 + b];
	}
}

/* Bind v, or NULL for NaN. */
static void bind_real(sqlite3_stmt *st, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_double(st, col, v);
}


static int insert_histograms(struct store *s, int64_t instance_id, const struct sample_vec *v)
{
	sqlite3_stmt *st = save_stmt(s, SAVE_HISTOGRAM);
	if (!st)
		return -1;
	for (size_t i = 0; i < v->n_hists; i++) {
		const struct sample_hist *h = &v->hists[i];
		unsigned char *blob = store_counts_le(h->counts, h->n_buckets);
		sqlite3_bind_int64(st, 1, instance_id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_text(st, 3, h->metric, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, h->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, h->op, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 6, h->bucket_width);
		sqlite3_bind_int64(st, 7, (int64_t)h->n_buckets);
		sqlite3_bind_double(st, 8, h->limit);
		sqlite3_bind_int64(st, 9, (int64_t)h->overflow);
		bind_real(st, 10, h->max_observed);
		sqlite3_bind_blob64(st, 11, blob, (sqlite3_uint64)h->n_buckets * 8, SQLITE_TRANSIENT);
		unsigned char *bounds = h->bounds ? store_doubles_le(h->bounds, h->n_buckets) : NULL;
		if (bounds)
			sqlite3_bind_blob64(st, 12, bounds, (sqlite3_uint64)h->n_buckets * 8,
					    SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, 12);
		bind_real(st, 13, h->min_observed);
		bind_real(st, 14, h->sum);
		bind_real(st, 15, h->sum_sq);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		free(blob);
		free(bounds);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

static int insert_instance(struct store *s, int64_t iteration_id, const struct stored_instance *in)
{
	sqlite3_stmt *st = save_stmt(s, SAVE_INSTANCE); /* bindings cleared: NULL */
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, iteration_id);
	sqlite3_bind_int(st, 2, in->seq);
	sqlite3_bind_int(st, 3, in->repetition);
	sqlite3_bind_text(st, 4, in->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, in->tool, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, in->role, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, in->argv, -1, SQLITE_STATIC);
	if (in->pid > 0)
		sqlite3_bind_int(st, 8, in->pid);
	sqlite3_bind_text(st, 9, in->sched_requested, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, in->sched_applied, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, in->state, -1, SQLITE_STATIC);
	if (in->exited)
		sqlite3_bind_int(st, 12, in->exit_code);
	if (in->term_signal)
		sqlite3_bind_int(st, 13, in->term_signal);
	sqlite3_bind_text(st, 14, in->reason, -1, SQLITE_STATIC);
	if (in->started_ns)
		sqlite3_bind_int64(st, 15, in->started_ns);
	if (in->ended_ns)
		sqlite3_bind_int64(st, 16, in->ended_ns);
	sqlite3_bind_double(st, 17, in->elapsed_s);
	sqlite3_bind_double(st, 18, in->user_s);
	sqlite3_bind_double(st, 19, in->system_s);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return -1;
	int64_t id = sqlite3_last_insert_rowid(s->db);
	if (exec_saved(s, SAVE_RAW, "Ibb", id, in->out, in->out_len, in->err, in->err_len))
		return -1;
	if (in->samples && insert_samples(s, id, in->samples))
		return -1;
	if (in->samples && in->samples->n_hists && insert_histograms(s, id, in->samples))
		return -1;
	return 0;
}

/* Monitor series rows of one iteration (store_iteration_series). */
static int insert_series(struct store *s, int64_t iteration_id, const struct stored_series_set *set)
{
	sqlite3_stmt *st = save_stmt(s, SAVE_SERIES);
	if (!st)
		return -1;
	for (size_t i = 0; i < set->n_points; i++) {
		const struct stored_point *p = &set->points[i];
		if (p->series >= set->n_series)
			continue;
		const struct stored_series *se = &set->series[p->series];
		sqlite3_bind_int64(st, 1, iteration_id);
		sqlite3_bind_text(st, 2, se->monitor, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, se->key, -1, SQLITE_STATIC);
		if (se->cpu >= 0)
			sqlite3_bind_int(st, 4, se->cpu);
		else
			sqlite3_bind_null(st, 4);
		if (se->pid > 0) {
			sqlite3_bind_int(st, 5, se->pid);
			sqlite3_bind_int(st, 6, se->tgid > 0 ? se->tgid : se->pid);
		} else {
			sqlite3_bind_null(st, 5);
			sqlite3_bind_null(st, 6);
		}
		sqlite3_bind_double(st, 7, p->t_ms);
		if (isnan(p->value))
			sqlite3_bind_null(st, 8);
		else
			sqlite3_bind_double(st, 8, p->value);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

void store_iteration_series(struct store *s, const struct stored_series_set *set)
{
	s->series = set;
}

int store_iteration_save(struct store *s, int64_t variant_id, int64_t cell_id, int iteration,
			 const char *status, const char *started_at, const char *ended_at,
			 const struct stored_instance *inst, size_t n_inst, char *err, size_t errsz)
{
	const struct stored_series_set *series = s->series;
	s->series = NULL;
	if (begin_immediate(s, err, errsz))
		return -1;
	/* An incomplete earlier record (run --resume) is dropped first; the
	 * seven deletes run only when there is one. */
	sqlite3_stmt *find = save_stmt(s, SAVE_FIND_INCOMPLETE);
	if (!find)
		goto out_fail;
	sqlite3_bind_int64(find, 1, variant_id);
	sqlite3_bind_int64(find, 2, cell_id);
	sqlite3_bind_int(find, 3, iteration);
	int found = sqlite3_step(find);
	sqlite3_reset(find);
	if (found != SQLITE_ROW && found != SQLITE_DONE)
		goto out_fail;
	for (int k = SAVE_DROP_SAMPLES; found == SQLITE_ROW && k <= SAVE_DROP_ITERATION; k++)
		if (exec_saved(s, k, "IIi", variant_id, cell_id, iteration))
			goto out_fail;
	if (exec_saved(s, SAVE_ITERATION, "IIittt", variant_id, cell_id, iteration, status,
		       started_at, ended_at))
		goto out_fail;
	int64_t iteration_id = sqlite3_last_insert_rowid(s->db);
	for (size_t i = 0; i < n_inst; i++)
		if (insert_instance(s, iteration_id, &inst[i]))
			goto out_fail;
	if (series && insert_series(s, iteration_id, series))
		goto out_fail;
	if (flush_values(s))
		goto out_fail;
	return commit(s, err, errsz);

out_fail:
	db_fail(s, err, errsz, "cannot store the iteration");
	rollback(s);
	return -1;
}

int store_begin(struct store *s, char *err, size_t errsz)
{
	return begin_immediate(s, err, errsz);
}

int store_commit(struct store *s, char *err, size_t errsz)
{
	return commit(s, err, errsz);
}

void store_rollback(struct store *s)
{
	rollback(s);
}

int store_instance_outcome(struct store *s, int64_t instance_id, const char *state,
			   const char *reason, const struct sample_vec *samples, char *err,
			   size_t errsz)
{
	static const char *const drop[] = {
		"DELETE FROM sample_value WHERE load_instance_id = ?",
		"DELETE FROM sample_flag WHERE load_instance_id = ?",
		"DELETE FROM histogram WHERE load_instance_id = ?",
	};
	for (size_t k = 0; k < sizeof(drop) / sizeof(drop[0]); k++)
		if (store_exec_bound(s, drop[k], "I", instance_id))
			return db_fail(s, err, errsz, "cannot drop an instance's samples");
	if (store_exec_bound(s, "UPDATE load_instance SET state = ?, reason = ? WHERE id = ?", "ttI",
		       state, reason, instance_id) ||
	    (samples && insert_samples(s, instance_id, samples)) ||
	    (samples && samples->n_hists && insert_histograms(s, instance_id, samples)) ||
	    flush_values(s))
		return db_fail(s, err, errsz, "cannot store an instance's samples");
	return 0;
}

int store_iteration_status(struct store *s, int64_t iteration_id, const char *status, char *err,
			   size_t errsz)
{
	if (store_exec_bound(s, "UPDATE iteration SET status = ? WHERE id = ?", "tI", status,
		       iteration_id))
		return db_fail(s, err, errsz, "cannot set an iteration's status");
	return 0;
}

int store_run_status(struct store *s, int64_t run_id, const char *status, char *err,
		     size_t errsz)
{
	if (store_exec_bound(s, "UPDATE run SET status = ? WHERE id = ?", "tI", status, run_id))
		return db_fail(s, err, errsz, "cannot set the run's status");
	return 0;
}

int store_events_drop(struct store *s, int64_t run_id, const char *kind, const char *prefix,
		      char *err, size_t errsz)
{
	if (store_exec_bound(s, "DELETE FROM event WHERE run_id = ? AND kind = ? AND"
		       " substr(message, 1, length(?3)) = ?3", "Itt", run_id, kind, prefix))
		return db_fail(s, err, errsz, "cannot drop events");
	return 0;
}

static int run_by_selector(struct store *s, const char *sel, int64_t *id)
{
	sqlite3_stmt *st;
	long long n;
	int rc;

	if (!strcmp(sel, "latest"))
		rc = sqlite3_prepare_v2(s->db, "SELECT id FROM run ORDER BY id DESC LIMIT 1", -1, &st,
					NULL);
	else if (parse_ll(sel, &n)) {
		rc = sqlite3_prepare_v2(s->db, "SELECT id FROM run WHERE id = ?", -1, &st, NULL);
		sqlite3_bind_int64(st, 1, n);
	} else {
		rc = sqlite3_prepare_v2(s->db,
					"SELECT id FROM run WHERE name = ? ORDER BY id DESC LIMIT 1",
					-1, &st, NULL);
		sqlite3_bind_text(st, 1, sel, -1, SQLITE_STATIC);
	}
	if (rc != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : 1;
}

int store_select_runs(struct store *s, char *const *sel, size_t n_sel,
		      int64_t **ids, size_t *n_ids, char *err, size_t errsz)
{
	static char *const latest[] = {"latest"};
	if (n_sel == 0) {
		sel = latest;
		n_sel = 1;
	}
	*ids = xcalloc(n_sel, sizeof(**ids));
	*n_ids = 0;
	for (size_t i = 0; i < n_sel; i++) {
		int rc = run_by_selector(s, sel[i], &(*ids)[*n_ids]);
		if (rc) {
			free(*ids);
			*ids = NULL;
			if (rc < 0)
				return db_fail(s, err, errsz, "cannot look up runs");
			if (!strcmp(sel[i], "latest"))
				return err_printf(err, errsz, "the results database holds no run yet");
			return err_printf(err, errsz, "no run '%s' in the results database", sel[i]);
		}
		/* A run named twice (1 1, or an id and its name) is one run:
		 * its samples must not count twice. */
		bool seen = false;
		for (size_t k = 0; k < *n_ids; k++)
			seen |= (*ids)[k] == (*ids)[*n_ids];
		if (!seen)
			(*n_ids)++;
	}
	return 0;
}

static bool names_distinct(struct store *s, const int64_t *ids, size_t n)
{
	bool distinct = true;
	sqlite3_stmt *st;
	char **names = xcalloc(n, sizeof(*names));

	if (sqlite3_prepare_v2(s->db, "SELECT name FROM run WHERE id = ?", -1, &st, NULL) != SQLITE_OK) {
		free(names);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		names[i] = xstrdup(sqlite3_step(st) == SQLITE_ROW ?
					   (const char *)sqlite3_column_text(st, 0) : "");
		sqlite3_reset(st);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				distinct = false;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return distinct;
}


/* An instance of the selected run: its id and its rank in config order. */
struct ranked_instance {
	int64_t id;
	size_t rank;
};

static int by_instance_id(const void *a, const void *b)
{
	const struct ranked_instance *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* Put rows[from..n) into instance rank order (a stable counting sort over
 * instances; rows within an instance keep their seq order). */
static void order_by_rank(struct sample_table *t, size_t from, const size_t *rank, size_t n_ranks)
{
	size_t n = t->n - from;
	size_t *start = xcalloc(n_ranks + 1, sizeof(*start));
	for (size_t i = 0; i < n; i++)
		start[rank[i] + 1]++;
	for (size_t r = 0; r < n_ranks; r++)
		start[r + 1] += start[r];
	struct sample_row *sorted = xmalloc(n * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		sorted[start[rank[i]]++] = t->rows[from + i];
	memcpy(t->rows + from, sorted, n * sizeof(*sorted));
	free(sorted);
	free(start);
}

/* A sample_key row with its strings interned in a sample_table. */
struct key_names {
	const char *metric, *unit, *op;
	enum better better;
};

/* Every sample_key row, indexed by id (ids without a row: metric NULL);
 * *n is one more than the largest id. */
static int load_keys(struct store *s, struct sample_table *t, struct key_names **keys, size_t *n)
{
	sqlite3_stmt *st;
	int rc;

	*keys = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT id, metric, unit, better, op FROM sample_key"
			       " ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > INT32_MAX) {
			rc = SQLITE_CORRUPT;
			break;
		}
		*keys = xrealloc(*keys, ((size_t)id + 1) * sizeof(**keys));
		memset(*keys + *n, 0, ((size_t)id + 1 - *n) * sizeof(**keys));
		*n = (size_t)id + 1;
		(*keys)[id] = (struct key_names){
			.metric = sample_table_intern(t, text_col(st, 1)),
			.unit = sample_table_intern(t, text_col(st, 2)),
			.better = better_parse(text_col(st, 3)) == BETTER_HIGHER ? BETTER_HIGHER
										 : BETTER_LOWER,
			.op = sample_table_intern(t, text_col(st, 4)),
		};
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Append the samples of one run to t in config order: its instances are
 * read (and sorted) first, then all samples in one scan of sample_value's
 * primary key, each placed by its instance's rank. A sample naming a key
 * that does not exist fails with a message in err. */
static int load_run_rows(int64_t run_id, const char *run_name, const struct key_names *keys,
			 size_t n_keys, sqlite3_stmt *inst, sqlite3_stmt *smp,
			 struct sample_table *t, char *err, size_t errsz)
{
	struct sample_row *tmpl = NULL;      /* per rank: run, variant, cell, load, iteration */
	struct ranked_instance *by_id = NULL;
	size_t n_inst = 0, *rank = NULL, from = t->n;
	bool ordered = true;
	int rc;

	sqlite3_bind_int64(inst, 1, run_id);
	while ((rc = sqlite3_step(inst)) == SQLITE_ROW) {
		tmpl = xrealloc(tmpl, (n_inst + 1) * sizeof(*tmpl));
		by_id = xrealloc(by_id, (n_inst + 1) * sizeof(*by_id));
		tmpl[n_inst] = (struct sample_row){
			.run = sample_table_intern(t, run_name),
			.variant = sample_table_intern(t, text_col(inst, 1)),
			.cell = sample_table_intern(t, text_col(inst, 2)),
			.load = sample_table_intern(t, text_col(inst, 3)),
			.tool = sample_table_intern(t, text_col(inst, 5)),
			.iteration = sqlite3_column_int(inst, 4),
			.repetition = sqlite3_column_int(inst, 6),
		};
		by_id[n_inst] = (struct ranked_instance){sqlite3_column_int64(inst, 0), n_inst};
		n_inst++;
	}
	sqlite3_reset(inst);
	if (rc != SQLITE_DONE || n_inst == 0)
		goto out;
	qsort(by_id, n_inst, sizeof(*by_id), by_instance_id);
	sqlite3_bind_int64(smp, 1, by_id[0].id);
	sqlite3_bind_int64(smp, 2, by_id[n_inst - 1].id);
	size_t cur = 0, cap = 0, last_rank = 0;
	while ((rc = sqlite3_step(smp)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(smp, 0);
		while (cur < n_inst && by_id[cur].id < id)
			cur++;
		if (cur == n_inst || by_id[cur].id != id)
			continue; /* an instance of another run */
		int64_t key = sqlite3_column_int64(smp, 1);
		if (key < 0 || (size_t)key >= n_keys || !keys[key].metric) {
			snprintf(err, errsz, "a sample of load instance %lld names sample_key %lld,"
				 " which does not exist", (long long)id, (long long)key);
			rc = SQLITE_CORRUPT;
			break;
		}
		struct sample_row row = tmpl[by_id[cur].rank];
		row.metric = keys[key].metric;
		row.unit = keys[key].unit;
		row.better = keys[key].better;
		row.op = keys[key].op;
		row.value = sqlite3_column_type(smp, 2) == SQLITE_NULL ? NAN
								       : sqlite3_column_double(smp, 2);
		sample_table_push(t, &row);
		size_t k = t->n - from - 1;
		if (k == cap) {
			cap = cap ? cap * 2 : 1024;
			rank = xrealloc(rank, cap * sizeof(*rank));
		}
		rank[k] = by_id[cur].rank;
		ordered &= k == 0 || rank[k] >= last_rank;
		last_rank = rank[k];
	}
	sqlite3_reset(smp);
	if (rc == SQLITE_DONE && !ordered)
		order_by_rank(t, from, rank, n_inst);
out:
	free(tmpl);
	free(by_id);
	free(rank);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_CORRUPT)
		snprintf(err, errsz, "cannot read samples: %s", sqlite3_errmsg(sqlite3_db_handle(smp)));
	return -1;
}

int store_load_rows(struct store *s, const int64_t *ids, size_t n_ids,
		    struct sample_table *t, char *err, size_t errsz)
{
	sqlite3_stmt *inst = NULL, *smp = NULL;
	bool distinct = names_distinct(s, ids, n_ids);
	struct key_names *keys = NULL;
	size_t n_keys = 0;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT li.id, v.name, c.name, li.name, i.iteration, li.tool,"
			       " li.repetition"
			       " FROM variant v JOIN iteration i ON i.variant_id = v.id"
			       " JOIN cell c ON c.id = i.cell_id"
			       " JOIN load_instance li ON li.iteration_id = i.id"
			       " WHERE v.run_id = ? AND i.status = 'complete'"
			       " ORDER BY v.seq, c.seq, li.seq, i.iteration, li.repetition",
			       -1, &inst, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "SELECT load_instance_id, key_id, value FROM sample_value"
			       " WHERE load_instance_id BETWEEN ? AND ?"
			       " ORDER BY load_instance_id, seq",
			       -1, &smp, NULL) != SQLITE_OK ||
	    load_keys(s, t, &keys, &n_keys)) {
		sqlite3_finalize(inst);
		sqlite3_finalize(smp);
		free(keys);
		return db_fail(s, err, errsz, "cannot read samples");
	}
	for (size_t k = 0; k < n_ids && rc == 0; k++) {
		char run_name[256];
		sqlite3_stmt *name;
		if (sqlite3_prepare_v2(s->db, "SELECT name FROM run WHERE id = ?", -1, &name, NULL) !=
		    SQLITE_OK) {
			rc = db_fail(s, err, errsz, "cannot read samples");
			break;
		}
		sqlite3_bind_int64(name, 1, ids[k]);
		const char *base = sqlite3_step(name) == SQLITE_ROW ? text_col(name, 0) : "";
		if (distinct)
			snprintf(run_name, sizeof(run_name), "%s", base);
		else
			snprintf(run_name, sizeof(run_name), "%s#%lld", base, (long long)ids[k]);
		sqlite3_finalize(name);
		rc = load_run_rows(ids[k], run_name, keys, n_keys, inst, smp, t, err, errsz);
	}
	sqlite3_finalize(inst);
	sqlite3_finalize(smp);
	free(keys);
	return rc;
}

/* Column col of st as n_buckets strictly ascending finite doubles into
 * *out (malloc'd); -1 for anything else (nothing from a database is
 * trusted). */
static int hist_bounds(sqlite3_stmt *st, int col, size_t n, double **out)
{
	const unsigned char *blob = sqlite3_column_blob(st, col);
	if ((size_t)sqlite3_column_bytes(st, col) != n * 8 || (n && !blob))
		return -1;
	uint64_t *bits = xcalloc(n ? n : 1, sizeof(*bits));
	double *v = xcalloc(n ? n : 1, sizeof(*v));
	le_to_u64(blob, n, bits);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(&v[i], &bits[i], sizeof(v[i]));
		if (!isfinite(v[i]) || (i && !(v[i] > v[i - 1])))
			rc = -1;
	}
	free(bits);
	if (rc)
		free(v);
	else
		*out = v;
	return rc;
}

int store_load_histograms(struct store *s, const int64_t *ids, size_t n_ids,
			  struct hist_table *t, char *err, size_t errsz)
{
	sqlite3_stmt *st = NULL;
	bool distinct = names_distinct(s, ids, n_ids);
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT r.name, v.name, c.name, li.name, i.iteration, h.metric, h.unit,"
			       " h.op, h.bucket_width, h.n_buckets, h.limit_value, h.overflow,"
			       " h.max_observed, h.counts, h.bounds, h.min_observed, h.sum_value,"
			       " h.sum_sq_value, li.tool"
			       " FROM run r JOIN variant v ON v.run_id = r.id"
			       " JOIN iteration i ON i.variant_id = v.id"
			       " JOIN cell c ON c.id = i.cell_id"
			       " JOIN load_instance li ON li.iteration_id = i.id"
			       " JOIN histogram h ON h.load_instance_id = li.id"
			       " WHERE r.id = ?"
			       " ORDER BY v.seq, c.seq, li.seq, i.iteration, li.repetition, h.seq",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read histograms");
	for (size_t k = 0; k < n_ids && rc == SQLITE_DONE; k++) {
		sqlite3_bind_int64(st, 1, ids[k]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			char run_name[256];
			if (distinct)
				snprintf(run_name, sizeof(run_name), "%s", text_col(st, 0));
			else
				snprintf(run_name, sizeof(run_name), "%s#%lld", text_col(st, 0),
					 (long long)ids[k]);
			int64_t nb = sqlite3_column_int64(st, 9);
			const unsigned char *blob = sqlite3_column_blob(st, 13);
			int64_t bytes = sqlite3_column_bytes(st, 13);
			if (nb < 0 || bytes != nb * 8 || (nb && !blob)) {
				sqlite3_finalize(st);
				return err_printf(err, errsz, "histogram of %s has %lld bytes of counts for"
					    " %lld buckets", run_name, (long long)bytes, (long long)nb);
			}
			uint64_t *counts = xcalloc(nb ? (size_t)nb : 1, sizeof(*counts));
			le_to_u64(blob, (size_t)nb, counts);
			double *bounds = NULL;
			if (sqlite3_column_type(st, 14) != SQLITE_NULL &&
			    hist_bounds(st, 14, (size_t)nb, &bounds)) {
				free(counts);
				sqlite3_finalize(st);
				return err_printf(err, errsz, "histogram of %s has bucket bounds that are not"
					    " %lld ascending numbers", run_name, (long long)nb);
			}
			struct hist_row row = {
				.run = run_name,
				.variant = text_col(st, 1),
				.cell = text_col(st, 2),
				.load = text_col(st, 3),
				.tool = text_col(st, 18),
				.iteration = sqlite3_column_int(st, 4),
				.metric = text_col(st, 5),
				.unit = text_col(st, 6),
				.op = text_col(st, 7),
				.bucket_width = sqlite3_column_double(st, 8),
				.counts = counts,
				.bounds = bounds,
				.n_buckets = (size_t)nb,
				.limit = sqlite3_column_double(st, 10),
				.overflow = (uint64_t)sqlite3_column_int64(st, 11),
				.max_observed = store_col_real(st, 12),
				.min_observed = store_col_real(st, 15),
				.sum = store_col_real(st, 16),
				.sum_sq = store_col_real(st, 17),
			};
			hist_table_add(t, &row);
			free(counts);
			free(bounds);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, err, errsz, "cannot read histograms");
	return 0;
}

/* Statements of an import, prepared once. */
enum import_stmt {
	IMP_VARIANT, IMP_VARIANT_ID, IMP_CELL, IMP_CELL_ID, IMP_ITERATION, IMP_ITERATION_ID,
	IMP_INSTANCE, IMP_INSTANCE_ID, IMP_NEXT_SEQ, IMP_COUNT
};

static const char *const import_sql[IMP_COUNT] = {
	"INSERT OR IGNORE INTO variant (run_id, name, seq, boot, status)"
	" VALUES (?1, ?2, ?3, 'imported', 'complete')",
	"SELECT id FROM variant WHERE run_id = ?1 AND name = ?2",
	"INSERT OR IGNORE INTO cell (run_id, name, seq) VALUES (?1, ?2, ?3)",
	"SELECT id FROM cell WHERE run_id = ?1 AND name = ?2",
	"INSERT OR IGNORE INTO iteration (variant_id, cell_id, iteration, status)"
	" VALUES (?1, ?2, ?3, 'complete')",
	"SELECT id FROM iteration WHERE variant_id = ?1 AND cell_id = ?2 AND iteration = ?3",
	"INSERT OR IGNORE INTO load_instance (iteration_id, name, seq, tool, role, state, repetition)"
	" VALUES (?1, ?2, ?3, coalesce(?4, 'imported'), 'measured', 'ok', ?5)",
	"SELECT id FROM load_instance WHERE iteration_id = ?1 AND name = ?2 AND repetition = ?5",
	"SELECT coalesce(max(seq) + 1, 0) FROM sample_value WHERE load_instance_id = ?1",
};

/* Run an insert-or-ignore then its select: parent id, name, seq → id. */
static int import_upsert(sqlite3_stmt *ins, sqlite3_stmt *sel, int64_t parent, const char *name,
			 int seq, int64_t *id)
{
	sqlite3_bind_int64(ins, 1, parent);
	sqlite3_bind_text(ins, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(ins, 3, seq);
	int rc = sqlite3_step(ins);
	sqlite3_reset(ins);
	if (rc != SQLITE_DONE)
		return -1;
	sqlite3_bind_int64(sel, 1, parent);
	sqlite3_bind_text(sel, 2, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(sel);
	*id = sqlite3_column_int64(sel, 0);
	sqlite3_reset(sel);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int import_iteration(sqlite3_stmt **st, int64_t variant_id, int64_t cell_id, int iteration,
			    int64_t *id)
{
	for (int k = IMP_ITERATION; k <= IMP_ITERATION_ID; k++) {
		sqlite3_bind_int64(st[k], 1, variant_id);
		sqlite3_bind_int64(st[k], 2, cell_id);
		sqlite3_bind_int(st[k], 3, iteration);
	}
	int rc = sqlite3_step(st[IMP_ITERATION]);
	sqlite3_reset(st[IMP_ITERATION]);
	if (rc != SQLITE_DONE)
		return -1;
	rc = sqlite3_step(st[IMP_ITERATION_ID]);
	*id = sqlite3_column_int64(st[IMP_ITERATION_ID], 0);
	sqlite3_reset(st[IMP_ITERATION_ID]);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Position of name in a small list of names seen so far (appending it). */
static int seq_of(const char ***names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if ((*names)[i] == name)
			return (int)i;
	*names = xrealloc(*names, (*n + 1) * sizeof(**names));
	(*names)[*n] = name;
	return (int)(*n)++;
}

static int import_rows(struct store *s, sqlite3_stmt **st, const struct sample_table *t,
		       int64_t run_id)
{
	const char **variants = NULL, **cells = NULL, **loads = NULL;
	size_t n_variants = 0, n_cells = 0, n_loads = 0;
	const struct sample_row *prev = NULL;
	int64_t variant_id = 0, cell_id = 0, iteration_id = 0, instance_id = 0, sample_seq = 0;
	int rc = -1;

	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		bool same_iteration = prev && prev->variant == r->variant && prev->cell == r->cell &&
				      prev->iteration == r->iteration;
		if ((!prev || prev->variant != r->variant) &&
		    import_upsert(st[IMP_VARIANT], st[IMP_VARIANT_ID], run_id, r->variant,
				  seq_of(&variants, &n_variants, r->variant), &variant_id))
			goto out;
		if ((!prev || prev->cell != r->cell) &&
		    import_upsert(st[IMP_CELL], st[IMP_CELL_ID], run_id, r->cell,
				  seq_of(&cells, &n_cells, r->cell), &cell_id))
			goto out;
		if (!same_iteration &&
		    import_iteration(st, variant_id, cell_id, r->iteration, &iteration_id))
			goto out;
		if (!same_iteration || prev->load != r->load || prev->repetition != r->repetition) {
			sqlite3_bind_text(st[IMP_INSTANCE], 4, r->tool, -1, SQLITE_STATIC);
			sqlite3_bind_int(st[IMP_INSTANCE], 5, r->repetition);
			sqlite3_bind_int(st[IMP_INSTANCE_ID], 5, r->repetition);
			if (import_upsert(st[IMP_INSTANCE], st[IMP_INSTANCE_ID], iteration_id, r->load,
					  seq_of(&loads, &n_loads, r->load), &instance_id) ||
			    flush_values(s))
				goto out;
			sqlite3_bind_int64(st[IMP_NEXT_SEQ], 1, instance_id);
			if (sqlite3_step(st[IMP_NEXT_SEQ]) != SQLITE_ROW)
				goto out;
			sample_seq = sqlite3_column_int64(st[IMP_NEXT_SEQ], 0);
			sqlite3_reset(st[IMP_NEXT_SEQ]);
		}
		if (add_value(s, instance_id, sample_seq++, r->metric, r->unit, r->better, r->op,
			      r->value))
			goto out;
		prev = r;
	}
	rc = flush_values(s);
out:
	free(variants);
	free(cells);
	free(loads);
	return rc;
}

int store_import_rows(struct store *s, const struct sample_table *t, const char *run_name,
		      int64_t *run_id, char *err, size_t errsz)
{
	char now[32];
	sqlite3_stmt *st[IMP_COUNT] = {0};
	int rc = -1;

	store_now(now, sizeof(now));
	if (begin_immediate(s, err, errsz))
		return -1;
	for (int k = 0; k < IMP_COUNT; k++)
		if (sqlite3_prepare_v2(s->db, import_sql[k], -1, &st[k], NULL) != SQLITE_OK)
			goto out;
	if (store_exec_bound(s,
		       "INSERT INTO run (name, status, started_at, ended_at, schedrig_version)"
		       " VALUES (?, 'imported', ?, ?, ?)",
		       "tttt", run_name, now, now, SCHEDRIG_VERSION))
		goto out;
	*run_id = sqlite3_last_insert_rowid(s->db);
	rc = import_rows(s, st, t, *run_id);
out:
	if (rc)
		db_fail(s, err, errsz, "cannot import");
	for (int k = 0; k < IMP_COUNT; k++)
		sqlite3_finalize(st[k]);
	if (rc) {
		rollback(s);
		return -1;
	}
	return commit(s, err, errsz);
}

int store_knob_record(struct store *s, const struct stored_knob *k, int64_t *knob_id,
		      char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	if (store_exec_bound(s,
		       "INSERT INTO knob (run_id, variant, seq, kind, name, path, old_value,"
		       " requested_value, host, boot_id, changed_at)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       "Ititttttttt", k->run_id, k->variant, k->seq, k->kind, k->name, k->path,
		       k->old_value, k->requested_value, k->host, k->boot_id, now))
		return db_fail(s, err, errsz, "cannot journal a knob change");
	*knob_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_knob_applied(struct store *s, int64_t knob_id, const char *applied_value,
		       char *err, size_t errsz)
{
	if (store_exec_bound(s, "UPDATE knob SET applied_value = ? WHERE id = ?", "tI", applied_value,
		       knob_id))
		return db_fail(s, err, errsz, "cannot journal an applied knob value");
	return 0;
}

int store_knob_restored(struct store *s, int64_t knob_id, char *err, size_t errsz)
{
	char now[32];
	store_now(now, sizeof(now));
	if (store_exec_bound(s, "UPDATE knob SET restored_at = ? WHERE id = ? AND restored_at IS NULL",
		       "tI", now, knob_id))
		return db_fail(s, err, errsz, "cannot journal a restored knob");
	return 0;
}

static int knob_rows(struct store *s, const char *where_order, int64_t run_id,
		     struct stored_knob **rows, size_t *n, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	char *sql = xasprintf("SELECT id, run_id, variant, seq, kind, name, path, old_value,"
			      " requested_value, applied_value, host, boot_id, changed_at,"
			      " restored_at FROM knob %s",
			      where_order);
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	free(sql);
	*rows = NULL;
	*n = 0;
	if (rc != SQLITE_OK)
		return db_fail(s, err, errsz, "cannot read the knob journal");
	if (run_id)
		sqlite3_bind_int64(st, 1, run_id);
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap)
			*rows = xrealloc(*rows, (cap = cap ? 2 * cap : 8) * sizeof(**rows));
		(*rows)[(*n)++] = (struct stored_knob){
			.id = sqlite3_column_int64(st, 0),
			.run_id = sqlite3_column_int64(st, 1),
			.variant = store_col_strdup(st, 2),
			.seq = sqlite3_column_int(st, 3),
			.kind = store_col_strdup(st, 4),
			.name = store_col_strdup(st, 5),
			.path = store_col_strdup(st, 6),
			.old_value = store_col_strdup(st, 7),
			.requested_value = store_col_strdup(st, 8),
			.applied_value = store_col_strdup(st, 9),
			.host = store_col_strdup(st, 10),
			.boot_id = store_col_strdup(st, 11),
			.changed_at = store_col_strdup(st, 12),
			.restored_at = store_col_strdup(st, 13),
		};
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_knob_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
		return db_fail(s, err, errsz, "cannot read the knob journal");
	}
	return 0;
}

int store_knob_list(struct store *s, int64_t run_id, struct stored_knob **rows, size_t *n,
		    char *err, size_t errsz)
{
	return knob_rows(s, "WHERE run_id = ?1 ORDER BY id", run_id, rows, n, err, errsz);
}

int store_knob_unrestored(struct store *s, struct stored_knob **rows, size_t *n,
			  char *err, size_t errsz)
{
	return knob_rows(s, "WHERE restored_at IS NULL ORDER BY id DESC", 0, rows, n, err, errsz);
}

void store_knob_rows_free(struct stored_knob *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *f[] = {rows[i].variant, rows[i].kind, rows[i].name, rows[i].path,
				   rows[i].old_value, rows[i].requested_value, rows[i].applied_value,
				   rows[i].host, rows[i].boot_id, rows[i].changed_at,
				   rows[i].restored_at};
		for (size_t j = 0; j < sizeof(f) / sizeof(f[0]); j++)
			free((char *)f[j]);
	}
	free(rows);
}
