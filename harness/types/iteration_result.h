/* What an iteration left behind: each load instance's state, output and
 * resource use (the runner fills it here, an agent's lines in a guest),
 * handed to the run engine and the monitor, stored by the session. */
#ifndef SCHEDRIG_ITERATION_RESULT_H
#define SCHEDRIG_ITERATION_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "schedwin_totals.h"
#include "trace_result.h"
#include "util.h"

struct plan_instance;

enum inst_state {
	INST_OK,          /* exited 0 (parse still decides) */
	INST_FAILED,      /* could not start, exit status != 0, or killed by a signal */
	INST_TIMEOUT,     /* killed at timeout_s */
	INST_STOPPED,     /* background load ended by the rig's stop signal */
	INST_INTERRUPTED, /* the rig was interrupted */
	INST_WARMUP,      /* background run that exited 0 before the measured loads
			   * started: it met no measured load, so never a sample */
};

/* "ok", "failed", "timeout", "stopped", "interrupted", "warmup" */
const char *inst_state_name(enum inst_state s);

/* What one started (or failed to start) load instance left behind. */
struct inst_result {
	const struct plan_instance *pi;
	int repetition;
	pid_t pid;               /* 0 when it never started */
	char applied[256];       /* sched_read_back after exec; "" when unknown */
	struct buf out, err;     /* complete stdout and stderr */
	enum inst_state state;
	char reason[256];        /* why a failure is a failure */
	bool exited;
	int exit_code;
	int term_signal;
	int64_t start_ns, end_ns; /* CLOCK_MONOTONIC */
	struct rusage ru;        /* of the instance's process tree (wait4) */
	/* The load's schedstat deltas over the measured window (schedwin.h),
	 * summed over every repetition of it that ran in the window: held by
	 * the repetition that was running when the window closed (or the last
	 * that ran in it); window.valid false on the others. */
	struct schedwin_totals window;
	/* Progress units the load printed inside the window (its driver's
	 * load_ops.progress, e.g. compile jobs of a kernel build), over the
	 * same repetitions; -1 when the driver counts none. */
	int64_t window_progress;
};

struct stored_series_set;
struct iteration_result {
	struct inst_result *r;
	size_t n;
	bool interrupted;
	char started_at[32], ended_at[32];
	/* Monitor series sampled where the iteration ran, when it ran elsewhere
	 * (an agent's "series" lines, agent_host.c): borrowed, valid during
	 * on_iteration, never freed by iteration_result_free; NULL otherwise
	 * (local runs: the monitor hands them over, monitor_take_series). */
	const struct stored_series_set *series;
	/* The trace of the measured window (runner_set_trace), captured false
	 * when the iteration was not traced. */
	struct trace_result trace;
};

void iteration_result_free(struct iteration_result *res);

#endif
