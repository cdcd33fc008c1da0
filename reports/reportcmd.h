/* What schedrig compare and schedrig report share: their summary options,
 * loading the selected runs' samples from the store, and writing the
 * result to stdout or --output. */
#ifndef SCHEDRIG_REPORTCMD_H
#define SCHEDRIG_REPORTCMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "samples.h"
#include "summary.h"
#include "util.h"

struct cmd_ctx;
struct store;

enum report_format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_CSV, FORMAT_JSON };

/* "text" | "markdown" | "csv" | "json"; -1 for anything else. */
int report_format_parse(const char *s);

struct reportcmd {
	struct cmd_ctx *ctx;        /* the command's set-up (commands.h): its store */
	const char *cmd;            /* "compare" / "report", for messages */
	const char *db;             /* --db (commands.h DEFAULT_DB) */
	const char *output;         /* --output (NULL: stdout) */
	enum report_format format;  /* --format (text) */
	struct summary_opts so;
	struct report_opts ro;
	char **runs;                /* positional RUN selectors */
	size_t n_runs;
	struct report_notes *notes; /* the runs' notes (reportcmd_notes), set by
				     * the command: reportcmd_summarise adds
				     * the summary's (report_notes_summary),
				     * or prints them when nothing matches */
	struct axis_labels labels;  /* the runs' axis labels (reportcmd_load_ids;
				     * ro.labels points here) */
	bool strict_host;           /* --strict-host: a host state note is an error (exit 1) */
	const char *one_run;        /* NULL, or the run name every loaded sample
				     * takes: the selected runs read as one, so
				     * the variants of different runs stand side
				     * by side in one table (schedrig bisect's
				     * points, one run each) */
};

/* Defaults for the command of ctx (ctx->name "compare", "report", ...):
 * database DEFAULT_DB (opened with cmd_store(ctx) when first read), text
 * format, Welch at alpha 0.05, 2 decimals. */
void reportcmd_init(struct reportcmd *c, struct cmd_ctx *ctx);

/* Handle one option shared by compare and report (getopt_long "val" codes
 * below, argument optarg). Returns 0 when handled, EXIT_USAGE after a
 * message on stderr for a bad value, -1 when opt is not a shared option. */
enum {
	OPT_DB = 1000, OPT_OUTPUT, OPT_FORMAT, OPT_COLUMNS, OPT_BASELINE, OPT_DECIMALS,
	OPT_SIGNIFICANCE, OPT_ALPHA, OPT_METRIC, OPT_LOAD, OPT_PERCENTILES,
	OPT_SHARED_LAST,
};
/* The shared options' getopt_long entries (every val above), ended by an
 * entry of name NULL. */
extern const struct option reportcmd_long_options[];
/* Help text for the shared options, except --format: its values differ
 * per command (report adds html), so each command lists it itself. */
extern const char reportcmd_options_help[];

/* Apply one shared option (opt is its getopt_long val, arg its value).
 * Returns 0, or -1 after printing why arg is bad (exit status 2). */
int reportcmd_option(struct reportcmd *c, int opt, const char *arg);

/* Open the database read-only, resolve the RUN selectors and load every
 * sample of those runs into t (initialised here). Returns 0, or 1 after a
 * message on stderr (missing database, unknown run, no samples; with no
 * samples the runs' notes follow, reportcmd_notes, so the failed variants
 * and cells are named). */
int reportcmd_load(struct reportcmd *c, struct sample_table *t);

/* The same, also returning the run ids (malloc'd) for provenance, and
 * reading the axis labels of the runs' stored configs into c->labels
 * ({values: [...], label: LN}; a config that no longer parses gives none). */
int reportcmd_load_ids(struct reportcmd *c, struct sample_table *t,
		       int64_t **ids, size_t *n_ids);

/* Free what reportcmd_load_ids kept in c (the labels). */
void reportcmd_free(struct reportcmd *c);

/* The histograms of runs ids (store_load_histograms) added to h, which the
 * caller initialised (hist_table_init) and frees; it stays empty when the
 * runs hold none. Returns 0, or 1 after a message. */
int reportcmd_load_histograms(const struct reportcmd *c, const int64_t *ids, size_t n_ids,
			      struct hist_table *h);

/* Build the summary and add its notes to c->notes (when set:
 * report_notes_summary); 0, or EXIT_USAGE after a message (unknown baseline,
 * a --metric that matches no metric, of the samples nor of c->so.hists when
 * set), or 1 after "no samples match" (no table, and no stored histogram
 * named by --metric); either message is followed by the notes of c->notes
 * (when set) on stderr. */
int reportcmd_summarise(const struct reportcmd *c, const struct sample_table *t,
			struct summary *s);

/* What compare, report and mail lay out (reportcmd_prepare). */
struct reportcmd_data {
	struct sample_table t;      /* the selected runs' samples */
	struct hist_table h;        /* their stored histograms; empty unless asked for */
	struct summary s;           /* valid when summarised */
	bool summarised;
	struct report_notes notes;  /* the runs' notes, then the summary's */
	struct report_kernels kernels; /* the runs' variants: their kernels
					* (c->ro.kernels points here) */
	int64_t *ids;               /* the selected runs */
	size_t n_ids;
};

/* The one sequence every layout command runs: load the selected runs'
 * samples and axis labels (reportcmd_load_ids), their notes
 * (reportcmd_notes; c->notes points at d->notes from then on), with
 * histograms true the runs' stored histograms (reportcmd_load_histograms:
 * the summary is built with them, so --metric may name one, and the
 * layouts pool them: c->so.hists, c->ro.hists and c->ro.select are set),
 * the kernel each variant ran (report_kernels_load; c->ro.kernels), then
 * the summary and its notes (reportcmd_summarise). Returns 0, or the
 * exit status after a message. d holds what was loaded either way: free
 * it with reportcmd_data_free (before c, whose options point into it). */
int reportcmd_prepare(struct reportcmd *c, bool histograms, struct reportcmd_data *d);
void reportcmd_data_free(struct reportcmd_data *d);

/* The slot of layout l for format f (report.h: NULL when l lacks it). */
report_layout_fn *reportcmd_layout_fn(const struct report_layout *l, enum report_format f);

/* What schedrig compare prints, for the options in c and layout l: the
 * selected runs prepared (reportcmd_prepare, with histograms when the
 * layout pools them), laid out in c->format, the notes after the tables
 * (text and markdown; on stderr with --plain; inside JSON), written
 * (reportcmd_write). Returns the exit status (0, 1, EXIT_USAGE) after a
 * message prefixed "schedrig CMD:". */
int reportcmd_compare(struct reportcmd *c, const struct report_layout *l);

/* What schedrig trace prints: tables it made itself (t, and h for the
 * layouts that pool histograms), laid out as reportcmd_compare does with
 * notes (which may be NULL) after them. Returns the exit status after a
 * message prefixed "schedrig CMD:". */
int reportcmd_layout_rows(struct reportcmd *c, const struct report_layout *l,
			  const struct sample_table *t, struct hist_table *h,
			  struct report_notes *notes);

/* The table schedrig run prints at its end: `schedrig compare --db DB ID`
 * with every default (reportcmd_compare, layout REPORT_LAYOUT_DEFAULT),
 * read through ctx's store (cmd_store). */
int reportcmd_print_run(struct cmd_ctx *ctx, const char *db, int64_t run_id);

/* Write out to --output (replacing the file) or stdout. 0 or 1 after a
 * message. */
int reportcmd_write(const struct reportcmd *c, const struct buf *out);

/* The notes of runs ids into notes (initialised here; report.h): per run
 * "Partial: ..." when its rig has not finished it (running, interrupted,
 * abandoned), "Order: ..." (the order its iterations ran in, harness/config/order.h;
 * "blocked" for runs without a stored order, none for imported runs),
 * "Iterations: ..." (adaptive
 * iterations: how many ran per cell
 * and why they stopped), "No samples: ..." (store_empty_cells: a cell or
 * variant without a complete iteration, absent from the tables), then "No
 * samples: the failures are in schedrig show ID" (or "see schedrig show ID"
 * when nothing failed). None when there are none or the database cannot be
 * read. */
void reportcmd_notes(const struct reportcmd *c, const int64_t *ids, size_t n_ids,
		     struct report_notes *notes);

#endif
