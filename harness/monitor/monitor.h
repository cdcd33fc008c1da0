/* harness/monitor/: what the system did while a cell ran, from /proc: the
 * sampler (monitor; monitor_series, monitor_system), the pure /proc parsers
 * (procstat, procpsi, procsched; procfs.h). The monitor table of a stored
 * run is reports/monitor_report.h.
 */

/* Monitors: what the system and the loads did while an iteration ran, read
 * from /proc directly (no child process, no shell) by one timer-driven
 * sampler in the runner's own event loop.
 *
 * One struct monitor lives for the whole run. Its timerfd (monitor_fd) is
 * armed while an iteration runs; when it is readable the runner calls
 * monitor_tick. Files are opened once and re-read with pread at offset 0;
 * buffers (read buffer, series, points, per-CPU and per-thread state) are
 * allocated up front and only grow geometrically when outgrown, so a tick
 * does not allocate once the first iteration has warmed them up.
 *
 * Series of one iteration (store.h struct stored_series; t_ms is the offset
 * from monitor_iteration_begin; cpu -1 when not per CPU, pid 0 when not
 * per task):
 *   stat        per CPU and cpu -1 (all): user_pct nice_pct system_pct idle_pct
 *               iowait_pct irq_pct softirq_pct steal_pct guest_pct — % of the
 *               interval as mpstat prints them (procfs.h proc_cpu_util); an
 *               offline CPU has no point for that interval.
 *               cpu -1 only: ctxt_per_s processes_per_s (deltas / interval s),
 *               procs_running procs_blocked (as read).
 *   psi         {cpu,io,memory}_{some,full}_avg10_pct (as read) and
 *               {cpu,io,memory}_{some,full}_pct: the total stall time delta as
 *               % of the interval. A missing file has no series.
 *   schedstat   per CPU, when /proc/schedstat exists: yld_per_s sched_per_s
 *               sched_goidle_per_s ttwu_per_s ttwu_local_per_s
 *               timeslices_per_s, and run_pct wait_pct (run/wait ns delta as
 *               % of the interval).
 *   loadavg     load1 load5 load15 runnable threads (as read).
 *   sched       per thread (pid = TID, tgid = the load's process), cumulative
 *               values as /proc/PID/task/TID/sched prints them:
 *               sum_exec_runtime_ms nr_switches nr_voluntary_switches
 *               nr_involuntary_switches nr_migrations slice_ns, and where the
 *               kernel has schedstats wait_sum_ms wait_count wait_max_ms
 *               iowait_sum_ms iowait_count.
 *   task_schedstat  per thread: run_ns wait_ns timeslices (cumulative).
 *   rusage      per load process (pid = tgid = its pid), at its end, from
 *               wait4 (the whole process tree the load waited for): nvcsw
 *               nivcsw.
 * Load tasks are sampled when the load starts, on every tick while a
 * measured load runs, and once more when it has exited but is not yet
 * reaped (monitor_task_end): then only the process itself is left.
 * Per-task series cover the load's process and its threads, not child
 * processes (rusage covers those).
 *
 * Not sampled: perf stat (config monitors: perf: true is refused).
 * qemu/ssh variants are sampled by their agent where the variant's kernel
 * runs (cmd_agent.c), which sends the series as "series" lines
 * (agent_proto.h); the host stores them (agent_host.c, res.series). */
#ifndef SCHEDRIG_MONITOR_H
#define SCHEDRIG_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "iteration_result.h"
#include "store.h"

#define MONITOR_DEFAULT_INTERVAL_MS 1000

struct monitor;

/* Open the system files under proc_root ("/proc", or a directory holding the
 * same names for tests: stat, loadavg, pressure/{cpu,io,memory}, schedstat)
 * and a CLOCK_MONOTONIC timerfd ticking every interval_ms (<= 0: the
 * default). Load tasks are always read from /proc/PID/task/. stat is
 * required; the others are optional, and each one missing adds a line
 * "monitors: ..." to monitor_notes. Returns NULL with err when stat or the
 * timerfd cannot be had. */
struct monitor *monitor_create(const char *proc_root, int interval_ms, char *err, size_t errsz);
void monitor_free(struct monitor *m);

/* What is skipped and why, one line each ("" when nothing is): e.g.
 * "/proc/schedstat is absent on this kernel (CONFIG_SCHEDSTATS off): per-CPU
 * schedstat series are skipped". Meant to be said once per run. */
const char *monitor_notes(const struct monitor *m);

/* The timerfd, for the runner's poll set (POLLIN when a tick is due). */
int monitor_fd(const struct monitor *m);

/* An iteration starts: forget the previous iteration's series, take the
 * baseline read of the system files and arm the timer. */
void monitor_iteration_begin(struct monitor *m);

/* The timerfd is readable: consume it and take one sample (system files and
 * measured load tasks). A spurious wake-up (EAGAIN) samples nothing. */
void monitor_tick(struct monitor *m);

/* Take one sample now, as monitor_tick does, without the timer (tests). */
void monitor_sample_now(struct monitor *m);

/* A load instance started as process pid (its own process group); measured
 * loads are sampled on every tick, background ones at start and end only.
 * Takes the start sample. Ignored outside an iteration. */
void monitor_task_start(struct monitor *m, pid_t pid, bool measured);

/* The load's process pid has exited and is not yet reaped (the runner peeks
 * with waitid WNOWAIT): take its final sample and close its files. Unknown
 * pids (orphans the runner reaps) are ignored. */
void monitor_task_end(struct monitor *m, pid_t pid);

/* The iteration ended (every process reaped): take a closing sample when at
 * least a quarter of interval_ms passed since the last one, add the rusage
 * series of each instance in res, disarm the timer, close task files. */
void monitor_iteration_end(struct monitor *m, const struct iteration_result *res);

/* The series of the iteration that ended last, once: NULL when none ended
 * since the previous call (e.g. the variant ran elsewhere). Valid until the
 * next monitor_iteration_begin or monitor_free. */
const struct stored_series_set *monitor_take_series(struct monitor *m);

#endif
