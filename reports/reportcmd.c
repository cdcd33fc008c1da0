#include "reportcmd.h"
#include "reporthost.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdsetup.h"
#include "config.h"
#include "provenance.h"
#include "store.h"

const char reportcmd_options_help[] =
	"  --db FILE            results database (default " DEFAULT_DB ")\n"
	"  --output FILE        write to FILE instead of stdout\n"
	"  --columns AXIS       variant|cell|run as columns (default: variant when the\n"
	"                       runs hold more than one variant, else cell)\n"
	"  --baseline NAME      the column every other one is compared with (moved first)\n"
	"  --decimals N         digits after the point (default: each metric's, as\n"
	"                       mmtests: hackbench 4, cyclictest 0, others 2)\n"
	"  --significance TEST  welch|ci-overlap|mann-whitney|none (default welch)\n"
	"  --alpha A            significance level (default 0.05)\n"
	"  --metric M[,M...]    only these metrics (repeatable; one matching nothing is\n"
	"                       refused, naming the metrics there are; compare's\n"
	"                       percentile and latency layouts: also the histograms,\n"
	"                       cyclictest's latency)\n"
	"  --load L             only load L\n"
	"  --percentiles LIST   percentile table columns (default 50,90,95,99,99.9)\n";

const struct option reportcmd_long_options[] = {
	{"db", required_argument, NULL, OPT_DB},
	{"output", required_argument, NULL, OPT_OUTPUT},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"columns", required_argument, NULL, OPT_COLUMNS},
	{"baseline", required_argument, NULL, OPT_BASELINE},
	{"decimals", required_argument, NULL, OPT_DECIMALS},
	{"significance", required_argument, NULL, OPT_SIGNIFICANCE},
	{"alpha", required_argument, NULL, OPT_ALPHA},
	{"metric", required_argument, NULL, OPT_METRIC},
	{"load", required_argument, NULL, OPT_LOAD},
	{"percentiles", required_argument, NULL, OPT_PERCENTILES},
	{NULL, 0, NULL, 0},
};

int report_format_parse(const char *s)
{
	static const char *const names[] = {"text", "markdown", "csv", "json"};
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

void reportcmd_init(struct reportcmd *c, struct cmd_ctx *ctx)
{
	const char *cmd = ctx->name;
	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	c->cmd = cmd;
	c->db = DEFAULT_DB;
	c->format = FORMAT_TEXT;
	summary_opts_init(&c->so);
	/* Tables hold each load's headline metrics; plots draw every series. */
	c->so.headline_only = strcmp(cmd, "plot") != 0;
	report_opts_init(&c->ro);
}

static int bad(const struct reportcmd *c, const char *what, const char *arg)
{
	fprintf(stderr, "schedrig %s: %s: '%s'\n", c->cmd, what, arg);
	return EXIT_USAGE;
}

int reportcmd_option(struct reportcmd *c, int opt, const char *arg)
{
	long long n;
	double d;
	int v;

	switch (opt) {
	case OPT_DB:
		c->db = arg;
		return 0;
	case OPT_OUTPUT:
		c->output = arg;
		return 0;
	case OPT_FORMAT:
		if ((v = report_format_parse(arg)) < 0)
			return bad(c, "--format must be text, markdown, csv or json", arg);
		c->format = (enum report_format)v;
		return 0;
	case OPT_COLUMNS:
		if ((v = summary_axis_parse(arg)) < 0)
			return bad(c, "--columns must be variant, cell or run", arg);
		c->so.columns = v;
		return 0;
	case OPT_BASELINE:
		c->so.baseline = arg;
		return 0;
	case OPT_DECIMALS:
		if (!parse_ll(arg, &n) || n < 0 || n > 9)
			return bad(c, "--decimals must be 0..9", arg);
		c->ro.decimals = (int)n;
		return 0;
	case OPT_SIGNIFICANCE:
		if ((v = stats_significance_parse(arg)) < 0)
			return bad(c, "--significance must be welch, ci-overlap, mann-whitney or none", arg);
		c->so.significance = (enum stats_significance)v;
		return 0;
	case OPT_ALPHA:
		if (!parse_double(arg, &d) || !(d > 0 && d < 1))
			return bad(c, "--alpha must be a number between 0 and 1", arg);
		c->so.alpha = d;
		return 0;
	case OPT_METRIC: {
		char err[256];
		if (summary_opts_add_metrics(&c->so, arg, err, sizeof(err))) {
			fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
			return EXIT_USAGE;
		}
		return 0;
	}
	case OPT_LOAD:
		c->so.load = arg;
		return 0;
	case OPT_PERCENTILES:
		if (report_parse_percentiles(&c->ro, arg))
			return bad(c, "--percentiles must be a list such as 50,90,99 (each in (0, 100])",
				   arg);
		return 0;
	}
	return -1;
}

/* The notes on stderr, one per line. */
static void print_notes(const struct report_notes *notes)
{
	for (size_t i = 0; notes && i < notes->n; i++)
		fprintf(stderr, "%s\n", notes->v[i]);
}

/* The axis labels of run id's stored config into labels. */
static void run_labels(struct store *st, int64_t id, struct axis_labels *labels)
{
	char *path = NULL, *text = NULL, err[512];
	int iterations;
	if (store_run_config(st, id, &path, &text, &iterations, err, sizeof(err)) || !text) {
		free(path);
		free(text);
		return;
	}
	struct experiment *e = config_parse(path ? path : "config", text, strlen(text), err,
					    sizeof(err));
	for (size_t i = 0; e && i < e->n_loads; i++) {
		const struct cfg_load *l = &e->loads[i];
		for (size_t k = 0; k < l->n_params + l->n_sched; k++) {
			const struct cfg_setting *set = k < l->n_params ? &l->params[k]
									: &l->sched[k - l->n_params];
			if (set->label) {
				char *axis = xasprintf("%s.%s", l->name, set->key);
				axis_labels_add(labels, axis, set->label);
				free(axis);
			}
		}
	}
	if (e)
		experiment_free(e);
	free(path);
	free(text);
}

void reportcmd_free(struct reportcmd *c)
{
	axis_labels_free(&c->labels);
}

int reportcmd_load_ids(struct reportcmd *c, struct sample_table *t,
		       int64_t **ids_out, size_t *n_ids_out)
{
	int64_t *ids = NULL;
	size_t n_ids = 0;
	char err[512] = "";

	sample_table_init(t);
	if (cmd_select_runs(c->ctx, c->db, c->runs, c->n_runs, &ids, &n_ids))
		return 1;
	struct store *st = c->ctx->st;
	if (store_load_rows(st, ids, n_ids, t, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		free(ids);
		return 1;
	}
	if (c->one_run) {
		const char *run = sample_table_intern(t, c->one_run);
		for (size_t i = 0; i < t->n; i++)
			t->rows[i].run = run;
	}
	for (size_t i = 0; i < n_ids; i++)
		run_labels(st, ids[i], &c->labels);
	c->ro.labels = &c->labels;
	if (!t->n) {
		struct report_notes notes;
		fprintf(stderr, "schedrig %s: the selected runs hold no samples\n", c->cmd);
		reportcmd_notes(c, ids, n_ids, &notes);
		print_notes(&notes);
		report_notes_free(&notes);
		free(ids);
		return 1;
	}
	if (ids_out) {
		*ids_out = ids;
		*n_ids_out = n_ids;
	} else {
		free(ids);
	}
	return 0;
}

int reportcmd_load_histograms(const struct reportcmd *c, const int64_t *ids, size_t n_ids,
			      struct hist_table *h)
{
	char err[512] = "";
	struct store *st = cmd_store(c->ctx, c->db);

	if (!st)
		return 1;
	if (store_load_histograms(st, ids, n_ids, h, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		return 1;
	}
	return 0;
}

int reportcmd_load(struct reportcmd *c, struct sample_table *t)
{
	return reportcmd_load_ids(c, t, NULL, NULL);
}

int reportcmd_summarise(const struct reportcmd *c, const struct sample_table *t,
			struct summary *s)
{
	char err[512] = "";
	if (summary_build(t, &c->so, s, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		print_notes(c->notes);
		return EXIT_USAGE;
	}
	if (!s->n_tables && !s->hists_selected) {
		fprintf(stderr, "schedrig %s: no samples match%s%s\n", c->cmd,
			c->so.load ? " --load " : "", c->so.load ? c->so.load : "");
		print_notes(c->notes);
		summary_free(s);
		return 1;
	}
	if (c->notes)
		report_notes_summary(c->notes, s);
	return 0;
}

int reportcmd_prepare(struct reportcmd *c, bool histograms, struct reportcmd_data *d)
{
	memset(d, 0, sizeof(*d));
	hist_table_init(&d->h);
	int rc = reportcmd_load_ids(c, &d->t, &d->ids, &d->n_ids);
	if (rc)
		return rc;
	reportcmd_notes(c, d->ids, d->n_ids, &d->notes);
	c->notes = &d->notes;
	char err[512] = "";
	if (report_kernels_load(c->ctx->st, d->ids, d->n_ids, &d->kernels, err, sizeof(err))) {
		fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		return 1;
	}
	c->ro.kernels = &d->kernels;
	if (histograms) {
		rc = reportcmd_load_histograms(c, d->ids, d->n_ids, &d->h);
		if (rc)
			return rc;
		c->so.hists = &d->h;
		c->ro.hists = &d->h;
		c->ro.select = &c->so;
	}
	rc = reportcmd_summarise(c, &d->t, &d->s);
	d->summarised = rc == 0;
	return rc;
}

void reportcmd_data_free(struct reportcmd_data *d)
{
	if (d->summarised)
		summary_free(&d->s);
	report_notes_free(&d->notes);
	report_kernels_free(&d->kernels);
	hist_table_free(&d->h);
	sample_table_free(&d->t);
	free(d->ids);
	memset(d, 0, sizeof(*d));
}

report_layout_fn *reportcmd_layout_fn(const struct report_layout *l, enum report_format f)
{
	switch (f) {
	case FORMAT_TEXT:
		return l->text;
	case FORMAT_MARKDOWN:
		return l->markdown;
	case FORMAT_CSV:
		return l->csv;
	case FORMAT_JSON:
		return l->json;
	}
	return NULL;
}

int reportcmd_write(const struct reportcmd *c, const struct buf *out)
{
	FILE *f = c->output ? fopen(c->output, "w") : stdout;
	if (!f) {
		fprintf(stderr, "schedrig %s: %s: %s\n", c->cmd, c->output, strerror(errno));
		return 1;
	}
	size_t len = out->len;
	bool ok = fwrite(buf_str(out), 1, len, f) == len;
	ok = (c->output ? fclose(f) : fflush(f)) == 0 && ok;
	if (!ok) {
		fprintf(stderr, "schedrig %s: writing %s failed\n", c->cmd,
			c->output ? c->output : "stdout");
		return 1;
	}
	return 0;
}

/* "Partial: ..." for a run its rig has not finished (running, interrupted,
 * abandoned: provenance_run_status), so no table passes for a whole run. */
static void partial_note(struct report_notes *notes, int64_t id, const struct run_owner *ow)
{
	const char *status = provenance_run_status(ow->status, ow->host, ow->boot_id, ow->pid,
						   ow->start_ticks);
	if (!strcmp(status, "complete") || !strcmp(status, "failed") ||
	    !strcmp(status, "imported"))
		return;
	report_notes_add(notes, xasprintf("Partial: run %lld is %s; its tables hold the iterations"
					  " complete so far%s", (long long)id, status,
					  strcmp(status, "running") ? " (schedrig run --resume"
					  " finishes it)" : ""));
}

/* "Order: interleaved" — the order the run's iterations ran in (event
 * "order"; runs without one ran blocked; imported runs have none), with
 * the run id when the tables hold several runs. */
static void order_note(struct store *st, int64_t id, size_t n_ids, struct report_notes *notes)
{
	char **msgs, err[256];
	size_t n;
	if (store_events(st, id, "order", &msgs, &n, err, sizeof(err)))
		return;
	char *run = n_ids > 1 ? xasprintf(" (run %lld)", (long long)id) : xstrdup("");
	report_notes_add(notes, xasprintf("Order%s: %s", run, n ? msgs[0] : "blocked"));
	free(run);
	for (size_t k = 0; k < n; k++)
		free(msgs[k]);
	free(msgs);
}

void reportcmd_notes(const struct reportcmd *c, const int64_t *ids, size_t n_ids,
		     struct report_notes *notes)
{
	struct store *st = c->ctx->st;
	char err[256];

	memset(notes, 0, sizeof(*notes));
	if (!st)
		return;
	for (size_t i = 0; i < n_ids; i++) {
		char **msgs;
		size_t n;
		struct run_owner ow;
		if (store_run_owner(st, ids[i], &ow, err, sizeof(err)) == 0) {
			partial_note(notes, ids[i], &ow);
			if (strcmp(ow.status, "imported"))
				order_note(st, ids[i], n_ids, notes);
		}
		if (store_flag_notes(st, ids[i], &msgs, &n, err, sizeof(err)) == 0) {
			for (size_t k = 0; k < n; k++) {
				report_notes_add(notes, xasprintf("Flagged: %s", msgs[k]));
				free(msgs[k]);
			}
			free(msgs);
		}
		if (store_events(st, ids[i], "iterations", &msgs, &n, err, sizeof(err)))
			continue;
		for (size_t k = 0; k < n; k++) {
			report_notes_add(notes, xasprintf("Iterations: %s", msgs[k]));
			free(msgs[k]);
		}
		free(msgs);
		if (store_silent_loads(st, ids[i], &msgs, &n, err, sizeof(err)) == 0) {
			for (size_t k = 0; k < n; k++) {
				report_notes_add(notes, xasprintf("No samples: %s", msgs[k]));
				free(msgs[k]);
			}
			free(msgs);
		}
		if (store_empty_cells(st, ids[i], &msgs, &n, err, sizeof(err)))
			continue;
		for (size_t k = 0; k < n; k++)
			report_notes_add(notes, xasprintf("No samples: %s", msgs[k]));
		for (size_t k = 0; k < n; k++)
			free(msgs[k]);
		free(msgs);
		if (n && store_events(st, ids[i], "failure", &msgs, &n, err, sizeof(err)) == 0) {
			report_notes_add(notes, xasprintf("No samples: %s schedrig show %lld",
							  n ? "the failures are in" : "see",
							  (long long)ids[i]));
			for (size_t k = 0; k < n; k++)
				free(msgs[k]);
			free(msgs);
		}
	}
	reportcmd_host_notes(st, ids, n_ids, notes);
}

/* The notes after the tables: text (on stderr with --plain) and markdown
 * have them here, JSON inside, CSV none. */
static void add_notes(const struct reportcmd *c, struct buf *out, const struct report_notes *notes)
{
	if (c->format == FORMAT_MARKDOWN) {
		report_notes_markdown(out, notes);
	} else if (c->format == FORMAT_TEXT && c->ro.plain) {
		for (size_t i = 0; i < notes->n; i++)
			fprintf(stderr, "schedrig %s: %s\n", c->cmd, notes->v[i]);
	} else if (c->format == FORMAT_TEXT) {
		report_notes_text(out, notes);
	}
}

int reportcmd_compare(struct reportcmd *c, const struct report_layout *l)
{
	struct reportcmd_data d;
	struct buf out = {0};
	char err[768] = "";

	/* The percentile and latency layouts pool the stored histograms, which
	 * --metric may name (cyclictest's latency). */
	int rc = reportcmd_prepare(c, l->histograms, &d);
	if (!rc) {
		struct report_input in = {.s = &d.s, .o = &c->ro, .notes = &d.notes};
		rc = reportcmd_layout_fn(l, c->format)(&out, &in, err, sizeof(err));
		if (rc)
			fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		add_notes(c, &out, &d.notes);
		if (!rc)
			rc = reportcmd_write(c, &out);
		if (!rc && c->strict_host && d.notes.n_host) {
			fprintf(stderr, "schedrig %s: --strict-host: the compared runs' host state"
				" differs in %zu field(s) their configs do not declare (the"
				" \"Host state differs\" notes)\n", c->cmd, d.notes.n_host);
			rc = 1;
		}
	}
	buf_free(&out);
	reportcmd_data_free(&d);
	return rc;
}

int reportcmd_layout_rows(struct reportcmd *c, const struct report_layout *l,
			  const struct sample_table *t, struct hist_table *h,
			  struct report_notes *notes)
{
	struct report_notes none = {0};
	struct summary s;
	struct buf out = {0};
	char err[768] = "";

	c->notes = notes ? notes : &none;
	if (l->histograms && h) {
		c->so.hists = h;
		c->ro.hists = h;
		c->ro.select = &c->so;
	}
	int rc = reportcmd_summarise(c, t, &s);
	if (!rc) {
		struct report_input in = {.s = &s, .o = &c->ro, .notes = c->notes};
		rc = reportcmd_layout_fn(l, c->format)(&out, &in, err, sizeof(err));
		if (rc)
			fprintf(stderr, "schedrig %s: %s\n", c->cmd, err);
		add_notes(c, &out, c->notes);
		if (!rc)
			rc = reportcmd_write(c, &out);
		summary_free(&s);
	}
	buf_free(&out);
	report_notes_free(&none);
	c->notes = NULL;
	return rc;
}

int reportcmd_print_run(struct cmd_ctx *ctx, const char *db, int64_t run_id)
{
	struct reportcmd c;
	char id[32];
	char *runs[] = {id};

	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	reportcmd_init(&c, ctx);
	c.db = db;
	c.runs = runs;
	c.n_runs = 1;
	int rc = reportcmd_compare(&c, report_layout_find(REPORT_LAYOUT_DEFAULT));
	reportcmd_free(&c);
	return rc;
}
