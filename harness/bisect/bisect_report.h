/* What a bisection found, as text: the result line, the rule, the table of
 * every measured point (k, point, n, mean ± CI, verdict, p against both
 * ends, the alpha, runs), the checks after the walk (the confirm, the
 * drift guard) and the mmtests table (schedrig compare) of good end /
 * last good / first bad / bad end (their confirm rounds once there are). Printed by schedrig bisect at the end,
 * by bisect --show, and mailed by schedrig mail --bisection. */
#ifndef SCHEDRIG_BISECT_REPORT_H
#define SCHEDRIG_BISECT_REPORT_H

#include <stdint.h>

#include "bisect_samples.h"
#include "reportcmd.h"
#include "store.h"
#include "util.h"

/* "MEAN ± CI" of a point: both with the same decimals, enough for 4
 * significant digits of the mean (3011 ± 240, 448.2 ± 120.3, 120.2 ± 0.0,
 * 0.5123 ± 0.0100), at most 6; plain "%.4g ± %.2g" (an exponent) for a mean
 * under 0.001 or from 1e15 up; "MEAN" alone when ci is NaN, "-" when mean
 * is. Into dst (size bytes). */
void bisect_fmt_mean(char *dst, size_t size, double mean, double ci);

/* The summary of bisection id (title, result, rule, the table of every
 * measured point with the alpha it was decided at, the checks of the
 * confirm and the drift guard) into out. 0, or -1 with err. */
int bisect_report_text(struct store *st, int64_t id, struct buf *out, char *err, size_t errsz);

/* The mmtests table of good end / last good / first bad / bad end goes
 * through compare's path (reportcmd_prepare, the default layout): what
 * bisect_report_select sets in a struct reportcmd for it is kept here. */
struct bisect_report_sel {
	char **runs;            /* the run ids as selectors: the runs of the good
				 * end, the last good point, the first bad point
				 * and the bad end (each point once), in that order:
				 * a point's confirm rounds, or its walk runs when
				 * it has none */
	size_t n_runs;          /* 0: no point measured yet (no table) */
	char *one_run;          /* "bisection ID" (reportcmd.one_run) */
	char *load, *metric;    /* the bisection's metric */
};

/* Select bisection id's table in c: c->runs, c->one_run (the points'
 * variants side by side, the first the baseline), columns by variant, and
 * the bisection's load and metric unless c names a --load or --metric
 * already. sel owns the strings c then points to. 0, or -1 with err. */
int bisect_report_select(struct store *st, int64_t id, struct reportcmd *c,
			 struct bisect_report_sel *sel, char *err, size_t errsz);
void bisect_report_sel_free(struct bisect_report_sel *sel);

/* The table of bisection id (bisect_report_select) over database db (open
 * as st) and its notes, as schedrig compare lays out its default layout,
 * into out; nothing when no point was measured yet, a line saying so when
 * no run of its points measured the metric. 0, or -1 with err (compare's
 * own message is on stderr then). */
int bisect_report_table(struct store *st, const char *db, int64_t id, struct buf *out,
			char *err, size_t errsz);

/* Print to stdout what bisection id found in database db (open as st):
 * bisect_report_text, then (once a point was measured) the table of
 * bisect_report_select with its notes, as schedrig compare lays it out.
 * 0, or -1 with err (or after compare's message on stderr). */
int bisect_report_print(struct store *st, const char *db, int64_t id, char *err, size_t errsz);

#endif
