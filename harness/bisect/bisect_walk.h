/* One bisection walked to its end: the engine's procedure
 * (bisect_engine.h) with a measurer that runs each measurement as a step
 * (bisect_step.h: a child schedrig run, or nothing when the attempt is
 * stored already) and reads its samples back (bisect_runs.h), every
 * decision stored (store_bisect.h) and printed, and at the end the result
 * stored and the report printed (bisect_report_print). bisect_setup.h
 * fills the walk: a bisection begun, or loaded and checked (a resumed
 * one's stored decisions are the engine's first ones again: they are
 * neither stored nor printed twice). */
#ifndef SCHEDRIG_BISECT_WALK_H
#define SCHEDRIG_BISECT_WALK_H

#include <limits.h>
#include <stdbool.h>

#include "bisect.h"
#include "bisect_rule.h"
#include "bisect_samples.h"
#include "bisect_series.h"
#include "store_bisect.h"
#include "store.h"

struct bisect_walk {
	struct store *st;
	const char *db;                    /* --db: where the steps' runs go */
	char *db_path;                     /* it absolute (db points here), or NULL */
	const char *want_metric;           /* --metric LOAD:METRIC, --op, --cell; */
	const char *want_op, *want_cell;   /* NULL: the defaults */
	struct stored_bisection bi;        /* bi.load, bi.metric: the default metric */
	struct bisect_series s;
	struct bisect_rule rule;           /* test, alpha, min effect, iterations */
	struct bisect_search search;       /* the verdicts */
	struct bisect_metric m;            /* decided on; empty until the good end is measured */
	int *last_attempt;                 /* per point: the attempt of its last measurement */
	size_t stored_points, stored_checks; /* decisions stored already (--resume) */
	size_t points_seen, checks_seen;   /* decisions the engine made so far */
	bool blamed;                       /* the result names a point or a range */
	double good_mean;                  /* the good end's Amean, for the output */
	int better;                        /* the metric's direction once measured; -1 */
	char self_exe[PATH_MAX];           /* this binary, for the steps */
	char *dir;                         /* point configs and logs */
	char *why;                         /* why the walk failed, when it can say */
	bool interrupted;                  /* set when a signal stopped the walk */
	int signal;
};

/* Walk the bisection to its end. 0 a first bad point or range named, 1 no
 * patch named (no regression to bisect, or no single first bad point:
 * said why), -1 stopped (w->interrupted: by a signal; else failed after a
 * message). */
int bisect_walk_run(struct bisect_walk *w);

/* Free what the walk holds (not st). */
void bisect_walk_free(struct bisect_walk *w);

#endif
