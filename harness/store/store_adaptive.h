/* Adaptive iterations in the results database (store.h): which cells
 * stopped (table cell_stop, with the note that says why) and what run
 * --resume needs to go on with the others: the primary values of the
 * iterations a cell has complete. */
#ifndef SCHEDRIG_STORE_ADAPTIVE_H
#define SCHEDRIG_STORE_ADAPTIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The complete iterations of cell cell_id on the variant named variant of
 * run run_id, in iteration order: for each, the mean of the samples of
 * metric from every instance (all repetitions) of the load named load, NaN
 * samples (stored as NULL) left out, NaN when there are none — as
 * adaptive_primary_value computed it when the iteration ran. *values is
 * malloc'd (NULL when *n is 0). *spent_s receives the seconds those
 * iterations ran: the sum, over them, of their instances' last end minus
 * first start (CLOCK_MONOTONIC ns of one iteration). 0, or -1 with err. */
int store_adaptive_values(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
			  const char *load, const char *metric, double **values, size_t *n,
			  double *spent_s, char *err, size_t errsz);

/* Record that cell cell_id of the variant named variant of run run_id
 * stopped: message (e.g. "variant V cell C: 3 iteration(s), CI 0.8 % <=
 * 1 %") as its "iterations" event and the cell_stop row naming it, in one
 * transaction. 0, or -1 with err (nothing written; also when the run has
 * no such variant). */
int store_cell_stop(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
		    const char *message, char *err, size_t errsz);

/* Whether that cell has stopped (store_cell_stop) into *stopped. 0, or -1
 * with err. */
int store_cell_stopped(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
		       bool *stopped, char *err, size_t errsz);

#endif
