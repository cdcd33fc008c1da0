/* schedrig compare [RUN...]: mmtests-style comparison tables of runs,
 * variants or cells, a grid of two matrix axes, percentile tables or
 * latency summaries; as text, markdown, CSV or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmdopts.h"
#include "commands.h"
#include "reportcmd.h"

/* Before the layouts. */
static const char usage_head[] =
	"usage: schedrig compare [OPTIONS] [RUN...]\n"
	"\n"
	"Compare the samples of the given runs (ids, names or 'latest'; default the\n"
	"newest run). By default each load's headline metrics, one table each, in\n"
	"config order (interval series such as tcp-rr interval_transactions only\n"
	"with --metric); rows are ops, in numeric order when they are numbers;\n"
	"stars mark a significant change of the mean on the row of that mean.\n"
	"\n";
/* After the layouts (print_layouts); %s: the shared options. */
static const char usage_tail[] =
	"  --plain              mmtests layouts: the tables alone, no title or footer\n"
	"                       (notes go to stderr), for a thread that has the context\n"
	"  --ratio              mmtests layouts: compare-mmtests.pl --print-ratio's view,\n"
	"                       a 'Ratio OP' row per op (each column's Amean, or Hmean,\n"
	"                       over the baseline's, its change, mmtests' cidiff), then\n"
	"                       Dmean, Dmin, Dmax and the Gmean of the ratios\n"
	"  --grid ROW,COL       grid of two matrix axes, each an axis, its label or its\n"
	"                       shortest name (e.g. hackbench.nice,slice_us or HB-LN,CT-LN);\n"
	"                       implies --layout grid and --columns cell; '*' marks cells\n"
	"                       that differ from the baseline cell, n follows\n"
	"  --stat LIST          grid sub-columns: statistics (mean|amean|hmean|gmean|median|\n"
	"                       min|max|stddev|coeffvar|bamean-K|hstddev|bhmean-K|pNN) or,\n"
	"                       for a metric with several ops, its ops (p90,p95,p99 of\n"
	"                       schbench); one gives seed 002's VALUE (x%%) cells, several\n"
	"                       its boxed sub-columns (default mean)\n"
	"  --width N            grid: lay it out for N columns: a grid wider than N is\n"
	"                       transposed (rows and columns swapped) when that makes\n"
	"                       it narrower, and says so (default: the terminal's width\n"
	"                       when stdout is one, COLUMNS first; 0: never)\n"
	"  --format FMT         text|markdown|csv|json (default text); the notes under\n"
	"                       the tables (Order: ..., No samples: ..., Iterations: ...)\n"
	"                       follow every text layout and markdown, json has them in\n"
	"                       \"notes\"; csv is the summary rows only\n"
	"  --strict-host        exit 1 when the runs or variants of the tables were\n"
	"                       measured in machine states that differ in a field\n"
	"                       their configs do not declare (the \"Host state\n"
	"                       differs\" notes: THP, governor, SMT, autogroup, ...)\n"
	"%s"
	"  -h, --help           this text\n"
	"\n"
	"Significance: welch (default) tests the Amean row on the samples and the\n"
	"Hmean row on their reciprocals; ci-overlap is mmtests' rule, stars exactly\n"
	"where compare-mmtests.pl puts them; mann-whitney is exact for n < 50 without\n"
	"ties, else tie-corrected normal, and says \"n too small\" where no exact p\n"
	"could reach alpha. The footer names the rule.\n"
	"\n"
	"Exit status: 0 ok, 1 failure (database, no samples; with --strict-host, a host\n"
	"state difference), 2 bad usage (a --metric that matches no metric).\n";

/* --layout and each layout's description (report.h), from the registry. */
static void print_layouts(void)
{
	size_t n;
	const struct report_layout *const *all = report_layout_all(&n);
	printf("  --layout L           ");
	for (size_t i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", all[i]->name);
	printf(" (text\n                       only; default %s):\n", REPORT_LAYOUT_DEFAULT);
	for (size_t i = 0; i < n; i++) {
		const char *d = all[i]->description;
		for (bool first = true; d && *d; first = false) {
			size_t len = strcspn(d, "\n");
			printf("%23s%-14s%.*s\n", "", first ? all[i]->name : "", (int)len, d);
			d += len + (d[len] == '\n');
		}
	}
}

/* "mmtests, mmtests-wide, grid, percentiles or latency" */
static void layout_names(char *dst, size_t size)
{
	size_t n, len = 0;
	const struct report_layout *const *all = report_layout_all(&n);
	dst[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(dst + len, size - len, "%s%s", i == 0 ? "" :
					i + 1 == n ? " or " : ", ", all[i]->name);
}

enum { OPT_LAYOUT = OPT_SHARED_LAST + 1, OPT_GRID, OPT_STAT, OPT_PLAIN, OPT_RATIO, OPT_WIDTH,
       OPT_STRICT_HOST };

/* The layout and the grid axes --layout and --grid chose. */
struct compare_opts {
	const struct report_layout *layout; /* NULL: not named */
	char *grid;                         /* ROW\0COL of --grid, or NULL */
	long long width;                    /* --width, or -1: the terminal's */
	struct reportcmd *c;                /* where the report options go */
};

static int bad_usage(struct compare_opts *co)
{
	free(co->grid);
	co->grid = NULL;
	return EXIT_USAGE;
}

/* --help: the usage, the layouts, the shared options (cmd_parse). */
static void compare_help(void *ctx)
{
	(void)ctx;
	fputs(usage_head, stdout);
	print_layouts();
	printf(usage_tail, reportcmd_options_help);
}

/* One option of compare's own into the compare_opts at ctx
 * (cmd_report_parse): 0, EXIT_USAGE after a message, or -1 for a report
 * option. */
static int compare_option(int opt, const char *arg, void *ctx)
{
	struct compare_opts *co = ctx;
	struct reportcmd *c = co->c;
	char names[256];
	switch (opt) {
	case OPT_LAYOUT:
		co->layout = report_layout_find(arg);
		if (!co->layout) {
			layout_names(names, sizeof(names));
			fprintf(stderr, "schedrig compare: --layout must be %s: '%s'\n", names, arg);
			return bad_usage(co);
		}
		return 0;
	case OPT_PLAIN:
		c->ro.plain = true;
		return 0;
	case OPT_STRICT_HOST:
		c->strict_host = true;
		return 0;
	case OPT_RATIO:
		c->ro.ratio = true;
		return 0;
	case OPT_WIDTH:
		if (!parse_ll(arg, &co->width) || co->width < 0 || co->width > 100000) {
			fprintf(stderr, "schedrig compare: --width wants a number of columns, 0 for"
				" any: '%s'\n", arg);
			return bad_usage(co);
		}
		return 0;
	case OPT_GRID: {
		char *comma = strchr(arg, ',');
		if (!comma || comma == arg || !comma[1] || strchr(comma + 1, ',')) {
			fprintf(stderr, "schedrig compare: --grid wants ROW_AXIS,COL_AXIS: '%s'\n",
				arg);
			return bad_usage(co);
		}
		free(co->grid);
		co->grid = xstrdup(arg);
		co->grid[comma - arg] = '\0';
		c->ro.grid_row = co->grid;
		c->ro.grid_col = co->grid + (comma - arg) + 1;
		return 0;
	}
	case OPT_STAT:
		if (report_parse_grid_items(&c->ro, arg)) {
			fprintf(stderr, "schedrig compare: --stat wants a list of at most %d "
				"statistics or ops: '%s'\n", REPORT_MAX_GRID_ITEMS, arg);
			return bad_usage(co);
		}
		return 0;
	default:
		return -1;
	}
}

/* --grid picks the grid layout and cell columns; the grid needs --grid;
 * the layout must have the format. 0 or EXIT_USAGE after a message. */
static int check_layout(struct reportcmd *c, struct compare_opts *co)
{
	const struct report_layout *grid = report_layout_find("grid");
	if (co->grid) {
		if (co->layout && co->layout != grid) {
			fprintf(stderr, "schedrig compare: --grid needs --layout grid\n");
			return bad_usage(co);
		}
		if (c->so.columns >= 0 && c->so.columns != AXIS_CELL) {
			fprintf(stderr, "schedrig compare: --grid needs --columns cell\n");
			return bad_usage(co);
		}
		co->layout = grid;
		c->so.columns = AXIS_CELL;
	} else if (co->layout == grid) {
		fprintf(stderr, "schedrig compare: --layout grid needs --grid ROW_AXIS,COL_AXIS\n");
		return EXIT_USAGE;
	}
	if (!co->layout)
		co->layout = report_layout_find(REPORT_LAYOUT_DEFAULT);
	if (c->ro.ratio && strcmp(co->layout->name, "mmtests") &&
	    strcmp(co->layout->name, "mmtests-wide")) {
		fprintf(stderr, "schedrig compare: --ratio needs --layout mmtests or mmtests-wide\n");
		return bad_usage(co);
	}
	if (c->ro.ratio && c->format != FORMAT_TEXT) {
		fprintf(stderr, "schedrig compare: --ratio is text only (drop --format)\n");
		return bad_usage(co);
	}
	if (!reportcmd_layout_fn(co->layout, c->format)) {
		fprintf(stderr, "schedrig compare: --layout %s is text only (drop --format)\n",
			co->layout->name);
		return bad_usage(co);
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct reportcmd *c, struct compare_opts *co)
{
	static const struct option long_options[] = {
		{"layout", required_argument, NULL, OPT_LAYOUT},
		{"grid", required_argument, NULL, OPT_GRID},
		{"stat", required_argument, NULL, OPT_STAT},
		{"plain", no_argument, NULL, OPT_PLAIN},
		{"ratio", no_argument, NULL, OPT_RATIO},
		{"strict-host", no_argument, NULL, OPT_STRICT_HOST},
		{"width", required_argument, NULL, OPT_WIDTH},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const struct cmd_optspec spec = {
		.cmd = "compare", .shortopts = "h", .longopts = long_options,
		.help = compare_help, .bad_hint = " (missing value?)", .on = compare_option,
		.ctx = co,
	};
	int rc = cmd_report_parse(argc, argv, c, &spec);

	if (rc >= 0)
		return rc;
	return check_layout(c, co) ? EXIT_USAGE : -1;
}

/* The width of the terminal stdout is (COLUMNS when it is a number, else
 * the terminal's own), or 0 when stdout is no terminal or goes to
 * --output. */
static size_t terminal_width(const struct reportcmd *c)
{
	if (c->output || !isatty(STDOUT_FILENO))
		return 0;
	long long n;
	const char *columns = getenv("COLUMNS");
	if (columns && parse_ll(columns, &n) && n > 0 && n <= 100000)
		return (size_t)n;
	struct winsize ws;
	return ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct reportcmd c;
	struct compare_opts co = {.width = -1, .c = &c};

	reportcmd_init(&c, ctx);
	int rc = parse_args(argc, argv, &c, &co);
	c.ro.width = co.width >= 0 ? (size_t)co.width : terminal_width(&c);
	if (rc < 0)
		rc = reportcmd_compare(&c, co.layout);
	free(co.grid);
	reportcmd_free(&c);
	return rc;
}
