/* Chrome trace-event JSON of a trace (trace_perfetto.h). */
#include "trace_perfetto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_text.h"

#define PID_CPUS 1
#define PID_WINDOW 2
#define PID_OTHER 9
#define PID_LOAD0 10

struct writer {
	struct buf *out;
	bool first;
	const struct trace_analysis *a;
	bool all_tasks;
	int64_t t0;
	/* per task: runnable since (ns, -1 none), running since */
	int *tid;
	int64_t *runnable, *running;
	int *pid;                 /* its track's process, 0 none */
	const struct trace_task_load **info; /* its entry of a->tasks */
	size_t n;
	/* per CPU: the task on it and since when */
	int *cpu_tid;
	int64_t *cpu_since;
	size_t n_cpu;
};

/* s as a JSON string: quotes, backslashes and control characters
 * escaped, bytes of invalid UTF-8 as '?'. */
static void json_str(struct buf *b, const char *s)
{
	bool utf8 = utf8_valid(s, strlen(s));
	buf_puts(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p < 0x20)
			buf_printf(b, "\\u%04x", *p);
		else if (*p >= 0x80 && !utf8)
			buf_puts(b, "?");
		else
			buf_append(b, p, 1);
	}
	buf_puts(b, "\"");
}

static void sep(struct writer *w)
{
	buf_puts(w->out, w->first ? "\n" : ",\n");
	w->first = false;
}

static void meta(struct writer *w, const char *what, int pid, int tid, const char *name)
{
	sep(w);
	buf_printf(w->out, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		   what, pid, tid);
	json_str(w->out, name);
	buf_puts(w->out, "}}");
}

static double us(const struct writer *w, int64_t ns)
{
	return (double)(ns - w->t0) / 1e3;
}

static void complete(struct writer *w, const char *name, const char *cat, int pid, int tid,
		     int64_t from, int64_t to, const char *load, int cpu)
{
	if (to < from)
		return;
	sep(w);
	buf_puts(w->out, "{\"ph\":\"X\",\"name\":");
	json_str(w->out, name);
	buf_printf(w->out, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{",
		   cat, pid, tid, us(w, from), (double)(to - from) / 1e3);
	if (load) {
		buf_puts(w->out, "\"load\":");
		json_str(w->out, load);
	}
	if (cpu >= 0)
		buf_printf(w->out, "%s\"cpu\":%d", load ? "," : "", cpu);
	buf_puts(w->out, "}}");
}

/* The slot of task tid among the tasks of a, -1 when it has none. */
static int slot_of(const struct writer *w, int tid)
{
	size_t lo = 0, hi = w->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (w->tid[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->n && w->tid[lo] == tid ? (int)lo : -1;
}

static const struct trace_task_load *task_of(const struct writer *w, int tid)
{
	int k = slot_of(w, tid);
	return k >= 0 ? w->info[k] : NULL;
}


static int by_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

/* The tracks: processes and threads named, tasks indexed by tid. */
static void tracks(struct writer *w)
{
	const struct trace_analysis *a = w->a;
	meta(w, "process_name", PID_CPUS, 0, "CPUs");
	for (size_t c = 0; c < a->n_cpus; c++) {
		char name[32];
		snprintf(name, sizeof(name), "CPU %zu", c);
		meta(w, "thread_name", PID_CPUS, (int)c + 1, name);
	}
	meta(w, "process_name", PID_WINDOW, 0, "measured window");
	for (size_t l = 0; l < a->n_loads; l++) {
		if (!strcmp(a->loads[l].name, TRACE_ALL_TASKS))
			continue;
		char *name = xasprintf("load %s", a->loads[l].name);
		meta(w, "process_name", PID_LOAD0 + (int)l, 0, name);
		free(name);
	}
	if (w->all_tasks)
		meta(w, "process_name", PID_OTHER, 0, "other tasks");
	w->tid = xcalloc(a->n_tasks + 1, sizeof(*w->tid));
	for (size_t i = 0; i < a->n_tasks; i++)
		w->tid[w->n++] = a->tasks[i].tid;
	qsort(w->tid, w->n, sizeof(*w->tid), by_int);
	w->runnable = xcalloc(w->n + 1, sizeof(*w->runnable));
	w->running = xcalloc(w->n + 1, sizeof(*w->running));
	w->pid = xcalloc(w->n + 1, sizeof(*w->pid));
	w->info = xcalloc(w->n + 1, sizeof(*w->info));
	for (size_t i = 0; i < a->n_tasks; i++) {
		int k = slot_of(w, a->tasks[i].tid);
		if (k >= 0)
			w->info[k] = &a->tasks[i];
	}
	for (size_t i = 0; i < w->n; i++) {
		const struct trace_task_load *t = w->info[i];
		w->runnable[i] = w->running[i] = -1;
		w->pid[i] = t && t->load >= 0 ? PID_LOAD0 + t->load : w->all_tasks ? PID_OTHER : 0;
		if (!w->pid[i])
			continue;
		char *name = xasprintf("%s %d", t && t->comm[0] ? t->comm : "?", w->tid[i]);
		meta(w, "thread_name", w->pid[i], w->tid[i], name);
		free(name);
	}
	w->n_cpu = a->n_cpus;
	w->cpu_tid = xcalloc(w->n_cpu + 1, sizeof(*w->cpu_tid));
	w->cpu_since = xcalloc(w->n_cpu + 1, sizeof(*w->cpu_since));
	for (size_t c = 0; c < w->n_cpu; c++) {
		w->cpu_since[c] = a->window_start_ns;
		w->cpu_tid[c] = -1; /* until its first switch says who ran */
	}
}

static const char *load_name(const struct writer *w, int tid)
{
	const struct trace_task_load *t = task_of(w, tid);
	return t && t->load >= 0 ? w->a->loads[t->load].name : NULL;
}

/* The CPU's occupant ran from its since to now. */
static void cpu_run(struct writer *w, int cpu, int64_t now)
{
	int tid = w->cpu_tid[cpu];
	if (tid > 0 && w->cpu_since[cpu] >= 0) {
		const struct trace_task_load *t = task_of(w, tid);
		char *name = xasprintf("%s %d", t && t->comm[0] ? t->comm : "?", tid);
		complete(w, name, "cpu", PID_CPUS, cpu + 1, w->cpu_since[cpu], now, load_name(w, tid),
			 cpu);
		free(name);
	}
	w->cpu_since[cpu] = now;
}

static void on_event(struct writer *w, const struct trace_ev *ev)
{
	if (ev->type == TEV_LOST) {
		if ((size_t)ev->cpu < w->n_cpu)
			w->cpu_since[ev->cpu] = -1;
		for (size_t i = 0; i < w->n; i++)
			w->runnable[i] = w->running[i] = -1;
		return;
	}
	if ((size_t)ev->cpu >= w->n_cpu)
		return;
	if (ev->type == TEV_WAKING || ev->type == TEV_WAKEUP || ev->type == TEV_WAKEUP_NEW) {
		int k = slot_of(w, ev->target_pid);
		if (k >= 0 && w->running[k] < 0 && w->runnable[k] < 0)
			w->runnable[k] = ev->ts_ns;
		return;
	}
	if (ev->type != TEV_SWITCH)
		return;
	if (w->cpu_tid[ev->cpu] < 0)
		w->cpu_tid[ev->cpu] = ev->prev_pid;
	cpu_run(w, ev->cpu, ev->ts_ns);
	w->cpu_tid[ev->cpu] = ev->next_pid;
	int p = slot_of(w, ev->prev_pid), n = slot_of(w, ev->next_pid);
	if (p >= 0 && ev->prev_pid) {
		if (w->pid[p] && w->running[p] >= 0)
			complete(w, "running", "running", w->pid[p], ev->prev_pid, w->running[p],
				 ev->ts_ns, NULL, ev->cpu);
		w->running[p] = -1;
		w->runnable[p] = ev->prev_state[0] == 'R' ? ev->ts_ns : -1;
	}
	if (n >= 0 && ev->next_pid) {
		if (w->pid[n] && w->runnable[n] >= 0)
			complete(w, "runnable", "runnable", w->pid[n], ev->next_pid, w->runnable[n],
				 ev->ts_ns, NULL, ev->cpu);
		w->runnable[n] = -1;
		w->running[n] = ev->ts_ns;
	}
}

static void window_marks(struct writer *w)
{
	const struct trace_analysis *a = w->a;
	complete(w, "measured window", "window", PID_WINDOW, 1, a->window_start_ns, a->window_end_ns,
		 NULL, -1);
	const char *name[2] = {"measured window starts", "measured window ends"};
	int64_t at[2] = {a->window_start_ns, a->window_end_ns};
	for (int i = 0; i < 2; i++) {
		sep(w);
		buf_printf(w->out, "{\"ph\":\"i\",\"name\":\"%s\",\"s\":\"g\",\"pid\":%d,\"tid\":1,"
			   "\"ts\":%.3f}", name[i], PID_WINDOW, us(w, at[i]));
	}
}

void trace_perfetto(const char *text, size_t len, const struct trace_analysis *a,
		    const char *title, bool all_tasks, struct buf *out)
{
	struct writer w = {.out = out, .first = true, .a = a, .all_tasks = all_tasks,
			   .t0 = a->window_start_ns};
	buf_puts(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":");
	json_str(out, title);
	buf_printf(out, ",\"lost_events\":%llu},\"traceEvents\":[", (unsigned long long)a->lost);
	tracks(&w);
	window_marks(&w);
	for (const char *l = text; l < text + len;) {
		const char *nl = memchr(l, '\n', (size_t)(text + len - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(text + len - l);
		struct trace_ev ev;
		if (trace_text_line(l, n, &ev) > 0)
			on_event(&w, &ev);
		l += n + 1;
	}
	for (size_t c = 0; c < w.n_cpu; c++)
		cpu_run(&w, (int)c, a->window_end_ns);
	for (size_t i = 0; i < w.n; i++)
		if (w.pid[i] && w.running[i] >= 0)
			complete(&w, "running", "running", w.pid[i], w.tid[i], w.running[i],
				 a->window_end_ns, NULL, -1);
	buf_puts(out, "\n]}\n");
	free(w.tid);
	free(w.runnable);
	free(w.running);
	free(w.pid);
	free(w.info);
	free(w.cpu_tid);
	free(w.cpu_since);
}
