/* A trace as Chrome trace-event JSON, the format ui.perfetto.dev and
 * chrome://tracing open ("Trace Event Format", Google, 2016: a JSON object
 * with "traceEvents", an array of events with ph, ts and dur in
 * microseconds, pid and tid; ph "X" complete events, "i" instant events,
 * "M" metadata naming processes and threads).
 *
 * Tracks: process 1 "CPUs" with one thread per CPU ("CPU N"), a complete
 * event for each time a task ran there (named "COMM TID", its load in
 * args); process 2 "measured window", one complete event spanning it and
 * a global instant event at each end; per load L (index k) process 10+k
 * "load L" with a thread per task, a complete event "running" for each
 * run and "runnable" for each wait on a runqueue (after a wake-up or a
 * preemption, until the switch-in); tasks of no load go to process 9
 * "other tasks" only with all_tasks. ts is microseconds since the
 * window's start. */
#ifndef SCHEDRIG_TRACE_PERFETTO_H
#define SCHEDRIG_TRACE_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>

#include "trace_analysis.h"
#include "util.h"

/* The JSON of the trace text[0..len), analysed already into a (its loads,
 * tasks and window), appended to out; title goes into "otherData". */
void trace_perfetto(const char *text, size_t len, const struct trace_analysis *a,
		    const char *title, bool all_tasks, struct buf *out);

#endif
