/* schedrig bisect CONFIG --good V --bad V: find the point of a series
 * where a metric moved, each step an ordinary run of the point's config,
 * decided by Welch's t-test against both ends. The command line only: the
 * subsystem is harness/bisect/ (bisect.h says what it owns). */
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_report.h"
#include "bisect_setup.h"
#include "bisect_verify.h"
#include "bisect_walk.h"
#include "cmdopts.h"
#include "commands.h"
#include "util.h"

static const char usage_lines[] =
	"usage: schedrig bisect CONFIG --good VARIANT --bad VARIANT [--metric LOAD:METRIC]\n"
	"                       [--op OP] [--cell CELL] [--alpha A] [--db FILE]\n"
	"       schedrig bisect --resume [ID] [--metric LOAD:METRIC] [--op OP] [--cell CELL]\n"
	"                       [--db FILE]\n"
	"       schedrig bisect --show [ID] [--db FILE]\n";

static const char help_text[] =
	"\n"
	"Find the first point of a series where the metric moved from the good end's\n"
	"value to the bad end's. The series is bisect: points: of CONFIG from --good to\n"
	"--bad (each a variant, which may also set load params), or the patches between\n"
	"two kernel builds of one source (kernel: {build: NAME}). Every step is an\n"
	"ordinary schedrig run of that point's config in the database (compare, report,\n"
	"plot and mail read it), linked to the bisection.\n"
	"\n"
	"Both ends are measured first (the config's iterations, adaptive rules included);\n"
	"when Welch's t-test finds no difference between them the bisection stops: \"no\n"
	"regression to bisect\". Each point is then tested against both ends (the rule is\n"
	"printed); a point that differs from neither gets more iterations up to the\n"
	"config's max, then is skipped, as is a point that fails to build, boot or run.\n"
	"\n"
	"  --good V, --bad V   the two ends (points of bisect: points:, or variants)\n"
	"  --metric LOAD:METRIC  what to decide on (default: the config's primary metric)\n"
	"  --op OP, --cell CELL  which op and cell (default: the only one there is)\n"
	"  --alpha A           significance level of every test (default 0.05)\n"
	"  --db FILE           results database (default " DEFAULT_DB ")\n"
	"  --resume [ID]       continue bisection ID (default the newest unfinished one)\n"
	"                      from the directory it was begun in: finished steps are\n"
	"                      not measured again, an interrupted run is resumed, a\n"
	"                      failed end measured again; its stored verdicts are\n"
	"                      checked against its runs' samples first\n"
	"  --show [ID]         print what bisection ID found (default the newest)\n"
	"\n"
	"Exit status: 0 the first bad point or a range was found, 1 no regression to\n"
	"bisect or a failure, 2 bad usage or config, 128+N interrupted by signal N.\n";

/* The command line: a request for the subsystem (bisect_setup.h), or
 * --show. */
struct bisect_opts {
	struct bisect_request rq;
	bool show;
};

/* An optional ID after --resume/--show: the next argument when it is a
 * number. */
static int optional_id(int argc, char **argv, struct bisect_opts *o)
{
	long long n;
	if (optind < argc && parse_ll(argv[optind], &n)) {
		if (n < 1)
			return cmd_usage_error("bisect", usage_lines,
					       "a bisection ID is a positive number, not '%s'",
					       argv[optind]);
		o->rq.id = n;
		optind++;
	}
	return -1;
}

static int check_args(int argc, char **argv, struct bisect_opts *o)
{
	if (o->rq.resume && o->show)
		return cmd_usage_error("bisect", usage_lines,
				       "--resume and --show do not go together");
	if (o->rq.resume || o->show) {
		if (optind != argc)
			return cmd_usage_error("bisect", usage_lines,
					       "--%s takes no CONFIG, but '%s' was given",
					       o->rq.resume ? "resume" : "show", argv[optind]);
		if (o->rq.good || o->rq.bad || !isnan(o->rq.alpha))
			return cmd_usage_error("bisect", usage_lines,
					       "--good, --bad and --alpha are the bisection's own: --%s"
					       " keeps them", o->rq.resume ? "resume" : "show");
		if (o->show && (o->rq.metric || o->rq.op || o->rq.cell))
			return cmd_usage_error("bisect", usage_lines,
					       "--show takes no --metric, --op or --cell");
		return -1;
	}
	if (optind == argc)
		return cmd_usage_error("bisect", usage_lines, "no CONFIG given");
	if (optind != argc - 1)
		return cmd_usage_error("bisect", usage_lines,
				       "one CONFIG only, but '%s' was given too",
				       argv[optind + 1]);
	o->rq.config = argv[optind];
	if (!o->rq.good || !o->rq.bad)
		return cmd_usage_error("bisect", usage_lines, "%s",
				       !o->rq.good && !o->rq.bad ? "--good and --bad are needed"
				       : !o->rq.good ? "--good is needed" : "--bad is needed");
	if (!strcmp(o->rq.good, o->rq.bad))
		return cmd_usage_error("bisect", usage_lines,
				       "--good and --bad are the same (%s)", o->rq.good);
	if (isnan(o->rq.alpha))
		o->rq.alpha = 0.05;
	return -1;
}

static int parse_args(int argc, char **argv, struct bisect_opts *o)
{
	static const struct option longopts[] = {
		{"good", required_argument, NULL, 'g'}, {"bad", required_argument, NULL, 'b'},
		{"metric", required_argument, NULL, 'm'}, {"op", required_argument, NULL, 'o'},
		{"cell", required_argument, NULL, 'c'}, {"alpha", required_argument, NULL, 'a'},
		{"db", required_argument, NULL, 'd'}, {"resume", no_argument, NULL, 'r'},
		{"show", no_argument, NULL, 's'}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch, rc;
	o->rq.db = DEFAULT_DB;
	o->rq.alpha = NAN;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'g': o->rq.good = optarg; break;
		case 'b': o->rq.bad = optarg; break;
		case 'o': o->rq.op = optarg; break;
		case 'c': o->rq.cell = optarg; break;
		case 'd': o->rq.db = optarg; break;
		case 'm': {
			const char *colon = strchr(optarg, ':');
			if (!colon || colon == optarg || !colon[1] || strchr(colon + 1, ':'))
				return cmd_usage_error("bisect", usage_lines,
						       "--metric wants LOAD:METRIC, e.g. cyclictest:"
						       "max_latency, not '%s'", optarg);
			o->rq.metric = optarg;
			break;
		}
		case 'a':
			if (!parse_double(optarg, &o->rq.alpha) || !(o->rq.alpha > 0 && o->rq.alpha < 0.5))
				return cmd_usage_error("bisect", usage_lines,
						       "--alpha must be a number in (0, 0.5), not '%s'",
						       optarg);
			break;
		case 'r':
		case 's':
			*(ch == 'r' ? &o->rq.resume : &o->show) = true;
			if ((rc = optional_id(argc, argv, o)) >= 0)
				return rc;
			break;
		case 'h':
			fputs(usage_lines, stdout);
			fputs(help_text, stdout);
			return 0;
		default:
			if (strchr("gbmocad", optopt) && optopt)
				return cmd_usage_error("bisect", usage_lines,
						       "%s needs a value", argv[optind - 1]);
			return cmd_usage_error("bisect", usage_lines,
					       "unknown option '%s'", argv[optind - 1]);
		}
	}
	return check_args(argc, argv, o);
}

/* --show: what the bisection found, once its rows are checked
 * (bisect_verify_show). */
static int show(struct store *st, const struct bisect_request *o)
{
	char err[4096];
	if (bisect_verify_show(st, o->id, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s; not showing it\n", err);
		return 1;
	}
	struct stored_bisection bi;
	struct bisect_series s = {0};
	if (store_bisect_get(st, o->id, &bi, &s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	int64_t id = bi.id; /* --show without an ID: the newest, by its real ID */
	store_bisection_free(&bi);
	bisect_series_free(&s);
	if (bisect_report_print(st, o->db, id, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return 0;
}

/* Set the bisection up, walk it, record how it stopped. */
static int execute(struct store *st, const struct bisect_request *o)
{
	struct bisect_walk w = {0};
	bool finished;
	int rc = bisect_setup(&w, st, o, &finished);
	if (rc == 0 && !finished) {
		rc = bisect_walk_run(&w);
		if (rc < 0)
			rc = bisect_setup_stopped(&w);
	}
	bisect_walk_free(&w);
	return rc;
}

int cmd_bisect(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct bisect_opts o = {0};
	struct store *st;
	char err[1024];
	int rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.show) {
		/* --show only reads: a missing database is an error, not made. */
		ctx->setup = CMD_STORE_READ;
		return (st = cmd_store(ctx, o.rq.db)) ? show(st, &o.rq) : 1;
	}
	char *db_copy = xstrdup(o.rq.db);
	rc = mkdir_p(dirname(db_copy), err, sizeof(err));
	free(db_copy);
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	if (!(st = cmd_store(ctx, o.rq.db)))
		return 1;
	return execute(st, &o.rq);
}
