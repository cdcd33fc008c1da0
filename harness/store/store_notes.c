/* What a report says beside its tables, read from a run's iterations, load
 * instances and sample flags: cells without a complete iteration, loads
 * that yielded no sample, tool warnings on samples (store.h). */
#include "store.h"
#include "store_impl.h"
#include "store_shapes.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add_msg(char ***msgs, size_t *n, char *msg)
{
	*msgs = xrealloc(*msgs, (*n + 1) * sizeof(**msgs));
	(*msgs)[(*n)++] = msg;
}

/* The message of one row of empty_cells_sql (store_empty_cells), NULL when
 * the row needs none: its cell has a complete iteration, or its variant,
 * which has none at all, was reported already (*reported_variant). */
static char *empty_cell_msg(sqlite3_stmt *st, int64_t *reported_variant)
{
	int64_t variant = sqlite3_column_int64(st, 0);
	int recorded = sqlite3_column_int(st, 4);
	if (sqlite3_column_int(st, 5) > 0 || variant == *reported_variant)
		return NULL;
	if (sqlite3_column_int(st, 6) == 0) {
		*reported_variant = variant;
		bool failed = !strcmp(store_col_text(st, 2), "failed");
		return xasprintf("variant %s%s: no complete iteration", store_col_text(st, 1),
				 failed ? " (failed)" : "");
	}
	if (recorded == 0)
		return xasprintf("cell %s on variant %s: not run", store_col_text(st, 3),
				 store_col_text(st, 1));
	return xasprintf("cell %s on variant %s: none of %d iteration(s) complete",
			 store_col_text(st, 3), store_col_text(st, 1), recorded);
}

int store_empty_cells(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		      size_t errsz)
{
	static const char empty_cells_sql[] =
		"SELECT v.id, v.name, v.status, c.name, count(i.id),"
		" coalesce(sum(i.status = 'complete'), 0),"
		" (SELECT count(*) FROM iteration a WHERE a.variant_id = v.id"
		" AND a.status = 'complete')"
		" FROM variant v JOIN cell c ON c.run_id = v.run_id"
		" LEFT JOIN iteration i ON i.variant_id = v.id AND i.cell_id = c.id"
		" WHERE v.run_id = ?1 GROUP BY v.id, c.id ORDER BY v.seq, c.seq";
	int64_t reported_variant = 0;
	int rc = SQLITE_ERROR;

	*msgs = NULL;
	*n = 0;
	sqlite3_stmt *st = store_prepare_id(s, empty_cells_sql, run_id, "cannot read iterations",
					    err, errsz);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *msg = empty_cell_msg(st, &reported_variant);
		if (msg)
			add_msg(msgs, n, msg);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot read iterations", err, errsz);
}

int store_silent_loads(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		       size_t errsz)
{
	return store_rows(s, &silent_load_shape, run_id, (void **)msgs, n, err, errsz);
}

int store_flag_notes(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		     size_t errsz)
{
	return store_rows(s, &flag_note_shape, run_id, (void **)msgs, n, err, errsz);
}
