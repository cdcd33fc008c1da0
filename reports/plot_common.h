/* What the figure kinds (reports/plot_*.c) share, from
 * reports/plot_common.c: the options and results of plot_all (plot.h), a
 * figure under construction, its gnuplot script and data helpers, running
 * gnuplot; and each kind's entry, which plot_all (reports/plot.c) calls. */
#ifndef SCHEDRIG_PLOT_COMMON_H
#define SCHEDRIG_PLOT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples.h"
#include "summary.h"
#include "util.h"

enum { PLOT_PNG = 1, PLOT_SVG = 2 };

/* What the error bars of the mean figure show. */
enum plot_errorbars { PLOT_ERR_STDDEV = 0, PLOT_ERR_CI95 };

struct plot_opts {
	const char *dir;              /* output directory (must exist) */
	unsigned formats;             /* PLOT_PNG | PLOT_SVG */
	bool logx;                    /* histogram and CDF: logarithmic x axis */
	enum plot_errorbars errorbars;
	int width_px, height_px;      /* 1000 x 600 */
};

/* Defaults: PNG and SVG, linear x, ± Stddev, 1000 x 600. */
void plot_opts_init(struct plot_opts *o);

/* One drawn figure. */
struct plot_figure {
	char *base;    /* file name without extension, e.g. "dbench-latency-mean" */
	char *kind;    /* "mean" | "box" | "hist" | "cdf" | "heatmap" | "interval" |
	                  "monitor" */
	char *title;   /* as printed on the figure */
};

/* What plot_all did: the figures drawn (in a deterministic order) and the
 * notes (series left out, figures not drawn, each with its reason). */
struct plot_result {
	struct plot_figure *fig;
	size_t n_fig;
	char **notes;
	size_t n_notes;
};
/* Free the figure names and notes of r. */
void plot_result_free(struct plot_result *r);

/* One figure under construction. */
struct plot_ctx {
	const struct plot_opts *o;
	const struct sample_table *t;
	const struct summary *s;
	struct plot_result *r;
	char **used;         /* every file base handed out so far */
	size_t n_used;
};

struct plot_fig {
	char *base;          /* unique file base */
	const char *kind;
	struct buf title;    /* plain text, written quoted */
	struct buf setup;    /* gnuplot commands before "plot" (axes, labels) */
	struct buf plot;     /* the plot command's argument list, without "plot " */
	struct buf data;     /* BASE.dat */
	size_t n_series;     /* datasets written (index 0 .. n_series-1) */
};

/* Start a figure named after table t (NULL: extra and kind only) plus the
 * optional extra part (an op) and kind; title starts as the table title. */
void plot_fig_begin(struct plot_ctx *c, struct plot_fig *f, const struct summary_table *t,
		    const char *extra, const char *kind);
/* plot_fig_begin for op of table t: with more than one op its name is the
 * extra part and the title says ", op OP". */
void plot_fig_begin_op(struct plot_ctx *c, struct plot_fig *f, const struct summary_table *t,
		       size_t op, const char *kind);
/* The end of series col of f: with points 0 the note "series 'NAME' left
 * out: no finite value" (name t's column), else its clause
 * (plot_series_title, titled name) and its end (plot_series_end). */
void plot_series_close(struct plot_ctx *c, struct plot_fig *f, size_t points, const char *style,
		       size_t col, const char *name);
/* Append s to b as a gnuplot single-quoted string ('' doubles a quote;
 * control characters become '?'), e.g. a title or key. */
void plot_quote(struct buf *b, const char *s);
/* Append the x axis of a distribution of t's metric: "set xlabel 'METRIC
 * (UNIT)' noenhanced" and, with logx, a base-10 log scale. */
void plot_metric_xaxis(struct buf *setup, const struct summary_table *t, bool logx);
/* Append a double in the C locale, shortest round-trip form ("%.17g"). */
void plot_num(struct buf *b, double v);
/* Append "set xlabel 'XLABEL' noenhanced" and "set ylabel 'YLABEL'
 * noenhanced" lines to setup, both quoted by plot_quote. */
void plot_axis_labels(struct buf *setup, const char *xlabel, const char *ylabel);
/* Append dataset index's clause to plot (after ", \\\n     " unless it is
 * the first): "DATA index INDEX using STYLE lc rgb 'COLOR' title 'TITLE'
 * noenhanced", style the columns and the style ("1:2 with steps lw 2"),
 * COLOR plot_color(color), title quoted by plot_quote. */
void plot_series_title(struct buf *plot, size_t index, const char *style, size_t color,
		       const char *title);
/* End the current dataset in f->data (two blank lines) and count it. */
void plot_series_end(struct plot_fig *f);
/* Add a note "BASE: text" to the result. */
void plot_note(struct plot_ctx *c, const struct plot_fig *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write BASE.dat and BASE.gp and run gnuplot when the figure has a series,
 * else note that it is not drawn (why: the reason). Frees f. 0 or -1. */
int plot_fig_finish(struct plot_ctx *c, struct plot_fig *f, const char *why,
		    char *err, size_t errsz);
/* A palette colour for series i (a fixed list, cycled), "#rrggbb". */
const char *plot_color(size_t i);
/* true when every sample of t (all ops and columns; NaN left out) is >= 0.
 * Such a metric is taken to be one that cannot be negative (a latency, a
 * time, a throughput): its error bars stop at 0 (plot_errorbar_point). */
bool plot_table_nonnegative(const struct summary_table *t);
/* Append one point of a yerrorlines series, "x y ylow yhigh" (using
 * 1:2:3:4): y ± e (e not finite: 0), ylow clamped at 0 when nonnegative. */
void plot_errorbar_point(struct buf *data, double x, double y, double e, bool nonnegative);
/* true when every op of t is a number (parse_double, finite). */
bool plot_ops_numeric(const struct summary_table *t);
/* Set xtics to the op labels at 0, 1, ... n-1 (categorical axis). */
void plot_op_xtics(struct buf *setup, const struct summary_table *t);
/* true when the row belongs to table t and has column col of t. */
bool plot_row_in(const struct summary *s, const struct summary_table *t,
		 const struct sample_row *row, size_t *col);

/* The figure kinds. Each draws zero or more figures for table t. */
int plot_mean(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz);
int plot_box(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz);
int plot_hist(struct plot_ctx *c, const struct summary_table *t, size_t op, char *err,
	      size_t errsz);
int plot_cdf(struct plot_ctx *c, const struct summary_table *t, size_t op, char *err,
	     size_t errsz);
int plot_interval(struct plot_ctx *c, const struct summary_table *t, char *err, size_t errsz);
/* Heat maps take a summary by cell (columns = cell). */
int plot_heatmap(struct plot_ctx *c, const struct summary *by_cell,
		 const struct summary_table *t, char *err, size_t errsz);

/* true when op is an interval label "P-sK" (K decimal digits); *k and the
 * length of P (the prefix) are returned. */
bool plot_interval_op(const char *op, long long *k, size_t *prefix_len);

/* Run "gnuplot SCRIPT" in dir (stdin /dev/null, stdout discarded, stderr
 * captured, 120 s limit). 0, or -1 with "gnuplot ...: why" plus its stderr
 * in err (a missing gnuplot is named as such). */
int plot_run_gnuplot(const char *dir, const char *script, char *err, size_t errsz);

#endif
