/* Per-load distributions from a trace's text (trace_analysis.h). */
#include "trace_analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_text.h"
#include "util.h"

enum tstate { T_UNKNOWN, T_RUNNING, T_RUNNABLE, T_SLEEPING };

/* One task (thread) of the trace. */
struct task {
	int tid;
	int parent;                /* the task that forked it (sched_process_fork), 0 none */
	enum tstate st;
	int64_t waking_ns, enqueue_ns, run_start_ns; /* -1: none */
	bool enqueued_by_waking;
	char comm[TRACE_COMM_MAX];
	struct trace_dist wakeup, rqwait, run;
	uint64_t preemptions, migrations;
	int64_t *busy_ns;
	size_t n_busy;
	int load;                  /* group index, -1 none; set at the end */
};

struct tasks {
	struct task *t;
	size_t n, cap;
	int *slot;                 /* open addressing: index + 1, 0 empty */
	size_t n_slots;
};

struct cpu_state {
	int tid;                   /* switched in last */
	int64_t since_ns;          /* -1: unknown (a gap) */
	bool seen;
};

static void dist_add(struct trace_dist *d, int64_t v)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = v;
}

static void dist_join(struct trace_dist *d, const struct trace_dist *s)
{
	for (size_t i = 0; i < s->n; i++)
		dist_add(d, s->v[i]);
}

static void dist_free(struct trace_dist *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static size_t hash_tid(int tid, size_t n)
{
	return ((size_t)(unsigned)tid * 2654435761u) & (n - 1);
}

static void rehash(struct tasks *ts)
{
	free(ts->slot);
	ts->n_slots = ts->n_slots ? 2 * ts->n_slots : 1024;
	ts->slot = xcalloc(ts->n_slots, sizeof(*ts->slot));
	for (size_t i = 0; i < ts->n; i++) {
		size_t h = hash_tid(ts->t[i].tid, ts->n_slots);
		while (ts->slot[h])
			h = (h + 1) & (ts->n_slots - 1);
		ts->slot[h] = (int)i + 1;
	}
}

/* The task tid, NULL when the trace has not shown it. */
static struct task *task_find(struct tasks *ts, int tid)
{
	if (!ts->n_slots)
		return NULL;
	for (size_t h = hash_tid(tid, ts->n_slots); ts->slot[h]; h = (h + 1) & (ts->n_slots - 1))
		if (ts->t[ts->slot[h] - 1].tid == tid)
			return &ts->t[ts->slot[h] - 1];
	return NULL;
}

/* The task tid, added when new (pointers to tasks do not survive it). */
static struct task *task_get(struct tasks *ts, int tid)
{
	if (!ts->n_slots)
		rehash(ts);
	size_t h = hash_tid(tid, ts->n_slots);
	for (; ts->slot[h]; h = (h + 1) & (ts->n_slots - 1))
		if (ts->t[ts->slot[h] - 1].tid == tid)
			return &ts->t[ts->slot[h] - 1];
	if (ts->n == ts->cap) {
		ts->cap = ts->cap ? 2 * ts->cap : 256;
		ts->t = xrealloc(ts->t, ts->cap * sizeof(*ts->t));
	}
	struct task *t = &ts->t[ts->n];
	*t = (struct task){.tid = tid, .waking_ns = -1, .enqueue_ns = -1, .run_start_ns = -1,
			   .load = -1};
	ts->slot[h] = (int)++ts->n;
	if (2 * ts->n > ts->n_slots)
		rehash(ts);
	return &ts->t[ts->n - 1];
}

static void set_comm(struct task *t, const char *comm)
{
	if (comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

static void busy_add(struct task *t, int cpu, int64_t ns)
{
	if ((size_t)cpu >= t->n_busy) {
		t->busy_ns = xrealloc(t->busy_ns, ((size_t)cpu + 1) * sizeof(*t->busy_ns));
		memset(t->busy_ns + t->n_busy, 0, ((size_t)cpu + 1 - t->n_busy) * sizeof(*t->busy_ns));
		t->n_busy = (size_t)cpu + 1;
	}
	t->busy_ns[cpu] += ns;
}

/* What one pass keeps besides the tasks. */
struct pass {
	struct tasks ts;
	struct cpu_state *cpu;
	size_t n_cpu;
	int64_t first_ns, last_ns;
	bool any;
};

static struct cpu_state *cpu_of(struct pass *ps, int cpu)
{
	if ((size_t)cpu >= ps->n_cpu) {
		ps->cpu = xrealloc(ps->cpu, ((size_t)cpu + 1) * sizeof(*ps->cpu));
		for (size_t i = ps->n_cpu; i <= (size_t)cpu; i++)
			ps->cpu[i] = (struct cpu_state){.since_ns = -1};
		ps->n_cpu = (size_t)cpu + 1;
	}
	return &ps->cpu[cpu];
}

static void on_wake(struct pass *ps, const struct trace_ev *ev)
{
	struct task *t = task_get(&ps->ts, ev->target_pid);
	set_comm(t, ev->comm);
	bool waking = ev->type == TEV_WAKING;
	if (t->st == T_RUNNING || (t->st == T_RUNNABLE && !(t->enqueued_by_waking && !waking)))
		return;
	if (waking || t->waking_ns < 0)
		t->waking_ns = ev->ts_ns;
	t->enqueue_ns = ev->ts_ns;
	t->enqueued_by_waking = waking;
	t->st = T_RUNNABLE;
}

static void on_switch(struct pass *ps, const struct trace_ev *ev, int64_t window_start)
{
	struct cpu_state *c = cpu_of(ps, ev->cpu);
	/* The CPU's time since its last switch was prev's. */
	int64_t since = c->seen ? c->since_ns : (window_start >= 0 ? window_start : ps->first_ns);
	if (ev->prev_pid && since >= 0 && ev->ts_ns >= since)
		busy_add(task_get(&ps->ts, ev->prev_pid), ev->cpu, ev->ts_ns - since);
	c->seen = true;
	c->since_ns = ev->ts_ns;
	c->tid = ev->next_pid;

	if (ev->prev_pid) {
		struct task *p = task_get(&ps->ts, ev->prev_pid);
		set_comm(p, ev->prev_comm);
		if (p->st == T_RUNNING && p->run_start_ns >= 0)
			dist_add(&p->run, ev->ts_ns - p->run_start_ns);
		p->run_start_ns = -1;
		p->waking_ns = -1;
		if (ev->prev_state[0] == 'R') {
			p->preemptions++;
			p->st = T_RUNNABLE;
			p->enqueue_ns = ev->ts_ns;
			p->enqueued_by_waking = false;
		} else {
			p->st = T_SLEEPING;
			p->enqueue_ns = -1;
		}
	}
	if (ev->next_pid) {
		struct task *n = task_get(&ps->ts, ev->next_pid);
		set_comm(n, ev->next_comm);
		if (n->st == T_RUNNABLE && n->enqueue_ns >= 0 && ev->ts_ns >= n->enqueue_ns) {
			dist_add(&n->rqwait, ev->ts_ns - n->enqueue_ns);
			if (n->waking_ns >= 0 && ev->ts_ns >= n->waking_ns)
				dist_add(&n->wakeup, ev->ts_ns - n->waking_ns);
		}
		n->st = T_RUNNING;
		n->run_start_ns = ev->ts_ns;
		n->waking_ns = n->enqueue_ns = -1;
	}
}

/* A gap: no state survives it. */
static void on_lost(struct pass *ps, const struct trace_ev *ev)
{
	for (size_t i = 0; i < ps->ts.n; i++) {
		struct task *t = &ps->ts.t[i];
		t->st = T_UNKNOWN;
		t->waking_ns = t->enqueue_ns = t->run_start_ns = -1;
	}
	struct cpu_state *c = cpu_of(ps, ev->cpu);
	c->seen = true;
	c->since_ns = -1;
}

static void on_event(struct pass *ps, const struct trace_ev *ev, int64_t window_start)
{
	if (ev->type != TEV_LOST) {
		if (!ps->any)
			ps->first_ns = ev->ts_ns;
		ps->any = true;
		ps->last_ns = ev->ts_ns;
		cpu_of(ps, ev->cpu);
	}
	switch (ev->type) {
	case TEV_SWITCH:
		on_switch(ps, ev, window_start);
		break;
	case TEV_WAKING:
	case TEV_WAKEUP:
	case TEV_WAKEUP_NEW:
		on_wake(ps, ev);
		break;
	case TEV_MIGRATE: {
		struct task *t = task_get(&ps->ts, ev->target_pid);
		set_comm(t, ev->comm);
		t->migrations++;
		break;
	}
	case TEV_FORK: {
		set_comm(task_get(&ps->ts, ev->target_pid), ev->comm); /* the parent is a task too */
		struct task *t = task_get(&ps->ts, ev->child_pid);
		set_comm(t, ev->child_comm);
		t->parent = ev->target_pid;
		break;
	}
	case TEV_LOST:
		on_lost(ps, ev);
		break;
	case TEV_OTHER:
		break;
	}
}

static int add_load(struct trace_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->n_loads; i++)
		if (!strcmp(a->loads[i].name, name))
			return (int)i;
	a->loads = xrealloc(a->loads, (a->n_loads + 1) * sizeof(*a->loads));
	struct trace_load_result *l = &a->loads[a->n_loads];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	return (int)a->n_loads++;
}

/* The task lines of the trace give their tids a load. */
static void assign_task_lines(struct trace_analysis *a, struct pass *ps,
			      const struct trace_task_line *tl)
{
	int load = add_load(a, tl->load);
	const char *p = tl->tids, *lim = tl->tids + tl->tids_len;
	while (p < lim) {
		while (p < lim && *p == ' ')
			p++;
		long tid = 0;
		bool digits = false;
		for (; p < lim && *p >= '0' && *p <= '9' && tid < 1L << 30; p++, digits = true)
			tid = tid * 10 + (*p - '0');
		struct task *t = digits && tid > 0 ? task_find(&ps->ts, (int)tid) : NULL;
		if (t) {
			if (t->load < 0)
				t->load = load;
		}
	}
}

/* The load of a task without one: its forking parent's, up the chain. */
static int parent_load(struct pass *ps, struct task *t)
{
	for (int depth = 0; t && t->load < 0 && t->parent && depth < 64; depth++)
		t = task_find(&ps->ts, t->parent);
	return t ? t->load : -1;
}

static void fold(struct trace_load_result *l, const struct task *t, size_t n_cpus)
{
	dist_join(&l->wakeup, &t->wakeup);
	dist_join(&l->rqwait, &t->rqwait);
	dist_join(&l->run, &t->run);
	l->preemptions += t->preemptions;
	l->migrations += t->migrations;
	if (!l->busy_ns)
		l->busy_ns = xcalloc(n_cpus ? n_cpus : 1, sizeof(*l->busy_ns));
	for (size_t c = 0; c < t->n_busy && c < n_cpus; c++)
		l->busy_ns[c] += t->busy_ns[c];
	l->n_tasks++;
}

/* Every task into its load and into TRACE_ALL_TASKS; the CPUs' last
 * occupants busy until the window's end. */
static void finish(struct trace_analysis *a, struct pass *ps, enum trace_grouping g)
{
	for (size_t c = 0; c < ps->n_cpu; c++) {
		const struct cpu_state *cs = &ps->cpu[c];
		if (cs->seen && cs->tid && cs->since_ns >= 0 && a->window_end_ns >= cs->since_ns)
			busy_add(task_get(&ps->ts, cs->tid), (int)c, a->window_end_ns - cs->since_ns);
	}
	a->n_cpus = ps->n_cpu;
	for (size_t i = 0; i < ps->ts.n; i++) {
		struct task *t = &ps->ts.t[i];
		if (g == TRACE_BY_COMM && t->comm[0])
			t->load = add_load(a, t->comm);
	}
	int all = add_load(a, TRACE_ALL_TASKS);
	a->tasks = xcalloc(ps->ts.n + 1, sizeof(*a->tasks));
	for (size_t i = 0; i < ps->ts.n; i++) {
		struct task *t = &ps->ts.t[i];
		int load = g == TRACE_BY_TASK_LINES ? parent_load(ps, t) : t->load;
		if (load >= 0 && load != all)
			fold(&a->loads[load], t, a->n_cpus);
		fold(&a->loads[all], t, a->n_cpus);
		struct trace_task_load *tl = &a->tasks[a->n_tasks++];
		tl->tid = t->tid;
		tl->load = load == all ? -1 : load;
		snprintf(tl->comm, sizeof(tl->comm), "%s", t->comm);
	}
	for (size_t i = 0; i < a->n_loads; i++) {
		struct trace_load_result *l = &a->loads[i];
		if (!l->busy_ns)
			l->busy_ns = xcalloc(a->n_cpus ? a->n_cpus : 1, sizeof(*l->busy_ns));
		trace_dist_sort(&l->wakeup);
		trace_dist_sort(&l->rqwait);
		trace_dist_sort(&l->run);
	}
}

static void pass_free(struct pass *ps)
{
	for (size_t i = 0; i < ps->ts.n; i++) {
		dist_free(&ps->ts.t[i].wakeup);
		dist_free(&ps->ts.t[i].rqwait);
		dist_free(&ps->ts.t[i].run);
		free(ps->ts.t[i].busy_ns);
	}
	free(ps->ts.t);
	free(ps->ts.slot);
	free(ps->cpu);
}

/* The rig's "#" lines: the window comes first in the trailer but the
 * events come before it, so the window is read ahead (one scan for it). */
static int read_window(const char *text, size_t len, struct trace_analysis *a, bool *have,
		       char *err, size_t errsz)
{
	*have = false;
	for (const char *l = text; l < text + len;) {
		const char *nl = memchr(l, '\n', (size_t)(text + len - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(text + len - l);
		if (n > 2 && l[0] == '#') {
			struct trace_task_line tl;
			uint64_t lost = 0;
			int k = trace_text_meta(l, n, &a->window_start_ns, &a->window_end_ns, &lost, &tl);
			if (k < 0)
				return err_printf(err, errsz, "trace line '%.*s' is malformed",
						  (int)(n < 120 ? n : 120), l);
			*have |= k == 1;
		}
		l += n + 1;
	}
	return 0;
}

int trace_analyze(const char *text, size_t len, enum trace_grouping g, struct trace_analysis *a,
		  char *err, size_t errsz)
{
	struct pass ps = {0};
	bool have_window;
	uint64_t lines = 0, lost_lines = 0, lost_meta = 0;
	memset(a, 0, sizeof(*a));
	a->window_start_ns = -1;
	if (read_window(text, len, a, &have_window, err, errsz))
		return -1;
	int64_t window_start = have_window ? a->window_start_ns : -1;
	struct trace_task_line *tl = NULL;
	size_t n_tl = 0;
	for (const char *l = text; l < text + len;) {
		const char *nl = memchr(l, '\n', (size_t)(text + len - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(text + len - l);
		struct trace_ev ev;
		int k = trace_text_line(l, n, &ev);
		lines++;
		if (k > 0) {
			a->events += ev.type != TEV_LOST;
			lost_lines += ev.type == TEV_LOST ? ev.lost : 0;
			on_event(&ps, &ev, window_start);
		} else if (k < 0) {
			a->bad_lines++;
		} else if (n > 7 && !memcmp(l, "# ", 2)) {
			int64_t s, e;
			uint64_t lost;
			struct trace_task_line t;
			int m = trace_text_meta(l, n, &s, &e, &lost, &t);
			if (m == 2)
				lost_meta += lost;
			if (m == 3) {
				tl = xrealloc(tl, (n_tl + 1) * sizeof(*tl));
				tl[n_tl++] = t;
			}
		}
		l += n + 1;
	}
	if (a->bad_lines >= 10 && a->bad_lines * 1000 > lines) {
		free(tl);
		pass_free(&ps);
		return err_printf(err, errsz, "%llu of %llu lines are neither trace events nor comments:"
				  " not a trace", (unsigned long long)a->bad_lines,
				  (unsigned long long)lines);
	}
	/* The capture's count and the LOST lines count the same events. */
	a->lost = lost_meta > lost_lines ? lost_meta : lost_lines;
	if (!have_window) {
		a->window_start_ns = ps.any ? ps.first_ns : 0;
		a->window_end_ns = ps.any ? ps.last_ns : 0;
	}
	a->n_task_lines = n_tl;
	if (g == TRACE_BY_TASK_LINES)
		for (size_t i = 0; i < n_tl; i++)
			assign_task_lines(a, &ps, &tl[i]);
	free(tl);
	finish(a, &ps, g);
	pass_free(&ps);
	return 0;
}

void trace_analysis_free(struct trace_analysis *a)
{
	for (size_t i = 0; i < a->n_loads; i++) {
		dist_free(&a->loads[i].wakeup);
		dist_free(&a->loads[i].rqwait);
		dist_free(&a->loads[i].run);
		free(a->loads[i].busy_ns);
	}
	free(a->loads);
	free(a->tasks);
	memset(a, 0, sizeof(*a));
}

static int by_value(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

void trace_dist_sort(struct trace_dist *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), by_value);
}

int64_t trace_dist_percentile(const struct trace_dist *d, double p)
{
	if (!d->n)
		return 0;
	double r = ceil(p / 100.0 * (double)d->n - 1e-9);
	size_t k = r < 1 ? 1 : r > (double)d->n ? d->n : (size_t)r;
	return d->v[k - 1];
}

double trace_dist_mean(const struct trace_dist *d)
{
	if (!d->n)
		return 0;
	long double s = 0;
	for (size_t i = 0; i < d->n; i++)
		s += d->v[i];
	return (double)(s / (long double)d->n);
}

const struct trace_load_result *trace_analysis_load(const struct trace_analysis *a,
						    const char *name)
{
	for (size_t i = 0; i < a->n_loads; i++)
		if (!strcmp(a->loads[i].name, name))
			return &a->loads[i];
	return NULL;
}
