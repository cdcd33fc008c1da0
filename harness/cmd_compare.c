/* schedrig compare [RUN...]: mmtests-style comparison tables of runs,
 * variants or cells, a grid of two matrix axes, percentile tables or
 * latency summaries; as text, markdown, CSV or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "reportcmd.h"

static const char usage_text[] =
	"usage: schedrig compare [OPTIONS] [RUN...]\n"
	"\n"
	"Compare the samples of the given runs (ids, names or 'latest'; default the\n"
	"newest run). By default each load's headline metrics, one table each, in\n"
	"config order (interval series such as tcp-rr interval_transactions only\n"
	"with --metric); rows are ops, in numeric order when they are numbers;\n"
	"stars mark a significant change of the mean on the row of that mean.\n"
	"\n"
	"  --layout L           mmtests|mmtests-wide|grid|percentiles|latency (text\n"
	"                       only; default mmtests):\n"
	"                       mmtests       as compare-mmtests.pl prints it (2025):\n"
	"                                     Min, Amean, Stddev, CoeffVar, Max,\n"
	"                                     BAmean-50/95/99; Hmean, HStddev,\n"
	"                                     HCoeffVar, BHmean-* for higher-is-better\n"
	"                       mmtests-wide  as mmtests prints it since 2026: values\n"
	"                                     18 wide, rows METRIC-OP, BAmean.95\n"
	"                       percentiles   p50 p90 p95 p99 p99.9 of every event, the\n"
	"                                     stored histograms of all runs pooled\n"
	"                                     (cyclictest histogram_us, tcp-rr,\n"
	"                                     wakeup-lat); other metrics say they are\n"
	"                                     per-iteration summaries (n = iterations;\n"
	"                                     samples where an iteration gave several)\n"
	"                       latency       latt's Max, Avg, Stdev, Stdev mean, n over\n"
	"                                     every event the same way\n"
	"  --plain              mmtests layouts: the tables alone, no title or footer\n"
	"                       (notes go to stderr), for a thread that has the context\n"
	"  --grid ROW,COL       grid of two matrix axes, each an axis, its label or its\n"
	"                       shortest name (e.g. hackbench.nice,slice_us or HB-LN,CT-LN);\n"
	"                       implies --layout grid and --columns cell; '*' marks cells\n"
	"                       that differ from the baseline cell, n follows\n"
	"  --stat LIST          grid sub-columns: statistics (mean|amean|hmean|gmean|median|\n"
	"                       min|max|stddev|coeffvar|bamean-K|hstddev|bhmean-K|pNN) or,\n"
	"                       for a metric with several ops, its ops (p90,p95,p99 of\n"
	"                       schbench); one gives seed 002's VALUE (x%%) cells, several\n"
	"                       its boxed sub-columns (default mean)\n"
	"  --format FMT         text|markdown|csv|json (default text); the notes under\n"
	"                       the tables (Order: ..., No samples: ..., Iterations: ...)\n"
	"                       follow every text layout and markdown, json has them in\n"
	"                       \"notes\"; csv is the summary rows only\n"
	"%s"
	"  -h, --help           this text\n"
	"\n"
	"Significance: welch (default) tests the Amean row on the samples and the\n"
	"Hmean row on their reciprocals; ci-overlap is mmtests' rule, stars exactly\n"
	"where compare-mmtests.pl puts them; mann-whitney is exact for n < 50 without\n"
	"ties, else tie-corrected normal, and says \"n too small\" where no exact p\n"
	"could reach alpha. The footer names the rule.\n"
	"\n"
	"Exit status: 0 ok, 1 failure (database, no samples), 2 bad usage (a --metric\n"
	"that matches no metric).\n";

enum layout { LAYOUT_MMTESTS, LAYOUT_MMTESTS_WIDE, LAYOUT_GRID, LAYOUT_PERCENTILES, LAYOUT_LATENCY };
static const char *const layout_names[] = {
	[LAYOUT_MMTESTS] = "mmtests", [LAYOUT_MMTESTS_WIDE] = "mmtests-wide", [LAYOUT_GRID] = "grid",
	[LAYOUT_PERCENTILES] = "percentiles", [LAYOUT_LATENCY] = "latency",
};
enum { OPT_LAYOUT = OPT_SHARED_LAST + 1, OPT_GRID, OPT_STAT, OPT_PLAIN };

int cmd_compare(int argc, char **argv)
{
	static const struct option long_options[] = {
		REPORTCMD_LONG_OPTIONS,
		{"layout", required_argument, NULL, OPT_LAYOUT},
		{"grid", required_argument, NULL, OPT_GRID},
		{"stat", required_argument, NULL, OPT_STAT},
		{"plain", no_argument, NULL, OPT_PLAIN},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct reportcmd c;
	int layout = -1, opt, rc;
	char *grid = NULL;

	reportcmd_init(&c, "compare");
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			printf(usage_text, reportcmd_options_help);
			free(grid);
			return 0;
		case OPT_LAYOUT:
			layout = -1;
			for (int i = 0; i <= LAYOUT_LATENCY; i++)
				if (!strcmp(optarg, layout_names[i]))
					layout = i;
			if (layout < 0) {
				fprintf(stderr, "schedrig compare: --layout must be mmtests, mmtests-wide, "
					"grid, percentiles or latency: '%s'\n", optarg);
				free(grid);
				return EXIT_USAGE;
			}
			break;
		case OPT_PLAIN:
			c.ro.plain = true;
			break;
		case OPT_GRID: {
			char *comma = strchr(optarg, ',');
			if (!comma || comma == optarg || !comma[1] || strchr(comma + 1, ',')) {
				fprintf(stderr, "schedrig compare: --grid wants ROW_AXIS,COL_AXIS: '%s'\n",
					optarg);
				free(grid);
				return EXIT_USAGE;
			}
			free(grid);
			grid = xstrdup(optarg);
			grid[comma - optarg] = '\0';
			c.ro.grid_row = grid;
			c.ro.grid_col = grid + (comma - optarg) + 1;
			break;
		}
		case OPT_STAT:
			if (report_parse_grid_items(&c.ro, optarg)) {
				fprintf(stderr, "schedrig compare: --stat wants a list of at most %d "
					"statistics or ops: '%s'\n", REPORT_MAX_GRID_ITEMS, optarg);
				free(grid);
				return EXIT_USAGE;
			}
			break;
		case '?':
			if (optopt && optopt < 256)
				fprintf(stderr, "schedrig compare: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "schedrig compare: bad option '%s' (missing value?)\n",
					argv[optind - 1]);
			fprintf(stderr, "Try 'schedrig compare --help'.\n");
			free(grid);
			return EXIT_USAGE;
		default:
			rc = reportcmd_option(&c, opt, optarg);
			if (rc) {
				free(grid);
				return EXIT_USAGE;
			}
		}
	}
	c.runs = argv + optind;
	c.n_runs = (size_t)(argc - optind);

	if (grid) {
		if (layout >= 0 && layout != LAYOUT_GRID) {
			fprintf(stderr, "schedrig compare: --grid needs --layout grid\n");
			free(grid);
			return EXIT_USAGE;
		}
		if (c.so.columns >= 0 && c.so.columns != AXIS_CELL) {
			fprintf(stderr, "schedrig compare: --grid needs --columns cell\n");
			free(grid);
			return EXIT_USAGE;
		}
		layout = LAYOUT_GRID;
		c.so.columns = AXIS_CELL;
	} else if (layout == LAYOUT_GRID) {
		fprintf(stderr, "schedrig compare: --layout grid needs --grid ROW_AXIS,COL_AXIS\n");
		return EXIT_USAGE;
	}
	if (layout < 0)
		layout = LAYOUT_MMTESTS;
	if (layout != LAYOUT_MMTESTS && c.format != FORMAT_TEXT) {
		fprintf(stderr, "schedrig compare: --layout %s is text only (drop --format)\n",
			layout_names[layout]);
		free(grid);
		return EXIT_USAGE;
	}

	struct sample_table t;
	struct summary s;
	struct hist_table h;
	struct report_notes notes = {0};
	struct buf out = {0};
	char err[512] = "";

	int64_t *ids = NULL;
	size_t n_ids = 0;
	hist_table_init(&h);
	rc = reportcmd_load_ids(&c, &t, &ids, &n_ids);
	if (rc)
		goto out_table;
	reportcmd_notes(&c, ids, n_ids, &notes);
	c.notes = &notes;
	/* The percentile and latency layouts pool the stored histograms, which
	 * --metric may name (cyclictest's latency). */
	if (layout == LAYOUT_PERCENTILES || layout == LAYOUT_LATENCY) {
		rc = reportcmd_load_histograms(&c, ids, n_ids, &h);
		if (rc)
			goto out_table;
		c.so.hists = &h;
		c.ro.hists = &h;
		c.ro.select = &c.so;
	}
	rc = reportcmd_summarise(&c, &t, &s);
	if (rc)
		goto out_table;
	rc = 0;
	switch (c.format) {
	case FORMAT_TEXT:
		switch (layout) {
		case LAYOUT_MMTESTS:
			report_mmtests(&out, &s, &c.ro);
			break;
		case LAYOUT_MMTESTS_WIDE:
			report_mmtests_wide(&out, &s, &c.ro);
			break;
		case LAYOUT_GRID:
			if (report_grid(&out, &s, &c.ro, err, sizeof(err))) {
				fprintf(stderr, "schedrig compare: --grid: %s\n", err);
				rc = EXIT_USAGE;
			}
			break;
		case LAYOUT_PERCENTILES:
			report_percentiles(&out, &s, &c.ro);
			break;
		case LAYOUT_LATENCY:
			report_latency(&out, &s, &c.ro);
			break;
		}
		if (c.ro.plain)
			for (size_t i = 0; i < notes.n; i++)
				fprintf(stderr, "schedrig compare: %s\n", notes.v[i]);
		else
			report_notes_text(&out, &notes);
		break;
	case FORMAT_MARKDOWN:
		report_markdown(&out, &s, &c.ro);
		report_notes_markdown(&out, &notes);
		break;
	case FORMAT_CSV:
		report_csv(&out, &s, &c.ro);
		break;
	case FORMAT_JSON:
		if (report_json(&out, &s, &c.ro, &notes)) {
			fprintf(stderr, "schedrig compare: JSON encoding failed\n");
			rc = 1;
		}
		break;
	}
	if (!rc)
		rc = reportcmd_write(&c, &out);
	buf_free(&out);
	summary_free(&s);
out_table:
	report_notes_free(&notes);
	hist_table_free(&h);
	sample_table_free(&t);
	free(ids);
	free(grid);
	reportcmd_free(&c);
	return rc;
}
