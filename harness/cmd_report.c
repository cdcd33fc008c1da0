/* schedrig report [RUN...]: everything about the chosen runs in one
 * document: provenance, the mmtests comparison tables, percentile tables
 * and latency summaries (text or markdown), or the summaries as CSV/JSON. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void report_provenance(struct buf *out, const char *db_path, const int64_t *ids,
			      size_t n_ids, bool markdown)
{
	struct runinfo *ri;
	struct store *st = NULL;
	char err[256];

	buf_puts(out, markdown ? "## Provenance\n\n```\n" : "");
	if (runinfo_load(db_path, ids, n_ids, &ri, err, sizeof(err)) == 0) {
		runinfo_text(out, ri, n_ids);
		runinfo_free(ri, n_ids);
	} else {
		buf_printf(out, "Provenance unavailable: %s\n", err);
	}
	buf_puts(out, markdown ? "```\n\n" : "\n");
	if (store_open(db_path, true, &st, err, sizeof(err)))
		return;
	for (size_t i = 0; i < n_ids; i++) {
		struct buf mon = {0};
		if (monitor_report_run(store_db(st), ids[i], &mon, err, sizeof(err)) == 0) {
			buf_puts(out, markdown ? "## Monitors\n\n```\n" : "Monitors\n========\n");
			buf_puts(out, buf_str(&mon));
			buf_puts(out, markdown ? "```\n\n" : "\n");
		}
		buf_free(&mon);
	}
	store_close(st);
}

int cmd_report(int argc, char **argv)
{
	static const struct option long_options[] = {
		REPORTCMD_LONG_OPTIONS,
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct reportcmd c;
	int opt, rc;
	bool html = false;

	reportcmd_init(&c, "report");
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		if (opt == 'h') {
			printf(usage_text, reportcmd_options_help);
			return 0;
		}
		if (opt == '?') {
			fprintf(stderr, "schedrig report: bad option '%s'\nTry 'schedrig report --help'.\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
		/* html is this command's own format (harness/htmlreport.h). */
		html = opt == OPT_FORMAT ? !strcmp(optarg, "html") : html;
		if (opt == OPT_FORMAT && html)
			continue;
		if (reportcmd_option(&c, opt, optarg))
			return EXIT_USAGE;
	}
	c.runs = argv + optind;
	c.n_runs = (size_t)(argc - optind);

	struct sample_table t;
	struct summary s;
	struct report_notes notes = {0};
	struct buf out = {0};
	int64_t *ids = NULL;
	size_t n_ids = 0;

	rc = reportcmd_load_ids(&c, &t, &ids, &n_ids);
	if (rc)
		goto out_table;
	reportcmd_notes(&c, ids, n_ids, &notes);
	c.notes = &notes;
	rc = reportcmd_summarise(&c, &t, &s);
	if (rc)
		goto out_table;
	/* The percentile and latency sections pool the stored histograms. */
	struct hist_table h;
	hist_table_init(&h);
	if (html || c.format == FORMAT_TEXT || c.format == FORMAT_MARKDOWN)
		rc = reportcmd_load_histograms(&c, ids, n_ids, &h);
	if (rc)
		goto write;
	c.ro.hists = &h;
	if (html) {
		rc = htmlreport_build(&c, &t, &s, &notes, ids, n_ids, &out);
		goto write;
	}
	switch (c.format) {
	case FORMAT_TEXT:
		report_provenance(&out, c.db, ids, n_ids, false);
		buf_puts(&out, "Comparison\n==========\n");
		report_mmtests(&out, &s, &c.ro);
		report_notes_text(&out, &notes);
		buf_puts(&out, "\nPercentiles\n===========\n");
		report_percentiles(&out, &s, &c.ro);
		buf_puts(&out, "\nLatency summary\n===============\n");
		report_latency(&out, &s, &c.ro);
		break;
	case FORMAT_MARKDOWN:
		report_provenance(&out, c.db, ids, n_ids, true);
		buf_puts(&out, "## Comparison\n\n");
		report_markdown(&out, &s, &c.ro);
		report_notes_markdown(&out, &notes);
		buf_puts(&out, "\n## Percentiles\n\n```\n");
		report_percentiles(&out, &s, &c.ro);
		buf_puts(&out, "```\n");
		break;
	case FORMAT_CSV:
		report_csv(&out, &s, &c.ro);
		break;
	case FORMAT_JSON:
		if (report_json(&out, &s, &c.ro, &notes)) {
			fprintf(stderr, "schedrig report: JSON encoding failed\n");
			rc = 1;
		}
		break;
	}
write:
	if (!rc)
		rc = reportcmd_write(&c, &out);
	c.ro.hists = NULL;
	hist_table_free(&h);
	buf_free(&out);
	summary_free(&s);
out_table:
	report_notes_free(&notes);
	free(ids);
	sample_table_free(&t);
	reportcmd_free(&c);
	return rc;
}
