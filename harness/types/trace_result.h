/* What the capture of one iteration's trace left (harness/trace/
 * trace_capture.h makes it, the runner hands it on in iteration_result,
 * the session stores it): here, below the run and the store, so that the
 * iteration's result can carry it without including the capture. */
#ifndef SCHEDRIG_TRACE_RESULT_H
#define SCHEDRIG_TRACE_RESULT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* What one iteration's capture left. */
struct trace_result {
	bool captured;             /* a window was traced into path */
	char path[PATH_MAX];       /* the text file (trace_capture.h format) */
	int64_t window_start_ns, window_end_ns;
	uint64_t bytes;            /* of the file */
	uint64_t lines;            /* trace_pipe lines (events and LOST lines) */
	uint64_t lost;             /* events lost (per_cpu stats, and beyond TRACE_MAX_BYTES) */
	char warning[512];         /* "" or why the trace is incomplete */
};

#endif
