/* The always-on schedstat deltas of one load instance over the measured
 * window: what its tasks ran, waited and switched while the measured loads
 * ran, read from /proc (no trace needed, cheap).
 *
 * Per task (thread, of the load's process or of any process in the load's
 * cgroup): /proc/TID/task/TID/schedstat (run_ns, wait_ns, timeslices;
 * Documentation/scheduler/sched-stats.rst) and /proc/TID/task/TID/sched
 * (nr_voluntary_switches, nr_involuntary_switches, se.nr_migrations;
 * kernel/sched/debug.c), parsed by harness/monitor/procfs.h. A task's delta
 * is its last read minus its first read when it was there as the window
 * began (schedwin_begin with existing), else minus 0 (it was born inside
 * the window). The deltas of every task ever read are summed. Tasks are
 * read at schedwin_begin, at every schedwin_sample (the runner: once a
 * second and when the load exits, before it is reaped) and at schedwin_end,
 * so a task born and gone between two reads is not in the sums (a short
 * compiler job of a kernel build); what the whole cgroup used is exact in
 * cgroup_cpu_us (cpu.stat usage_usec, every task dead or alive).
 *
 * A read costs one pread per file: a task's two files (and the cgroup's
 * cgroup.threads and cpu.stat) are opened once and kept open while the
 * task lives (up to half the process's RLIMIT_NOFILE over every instance;
 * past it, a task's files are opened for each read), and a task is found
 * by a cursor in the order the kernel lists them, so a read of N tasks
 * costs 2N syscalls and O(N) time (bench/guest-scale.sh, docs/host-state.md). */
#ifndef SCHEDRIG_SCHEDWIN_H
#define SCHEDRIG_SCHEDWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "schedwin_totals.h"
#include "util.h"

struct schedwin_task {
	pid_t tid;
	uint64_t base[SCHEDWIN_N], last[SCHEDWIN_N];
	bool have_sched, have_schedstat;
	bool seen;                 /* listed by the read under way */
	int sched_fd, schedstat_fd; /* kept open; -1: opened for each read */
};

/* One instance's sampler. Zero it before schedwin_begin. */
struct schedwin {
	bool active;
	pid_t pid;
	char cgroup[1200];         /* the load's cgroup directory, "" none */
	struct schedwin_task *task;
	size_t n, cap;
	size_t cursor;             /* where the next task is looked for first */
	bool begun;                /* the fds below are set (schedwin_begin) */
	int threads_fd, cpustat_fd; /* the cgroup's, kept open; -1 none */
	struct buf list;           /* cgroup.threads as last read */
	bool existing;             /* begun on a running load: first reads are baselines */
	int64_t cg_base_us, cg_last_us;
	bool have_cg;
	int64_t begin_ns, end_ns;
};

/* Start sampling the instance pid (its process) with its cgroup directory
 * (NULL or "": none) at the window's start (existing: it ran before, so
 * its first reads are baselines) or at its own start inside the window
 * (not existing: every count starts from 0). Reads it once. */
void schedwin_begin(struct schedwin *w, pid_t pid, const char *cgroup, bool existing);

/* Read every task of the instance now (the cgroup's cgroup.threads, else
 * /proc/PID/task). Nothing when not active. */
void schedwin_sample(struct schedwin *w);

/* The last read (schedwin_sample) and the end of the instance's part of
 * the window; sampling stops. Call before the cgroup is removed. */
void schedwin_end(struct schedwin *w);

/* The sums of w (after schedwin_end) added to *t (zeroed by the caller,
 * cgroup_cpu_us -1 until a cgroup adds to it). */
void schedwin_add(const struct schedwin *w, struct schedwin_totals *t);

/* The ids of every task read, " TID" each, appended to b. */
void schedwin_tids(const struct schedwin *w, struct buf *b);

/* Free w's task table and close its files; w is zeroed. */
void schedwin_free(struct schedwin *w);

#endif
