/* What the store's own files (store*.c) share and nothing else sees: the
 * SQLite handle behind a struct store and the column readers every query
 * of theirs uses. Every SQL statement of schedrig lives in a store*.c
 * file; the rest of the rig reads and writes through the typed functions
 * of store.h and the store_*.h headers. */
#ifndef SCHEDRIG_STORE_IMPL_H
#define SCHEDRIG_STORE_IMPL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The connection of s (owned by s: never closed by the caller). */
sqlite3 *store_db(struct store *s);

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

/* Every result row of sql (id bound as store_prepare_id binds it) as one element of size bytes of
 * the malloc'd array *rows (NULL when *n is 0), filled by read. 0, or -1
 * with err ("WHAT: SQLite's message"), *rows NULL and *n 0: the rows read
 * so far are released with clear (each row's own memory) first. */
int store_rows(struct store *s, const char *sql, int64_t id, size_t size, void **rows,
	       size_t *n, void (*read)(sqlite3_stmt *st, void *row), void (*clear)(void *row),
	       const char *what, char *err, size_t errsz);

/* Release n rows of size bytes at rows (from store_rows): clear on each,
 * then the array. */
void store_rows_free(void *rows, size_t n, size_t size, void (*clear)(void *row));

/* counts as n little-endian u64 (the histogram.counts format); malloc'd
 * (8·n bytes, at least 8). */
unsigned char *store_counts_le(const uint64_t *counts, size_t n);

/* v as n little-endian IEEE 754 bit patterns (the histogram.bounds
 * format); malloc'd like store_counts_le. */
unsigned char *store_doubles_le(const double *v, size_t n);

/* "WHAT: SQLite's message" into err; returns -1. */
int store_fail(struct store *s, const char *what, char *err, size_t errsz);

#endif
