/* trace: of a config, at the top and on a load (config.h struct cfg_trace):
 * the shorthand "sched", the events, the ring buffer size, the iterations;
 * and the union of them all that the rig captures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_impl.h"

static const char *const trace_keys[] = {"events", "buffer_kb", "iterations", NULL};

/* What trace: sched stands for. */
static const char *const sched_events[] = {"sched:sched_switch", "sched:sched_waking",
					   "sched:sched_wakeup", "sched:sched_migrate_task"};

#define TRACE_DEFAULT_BUFFER_KB 8192

/* A tracefs group or event name: [a-z0-9_]+, at most 63 characters. */
static bool event_word(const char *s, size_t n)
{
	if (!n || n > 63)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", s[i]))
			return false;
	return true;
}

static bool has_event(const struct cfg_trace *t, const char *ev)
{
	for (size_t i = 0; i < t->n_events; i++)
		if (!strcmp(t->events[i], ev))
			return true;
	return false;
}

static void add_event(struct cfg_trace *t, const char *ev)
{
	if (has_event(t, ev))
		return;
	t->events = xrealloc(t->events, (t->n_events + 1) * sizeof(*t->events));
	t->events[t->n_events++] = xstrdup(ev);
}

/* One item of events: NAME (a sched_* event) or GROUP:NAME, as
 * "group:name" into t. */
static int read_event(struct cfg_ctx *c, const struct ynode *v, struct cfg_trace *t)
{
	if (cfg_want_kind(c, v, YNODE_SCALAR, "trace: events"))
		return -1;
	const char *colon = strchr(v->text, ':');
	char *ev;
	if (colon) {
		size_t g = (size_t)(colon - v->text);
		if (!event_word(v->text, g) || !event_word(colon + 1, strlen(colon + 1)))
			return cfg_err_at(c, v->line, v->col, "trace: event '%s' is not GROUP:NAME"
					  " (tracefs names: lower-case letters, digits, '_')", v->text);
		ev = xstrdup(v->text);
	} else {
		if (!event_word(v->text, strlen(v->text)))
			return cfg_err_at(c, v->line, v->col, "trace: event '%s' is not a tracefs event"
					  " name (lower-case letters, digits, '_')", v->text);
		if (strncmp(v->text, "sched_", 6))
			return cfg_err_at(c, v->line, v->col, "trace: event '%s' needs its group:"
					  " write GROUP:%s (a name alone is a sched_* event)",
					  v->text, v->text);
		ev = xasprintf("sched:%s", v->text);
	}
	if (has_event(t, ev)) {
		free(ev);
		return cfg_err_at(c, v->line, v->col, "trace: event '%s' is listed twice", v->text);
	}
	add_event(t, ev);
	free(ev);
	return 0;
}

static int by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* iterations: all | K | [K, ...] (1-based, each once). */
static int read_iterations(struct cfg_ctx *c, const struct ynode *v, struct cfg_trace *t)
{
	if (v->kind == YNODE_SCALAR && !strcmp(v->text, "all"))
		return 0;
	size_t n = v->kind == YNODE_SEQUENCE ? v->n : 1;
	if (v->kind == YNODE_MAPPING || !n)
		return cfg_err_at(c, v->line, v->col, "trace: iterations must be all or a list of"
				  " iteration numbers such as [1, 3]");
	t->iterations = xcalloc(n, sizeof(*t->iterations));
	for (size_t i = 0; i < n; i++) {
		const struct ynode *it = v->kind == YNODE_SEQUENCE ? v->items[i] : v;
		long long k;
		if (cfg_get_int(c, it, "trace: iteration", 1, 10000, &k))
			return -1;
		for (size_t j = 0; j < t->n_iterations; j++)
			if (t->iterations[j] == k)
				return cfg_err_at(c, it->line, it->col, "trace: iteration %lld is listed"
						  " twice", k);
		t->iterations[t->n_iterations++] = (int)k;
	}
	qsort(t->iterations, t->n_iterations, sizeof(*t->iterations), by_int);
	return 0;
}

int cfg_read_trace(struct cfg_ctx *c, const struct ynode *v, struct cfg_trace *t)
{
	const struct ynode *x;

	*t = (struct cfg_trace){.enabled = true, .buffer_kb = TRACE_DEFAULT_BUFFER_KB,
				.line = v->line, .col = v->col};
	if (v->kind == YNODE_SCALAR) {
		if (strcmp(v->text, "sched"))
			return cfg_err_at(c, v->line, v->col, "trace must be sched or {events: [...],"
					  " buffer_kb: N, iterations: [...]}, not '%s'", v->text);
		for (size_t i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++)
			add_event(t, sched_events[i]);
		return 0;
	}
	if (cfg_want_kind(c, v, YNODE_MAPPING, "trace") || cfg_check_keys(c, v, trace_keys, "trace"))
		return -1;
	if (!(x = ynode_get(v, "events")))
		return cfg_err_at(c, v->line, v->col, "trace: needs events: (or write trace: sched)");
	if (x->kind == YNODE_SCALAR && !strcmp(x->text, "sched")) {
		for (size_t i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++)
			add_event(t, sched_events[i]);
	} else {
		if (cfg_want_kind(c, x, YNODE_SEQUENCE, "trace: events"))
			return -1;
		if (!x->n)
			return cfg_err_at(c, x->line, x->col, "trace: events: the list is empty");
		for (size_t i = 0; i < x->n; i++)
			if (read_event(c, x->items[i], t))
				return -1;
	}
	if (cfg_opt_int(c, v, "buffer_kb", "trace: buffer_kb", 64, 1048576, &t->buffer_kb))
		return -1;
	if ((x = ynode_get(v, "iterations")) && read_iterations(c, x, t))
		return -1;
	return 0;
}

/* Every iteration a trace names is one the run has. */
static int check_iterations(struct cfg_ctx *c, const struct cfg_trace *t, int iterations)
{
	for (size_t i = 0; t->enabled && i < t->n_iterations; i++)
		if (t->iterations[i] > iterations)
			return cfg_err_at(c, t->line, t->col, "trace: iteration %d is beyond"
					  " iterations: %d", t->iterations[i], iterations);
	return 0;
}

/* t joins u (config.h trace_all). */
static void join(struct cfg_trace *u, const struct cfg_trace *t)
{
	if (!t->enabled)
		return;
	bool all_before = u->enabled && !u->n_iterations;
	if (!u->enabled)
		*u = (struct cfg_trace){.enabled = true, .line = t->line, .col = t->col};
	for (size_t i = 0; i < t->n_events; i++)
		add_event(u, t->events[i]);
	if (t->buffer_kb > u->buffer_kb)
		u->buffer_kb = t->buffer_kb;
	if (all_before || !t->n_iterations) {
		free(u->iterations);
		u->iterations = NULL;
		u->n_iterations = 0;
		return;
	}
	bool first = !u->iterations;
	for (size_t i = 0; i < t->n_iterations; i++) {
		bool have = false;
		for (size_t j = 0; j < u->n_iterations && !first; j++)
			have |= u->iterations[j] == t->iterations[i];
		if (have)
			continue;
		u->iterations = xrealloc(u->iterations, (u->n_iterations + 1) * sizeof(int));
		u->iterations[u->n_iterations++] = t->iterations[i];
	}
	qsort(u->iterations, u->n_iterations, sizeof(int), by_int);
}

int cfg_check_traces(struct cfg_ctx *c, struct experiment *e)
{
	if (check_iterations(c, &e->trace, e->iterations))
		return -1;
	join(&e->trace_all, &e->trace);
	for (size_t l = 0; l < e->n_loads; l++) {
		if (check_iterations(c, &e->loads[l].trace, e->iterations))
			return -1;
		join(&e->trace_all, &e->loads[l].trace);
	}
	return 0;
}

bool config_trace_iteration(const struct cfg_trace *t, int it)
{
	if (!t->enabled)
		return false;
	if (!t->n_iterations)
		return true;
	for (size_t i = 0; i < t->n_iterations; i++)
		if (t->iterations[i] == it)
			return true;
	return false;
}

void cfg_free_trace(struct cfg_trace *t)
{
	for (size_t i = 0; i < t->n_events; i++)
		free(t->events[i]);
	free(t->events);
	free(t->iterations);
	memset(t, 0, sizeof(*t));
}
