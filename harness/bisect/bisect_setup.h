/* A bisection made ready to walk (bisect_walk.h), and its stop recorded:
 * what schedrig bisect does between its command line (cmd_bisect.c) and
 * the walk. A new bisection: the config read, its series built by a
 * provider (bisect_series.h), --metric and --cell checked against point
 * 0's config, all stored (store_bisect.h) with the directory it is begun
 * in and this process as its walker. A resumed one: read back from the
 * database, claimed (bisect_owner.h: refused while another schedrig walks
 * it), walked from the directory it was begun in, and checked
 * (bisect_verify.h: point configs, points, verdicts decided again from
 * their runs), its decided metric kept. Either way the verdicts so far go
 * into the search, the point configs and logs get their directory
 * (DB's directory/bisect/ID), the database its absolute path and the
 * steps this very binary. */
#ifndef SCHEDRIG_BISECT_SETUP_H
#define SCHEDRIG_BISECT_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "bisect_rule.h"
#include "bisect_walk.h"
#include "store.h"

/* What the command line asks for. */
struct bisect_request {
	const char *config, *good, *bad; /* a new bisection (resume: NULL) */
	double alpha;                    /* its --alpha (family-wise), in (0, 0.5) */
	enum bisect_test test;           /* its --rule */
	double min_effect_pct;           /* its --min-effect-pct; NaN: the metric's default */
	bool resume;
	int64_t id;                      /* the bisection; 0 the newest (resume: the
					  * newest unfinished) */
	const char *metric;              /* --metric LOAD:METRIC; NULL: the default */
	const char *op, *cell;           /* --op, --cell; NULL: the only one */
	const char *db;                  /* --db (the file st has open) */
};

/* A new bisection (rq->config), before any file is made: the config
 * read, its series built, --metric/--op/--cell and --rule checked, all
 * into w (zeroed by the caller). 0, or EXIT_USAGE (config, series,
 * --metric/--op/--cell, a --rule the config's iterations cannot decide
 * by) or 1 (the current directory unknown) after a message on stderr:
 * then no database is made. */
int bisect_setup_prepare(struct bisect_walk *w, const struct bisect_request *rq);

/* Make w ready to walk rq on st: a new bisection prepared by
 * bisect_setup_prepare is stored; a resumed one read back (w zeroed by the
 * caller). 0 ready; 0 with
 * *finished when a resumed bisection is complete or refused (nothing to
 * walk: said so on stdout); else an exit status after a message on
 * stderr: EXIT_USAGE (config, series, --metric/--op/--cell, a --rule the
 * config's iterations cannot decide by), 1 (the
 * database, the filesystem, a bisection another schedrig walks, stored
 * rows that are not what the rig computes: the bisection is then
 * recorded failed with why). */
int bisect_setup(struct bisect_walk *w, struct store *st, const struct bisect_request *rq,
		 bool *finished);

/* After bisect_walk_run stopped (-1): record the bisection as interrupted
 * or failed and say how to resume it. Returns the exit status: 128 + the
 * signal, or 1. */
int bisect_setup_stopped(struct bisect_walk *w);

#endif
