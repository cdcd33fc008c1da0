/* schedrig import --csv FILE [--run NAME]: store the samples of an exported
 * (or hand-written) CSV as one new run, all or nothing. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "csvio.h"
#include "reportcmd.h"
#include "store.h"

static const char usage_text[] =
	"usage: schedrig import --csv FILE [--run NAME] [--db FILE]\n"
	"\n"
	"Store every row of FILE ('-' for stdin) as one new run named NAME, in one\n"
	"transaction: a bad row is reported with its line number and nothing is\n"
	"imported. The header is " CSV_SAMPLE_HEADER ",\n"
	"or, as export wrote it before, without the repetition (repetitions 0), or\n"
	"without the tool and the repetition. Rows with an empty run field take NAME;\n"
	"the rows may name at most one run, whose name is used when --run is absent.\n"
	"Values are decimal numbers or NaN; two rows of one sample (the same variant,\n"
	"cell, load, metric, op, iteration and repetition) are an error. A UTF-8 byte\n"
	"order mark before the header is skipped. A load's tool (its driver, which\n"
	"sets the tables' decimals) must be the same on all its rows; without one it\n"
	"is stored as 'imported'.\n"
	"\n"
	"  --csv FILE   the CSV to import\n"
	"  --run NAME   name of the new run\n"
	"  --db FILE    results database (default " DEFAULT_DB ")\n"
	"  -h, --help   this text\n"
	"\n"
	"Exit status: 0 ok, 1 failure (unreadable file, bad row, database), 2 bad usage.\n";

/* The first row whose load another row names with another tool (or with
 * and without one), and that other row in *other; NULL when none. */
static const struct sample_row *tool_conflict(const struct sample_table *t,
					      const struct sample_row **other)
{
	const struct sample_row **first = NULL;
	const struct sample_row *bad = NULL;
	size_t n = 0;
	for (size_t i = 0; i < t->n && !bad; i++) {
		const struct sample_row *r = &t->rows[i];
		size_t k = 0;
		while (k < n && first[k]->load != r->load)
			k++;
		if (k == n) {
			first = xrealloc(first, (n + 1) * sizeof(*first));
			first[n++] = r;
		} else if (first[k]->tool != r->tool) {
			bad = r;
			*other = first[k];
		}
	}
	free(first);
	return bad;
}

struct import_opts {
	const char *csv, *run, *db; /* --csv, --run, --db */
};

/* --csv, --run, --db into the import_opts at ctx (cmd_parse). */
static int import_option(int opt, const char *arg, void *ctx)
{
	struct import_opts *o = ctx;
	*(opt == 'c' ? &o->csv : opt == 'r' ? &o->run : &o->db) = arg;
	return 0;
}

int cmd_import(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option long_options[] = {
		{"csv", required_argument, NULL, 'c'},
		{"run", required_argument, NULL, 'r'},
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct import_opts o = {.db = DEFAULT_DB};
	const struct cmd_optspec spec = {
		.cmd = "import", .shortopts = "h", .longopts = long_options, .usage = usage_text,
		.bad_hint = "", .on = import_option, .ctx = &o,
	};
	int opt = cmd_parse(argc, argv, &spec);

	if (opt >= 0)
		return opt;
	const char *csv = o.csv, *run = o.run, *db = o.db;
	if (optind < argc) {
		fprintf(stderr, "schedrig import: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!csv) {
		fprintf(stderr, "schedrig import: --csv FILE is required\n");
		return EXIT_USAGE;
	}
	if (run && !*run) {
		fprintf(stderr, "schedrig import: --run needs a name\n");
		return EXIT_USAGE;
	}
	if (run && !plain_text(run)) {
		fprintf(stderr, "schedrig import: --run is not UTF-8 text without control"
			" characters\n");
		return EXIT_USAGE;
	}

	FILE *f = strcmp(csv, "-") ? fopen(csv, "r") : stdin;
	if (!f) {
		fprintf(stderr, "schedrig import: %s: %s\n", csv, strerror(errno));
		return 1;
	}
	struct sample_table t;
	char err[1024] = "";
	sample_table_init(&t);
	long n = csv_read_samples(f, strcmp(csv, "-") ? csv : "stdin", NULL, &t, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (n < 0) {
		fprintf(stderr, "schedrig import: %s (nothing imported)\n", err);
		sample_table_free(&t);
		return 1;
	}
	if (!n) {
		fprintf(stderr, "schedrig import: %s holds no samples (nothing imported)\n", csv);
		sample_table_free(&t);
		return 1;
	}
	/* One run per import: store_import_rows makes one run per transaction. */
	const char *named = NULL;
	for (size_t i = 0; i < t.n; i++) {
		if (!*t.rows[i].run)
			continue;
		if (named && t.rows[i].run != named) {
			fprintf(stderr, "schedrig import: %s holds rows of more than one run ('%s', '%s'); "
				"import one run per file (nothing imported)\n", csv, named, t.rows[i].run);
			sample_table_free(&t);
			return 1;
		}
		named = t.rows[i].run;
	}
	const struct sample_row *other, *bad = tool_conflict(&t, &other);
	if (bad) {
		fprintf(stderr, "schedrig import: %s names load '%s' with tool '%s' and '%s'; a load"
			" has one tool (nothing imported)\n", csv, bad->load,
			other->tool ? other->tool : "", bad->tool ? bad->tool : "");
		sample_table_free(&t);
		return 1;
	}
	if (!run)
		run = named;
	if (!run) {
		fprintf(stderr, "schedrig import: the rows name no run: give --run NAME\n");
		sample_table_free(&t);
		return EXIT_USAGE;
	}

	struct store *st = cmd_store(ctx, db);
	int64_t run_id = 0;
	int rc = 0;
	if (!st) {
		rc = 1;
	} else if (store_import_rows(st, &t, run, &run_id, err, sizeof(err))) {
		fprintf(stderr, "schedrig import: %s (nothing imported)\n", err);
		rc = 1;
	} else {
		printf("imported %zu samples as run %" PRId64 " (%s)\n", t.n, run_id, run);
	}
	sample_table_free(&t);
	return rc;
}
