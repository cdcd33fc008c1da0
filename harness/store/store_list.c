/* The runs of a results database for schedrig list (store_list.h). */
#include "store_list.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "store_impl.h"
#include "util.h"

static void read_row(sqlite3_stmt *st, void *row)
{
	struct stored_run_row *r = row;
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

static void clear_row(void *row)
{
	struct stored_run_row *r = row;
	free(r->name);
	free(r->started_at);
	free(r->kernel_release);
	free(r->status);
	free(r->host);
	free(r->boot_id);
}

int store_run_list(struct store *s, struct stored_run_row **rows, size_t *n, char *err,
		   size_t errsz)
{
	return store_rows(s,
			  "SELECT r.id, r.name, r.started_at, ifnull((SELECT group_concat(k, ',')"
			  " FROM (SELECT DISTINCT v.kernel_release AS k FROM variant v"
			  " WHERE v.run_id = r.id AND v.kernel_release IS NOT NULL ORDER BY v.seq)),"
			  " r.kernel_release),"
			  " (SELECT count(*) FROM cell c WHERE c.run_id = r.id),"
			  " r.iterations, r.status, r.host, r.boot_id, r.rig_pid, r.rig_start_ticks"
			  " FROM run r ORDER BY r.id",
			  0, sizeof(**rows), (void **)rows, n, read_row, clear_row,
			  "cannot list the runs", err, errsz);
}

void store_run_rows_free(struct stored_run_row *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_row);
}
