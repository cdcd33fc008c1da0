/* Figures: what the figure kinds share (names, quoting, data and script
 * files, running gnuplot); plot_all, which decides the figures, is plot.c. */
#include "plot_common.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

#define GNUPLOT_TIMEOUT_S 120
#define BASE_MAX 160

void plot_opts_init(struct plot_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->formats = PLOT_PNG | PLOT_SVG;
	o->errorbars = PLOT_ERR_STDDEV;
	o->width_px = 1000;
	o->height_px = 600;
}

void plot_result_free(struct plot_result *r)
{
	for (size_t i = 0; i < r->n_fig; i++) {
		free(r->fig[i].base);
		free(r->fig[i].kind);
		free(r->fig[i].title);
	}
	free(r->fig);
	for (size_t i = 0; i < r->n_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

const char *plot_color(size_t i)
{
	static const char *const colors[] = {
		"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
		"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	};
	return colors[i % (sizeof(colors) / sizeof(colors[0]))];
}

void plot_metric_xaxis(struct buf *setup, const struct summary_table *t, bool logx)
{
	if (logx)
		buf_puts(setup, "set logscale x 10\n");
	buf_puts(setup, "set xlabel ");
	char *xl = xasprintf("%s%s%s%s", t->metric, *t->unit ? " (" : "", t->unit,
			     *t->unit ? ")" : "");
	plot_quote(setup, xl);
	free(xl);
	buf_puts(setup, " noenhanced\n");
}

void plot_quote(struct buf *b, const char *s)
{
	buf_puts(b, "'");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\'')
			buf_puts(b, "''");
		else if (*p < 0x20 || *p == 0x7f)
			buf_puts(b, "?");
		else
			buf_append(b, p, 1);
	}
	buf_puts(b, "'");
}

void plot_num(struct buf *b, double v)
{
	buf_printf(b, "%.17g", v);
}

void plot_fig_begin_op(struct plot_ctx *c, struct plot_fig *f, const struct summary_table *t,
		       size_t op, const char *kind)
{
	plot_fig_begin(c, f, t, t->n_ops > 1 ? t->ops[op] : NULL, kind);
	if (t->n_ops > 1)
		buf_printf(&f->title, ", op %s", t->ops[op]);
}

void plot_series_close(struct plot_ctx *c, struct plot_fig *f, size_t points, const char *style,
		       size_t col, const char *name)
{
	if (!points) {
		plot_note(c, f, "series '%s' left out: no finite value", name);
		return;
	}
	plot_series_title(&f->plot, f->n_series, style, col, name);
	plot_series_end(f);
}

void plot_axis_labels(struct buf *setup, const char *xlabel, const char *ylabel)
{
	buf_puts(setup, "set xlabel ");
	plot_quote(setup, xlabel);
	buf_puts(setup, " noenhanced\nset ylabel ");
	plot_quote(setup, ylabel);
	buf_puts(setup, " noenhanced\n");
}

void plot_series_title(struct buf *plot, size_t index, const char *style, size_t color,
		       const char *title)
{
	buf_printf(plot, "%sDATA index %zu using %s lc rgb '%s' title ",
		   index ? ", \\\n     " : "", index, style, plot_color(color));
	plot_quote(plot, title);
	buf_puts(plot, " noenhanced");
}

void plot_series_end(struct plot_fig *f)
{
	buf_puts(&f->data, "\n\n");
	f->n_series++;
}

static void sanitize_part(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p && b->len < BASE_MAX; p++) {
		unsigned char ch = *p;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '+' || ch == '-';
		buf_append(b, ok ? (const char *)p : "_", 1);
	}
}

void plot_fig_begin(struct plot_ctx *c, struct plot_fig *f, const struct summary_table *t,
		    const char *extra, const char *kind)
{
	struct buf name = {0};
	size_t same = 0;

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	if (t) {
		sanitize_part(&name, t->load);
		buf_puts(&name, "-");
		sanitize_part(&name, t->metric);
		/* The fixed dimensions only when the metric has more than one table. */
		for (size_t i = 0; i < c->s->n_tables; i++)
			same += !strcmp(c->s->tables[i].load, t->load) &&
				!strcmp(c->s->tables[i].metric, t->metric);
		const char *fixed[] = {t->variant, t->cell, t->run};
		for (size_t i = 0; same > 1 && i < 3; i++) {
			if (!fixed[i])
				continue;
			buf_puts(&name, "-");
			sanitize_part(&name, *fixed[i] ? fixed[i] : "none");
		}
		summary_table_title(&f->title, c->s, t);
	}
	if (extra) {
		if (name.len)
			buf_puts(&name, "-");
		sanitize_part(&name, *extra ? extra : "none");
	}
	buf_printf(&name, "-%s", kind);
	/* Unique, deterministically: a repeat gets -2, -3, ... */
	char *base = xstrdup(buf_str(&name));
	for (int k = 2;; k++) {
		bool taken = false;
		for (size_t i = 0; i < c->n_used && !taken; i++)
			taken = !strcmp(c->used[i], base);
		if (!taken)
			break;
		free(base);
		base = xasprintf("%s-%d", buf_str(&name), k);
	}
	buf_free(&name);
	c->used = xrealloc(c->used, (c->n_used + 1) * sizeof(*c->used));
	c->used[c->n_used++] = xstrdup(base);
	f->base = base;
}

void plot_note(struct plot_ctx *c, const struct plot_fig *f, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	c->r->notes = xrealloc(c->r->notes, (c->r->n_notes + 1) * sizeof(*c->r->notes));
	c->r->notes[c->r->n_notes++] = f ? xasprintf("%s: %s", f->base, msg) : xstrdup(msg);
	free(msg);
}

static void fig_free(struct plot_fig *f)
{
	free(f->base);
	buf_free(&f->title);
	buf_free(&f->setup);
	buf_free(&f->plot);
	buf_free(&f->data);
	memset(f, 0, sizeof(*f));
}

static int write_file(const char *dir, const char *name, const struct buf *b, char *err,
		      size_t errsz)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	int rc = 0;

	if (!fp) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (fwrite(buf_str(b), 1, b->len, fp) != b->len)
		rc = -1;
	if (fclose(fp))
		rc = -1;
	if (rc)
		snprintf(err, errsz, "writing %s failed", path);
	free(path);
	return rc;
}

static void terminal(struct buf *gp, const struct plot_opts *o, const char *base, bool svg)
{
	if (svg)
		buf_printf(gp, "set terminal svg size %d,%d noenhanced font 'DejaVu Sans,11' "
			   "background '#ffffff'\n", o->width_px, o->height_px);
	else
		buf_printf(gp, "set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,10' "
			   "background '#ffffff'\n", o->width_px, o->height_px);
	buf_puts(gp, "set termoption noenhanced\n");
	buf_puts(gp, "set output ");
	char *out = xasprintf("%s.%s", base, svg ? "svg" : "png");
	plot_quote(gp, out);
	free(out);
	buf_puts(gp, "\n");
}

int plot_fig_finish(struct plot_ctx *c, struct plot_fig *f, const char *why, char *err,
		    size_t errsz)
{
	int rc = 0;

	if (!f->n_series) {
		plot_note(c, f, "not drawn: %s", why ? why : "no series");
		fig_free(f);
		return 0;
	}
	char *dat = xasprintf("%s.dat", f->base), *gpname = xasprintf("%s.gp", f->base);
	struct buf gp = {0};
	buf_printf(&gp, "# schedrig plot: %s (run: gnuplot %s)\n", f->kind, gpname);
	buf_puts(&gp, "set encoding utf8\nset termoption noenhanced\nset datafile missing '?'\n");
	buf_puts(&gp, "set title ");
	plot_quote(&gp, buf_str(&f->title));
	buf_puts(&gp, " noenhanced\n");
	buf_puts(&gp, "set key noenhanced outside right top vertical Left reverse\n");
	buf_puts(&gp, "set grid\nset border 3\nset tics nomirror\n");
	buf_puts(&gp, buf_str(&f->setup));
	buf_puts(&gp, "DATA = ");
	plot_quote(&gp, dat);
	buf_puts(&gp, "\n");
	bool first = true;
	for (int svg = 0; svg < 2; svg++) {
		if (!(c->o->formats & (svg ? PLOT_SVG : PLOT_PNG)))
			continue;
		terminal(&gp, c->o, f->base, svg);
		buf_puts(&gp, first ? "plot " : "replot\n");
		if (first) {
			buf_puts(&gp, buf_str(&f->plot));
			buf_puts(&gp, "\n");
		}
		first = false;
	}
	buf_puts(&gp, "set output\n");

	if (write_file(c->o->dir, dat, &f->data, err, errsz) ||
	    write_file(c->o->dir, gpname, &gp, err, errsz) ||
	    plot_run_gnuplot(c->o->dir, gpname, err, errsz)) {
		rc = -1;
		goto out;
	}
	for (int svg = 0; svg < 2; svg++) {
		if (!(c->o->formats & (svg ? PLOT_SVG : PLOT_PNG)))
			continue;
		char *path = xasprintf("%s/%s.%s", c->o->dir, f->base, svg ? "svg" : "png");
		struct stat sb;
		if (stat(path, &sb) || sb.st_size == 0) {
			snprintf(err, errsz, "gnuplot %s: wrote no %s", gpname, path);
			free(path);
			rc = -1;
			goto out;
		}
		free(path);
	}
	struct plot_result *r = c->r;
	r->fig = xrealloc(r->fig, (r->n_fig + 1) * sizeof(*r->fig));
	r->fig[r->n_fig++] = (struct plot_figure){
		.base = xstrdup(f->base), .kind = xstrdup(f->kind),
		.title = xstrdup(buf_str(&f->title)),
	};
out:
	buf_free(&gp);
	free(dat);
	free(gpname);
	fig_free(f);
	return rc;
}

bool plot_table_nonnegative(const struct summary_table *t)
{
	for (size_t i = 0; i < t->n_ops * t->n_cols; i++)
		if (t->g[i].st.n && !(t->g[i].sorted[0] >= 0))
			return false;
	return true;
}

void plot_errorbar_point(struct buf *data, double x, double y, double e, bool nonnegative)
{
	double half = isfinite(e) ? e : 0, low = y - half;
	/* Every value of the metric is >= 0, so is every mean: a bar below 0
	 * would show values the metric cannot take. */
	if (nonnegative && low < 0)
		low = 0;
	plot_num(data, x);
	buf_puts(data, " ");
	plot_num(data, y);
	buf_puts(data, " ");
	plot_num(data, low);
	buf_puts(data, " ");
	plot_num(data, y + half);
	buf_puts(data, "\n");
}

bool plot_ops_numeric(const struct summary_table *t)
{
	for (size_t i = 0; i < t->n_ops; i++) {
		double v;
		if (!parse_double(t->ops[i], &v) || !isfinite(v))
			return false;
	}
	return t->n_ops > 0;
}

void plot_op_xtics(struct buf *setup, const struct summary_table *t)
{
	buf_puts(setup, "set xtics noenhanced (");
	for (size_t i = 0; i < t->n_ops; i++) {
		if (i)
			buf_puts(setup, ", ");
		plot_quote(setup, *t->ops[i] ? t->ops[i] : "(all)");
		buf_printf(setup, " %zu", i);
	}
	buf_puts(setup, ")\n");
	if (t->n_ops > 8)
		buf_puts(setup, "set xtics rotate by -45\n");
	buf_printf(setup, "set xrange [-0.6:%g]\n", (double)t->n_ops - 0.4);
}

bool plot_row_in(const struct summary *s, const struct summary_table *t,
		 const struct sample_row *row, size_t *col)
{
	if (strcmp(row->load, t->load) || strcmp(row->metric, t->metric) ||
	    strcmp(row->unit, t->unit) || row->better != t->better)
		return false;
	if ((t->run && strcmp(row->run, t->run)) || (t->variant && strcmp(row->variant, t->variant)) ||
	    (t->cell && strcmp(row->cell, t->cell)))
		return false;
	const char *v = s->columns == AXIS_VARIANT ? row->variant
			: s->columns == AXIS_CELL ? row->cell : row->run;
	for (size_t i = 0; i < t->n_cols; i++) {
		if (!strcmp(t->cols[i], v)) {
			*col = i;
			return true;
		}
	}
	return false;
}

bool plot_interval_op(const char *op, long long *k, size_t *prefix_len)
{
	const char *dash = strrchr(op, '-');
	if (!dash || dash == op || dash[1] != 's' || !dash[2])
		return false;
	for (const char *p = dash + 2; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	if (!parse_ll(dash + 2, k))
		return false;
	*prefix_len = (size_t)(dash - op);
	return true;
}

/* "gnuplot DIR/SCRIPT killed after ..." or "... failed (...)" for a
 * finished run, with its stderr. */
static void gnuplot_failure(const struct spawn *g, const char *dir, const char *script, char *err,
			    size_t errsz)
{
	struct buf text = g->err_text;
	/* Trailing newlines of gnuplot's stderr are dropped for the message. */
	while (text.len && (text.data[text.len - 1] == '\n' || text.data[text.len - 1] == '\r'))
		text.data[--text.len] = '\0';
	const char *said = text.len ? buf_str(&text) : "(empty)";
	if (g->timed_out) {
		snprintf(err, errsz, "gnuplot %s/%s: killed after %d s; its stderr: %s", dir, script,
			 GNUPLOT_TIMEOUT_S, said);
		return;
	}
	char how[64];
	if (WIFEXITED(g->status))
		snprintf(how, sizeof(how), "exit status %d", WEXITSTATUS(g->status));
	else
		snprintf(how, sizeof(how), "signal %d", WTERMSIG(g->status));
	snprintf(err, errsz, "gnuplot %s/%s failed (%s); its stderr: %s", dir, script, how, said);
}

int plot_run_gnuplot(const char *dir, const char *script, char *err, size_t errsz)
{
	char *argv[] = {"gnuplot", (char *)script, NULL};
	const char *env[] = {"LC_NUMERIC=C", NULL};
	struct spawn g = {.argv = argv, .env = env, .dir = dir, .in.kind = SPAWN_NULL,
			  .out.kind = SPAWN_NULL, .err.kind = SPAWN_PIPE,
			  .timeout_s = GNUPLOT_TIMEOUT_S, .stop_sig = SIGKILL, .text_max = 64 * 1024};
	int rc = 0;

	if (spawn_run(&g, err, errsz)) {
		if (!strncmp(err, "cannot run", 10))
			snprintf(err + strlen(err), errsz - strlen(err), "%s",
				 " (gnuplot is not installed or not in PATH; "
				 "Debian: apt-get install gnuplot-nox)");
		return -1;
	}
	if (g.timed_out || !WIFEXITED(g.status) || WEXITSTATUS(g.status)) {
		gnuplot_failure(&g, dir, script, err, errsz);
		rc = -1;
	}
	spawn_free(&g);
	return rc;
}
