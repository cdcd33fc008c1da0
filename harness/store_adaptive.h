/* What run --resume needs to go on with adaptive iterations (adaptive.h):
 * the primary values of the iterations a cell has complete, read from the
 * results database (store.h). */
#ifndef SCHEDRIG_STORE_ADAPTIVE_H
#define SCHEDRIG_STORE_ADAPTIVE_H

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

#endif
