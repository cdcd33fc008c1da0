/* Schedstat deltas of a load instance over the measured window (schedwin.h). */
#include "schedwin.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs.h"

/* The whole small file at path into buf (NUL-terminated). 0 or -1. */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static struct schedwin_task *task_of(struct schedwin *w, pid_t tid)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->task[i].tid == tid)
			return &w->task[i];
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->task = xrealloc(w->task, w->cap * sizeof(*w->task));
	}
	struct schedwin_task *t = &w->task[w->n++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
}

/* Read one task; first: its first read (a baseline when existing). */
static void read_task(struct schedwin *w, pid_t tid, bool first_round)
{
	char path[96], text[8192];
	uint64_t v[SCHEDWIN_N] = {0};
	bool sched = false, schedstat = false;
	struct proc_task_schedstat ss;
	struct proc_task_sched s;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)tid, (int)tid);
	if (!read_small(path, text, sizeof(text)) && !proc_task_schedstat_parse(text, &ss)) {
		v[SCHEDWIN_RUN_NS] = ss.run_ns;
		v[SCHEDWIN_WAIT_NS] = ss.wait_ns;
		v[SCHEDWIN_TIMESLICES] = ss.timeslices;
		schedstat = true;
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", (int)tid, (int)tid);
	if (!read_small(path, text, sizeof(text)) && !proc_task_sched_parse(text, &s)) {
		v[SCHEDWIN_VOL_SWITCHES] = s.nr_voluntary_switches;
		v[SCHEDWIN_INVOL_SWITCHES] = s.nr_involuntary_switches;
		v[SCHEDWIN_MIGRATIONS] = s.nr_migrations;
		sched = true;
	}
	if (!sched && !schedstat)
		return; /* gone meanwhile */
	bool known = false;
	for (size_t i = 0; i < w->n && !known; i++)
		known = w->task[i].tid == tid;
	struct schedwin_task *t = task_of(w, tid);
	if (!known && w->existing && first_round)
		memcpy(t->base, v, sizeof(v));
	/* Counters only grow: a smaller value is another task with a reused id. */
	for (int k = 0; k < SCHEDWIN_N; k++)
		if (v[k] >= t->last[k] || !known)
			t->last[k] = v[k];
	t->have_sched |= sched;
	t->have_schedstat |= schedstat;
}

/* cpu.stat usage_usec of the cgroup, -1 when unreadable. */
static int64_t cgroup_usage_us(const char *cgroup)
{
	char path[1300], text[2048];
	snprintf(path, sizeof(path), "%s/cpu.stat", cgroup);
	if (read_small(path, text, sizeof(text)))
		return -1;
	const char *p = strstr(text, "usage_usec ");
	long long v;
	return p && sscanf(p + 11, "%lld", &v) == 1 && v >= 0 ? v : -1;
}

/* Every task id of the instance: cgroup.threads, else /proc/PID/task. */
static void read_all(struct schedwin *w, bool first_round)
{
	if (w->cgroup[0]) {
		char path[1300];
		snprintf(path, sizeof(path), "%s/cgroup.threads", w->cgroup);
		FILE *f = fopen(path, "re");
		if (f) {
			long long tid;
			while (fscanf(f, "%lld", &tid) == 1)
				if (tid > 0)
					read_task(w, (pid_t)tid, first_round);
			fclose(f);
		}
		int64_t us = cgroup_usage_us(w->cgroup);
		if (us >= 0) {
			if (!w->have_cg)
				w->cg_base_us = w->existing ? us : 0;
			w->cg_last_us = us;
			w->have_cg = true;
		}
		return;
	}
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

void schedwin_begin(struct schedwin *w, pid_t pid, const char *cgroup, bool existing)
{
	schedwin_free(w);
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
	free(w->task);
	memset(w, 0, sizeof(*w));
}
