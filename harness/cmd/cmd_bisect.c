/* schedrig bisect CONFIG --good V --bad V: find the point of a series
 * where a metric moved, each step an ordinary run of the point's config,
 * decided by the rule of bisect_rule.h against both ends and confirmed
 * before a patch is blamed. The command line only: the subsystem is
 * harness/bisect/ (bisect.h says what it owns). */
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_report.h"
#include "bisect_rule.h"
#include "bisect_setup.h"
#include "bisect_verify.h"
#include "bisect_walk.h"
#include "cmdopts.h"
#include "commands.h"
#include "util.h"

static const char usage_lines[] =
	"usage: schedrig bisect CONFIG --good VARIANT --bad VARIANT [--metric LOAD:METRIC]\n"
	"                       [--op OP] [--cell CELL] [--alpha A] [--rule RULE]\n"
	"                       [--min-effect-pct P] [--db FILE]\n"
	"       schedrig bisect --resume [ID] [--metric LOAD:METRIC] [--op OP] [--cell CELL]\n"
	"                       [--db FILE]\n"
	"       schedrig bisect --show [ID] [--db FILE]\n";

static const char help_text[] =
	"\n"
	"Find the first point of a series where the metric moved from the good end's\n"
	"value to the bad end's. The series is bisect: points: of CONFIG from --good to\n"
	"--bad (each a variant, which may also set load params), the patches between\n"
	"two kernel builds of one source, or the commits between two builds of one git\n"
	"repository (kernel: {build: NAME}). Every step is an ordinary schedrig run of\n"
	"that point's config in the database (compare, report, plot and mail read it),\n"
	"linked to the bisection.\n"
	"\n"
	"Both ends are measured first (the config's min iterations, exactly: every run\n"
	"of a bisection measures to its look's count fixed in advance, ci_pct and\n"
	"max_time_s stop none); when they do not differ the bisection stops: \"no\n"
	"regression to bisect\". Each point is then tested against both ends: bad when\n"
	"it differs from the good end only, good when from the bad end only, between\n"
	"when from both and it lies between them, beyond (not monotone) when outside;\n"
	"a point that differs from neither gets more iterations at the next look, up to\n"
	"the config's max, then is skipped, as is a point that fails to build, boot or\n"
	"run. Two sets differ when the test's p is below the decision's alpha and their\n"
	"means differ by at least the minimum effect. Then the last good and first bad\n"
	"points are measured again with both ends, interleaved, one iteration of each a\n"
	"round (at least 5 rounds): a patch is blamed (\"First bad point: P (confirmed:\n"
	"...)\") only when they differ, each is like its end and neither end moved;\n"
	"else the result says \"No single first bad point: ...\" and why (a gradual\n"
	"change over a span of points, a series that is not monotone, no step, an end\n"
	"that moved). The output states\n"
	"the rule and the family-wise alpha it keeps.\n"
	"\n"
	"  --good V, --bad V   the two ends (points of bisect: points:, or variants)\n"
	"  --metric LOAD:METRIC  what to decide on (default: the config's primary metric)\n"
	"  --op OP, --cell CELL  which op and cell (default: the only one there is)\n"
	"  --alpha A           family-wise alpha of the decisions that can blame a patch\n"
	"                      (default 0.05): Bonferroni over the ceil(log2 N) + 2 planned\n"
	"                      decisions and a reserve, each spent over at most 3 looks\n"
	"  --rule RULE         the test: welch (Welch's t-test, the default), mann-whitney\n"
	"                      (Mann-Whitney U) or range (lkp's range separation: every\n"
	"                      sample of one side beyond every sample of the other, after\n"
	"                      lkp's trimming); mann-whitney and range need\n"
	"                      max >= 6 iterations at --alpha 0.05 (5 for two points;\n"
	"                      refused before anything runs), welch any\n"
	"  --min-effect-pct P  a difference below P % of the mean is no change, whatever\n"
	"                      its p (default: 10 for a max or a percentile from p99 up,\n"
	"                      as max_latency or op p99.9; 1 for everything else:\n"
	"                      throughput, time, means)\n"
	"  --db FILE           results database (default " DEFAULT_DB ")\n"
	"  --resume [ID]       continue bisection ID (default the newest unfinished one)\n"
	"                      from the directory it was begun in: finished steps are\n"
	"                      not measured again, an interrupted run is resumed, a\n"
	"                      failed end or confirm round measured again; its stored\n"
	"                      decisions are made again from its runs' samples first\n"
	"  --show [ID]         print what bisection ID found (default the newest)\n"
	"\n"
	"Exit status: 0 a first bad point or a range was named, 1 no patch named (no\n"
	"regression to bisect, no single first bad point) or a failure, 2 bad usage or\n"
	"config, 128+N interrupted by signal N.\n";

/* The command line: a request for the subsystem (bisect_setup.h), or
 * --show. */
struct bisect_opts {
	struct bisect_request rq;
	bool show;
	bool rule_given;
	int argc;    /* the command line, for an ID after --resume/--show */
	char **argv;
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
		if (o->rq.good || o->rq.bad || !isnan(o->rq.alpha) || o->rule_given ||
		    !isnan(o->rq.min_effect_pct))
			return cmd_usage_error("bisect", usage_lines,
					       "--good, --bad, --alpha, --rule and --min-effect-pct are"
					       " the bisection's own: --%s keeps them",
					       o->rq.resume ? "resume" : "show");
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

/* One option into the bisect_opts at ctx (cmd_parse): 0, or EXIT_USAGE
 * after the usage error. */
static int bisect_option(int ch, const char *arg, void *ctx)
{
	struct bisect_opts *o = ctx;
	switch (ch) {
	case 'g': o->rq.good = arg; break;
	case 'b': o->rq.bad = arg; break;
	case 'o': o->rq.op = arg; break;
	case 'c': o->rq.cell = arg; break;
	case 'd': o->rq.db = arg; break;
	case 'm': {
		const char *colon = strchr(arg, ':');
		if (!colon || colon == arg || !colon[1] || strchr(colon + 1, ':'))
			return cmd_usage_error("bisect", usage_lines,
					       "--metric wants LOAD:METRIC, e.g. cyclictest:"
					       "max_latency, not '%s'", arg);
		o->rq.metric = arg;
		break;
	}
	case 'a':
		if (!parse_double(arg, &o->rq.alpha) || !(o->rq.alpha > 0 && o->rq.alpha < 0.5))
			return cmd_usage_error("bisect", usage_lines,
					       "--alpha must be a number in (0, 0.5), not '%s'",
					       arg);
		break;
	case 'u': {
		int t = bisect_test_parse(arg);
		if (t < 0)
			return cmd_usage_error("bisect", usage_lines,
					       "--rule is welch, mann-whitney or range, not '%s'",
					       arg);
		o->rq.test = (enum bisect_test)t;
		o->rule_given = true;
		break;
	}
	case 'e':
		if (!parse_double(arg, &o->rq.min_effect_pct) ||
		    !(o->rq.min_effect_pct >= 0 && o->rq.min_effect_pct < 1000))
			return cmd_usage_error("bisect", usage_lines,
					       "--min-effect-pct must be a number in [0, 1000),"
					       " not '%s'", arg);
		break;
	case 'r':
	case 's':
		*(ch == 'r' ? &o->rq.resume : &o->show) = true;
		return optional_id(o->argc, o->argv, o) >= 0 ? EXIT_USAGE : 0;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct bisect_opts *o)
{
	static const struct option longopts[] = {
		{"good", required_argument, NULL, 'g'}, {"bad", required_argument, NULL, 'b'},
		{"metric", required_argument, NULL, 'm'}, {"op", required_argument, NULL, 'o'},
		{"cell", required_argument, NULL, 'c'}, {"alpha", required_argument, NULL, 'a'},
		{"db", required_argument, NULL, 'd'}, {"resume", no_argument, NULL, 'r'},
		{"show", no_argument, NULL, 's'}, {"help", no_argument, NULL, 'h'},
		{"rule", required_argument, NULL, 'u'},
		{"min-effect-pct", required_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	const struct cmd_optspec spec = {
		.cmd = "bisect", .shortopts = "", .longopts = longopts, .usage = usage_lines,
		.help_tail = help_text, .usage_lines = usage_lines, .with_value = "gbmocadue",
		.on = bisect_option, .ctx = o,
	};
	o->rq.db = DEFAULT_DB;
	o->rq.alpha = NAN;
	o->rq.min_effect_pct = NAN;
	o->rq.test = BISECT_TEST_WELCH;
	o->argc = argc;
	o->argv = argv;
	int rc = cmd_parse(argc, argv, &spec);
	if (rc >= 0)
		return rc;
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

/* Set the bisection up (w prepared for a new one), walk it, record how it
 * stopped. */
static int execute(struct bisect_walk *w, struct store *st, const struct bisect_request *o)
{
	bool finished;
	int rc = bisect_setup(w, st, o, &finished);
	if (rc == 0 && !finished) {
		rc = bisect_walk_run(w);
		if (rc < 0)
			rc = bisect_setup_stopped(w);
	}
	bisect_walk_free(w);
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
	/* A bisection that cannot start is refused before its database is made. */
	struct bisect_walk w = {0};
	if (!o.rq.resume && (rc = bisect_setup_prepare(&w, &o.rq))) {
		bisect_walk_free(&w);
		return rc;
	}
	char *db_copy = xstrdup(o.rq.db);
	rc = mkdir_p(dirname(db_copy), err, sizeof(err));
	free(db_copy);
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		bisect_walk_free(&w);
		return 1;
	}
	if (!(st = cmd_store(ctx, o.rq.db))) {
		bisect_walk_free(&w);
		return 1;
	}
	return execute(&w, st, &o.rq);
}
