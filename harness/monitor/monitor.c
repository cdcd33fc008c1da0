/* The monitor sampler: one timerfd, /proc files kept open and re-read with
 * pread, preallocated buffers. Formats: procfs.h. */
#include "monitor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"
#include "util.h"

/* Per-thread files kept open at most; beyond that a thread's files are
 * opened, read and closed on each sample (RLIMIT_NOFILE is often 1024). */
#define MON_MAX_TASK_FDS 512
#define NO_SERIES UINT32_MAX

static const char *const stat_keys[] = {
	"user_pct", "nice_pct",  "system_pct", "idle_pct", "iowait_pct",
	"irq_pct",  "softirq_pct", "steal_pct", "guest_pct",
};
enum { N_STAT_KEYS = sizeof(stat_keys) / sizeof(stat_keys[0]) };
static const char *const sys_keys[] = {"ctxt_per_s", "processes_per_s", "procs_running",
				       "procs_blocked"};
static const char *const loadavg_keys[] = {"load1", "load5", "load15", "runnable", "threads"};
/* Rates per second, but run_pct and wait_pct: % of the interval. lb_*:
 * load_balance() calls while the CPU was busy, idle, newly idle. */
static const char *const schedstat_keys[] = {
	"yld_per_s",        "sched_per_s", "sched_goidle_per_s", "ttwu_per_s",
	"ttwu_local_per_s", "timeslices_per_s", "run_pct",       "wait_pct",
	"lb_busy_per_s",    "lb_idle_per_s", "lb_newidle_per_s",
};
enum { N_SCHEDSTAT_KEYS = sizeof(schedstat_keys) / sizeof(schedstat_keys[0]) };
/* Per thread: the "sched" keys, then the "task_schedstat" keys. */
static const char *const task_sched_keys[] = {
	"sum_exec_runtime_ms", "nr_switches", "nr_voluntary_switches", "nr_involuntary_switches",
	"nr_migrations",       "slice_ns",    "wait_sum_ms",           "wait_count",
	"wait_max_ms",         "iowait_sum_ms", "iowait_count",
};
enum { N_SCHED_KEYS = sizeof(task_sched_keys) / sizeof(task_sched_keys[0]) };
static const char *const task_schedstat_keys[] = {"run_ns", "wait_ns", "timeslices"};
static const char *const rusage_keys[] = {"nvcsw", "nivcsw"};

static const char *const psi_names[] = {"cpu", "io", "memory"};
static const char *const psi_keys[3][4] = {
	{"cpu_some_avg10_pct", "cpu_some_pct", "cpu_full_avg10_pct", "cpu_full_pct"},
	{"io_some_avg10_pct", "io_some_pct", "io_full_avg10_pct", "io_full_pct"},
	{"memory_some_avg10_pct", "memory_some_pct", "memory_full_avg10_pct", "memory_full_pct"},
};

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

/* Grow *p (n elements of size) to at least need, doubling. */
static void grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	*p = xrealloc(*p, c * size);
	*cap = c;
}

/* The whole file in m->rbuf (NUL-terminated) with one pread at offset 0,
 * so the text is one consistent snapshot; the buffer doubles while the
 * file fills it. NULL on a read error. */
static const char *read_fd(struct monitor *m, int fd)
{
	for (;;) {
		ssize_t n = pread(fd, m->rbuf, m->rcap - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return NULL;
		if ((size_t)n < m->rcap - 1) {
			m->rbuf[n] = '\0';
			return m->rbuf;
		}
		m->rcap *= 2;
		m->rbuf = xrealloc(m->rbuf, m->rcap);
	}
}

static uint32_t add_series(struct monitor *m, const char *monitor, const char *const *keys,
			   size_t n, int cpu, int pid, int tgid)
{
	grow((void **)&m->series, &m->cap_series, m->n_series + n, sizeof(*m->series));
	uint32_t first = (uint32_t)m->n_series;
	for (size_t i = 0; i < n; i++)
		m->series[m->n_series++] = (struct stored_series){
			.monitor = monitor, .key = keys[i], .cpu = cpu, .pid = pid, .tgid = tgid};
	return first;
}

static void add_point(struct monitor *m, uint32_t series, double t_ms, double value)
{
	if (m->n_points == m->cap_points)
		grow((void **)&m->points, &m->cap_points, m->n_points + 1, sizeof(*m->points));
	m->points[m->n_points++] = (struct stored_point){series, t_ms, value};
}

/* Make room for CPU numbers below need in every per-CPU array. */
static void grow_cpus(struct monitor *m, size_t need)
{
	size_t old = m->cpu_cap, cap = old ? old : 1;
	while (cap < need)
		cap *= 2;
	if (cap == old)
		return;
	m->st_prev.cpu = xrealloc(m->st_prev.cpu, cap * sizeof(*m->st_prev.cpu));
	m->st_cur.cpu = xrealloc(m->st_cur.cpu, cap * sizeof(*m->st_cur.cpu));
	m->ss_prev.cpu = xrealloc(m->ss_prev.cpu, cap * sizeof(*m->ss_prev.cpu));
	m->ss_cur.cpu = xrealloc(m->ss_cur.cpu, cap * sizeof(*m->ss_cur.cpu));
	m->stat_series = xrealloc(m->stat_series, (cap + 1) * sizeof(*m->stat_series));
	m->ss_series = xrealloc(m->ss_series, cap * sizeof(*m->ss_series));
	if (!old)
		m->stat_series[0] = NO_SERIES;
	for (size_t i = old; i < cap; i++) {
		m->st_prev.cpu[i] = m->st_cur.cpu[i] = (struct proc_cpu_times){0};
		m->ss_prev.cpu[i] = m->ss_cur.cpu[i] = (struct schedstat_cpu){0};
		m->stat_series[i + 1] = NO_SERIES;
		m->ss_series[i] = NO_SERIES;
	}
	m->st_prev.cpu_cap = m->st_cur.cpu_cap = cap;
	m->ss_prev.cpu_cap = m->ss_cur.cpu_cap = cap;
	m->cpu_cap = cap;
}

/* Room for one more task slot; new slots are zeroed (a slot keeps its
 * thread array across iterations). */
static struct mon_task *task_slot(struct monitor *m)
{
	size_t old = m->cap_tasks;
	grow((void **)&m->tasks, &m->cap_tasks, m->n_tasks + 1, sizeof(*m->tasks));
	memset(m->tasks + old, 0, (m->cap_tasks - old) * sizeof(*m->tasks));
	return &m->tasks[m->n_tasks];
}

/* Read /proc/stat into st_cur. Returns 0 or -1. */
static int read_stat(struct monitor *m)
{
	for (;;) {
		const char *t = read_fd(m, m->stat_fd);
		if (!t || proc_stat_parse(t, &m->st_cur))
			return -1;
		if (!m->st_cur.truncated)
			return 0;
		grow_cpus(m, m->cpu_cap * 2);
	}
}

static int read_schedstat(struct monitor *m)
{
	for (;;) {
		const char *t = read_fd(m, m->schedstat_fd);
		if (!t || proc_schedstat_parse(t, &m->ss_cur))
			return -1;
		if (!m->ss_cur.truncated)
			return 0;
		grow_cpus(m, m->cpu_cap * 2);
	}
}

static void emit_cpu(struct monitor *m, size_t slot, int cpu, const struct proc_cpu_times *prev,
		     const struct proc_cpu_times *cur, double t_ms)
{
	struct cpu_util u;
	if (!proc_cpu_util(prev, cur, &u))
		return;
	if (m->stat_series[slot] == NO_SERIES)
		m->stat_series[slot] = add_series(m, "stat", stat_keys, N_STAT_KEYS, cpu, 0, 0);
	double v[N_STAT_KEYS] = {u.user_pct,   u.nice_pct,    u.system_pct,
				 u.idle_pct,   u.iowait_pct,  u.irq_pct,
				 u.softirq_pct, u.steal_pct,  u.guest_pct};
	for (size_t k = 0; k < N_STAT_KEYS; k++)
		add_point(m, m->stat_series[slot] + (uint32_t)k, t_ms, v[k]);
}

static void sample_stat(struct monitor *m, bool emit, double t_ms, double dt_s)
{
	if (read_stat(m))
		return;
	if (emit && m->have_stat) {
		emit_cpu(m, 0, -1, &m->st_prev.all, &m->st_cur.all, t_ms);
		size_t n = m->st_cur.n_cpu > m->st_prev.n_cpu ? m->st_cur.n_cpu : m->st_prev.n_cpu;
		for (size_t c = 0; c < n; c++)
			emit_cpu(m, c + 1, (int)c, &m->st_prev.cpu[c], &m->st_cur.cpu[c], t_ms);
		if (m->sys_series == NO_SERIES)
			m->sys_series = add_series(m, "stat", sys_keys, N_OF(sys_keys), -1, 0, 0);
		const struct proc_stat *a = &m->st_prev, *b = &m->st_cur;
		if (b->ctxt >= a->ctxt)
			add_point(m, m->sys_series, t_ms, (double)(b->ctxt - a->ctxt) / dt_s);
		if (b->processes >= a->processes)
			add_point(m, m->sys_series + 1, t_ms,
				  (double)(b->processes - a->processes) / dt_s);
		add_point(m, m->sys_series + 2, t_ms, (double)b->procs_running);
		add_point(m, m->sys_series + 3, t_ms, (double)b->procs_blocked);
	}
	struct proc_stat tmp = m->st_prev;
	m->st_prev = m->st_cur;
	m->st_cur = tmp;
	m->have_stat = true;
}

static void sample_psi(struct monitor *m, bool emit, double t_ms, double dt_s)
{
	for (int i = 0; i < 3; i++) {
		struct psi_file *f = &m->psi[i];
		struct proc_psi cur;
		const char *t;
		if (f->fd < 0 || !(t = read_fd(m, f->fd)) || proc_psi_parse(t, &cur))
			continue;
		if (emit && f->have_prev) {
			if (f->series == NO_SERIES)
				f->series = add_series(m, "psi", psi_keys[i], 4, -1, 0, 0);
			const struct psi_line *pl[2][2] = {{&f->prev.some, &cur.some},
							   {&f->prev.full, &cur.full}};
			for (int k = 0; k < 2; k++) {
				const struct psi_line *a = pl[k][0], *b = pl[k][1];
				if (!b->present)
					continue;
				add_point(m, f->series + 2 * k, t_ms, b->avg10_pct);
				if (a->present && b->total_us >= a->total_us)
					add_point(m, f->series + 2 * k + 1, t_ms,
						  (double)(b->total_us - a->total_us) / (dt_s * 1e4));
			}
		}
		f->prev = cur;
		f->have_prev = true;
	}
}

/* The counters of a cpu line in the order of schedstat_keys. */
static void schedstat_fields(const struct schedstat_cpu *c, uint64_t f[N_SCHEDSTAT_KEYS])
{
	const uint64_t v[N_SCHEDSTAT_KEYS] = {
		c->yld_count,  c->sched_count, c->sched_goidle, c->ttwu_count, c->ttwu_local,
		c->timeslices, c->run_time_ns, c->wait_time_ns, c->lb_count[SCHEDSTAT_LB_BUSY],
		c->lb_count[SCHEDSTAT_LB_IDLE], c->lb_count[SCHEDSTAT_LB_NEWIDLE]};
	memcpy(f, v, sizeof(v));
}

static void sample_schedstat(struct monitor *m, bool emit, double t_ms, double dt_s)
{
	if (m->schedstat_fd < 0 || read_schedstat(m))
		return;
	if (emit && m->have_ss) {
		size_t n = m->ss_cur.n_cpu;
		for (size_t c = 0; c < n; c++) {
			const struct schedstat_cpu *a = &m->ss_prev.cpu[c], *b = &m->ss_cur.cpu[c];
			if (!a->present || !b->present)
				continue;
			uint64_t pa[N_SCHEDSTAT_KEYS], pb[N_SCHEDSTAT_KEYS];
			schedstat_fields(a, pa);
			schedstat_fields(b, pb);
			bool back = false;
			for (size_t k = 0; k < N_SCHEDSTAT_KEYS; k++)
				back |= pb[k] < pa[k];
			if (back)
				continue;
			if (m->ss_series[c] == NO_SERIES)
				m->ss_series[c] = add_series(m, "schedstat", schedstat_keys,
							     N_SCHEDSTAT_KEYS, (int)c, 0, 0);
			for (size_t k = 0; k < N_SCHEDSTAT_KEYS; k++) {
				double d = (double)(pb[k] - pa[k]);
				/* run and wait are ns: % of the interval */
				bool ns = k == 6 || k == 7;
				double v = ns ? d / (dt_s * 1e7) : d / dt_s;
				add_point(m, m->ss_series[c] + (uint32_t)k, t_ms, v);
			}
		}
	}
	struct proc_schedstat tmp = m->ss_prev;
	m->ss_prev = m->ss_cur;
	m->ss_cur = tmp;
	m->have_ss = true;
}

static void sample_loadavg(struct monitor *m, double t_ms)
{
	struct proc_loadavg la;
	const char *t;
	if (m->loadavg_fd < 0 || !(t = read_fd(m, m->loadavg_fd)) || proc_loadavg_parse(t, &la))
		return;
	if (m->loadavg_series == NO_SERIES)
		m->loadavg_series =
			add_series(m, "loadavg", loadavg_keys, N_OF(loadavg_keys), -1, 0, 0);
	double v[] = {la.load1, la.load5, la.load15, (double)la.runnable, (double)la.threads};
	for (size_t k = 0; k < N_OF(v); k++)
		add_point(m, m->loadavg_series + (uint32_t)k, t_ms, v[k]);
}

/* System files; emit = false only for the baseline at iteration start. */
static void sample_system(struct monitor *m, int64_t now, bool emit)
{
	double t_ms = (double)(now - m->t0_ns) / 1e6;
	double dt_s = (double)(now - m->last_ns) / 1e9;
	if (dt_s <= 0)
		emit = false;
	sample_stat(m, emit, t_ms, dt_s);
	sample_psi(m, emit, t_ms, dt_s);
	sample_schedstat(m, emit, t_ms, dt_s);
	if (emit)
		sample_loadavg(m, t_ms);
	m->last_ns = now;
}

/* ---- load tasks ------------------------------------------------------------ */

static void close_fd(struct monitor *m, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		m->task_fds--;
		*fd = -1;
	}
}

static int open_task_file(struct monitor *m, const struct mon_task *t, pid_t tid,
			  const char *name, bool keep)
{
	char path[64];
	snprintf(path, sizeof(path), "%d/%s", (int)tid, name);
	int fd = openat(t->dir_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && keep)
		m->task_fds++;
	return fd;
}

static void sample_thread(struct monitor *m, struct mon_task *t, struct mon_thread *th,
			  double t_ms)
{
	struct proc_task_sched s;
	struct proc_task_schedstat ss;
	const char *text;
	int fd;

	fd = th->sched_fd >= 0 ? th->sched_fd : open_task_file(m, t, th->tid, "sched", false);
	if (fd >= 0 && (text = read_fd(m, fd)) && !proc_task_sched_parse(text, &s)) {
		double v[N_SCHED_KEYS] = {
			s.sum_exec_runtime_ms, (double)s.nr_switches, (double)s.nr_voluntary_switches,
			(double)s.nr_involuntary_switches, (double)s.nr_migrations,
			(double)s.slice_ns, s.wait_sum_ms, (double)s.wait_count, s.wait_max_ms,
			s.iowait_sum_ms, (double)s.iowait_count,
		};
		bool have[N_SCHED_KEYS] = {true, true, true, true, true, s.has_slice,
					   s.has_wait, s.has_wait, s.has_wait, s.has_iowait,
					   s.has_iowait};
		for (size_t k = 0; k < N_SCHED_KEYS; k++)
			if (have[k])
				add_point(m, th->series + (uint32_t)k, t_ms, v[k]);
	}
	if (fd >= 0 && fd != th->sched_fd)
		close(fd);

	fd = th->schedstat_fd >= 0 ? th->schedstat_fd
				   : open_task_file(m, t, th->tid, "schedstat", false);
	if (fd >= 0 && (text = read_fd(m, fd)) && !proc_task_schedstat_parse(text, &ss)) {
		double v[] = {(double)ss.run_ns, (double)ss.wait_ns, (double)ss.timeslices};
		for (size_t k = 0; k < N_OF(v); k++)
			add_point(m, th->series + N_SCHED_KEYS + (uint32_t)k, t_ms, v[k]);
	}
	if (fd >= 0 && fd != th->schedstat_fd)
		close(fd);
}

static struct mon_thread *find_thread(struct monitor *m, struct mon_task *t, pid_t tid)
{
	for (size_t i = 0; i < t->n_th; i++) {
		size_t k = (t->cursor + i) % t->n_th;
		if (t->th[k].tid == tid) {
			t->cursor = k + 1 < t->n_th ? k + 1 : 0;
			return &t->th[k];
		}
	}
	grow((void **)&t->th, &t->cap_th, t->n_th + 1, sizeof(*t->th));
	struct mon_thread *th = &t->th[t->n_th++];
	bool keep = m->task_fds + 2 <= MON_MAX_TASK_FDS;
	*th = (struct mon_thread){.tid = tid, .sched_fd = -1, .schedstat_fd = -1};
	if (keep) {
		th->sched_fd = open_task_file(m, t, tid, "sched", true);
		th->schedstat_fd = open_task_file(m, t, tid, "schedstat", true);
	}
	th->series = add_series(m, "sched", task_sched_keys, N_SCHED_KEYS, -1, (int)tid, (int)t->pid);
	add_series(m, "task_schedstat", task_schedstat_keys, N_OF(task_schedstat_keys), -1,
		   (int)tid, (int)t->pid);
	return th;
}

/* Every thread of the task, listed with getdents64 on the kept-open
 * /proc/PID/task (no DIR allocation). Threads that are gone lose their fds. */
static void sample_task(struct monitor *m, struct mon_task *t, double t_ms)
{
	for (size_t i = 0; i < t->n_th; i++)
		t->th[i].seen = false;
	if (lseek(t->dir_fd, 0, SEEK_SET) == 0) {
		ssize_t n;
		while ((n = getdents64(t->dir_fd, m->dbuf, sizeof(m->dbuf))) > 0) {
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(m->dbuf + off);
				off += d->d_reclen;
				long tid = 0;
				const char *c = d->d_name;
				for (; *c >= '0' && *c <= '9' && tid < 1L << 30; c++)
					tid = tid * 10 + (*c - '0');
				if (*c || !tid)
					continue;
				struct mon_thread *th = find_thread(m, t, (pid_t)tid);
				th->seen = true;
				sample_thread(m, t, th, t_ms);
			}
		}
	}
	for (size_t i = 0; i < t->n_th; i++) {
		if (t->th[i].seen)
			continue;
		close_fd(m, &t->th[i].sched_fd);
		close_fd(m, &t->th[i].schedstat_fd);
	}
}

static void close_task(struct monitor *m, struct mon_task *t)
{
	for (size_t i = 0; i < t->n_th; i++) {
		close_fd(m, &t->th[i].sched_fd);
		close_fd(m, &t->th[i].schedstat_fd);
	}
	if (t->dir_fd >= 0)
		close(t->dir_fd);
	t->dir_fd = -1;
	t->active = false;
}

/* ---- the public interface --------------------------------------------------- */

static int open_rel(const char *root, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

struct monitor *monitor_create(const char *proc_root, int interval_ms, char *err, size_t errsz)
{
	struct monitor *m = xcalloc(1, sizeof(*m));
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	m->interval_ms = interval_ms > 0 ? interval_ms : MONITOR_DEFAULT_INTERVAL_MS;
	m->timer_fd = m->loadavg_fd = m->schedstat_fd = -1;
	for (int i = 0; i < 3; i++)
		m->psi[i] = (struct psi_file){.fd = -1, .series = NO_SERIES};
	m->rcap = 65536;
	m->rbuf = xmalloc(m->rcap);
	grow_cpus(m, ncpu > 0 ? (size_t)ncpu : 1);
	grow((void **)&m->series, &m->cap_series, 256, sizeof(*m->series));
	grow((void **)&m->points, &m->cap_points, 4096, sizeof(*m->points));
	task_slot(m);

	m->stat_fd = open_rel(proc_root, "stat");
	if (m->stat_fd < 0 || read_stat(m)) {
		snprintf(err, errsz, "monitors: cannot read %s/stat: %s", proc_root,
			 m->stat_fd < 0 ? strerror(errno) : "not in /proc/stat format");
		monitor_free(m);
		return NULL;
	}
	m->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (m->timer_fd < 0) {
		snprintf(err, errsz, "monitors: timerfd_create: %s", strerror(errno));
		monitor_free(m);
		return NULL;
	}
	if ((m->loadavg_fd = open_rel(proc_root, "loadavg")) < 0)
		buf_printf(&m->notes,
			   "monitors: %s/loadavg is absent: loadavg series are skipped\n", proc_root);
	for (int i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "pressure/%s", psi_names[i]);
		if ((m->psi[i].fd = open_rel(proc_root, name)) < 0)
			buf_printf(&m->notes,
				   "monitors: %s/%s is absent on this kernel (no PSI): psi %s"
				   " series are skipped\n", proc_root, name, psi_names[i]);
	}
	if ((m->schedstat_fd = open_rel(proc_root, "schedstat")) < 0)
		buf_printf(&m->notes,
			   "monitors: %s/schedstat is absent on this kernel (CONFIG_SCHEDSTATS"
			   " off): per-CPU schedstat series are skipped\n", proc_root);
	else if (read_schedstat(m)) {
		int v = m->ss_cur.version;
		if (v == 15 || v == 16 || v == 17)
			buf_printf(&m->notes, "monitors: %s/schedstat does not have the layout of its"
				   " version %d: per-CPU schedstat series are skipped\n", proc_root, v);
		else
			buf_printf(&m->notes, "monitors: %s/schedstat is of version %d, not one this"
				   " rig reads (15, 16, 17: their fields differ): per-CPU schedstat"
				   " series are skipped\n", proc_root, v);
		close(m->schedstat_fd);
		m->schedstat_fd = -1;
	}
	return m;
}

void monitor_free(struct monitor *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_tasks; i++)
		if (m->tasks[i].active)
			close_task(m, &m->tasks[i]);
	for (size_t i = 0; i < m->cap_tasks; i++)
		free(m->tasks[i].th);
	int fds[] = {m->timer_fd, m->stat_fd, m->loadavg_fd, m->schedstat_fd,
		     m->psi[0].fd, m->psi[1].fd, m->psi[2].fd};
	for (size_t i = 0; i < N_OF(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(m->tasks);
	free(m->series);
	free(m->points);
	free(m->st_prev.cpu);
	free(m->st_cur.cpu);
	free(m->ss_prev.cpu);
	free(m->ss_cur.cpu);
	free(m->stat_series);
	free(m->ss_series);
	free(m->rbuf);
	buf_free(&m->notes);
	free(m);
}

const char *monitor_notes(const struct monitor *m)
{
	return buf_str(&m->notes);
}

int monitor_fd(const struct monitor *m)
{
	return m->timer_fd;
}

static void arm(struct monitor *m, bool on)
{
	struct itimerspec its = {0};
	if (on) {
		its.it_interval.tv_sec = m->interval_ms / 1000;
		its.it_interval.tv_nsec = (long)(m->interval_ms % 1000) * 1000000;
		its.it_value = its.it_interval;
	}
	timerfd_settime(m->timer_fd, 0, &its, NULL);
}

void monitor_iteration_begin(struct monitor *m)
{
	for (size_t i = 0; i < m->n_tasks; i++)
		if (m->tasks[i].active)
			close_task(m, &m->tasks[i]);
	m->n_tasks = 0;
	m->n_series = m->n_points = 0;
	for (size_t i = 0; i <= m->cpu_cap; i++)
		m->stat_series[i] = NO_SERIES;
	for (size_t i = 0; i < m->cpu_cap; i++)
		m->ss_series[i] = NO_SERIES;
	m->sys_series = m->loadavg_series = NO_SERIES;
	for (int i = 0; i < 3; i++) {
		m->psi[i].series = NO_SERIES;
		m->psi[i].have_prev = false;
	}
	m->have_stat = m->have_ss = false;
	m->fresh = false;
	m->t0_ns = m->last_ns = mono_ns();
	sample_system(m, m->t0_ns, false);
	m->in_iteration = true;
	arm(m, true);
}

void monitor_sample_now(struct monitor *m)
{
	if (!m->in_iteration)
		return;
	int64_t now = mono_ns();
	double t_ms = (double)(now - m->t0_ns) / 1e6;
	sample_system(m, now, true);
	for (size_t i = 0; i < m->n_tasks; i++)
		if (m->tasks[i].active && m->tasks[i].measured)
			sample_task(m, &m->tasks[i], t_ms);
}

void monitor_tick(struct monitor *m)
{
	uint64_t expirations;
	if (read(m->timer_fd, &expirations, sizeof(expirations)) != sizeof(expirations))
		return;
	monitor_sample_now(m);
}

void monitor_task_start(struct monitor *m, pid_t pid, bool measured)
{
	char path[64];
	if (!m->in_iteration || pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	struct mon_task *t = task_slot(m);
	m->n_tasks++;
	t->pid = pid;
	t->measured = measured;
	t->active = true;
	t->dir_fd = fd;
	t->n_th = 0;
	t->cursor = 0;
	sample_task(m, t, (double)(mono_ns() - m->t0_ns) / 1e6);
}

void monitor_task_end(struct monitor *m, pid_t pid)
{
	for (size_t i = 0; i < m->n_tasks; i++) {
		struct mon_task *t = &m->tasks[i];
		if (!t->active || t->pid != pid)
			continue;
		sample_task(m, t, (double)(mono_ns() - m->t0_ns) / 1e6);
		close_task(m, t);
	}
}

void monitor_iteration_end(struct monitor *m, const struct iteration_result *res)
{
	if (!m->in_iteration)
		return;
	arm(m, false);
	int64_t now = mono_ns();
	if (now - m->last_ns >= (int64_t)m->interval_ms * 1000000 / 4)
		sample_system(m, now, true);
	for (size_t i = 0; i < m->n_tasks; i++)
		if (m->tasks[i].active)
			close_task(m, &m->tasks[i]);
	for (size_t i = 0; res && i < res->n; i++) {
		const struct inst_result *r = &res->r[i];
		if (r->pid <= 0 || !r->end_ns)
			continue;
		double t_ms = (double)(r->end_ns - m->t0_ns) / 1e6;
		uint32_t s = add_series(m, "rusage", rusage_keys, N_OF(rusage_keys), -1, (int)r->pid,
					(int)r->pid);
		add_point(m, s, t_ms, (double)r->ru.ru_nvcsw);
		add_point(m, s + 1, t_ms, (double)r->ru.ru_nivcsw);
	}
	m->set = (struct stored_series_set){m->series, m->n_series, m->points, m->n_points};
	m->in_iteration = false;
	m->fresh = true;
}

const struct stored_series_set *monitor_take_series(struct monitor *m)
{
	if (!m || !m->fresh)
		return NULL;
	m->fresh = false;
	return &m->set;
}
