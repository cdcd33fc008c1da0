/* Figure "trace-cdf": the wakeup-latency CDF of each variant from the
 * traces of runs (plot.h plot_trace_cdfs): F(x) = (events <= x) / n over
 * every wakeup of the load's tasks in the traced iterations, one step line
 * per series. */
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>

/* One figure. */
static int draw(struct plot_ctx *c, const struct plot_trace_figure *fig, char *err, size_t errsz)
{
	struct plot_fig f;
	bool logx = c->o->logx;
	char *extra = fig->cell ? xasprintf("%s-wakeup_latency_us-%s", fig->load, fig->cell)
				: xasprintf("%s-wakeup_latency_us", fig->load);
	plot_fig_begin(c, &f, NULL, extra, "trace-cdf");
	free(extra);
	buf_printf(&f.title, "%s wakeup latency from the traces (sched_waking to the switch-in)%s%s",
		   fig->load, fig->cell ? ", cell " : "", fig->cell ? fig->cell : "");
	if (logx)
		buf_puts(&f.setup, "set logscale x 10\n");
	buf_puts(&f.setup, "set xlabel 'wakeup_latency_us (us)' noenhanced\n"
		 "set ylabel 'fraction of wakeups <= x' noenhanced\n"
		 "set yrange [0:1.02]\n");
	for (size_t k = 0; k < fig->n; k++) {
		const struct plot_trace_series *s = &fig->s[k];
		size_t first = 0;
		while (logx && first < s->n && s->ns[first] <= 0)
			first++;
		size_t n = s->n - first;
		if (first)
			plot_note(c, &f, "%zu wakeup(s) of 0 us left out of '%s' on the log-x axis",
				  first, s->label);
		if (!n) {
			plot_note(c, &f, "series '%s' left out: no wakeup in its traces", s->label);
			continue;
		}
		plot_num(&f.data, (double)s->ns[first] / 1e3);
		buf_puts(&f.data, " 0\n");
		for (size_t i = 0; i < n; i++) {
			/* one point per distinct value: its last rank */
			if (i + 1 < n && s->ns[first + i + 1] == s->ns[first + i])
				continue;
			plot_num(&f.data, (double)s->ns[first + i] / 1e3);
			buf_puts(&f.data, " ");
			plot_num(&f.data, (double)(i + 1) / (double)n);
			buf_puts(&f.data, "\n");
		}
		char *key = xasprintf("%s (n=%zu)", s->label, n);
		plot_series_title(&f.plot, f.n_series, "1:2 with steps lw 2", k, key);
		free(key);
		plot_series_end(&f);
	}
	return plot_fig_finish(c, &f, "no series has a wakeup", err, errsz);
}

int plot_trace_cdfs(const struct plot_trace_figure *figs, size_t n, const struct plot_opts *o,
		    struct plot_result *r, char *err, size_t errsz)
{
	struct plot_ctx c = {.o = o, .r = r};
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = draw(&c, &figs[i], err, errsz);
	for (size_t i = 0; i < c.n_used; i++)
		free(c.used[i]);
	free(c.used);
	return rc;
}
