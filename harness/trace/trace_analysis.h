/* What a scheduler trace says about each load: the distributions and
 * counts a scheduler developer asks for when a number moved, computed from
 * the text of one trace (trace_text.h) in one pass.
 *
 * Tasks are grouped into loads either by the rig's task lines of a
 * captured trace ("# task LOAD REP PID TID...", the tasks the rig read of
 * each load instance; a task a sched_process_fork line shows forked by a
 * task of a load belongs to that load too) or, for a trace from elsewhere
 * (perf script, trace-cmd report), by each task's last comm, as perf
 * sched latency merges them. pid 0 is the idle task and no load's. A
 * further group, TRACE_ALL_TASKS, holds every other task.
 *
 * Per task, from the events in the order of the text:
 *   sched_waking of a task that is not running nor runnable: its wake-up
 *     starts (waking time), and it is runnable from then (enqueued);
 *   sched_wakeup or sched_wakeup_new of such a task, or of one whose
 *     runnable time came from its waking: it is enqueued now (the waking
 *     time stays, or is this time when there was no waking);
 *   sched_switch, the task switched out (prev): preempted when prev_state
 *     starts with R (runnable from now, no wake-up under way), else
 *     asleep; a run sample when its switch-in was seen;
 *   sched_switch, the task switched in (next) while runnable:
 *     runqueue wait = now - enqueue time; wakeup latency = now - waking
 *     time when a wake-up was under way (not after a preemption);
 *   sched_migrate_task: a migration of the task;
 *   "CPU:N [LOST M EVENTS]": every task's state is forgotten (no sample
 *     spans the gap), M events counted lost.
 * A task first seen otherwise gives no sample until its state is known.
 * Per CPU, busy time is the time from each switch to the next one on
 * that CPU (from the window's start before the first, to its end after
 * the last) of the task switched in, summed per load; after a LOST line
 * a CPU's time counts only from its next switch. The window is the
 * trace's "# window_ns" line, or its first and last event.
 * Percentiles are nearest rank: the value of rank ceil(p/100 n) of the n
 * sorted values (the same rule as Python's independent check in
 * tests/integration/trace_check.py). */
#ifndef SCHEDRIG_TRACE_ANALYSIS_H
#define SCHEDRIG_TRACE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_ALL_TASKS "(all)"

/* Values in ns. */
struct trace_dist {
	int64_t *v;
	size_t n, cap;
};

struct trace_load_result {
	char name[72];
	struct trace_dist wakeup, rqwait, run;
	uint64_t preemptions, migrations;
	int64_t *busy_ns;          /* per CPU (n_cpus of the analysis) */
	size_t n_tasks;            /* tasks with at least one event */
};

enum trace_grouping { TRACE_BY_TASK_LINES, TRACE_BY_COMM };

/* A task of the trace and the load it was counted in (-1: none but
 * TRACE_ALL_TASKS), with its last comm. */
struct trace_task_load {
	int tid;
	int load;
	char comm[64];
};

struct trace_analysis {
	struct trace_load_result *loads; /* by first appearance; TRACE_ALL_TASKS last */
	size_t n_loads;
	size_t n_cpus;             /* 1 + the highest CPU seen */
	int64_t window_start_ns, window_end_ns;
	uint64_t lost;             /* events lost: the "# lost" line's count, or the sum
				    * of the LOST lines' when that is more (they count
				    * the same events) */
	uint64_t events;           /* event lines read */
	uint64_t bad_lines;        /* lines that are neither events nor comments */
	size_t n_task_lines;       /* "# task" lines */
	struct trace_task_load *tasks; /* every task but the idle one, by first appearance */
	size_t n_tasks;
};

/* Analyse the trace text[0..len) into a (freed with trace_analysis_free).
 * 0, or -1 with err: a "#" line of the rig's that is malformed, or more
 * than one line in a thousand (and at least 10) that is garbage (a
 * garbage trace is no measurement; a stray line is counted in
 * bad_lines). */
int trace_analyze(const char *text, size_t len, enum trace_grouping g, struct trace_analysis *a,
		  char *err, size_t errsz);
void trace_analysis_free(struct trace_analysis *a);

/* Sort d ascending (before trace_dist_percentile). */
void trace_dist_sort(struct trace_dist *d);
/* The nearest-rank p-th percentile (0 < p <= 100) of the sorted d; 0 when
 * d is empty. */
int64_t trace_dist_percentile(const struct trace_dist *d, double p);
/* The mean of d; 0 when empty. */
double trace_dist_mean(const struct trace_dist *d);

/* The load called name, or NULL. */
const struct trace_load_result *trace_analysis_load(const struct trace_analysis *a,
						    const char *name);

#endif
