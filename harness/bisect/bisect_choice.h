/* What a bisection decides on, checked against its config before anything
 * runs: the cell (--cell, or the only cell there is) and the op (--op:
 * its form, and its value where the load's output fixes it). The metric
 * itself is checked where the config is read (bisect_setup.c). */
#ifndef SCHEDRIG_BISECT_CHOICE_H
#define SCHEDRIG_BISECT_CHOICE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "plan.h"

/* Check the choice of cell and op against point 0's config e and its plan p:
 *   cell  a cell of p by name; NULL: when cell_needed (the bisection has not
 *         decided its cell yet), p must have one cell only;
 *   op    NULL (decided from the samples), or what a sample's op can be:
 *         shorter than SAMPLE_OP_MAX bytes, no blanks or control characters;
 *         and the load's fixed_op (load.h) when it has one;
 *   want_metric "LOAD:METRIC" or NULL for default_load (the load in e whose
 *         metric is bisected; unknown names are left to the metric check).
 * 0, or -1 with err saying what is wrong and what would do ("the config has
 * 2 cells (...): choose one with --cell"). */
int bisect_choice_check(const struct experiment *e, const struct plan *p, const char *want_metric,
			const char *default_load, const char *op, const char *cell,
			bool cell_needed, char *err, size_t errsz);

#endif
