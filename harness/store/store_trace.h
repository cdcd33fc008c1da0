/* The traces of a run (table trace, schema version 13): one row per
 * traced iteration, read for schedrig trace and plot. Written with the
 * iteration (store.h store_iteration_trace). */
#ifndef SCHEDRIG_STORE_TRACE_H
#define SCHEDRIG_STORE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* One trace row with its variant, cell and iteration; strings owned. */
struct stored_trace {
	int64_t id;
	char *variant, *cell;
	int iteration;
	char *status;              /* the iteration's: complete|failed|interrupted */
	char *path;                /* gzip file, relative to the database's directory */
	char *events;
	int buffer_kb;
	int64_t window_start_ns, window_end_ns;
	int64_t bytes, lines, lost;
	char *warning;             /* NULL: none */
};

/* The traces of run run_id in config order (variant, cell, iteration).
 * *rows is malloc'd (NULL when *n is 0). Nothing read is trusted: a row
 * whose numbers are negative, whose window ends before it starts or whose
 * path is absolute or climbs out (..) is an error naming its id. */
int store_trace_list(struct store *s, int64_t run_id, struct stored_trace **rows, size_t *n,
		     char *err, size_t errsz);
void store_trace_rows_free(struct stored_trace *rows, size_t n);
/* Free the strings of one row (of rows whose array the caller frees). */
void store_trace_row_clear(struct stored_trace *row);

#endif
