/* schedrig plot [RUN...] --output-dir DIR: figures of the chosen runs as
 * PNG and/or SVG, drawn by gnuplot (reports/plot.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdopts.h"
#include "commands.h"
#include "plot.h"
#include "reportcmd.h"
#include "store.h"
#include "trace_plot.h"

static const char usage_text[] =
	"usage: schedrig plot [--db FILE] [RUN...] --output-dir DIR [--format png|svg|both]\n"
	"                     [--logx] [--errorbars stddev|ci95] [--columns AXIS]\n"
	"                     [--baseline NAME] [--metric M] [--load L]\n"
	"\n"
	"Draw the figures of the given runs (ids, names or 'latest'; default the newest\n"
	"run) with gnuplot into DIR: per load and metric the mean with error bars\n"
	"against the op (one line per variant or cell), box plots (min, Q1, median,\n"
	"Q3, max), for latency metrics the histogram and CDF of the samples, a heat map\n"
	"of two matrix axes, and interval series (ops 'P-sK', e.g. tcp-rr pair0-s3).\n"
	"Runs with monitor series (config 'monitors:') also get, per variant (and\n"
	"cell), CPU user/system/idle % per CPU, context switches/s, PSI cpu some %\n"
	"and per-load involuntary switches over the iteration's time (not with\n"
	"--metric or --load). Runs with traces (config 'trace:') also get, per load\n"
	"(and cell), the CDF of its wakeup latency in the traces, a line per variant\n"
	"(LOAD-wakeup_latency_us[-CELL]-trace-cdf; not with --metric).\n"
	"Each figure BASE leaves BASE.gp, BASE.dat and BASE.png / BASE.svg; names are\n"
	"LOAD-METRIC[-...]-KIND (KIND mean|box|hist|cdf|heatmap|interval|trace-cdf) and\n"
	"VARIANT[-CELL]-SERIES-monitor.\n"
	"\n"
	"  --db FILE            results database (default " DEFAULT_DB ")\n"
	"  --output-dir DIR     where the figures go (created when missing)\n"
	"  --format F           png|svg|both (default both)\n"
	"  --logx               logarithmic x axis for histograms and CDFs\n"
	"  --errorbars E        stddev (default) or ci95 (95% CI of the mean, Student t)\n"
	"  --columns AXIS       variant|cell|run as the lines (default: variant when the\n"
	"                       runs hold more than one variant, else cell)\n"
	"  --baseline NAME      the column drawn first\n"
	"  --metric M, --load L only that metric / load\n"
	"  -h, --help           this text\n"
	"\n"
	"Needs gnuplot (Debian gnuplot-nox). Exit status: 0 at least one figure drawn,\n"
	"1 failure (database, no samples, no figure drawn, gnuplot missing or\n"
	"failing), 2 bad usage.\n";

enum { OPT_OUTPUT_DIR = OPT_SHARED_LAST + 1, OPT_LOGX, OPT_ERRORBARS, OPT_PLOT_FORMAT };

/* --format, --errorbars: 0, or EXIT_USAGE after saying why. */
static int plot_choice(struct plot_opts *po, int opt, const char *arg)
{
	if (opt == OPT_PLOT_FORMAT) {
		if (!strcmp(arg, "png"))
			po->formats = PLOT_PNG;
		else if (!strcmp(arg, "svg"))
			po->formats = PLOT_SVG;
		else if (!strcmp(arg, "both"))
			po->formats = PLOT_PNG | PLOT_SVG;
		else {
			fprintf(stderr, "schedrig plot: --format must be png, svg or both: '%s'\n",
				arg);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (!strcmp(arg, "stddev"))
		po->errorbars = PLOT_ERR_STDDEV;
	else if (!strcmp(arg, "ci95"))
		po->errorbars = PLOT_ERR_CI95;
	else {
		fprintf(stderr, "schedrig plot: --errorbars must be stddev or ci95: '%s'\n", arg);
		return EXIT_USAGE;
	}
	return 0;
}

/* One option of plot's own into po (cmd_report_parse): 0, EXIT_USAGE
 * after saying why, or -1 for a report option. */
static int plot_option(int opt, const char *arg, void *ctx)
{
	struct plot_opts *po = ctx;
	switch (opt) {
	case OPT_OUTPUT_DIR:
		po->dir = arg;
		return 0;
	case OPT_PLOT_FORMAT:
	case OPT_ERRORBARS:
		return plot_choice(po, opt, arg);
	case OPT_LOGX:
		po->logx = true;
		return 0;
	}
	return -1;
}

/* The options of argv into c and po: -1 to go on and draw, else the exit
 * status (0 after --help). */
static int plot_options(int argc, char **argv, struct reportcmd *c, struct plot_opts *po)
{
	static const int shared[] = {OPT_DB, OPT_COLUMNS, OPT_BASELINE, OPT_METRIC, OPT_LOAD, 0};
	static const struct option long_options[] = {
		{"output-dir", required_argument, NULL, OPT_OUTPUT_DIR},
		{"format", required_argument, NULL, OPT_PLOT_FORMAT},
		{"logx", no_argument, NULL, OPT_LOGX},
		{"errorbars", required_argument, NULL, OPT_ERRORBARS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const struct cmd_optspec spec = {
		.cmd = "plot", .shortopts = "h", .longopts = long_options, .usage = usage_text,
		.bad_hint = " (missing value?)", .on = plot_option, .ctx = po, .shared = shared,
	};
	int rc = cmd_report_parse(argc, argv, c, &spec);

	if (rc < 0 && !po->dir) {
		fprintf(stderr, "schedrig plot: --output-dir DIR is required\n"
			"Try 'schedrig plot --help'.\n");
		return EXIT_USAGE;
	}
	return rc;
}

/* The wakeup-latency CDF of each load of the runs' traces (config trace:),
 * a line per variant; nothing when the runs have none. 0 or -1 with err. */
static int plot_traces(struct reportcmd *c, const struct plot_opts *po, const int64_t *ids,
		       size_t n_ids, struct plot_result *r, char *err, size_t errsz)
{
	struct trace_items items;
	struct trace_filter f = {0};
	if (trace_items_load(c->ctx->st, c->db, ids, n_ids, &f, false, &items, err, errsz))
		return -1;
	struct trace_figures figs;
	trace_figures_make(&items, c->so.load, &figs);
	int rc = plot_trace_cdfs(figs.fig, figs.n, po, r, err, errsz);
	trace_figures_free(&figs);
	trace_items_free(&items);
	return rc;
}

/* The figures of summary s of t into po->dir, and the monitor figures of
 * runs ids when no --metric or --load narrows the samples; notes on
 * stderr, the files drawn on stdout. The exit status. */
static int plot_draw(struct reportcmd *c, const struct plot_opts *po, const struct sample_table *t,
		     const struct summary *s, const int64_t *ids, size_t n_ids)
{
	struct plot_result r = {0};
	char err[8192] = "";

	if (mkdir_p(po->dir, err, sizeof(err))) {
		fprintf(stderr, "schedrig plot: %s\n", err);
		return 1;
	}
	int rc = plot_all(t, s, po, &r, err, sizeof(err));
	if (!rc && !c->so.n_metrics && !c->so.load)
		rc = plot_monitors(c->ctx->st, ids, n_ids, po, &r, err, sizeof(err));
	if (!rc && !c->so.n_metrics)
		rc = plot_traces(c, po, ids, n_ids, &r, err, sizeof(err));
	for (size_t i = 0; i < r.n_notes; i++)
		fprintf(stderr, "schedrig plot: note: %s\n", r.notes[i]);
	if (rc) {
		fprintf(stderr, "schedrig plot: %s\n", err);
		rc = 1;
	} else if (!r.n_fig) {
		fprintf(stderr, "schedrig plot: no figure drawn: no series of the selected "
			"samples has a finite value (see the notes above)\n");
		rc = 1;
	}
	for (size_t i = 0; i < r.n_fig; i++) {
		if (po->formats & PLOT_PNG)
			printf("%s/%s.png\n", po->dir, r.fig[i].base);
		if (po->formats & PLOT_SVG)
			printf("%s/%s.svg\n", po->dir, r.fig[i].base);
	}
	plot_result_free(&r);
	return rc;
}

int cmd_plot(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct reportcmd c;
	struct plot_opts po;
	struct sample_table t;
	struct summary s;
	int64_t *ids = NULL;
	size_t n_ids = 0;

	reportcmd_init(&c, ctx);
	plot_opts_init(&po);
	c.so.significance = SIG_NONE;
	int rc = plot_options(argc, argv, &c, &po);
	if (rc >= 0)
		return rc;
	rc = reportcmd_load_ids(&c, &t, &ids, &n_ids);
	if (rc) {
		fprintf(stderr, "schedrig plot: no figure drawn\n");
	} else if (!(rc = reportcmd_summarise(&c, &t, &s))) {
		rc = plot_draw(&c, &po, &t, &s, ids, n_ids);
		summary_free(&s);
	}
	sample_table_free(&t);
	free(ids);
	reportcmd_free(&c);
	return rc;
}
