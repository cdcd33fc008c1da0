/* schedrig export [RUN...]: every sample of the chosen runs, one CSV row or
 * one JSON object per sample (run,variant,cell,load,metric,unit,better,op,
 * iteration,value,tool,repetition), for spreadsheets, notebooks and
 * schedrig import; or the runs as KernelCI's kcidb JSON (reports/kcidb.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "csvio.h"
#include "kcidb.h"
#include "reportcmd.h"

static const char usage_text[] =
	"usage: schedrig export [--db FILE] [--format csv|json|kcidb] [--origin NAME]\n"
	"                       [--output FILE] [RUN...]\n"
	"\n"
	"Write every sample of the given runs (ids, names or 'latest'; default the\n"
	"newest run), one row (CSV, header " CSV_SAMPLE_HEADER ")\n"
	"or one object (JSON array, one object per line) per sample. NaN is written\n"
	"as NaN in CSV and null in JSON; numbers read back to the same double. tool\n"
	"is the load's driver ('imported' for samples imported without one): import\n"
	"reads it back, so the tables keep their decimals. repetition numbers the runs\n"
	"of a repeating background load within an iteration (0 first; 0 for others).\n"
	"\n"
	"--format kcidb writes the runs as KernelCI's kcidb I/O JSON, schema version\n"
	"5.3 (results-schema/kcidb/), for kcidb-submit: per run and variant a checkout\n"
	"(the kernel's git commit and describe, package or --revision label, its patch\n"
	"series' hash) and a build (a kernel the rig built: PASS or FAIL, compiler,\n"
	"config, duration), and per sample a test (path schedrig.LOAD.METRIC[.OP],\n"
	"status DONE, the value and unit; a NaN sample is left out). Ids are\n"
	"ORIGIN:run<ID>-<variant>[-...].\n"
	"\n"
	"  --db FILE       results database (default " DEFAULT_DB ")\n"
	"  --format FMT    csv|json|kcidb (default csv)\n"
	"  --origin NAME   kcidb: the origin (the CI system's name kcidb knows the\n"
	"                  submitter by: [a-z0-9_]+; default " KCIDB_ORIGIN ")\n"
	"  --output FILE   write to FILE instead of stdout\n"
	"  -h, --help      this text\n"
	"\n"
	"Exit status: 0 ok, 1 failure (database, no samples), 2 bad usage.\n";

/* One JSON string, escaped by jansson. */
static void json_str(struct buf *out, const char *key, const char *s)
{
	json_t *j = json_string(s);
	char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	buf_printf(out, "\"%s\": %s", key, text ? text : "null");
	free(text);
	json_decref(j);
}

/* JSON: numbers in the shortest round-trip form (jansson would print
 * 1518.87 as 1518.8699999999999), strings escaped by jansson. */
static void export_json(struct buf *out, const struct sample_table *t)
{
	char num[40];
	buf_puts(out, "[\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		buf_puts(out, "{");
		json_str(out, "run", r->run);
		buf_puts(out, ", ");
		json_str(out, "variant", r->variant);
		buf_puts(out, ", ");
		json_str(out, "cell", r->cell);
		buf_puts(out, ", ");
		json_str(out, "load", r->load);
		buf_puts(out, ", ");
		json_str(out, "metric", r->metric);
		buf_puts(out, ", ");
		json_str(out, "unit", r->unit);
		buf_printf(out, ", \"better\": \"%s\", ", better_name(r->better));
		json_str(out, "op", r->op);
		csv_format_double(num, sizeof(num), r->value);
		if (!strcmp(num, "NaN") || !strcmp(num, "inf") || !strcmp(num, "-inf"))
			strcpy(num, "null");
		buf_printf(out, ", \"iteration\": %d, \"value\": %s, ", r->iteration, num);
		json_str(out, "tool", r->tool);
		buf_printf(out, ", \"repetition\": %d}%s\n", r->repetition, i + 1 < t->n ? "," : "");
	}
	buf_puts(out, "]\n");
}

/* --format kcidb: the selected runs as one kcidb document into out. 0, or
 * 1 after a message. */
static int export_kcidb(struct reportcmd *c, const char *origin, struct buf *out)
{
	int64_t *ids;
	size_t n;
	char err[1024];
	if (cmd_select_runs(c->ctx, c->db, c->runs, c->n_runs, &ids, &n))
		return 1;
	int rc = kcidb_export(c->ctx->st, ids, n, origin, out, err, sizeof(err));
	if (rc)
		fprintf(stderr, "schedrig export: %s\n", err);
	free(ids);
	return rc ? 1 : 0;
}

enum { OPT_ORIGIN = OPT_SHARED_LAST + 1 };

int cmd_export(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option long_options[] = {
		{"db", required_argument, NULL, OPT_DB},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"output", required_argument, NULL, OPT_OUTPUT},
		{"origin", required_argument, NULL, OPT_ORIGIN},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct reportcmd c;
	int opt, rc;
	bool json = false, kcidb = false;
	const char *origin = NULL;

	reportcmd_init(&c, ctx);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case OPT_FORMAT:
			if (strcmp(optarg, "csv") && strcmp(optarg, "json") && strcmp(optarg, "kcidb")) {
				fprintf(stderr, "schedrig export: --format must be csv, json or kcidb:"
					" '%s'\n", optarg);
				return EXIT_USAGE;
			}
			json = !strcmp(optarg, "json");
			kcidb = !strcmp(optarg, "kcidb");
			break;
		case OPT_ORIGIN:
			if (!kcidb_origin_ok(optarg)) {
				fprintf(stderr, "schedrig export: --origin must be one or more of"
					" [a-z0-9_] (a kcidb origin): '%s'\n", optarg);
				return EXIT_USAGE;
			}
			origin = optarg;
			break;
		case '?':
			fprintf(stderr, "schedrig export: bad option '%s'\nTry 'schedrig export --help'.\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			if (reportcmd_option(&c, opt, optarg))
				return EXIT_USAGE;
		}
	}
	c.runs = argv + optind;
	c.n_runs = (size_t)(argc - optind);
	if (origin && !kcidb) {
		fprintf(stderr, "schedrig export: --origin goes with --format kcidb\n");
		return EXIT_USAGE;
	}

	struct sample_table t;
	struct buf out = {0};
	if (kcidb) {
		rc = export_kcidb(&c, origin ? origin : KCIDB_ORIGIN, &out);
		if (!rc)
			rc = reportcmd_write(&c, &out);
		buf_free(&out);
		reportcmd_free(&c);
		return rc;
	}
	rc = reportcmd_load(&c, &t);
	if (!rc) {
		if (json)
			export_json(&out, &t);
		else
			csv_write_samples(&out, &t);
		rc = reportcmd_write(&c, &out);
	}
	buf_free(&out);
	sample_table_free(&t);
	reportcmd_free(&c);
	return rc;
}
