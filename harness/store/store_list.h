/* What schedrig list reads from a results database (store.h): one row per
 * run, typed, so the command holds no SQL. */
#ifndef SCHEDRIG_STORE_LIST_H
#define SCHEDRIG_STORE_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* One run. Text fields are NULL where the column is NULL; iterations is -1
 * where it is NULL (an imported run may have none). kernel_release: the
 * kernels its variants ran ("6.1.0-28-amd64,6.12.48+deb12-amd64", each once,
 * config order), the rig's own when no variant's kernel came up. */
struct stored_run_row {
	int64_t id;
	char *name, *started_at, *kernel_release;
	int64_t n_cells;        /* cells of the run's plan */
	int64_t iterations;     /* as configured (run --iterations), or -1 */
	char *status, *host, *boot_id; /* as stored: provenance_run_status reads them */
	int64_t rig_pid, rig_start_ticks;
};

/* Every run, in id order. *rows is malloc'd (NULL when *n is 0); free it
 * with store_run_rows_free. 0, or -1 with err. */
int store_run_list(struct store *s, struct stored_run_row **rows, size_t *n, char *err,
		   size_t errsz);
void store_run_rows_free(struct stored_run_row *rows, size_t n);

#endif
