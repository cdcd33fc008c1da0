/* The wakeup-latency CDF figures of stored traces (reports/plot.h
 * plot_trace_cdfs): per load of the traces (and per cell when they have
 * more than one), one series per variant (per run and variant when they
 * come from more than one run), every wakeup of the complete traced
 * iterations pooled. */
#ifndef SCHEDRIG_TRACE_PLOT_H
#define SCHEDRIG_TRACE_PLOT_H

#include "plot.h"
#include "trace_runs.h"

struct trace_figures {
	struct plot_trace_figure *fig;
	size_t n;
};

/* The figures of items (only load when not NULL) into f, pointing into
 * items for names (keep items until f is freed). */
void trace_figures_make(const struct trace_items *items, const char *load, struct trace_figures *f);
void trace_figures_free(struct trace_figures *f);

#endif
