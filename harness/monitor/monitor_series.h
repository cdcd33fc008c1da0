/* Private to harness/monitor/: the monitor sampler's state and the series
 * and points it grows (monitor_series.c), which its files share. monitor.c:
 * load tasks and the public interface (monitor.h); monitor_system.c: the
 * system-wide files (monitor_system.h). */
#ifndef SCHEDRIG_MONITOR_SERIES_H
#define SCHEDRIG_MONITOR_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs.h"
#include "store.h"
#include "util.h"

/* Per-thread files kept open at most; beyond that a thread's files are
 * opened, read and closed on each sample (RLIMIT_NOFILE is often 1024). */
#define MON_MAX_TASK_FDS 512
#define NO_SERIES UINT32_MAX

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct mon_thread {
	pid_t tid;
	int sched_fd, schedstat_fd;  /* -1: not kept open */
	uint32_t series;             /* first of N_SCHED_KEYS + 3 */
	bool seen;
};

struct mon_task {
	pid_t pid;
	bool measured, active;
	int dir_fd;                  /* /proc/PID/task */
	struct mon_thread *th;
	size_t n_th, cap_th;
	size_t cursor;               /* lookup hint: readdir order is stable */
};

struct psi_file {
	int fd;
	struct proc_psi prev;
	bool have_prev;
	uint32_t series;
};

struct monitor {
	int interval_ms;
	int timer_fd;
	int stat_fd, loadavg_fd, schedstat_fd;
	struct psi_file psi[3];
	struct buf notes;
	char *rbuf;
	size_t rcap;
	char dbuf[16384];

	/* /proc/stat: the previous and the current read; the structs swap. */
	size_t cpu_cap;
	struct proc_stat st_prev, st_cur;
	bool have_stat;
	uint32_t *stat_series;       /* [cpu + 1], [0] = the "cpu" line */
	uint32_t sys_series, loadavg_series;

	struct proc_schedstat ss_prev, ss_cur;
	bool have_ss;
	uint32_t *ss_series;         /* [cpu] */

	int64_t t0_ns, last_ns;
	bool in_iteration, fresh;

	struct stored_series *series;
	size_t n_series, cap_series;
	struct stored_point *points;
	size_t n_points, cap_points;
	struct stored_series_set set;

	struct mon_task *tasks;
	size_t n_tasks, cap_tasks;
	size_t task_fds;
};

/* Grow *p (*cap elements of size) to at least need, doubling. */
void mon_grow(void **p, size_t *cap, size_t need, size_t size);

/* The whole file fd in m->rbuf (NUL-terminated) with one pread at offset
 * 0, so the text is one consistent snapshot; the buffer doubles while the
 * file fills it. NULL on a read error. */
const char *mon_read_fd(struct monitor *m, int fd);

/* n series of monitor, one per key of keys, for cpu (-1: none), pid and
 * tgid (0: none). Returns the index of the first. */
uint32_t mon_add_series(struct monitor *m, const char *monitor, const char *const *keys,
			size_t n, int cpu, int pid, int tgid);

/* One point of series at t_ms (ms since the iteration began). */
void mon_add_point(struct monitor *m, uint32_t series, double t_ms, double value);

#endif
