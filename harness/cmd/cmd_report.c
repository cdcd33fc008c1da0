/* schedrig report [RUN...]: everything about the chosen runs in one
 * document: provenance, the mmtests comparison tables, percentile tables
 * and latency summaries (text or markdown), or the summaries as CSV/JSON. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "htmlreport.h"
#include "monitor_report.h"
#include "reportcmd.h"
#include "runinfo.h"
#include "store.h"

static const char usage_text[] =
	"usage: schedrig report [OPTIONS] [RUN...]\n"
	"\n"
	"Print every table and the provenance of the given runs (ids, names or\n"
	"'latest'; default the newest run) to stdout or --output.\n"
	"\n"
	"  --format FMT         text|markdown|csv|json|html (default text); html: one\n"
	"                       self-contained page: provenance, config, every table\n"
	"                       and the figures as inline SVG (needs gnuplot); the\n"
	"                       notes under the comparison (No samples: ...,\n"
	"                       Iterations: ...) are in every format but csv, which\n"
	"                       is the summary rows only (json: \"notes\")\n"
	"%s"
	"  -h, --help           this text\n"
	"\n"
	"Exit status: 0 ok, 1 failure (database, no samples), 2 bad usage.\n";

/* Provenance of every run (host, kernels per variant, knobs applied) and,
 * for runs with monitors, their monitor tables. */
static void report_provenance(struct buf *out, struct store *st, const char *db_path,
			      const int64_t *ids, size_t n_ids, bool markdown)
{
	struct runinfo *ri;
	char err[256];

	buf_puts(out, markdown ? "## Provenance\n\n```\n" : "");
	if (runinfo_load(st, db_path, ids, n_ids, &ri, err, sizeof(err)) == 0) {
		runinfo_text(out, ri, n_ids);
		runinfo_free(ri, n_ids);
	} else {
		buf_printf(out, "Provenance unavailable: %s\n", err);
	}
	buf_puts(out, markdown ? "```\n\n" : "\n");
	for (size_t i = 0; i < n_ids; i++) {
		struct buf mon = {0};
		if (monitor_report_run(st, ids[i], &mon, err, sizeof(err)) == 0) {
			buf_puts(out, markdown ? "## Monitors\n\n```\n" : "Monitors\n========\n");
			buf_puts(out, buf_str(&mon));
			buf_puts(out, markdown ? "```\n\n" : "\n");
		}
		buf_free(&mon);
	}
}

/* "TITLE\n=====\n", after a blank line unless first. */
static void heading(struct buf *out, const char *title, bool first)
{
	buf_printf(out, "%s%s\n", first ? "" : "\n", title);
	for (size_t i = strlen(title); i > 0; i--)
		buf_puts(out, "=");
	buf_puts(out, "\n");
}

/* Every layout with a section (report.h), in registry order: a heading,
 * its text (markdown: its markdown, else its text in a code block), the
 * runs' notes after the first. */
static void sections(struct buf *out, const struct reportcmd *c, const struct report_input *in)
{
	size_t n;
	const struct report_layout *const *all = report_layout_all(&n);
	bool markdown = c->format == FORMAT_MARKDOWN, first = true;
	char err[512];
	for (size_t i = 0; i < n; i++) {
		const struct report_layout *l = all[i];
		if (!l->section)
			continue;
		if (markdown)
			buf_printf(out, "%s## %s\n\n%s", first ? "" : "\n", l->section,
				   l->markdown ? "" : "```\n");
		else
			heading(out, l->section, first);
		(markdown && l->markdown ? l->markdown : l->text)(out, in, err, sizeof(err));
		if (markdown && !l->markdown)
			buf_puts(out, "```\n");
		if (first && markdown)
			report_notes_markdown(out, in->notes);
		else if (first)
			report_notes_text(out, in->notes);
		first = false;
	}
}

/* Does the document of c's format pool the stored histograms? */
static bool needs_histograms(const struct reportcmd *c, bool html)
{
	size_t n;
	const struct report_layout *const *all = report_layout_all(&n);
	if (!html && c->format != FORMAT_TEXT && c->format != FORMAT_MARKDOWN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (all[i]->section && all[i]->histograms)
			return true;
	return false;
}

/* The document in c's format: provenance and every section (text,
 * markdown), or the default layout's CSV or JSON. */
static int document(struct buf *out, const struct reportcmd *c, const struct reportcmd_data *d)
{
	struct report_input in = {.s = &d->s, .o = &c->ro, .notes = &d->notes};
	char err[512];
	if (c->format == FORMAT_TEXT || c->format == FORMAT_MARKDOWN) {
		report_provenance(out, c->ctx->st, c->db, d->ids, d->n_ids, c->format == FORMAT_MARKDOWN);
		sections(out, c, &in);
		return 0;
	}
	const struct report_layout *l = report_layout_find(REPORT_LAYOUT_DEFAULT);
	int rc = reportcmd_layout_fn(l, c->format)(out, &in, err, sizeof(err));
	if (rc)
		fprintf(stderr, "schedrig report: %s\n", err);
	return rc;
}

/* --help: the usage with the shared options (cmd_parse). */
static void report_help(void *ctx)
{
	(void)ctx;
	printf(usage_text, reportcmd_options_help);
}

/* --format html, this command's own format (reports/htmlreport.h), into
 * the bool at ctx (cmd_report_parse); -1 for every report option, the
 * other formats too. */
static int report_option(int opt, const char *arg, void *ctx)
{
	bool *html = ctx;
	if (opt != OPT_FORMAT)
		return -1;
	*html = !strcmp(arg, "html");
	return *html ? 0 : -1;
}

int cmd_report(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option long_options[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct reportcmd c;
	bool html = false;
	const struct cmd_optspec spec = {
		.cmd = "report", .shortopts = "h", .longopts = long_options, .help = report_help,
		.bad_hint = "", .on = report_option, .ctx = &html,
	};

	reportcmd_init(&c, ctx);
	int rc = cmd_report_parse(argc, argv, &c, &spec);
	if (rc >= 0)
		return rc;

	struct reportcmd_data d;
	struct buf out = {0};
	rc = reportcmd_prepare(&c, needs_histograms(&c, html), &d);
	if (!rc && html)
		rc = htmlreport_build(&c, &d.t, &d.s, &d.notes, d.ids, d.n_ids, &out);
	else if (!rc)
		rc = document(&out, &c, &d);
	if (!rc)
		rc = reportcmd_write(&c, &out);
	buf_free(&out);
	reportcmd_data_free(&d);
	reportcmd_free(&c);
	return rc;
}
