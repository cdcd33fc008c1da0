/* One bisection walked to its end: both ends measured (a flat series
 * refused), then point after point (bisect.h bisect_search_next) measured by
 * a step (bisect_step.h), classified against both ends, given more
 * iterations or skipped, each verdict stored (store_bisect.h) and printed,
 * and at the end the result stored and the report printed
 * (bisect_report_print). bisect_setup.h fills the walk: a
 * bisection begun or loaded, its verdicts so far in search. */
#ifndef SCHEDRIG_BISECT_WALK_H
#define SCHEDRIG_BISECT_WALK_H

#include <limits.h>
#include <stdbool.h>

#include "bisect.h"
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
	struct stored_bisection bi;          /* bi.load, bi.metric: the default metric */
	struct bisect_series s;
	struct bisect_search search;       /* verdicts so far (bisect --resume) */
	struct bisect_metric m;            /* decided on; empty until the ends are measured */
	struct bisect_sample_set ends[2];  /* good, bad */
	char self_exe[PATH_MAX];           /* this binary, for the steps */
	char *dir;                         /* point configs and logs */
	int iterations_max;                /* the points' config max */
	char *why;                         /* why the walk failed, when it can say */
	bool interrupted;                  /* set when a signal stopped the walk */
	int signal;
};

/* Walk the bisection to its end. 0 found (a point or a range), 1 refused
 * (no regression to bisect: said why), -1 stopped (w->interrupted: by a
 * signal; else failed after a message). */
int bisect_walk_run(struct bisect_walk *w);

/* The result line of a finished search over s (malloc'd): "First bad
 * point: p5 (k 5 of 8)[: label]", or "The change is in a range: after p3
 * (k 3, good) up to p6 (k 6, bad); skipped in between: p4, p5". */
char *bisect_result_text(const struct bisect_search *search, const struct bisect_series *s);

/* Free what the walk holds (not st). */
void bisect_walk_free(struct bisect_walk *w);

#endif
