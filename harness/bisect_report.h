/* What a bisection found, as text: the result line, the rule, the table of
 * every measured point (k, point, n, mean ± CI, verdict, p and t against
 * both ends, runs) and the mmtests table (schedrig compare) of good end /
 * last good / first bad / bad end. Printed by schedrig bisect at the end,
 * by bisect --show, and mailed by bisect --mail. */
#ifndef SCHEDRIG_BISECT_REPORT_H
#define SCHEDRIG_BISECT_REPORT_H

#include <stdint.h>

#include "store.h"
#include "util.h"

/* The summary of bisection id (title, result, rule, step table) into out.
 * 0, or -1 with err. */
int bisect_report_text(struct store *st, int64_t id, struct buf *out, char *err, size_t errsz);

/* The run ids of the mmtests table of bisection id: every run of the good
 * end, the last good point, the first bad point and the bad end (each
 * point once), in that order. *ids malloc'd. 0, or -1 with err. */
int bisect_report_runs(struct store *st, int64_t id, int64_t **ids, size_t *n, char *err,
		       size_t errsz);

/* The mmtests table (report_mmtests) of the bisection's metric over the
 * runs ids, every point's variant side by side: the runs are taken as one
 * ("bisection ID"), so variants of different runs share a table, in the
 * order of ids, the first the baseline. 0, or -1 with err (no samples). */
int bisect_report_mmtests(struct store *st, int64_t id, const int64_t *ids, size_t n,
			  struct buf *out, char *err, size_t errsz);

/* Print to stdout what bisection id found: bisect_report_text, then (once
 * the ends were measured) the mmtests table of bisect_report_runs. 0, or
 * -1 with err. */
int bisect_report_print(struct store *st, int64_t id, char *err, size_t errsz);

#endif
