/* What the store's own files (store*.c) share and nothing else sees: the
 * handle behind a struct store (the SQLite connection and the statements,
 * sample key cache and queued sample rows of storing iterations), the
 * column readers and statement helpers every query of theirs uses. Every
 * SQL statement of schedrig lives in a store*.c file; the rest of the rig
 * reads and writes through the typed functions of store.h and the
 * store_*.h headers. */
#ifndef SCHEDRIG_STORE_IMPL_H
#define SCHEDRIG_STORE_IMPL_H

#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "strmap.h"

/* Statements of store_iteration_save, prepared on first use and kept until
 * store_close: preparing them per iteration cost more than storing 100
 * samples (bench/ingest.c). */
enum save_stmt {
	SAVE_FIND_INCOMPLETE, SAVE_DROP_SAMPLES, SAVE_DROP_FLAGS, SAVE_DROP_HISTOGRAMS,
	SAVE_DROP_WINDOW, SAVE_DROP_RAW, SAVE_DROP_TRACE, SAVE_DROP_INSTANCES, SAVE_DROP_SERIES,
	SAVE_DROP_ITERATION, SAVE_ITERATION, SAVE_INSTANCE, SAVE_RAW, SAVE_KEY_ADD, SAVE_KEY_ID,
	SAVE_VALUE, SAVE_VALUES, SAVE_FLAG, SAVE_HISTOGRAM, SAVE_SERIES, SAVE_WINDOW, SAVE_TRACE,
	SAVE_COUNT
};

/* Rows of sample_value per multi-row INSERT: one statement step for 64
 * rows stores 1.5 times as many samples per second as 64 steps
 * (bench/ingest.c); 64 × 4 parameters stay far below SQLite's limit. */
#define VALUES_PER_INSERT 64

/* One sample_value row waiting for its multi-row INSERT. */
struct pending_value {
	int64_t instance_id, seq, key_id;
	double value;
};

struct store {
	sqlite3 *db;
	char *path;  /* the file, for messages */
	bool writer; /* opened to write: leaves WAL mode when it closes last */
	const struct stored_series_set *series; /* for the next iteration save */
	const struct stored_trace_row *trace;   /* for the next iteration save */
	sqlite3_stmt *save_st[SAVE_COUNT];     /* prepared on first use */
	/* "metric\x1funit\x1fbetter\x1fop" -> sample_key.id, of committed or
	 * current-transaction rows; emptied by a rollback. */
	struct strmap key_ids;
	char *key_buf;
	size_t key_cap;
	struct pending_value pending[VALUES_PER_INSERT];
	size_t n_pending;
};

/* The connection of s (owned by s: never closed by the caller). */
sqlite3 *store_db(struct store *s);

/* Column col of st's current row as text, "" for NULL (valid until the
 * statement steps or is reset). Inline: the sample readers call it per row. */
static inline const char *store_col_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (const char *)t : "";
}

/* Column col of st's current row as a malloc'd string, NULL for NULL. */
char *store_col_strdup(sqlite3_stmt *st, int col);

/* Column col of st's current row as a double, NaN for NULL. */
double store_col_real(sqlite3_stmt *st, int col);

/* Column col of st's current row as an integer, -1 for NULL. */
int64_t store_col_int_or(sqlite3_stmt *st, int col);

/* sql prepared, with id bound to ?1 when sql has parameters; NULL, with
 * err ("WHAT: SQLite's message"), when it cannot be. */
sqlite3_stmt *store_prepare_id(struct store *s, const char *sql, int64_t id, const char *what,
			       char *err, size_t errsz);

/* What a result column is read as, and the type of the row struct's field
 * it goes to (store_rows). */
enum store_col_kind {
	STORE_END,           /* after the last column of a shape (its zeroed rest) */
	STORE_INT64,         /* int64_t (or long long: the same 64 bits); NULL reads 0 */
	STORE_INT64_OR,      /* int64_t; NULL reads -1 */
	STORE_INT,           /* int; NULL reads 0 */
	STORE_BOOL,          /* bool: the column is not 0; NULL reads false */
	STORE_REAL,          /* double; NULL reads NaN */
	STORE_REAL_OR_0,     /* double; NULL reads 0 */
	STORE_TEXT,          /* char * (or const char *), malloc'd; NULL reads NULL */
	STORE_TEXT_OR_EMPTY, /* as STORE_TEXT, but NULL reads "" */
};

/* One column of a row shape: its kind and where its field is
 * (offsetof(struct ROW, FIELD)). */
struct store_col {
	enum store_col_kind kind;
	size_t offset;
};

/* The most columns a row shape reads. */
#define STORE_MAX_COLS 32

/* A query whose rows are row structs: sql, its SELECT (id bound to ?1 by
 * store_rows and store_row_get when it has parameters); what, the start of
 * its error message ("cannot read ..."); size bytes a row (sizeof(struct
 * ROW)); cols[i] is result column i, up to the first STORE_END. finish,
 * when not NULL, runs after the columns are read, for what a column kind
 * cannot say (text parsed into an enum); it may read the columns after the
 * last of cols, and must own no memory of its own (store_row_clear frees
 * only the text columns). */
struct store_row_shape {
	const char *sql;
	const char *what;
	size_t size;
	void (*finish)(sqlite3_stmt *st, void *row);
	struct store_col cols[STORE_MAX_COLS];
};

/* st's current row into row (shape->size bytes, zeroed first): each column
 * of shape, then shape->finish. */
void store_row_read(const struct store_row_shape *shape, sqlite3_stmt *st, void *row);

/* Free row's text columns (those store_row_read set) and zero it. */
void store_row_clear(const struct store_row_shape *shape, void *row);

/* The first result row of shape->sql (id bound as in store_rows) into row:
 * 0; 1 when there is none (row and err untouched: the caller says what is
 * missing); -1 with err ("WHAT: SQLite's message"). */
int store_row_get(struct store *s, const struct store_row_shape *shape, int64_t id, void *row,
		  char *err, size_t errsz);

/* Every result row of shape->sql (id bound as store_prepare_id binds it)
 * as one element (shape->size bytes, read by store_row_read) of the
 * malloc'd array *rows (NULL when *n is 0). 0, or -1 with err ("WHAT:
 * SQLite's message"), *rows NULL and *n 0 (the rows read so far
 * released). */
int store_rows(struct store *s, const struct store_row_shape *shape, int64_t id, void **rows,
	       size_t *n, char *err, size_t errsz);

/* store_rows of a statement the caller prepared and bound (its own SQL or
 * shape->sql; stepped and finalized here). st NULL (its prepare failed and
 * said why in err): -1, *rows NULL and *n 0. */
int store_rows_stmt(struct store *s, sqlite3_stmt *st, const struct store_row_shape *shape,
		    void **rows, size_t *n, char *err, size_t errsz);

/* Release n rows of shape at rows (from store_rows): store_row_clear on
 * each, then the array. */
void store_rows_free(const struct store_row_shape *shape, void *rows, size_t n);

/* counts as n little-endian u64 (the histogram.counts format); malloc'd
 * (8·n bytes, at least 8). */
unsigned char *store_counts_le(const uint64_t *counts, size_t n);

/* v as n little-endian IEEE 754 bit patterns (the histogram.bounds
 * format); malloc'd like store_counts_le. */
unsigned char *store_doubles_le(const double *v, size_t n);

/* Prepare sql, bind one argument per letter of spec (t text, NULL binds
 * NULL; i int; I int64_t; d double, NaN binds NULL; b blob: pointer, then
 * size_t length), step it once and finalize it. 0 (a row or done), or -1:
 * store_fail says why. */
int store_exec_bound(struct store *s, const char *sql, const char *spec, ...);

/* store_exec_bound, and on failure store_fail(s, what, err, errsz): 0, or
 * -1 with err ("WHAT: SQLite's message"). */
int store_write(struct store *s, const char *what, char *err, size_t errsz, const char *sql,
		const char *spec, ...);

/* The row id of table (bisection or track_follow: a job one rig process
 * owns while it runs) claimed by rig on host: status running, result and
 * ended_at NULL. 0, or -1 with err ("WHAT: SQLite's message"). */
int store_job_claim(struct store *s, const char *table, int64_t id, const char *host,
		    const struct rig_id *rig, const char *what, char *err, size_t errsz);

/* The load, metric, op and cell the job of row id of table measures. 0, or
 * -1 with err as store_job_claim. */
int store_job_choice(struct store *s, const char *table, int64_t id, const char *load,
		     const char *metric, const char *op, const char *cell, const char *what,
		     char *err, size_t errsz);

/* The end of the job of row id of table: its status and result (NULL
 * allowed), ended_at now (UTC). 0, or -1 with err as store_job_claim. */
int store_job_end(struct store *s, const char *table, int64_t id, const char *status,
		  const char *result, const char *what, char *err, size_t errsz);

/* "WHAT: SQLite's message" into err; returns -1. When SQLite found the
 * file damaged (SQLITE_CORRUPT), the message says so, names the file and
 * how to recover it, as store_open does. */
int store_fail(struct store *s, const char *what, char *err, size_t errsz);

/* Bind the arguments ap to st by the types in spec and step st once. spec:
 * one letter per argument: t text (NULL allowed), i int, I int64, d double
 * (NaN → NULL), b blob (pointer, size_t length). 0 when the step gave a
 * row or was done, else -1 (sqlite3_errmsg says why). */
int store_bind_step(sqlite3_stmt *st, const char *spec, va_list ap);

/* Queue one sample (sample_key found or added for metric, unit, better,
 * op) for table sample_value, written VALUES_PER_INSERT rows per INSERT;
 * store_values_flush writes the rest. Inside a transaction. 0, or -1. */
int store_value_add(struct store *s, int64_t instance_id, int64_t seq, const char *metric,
		    const char *unit, enum better better, const char *op, double value);

/* The sample_key id of (metric, unit, better, op) into *id: from the
 * store's cache, else added to sample_key (another writer may have added
 * it first) and cached. Inside a transaction. 0, or -1. */
int store_sample_key_id(struct store *s, const char *metric, const char *unit,
			enum better better, const char *op, int64_t *id);

/* store_value_add of a sample whose key id the caller has
 * (store_sample_key_id). 0, or -1. */
int store_value_add_key(struct store *s, int64_t instance_id, int64_t seq, int64_t key_id,
			double value);

/* Write the queued sample_value rows (before anything reads the table or
 * the transaction ends). 0, or -1. */
int store_values_flush(struct store *s);

#endif
