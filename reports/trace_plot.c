/* Wakeup-latency CDF figures of stored traces (trace_plot.h). */
#include "trace_plot.h"

#include <stdlib.h>
#include <string.h>

/* The series label of item it (the variant, with its run when several). */
static char *label_of(const struct trace_item *it, bool runs)
{
	return runs ? xasprintf("run %lld %s", (long long)it->run_id, it->row.variant)
		    : xstrdup(it->row.variant);
}

static int by_ns(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* The figure of (load, cell), made when new. */
static struct plot_trace_figure *figure(struct trace_figures *f, const char *load, const char *cell)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->fig[i].load, load) &&
		    (!cell || !f->fig[i].cell || !strcmp(f->fig[i].cell, cell)))
			return &f->fig[i];
	f->fig = xrealloc(f->fig, (f->n + 1) * sizeof(*f->fig));
	f->fig[f->n] = (struct plot_trace_figure){.load = load, .cell = cell};
	return &f->fig[f->n++];
}

/* Its series labelled label, made when new (label then owned by it). */
static struct plot_trace_series *series(struct plot_trace_figure *g, char *label)
{
	struct plot_trace_series *s = (struct plot_trace_series *)g->s;
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(s[i].label, label)) {
			free(label);
			return &s[i];
		}
	s = xrealloc(s, (g->n + 1) * sizeof(*s));
	s[g->n] = (struct plot_trace_series){.label = label};
	g->s = s;
	return &s[g->n++];
}

void trace_figures_make(const struct trace_items *items, const char *load, struct trace_figures *f)
{
	bool runs = false, cells = false;
	memset(f, 0, sizeof(*f));
	for (size_t i = 1; i < items->n; i++) {
		runs |= items->v[i].run_id != items->v[0].run_id;
		cells |= strcmp(items->v[i].row.cell, items->v[0].row.cell) != 0;
	}
	for (size_t i = 0; i < items->n; i++) {
		const struct trace_item *it = &items->v[i];
		for (size_t l = 0; it->complete && l < it->a.n_loads; l++) {
			const struct trace_load_result *r = &it->a.loads[l];
			if (!strcmp(r->name, TRACE_ALL_TASKS) || (load && strcmp(load, r->name)))
				continue;
			struct plot_trace_figure *g = figure(f, r->name, cells ? it->row.cell : NULL);
			struct plot_trace_series *s = series(g, label_of(it, runs));
			int64_t *v = xrealloc((int64_t *)s->ns, (s->n + r->wakeup.n + 1) * sizeof(*v));
			memcpy(v + s->n, r->wakeup.v, r->wakeup.n * sizeof(*v));
			s->ns = v;
			s->n += r->wakeup.n;
		}
	}
	for (size_t i = 0; i < f->n; i++)
		for (size_t k = 0; k < f->fig[i].n; k++)
			qsort((int64_t *)f->fig[i].s[k].ns, f->fig[i].s[k].n, sizeof(int64_t), by_ns);
}

void trace_figures_free(struct trace_figures *f)
{
	for (size_t i = 0; i < f->n; i++) {
		for (size_t k = 0; k < f->fig[i].n; k++) {
			free((char *)f->fig[i].s[k].label);
			free((int64_t *)f->fig[i].s[k].ns);
		}
		free((struct plot_trace_series *)f->fig[i].s);
	}
	free(f->fig);
	memset(f, 0, sizeof(*f));
}
