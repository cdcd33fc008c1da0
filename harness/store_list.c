/* The runs of a results database for schedrig list (store_list.h). */
#include "store_list.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_impl.h"
#include "util.h"

static void read_row(sqlite3_stmt *st, struct stored_run_row *r)
{
	r->id = sqlite3_column_int64(st, 0);
	r->name = store_col_strdup(st, 1);
	r->started_at = store_col_strdup(st, 2);
	r->kernel_release = store_col_strdup(st, 3);
	r->n_cells = sqlite3_column_int64(st, 4);
	r->iterations = store_col_int_or(st, 5);
	r->status = store_col_strdup(st, 6);
	r->host = store_col_strdup(st, 7);
	r->boot_id = store_col_strdup(st, 8);
	r->rig_pid = sqlite3_column_int64(st, 9);
	r->rig_start_ticks = sqlite3_column_int64(st, 10);
}

int store_run_list(struct store *s, struct stored_run_row **rows, size_t *n, char *err,
		   size_t errsz)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	size_t cap = 0;

	*rows = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT r.id, r.name, r.started_at, r.kernel_release,"
			       " (SELECT count(*) FROM cell c WHERE c.run_id = r.id),"
			       " r.iterations, r.status, r.host, r.boot_id, r.rig_pid, r.rig_start_ticks"
			       " FROM run r ORDER BY r.id",
			       -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errsz, "%s", sqlite3_errmsg(db));
		return -1;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*rows = xrealloc(*rows, cap * sizeof(**rows));
		}
		read_row(st, &(*rows)[(*n)++]);
	}
	sqlite3_finalize(st);
	return 0;
}

void store_run_rows_free(struct stored_run_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].name);
		free(rows[i].started_at);
		free(rows[i].kernel_release);
		free(rows[i].status);
		free(rows[i].host);
		free(rows[i].boot_id);
	}
	free(rows);
}
