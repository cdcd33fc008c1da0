/* compare --ratio (reports/mmtests_ratio.c): compare-mmtests.pl
 * --print-ratio's view of a table, in either flavour of the mmtests
 * layouts. Internal to reports/. */
#ifndef SCHEDRIG_MMTESTS_RATIO_H
#define SCHEDRIG_MMTESTS_RATIO_H

#include "mmtests_common.h"

/* The ratio view of table t: title (not o->plain), the header rows, a
 * "Ratio OP" row per op of the baseline, Dmean/Dmin/Dmax when the
 * baseline has an interval, the Gmean row, then (not o->plain) a footer
 * saying what they are, the ops left out, n and the Kernel lines. */
void mmtests_ratio_table(struct buf *out, const struct summary *s, const struct summary_table *t,
			 const struct report_opts *o, const struct mmtests_flavour *f);

#endif
