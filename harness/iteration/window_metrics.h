/* The rig's own samples of a load instance over the measured window
 * (iteration_result.h inst_result.window, window_progress), as samples of metrics of
 * their own, stored beside the parser's (table window_sample) so compare
 * shows them with the load's metrics. Metrics (op ""), summed over the
 * load's tasks and its repetitions in the window (schedwin.h):
 *   sched_run_ms                ms on a CPU (schedstat run_ns)        lower
 *   sched_wait_ms               ms runnable on a runqueue, not running
 *                               (schedstat run_delay)                 lower
 *   sched_timeslices            timeslices run (schedstat pcount)     lower
 *   sched_voluntary_switches    switches (sched nr_voluntary_switches) lower
 *   sched_involuntary_switches  switches (nr_involuntary_switches)    lower
 *   sched_migrations            migrations (se.nr_migrations)         lower
 *   cgroup_cpu_ms               ms of CPU of every task of the load's
 *                               cgroup, exited ones too (cpu.stat
 *                               usage_usec); only with a cgroup        lower
 *   PROGRESS                    the driver's progress units per second
 *                               of the load's time in the window
 *                               (load_ops.progress_metric and _unit,
 *                               e.g. kernbench compile_jobs_per_s)    higher */
#ifndef SCHEDRIG_WINDOW_METRICS_H
#define SCHEDRIG_WINDOW_METRICS_H

#include "load.h"
#include "iteration_result.h"

/* The window samples of r (a result of a load of driver ops) appended to
 * out; nothing when r holds no window sums (window.valid false and no
 * progress). */
void window_metrics(const struct inst_result *r, const struct load_ops *ops,
		    struct sample_vec *out);

#endif
