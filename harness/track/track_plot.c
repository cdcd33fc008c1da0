/* schedrig track --plot: a history with its change points (track.h
 * track_plot), drawn through reports/plot.h like every figure. */
#include "track.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "plot.h"

/* The x tics: each revision's name at its first run. */
static void revision_tics(struct buf *setup, const struct track_history *h)
{
	buf_puts(setup, "set xtics rotate by -45 noenhanced (");
	bool any = false;
	/* At most about 40 labels, so they stay legible. */
	size_t step = h->n_revisions / 40 + 1, rev = 0;
	for (size_t i = 0; i < h->n; i++) {
		if (!h->first[i] || rev++ % step)
			continue;
		buf_puts(setup, any ? ", " : "");
		plot_quote(setup, h->p[i].revision);
		buf_printf(setup, " %zu", i);
		any = true;
	}
	buf_puts(setup, ")\n");
}

/* One history's figure. */
static int history_figure(struct plot_ctx *c, const struct track_history *h,
			  const struct track_result *r, char *err, size_t errsz)
{
	struct plot_fig f;
	struct buf name = {0};
	buf_printf(&name, "%s-%s%s%s-%s-%s%s%s", h->config, h->variant, *h->cell ? "-" : "", h->cell,
		   h->load, h->metric, *h->op ? "-" : "", h->op);
	if (h->n_parts > 1)
		buf_printf(&name, "-part%zu", h->part);
	plot_fig_begin(c, &f, NULL, buf_str(&name), "history");
	buf_free(&name);
	track_history_title(&f.title, h);
	buf_printf(&f.title, ": %zu change point(s)", r->n);
	revision_tics(&f.setup, h);
	buf_puts(&f.setup, "set xlabel 'revision' noenhanced\nset ylabel ");
	char *yl = xasprintf("%s%s%s, Amean of each run", h->metric, *h->unit ? " " : "", h->unit);
	plot_quote(&f.setup, yl);
	free(yl);
	buf_puts(&f.setup, " noenhanced\nset offsets graph 0.02, graph 0.02, graph 0.08, graph 0.08\n");
	for (size_t k = 0; k < r->n; k++) {
		double x = (double)r->c[k].index - 0.5;
		buf_printf(&f.setup, "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 2"
			   " linecolor rgb '%s'\n", x, x, r->c[k].regression ? "#c0392b" : "#27ae60");
		buf_printf(&f.setup, "set label '%+.2f %%' at %g, graph 0.96 left offset 0.5, 0"
			   " textcolor rgb '%s'\n", r->c[k].change_pct, x,
			   r->c[k].regression ? "#c0392b" : "#27ae60");
	}
	for (size_t i = 0; i < h->n; i++) {
		plot_num(&f.data, (double)i);
		buf_puts(&f.data, " ");
		plot_num(&f.data, h->p[i].value);
		buf_puts(&f.data, "\n");
	}
	plot_series_end(&f);
	/* Each level a line of its own (one blank line between them). */
	for (size_t k = 0; k <= r->n; k++) {
		size_t a = k ? r->c[k - 1].index : 0, b = k < r->n ? r->c[k].index : h->n;
		double level = 0;
		for (size_t i = a; i < b; i++)
			level += h->p[i].value / (double)(b - a);
		buf_printf(&f.data, "%g ", (double)a - 0.5);
		plot_num(&f.data, level);
		buf_printf(&f.data, "\n%g ", (double)b - 0.5);
		plot_num(&f.data, level);
		buf_puts(&f.data, "\n\n");
	}
	plot_series_end(&f);
	buf_printf(&f.plot, "DATA index 0 using 1:2 with points pointtype 7 linecolor rgb '%s'"
		   " title 'runs', DATA index 1 using 1:2 with lines linewidth 2 linecolor rgb '%s'"
		   " title 'level between change points'", plot_color(0), plot_color(1));
	return plot_fig_finish(c, &f, NULL, err, errsz);
}

int track_plot(const struct track_set *set, const struct track_result *r, const char *dir,
	       unsigned formats, struct buf *out, char *err, size_t errsz)
{
	struct plot_opts o;
	struct plot_result res = {0};
	/* "figs/" names the directory "figs": its files figs/NAME, not figs//NAME. */
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	char *d = xasprintf("%.*s", (int)len, dir);
	dir = d;
	plot_opts_init(&o);
	o.dir = dir;
	o.formats = formats;
	struct plot_ctx c = {.o = &o, .r = &res};
	int rc = 0;
	for (size_t i = 0; i < set->n && !rc; i++)
		rc = history_figure(&c, &set->h[i], &r[i], err, errsz);
	for (size_t i = 0; i < res.n_fig && !rc; i++)
		buf_printf(out, "wrote %s/%s.%s\n", dir, res.fig[i].base,
			   formats & PLOT_PNG ? "png" : "svg");
	for (size_t i = 0; i < c.n_used; i++)
		free(c.used[i]);
	free(c.used);
	plot_result_free(&res);
	free(d);
	return rc;
}
