/* A load instance's schedstat deltas over the measured window, summed
 * over its tasks (harness/trace/schedwin.h reads them, the runner and the
 * agent carry them in iteration_result, the session stores them as window
 * samples): here, below the run and the store. */
#ifndef SCHEDRIG_SCHEDWIN_TOTALS_H
#define SCHEDRIG_SCHEDWIN_TOTALS_H

#include <stdbool.h>
#include <stdint.h>

/* The counters summed, in this order. */
enum schedwin_counter {
	SCHEDWIN_RUN_NS,
	SCHEDWIN_WAIT_NS,
	SCHEDWIN_TIMESLICES,
	SCHEDWIN_VOL_SWITCHES,
	SCHEDWIN_INVOL_SWITCHES,
	SCHEDWIN_MIGRATIONS,
	SCHEDWIN_N
};

/* The deltas of one instance over its part of the window (or of several
 * repetitions of one load, schedwin_add). */
struct schedwin_totals {
	bool valid;                /* at least one task was read */
	uint64_t v[SCHEDWIN_N];
	uint64_t tasks;            /* tasks read */
	int64_t cgroup_cpu_us;     /* -1 when the load had no cgroup */
	int64_t ns;                /* the load's time inside the window */
};

#endif
