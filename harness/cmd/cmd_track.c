/* schedrig track: a config's performance history per kernel revision and
 * the change points in it; --follow watches a branch (the command line
 * only: the subsystem is harness/track/, track.h and track_follow.h). */
#include <getopt.h>
#include <libgen.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "plot.h"
#include "track.h"
#include "track_follow.h"
#include "util.h"

static const char usage_lines[] =
	"usage: schedrig track [--config NAME] [--variant V] [--metric [LOAD:]METRIC] [--op OP]\n"
	"                      [--cell CELL] [--alpha A] [--permutations R] [--seed N]\n"
	"                      [--min-change PCT] [--format text|json] [--plot DIR]\n"
	"                      [--output FILE] [--db FILE]\n"
	"       schedrig track --values FILE [--alpha A] [--permutations R] [--seed N]\n"
	"                      [--min-change PCT] [--format text|json] [--plot DIR]\n"
	"       schedrig track --follow CONFIG --branch REF --tree DIR [--every N]\n"
	"                      [--since REV] [--once | --poll-s S] [--metric LOAD:METRIC]\n"
	"                      [--op OP] [--cell CELL] [--alpha A] [--permutations R]\n"
	"                      [--seed N] [--min-change PCT] [--from ADDR --to ADDR\n"
	"                      [--cc ADDR]... (--smtp-url URL [--smtp-user USER]\n"
	"                      [--insecure] | --mail-dir DIR)] [--db FILE]\n"
	"       schedrig track --follow --resume [ID] [--once | --poll-s S] [--db FILE]\n";

static const char help_text[] =
	"\n"
	"The history of a config (its runs, schedrig run CONFIG, by the config's name) per\n"
	"kernel revision, for each variant, cell, load, metric and op, and the change\n"
	"points in it. A point is a run: the Amean of its samples (complete iterations).\n"
	"The points are in revision order: the git order of their commits when every run\n"
	"is a kernel built from one git repository, else the order of each revision's\n"
	"first run (a package's version, a run --revision label, or the run itself when\n"
	"it has none); a revision's runs are consecutive and a change begins only at a\n"
	"revision's first run. Runs whose host fingerprints differ are never one\n"
	"history: it is split, and the split is said.\n"
	"\n"
	"Change points: E-divisive means (Matteson & James 2014; as MongoDB's\n"
	"signal-processing-algorithms and Apache Otava use it) with a permutation test:\n"
	"each candidate's p-value from R permutations of the points within their\n"
	"segments (deterministic: seeded), a change point when p <= alpha; with no\n"
	"change at all the chance of a change point is at most alpha. One whose change\n"
	"of the level is below the minimum change is dropped. A table per history:\n"
	"revision before, revision after, mean before, mean after, change %, p, and\n"
	"whether it is a regression (the metric got worse by its direction).\n"
	"\n"
	"  --config NAME        only the runs of this config name (default every config)\n"
	"  --variant V          only variant V\n"
	"  --metric [LOAD:]METRIC  only this metric (of LOAD)\n"
	"  --op OP, --cell CELL only this op, this cell\n"
	"  --alpha A            significance level, 0 < A < 1 (default 0.01), at least\n"
	"                       1/(R+1): the smallest p-value R permutations give\n"
	"  --permutations R     permutations per test, 1..100000 (default 199)\n"
	"  --seed N             the permutations' seed (default 1)\n"
	"  --min-change PCT     the smallest change of the level that counts, percent\n"
	"                       (default 0.5)\n"
	"  --format text|json   a table per history (default), or one JSON document\n"
	"  --plot DIR           also draw each history (gnuplot: PNG and SVG into DIR,\n"
	"                       made when missing): its runs, the level between change\n"
	"                       points, each change point a dashed line\n"
	"  --output FILE        write the report to FILE instead of stdout\n"
	"  --values FILE        the history is the numbers in FILE, one per line ('-':\n"
	"                       stdin; blank lines and '#' comments skipped), each a\n"
	"                       revision of its own: change points of any series\n"
	"  --db FILE            results database (default " DEFAULT_DB ")\n"
	"\n"
	"--follow CONFIG: CONFIG has one variant, whose kernel (kernel: {build: NAME})\n"
	"is built from the git repository --tree. Each new commit of the first-parent\n"
	"line of --branch (every Nth with --every N, and always the branch's tip; the\n"
	"first time its tip only, or --since REV and the commits after it) is built and\n"
	"run (an ordinary schedrig run of CONFIG with the build's commit: set to the\n"
	"commit, its config in track/ID/ beside the database), and after each run the\n"
	"change points of the history are sought (the metric: --metric, default the\n"
	"config's primary one; --op, --cell when it has several). A regression whose\n"
	"revisions before and after are more than one commit apart is bisected\n"
	"(schedrig bisect over that git range, the same config and metric); one commit\n"
	"apart, that commit is named. The result is mailed as schedrig mail sends it\n"
	"(--bisection ID, or the two runs) when --to is given: --from ADDR, --to ADDR,\n"
	"--cc ADDR, --smtp-url URL, --smtp-user USER, --insecure as for schedrig mail,\n"
	"or --mail-dir DIR to write\n"
	"each message to DIR/track-ID-N.eml instead. Each change is handled once.\n"
	"\n"
	"  --branch REF         the branch (any revision git rev-parse takes)\n"
	"  --tree DIR           the git repository the kernel is built from\n"
	"  --every N            run every Nth new commit, and the tip (default 1)\n"
	"  --since REV          the first time, begin at commit REV (then every commit\n"
	"                       after it, or every Nth)\n"
	"  --once               look at the branch once, run what is new, and stop\n"
	"  --poll-s S           else look again every S seconds (default 600) until\n"
	"                       interrupted\n"
	"  --resume [ID]        go on with follow ID (default the newest): a step whose\n"
	"                       run was interrupted is resumed (run --resume), an\n"
	"                       interrupted bisection too (bisect --resume), a bisection\n"
	"                       that stopped for a reason of the machine (failed: a run\n"
	"                       that did not start, a variant that did not come up)\n"
	"                       retried, at most 3 attempts in all (a verdict never\n"
	"                       is), an unsent mail sent; then the branch as before\n"
	"A --follow of a config, tree and branch that a stopped follow has goes on with\n"
	"that one (its stored config must be the config's text).\n"
	"\n"
	"Exit status: 0 done (change points or not), 1 a failure (database, no history,\n"
	"git, a step that could not start), 2 bad usage or config, 128+N interrupted by\n"
	"signal N.\n";

enum {
	OPT_CONFIG = 1, OPT_VARIANT, OPT_METRIC, OPT_OP, OPT_CELL, OPT_ALPHA, OPT_PERMS,
	OPT_SEED, OPT_MIN_CHANGE, OPT_FORMAT, OPT_PLOT, OPT_OUTPUT, OPT_VALUES, OPT_DB,
	OPT_FOLLOW, OPT_BRANCH, OPT_TREE, OPT_EVERY, OPT_SINCE, OPT_ONCE, OPT_POLL, OPT_RESUME,
	OPT_FROM, OPT_TO, OPT_CC, OPT_SMTP_URL, OPT_SMTP_USER, OPT_INSECURE, OPT_MAIL_DIR,
};

struct track_cli {
	struct track_filter f;
	struct track_opts o;
	struct track_follow_request fr;
	const char *db, *plot, *output, *values;
	bool json, follow, detector_given;
};

static int bad(const char *fmt, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, arg);
	return cmd_usage_error("track", usage_lines, "%s", msg);
}

/* The detector's options. 0, or EXIT_USAGE. */
static int detector_option(int val, const char *arg, struct track_opts *o)
{
	long long n;
	switch (val) {
	case OPT_ALPHA:
		if (!parse_double(arg, &o->alpha) || !(o->alpha > 0 && o->alpha < 1))
			return bad("--alpha must be a number between 0 and 1, not '%s'", arg);
		return 0;
	case OPT_PERMS:
		if (!parse_ll(arg, &n) || n < 1 || n > 100000)
			return bad("--permutations must be 1..100000, not '%s'", arg);
		o->permutations = (int)n;
		return 0;
	case OPT_SEED:
		if (!parse_ll(arg, &n) || n < 0)
			return bad("--seed must be an integer >= 0, not '%s'", arg);
		o->seed = (uint64_t)n;
		return 0;
	default:
		if (!parse_double(arg, &o->min_change_pct) || !(o->min_change_pct >= 0 &&
								 o->min_change_pct < 1e6))
			return bad("--min-change must be a percentage >= 0, not '%s'", arg);
		return 0;
	}
}

/* A mail option of --follow (track_follow.h keeps them as schedrig mail's
 * arguments). 0, or EXIT_USAGE. */
static int mail_option(int val, const char *arg, struct track_follow_request *fr)
{
	static const char *const names[] = {
		[OPT_FROM] = "--from", [OPT_TO] = "--to", [OPT_CC] = "--cc",
		[OPT_SMTP_URL] = "--smtp-url", [OPT_SMTP_USER] = "--smtp-user",
		[OPT_INSECURE] = "--insecure",
	};
	if (val == OPT_MAIL_DIR) {
		fr->mail_dir = arg;
		return 0;
	}
	argv_add(&fr->mail, names[val]);
	if (arg)
		argv_add(&fr->mail, arg);
	fr->mail_to |= val == OPT_TO;
	fr->mail_from |= val == OPT_FROM;
	fr->mail_smtp |= val == OPT_SMTP_URL;
	return 0;
}

static int follow_option(int val, const char *arg, struct track_follow_request *fr)
{
	long long n;
	switch (val) {
	case OPT_BRANCH:
		fr->branch = arg;
		return 0;
	case OPT_TREE:
		fr->tree = arg;
		return 0;
	case OPT_EVERY:
		if (!parse_ll(arg, &n) || n < 1 || n > 1000000)
			return bad("--every must be 1..1000000, not '%s'", arg);
		fr->every = (int)n;
		return 0;
	case OPT_SINCE:
		fr->since = arg;
		return 0;
	case OPT_ONCE:
		fr->once = true;
		return 0;
	case OPT_POLL:
		if (!parse_double(arg, &fr->poll_s) || !(fr->poll_s >= 1 && fr->poll_s <= 86400 * 7))
			return bad("--poll-s must be 1..604800 seconds, not '%s'", arg);
		fr->poll_given = true;
		return 0;
	case OPT_RESUME:
		fr->resume = true;
		return 0;
	default:
		return mail_option(val, arg, fr);
	}
}

static int on_option(int val, const char *arg, void *ctx)
{
	struct track_cli *c = ctx;
	switch (val) {
	case OPT_CONFIG:
		c->f.config = arg;
		return 0;
	case OPT_VARIANT:
		c->f.variant = arg;
		return 0;
	case OPT_METRIC:
		c->f.metric = arg;
		return 0;
	case OPT_OP:
		c->f.op = arg;
		return 0;
	case OPT_CELL:
		c->f.cell = arg;
		return 0;
	case OPT_ALPHA:
	case OPT_PERMS:
	case OPT_SEED:
	case OPT_MIN_CHANGE:
		c->detector_given = true;
		return detector_option(val, arg, &c->o);
	case OPT_FORMAT:
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			return bad("--format must be text or json, not '%s'", arg);
		c->json = !strcmp(arg, "json");
		return 0;
	case OPT_PLOT:
		c->plot = arg;
		return 0;
	case OPT_OUTPUT:
		c->output = arg;
		return 0;
	case OPT_VALUES:
		c->values = arg;
		return 0;
	case OPT_DB:
		c->db = arg;
		return 0;
	case OPT_FOLLOW:
		c->follow = true;
		return 0;
	default:
		return follow_option(val, arg, &c->fr);
	}
}

static int parse_args(int argc, char **argv, struct track_cli *c)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, OPT_CONFIG},
		{"variant", required_argument, NULL, OPT_VARIANT},
		{"metric", required_argument, NULL, OPT_METRIC},
		{"op", required_argument, NULL, OPT_OP},
		{"cell", required_argument, NULL, OPT_CELL},
		{"alpha", required_argument, NULL, OPT_ALPHA},
		{"permutations", required_argument, NULL, OPT_PERMS},
		{"seed", required_argument, NULL, OPT_SEED},
		{"min-change", required_argument, NULL, OPT_MIN_CHANGE},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"plot", required_argument, NULL, OPT_PLOT},
		{"output", required_argument, NULL, OPT_OUTPUT},
		{"values", required_argument, NULL, OPT_VALUES},
		{"db", required_argument, NULL, OPT_DB},
		{"follow", no_argument, NULL, OPT_FOLLOW},
		{"branch", required_argument, NULL, OPT_BRANCH},
		{"tree", required_argument, NULL, OPT_TREE},
		{"every", required_argument, NULL, OPT_EVERY},
		{"since", required_argument, NULL, OPT_SINCE},
		{"once", no_argument, NULL, OPT_ONCE},
		{"poll-s", required_argument, NULL, OPT_POLL},
		{"resume", no_argument, NULL, OPT_RESUME},
		{"from", required_argument, NULL, OPT_FROM},
		{"to", required_argument, NULL, OPT_TO},
		{"cc", required_argument, NULL, OPT_CC},
		{"smtp-url", required_argument, NULL, OPT_SMTP_URL},
		{"smtp-user", required_argument, NULL, OPT_SMTP_USER},
		{"insecure", no_argument, NULL, OPT_INSECURE},
		{"mail-dir", required_argument, NULL, OPT_MAIL_DIR},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static char usage[sizeof(usage_lines) + sizeof(help_text)];
	snprintf(usage, sizeof(usage), "%s%s", usage_lines, help_text);
	return cmd_options(argc, argv, longopts, usage, on_option, c);
}

/* Write out to --output or stdout. 0, or 1 after a message. */
static int write_out(const struct track_cli *c, const struct buf *out)
{
	char err[512];
	if (!c->output) {
		fputs(buf_str(out), stdout);
		return 0;
	}
	if (file_write(c->output, buf_str(out), out->len, err, sizeof(err))) {
		fprintf(stderr, "schedrig track: %s\n", err);
		return 1;
	}
	return 0;
}

/* The histories: of --values FILE, or of the database. 0, or 1 after a
 * message. */
static int load_histories(struct track_cli *c, struct cmd_ctx *ctx, struct track_set *set)
{
	char err[1024];
	if (c->values) {
		struct buf text = {0};
		int rc = strcmp(c->values, "-") ? file_read(c->values, &text, err, sizeof(err))
						: buf_read_file(&text, "/dev/stdin", 64 << 20);
		if (rc)
			snprintf(err, sizeof(err), "%s: cannot read it", c->values);
		else
			rc = track_history_values(c->values, buf_str(&text), set, err, sizeof(err));
		buf_free(&text);
		if (rc)
			fprintf(stderr, "schedrig track: %s\n", err);
		return rc ? 1 : 0;
	}
	/* Reading histories writes nothing: the database is opened read-only
	 * (the command's entry is a writing one for --follow). */
	ctx->setup = CMD_STORE_READ;
	struct store *st = cmd_store(ctx, c->db);
	if (!st)
		return 1;
	if (track_histories_load(st, &c->f, set, err, sizeof(err))) {
		fprintf(stderr, "schedrig track: %s\n", err);
		return 1;
	}
	if (set->n == 0) {
		fprintf(stderr, "schedrig track: no history%s%s in %s (runs with samples of what"
			" --config, --variant, --metric, --op and --cell select)\n",
			c->f.config ? " of config " : "", c->f.config ? c->f.config : "", c->db);
		return 1;
	}
	return 0;
}

static int report(struct track_cli *c, struct cmd_ctx *ctx)
{
	struct track_set set = {0};
	struct buf out = {0}, plotted = {0};
	char err[1024];
	int rc = load_histories(c, ctx, &set);
	if (rc)
		return rc;
	struct track_result *r = xcalloc(set.n + 1, sizeof(*r));
	for (size_t i = 0; i < set.n; i++)
		track_detect(&set.h[i], &c->o, &r[i]);
	if (c->json)
		track_report_json(&out, &set, r, &c->o);
	else
		track_report_text(&out, &set, r, &c->o);
	rc = write_out(c, &out);
	if (!rc && c->plot) {
		if (mkdir_p(c->plot, err, sizeof(err)) ||
		    track_plot(&set, r, c->plot, PLOT_PNG | PLOT_SVG, &plotted, err, sizeof(err))) {
			fprintf(stderr, "schedrig track: --plot: %s\n", err);
			rc = 1;
		}
		fputs(buf_str(&plotted), stderr);
	}
	for (size_t i = 0; i < set.n; i++)
		track_result_free(&r[i]);
	free(r);
	buf_free(&out);
	buf_free(&plotted);
	track_set_free(&set);
	return rc;
}

/* The directory of the database db, made when missing. 0, or 1 after a
 * message. */
static int mkdir_db_dir(const char *db)
{
	char err[512], *copy = xstrdup(db);
	int rc = mkdir_p(dirname(copy), err, sizeof(err));
	free(copy);
	if (rc)
		fprintf(stderr, "schedrig track: %s\n", err);
	return rc ? 1 : 0;
}

/* With R permutations the smallest p-value is 1/(R+1): an alpha below it
 * could never be reached, so no change point could ever be found. */
static int check_alpha(const struct track_opts *o)
{
	double p_min = 1.0 / (o->permutations + 1);
	if (o->alpha >= p_min)
		return 0;
	char msg[512];
	snprintf(msg, sizeof(msg), "--alpha %g cannot be reached with %d permutation(s): the"
		 " smallest p-value is 1/(%d+1) = %.3g, so no change point could ever be found;"
		 " give --permutations %d or more, or a larger --alpha", o->alpha, o->permutations,
		 o->permutations, p_min, (int)ceil(1.0 / o->alpha - 1.0 - 1e-9));
	return cmd_usage_error("track", usage_lines, "%s", msg);
}

/* Options of one mode used in the other: usage errors. */
static int check_modes(struct track_cli *c, int argc, char **argv)
{
	const struct track_follow_request *fr = &c->fr;
	if (check_alpha(&c->o))
		return EXIT_USAGE;
	bool follow_only = fr->branch || fr->tree || fr->every || fr->since || fr->once ||
			   fr->poll_given || fr->resume || fr->mail.n || fr->mail_dir;
	if (!c->follow && follow_only)
		return cmd_usage_error("track", usage_lines, "--branch, --tree, --every, --since,"
				       " --once, --poll-s, --resume and the mail options go with"
				       " --follow");
	if (!c->follow && optind < argc && !c->fr.resume)
		return cmd_usage_error("track", usage_lines, "no operand without --follow, but '%s'"
				       " was given", argv[optind]);
	if (c->follow && (c->values || c->plot || c->output || c->json || c->f.config ||
			  c->f.variant))
		return cmd_usage_error("track", usage_lines, "--values, --plot, --output, --format,"
				       " --config and --variant do not go with --follow (schedrig"
				       " track --config NAME reports a followed history)");
	if (c->values && (c->f.config || c->f.variant || c->f.metric || c->f.op || c->f.cell))
		return cmd_usage_error("track", usage_lines, "--values FILE is the history: no"
				       " --config, --variant, --metric, --op or --cell with it");
	return -1;
}

/* --follow: its operands (CONFIG; with --resume an optional ID) and
 * options checked, the database opened for writing, the branch followed. */
static int follow(struct track_cli *c, struct cmd_ctx *ctx, int argc, char **argv)
{
	struct track_follow_request *fr = &c->fr;
	char err[1024];
	long long id;
	int left = argc - optind;
	if (fr->resume && left == 1 && parse_ll(argv[optind], &id) && id >= 1)
		fr->id = id;
	else if (fr->resume && left)
		return cmd_usage_error("track", usage_lines, "--follow --resume takes a follow ID,"
				       " not '%s'", argv[optind]);
	else if (!fr->resume && left != 1)
		return cmd_usage_error("track", usage_lines, "--follow takes one CONFIG%s",
				       left ? ", but more were given" : "");
	else if (!fr->resume)
		fr->config = argv[optind];
	fr->db = c->db;
	fr->metric = c->f.metric;
	fr->op = c->f.op;
	fr->cell = c->f.cell;
	fr->detector = c->o;
	fr->detector_given = c->detector_given;
	if (track_follow_check(fr, err, sizeof(err)))
		return cmd_usage_error("track", usage_lines, "%s", err);
	/* Made (or refused) now, not when the first mail is written after a
	 * whole bisection. */
	if (fr->mail_dir && mkdir_p(fr->mail_dir, err, sizeof(err)))
		return cmd_usage_error("track", usage_lines, "--mail-dir %s: %s", fr->mail_dir,
				       err);
	if (mkdir_db_dir(c->db))
		return 1;
	struct store *st = cmd_store(ctx, c->db);
	return st ? track_follow_run(st, fr) : 1;
}

int cmd_track(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct track_cli c = {.db = DEFAULT_DB};
	track_opts_init(&c.o);
	track_follow_request_init(&c.fr);
	int rc = parse_args(argc, argv, &c);
	if (rc < 0)
		rc = check_modes(&c, argc, argv);
	if (rc < 0)
		rc = c.follow ? follow(&c, ctx, argc, argv) : report(&c, ctx);
	argv_free(&c.fr.mail);
	return rc;
}
