/* schedrig bisect CONFIG --good V --bad V: find the point of a series
 * (bisect_series.h) where a metric moved, each step an ordinary run of the
 * point's config, decided by Welch's t-test against both ends (bisect.h). */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adaptive.h"
#include "bisect.h"
#include "bisect_report.h"
#include "bisect_series.h"
#include "store_bisect.h"
#include "bisect_walk.h"
#include "commands.h"
#include "config.h"
#include "plan.h"
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
	"  --resume [ID]       continue bisection ID (default the newest): finished steps\n"
	"                      are not measured again, an interrupted run is resumed\n"
	"  --show [ID]         print what bisection ID found (default the newest)\n"
	"\n"
	"Exit status: 0 the first bad point or a range was found, 1 no regression to\n"
	"bisect or a failure, 2 bad usage or config, 128+N interrupted by signal N.\n";

struct bisect_opts {
	const char *config, *good, *bad, *metric, *op, *cell, *db;
	double alpha;
	bool resume, show;
	int64_t id;          /* --resume/--show ID; 0 the newest */
};

struct ctx {
	const struct bisect_opts *o;
	struct bisect_walk w;
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs("schedrig bisect: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%ssee schedrig bisect --help\n", usage_lines);
	return EXIT_USAGE;
}

/* An optional ID after --resume/--show: the next argument when it is a
 * number. */
static int optional_id(int argc, char **argv, struct bisect_opts *o)
{
	long long n;
	if (optind < argc && parse_ll(argv[optind], &n)) {
		if (n < 1)
			return usage_error("a bisection ID is a positive number, not '%s'",
					   argv[optind]);
		o->id = n;
		optind++;
	}
	return -1;
}

static int check_args(int argc, char **argv, struct bisect_opts *o)
{
	if (o->resume && o->show)
		return usage_error("--resume and --show do not go together");
	if (o->resume || o->show) {
		if (optind != argc)
			return usage_error("--%s takes no CONFIG, but '%s' was given",
					   o->resume ? "resume" : "show", argv[optind]);
		if (o->good || o->bad || !isnan(o->alpha))
			return usage_error("--good, --bad and --alpha are the bisection's own: --%s"
					   " keeps them", o->resume ? "resume" : "show");
		if (o->show && (o->metric || o->op || o->cell))
			return usage_error("--show takes no --metric, --op or --cell");
		return -1;
	}
	if (optind == argc)
		return usage_error("no CONFIG given");
	if (optind != argc - 1)
		return usage_error("one CONFIG only, but '%s' was given too", argv[optind + 1]);
	o->config = argv[optind];
	if (!o->good || !o->bad)
		return usage_error("%s", !o->good && !o->bad ? "--good and --bad are needed"
					 : !o->good ? "--good is needed" : "--bad is needed");
	if (!strcmp(o->good, o->bad))
		return usage_error("--good and --bad are the same (%s)", o->good);
	if (isnan(o->alpha))
		o->alpha = 0.05;
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
	o->db = DEFAULT_DB;
	o->alpha = NAN;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'g': o->good = optarg; break;
		case 'b': o->bad = optarg; break;
		case 'o': o->op = optarg; break;
		case 'c': o->cell = optarg; break;
		case 'd': o->db = optarg; break;
		case 'm': {
			const char *colon = strchr(optarg, ':');
			if (!colon || colon == optarg || !colon[1] || strchr(colon + 1, ':'))
				return usage_error("--metric wants LOAD:METRIC, e.g. cyclictest:"
						   "max_latency, not '%s'", optarg);
			o->metric = optarg;
			break;
		}
		case 'a':
			if (!parse_double(optarg, &o->alpha) || !(o->alpha > 0 && o->alpha < 0.5))
				return usage_error("--alpha must be a number in (0, 0.5), not '%s'",
						   optarg);
			break;
		case 'r':
		case 's':
			*(ch == 'r' ? &o->resume : &o->show) = true;
			if ((rc = optional_id(argc, argv, o)) >= 0)
				return rc;
			break;
		case 'h':
			fputs(usage_lines, stdout);
			fputs(help_text, stdout);
			return 0;
		default:
			if (strchr("gbmocad", optopt) && optopt)
				return usage_error("%s needs a value", argv[optind - 1]);
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	return check_args(argc, argv, o);
}

/* Check --metric and --cell against point 0's config before anything runs,
 * and read its max iterations. 0, or -1 after a message. */
static int check_choice(struct ctx *c)
{
	char err[1024];
	struct experiment *e = config_parse(c->w.s.p[0].name, c->w.s.p[0].config,
					    strlen(c->w.s.p[0].config), err, sizeof(err));
	struct plan p = {0};
	int rc = e && plan_build(e, &p, err, sizeof(err)) == 0 ? 0 : -1;
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		experiment_free(e);
		return -1;
	}
	c->w.iterations_max = e->iterations;
	const struct cfg_load *load;
	const char *metric;
	if (!c->w.bi.load && !c->o->metric && adaptive_primary(e, &load, &metric)) {
		c->w.bi.load = xstrdup(load->name);
		c->w.bi.metric = xstrdup(metric);
	}
	if (c->o->metric) {
		const char *colon = strchr(c->o->metric, ':');
		const struct cfg_load *l = NULL;
		for (size_t i = 0; i < e->n_loads; i++)
			if (!strncmp(e->loads[i].name, c->o->metric, (size_t)(colon - c->o->metric)) &&
			    !e->loads[i].name[colon - c->o->metric])
				l = &e->loads[i];
		bool found = false;
		for (size_t i = 0; l && i < l->ops->n_metrics; i++)
			found |= !strcmp(l->ops->metrics[i].name, colon + 1);
		if (!found) {
			fprintf(stderr, "schedrig bisect: --metric %s: %s\n", c->o->metric,
				l ? "the load has no such metric (schedrig loads TOOL lists them)"
				  : "no load of that name in the config");
			rc = -1;
		}
	}
	if (rc == 0 && c->o->cell) {
		bool found = false;
		for (size_t i = 0; i < p.n_cells; i++)
			found |= !strcmp(p.cells[i].name, c->o->cell);
		if (!found) {
			fprintf(stderr, "schedrig bisect: --cell %s: the config has no such cell"
				" (schedrig run --dry-run lists them)\n", c->o->cell);
			rc = -1;
		}
	}
	plan_free(&p);
	experiment_free(e);
	return rc;
}

/* Start a new bisection from the config, or load one to resume. */
static int setup(struct ctx *c)
{
	char err[4096];
	if (c->o->resume) {
		if (store_bisect_get(c->w.st, c->o->id, &c->w.bi, &c->w.s, err, sizeof(err))) {
			fprintf(stderr, "schedrig bisect: %s\n", err);
			return 1;
		}
		/* What the database says is checked, not trusted. */
		if (c->w.s.n < 2 || !(c->w.bi.alpha > 0 && c->w.bi.alpha < 0.5)) {
			fprintf(stderr, "schedrig bisect: bisection %lld has %zu point(s) and alpha %g:"
				" not one the rig writes\n", (long long)c->w.bi.id, c->w.s.n,
				c->w.bi.alpha);
			return 1;
		}
		if (c->w.bi.metric && c->w.bi.op) {
			if (c->o->metric || c->o->op || c->o->cell) {
				fprintf(stderr, "schedrig bisect: bisection %lld decided on %s:%s op %s"
					" cell %s already; --metric, --op and --cell only go with"
					" --resume before the ends are measured\n", (long long)c->w.bi.id,
					c->w.bi.load, c->w.bi.metric, c->w.bi.op, c->w.bi.cell);
				return EXIT_USAGE;
			}
			c->w.m = (struct bisect_metric){xstrdup(c->w.bi.load), xstrdup(c->w.bi.metric),
						      xstrdup(c->w.bi.op), xstrdup(c->w.bi.cell)};
		} else if (!c->o->metric) {
			free(c->w.bi.load);
			free(c->w.bi.metric);
			c->w.bi.load = c->w.bi.metric = NULL;
		}
		return check_choice(c) ? EXIT_USAGE : 0;
	}
	struct experiment *e = config_load(c->o->config, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	int rc = bisect_series_build(e->path, e->text, c->o->good, c->o->bad, &c->w.s, err,
				     sizeof(err));
	if (rc == 0) {
		c->w.bi.config_path = xstrdup(e->path);
		c->w.bi.config_text = xstrdup(e->text);
	}
	experiment_free(e);
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return EXIT_USAGE;
	}
	c->w.bi.good = xstrdup(c->o->good);
	c->w.bi.bad = xstrdup(c->o->bad);
	c->w.bi.alpha = c->o->alpha;
	if (check_choice(c))
		return EXIT_USAGE;
	if (store_bisect_begin(c->w.st, &c->w.bi, &c->w.s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return 0;
}

/* The verdicts stored (resume) into the search. */
static int restore_verdicts(struct ctx *c)
{
	struct stored_bisect_point *rows;
	size_t n;
	char err[512];
	if (store_bisect_points(c->w.st, c->w.bi.id, &rows, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	int rc = 0;
	for (size_t k = 0; k < n && k < c->w.search.n && rc == 0; k++) {
		int v = rows[k].verdict ? bisect_verdict_parse(rows[k].verdict) : BISECT_UNTESTED;
		if (v < 0 || rows[k].k != (int)k) {
			fprintf(stderr, "schedrig bisect: bisection %lld: point %d has verdict '%s', not"
				" one the rig writes\n", (long long)c->w.bi.id, rows[k].k,
				rows[k].verdict);
			rc = -1;
		}
		c->w.search.v[k] = v < 0 ? BISECT_UNTESTED : (enum bisect_verdict)v;
	}
	store_bisect_point_rows_free(rows, n);
	return rc;
}

static int bisect_dir(struct ctx *c)
{
	char err[1024], real[PATH_MAX];
	char *copy = xstrdup(c->o->db);
	const char *root = dirname(copy);
	int rc = 0;
	if (!realpath(root, real)) {
		snprintf(err, sizeof(err), "%s: %s", root, strerror(errno));
		rc = -1;
	}
	free(copy);
	if (rc == 0) {
		c->w.dir = xasprintf("%s/bisect/%lld", real, (long long)c->w.bi.id);
		rc = mkdir_p(c->w.dir, err, sizeof(err));
	}
	if (rc)
		fprintf(stderr, "schedrig bisect: %s\n", err);
	return rc;
}

static int show(struct ctx *c)
{
	char err[1024];
	if (store_bisect_get(c->w.st, c->o->id, &c->w.bi, &c->w.s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	if (bisect_report_print(c->w.st, c->o->db, c->w.bi.id, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return 0;
}

static int execute(struct ctx *c)
{
	char err[1024];
	int rc = setup(c);
	if (rc)
		return rc;
	if (c->o->resume && (!strcmp(c->w.bi.status, "complete") ||
			     !strcmp(c->w.bi.status, "refused"))) {
		printf("bisection %lld is %s: nothing to resume\n", (long long)c->w.bi.id, c->w.bi.status);
		return 0;
	}
	bisect_search_init(&c->w.search, c->w.s.n);
	if (restore_verdicts(c) || bisect_dir(c))
		return 1;
	if (c->o->resume && store_bisect_end(c->w.st, c->w.bi.id, "running", NULL, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	ssize_t len = readlink("/proc/self/exe", c->w.self_exe, sizeof(c->w.self_exe) - 1);
	if (len <= 0) {
		fprintf(stderr, "schedrig bisect: cannot find its own executable: %s\n",
			strerror(errno));
		return 1;
	}
	c->w.self_exe[len] = '\0';
	c->w.db = c->o->db;
	c->w.want_metric = c->o->metric;
	c->w.want_op = c->o->op;
	c->w.want_cell = c->o->cell;
	rc = bisect_walk_run(&c->w);
	if (rc >= 0)
		return rc;
	const char *status = c->w.interrupted ? "interrupted" : "failed";
	store_bisect_end(c->w.st, c->w.bi.id, status, NULL, err, sizeof(err));
	if (c->w.interrupted) {
		fprintf(stderr, "schedrig bisect: interrupted by %s; schedrig bisect --resume %lld"
			" continues it (finished steps are kept)\n", strsignal(c->w.signal),
			(long long)c->w.bi.id);
		return 128 + c->w.signal;
	}
	fprintf(stderr, "schedrig bisect: bisection %lld stopped (%s); schedrig bisect --resume"
		" %lld continues it\n", (long long)c->w.bi.id, status, (long long)c->w.bi.id);
	return 1;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = {0};
	struct ctx c = {.o = &o};
	char err[1024];
	int rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	char *db_copy = xstrdup(o.db);
	rc = o.show ? 0 : mkdir_p(dirname(db_copy), err, sizeof(err));
	free(db_copy);
	if (rc || store_open(o.db, o.show, &c.w.st, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	rc = o.show ? show(&c) : execute(&c);
	store_close(c.w.st);
	bisect_walk_free(&c.w);
	return rc;
}
