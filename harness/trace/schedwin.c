/* Schedstat deltas of a load instance over the measured window (schedwin.h). */
#include "schedwin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "procfs.h"

/* Task files kept open by every instance together, and the most allowed
 * (half of RLIMIT_NOFILE's soft limit, read once: the rest is the rig's). */
static size_t kept_fds;
static size_t max_kept_fds = SIZE_MAX;

static bool may_keep_fd(void)
{
	if (max_kept_fds == SIZE_MAX) {
		struct rlimit rl;
		max_kept_fds = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
				       ? (size_t)rl.rlim_cur / 2
				       : 512;
	}
	return kept_fds < max_kept_fds;
}

static void close_kept(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		kept_fds--;
	}
	*fd = -1;
}

/* fd's whole small file, from offset 0, into buf (NUL-terminated). 0 or -1. */
static int pread_small(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Read /proc/TID/task/TID/NAME into buf through *kept: its kept-open fd,
 * opened (and kept when the budget allows) when -1; a kept fd that fails
 * (a task gone, its id reused) is closed and the file opened again once.
 * 0 or -1. */
static int read_task_file(pid_t tid, const char *name, int *kept, char *buf, size_t size)
{
	if (*kept >= 0 && !pread_small(*kept, buf, size))
		return 0;
	close_kept(kept);
	char path[96];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)tid, (int)tid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = pread_small(fd, buf, size);
	if (!rc && may_keep_fd()) {
		*kept = fd;
		kept_fds++;
	} else {
		close(fd);
	}
	return rc;
}

/* The task tid of w, and whether it was known: looked for from the cursor
 * on (the kernel lists tasks in one order, so the next one is usually
 * there), else appended with no files open. */
static struct schedwin_task *task_of(struct schedwin *w, pid_t tid, bool *known)
{
	for (size_t i = 0; i < w->n; i++) {
		size_t k = (w->cursor + i) % w->n;
		if (w->task[k].tid == tid) {
			w->cursor = k + 1 < w->n ? k + 1 : 0;
			*known = true;
			return &w->task[k];
		}
	}
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->task = xrealloc(w->task, w->cap * sizeof(*w->task));
	}
	struct schedwin_task *t = &w->task[w->n++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->sched_fd = t->schedstat_fd = -1;
	w->cursor = 0;
	*known = false;
	return t;
}

/* Read one task; first_round: its first read (a baseline when existing). */
static void read_task(struct schedwin *w, pid_t tid, bool first_round)
{
	char text[8192];
	uint64_t v[SCHEDWIN_N] = {0};
	bool sched = false, schedstat = false, known;
	struct proc_task_schedstat ss;
	struct proc_task_sched s;
	struct schedwin_task *t = task_of(w, tid, &known);

	t->seen = true;
	if (!read_task_file(tid, "schedstat", &t->schedstat_fd, text, sizeof(text)) &&
	    !proc_task_schedstat_parse(text, &ss)) {
		v[SCHEDWIN_RUN_NS] = ss.run_ns;
		v[SCHEDWIN_WAIT_NS] = ss.wait_ns;
		v[SCHEDWIN_TIMESLICES] = ss.timeslices;
		schedstat = true;
	}
	if (!read_task_file(tid, "sched", &t->sched_fd, text, sizeof(text)) &&
	    !proc_task_sched_parse(text, &s)) {
		v[SCHEDWIN_VOL_SWITCHES] = s.nr_voluntary_switches;
		v[SCHEDWIN_INVOL_SWITCHES] = s.nr_involuntary_switches;
		v[SCHEDWIN_MIGRATIONS] = s.nr_migrations;
		sched = true;
	}
	if (!sched && !schedstat) {
		if (!known)
			w->n--; /* gone before its first read: never there */
		return;
	}
	if (!known && w->existing && first_round)
		memcpy(t->base, v, sizeof(v));
	/* Counters only grow: a smaller value is another task with a reused id. */
	for (int k = 0; k < SCHEDWIN_N; k++)
		if (v[k] >= t->last[k] || !known)
			t->last[k] = v[k];
	t->have_sched |= sched;
	t->have_schedstat |= schedstat;
}

/* The cgroup's file name (kept open in *fd) whole into w->list. 0 or -1. */
static int read_cgroup_file(struct schedwin *w, const char *name, int *fd)
{
	if (*fd < 0) {
		char path[1300];
		snprintf(path, sizeof(path), "%s/%s", w->cgroup, name);
		if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
	}
	w->list.len = 0;
	for (;;) {
		char chunk[16384];
		ssize_t n = pread(*fd, chunk, sizeof(chunk), (off_t)w->list.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		buf_append(&w->list, chunk, (size_t)n);
	}
	buf_puts(&w->list, "");
	return 0;
}

/* cpu.stat usage_usec of the cgroup, -1 when unreadable. */
static int64_t cgroup_usage_us(struct schedwin *w)
{
	if (read_cgroup_file(w, "cpu.stat", &w->cpustat_fd))
		return -1;
	const char *p = strstr(w->list.data, "usage_usec ");
	long long v;
	return p && sscanf(p + 11, "%lld", &v) == 1 && v >= 0 ? v : -1;
}

/* The tasks of the cgroup (cgroup.threads: one id a line), read. */
static void read_cgroup(struct schedwin *w, bool first_round)
{
	if (!read_cgroup_file(w, "cgroup.threads", &w->threads_fd)) {
		/* Split in place: read_task does not touch w->list. */
		char *save = NULL;
		for (char *l = strtok_r(w->list.data, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			long long tid;
			if (parse_ll(l, &tid) && tid > 0)
				read_task(w, (pid_t)tid, first_round);
		}
	}
	int64_t us = cgroup_usage_us(w);
	if (us >= 0) {
		if (!w->have_cg)
			w->cg_base_us = w->existing ? us : 0;
		w->cg_last_us = us;
		w->have_cg = true;
	}
}

/* Every task id of the instance: cgroup.threads, else /proc/PID/task;
 * the files of a task no longer listed are closed (it is gone). */
static void read_all(struct schedwin *w, bool first_round)
{
	for (size_t i = 0; i < w->n; i++)
		w->task[i].seen = false;
	if (w->cgroup[0]) {
		read_cgroup(w, first_round);
	} else {
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%d/task", (int)w->pid);
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			long long tid;
			if (parse_ll(de->d_name, &tid) && tid > 0)
				read_task(w, (pid_t)tid, first_round);
		}
		if (d)
			closedir(d);
	}
	for (size_t i = 0; i < w->n; i++) {
		if (w->task[i].seen)
			continue;
		close_kept(&w->task[i].sched_fd);
		close_kept(&w->task[i].schedstat_fd);
	}
}

/* Close every file w keeps open. */
static void close_files(struct schedwin *w)
{
	if (!w->begun)
		return;
	for (size_t i = 0; i < w->n; i++) {
		close_kept(&w->task[i].sched_fd);
		close_kept(&w->task[i].schedstat_fd);
	}
	if (w->threads_fd >= 0)
		close(w->threads_fd);
	if (w->cpustat_fd >= 0)
		close(w->cpustat_fd);
	w->threads_fd = w->cpustat_fd = -1;
}

void schedwin_begin(struct schedwin *w, pid_t pid, const char *cgroup, bool existing)
{
	schedwin_free(w);
	w->begun = true;
	w->threads_fd = w->cpustat_fd = -1;
	w->active = pid > 0;
	w->pid = pid;
	w->existing = existing;
	snprintf(w->cgroup, sizeof(w->cgroup), "%s", cgroup ? cgroup : "");
	w->begin_ns = mono_ns();
	if (w->active)
		read_all(w, true);
}

void schedwin_sample(struct schedwin *w)
{
	if (w->active)
		read_all(w, false);
}

void schedwin_end(struct schedwin *w)
{
	if (!w->active)
		return;
	read_all(w, false);
	close_files(w);
	w->end_ns = mono_ns();
	w->active = false;
}

void schedwin_add(const struct schedwin *w, struct schedwin_totals *t)
{
	if (!w->pid)
		return;
	for (size_t i = 0; i < w->n; i++) {
		const struct schedwin_task *k = &w->task[i];
		for (int c = 0; c < SCHEDWIN_N; c++)
			t->v[c] += k->last[c] >= k->base[c] ? k->last[c] - k->base[c] : 0;
	}
	t->tasks += w->n;
	t->valid |= w->n > 0;
	if (w->have_cg)
		t->cgroup_cpu_us = (t->cgroup_cpu_us > 0 ? t->cgroup_cpu_us : 0) +
				   (w->cg_last_us > w->cg_base_us ? w->cg_last_us - w->cg_base_us : 0);
	int64_t end = w->end_ns ? w->end_ns : mono_ns();
	t->ns += end > w->begin_ns ? end - w->begin_ns : 0;
}

void schedwin_tids(const struct schedwin *w, struct buf *b)
{
	for (size_t i = 0; i < w->n; i++)
		buf_printf(b, " %d", (int)w->task[i].tid);
}

void schedwin_free(struct schedwin *w)
{
	close_files(w);
	free(w->task);
	buf_free(&w->list);
	memset(w, 0, sizeof(*w));
}
