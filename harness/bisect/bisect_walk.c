/* Walking a bisection (bisect_walk.h): the engine's measurer and
 * recorder over real runs and the results database. */
#include "bisect_walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_engine.h"
#include "bisect_runs.h"
#include "bisect_report.h"
#include "bisect_step.h"
#include "util.h"

static bool is_end(const struct bisect_walk *c, size_t k)
{
	return k == 0 || k == c->s.n - 1;
}

/* Are the engine's decisions still the stored ones (no output for them)? */
static bool replaying(const struct bisect_walk *c)
{
	return c->points_seen < c->stored_points ||
	       (c->stored_checks && c->checks_seen < c->stored_checks);
}

/* Run attempt of point k (phase, iterations 0: the config's). A run that
 * did not start is the bisection's stop (resumable), not the point's
 * failure. 0, or -1 after a message. */
static int attempt_run(struct bisect_walk *c, size_t k, int attempt, enum bisect_phase phase,
		       int iterations)
{
	char err[1024];
	struct bisect_step step = {c->self_exe, c->db, c->dir, c->bi.id, (int)k, attempt, iterations,
				   bisect_phase_name(phase), c->s.p[k].config};
	struct bisect_step_result r;
	if (bisect_step_run(c->st, &step, &r, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	if (r.interrupted) {
		c->interrupted = true;
		c->signal = r.signal;
		return -1;
	}
	if (!r.run_id) {
		/* Not the point's fault (another run holds the machine's knobs, a
		 * tool is missing here): stop; --resume runs it again. */
		free(c->why);
		c->why = xasprintf("point %zu %s: the run did not start: %s (log %s)", k,
				   c->s.p[k].name, r.why, r.log);
		fprintf(stderr, "schedrig bisect: %s\n", c->why);
		return -1;
	}
	return 0;
}

/* The bisection's failure, said and kept as c->why. */
static int fail(struct bisect_walk *c, char *why)
{
	free(c->why);
	c->why = why;
	fprintf(stderr, "schedrig bisect: %s\n", c->why);
	return -1;
}

/* End k has n samples of the metric, too few: the bisection's failure, with
 * the first failure of its newest run run_id. */
static int end_failed(struct bisect_walk *c, size_t k, size_t n, const char *metric, int64_t run_id)
{
	char *f = bisect_run_failure(c->st, run_id);
	int rc = fail(c, xasprintf("the %s end %s has %zu sample(s) of %s: %s", k ? "bad" : "good",
				   c->s.p[k].name, n, metric, f));
	free(f);
	return rc;
}

/* Decide the metric from the good end's walk runs (bisect_metric_choose)
 * and store it. A good end whose run failed without a sample of the
 * metric is the bisection's failure; a choice the samples leave open is
 * said with the options that decide it. 0, or -1 after a message. */
static int choose_metric(struct bisect_walk *c, const struct bisect_point_runs *r)
{
	char err[1024];
	int64_t *ids = xcalloc(r->n ? r->n : 1, sizeof(*ids));
	size_t n = bisect_point_run_ids(r, BISECT_PHASE_WALK, INT_MAX, ids);
	int rc = bisect_metric_choose(c->st, ids, n, c->s.p[0].name, c->want_metric, c->want_op,
				      c->want_cell, c->bi.load, c->bi.metric, &c->m, err,
				      sizeof(err));
	if (rc == -2 && n && !bisect_run_measured(c->st, ids[n - 1], c->s.p[0].name, &c->m)) {
		char *metric = c->want_metric ? xstrdup(c->want_metric) :
				xasprintf("%s:%s", c->bi.load, c->bi.metric);
		end_failed(c, 0, 0, metric, ids[n - 1]);
		free(metric);
	} else if (rc) {
		fprintf(stderr, "schedrig bisect: %s; schedrig bisect --resume %lld --op/--cell"
			" ... continues without measuring the good end again\n", err,
			(long long)c->bi.id);
	} else if (store_bisect_choice(c->st, c->bi.id, c->m.load, c->m.metric, c->m.op,
				       c->m.cell, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		rc = -1;
	}
	free(ids);
	return rc ? -1 : 0;
}

/* What a measurement that left too few samples means: an inner point's
 * first one its skip (1, *why), anything else the bisection's stop. */
static int too_few(struct bisect_walk *c, size_t k, enum bisect_phase ph, int nth,
		   const struct bisect_sample_set *set, int64_t last_run, char **why)
{
	if (ph == BISECT_PHASE_CONFIRM) {
		char *f = bisect_run_failure(c->st, last_run);
		int rc = fail(c, xasprintf("round %d of the confirm, point %zu %s: %s; schedrig bisect"
					   " --resume %lld measures it again", nth, k,
					   c->s.p[k].name, f, (long long)c->bi.id));
		free(f);
		return rc;
	}
	if (is_end(c, k)) {
		char *metric = xasprintf("%s:%s", c->m.load, c->m.metric);
		int rc = end_failed(c, k, set->n, metric, last_run);
		free(metric);
		return rc;
	}
	*why = bisect_run_failure(c->st, last_run);
	return 1;
}

/* ops.measure: the attempt that serves the measurement, run unless stored,
 * and the point's samples of that phase so far. */
static int walk_measure(void *ctx, size_t k, enum bisect_phase ph, int nth, int more,
			struct bisect_sample_set *set, char **why)
{
	struct bisect_walk *c = ctx;
	char err[1024];
	struct bisect_point_runs r;
	if (bisect_point_runs_load(c->st, c->bi.id, (int)k, &r, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	bool retry = ph == BISECT_PHASE_CONFIRM || (is_end(c, k) && nth == 1);
	int prev = ph == BISECT_PHASE_WALK && nth == 1 ? 0 : c->last_attempt[k];
	int64_t failed;
	int a = bisect_point_next_attempt(c->st, &r, prev, retry, c->s.p[k].name, &c->m, &failed);
	if (failed)
		printf("point %zu %s: run %lld failed: measuring it again\n", k, c->s.p[k].name,
		       (long long)failed);
	bisect_point_runs_free(&r);
	c->last_attempt[k] = a;
	int iterations = ph == BISECT_PHASE_CONFIRM ? 1 : nth == 1 ? c->rule.n_min : more;
	if (attempt_run(c, k, a, ph, iterations) ||
	    bisect_point_runs_load(c->st, c->bi.id, (int)k, &r, err, sizeof(err)))
		return -1;
	int rc = !c->m.metric ? choose_metric(c, &r) : 0;
	int64_t last_run = 0;
	if (rc == 0 && bisect_point_samples(c->st, &r, ph, a, c->s.p[k].name, &c->m, set, &last_run,
					    err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		rc = -1;
	}
	bisect_point_runs_free(&r);
	if (rc == 0 && set->n)
		c->better = (int)set->better;
	size_t need = ph == BISECT_PHASE_CONFIRM ? (size_t)nth : 2;
	if (rc == 0 && set->iterations < need)
		rc = too_few(c, k, ph, nth, set, last_run, why);
	return rc;
}

/* ops.min_effect_pct: --min-effect-pct, or the metric's default (stored). */
static double walk_min_effect(void *ctx, const struct bisect_sample_set *good)
{
	struct bisect_walk *c = ctx;
	char err[512];
	(void)good;
	if (isnan(c->bi.min_effect_pct)) {
		c->bi.min_effect_pct = bisect_default_min_effect_pct(c->m.metric, c->m.op);
		if (store_bisect_min_effect(c->st, c->bi.id, c->bi.min_effect_pct, err, sizeof(err)))
			fprintf(stderr, "schedrig bisect: %s\n", err);
	}
	c->rule.min_effect_pct = c->bi.min_effect_pct;
	return c->bi.min_effect_pct;
}

static void walk_say(void *ctx, const char *line)
{
	if (!replaying(ctx))
		printf("%s\n", line);
}

static void print_step(const struct bisect_walk *c, const struct stored_bisect_point *r)
{
	char mean[96];
	bisect_fmt_mean(mean, sizeof(mean), r->mean, r->ci95_half);
	printf("point %d %s: %s", r->k, c->s.p[r->k].name, r->verdict);
	if (r->n && r->k == 0)
		printf(" (n %d, %s, p vs the bad end %.4g, alpha %.4g)", r->n, mean, r->p_bad,
		       r->alpha);
	else if (r->n && r->k == (int)c->s.n - 1)
		printf(" (n %d, %s, p vs the good end %.4g, alpha %.4g)", r->n, mean, r->p_good,
		       r->alpha);
	else if (r->n)
		printf(" (n %d, %s, p vs good %.4g, vs bad %.4g, alpha %.4g)", r->n, mean, r->p_good,
		       r->p_bad, r->alpha);
	if (r->reason)
		printf(": %s", r->reason);
	printf("\n");
	fflush(stdout);
}

/* The metric and the rule, once both ends are decided (ev: the bad end). */
static void print_rule(struct bisect_walk *c, const struct bisect_point_event *ev)
{
	printf("metric %s:%s op %s cell %s: %s %.4g vs %s %.4g (%+.3g %%), minimum effect %g %%\n",
	       c->m.load, c->m.metric, c->m.op, c->m.cell, c->s.p[0].name, c->good_mean,
	       c->s.p[ev->k].name, ev->set->sum.amean, ev->vs_good.effect_pct,
	       c->rule.min_effect_pct);
	char *rule = bisect_rule_describe(&c->rule, (int)ev->set->better);
	printf("%s\n", rule);
	free(rule);
	fflush(stdout);
}

/* ops.point: store and print the verdict (unless it is stored already). */
static int walk_point(void *ctx, const struct bisect_point_event *ev)
{
	struct bisect_walk *c = ctx;
	char err[1024];
	bool stored = c->points_seen++ < c->stored_points;
	struct stored_bisect_point r = bisect_point_row(ev);
	if (!stored && store_bisect_verdict(c->st, c->bi.id, &r, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	if (!stored)
		print_step(c, &r);
	if (ev->k == 0)
		c->good_mean = ev->set->sum.amean;
	else if (ev->k == c->s.n - 1 && ev->verdict == BISECT_BAD)
		print_rule(c, ev);
	return 0;
}

/* ops.check: store and print it (unless stored already). */
static int walk_check(void *ctx, const struct bisect_check *ch)
{
	struct bisect_walk *c = ctx;
	char err[1024];
	if (c->checks_seen++ < c->stored_checks)
		return 0;
	struct stored_bisect_check row = bisect_check_row(ch);
	if (store_bisect_check_add(c->st, c->bi.id, &row, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	printf("%s %s -> %s: %s (%+.3g %%, p %.4g, alpha %.4g, %d round(s))\n", ch->what,
	       c->s.p[ch->k_a].name, c->s.p[ch->k_b].name, ch->outcome, ch->d.effect_pct,
	       ch->d.t.p, ch->d.alpha, ch->rounds);
	fflush(stdout);
	return 0;
}

/* The table of the ends (bisect_report_table), or why not. */
static void print_table(struct bisect_walk *c)
{
	char err[512];
	struct buf out = {0};
	if (bisect_report_table(c->st, c->db, c->bi.id, &out, err, sizeof(err)))
		fprintf(stderr, "schedrig bisect: %s\n", err);
	else
		printf("\n%s", buf_str(&out));
	buf_free(&out);
}

/* ops.result: stored, then printed with the report (refused: the table of
 * the ends and the line). */
static int walk_result(void *ctx, const struct bisect_outcome *o)
{
	struct bisect_walk *c = ctx;
	char err[1024];
	c->blamed = o->blamed >= 0;
	if (store_bisect_end(c->st, c->bi.id, o->status, o->text, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	if (!strcmp(o->status, "refused")) {
		/* The rule the ends were tested by, as --show states it. */
		char *rule = bisect_rule_describe(&c->rule, c->better);
		print_table(c);
		printf("\n%s\n\n%s\n", rule, o->text);
		free(rule);
		return 0;
	}
	printf("\n");
	if (bisect_report_print(c->st, c->db, c->bi.id, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	return 0;
}

int bisect_walk_run(struct bisect_walk *c)
{
	printf("bisection %lld: %zu points (%s) from %s (good) to %s (bad)\n", (long long)c->bi.id,
	       c->s.n, c->bi.kind ? c->bi.kind : c->s.kind, c->s.p[0].name,
	       c->s.p[c->s.n - 1].name);
	free(c->last_attempt);
	c->last_attempt = xcalloc(c->s.n, sizeof(*c->last_attempt));
	c->rule.min_effect_pct = c->bi.min_effect_pct;
	c->better = -1;
	struct bisect_ops ops = {c, walk_measure, walk_min_effect, walk_say, walk_point, walk_check,
				 walk_result};
	bisect_search_free(&c->search);
	bisect_search_init(&c->search, c->s.n);
	int rc = bisect_engine_run(&c->rule, &c->s, &c->m, &ops, &c->search);
	if (rc < 0)
		return -1;
	return rc == 0 && c->blamed ? 0 : 1;
}

void bisect_walk_free(struct bisect_walk *w)
{
	store_bisection_free(&w->bi);
	bisect_series_free(&w->s);
	bisect_search_free(&w->search);
	bisect_metric_free(&w->m);
	free(w->last_attempt);
	free(w->dir);
	free(w->why);
	free(w->db_path);
	w->last_attempt = NULL;
	w->why = w->dir = w->db_path = NULL;
}
