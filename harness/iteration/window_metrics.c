/* Window samples of a load instance (window_metrics.h). */
#include "window_metrics.h"

void window_metrics(const struct inst_result *r, const struct load_ops *ops,
		    struct sample_vec *out)
{
	const struct schedwin_totals *w = &r->window;
	static const struct {
		const char *metric, *unit;
		enum better better;
		double scale;
	} counters[SCHEDWIN_N] = {
		[SCHEDWIN_RUN_NS] = {"sched_run_ms", "ms", BETTER_LOWER, 1e-6},
		[SCHEDWIN_WAIT_NS] = {"sched_wait_ms", "ms", BETTER_LOWER, 1e-6},
		[SCHEDWIN_TIMESLICES] = {"sched_timeslices", "timeslices", BETTER_LOWER, 1},
		[SCHEDWIN_VOL_SWITCHES] = {"sched_voluntary_switches", "switches", BETTER_LOWER, 1},
		[SCHEDWIN_INVOL_SWITCHES] = {"sched_involuntary_switches", "switches", BETTER_LOWER,
					     1},
		[SCHEDWIN_MIGRATIONS] = {"sched_migrations", "migrations", BETTER_LOWER, 1},
	};
	if (!w->valid)
		return;
	for (int k = 0; k < SCHEDWIN_N; k++)
		sample_vec_add(out, counters[k].metric, counters[k].unit, counters[k].better, "",
			       (double)w->v[k] * counters[k].scale);
	if (w->cgroup_cpu_us >= 0)
		sample_vec_add(out, "cgroup_cpu_ms", "ms", BETTER_LOWER, "",
			       (double)w->cgroup_cpu_us / 1e3);
	if (ops->progress && r->window_progress >= 0 && w->ns > 0)
		sample_vec_add(out, ops->progress_metric, ops->progress_unit, BETTER_HIGHER, "",
			       (double)r->window_progress / ((double)w->ns / 1e9));
}
