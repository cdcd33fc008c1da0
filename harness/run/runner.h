/* harness/run/: the run engine, from a plan to stored outcomes. runner
 * (starts and stops a cell's competing loads), guardian (kills them when the
 * rig dies), schedattr (nice, latency_nice, slice, policy, affinity), loadcg
 * (a cgroup per load), outcome (raw output to samples or a failure),
 * samples, adaptive (when a cell has enough iterations), preflight (refuse
 * what cannot work before anything runs), measurelock, progress, provenance
 * (facts about the machine).
 */

/* The runner: starts one cell's competing loads with their scheduling
 * attributes, each in its own process group, captures stdout and stderr in
 * full, enforces timeouts, stops background loads when the measured ones end,
 * and leaves no process behind.
 *
 * Lifecycle of one iteration: background loads start first; measured loads
 * start warmup_s later; when every measured load has exited, each background
 * load gets its driver's stop signal, a grace period (RUNNER_GRACE_S), then
 * SIGKILL of its process group. A background load with repeat: true is
 * restarted while measured loads still run; each run is one repetition.
 * Only runs that overlap the measured window count: a background run that
 * exits 0 before the measured loads start (in the warm-up) is INST_WARMUP,
 * one that straddles their start or is stopped at their end is not.
 * timeout_s of a measured load counts from its start; that of a background
 * load counts from its start until the measured loads start and again from
 * its stop signal: a background load lives as long as the measured loads,
 * however long they take (a kernel build), and is never a timeout for that.
 * SIGINT/SIGTERM/SIGHUP are taken through a signalfd: every load gets
 * SIGTERM, RUNNER_INTERRUPT_GRACE_S to exit, then SIGKILL of its group, and
 * the result is marked interrupted.
 *
 * The measured window runs from just before the measured loads start
 * until the last of them has exited. Over it, always, each load's tasks
 * are read (schedwin.h: when the window opens or the load starts in it,
 * every RUNNER_SCHEDWIN_S, when it exits before it is reaped, when the
 * window closes) into inst_result.window, and a background load's output
 * in the window is counted by its driver's progress hook. */
#ifndef SCHEDRIG_RUNNER_H
#define SCHEDRIG_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "plan.h"
#include "schedwin.h"
#include "trace_capture.h"
#include "util.h"

#define RUNNER_GRACE_S 5.0
#define RUNNER_INTERRUPT_GRACE_S 2.0
/* How often the loads' tasks are read while the measured window is open. */
#define RUNNER_SCHEDWIN_S 1.0

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

/* Prepare the process to run loads: block SIGCHLD/SIGINT/SIGTERM/SIGHUP into
 * a signalfd, become a child subreaper (orphaned grandchildren come back to
 * us to be killed), and start the guardian (a function child, spawn.h): a
 * child that outlives the rig and, when the rig dies (even by SIGKILL),
 * SIGKILLs the process groups of the loads still running. Returns 0 or -1
 * with err. */
int runner_init(char *err, size_t errsz);
/* The signal that interrupted the rig (SIGINT, SIGTERM, SIGHUP) or 0. */
int runner_interrupt_signal(void);
/* Between iterations (a backend waiting on a remote or guest kernel): take
 * pending SIGINT/SIGTERM/SIGHUP from the runner's signalfd, without blocking,
 * so runner_interrupt_signal() reports them. Returns runner_interrupt_signal(). */
int runner_poll_interrupt(void);
/* Tell the guardian (runner_init) that process group pgid started (started
 * true) or is gone: if the rig dies first, the guardian SIGKILLs the group.
 * Nothing happens before runner_init. */
void runner_guard_group(pid_t pgid, bool started);
/* A SIGINT/SIGTERM/SIGHUP taken by other code (a kernel build waiting with
 * sigtimedwait, kbuild_run.h): runner_interrupt_signal() reports sig from
 * now on, unless an earlier signal is already noted. */
void runner_note_interrupt(int sig);

struct monitor;
/* Sample monitors (monitor.h) in every following iteration: the monitor's
 * timerfd joins the poll set, each load's process is registered when it
 * starts and sampled once more when it exits, before it is reaped. NULL
 * turns monitors off (the default). */
void runner_set_monitor(struct monitor *m);

/* Trace the measured window of every following iteration that is armed
 * (trace_capture_arm): the runner opens the window right before it starts
 * the measured loads, reads the trace when trace_capture_fd is readable and
 * closes it when the last measured load has exited (or the rig is
 * interrupted), then notes each load's tasks ("task LOAD REPETITION PID
 * TID...", the tasks schedwin read) in the trace; the result is
 * iteration_result.trace. NULL: no trace (the default). */
void runner_set_trace(struct trace_capture *t);

/* Run one iteration of cell (any number of loads: every one's pipes are
 * polled). self_exe replaces argv[0] "schedrig" of built-in loads. On
 * return every process of the iteration has been reaped. Returns 0 (res
 * filled, possibly with failures or interrupted) or -1 when the rig itself
 * failed (err, e.g. "poll: ..."; res then holds what had finished and must
 * still be freed). */
int runner_run_iteration(const struct plan_cell *cell, double warmup_s, const char *self_exe,
			 struct iteration_result *res, char *err, size_t errsz);
void iteration_result_free(struct iteration_result *res);

#endif
