/* A trace's analysis (trace_analysis.h) as rows of the report pipeline:
 * per load, one sample per statistic of each distribution (the traced
 * iteration is the sample; compare's layouts and significance rules then
 * stand variants side by side over the traced iterations), and each
 * distribution's events as an exact histogram (bucket bounds the distinct
 * values), which the percentile and latency layouts pool over iterations.
 * Metrics (tool "trace"; all "lower is better", so that every table
 * shows Amean, which a 0, say a CPU the load never ran on, leaves defined):
 *   wakeup_latency_us      ops p50 p90 p99 p99.9 max mean
 *   runqueue_wait_us       the same
 *   run_per_switch_in_us   the same
 *   wakeups, runqueue_waits, switch_ins   op n: events counted
 *   preemptions            op n: switched out while runnable
 *   migrations             op n
 *   cpu_busy_pct           op cpuN: % of the window the load's tasks ran
 *                          on CPU N
 * A distribution without events has no statistic rows (only its count). */
#ifndef SCHEDRIG_TRACE_REPORT_H
#define SCHEDRIG_TRACE_REPORT_H

#include "samples.h"
#include "trace_analysis.h"

#define TRACE_TOOL "trace"

/* Where the rows go and what they are keyed by. */
struct trace_rows {
	struct sample_table *t;
	struct hist_table *h;      /* NULL: no histograms */
	const char *run, *variant, *cell;
	int iteration;
	const char *load;          /* only this load; NULL every load */
	bool all_tasks;            /* also TRACE_ALL_TASKS */
};

/* Append the rows of a. */
void trace_report_rows(const struct trace_analysis *a, const struct trace_rows *r);

#endif
