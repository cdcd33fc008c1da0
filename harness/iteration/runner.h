/* harness/iteration/: one iteration of a cell on this machine (and in a
 * guest, by the agent). runner (starts and stops a cell's competing loads),
 * guardian (kills them when the rig dies), loadcg (a cgroup per load),
 * outcome (raw output to samples or a failure), preflight (refuse what
 * cannot work before anything runs). What the iteration leaves is
 * harness/types/iteration_result.h; the run engine above it harness/run/.
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

#include "iteration_result.h"
#include "plan.h"
#include "schedwin.h"
#include "trace_capture.h"
#include "util.h"

#define RUNNER_GRACE_S 5.0
#define RUNNER_INTERRUPT_GRACE_S 2.0
/* How often the loads' tasks are read while the measured window is open. */
#define RUNNER_SCHEDWIN_S 1.0

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

/* Loads whose sched: sets no cpus run on the CPUs of list (a CPU list:
 * what host: housekeeping_cpus leaves them, hostset.h) from the next
 * iteration on; NULL or "" (the default): on every CPU the rig may use. */
void runner_set_load_cpus(const char *list);

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

#endif
