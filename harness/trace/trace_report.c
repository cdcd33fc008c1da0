/* A trace's analysis as sample and histogram rows (trace_report.h). */
#include "trace_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct {
	const char *op;
	double p;              /* percentile; 0: mean */
} dist_ops[] = {{"p50", 50}, {"p90", 90}, {"p99", 99}, {"p99.9", 99.9}, {"max", 100}, {"mean", 0}};

static void add(const struct trace_rows *r, const char *load, const char *metric, const char *unit,
		enum better better, const char *op, double v)
{
	struct sample_row row = {.run = r->run, .variant = r->variant, .cell = r->cell,
				 .load = load, .tool = TRACE_TOOL, .metric = metric, .unit = unit,
				 .better = better, .op = op, .iteration = r->iteration, .value = v};
	sample_table_add(r->t, &row);
}

/* d (ns, sorted) as an exact histogram in us: a bucket per distinct value. */
static void add_hist(const struct trace_rows *r, const char *load, const char *metric,
		     const struct trace_dist *d)
{
	if (!r->h || !d->n)
		return;
	double *bounds = xmalloc(d->n * sizeof(*bounds));
	uint64_t *counts = xmalloc(d->n * sizeof(*counts));
	size_t n = 0;
	double sum = 0, sum_sq = 0;
	for (size_t i = 0; i < d->n; i++) {
		double us = (double)d->v[i] / 1e3;
		sum += us;
		sum_sq += us * us;
		if (n && bounds[n - 1] == us) {
			counts[n - 1]++;
			continue;
		}
		bounds[n] = us;
		counts[n++] = 1;
	}
	struct hist_row h = {
		.run = r->run, .variant = r->variant, .cell = r->cell, .load = load,
		.tool = TRACE_TOOL, .metric = metric, .unit = "us", .op = "",
		.iteration = r->iteration, .counts = counts, .bounds = bounds, .n_buckets = n,
		.limit = INFINITY, .max_observed = bounds[n - 1], .min_observed = bounds[0],
		.sum = sum, .sum_sq = sum_sq,
	};
	hist_table_add(r->h, &h);
	free(bounds);
	free(counts);
}

static void add_dist(const struct trace_rows *r, const char *load, const char *metric,
		     const char *count_metric, enum better better, const struct trace_dist *d)
{
	for (size_t i = 0; d->n && i < sizeof(dist_ops) / sizeof(dist_ops[0]); i++) {
		double v = dist_ops[i].p > 0 ? (double)trace_dist_percentile(d, dist_ops[i].p)
					  : trace_dist_mean(d);
		add(r, load, metric, "us", better, dist_ops[i].op, v / 1e3);
	}
	add(r, load, count_metric, "events", BETTER_LOWER, "n", (double)d->n);
	add_hist(r, load, metric, d);
}

void trace_report_rows(const struct trace_analysis *a, const struct trace_rows *r)
{
	double window_ns = (double)(a->window_end_ns - a->window_start_ns);
	for (size_t i = 0; i < a->n_loads; i++) {
		const struct trace_load_result *l = &a->loads[i];
		bool all = !strcmp(l->name, TRACE_ALL_TASKS);
		if ((r->load && strcmp(r->load, l->name)) || (all && !r->all_tasks && !r->load))
			continue;
		add_dist(r, l->name, "wakeup_latency_us", "wakeups", BETTER_LOWER, &l->wakeup);
		add_dist(r, l->name, "runqueue_wait_us", "runqueue_waits", BETTER_LOWER, &l->rqwait);
		add_dist(r, l->name, "run_per_switch_in_us", "switch_ins", BETTER_LOWER, &l->run);
		add(r, l->name, "preemptions", "preemptions", BETTER_LOWER, "n", (double)l->preemptions);
		add(r, l->name, "migrations", "migrations", BETTER_LOWER, "n", (double)l->migrations);
		for (size_t c = 0; c < a->n_cpus && window_ns > 0; c++) {
			char op[24];
			snprintf(op, sizeof(op), "cpu%zu", c);
			add(r, l->name, "cpu_busy_pct", "%", BETTER_LOWER, op,
			    100.0 * (double)l->busy_ns[c] / window_ns);
		}
	}
}
