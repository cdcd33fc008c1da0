/* The monitor table of a stored run (reports/monitor_table.h): the series
 * the monitors stored (table series) and the load instances' durations,
 * aggregated per variant. Used by schedrig monitors; schedrig report may
 * include it. */
#ifndef SCHEDRIG_MONITOR_REPORT_H
#define SCHEDRIG_MONITOR_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct store;

/* Append the monitor table of run run_id to out: one column per variant
 * (config order); rows, each over every iteration of the variant:
 *   CPU User|System|Idle % Mean, Max    stat cpu "all" user_pct/system_pct/
 *                                       idle_pct: mean and max of the intervals
 *   Context switches/s Mean, Max        stat ctxt_per_s
 *   Forks/s Mean                        stat processes_per_s
 *   PSI cpu some % Mean, Max            psi cpu_some_pct (stall time as % of
 *                                       the interval)
 *   LOAD Migrations/s                   sum over the load's threads of the
 *                                       se.nr_migrations increase, divided by
 *                                       the load's elapsed time
 *   LOAD Invol switches/CPU s           rusage nivcsw of the load's process
 *                                       tree / its user + system time
 *   LOAD Duration User|System|Elapsed   load_instance user_s, system_s,
 *                                       elapsed_s summed (mmtests Duration)
 * Returns 0, 1 when the run has no series (monitors were off; nothing
 * appended), or -1 with err on a database error. */
int monitor_report_run(struct store *s, int64_t run_id, struct buf *out, char *err,
		       size_t errsz);

#endif
