/* Reading the trace rows of a run (store_trace.h). */
#include "store_trace.h"
#include "store_impl.h"

#include <sqlite3.h>
#include <stddef.h>
#include <string.h>

#include "util.h"

static const struct store_row_shape trace_shape = {
	"SELECT t.id, v.name, c.name, i.iteration, i.status, t.path, t.events,"
	" t.buffer_kb, t.window_start_ns, t.window_end_ns, t.bytes, t.lines,"
	" t.lost_events, t.warning FROM trace t"
	" JOIN iteration i ON i.id = t.iteration_id"
	" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
	" WHERE v.run_id = ?1 ORDER BY v.seq, c.seq, i.iteration",
	"cannot read the traces", sizeof(struct stored_trace), NULL, {
	{STORE_INT64, offsetof(struct stored_trace, id)},
	{STORE_TEXT, offsetof(struct stored_trace, variant)},
	{STORE_TEXT, offsetof(struct stored_trace, cell)},
	{STORE_INT, offsetof(struct stored_trace, iteration)},
	{STORE_TEXT, offsetof(struct stored_trace, status)},
	{STORE_TEXT, offsetof(struct stored_trace, path)},
	{STORE_TEXT, offsetof(struct stored_trace, events)},
	{STORE_INT, offsetof(struct stored_trace, buffer_kb)},
	{STORE_INT64, offsetof(struct stored_trace, window_start_ns)},
	{STORE_INT64, offsetof(struct stored_trace, window_end_ns)},
	{STORE_INT64, offsetof(struct stored_trace, bytes)},
	{STORE_INT64, offsetof(struct stored_trace, lines)},
	{STORE_INT64, offsetof(struct stored_trace, lost)},
	{STORE_TEXT, offsetof(struct stored_trace, warning)},
}};

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
	int rc = store_rows(s, &trace_shape, run_id, (void **)rows, n, err, errsz);
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
	store_rows_free(&trace_shape, rows, n);
}

void store_trace_row_clear(struct stored_trace *row)
{
	store_row_clear(&trace_shape, row);
}
