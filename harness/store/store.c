/* The results database itself: open, schema and its migration from older
 * versions, transactions, errors and the helpers every store_*.c file
 * shares (store_impl.h). Schema: results-schema/schema.sql. */
#include "store.h"
#include "store_impl.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strmap.h"
#include "util.h"

/* Version 10 added the table kernel_build, 11 the bisection tables (schema.sql
 * creates them); the number is STORE_SCHEMA_VERSION (store.h). */
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

/* Columns later versions added to older tables: version 6 to run (some
 * version 5 databases have the first two), version 7 to histogram (a
 * table of version 4 and later), versions 12 and 13 to the bisection
 * tables (of version 11). */
static const char *const added_columns[][4] = {
	/* table, column, type, the version that made the table */
	{"run", "rig_pid", "INTEGER", "1"},
	{"run", "boot_id", "TEXT", "1"},
	{"run", "rig_start_ticks", "INTEGER", "1"},
	{"histogram", "bounds", "BLOB", "4"},
	{"histogram", "min_observed", "REAL", "4"},
	{"histogram", "sum_value", "REAL", "4"},
	{"histogram", "sum_sq_value", "REAL", "4"},
	{"bisection", "cwd", "TEXT", "11"},
	{"bisection", "host", "TEXT", "11"},
	{"bisection", "rig_pid", "INTEGER", "11"},
	{"bisection", "rig_start_ticks", "INTEGER", "11"},
	{"bisection", "boot_id", "TEXT", "11"},
	/* version 13 */
	{"bisection", "rule", "TEXT", "11"},
	{"bisection", "min_effect_pct", "REAL", "11"},
	{"bisect_point", "look", "INTEGER", "11"},
	{"bisect_point", "alpha", "REAL", "11"},
	{"bisect_run", "phase", "TEXT", "11"},
	/* version 14 */
	{"track_change", "outcome", "TEXT", "13"},
	{"track_change", "attempts", "INTEGER NOT NULL DEFAULT 0", "13"},
};



/* BEGIN IMMEDIATE, retried with backoff while another writer holds the lock
 * longer than the busy timeout. */
int store_begin(struct store *s, char *err, size_t errsz)
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
	return store_fail(s, "cannot start a transaction", err, errsz);
}

/* Sample keys added and rows queued in a transaction that is rolled back
 * are gone from the database: drop them here too. */
static void forget_transaction(struct store *s)
{
	strmap_free(&s->key_ids);
	s->n_pending = 0;
}

void store_rollback(struct store *s)
{
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	forget_transaction(s);
}

int store_commit(struct store *s, char *err, size_t errsz)
{
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	store_fail(s, "cannot commit", err, errsz);
	store_rollback(s);
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
 * has the table of but lacks (a table it lacks, as a version 11 database
 * may lack bisect_point, the schema makes with every column). */
static int add_columns(struct store *s, int v, char **msg)
{
	for (size_t i = 0; i < sizeof(added_columns) / sizeof(added_columns[0]); i++) {
		const char *const *c = added_columns[i];
		if (v < atoi(c[3]))
			continue;
		sqlite3_stmt *st;
		char *q = xasprintf("SELECT count(*), count(nullif(name = ?, 0)) FROM"
				    " pragma_table_info('%s')", c[0]);
		int rc = sqlite3_prepare_v2(s->db, q, -1, &st, NULL);
		free(q);
		if (rc != SQLITE_OK)
			return -1;
		sqlite3_bind_text(st, 1, c[1], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		bool skip = rc != SQLITE_ROW || sqlite3_column_int(st, 0) == 0 ||
			    sqlite3_column_int(st, 1) > 0;
		sqlite3_finalize(st);
		if (rc != SQLITE_ROW)
			return -1;
		if (skip)
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

/* A writer's refusals, checked by reading only, before anything writes
 * (the switch to WAL mode rewrites header bytes 18-19): a refused file
 * stays byte for byte as it was. 0, or -1 with err. */
static int refuse_to_write(struct store *s, const char *path, char *err, size_t errsz)
{
	int v;
	if (user_version(s, &v))
		return store_fail(s, path, err, errsz);
	if (v > STORE_SCHEMA_VERSION)
		return err_printf(err, errsz, "%s: schema version %d is newer than this schedrig's (%d)",
			    path, v, STORE_SCHEMA_VERSION);
	if (v == 0 && has_tables(s))
		return err_printf(err, errsz, "%s: an SQLite database that is not a schedrig results"
			    " database (it has tables but no schedrig schema version); not writing"
			    " into it", path);
	return 0;
}

static int migrate(struct store *s, const char *path, char *err, size_t errsz)
{
	int v;
	if (store_begin(s, err, errsz))
		return -1;
	if (user_version(s, &v)) {
		store_rollback(s);
		return store_fail(s, path, err, errsz);
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
			store_rollback(s);
			return -1;
		}
		char pragma[64];
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
		if (sqlite3_exec(s->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
			store_rollback(s);
			return store_fail(s, path, err, errsz);
		}
	}
	return store_commit(s, err, errsz);
}

/* The advice every message about a damaged database ends with. */
static int damaged(const char *path, const char *why, char *err, size_t errsz)
{
	return err_printf(err, errsz, "%s: the results database is damaged (SQLite: %s). Keep a"
			  " copy, then save what SQLite can still read into a new file: sqlite3 %s"
			  " .recover | sqlite3 NEW.db", path, why, path);
}

/* Every page and b-tree of the file checked (PRAGMA quick_check: what
 * integrity_check checks but the match of indexes with their tables, at
 * half its cost: 0.13 s for 1 000 000 samples here). A damaged page would
 * otherwise read as rows that are not there or not at all ("no run yet").
 * 0, or -1 with err (damaged: SQLite's first complaint, the file and what
 * to do; not readable at all: SQLite's message and errno). */
static int check_pages(struct store *s, const char *path, bool readonly, char *err,
		       size_t errsz)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && !strcmp(store_col_text(st, 0), "ok")) {
		sqlite3_finalize(st);
		return 0;
	}
	int code = sqlite3_errcode(s->db) & 0xff, e = sqlite3_system_errno(s->db);
	if (rc == SQLITE_ROW) {
		/* "*** in database main ***\nOn tree page 2 ...": the complaint. */
		const char *why = store_col_text(st, 0);
		const char *nl = strncmp(why, "***", 3) ? NULL : strchr(why, '\n');
		damaged(path, nl ? nl + 1 : why, err, errsz);
	}
	else if (code == SQLITE_CORRUPT)
		damaged(path, sqlite3_errmsg(s->db), err, errsz);
	else if (readonly)
		/* Not SQLite, or (a WAL database in a directory this user
		 * cannot write) its -shm file cannot be made. */
		err_printf(err, errsz, "%s: cannot read it: %s%s%s", path, sqlite3_errmsg(s->db),
			   e ? ": " : "", e ? strerror(e) : "");
	else
		store_fail(s, path, err, errsz);
	sqlite3_finalize(st);
	return -1;
}

/* Can this user write the file and its directory (what SQLite needs to
 * make the -shm and -wal files of a WAL-mode database)? */
static bool file_and_dir_writable(const char *path)
{
	char *dir = xstrdup(path);
	bool ok = access(path, W_OK) == 0 && access(dirname(dir), W_OK) == 0;
	free(dir);
	return ok;
}

/* Is the database file at rest in WAL mode (its header's read and write
 * versions, bytes 18 and 19, are 2: sqlite.org/fileformat.html 1.3.5)? */
static bool wal_at_rest(const char *path)
{
	unsigned char h[20];
	FILE *f = fopen(path, "rb");
	bool wal = f && fread(h, 1, sizeof(h), f) == sizeof(h) && h[18] == 2 && h[19] == 2;
	if (f)
		fclose(f);
	return wal;
}

/* The database out of WAL mode, when this is its only connection: WAL is
 * for a writer's life (readers beside a run); at rest the file is in
 * rollback mode, so that a reader's read-only connection makes no -wal and
 * -shm files (a reader of a WAL database makes them and cannot remove
 * them). Busy (another connection): it stays in WAL mode; the last one
 * switches. */
static void leave_wal(sqlite3 *db)
{
	sqlite3_busy_timeout(db, 0);
	sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
}

/* A reader's open of a database a writer left in WAL mode (schedrig
 * before version 0.1.0's read-only fix, or a writer that closed beside
 * another connection): switched to rollback mode first, as that writer
 * would have, so the read-only open that follows leaves no files behind.
 * Nothing but the journal mode changes; failing (a read-only file,
 * another connection), it stays as it was. */
static void reader_leave_wal(const char *path)
{
	sqlite3 *db = NULL;
	/* Not writable: SQLite would open it read-only and make -shm/-wal. */
	if (!wal_at_rest(path) || !file_and_dir_writable(path))
		return;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) ==
	    SQLITE_OK)
		leave_wal(db);
	sqlite3_close(db);
}

/* Does a non-empty -wal file lie beside path (committed pages not yet in
 * the database file)? */
static bool wal_has_pages(const char *path)
{
	char *wal = xasprintf("%s-wal", path);
	struct stat st;
	bool pages = stat(wal, &st) == 0 && st.st_size > 0;
	free(wal);
	return pages;
}

/* "file:PATH?immutable=1", PATH percent-encoded but for unreserved bytes
 * and '/' (sqlite.org/uri.html). */
static char *immutable_uri(const char *path)
{
	struct buf b = {0};
	buf_puts(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/-._~", *p))
			buf_append(&b, (const char *)p, 1);
		else
			buf_printf(&b, "%%%02X", *p);
	}
	buf_puts(&b, "?immutable=1");
	return b.data;
}

/* How a reader opens path: a WAL-mode database that stayed in WAL mode
 * (reader_leave_wal could not switch it: the file or its directory is not
 * this user's to write) would make -shm/-wal files beside it, or fail in
 * a read-only directory ("attempt to write a readonly database"). Such a
 * file is opened immutable: no lock, no -shm, the -wal ignored. That is
 * safe only while nothing writes the file: this user cannot (no write
 * permission), and a writer that can leaves the file in rollback mode when
 * it closes; a writer running now (its -wal holds pages) is not read past:
 * then 1, with err saying what to do. 0 with *uri (NULL: open path as it
 * is) otherwise. */
static int reader_uri(const char *path, char **uri, char *err, size_t errsz)
{
	*uri = NULL;
	if (!wal_at_rest(path) || file_and_dir_writable(path))
		return 0;
	if (wal_has_pages(path))
		return err_printf(err, errsz, "%s: cannot read it: a database in WAL mode that another"
				  " connection is writing, in a file or directory this user cannot write;"
				  " read it when that writer is done, or as a user who can write it", path);
	*uri = immutable_uri(path);
	return 0;
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
	char *uri = NULL;
	if (readonly) {
		reader_leave_wal(path);
		if (reader_uri(path, &uri, err, errsz)) {
			free(s);
			return -1;
		}
		if (uri)
			flags |= SQLITE_OPEN_URI;
	}
	int open_rc = sqlite3_open_v2(uri ? uri : path, &s->db, flags, NULL);
	free(uri);
	if (open_rc != SQLITE_OK) {
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
	if (check_pages(s, path, readonly, err, errsz))
		goto out_fail;
	s->path = xstrdup(path);
	s->writer = !readonly;
	if (!readonly) {
		if (refuse_to_write(s, path, err, errsz))
			goto out_fail;
		if (sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) != SQLITE_OK) {
			store_fail(s, path, err, errsz);
			goto out_fail;
		}
		sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
		if (migrate(s, path, err, errsz))
			goto out_fail;
	} else {
		int v;
		if (user_version(s, &v)) {
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
			free(s->path);
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
	free(s->path);
	free(s);
	return -1;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (int k = 0; k < SAVE_COUNT; k++)
		sqlite3_finalize(s->save_st[k]);
	if (s->writer)
		leave_wal(s->db);
	sqlite3_close(s->db);
	free(s->path);
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
		store_fail(s, what, err, errsz);
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
		store_fail(s, what, err, errsz);
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
	if ((sqlite3_errcode(s->db) & 0xff) == SQLITE_CORRUPT && s->path) {
		char why[512];
		snprintf(why, sizeof(why), "%s: %s", what, sqlite3_errmsg(s->db));
		return damaged(s->path, why, err, errsz);
	}
	return err_printf(err, errsz, "%s: %s", what, sqlite3_errmsg(s->db));
}

int store_bind_step(sqlite3_stmt *st, const char *spec, va_list ap)
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
	int rc = store_bind_step(st, spec, ap);
	va_end(ap);
	sqlite3_finalize(st);
	return rc;
}
