/* Figures "monitor": the monitor series of stored runs (table series,
 * harness/monitor/monitor.h) over time, per run, variant and cell (see plot.h
 * plot_monitors for the list). x is seconds since the iteration started
 * (t_ms / 1000); a NULL value (NaN) is written '?' and leaves a gap. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_monitor.h"

static const struct mon_fig {
	const char *name;      /* file name part */
	const char *monitor, *key;
	enum series_points lines; /* a line per CPU (of the first iteration that
				   * has the series), per iteration, or per load
				   * instance (name and iteration) */
	const char *what;      /* title and y label */
} mon_figs[] = {
	{"cpu_user_pct", "stat", "user_pct", SERIES_PER_CPU, "CPU user % per CPU"},
	{"cpu_system_pct", "stat", "system_pct", SERIES_PER_CPU, "CPU system % per CPU"},
	{"cpu_idle_pct", "stat", "idle_pct", SERIES_PER_CPU, "CPU idle % per CPU"},
	{"ctxt_per_s", "stat", "ctxt_per_s", SERIES_SYSTEM, "context switches/s (all CPUs)"},
	{"psi_cpu_some_pct", "psi", "cpu_some_pct", SERIES_SYSTEM,
	 "PSI cpu some % (stall time as % of the interval)"},
	{"nr_involuntary_switches", "sched", "nr_involuntary_switches", SERIES_PER_LOAD,
	 "involuntary switches per load (cumulative, sum over its threads)"},
};

static void buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

/* A figure being filled point by point (store_series_points). */
struct mon_draw {
	const struct mon_fig *mf;
	struct plot_fig f;
	struct buf key, line;  /* the current line's title, the point's */
	long long first_it;    /* SERIES_PER_CPU: the iteration drawn, -1 before */
	size_t lines;
};

static int add_point(const struct stored_series_point *p, void *ctx)
{
	struct mon_draw *d = ctx;
	if (d->mf->lines == SERIES_PER_CPU) {
		if (d->first_it < 0)
			d->first_it = p->iteration;
		if (p->iteration != d->first_it)
			return 0;
	}
	buf_clear(&d->line);
	if (d->mf->lines == SERIES_PER_CPU)
		buf_printf(&d->line, "CPU %lld", (long long)p->cpu);
	else if (d->mf->lines == SERIES_SYSTEM)
		buf_printf(&d->line, "iteration %lld", (long long)p->iteration);
	else
		buf_printf(&d->line, "%s iteration %lld", p->load ? p->load : "",
			   (long long)p->iteration);
	if (!d->key.len || strcmp(buf_str(&d->key), buf_str(&d->line))) {
		if (d->key.len) {
			plot_series_end(&d->f);
			d->lines++;
		}
		plot_series_title(&d->f.plot, d->lines, "1:2 with linespoints lw 2 pt 7 ps 0.5",
				  d->lines, buf_str(&d->line));
		buf_clear(&d->key);
		buf_puts(&d->key, buf_str(&d->line));
	}
	plot_num(&d->f.data, p->t_ms / 1000.0);
	buf_puts(&d->f.data, " ");
	if (!isfinite(p->value))
		buf_puts(&d->f.data, "?");
	else
		plot_num(&d->f.data, p->value);
	buf_puts(&d->f.data, "\n");
	return 0;
}

/* One figure of one (run, variant, cell). */
static int draw(struct plot_ctx *c, struct store *s, const struct mon_fig *mf,
		const struct stored_series_cell *sc, const char *name_part, const char *title,
		char *err, size_t errsz)
{
	struct mon_draw d = {.mf = mf, .first_it = -1};
	char *extra = xasprintf("%s-%s", name_part, mf->name);
	plot_fig_begin(c, &d.f, NULL, extra, "monitor");
	free(extra);
	int rc = store_series_points(s, sc->variant_id, sc->cell_id, mf->monitor, mf->key,
				     mf->lines, add_point, &d, err, errsz);
	if (d.key.len) {
		plot_series_end(&d.f);
		d.lines++;
	}
	buf_free(&d.key);
	buf_free(&d.line);
	if (rc || !d.lines) {
		/* A database error, or the series was not sampled (monitor off,
		 * file missing): no figure and no note (the run's monitor notes
		 * said why). plot_fig_finish frees f. */
		struct plot_result *r = c->r;
		size_t n_notes = r->n_notes;
		d.f.n_series = 0;
		if (plot_fig_finish(c, &d.f, "no series", err, errsz))
			rc = -1;
		while (r->n_notes > n_notes)
			free(r->notes[--r->n_notes]);
		return rc;
	}
	buf_printf(&d.f.title, "%s: %s", title, mf->what);
	if (mf->lines == SERIES_PER_CPU)
		buf_printf(&d.f.title, ", iteration %lld", d.first_it);
	plot_axis_labels(&d.f.setup, "s since iteration start", mf->what);
	if (strstr(mf->key, "_pct"))
		buf_puts(&d.f.setup, "set yrange [0:*]\n");
	return plot_fig_finish(c, &d.f, "no series", err, errsz);
}

/* Every figure of the (variant, cell) pairs of one run. */
static int draw_run(struct plot_ctx *c, struct store *s, int64_t run_id, bool name_run,
		    char *err, size_t errsz)
{
	struct stored_series_cell *sc;
	size_t n;
	int rc = store_series_cells(s, run_id, &sc, &n, err, errsz);
	for (size_t i = 0; i < n && !rc; i++) {
		/* The cell is named only when the variant has series of more
		 * than one. */
		bool name_cell = sc[i].n_cells > 1;
		const char *cell = sc[i].cell ? sc[i].cell : "";
		struct buf part = {0}, title = {0};
		if (name_run)
			buf_printf(&part, "%lld-", (long long)run_id);
		buf_puts(&part, sc[i].variant);
		buf_printf(&title, "run %lld %s, variant %s", (long long)run_id, sc[i].run,
			   sc[i].variant);
		if (name_cell) {
			buf_printf(&part, "-%s", *cell ? cell : "none");
			buf_printf(&title, ", cell %s", *cell ? cell : "(none)");
		}
		for (size_t k = 0; !rc && k < sizeof(mon_figs) / sizeof(mon_figs[0]); k++)
			rc = draw(c, s, &mon_figs[k], &sc[i], buf_str(&part), buf_str(&title), err,
				  errsz);
		buf_free(&part);
		buf_free(&title);
	}
	store_series_cell_rows_free(sc, n);
	return rc;
}

int plot_monitors(struct store *s, const int64_t *run_ids, size_t n_runs,
		  const struct plot_opts *o, struct plot_result *r, char *err, size_t errsz)
{
	struct plot_ctx c = {.o = o, .r = r};
	int rc = 0;

	for (size_t ri = 0; ri < n_runs && !rc; ri++)
		rc = draw_run(&c, s, run_ids[ri], n_runs > 1, err, errsz);
	for (size_t i = 0; i < c.n_used; i++)
		free(c.used[i]);
	free(c.used);
	return rc;
}
