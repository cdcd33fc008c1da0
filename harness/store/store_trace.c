/* Reading the trace rows of a run (store_trace.h). */
#include "store_trace.h"
#include "store_impl.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void read_trace(sqlite3_stmt *st, void *row)
{
	*(struct stored_trace *)row = (struct stored_trace){
		.id = sqlite3_column_int64(st, 0),
		.variant = store_col_strdup(st, 1),
		.cell = store_col_strdup(st, 2),
		.iteration = sqlite3_column_int(st, 3),
		.status = store_col_strdup(st, 4),
		.path = store_col_strdup(st, 5),
		.events = store_col_strdup(st, 6),
		.buffer_kb = sqlite3_column_int(st, 7),
		.window_start_ns = sqlite3_column_int64(st, 8),
		.window_end_ns = sqlite3_column_int64(st, 9),
		.bytes = sqlite3_column_int64(st, 10),
		.lines = sqlite3_column_int64(st, 11),
		.lost = sqlite3_column_int64(st, 12),
		.warning = store_col_strdup(st, 13),
	};
}

static void clear_trace(void *row)
{
	struct stored_trace *t = row;
	free(t->variant);
	free(t->cell);
	free(t->status);
	free(t->path);
	free(t->events);
	free(t->warning);
}

/* Is the row one the rig could have written? */
static bool trace_row_ok(const struct stored_trace *t)
{
	return t->variant && t->cell && t->path && t->events && t->path[0] && t->path[0] != '/' &&
	       !strstr(t->path, "..") && t->iteration > 0 && t->buffer_kb > 0 &&
	       t->window_start_ns >= 0 && t->window_end_ns >= t->window_start_ns && t->bytes >= 0 &&
	       t->lines >= 0 && t->lost >= 0;
}

int store_trace_list(struct store *s, int64_t run_id, struct stored_trace **rows, size_t *n,
		     char *err, size_t errsz)
{
	int rc = store_rows(s,
			    "SELECT t.id, v.name, c.name, i.iteration, i.status, t.path, t.events,"
			    " t.buffer_kb, t.window_start_ns, t.window_end_ns, t.bytes, t.lines,"
			    " t.lost_events, t.warning FROM trace t"
			    " JOIN iteration i ON i.id = t.iteration_id"
			    " JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
			    " WHERE v.run_id = ?1 ORDER BY v.seq, c.seq, i.iteration",
			    run_id, sizeof(**rows), (void **)rows, n, read_trace, clear_trace,
			    "cannot read the traces", err, errsz);
	for (size_t i = 0; !rc && i < *n; i++) {
		if (trace_row_ok(&(*rows)[i]))
			continue;
		err_printf(err, errsz, "trace row %lld of run %lld is not one the rig writes",
			   (long long)(*rows)[i].id, (long long)run_id);
		store_trace_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
		return -1;
	}
	return rc;
}

void store_trace_rows_free(struct stored_trace *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_trace);
}

void store_trace_row_clear(struct stored_trace *row)
{
	clear_trace(row);
	memset(row, 0, sizeof(*row));
}
