/* Result rows read into row structs by a table of columns (store_impl.h:
 * store_rows, store_row_read): one reader for every row of the store. */
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Column i of st read as kind c->kind into its field of row. The field is
 * written with memcpy: a const char * or long long field takes the same
 * bytes as a char * or int64_t. Each kind asks SQLite for one type only. */
static void read_col(const struct store_col *c, sqlite3_stmt *st, int i, void *row)
{
	_Static_assert(sizeof(long long) == sizeof(int64_t), "STORE_INT64 fills long long too");
	void *field = (char *)row + c->offset;
	enum store_col_kind k = c->kind;
	if (k == STORE_INT64 || k == STORE_INT64_OR) {
		int64_t v = k == STORE_INT64_OR ? store_col_int_or(st, i) : sqlite3_column_int64(st, i);
		memcpy(field, &v, sizeof(v));
	} else if (k == STORE_INT) {
		int v = sqlite3_column_int(st, i);
		memcpy(field, &v, sizeof(v));
	} else if (k == STORE_BOOL) {
		bool v = sqlite3_column_int(st, i) != 0;
		memcpy(field, &v, sizeof(v));
	} else if (k == STORE_REAL || k == STORE_REAL_OR_0) {
		double v = k == STORE_REAL ? store_col_real(st, i) : sqlite3_column_double(st, i);
		memcpy(field, &v, sizeof(v));
	} else if (k == STORE_TEXT || k == STORE_TEXT_OR_EMPTY) {
		char *v = store_col_strdup(st, i);
		if (!v && k == STORE_TEXT_OR_EMPTY)
			v = xstrdup("");
		memcpy(field, &v, sizeof(v));
	}
}

void store_row_read(const struct store_row_shape *shape, sqlite3_stmt *st, void *row)
{
	memset(row, 0, shape->size);
	for (int i = 0; i < STORE_MAX_COLS && shape->cols[i].kind != STORE_END; i++)
		read_col(&shape->cols[i], st, i, row);
	if (shape->finish)
		shape->finish(st, row);
}

void store_row_clear(const struct store_row_shape *shape, void *row)
{
	for (int i = 0; i < STORE_MAX_COLS && shape->cols[i].kind != STORE_END; i++) {
		const struct store_col *c = &shape->cols[i];
		char *col_text;
		if (c->kind != STORE_TEXT && c->kind != STORE_TEXT_OR_EMPTY)
			continue;
		memcpy(&col_text, (char *)row + c->offset, sizeof(col_text));
		free(col_text);
	}
	memset(row, 0, shape->size);
}

int store_row_get(struct store *s, const struct store_row_shape *shape, int64_t id, void *row,
		  char *err, size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(s, shape->sql, id, shape->what, err, errsz);
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		store_row_read(shape, st, row);
	else if (rc != SQLITE_DONE)
		store_fail(s, shape->what, err, errsz);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

int store_rows_stmt(struct store *s, sqlite3_stmt *st, const struct store_row_shape *shape,
		    void **rows, size_t *n, char *err, size_t errsz)
{
	size_t cap = 0;
	int rc = SQLITE_ERROR;
	*rows = NULL;
	*n = 0;
	while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap)
			*rows = xrealloc(*rows, (cap = cap ? 2 * cap : 8) * shape->size);
		store_row_read(shape, st, (char *)*rows + (*n)++ * shape->size);
	}
	if (st && rc != SQLITE_DONE)
		store_fail(s, shape->what, err, errsz);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	store_rows_free(shape, *rows, *n);
	*rows = NULL;
	*n = 0;
	return -1;
}

int store_rows(struct store *s, const struct store_row_shape *shape, int64_t id, void **rows,
	       size_t *n, char *err, size_t errsz)
{
	return store_rows_stmt(s, store_prepare_id(s, shape->sql, id, shape->what, err, errsz),
			       shape, rows, n, err, errsz);
}

void store_rows_free(const struct store_row_shape *shape, void *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_row_clear(shape, (char *)rows + i * shape->size);
	free(rows);
}
