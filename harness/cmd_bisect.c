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
#include "bisect_samples.h"
#include "bisect_series.h"
#include "bisect_step.h"
#include "bisect_store.h"
#include "commands.h"
#include "config.h"
#include "plan.h"
#include "util.h"

#define DEFAULT_DB "results/schedrig.db"

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
	struct store *st;
	struct bisection_info bi;
	struct bisect_series s;
	struct bisect_search search;
	struct bisect_metric m;
	struct bisect_sample_set ends[2];   /* good, bad */
	char self_exe[PATH_MAX];
	char *dir;
	int iterations_max;                 /* the points' config max */
	bool interrupted;
	int signal;
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
	struct experiment *e = config_parse(c->s.p[0].name, c->s.p[0].config,
					    strlen(c->s.p[0].config), err, sizeof(err));
	struct plan p = {0};
	int rc = e && plan_build(e, &p, err, sizeof(err)) == 0 ? 0 : -1;
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		experiment_free(e);
		return -1;
	}
	c->iterations_max = e->iterations;
	const struct cfg_load *load;
	const char *metric;
	if (!c->bi.load && !c->o->metric && adaptive_primary(e, &load, &metric)) {
		c->bi.load = xstrdup(load->name);
		c->bi.metric = xstrdup(metric);
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

/* The run ids of point k (every attempt that made a run). */
static int point_run_ids(struct ctx *c, int k, int64_t **ids, size_t *n, char *err, size_t errsz)
{
	struct bisect_run_row *rows;
	size_t nr;
	*ids = NULL;
	*n = 0;
	if (bisect_store_runs(c->st, c->bi.id, k, &rows, &nr, err, errsz))
		return -1;
	*ids = xcalloc(nr ? nr : 1, sizeof(**ids));
	for (size_t i = 0; i < nr; i++)
		if (rows[i].run_id)
			(*ids)[(*n)++] = rows[i].run_id;
	bisect_run_rows_free(rows, nr);
	return 0;
}

/* The first failure recorded in run id, or "no complete iteration". */
static char *run_failure(struct ctx *c, int64_t id)
{
	char **msgs, err[256];
	size_t n;
	char *why = NULL;
	if (store_events(c->st, id, "failure", &msgs, &n, err, sizeof(err)) == 0) {
		if (n)
			why = xasprintf("run %lld failed: %s", (long long)id, msgs[0]);
		for (size_t i = 0; i < n; i++)
			free(msgs[i]);
		free(msgs);
	}
	return why ? why : xasprintf("run %lld has no complete iteration", (long long)id);
}

enum outcome { MEASURED, FAILED, INTERRUPTED, ERROR };

/* Run attempt of point k (iterations 0: the config's). A run that did not
 * start is an ERROR (the bisection stops, resumable), not the point's
 * failure. */
static enum outcome attempt_run(struct ctx *c, int k, int attempt, int iterations)
{
	char err[1024];
	struct bisect_step step = {c->self_exe, c->o->db, c->dir, c->bi.id, k, attempt, iterations,
				   c->s.p[k].config};
	struct bisect_step_result r;
	if (bisect_step_run(c->st, &step, &r, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return ERROR;
	}
	if (r.interrupted) {
		c->interrupted = true;
		c->signal = r.signal;
		return INTERRUPTED;
	}
	if (!r.run_id) {
		/* Not the point's fault (another run holds the machine's knobs, a
		 * tool is missing here): stop; --resume runs it again. */
		fprintf(stderr, "schedrig bisect: point %d %s: the run did not start: %s (log %s)\n",
			k, c->s.p[k].name, r.why, r.log);
		return ERROR;
	}
	return MEASURED;
}

/* Measure point k (attempt 1 unless done) and load its samples. */
static enum outcome measure(struct ctx *c, int k, int attempt, int iterations,
			    struct bisect_sample_set *set, char **why)
{
	char err[1024];
	int64_t *ids;
	size_t n;
	*why = NULL;
	enum outcome oc = attempt_run(c, k, attempt, iterations);
	if (oc != MEASURED)
		return oc;
	if (point_run_ids(c, k, &ids, &n, err, sizeof(err)) ||
	    bisect_samples_load(c->st, ids, n, c->s.p[k].name, &c->m, set, err, sizeof(err))) {
		free(ids);
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return ERROR;
	}
	if (set->n < 2) {
		*why = run_failure(c, ids[n - 1]);
		bisect_sample_set_free(set);
		oc = FAILED;
	}
	free(ids);
	return oc;
}

static void print_step(const struct ctx *c, int k, const struct bisect_point_row *r)
{
	char mean[64] = "-";
	if (!isnan(r->mean))
		snprintf(mean, sizeof(mean), "%.4g ± %.2g", r->mean, r->ci95_half);
	printf("point %d %s: %s", k, c->s.p[k].name, r->verdict);
	if (r->n && k == 0)
		printf(" (n %d, %s, p vs the bad end %.4g)", r->n, mean, r->p_bad);
	else if (r->n && k == (int)c->s.n - 1)
		printf(" (n %d, %s, p vs the good end %.4g)", r->n, mean, r->p_good);
	else if (r->n)
		printf(" (n %d, %s, p vs good %.4g, vs bad %.4g)", r->n, mean, r->p_good, r->p_bad);
	if (r->reason)
		printf(": %s", r->reason);
	printf("\n");
	fflush(stdout);
}

/* Store and print the verdict of point k. */
static int record(struct ctx *c, int k, enum bisect_verdict v, const struct bisect_sample_set *set,
		  const struct bisect_class *cl, const char *reason)
{
	char err[1024];
	struct bisect_point_row r = {
		.k = k, .verdict = (char *)bisect_verdict_name(v), .reason = (char *)reason,
		.n = set ? (int)set->n : 0, .mean = set ? set->sum.amean : NAN,
		.ci95_half = set ? set->sum.ci95_half : NAN,
		.p_good = cl ? cl->vs_good.p : NAN, .p_bad = cl ? cl->vs_bad.p : NAN,
		.t_good = cl ? cl->vs_good.statistic : NAN, .t_bad = cl ? cl->vs_bad.statistic : NAN,
	};
	c->search.v[k] = v;
	if (bisect_store_verdict(c->st, c->bi.id, &r, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	print_step(c, k, &r);
	return 0;
}

static void classify(const struct ctx *c, const struct bisect_sample_set *set,
		     struct bisect_class *cl)
{
	bisect_classify(c->bi.alpha, set->better, c->ends[0].v, &c->ends[0].sum, c->ends[1].v,
			&c->ends[1].sum, set->v, &set->sum, cl);
}

/* Measure and decide an inner point k. -1 when the bisection must stop. */
static int step(struct ctx *c, int k)
{
	struct bisect_sample_set set;
	struct bisect_class cl;
	char *why;
	enum outcome oc = measure(c, k, 1, 0, &set, &why);
	if (oc == FAILED) {
		int rc = record(c, k, BISECT_SKIP, NULL, NULL, why);
		free(why);
		return rc;
	}
	if (oc != MEASURED)
		return -1;
	classify(c, &set, &cl);
	if (cl.verdict == BISECT_UNTESTED && set.iterations < (size_t)c->iterations_max) {
		int more = c->iterations_max - (int)set.iterations;
		printf("point %d %s: ambiguous after %zu iteration(s) (p vs good %.4g, vs bad"
		       " %.4g): %d more\n", k, c->s.p[k].name, set.iterations, cl.vs_good.p,
		       cl.vs_bad.p, more);
		bisect_sample_set_free(&set);
		oc = measure(c, k, 2, more, &set, &why);
		if (oc == FAILED) {
			int rc = record(c, k, BISECT_SKIP, NULL, NULL, why);
			free(why);
			return rc;
		}
		if (oc != MEASURED)
			return -1;
		classify(c, &set, &cl);
	}
	char *reason = NULL;
	if (cl.verdict == BISECT_UNTESTED)
		reason = xasprintf("ambiguous after %zu iteration(s) (the config's max): neither"
				   " end's rule holds", set.iterations);
	else if (cl.partial)
		reason = xasprintf("differs from both ends: part of the change may be here");
	int rc = record(c, k, cl.verdict == BISECT_UNTESTED ? BISECT_SKIP : cl.verdict, &set, &cl,
			reason);
	free(reason);
	bisect_sample_set_free(&set);
	return rc;
}

/* The mmtests table of points (bisect_report_mmtests), or why not. */
static void print_table(struct ctx *c, const int *points, size_t n_points)
{
	int64_t *ids = NULL, *one;
	size_t n = 0, n1;
	char err[512];
	struct buf out = {0};
	for (size_t i = 0; i < n_points; i++) {
		if (point_run_ids(c, points[i], &one, &n1, err, sizeof(err)))
			continue;
		ids = xrealloc(ids, (n + n1 + 1) * sizeof(*ids));
		for (size_t j = 0; j < n1; j++)
			ids[n++] = one[j];
		free(one);
	}
	if (bisect_report_mmtests(c->st, c->bi.id, ids, n, &out, err, sizeof(err)))
		fprintf(stderr, "schedrig bisect: %s\n", err);
	else
		printf("\n%s", buf_str(&out));
	buf_free(&out);
	free(ids);
}

/* Measure both ends, decide the metric, refuse a flat series. 0 go on, 1
 * refused (said why), -1 stop (failed, interrupted). */
static int measure_ends(struct ctx *c)
{
	char err[1024];
	int ks[2] = {0, (int)c->s.n - 1};
	for (int e = 0; e < 2; e++)
		if (attempt_run(c, ks[e], 1, 0) != MEASURED)
			return -1;
	int64_t *ids;
	size_t n;
	if (!c->m.metric) {
		if (point_run_ids(c, 0, &ids, &n, err, sizeof(err)))
			return -1;
		int rc = bisect_metric_choose(c->st, ids, n, c->s.p[0].name, c->o->metric, c->o->op,
					      c->o->cell, c->bi.load, c->bi.metric, &c->m, err,
					      sizeof(err));
		free(ids);
		if (rc || bisect_store_choice(c->st, c->bi.id, c->m.load, c->m.metric, c->m.op,
					      c->m.cell, err, sizeof(err))) {
			fprintf(stderr, "schedrig bisect: %s; schedrig bisect --resume %lld --op/--cell"
				" ... continues without measuring the ends again\n", err,
				(long long)c->bi.id);
			return -1;
		}
	}
	for (int e = 0; e < 2; e++) {
		if (point_run_ids(c, ks[e], &ids, &n, err, sizeof(err)) ||
		    bisect_samples_load(c->st, ids, n, c->s.p[ks[e]].name, &c->m, &c->ends[e], err,
					sizeof(err))) {
			fprintf(stderr, "schedrig bisect: %s\n", err);
			return -1;
		}
		if (c->ends[e].n < 2) {
			char *f = run_failure(c, ids[n - 1]);
			fprintf(stderr, "schedrig bisect: the %s end %s has %zu sample(s) of %s:%s: %s\n",
				e ? "bad" : "good", c->s.p[ks[e]].name, c->ends[e].n, c->m.load,
				c->m.metric, f);
			free(f);
			free(ids);
			return -1;
		}
		free(ids);
	}
	struct stats_test t;
	bool differ = bisect_ends_differ(c->bi.alpha, c->ends[0].better, c->ends[0].v,
					 &c->ends[0].sum, c->ends[1].v, &c->ends[1].sum, &t);
	struct bisect_class ends = {.vs_good = t, .vs_bad = {.p = NAN, .statistic = NAN}};
	if (c->search.v[0] == BISECT_UNTESTED && differ) {
		struct bisect_class good = {.vs_good = {.p = NAN, .statistic = NAN}, .vs_bad = t};
		if (record(c, 0, BISECT_GOOD, &c->ends[0], &good, NULL) ||
		    record(c, ks[1], BISECT_BAD, &c->ends[1], &ends, NULL))
			return -1;
	}
	if (differ)
		return 0;
	print_table(c, ks, 2);
	char *result = xasprintf("No regression to bisect: %s %s:%s op %s, %s %.4g vs %s %.4g,"
				 " Welch's t-test p = %.4g >= alpha %g",
				 c->m.cell, c->m.load, c->m.metric, c->m.op, c->s.p[0].name,
				 c->ends[0].sum.amean, c->s.p[ks[1]].name, c->ends[1].sum.amean, t.p,
				 c->bi.alpha);
	printf("\n%s\n", result);
	int rc = bisect_store_end(c->st, c->bi.id, "refused", result, err, sizeof(err));
	free(result);
	return rc ? -1 : 1;
}

static int print_report(struct ctx *c);

static char *result_text(const struct ctx *c)
{
	struct bisect_result r;
	bisect_search_result(&c->search, &r);
	const struct bisect_point *fb = &c->s.p[r.first_bad];
	if (r.exact)
		return xasprintf("First bad point: %s (k %zu of %zu)%s%s", fb->name, r.first_bad,
				 c->s.n - 1, strcmp(fb->label, fb->name) ? ": " : "",
				 strcmp(fb->label, fb->name) ? fb->label : "");
	struct buf skipped = {0};
	for (size_t k = r.last_good + 1; k < r.first_bad; k++)
		buf_printf(&skipped, "%s%s", skipped.len ? ", " : "", c->s.p[k].name);
	char *t = xasprintf("The change is in a range: after %s (k %zu, good) up to %s (k %zu,"
			    " bad); skipped in between: %s", c->s.p[r.last_good].name, r.last_good,
			    c->s.p[r.first_bad].name, r.first_bad, buf_str(&skipped));
	buf_free(&skipped);
	return t;
}

static int finish(struct ctx *c)
{
	char err[1024];
	char *result = result_text(c);
	int rc = bisect_store_end(c->st, c->bi.id, "complete", result, err, sizeof(err));
	free(result);
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	free(c->bi.load);
	free(c->bi.metric);
	free(c->bi.op);
	c->bi.load = xstrdup(c->m.load);
	c->bi.metric = xstrdup(c->m.metric);
	c->bi.op = xstrdup(c->m.op);
	printf("\n");
	return print_report(c);
}

/* Start a new bisection from the config, or load one to resume. */
static int setup(struct ctx *c)
{
	char err[4096];
	if (c->o->resume) {
		if (bisect_store_get(c->st, c->o->id, &c->bi, &c->s, err, sizeof(err))) {
			fprintf(stderr, "schedrig bisect: %s\n", err);
			return 1;
		}
		if (c->bi.metric && c->bi.op) {
			c->m = (struct bisect_metric){xstrdup(c->bi.load), xstrdup(c->bi.metric),
						      xstrdup(c->bi.op), xstrdup(c->bi.cell)};
		} else if (!c->o->metric) {
			free(c->bi.load);
			free(c->bi.metric);
			c->bi.load = c->bi.metric = NULL;
		}
		return check_choice(c) ? EXIT_USAGE : 0;
	}
	struct experiment *e = config_load(c->o->config, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	int rc = bisect_series_build(e->path, e->text, c->o->good, c->o->bad, &c->s, err,
				     sizeof(err));
	if (rc == 0) {
		c->bi.config_path = xstrdup(e->path);
		c->bi.config_text = xstrdup(e->text);
	}
	experiment_free(e);
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return EXIT_USAGE;
	}
	c->bi.good = xstrdup(c->o->good);
	c->bi.bad = xstrdup(c->o->bad);
	c->bi.alpha = c->o->alpha;
	if (check_choice(c))
		return EXIT_USAGE;
	if (bisect_store_begin(c->st, &c->bi, &c->s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return 0;
}

/* The verdicts stored (resume) into the search. */
static int restore_verdicts(struct ctx *c)
{
	struct bisect_point_row *rows;
	size_t n;
	char err[512];
	if (bisect_store_points(c->st, c->bi.id, &rows, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	for (size_t k = 0; k < n && k < c->search.n; k++)
		if (rows[k].verdict)
			c->search.v[k] = (enum bisect_verdict)bisect_verdict_parse(rows[k].verdict);
	bisect_point_rows_free(rows, n);
	return 0;
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
		c->dir = xasprintf("%s/bisect/%lld", real, (long long)c->bi.id);
		rc = mkdir_p(c->dir, err, sizeof(err));
	}
	if (rc)
		fprintf(stderr, "schedrig bisect: %s\n", err);
	return rc;
}

static int bisect_loop(struct ctx *c)
{
	char err[512];
	printf("bisection %lld: %zu points (%s) from %s (good) to %s (bad)\n", (long long)c->bi.id,
	       c->s.n, c->bi.kind ? c->bi.kind : c->s.kind, c->s.p[0].name,
	       c->s.p[c->s.n - 1].name);
	int rc = measure_ends(c);
	if (rc)
		return rc > 0 ? 1 : -1;
	printf("metric %s:%s op %s cell %s: %s %.4g vs %s %.4g\n", c->m.load, c->m.metric,
	       c->m.op, c->m.cell, c->s.p[0].name, c->ends[0].sum.amean, c->s.p[c->s.n - 1].name,
	       c->ends[1].sum.amean);
	char *rule = bisect_rule_describe(c->bi.alpha);
	printf("%s\n", rule);
	free(rule);
	long k;
	while ((k = bisect_search_next(&c->search)) >= 0)
		if (step(c, (int)k))
			return -1;
	(void)err;
	return finish(c);
}

/* The report of the bisection (bisect_report_text) and its mmtests table
 * of good end / last good / first bad / bad end. */
static int print_report(struct ctx *c)
{
	char err[1024];
	struct buf out = {0};
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = bisect_report_text(c->st, c->bi.id, &out, err, sizeof(err));
	if (rc == 0)
		fputs(buf_str(&out), stdout);
	buf_free(&out);
	if (rc == 0 && c->bi.metric && c->bi.op &&
	    (bisect_report_runs(c->st, c->bi.id, &ids, &n, err, sizeof(err)) ||
	     (n && bisect_report_mmtests(c->st, c->bi.id, ids, n, &out, err, sizeof(err)))))
		rc = -1;
	else if (rc == 0)
		printf("\n%s", buf_str(&out));
	buf_free(&out);
	free(ids);
	if (rc)
		fprintf(stderr, "schedrig bisect: %s\n", err);
	return rc ? 1 : 0;
}

static int show(struct ctx *c)
{
	char err[1024];
	if (bisect_store_get(c->st, c->o->id, &c->bi, &c->s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return print_report(c);
}

static int execute(struct ctx *c)
{
	char err[1024];
	int rc = setup(c);
	if (rc)
		return rc;
	if (c->o->resume && strcmp(c->bi.status, "running") && strcmp(c->bi.status, "interrupted")) {
		printf("bisection %lld is %s: nothing to resume\n", (long long)c->bi.id, c->bi.status);
		return 0;
	}
	bisect_search_init(&c->search, c->s.n);
	if (restore_verdicts(c) || bisect_dir(c))
		return 1;
	if (c->o->resume && bisect_store_end(c->st, c->bi.id, "running", NULL, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	ssize_t len = readlink("/proc/self/exe", c->self_exe, sizeof(c->self_exe) - 1);
	if (len <= 0) {
		fprintf(stderr, "schedrig bisect: cannot find its own executable: %s\n",
			strerror(errno));
		return 1;
	}
	c->self_exe[len] = '\0';
	rc = bisect_loop(c);
	if (rc >= 0)
		return rc;
	const char *status = c->interrupted ? "interrupted" : "failed";
	bisect_store_end(c->st, c->bi.id, status, NULL, err, sizeof(err));
	if (c->interrupted) {
		fprintf(stderr, "schedrig bisect: interrupted by %s; schedrig bisect --resume %lld"
			" continues it (finished steps are kept)\n", strsignal(c->signal),
			(long long)c->bi.id);
		return 128 + c->signal;
	}
	fprintf(stderr, "schedrig bisect: bisection %lld stopped (%s); schedrig bisect --resume"
		" %lld continues it\n", (long long)c->bi.id, status, (long long)c->bi.id);
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
	if (rc || store_open(o.db, o.show, &c.st, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	rc = o.show ? show(&c) : execute(&c);
	store_close(c.st);
	bisection_info_free(&c.bi);
	bisect_series_free(&c.s);
	bisect_search_free(&c.search);
	bisect_metric_free(&c.m);
	bisect_sample_set_free(&c.ends[0]);
	bisect_sample_set_free(&c.ends[1]);
	free(c.dir);
	return rc;
}
