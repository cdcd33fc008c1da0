/* What the drivers of `perf bench sched` share (perf-messaging, perf-pipe,
 * linux-perf 6.1): the command line up to the benchmark's options, and
 * the wall time every benchmark prints, in either of perf bench's formats:
 *   default:            "     Total time: 1.817 [sec]"
 *   perf bench -f simple: the whole output is the bare time, "1.880". */
#ifndef SCHEDRIG_PERF_BENCH_H
#define SCHEDRIG_PERF_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "scan.h"

/* Append "perf" "bench" "sched" bench (messaging, pipe) to argv. */
void perf_bench_argv(struct argv *argv, const char *bench);

/* The seconds of the run from stdout's lines t: the one "Total time: X
 * [sec]" line, or, when there is none, the output's one non-blank line as
 * a bare number (-f simple; *simple is then true). Returns 0, or -1 with
 * why: "unparsable Total time line: ...", "more than one Total time line"
 * or "no \"Total time:\" line in stdout". */
int perf_bench_total_time(const struct text_lines *t, double *time_s, bool *simple, char *why,
			  size_t whysz);

#endif
