/* The monitor sampler: one timerfd, /proc files kept open and re-read with
 * pread, preallocated buffers. Formats: procfs.h. Here: the series and
 * points, the load tasks' threads, the public interface; the system-wide
 * files: monitor_system.c. */
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

#include "monitor_series.h"
#include "monitor_system.h"

/* Per thread: the "sched" keys, then the "task_schedstat" keys. */
static const char *const task_sched_keys[] = {
	"sum_exec_runtime_ms", "nr_switches", "nr_voluntary_switches", "nr_involuntary_switches",
	"nr_migrations",       "slice_ns",    "wait_sum_ms",           "wait_count",
	"wait_max_ms",         "iowait_sum_ms", "iowait_count",
};
enum { N_SCHED_KEYS = sizeof(task_sched_keys) / sizeof(task_sched_keys[0]) };
static const char *const task_schedstat_keys[] = {"run_ns", "wait_ns", "timeslices"};
static const char *const rusage_keys[] = {"nvcsw", "nivcsw"};

/* Room for one more task slot; new slots are zeroed (a slot keeps its
 * thread array across iterations). */
static struct mon_task *task_slot(struct monitor *m)
{
	size_t old = m->cap_tasks;
	mon_grow((void **)&m->tasks, &m->cap_tasks, m->n_tasks + 1, sizeof(*m->tasks));
	memset(m->tasks + old, 0, (m->cap_tasks - old) * sizeof(*m->tasks));
	return &m->tasks[m->n_tasks];
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
	if (fd >= 0 && (text = mon_read_fd(m, fd)) && !proc_task_sched_parse(text, &s)) {
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
				mon_add_point(m, th->series + (uint32_t)k, t_ms, v[k]);
	}
	if (fd >= 0 && fd != th->sched_fd)
		close(fd);

	fd = th->schedstat_fd >= 0 ? th->schedstat_fd
				   : open_task_file(m, t, th->tid, "schedstat", false);
	if (fd >= 0 && (text = mon_read_fd(m, fd)) && !proc_task_schedstat_parse(text, &ss)) {
		double v[] = {(double)ss.run_ns, (double)ss.wait_ns, (double)ss.timeslices};
		for (size_t k = 0; k < N_OF(v); k++)
			mon_add_point(m, th->series + N_SCHED_KEYS + (uint32_t)k, t_ms, v[k]);
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
	mon_grow((void **)&t->th, &t->cap_th, t->n_th + 1, sizeof(*t->th));
	struct mon_thread *th = &t->th[t->n_th++];
	bool keep = m->task_fds + 2 <= MON_MAX_TASK_FDS;
	*th = (struct mon_thread){.tid = tid, .sched_fd = -1, .schedstat_fd = -1};
	if (keep) {
		th->sched_fd = open_task_file(m, t, tid, "sched", true);
		th->schedstat_fd = open_task_file(m, t, tid, "schedstat", true);
	}
	th->series = mon_add_series(m, "sched", task_sched_keys, N_SCHED_KEYS, -1, (int)tid, (int)t->pid);
	mon_add_series(m, "task_schedstat", task_schedstat_keys, N_OF(task_schedstat_keys), -1,
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
	mon_grow_cpus(m, ncpu > 0 ? (size_t)ncpu : 1);
	mon_grow((void **)&m->series, &m->cap_series, 256, sizeof(*m->series));
	mon_grow((void **)&m->points, &m->cap_points, 4096, sizeof(*m->points));
	task_slot(m);

	if (mon_system_open(m, proc_root, err, errsz)) {
		monitor_free(m);
		return NULL;
	}
	m->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (m->timer_fd < 0) {
		snprintf(err, errsz, "monitors: timerfd_create: %s", strerror(errno));
		monitor_free(m);
		return NULL;
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
	mon_system_reset(m);
	m->fresh = false;
	m->t0_ns = m->last_ns = mono_ns();
	mon_sample_system(m, m->t0_ns, false);
	m->in_iteration = true;
	arm(m, true);
}

void monitor_sample_now(struct monitor *m)
{
	if (!m->in_iteration)
		return;
	int64_t now = mono_ns();
	double t_ms = (double)(now - m->t0_ns) / 1e6;
	mon_sample_system(m, now, true);
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
		mon_sample_system(m, now, true);
	for (size_t i = 0; i < m->n_tasks; i++)
		if (m->tasks[i].active)
			close_task(m, &m->tasks[i]);
	for (size_t i = 0; res && i < res->n; i++) {
		const struct inst_result *r = &res->r[i];
		if (r->pid <= 0 || !r->end_ns)
			continue;
		double t_ms = (double)(r->end_ns - m->t0_ns) / 1e6;
		uint32_t s = mon_add_series(m, "rusage", rusage_keys, N_OF(rusage_keys), -1, (int)r->pid,
					(int)r->pid);
		mon_add_point(m, s, t_ms, (double)r->ru.ru_nvcsw);
		mon_add_point(m, s + 1, t_ms, (double)r->ru.ru_nivcsw);
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
