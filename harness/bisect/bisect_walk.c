/* Walking a bisection (bisect_walk.h): measure the ends, step through the
 * series, record and print each verdict and the result. */
#include "bisect_walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_report.h"
#include "bisect_step.h"
#include "util.h"

/* The run ids of point k (every attempt that made a run). */
static int point_run_ids(struct bisect_walk *c, int k, int64_t **ids, size_t *n, char *err, size_t errsz)
{
	struct stored_bisect_run *rows;
	size_t nr;
	*ids = NULL;
	*n = 0;
	if (store_bisect_runs(c->st, c->bi.id, k, &rows, &nr, err, errsz))
		return -1;
	*ids = xcalloc(nr ? nr : 1, sizeof(**ids));
	for (size_t i = 0; i < nr; i++)
		if (rows[i].run_id)
			(*ids)[(*n)++] = rows[i].run_id;
	store_bisect_run_rows_free(rows, nr);
	return 0;
}

/* Did run id fail? */
static bool run_failed(struct bisect_walk *c, int64_t id)
{
	struct run_owner ow;
	char err[512];
	return store_run_owner(c->st, id, &ow, err, sizeof(err)) == 0 &&
	       !strcmp(ow.status, "failed");
}

enum outcome { MEASURED, FAILED, INTERRUPTED, ERROR };

/* Run attempt of point k (iterations 0: the config's). A run that did not
 * start is an ERROR (the bisection stops, resumable), not the point's
 * failure. */
static enum outcome attempt_run(struct bisect_walk *c, int k, int attempt, int iterations)
{
	char err[1024];
	struct bisect_step step = {c->self_exe, c->db, c->dir, c->bi.id, k, attempt, iterations,
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
		free(c->why);
		c->why = xasprintf("point %d %s: the run did not start: %s (log %s)", k,
				   c->s.p[k].name, r.why, r.log);
		fprintf(stderr, "schedrig bisect: %s\n", c->why);
		return ERROR;
	}
	return MEASURED;
}

/* Measure point k (attempt 1 unless done) and load its samples. */
static enum outcome measure(struct bisect_walk *c, int k, int attempt, int iterations,
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
		*why = bisect_run_failure(c->st, ids[n - 1]);
		bisect_sample_set_free(set);
		oc = FAILED;
	}
	free(ids);
	return oc;
}

static void print_step(const struct bisect_walk *c, int k, const struct stored_bisect_point *r)
{
	char mean[96];
	bisect_fmt_mean(mean, sizeof(mean), r->mean, r->ci95_half);
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
static int record(struct bisect_walk *c, int k, enum bisect_verdict v, const struct bisect_sample_set *set,
		  const struct bisect_class *cl, const char *reason)
{
	char err[1024];
	struct stored_bisect_point r = {
		.k = k, .verdict = (char *)bisect_verdict_name(v), .reason = (char *)reason,
		.n = set ? (int)set->n : 0, .mean = set ? set->sum.amean : NAN,
		.ci95_half = set ? set->sum.ci95_half : NAN,
		.p_good = cl ? cl->vs_good.p : NAN, .p_bad = cl ? cl->vs_bad.p : NAN,
		.t_good = cl ? cl->vs_good.statistic : NAN, .t_bad = cl ? cl->vs_bad.statistic : NAN,
	};
	c->search.v[k] = v;
	if (store_bisect_verdict(c->st, c->bi.id, &r, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	print_step(c, k, &r);
	return 0;
}

static void classify(const struct bisect_walk *c, const struct bisect_sample_set *set,
		     struct bisect_class *cl)
{
	bisect_classify(c->bi.alpha, set->better, c->ends[0].v, &c->ends[0].sum, c->ends[1].v,
			&c->ends[1].sum, set->v, &set->sum, cl);
}

/* Measure attempt of point k (iterations 0: the config's) and classify it
 * against both ends into set and cl (MEASURED). A failed run is the
 * point's skip, recorded here (FAILED); ERROR when that cannot be stored. */
static enum outcome measure_classify(struct bisect_walk *c, int k, int attempt, int iterations,
				     struct bisect_sample_set *set, struct bisect_class *cl)
{
	char *why;
	enum outcome oc = measure(c, k, attempt, iterations, set, &why);
	if (oc == FAILED) {
		int rc = record(c, k, BISECT_SKIP, NULL, NULL, why);
		free(why);
		return rc ? ERROR : FAILED;
	}
	if (oc == MEASURED)
		classify(c, set, cl);
	return oc;
}

/* Measure and decide an inner point k. -1 when the bisection must stop. */
static int step(struct bisect_walk *c, int k)
{
	struct bisect_sample_set set;
	struct bisect_class cl;
	enum outcome oc = measure_classify(c, k, 1, 0, &set, &cl);
	if (oc != MEASURED)
		return oc == FAILED ? 0 : -1;
	if (cl.verdict == BISECT_UNTESTED && set.iterations < (size_t)c->iterations_max) {
		int more = c->iterations_max - (int)set.iterations;
		printf("point %d %s: ambiguous after %zu iteration(s) (p vs good %.4g, vs bad"
		       " %.4g): %d more\n", k, c->s.p[k].name, set.iterations, cl.vs_good.p,
		       cl.vs_bad.p, more);
		bisect_sample_set_free(&set);
		oc = measure_classify(c, k, 2, more, &set, &cl);
		if (oc != MEASURED)
			return oc == FAILED ? 0 : -1;
	}
	char *reason = bisect_class_reason(&cl, set.iterations);
	int rc = record(c, k, cl.verdict == BISECT_UNTESTED ? BISECT_SKIP : cl.verdict, &set, &cl,
			reason);
	free(reason);
	bisect_sample_set_free(&set);
	return rc;
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

/* Does the run of an end leave it measured: not failed, or (the metric
 * decided) with 2 samples or more? */
static bool end_measured(struct bisect_walk *c, int k, int64_t run_id)
{
	char err[512];
	if (!run_failed(c, run_id))
		return true;
	if (!c->m.metric)
		return false;
	int64_t *ids;
	size_t n;
	struct bisect_sample_set set = {0};
	bool enough = point_run_ids(c, k, &ids, &n, err, sizeof(err)) == 0 &&
		      bisect_samples_load(c->st, ids, n, c->s.p[k].name, &c->m, &set, err,
					  sizeof(err)) == 0 && set.n >= 2;
	free(ids);
	bisect_sample_set_free(&set);
	return enough;
}

/* The attempt that measures end k: its newest (1 when none), or a new one
 * when that one's run failed without measuring the end (bisect --resume of
 * a bisection stopped by it measures the end again). 0, or -1 after a
 * message. */
static int end_attempt(struct bisect_walk *c, int k, int *attempt)
{
	struct stored_bisect_run *rows;
	size_t n;
	char err[1024];
	if (store_bisect_runs(c->st, c->bi.id, k, &rows, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	int64_t newest = 0;
	*attempt = 1;
	for (size_t i = 0; i < n; i++)
		if (rows[i].attempt >= *attempt) {
			*attempt = rows[i].attempt;
			newest = rows[i].run_id;
		}
	store_bisect_run_rows_free(rows, n);
	if (newest && !end_measured(c, k, newest)) {
		(*attempt)++;
		printf("point %d %s: run %lld failed: measuring it again\n", k, c->s.p[k].name,
		       (long long)newest);
	}
	return 0;
}

/* End e (0 good, 1 bad) has n samples of metric (LOAD:METRIC), too few:
 * the bisection's failure (c->why, said), with the first failure of its
 * newest run run_id. */
static void end_failed(struct bisect_walk *c, int e, size_t n, const char *metric, int64_t run_id)
{
	char *f = bisect_run_failure(c->st, run_id);
	free(c->why);
	c->why = xasprintf("the %s end %s has %zu sample(s) of %s: %s", e ? "bad" : "good",
			   c->s.p[e ? c->s.n - 1 : 0].name, n, metric, f);
	fprintf(stderr, "schedrig bisect: %s\n", c->why);
	free(f);
}

/* Decide the metric from the good end's samples (bisect_metric_choose) and
 * store it. A good end whose run failed without a sample of the metric is
 * the bisection's failure (end_failed); a choice the samples leave open is
 * said with the options that decide it. 0, or -1 after a message. */
static int choose_metric(struct bisect_walk *c)
{
	char err[1024];
	int64_t *ids;
	size_t n;
	if (point_run_ids(c, 0, &ids, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return -1;
	}
	int rc = bisect_metric_choose(c->st, ids, n, c->s.p[0].name, c->want_metric, c->want_op,
				      c->want_cell, c->bi.load, c->bi.metric, &c->m, err,
				      sizeof(err));
	if (rc == -2 && n && run_failed(c, ids[n - 1])) {
		char *metric = c->want_metric ? xstrdup(c->want_metric) :
				xasprintf("%s:%s", c->bi.load, c->bi.metric);
		end_failed(c, 0, 0, metric, ids[n - 1]);
		free(metric);
	} else if (rc) {
		fprintf(stderr, "schedrig bisect: %s; schedrig bisect --resume %lld --op/--cell"
			" ... continues without measuring the ends again\n", err,
			(long long)c->bi.id);
	} else if (store_bisect_choice(c->st, c->bi.id, c->m.load, c->m.metric, c->m.op,
				       c->m.cell, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		rc = -1;
	}
	free(ids);
	return rc ? -1 : 0;
}

/* Measure both ends, decide the metric, refuse a flat series. 0 go on, 1
 * refused (said why), -1 stop (failed, interrupted). */
static int measure_ends(struct bisect_walk *c)
{
	char err[1024];
	int ks[2] = {0, (int)c->s.n - 1}, attempt;
	for (int e = 0; e < 2; e++)
		if (end_attempt(c, ks[e], &attempt) || attempt_run(c, ks[e], attempt, 0) != MEASURED)
			return -1;
	int64_t *ids;
	size_t n;
	if (!c->m.metric && choose_metric(c))
		return -1;
	for (int e = 0; e < 2; e++) {
		if (point_run_ids(c, ks[e], &ids, &n, err, sizeof(err)) ||
		    bisect_samples_load(c->st, ids, n, c->s.p[ks[e]].name, &c->m, &c->ends[e], err,
					sizeof(err))) {
			fprintf(stderr, "schedrig bisect: %s\n", err);
			free(ids);
			return -1;
		}
		if (c->ends[e].n < 2) {
			char *metric = xasprintf("%s:%s", c->m.load, c->m.metric);
			end_failed(c, e, c->ends[e].n, metric, ids[n - 1]);
			free(metric);
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
	print_table(c);
	char *result = bisect_report_no_regression(&c->m, c->s.p[0].name, &c->ends[0],
						   c->s.p[ks[1]].name, &c->ends[1], t.p, c->bi.alpha);
	printf("\n%s\n", result);
	int rc = store_bisect_end(c->st, c->bi.id, "refused", result, err, sizeof(err));
	free(result);
	return rc ? -1 : 1;
}

char *bisect_result_text(const struct bisect_search *search, const struct bisect_series *s)
{
	struct bisect_result r;
	bisect_search_result(search, &r);
	const struct bisect_point *fb = &s->p[r.first_bad];
	if (r.exact)
		return xasprintf("First bad point: %s (k %zu of %zu)%s%s", fb->name, r.first_bad,
				 s->n - 1, strcmp(fb->label, fb->name) ? ": " : "",
				 strcmp(fb->label, fb->name) ? fb->label : "");
	struct buf skipped = {0};
	for (size_t k = r.last_good + 1; k < r.first_bad; k++)
		buf_printf(&skipped, "%s%s", skipped.len ? ", " : "", s->p[k].name);
	char *t = xasprintf("The change is in a range: after %s (k %zu, good) up to %s (k %zu,"
			    " bad); skipped in between: %s", s->p[r.last_good].name, r.last_good,
			    s->p[r.first_bad].name, r.first_bad, buf_str(&skipped));
	buf_free(&skipped);
	return t;
}

static int finish(struct bisect_walk *c)
{
	char err[1024];
	char *result = bisect_result_text(&c->search, &c->s);
	int rc = store_bisect_end(c->st, c->bi.id, "complete", result, err, sizeof(err));
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
	if (bisect_report_print(c->st, c->db, c->bi.id, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return 0;
}

int bisect_walk_run(struct bisect_walk *c)
{
	printf("bisection %lld: %zu points (%s) from %s (good) to %s (bad)\n", (long long)c->bi.id,
	       c->s.n, c->bi.kind ? c->bi.kind : c->s.kind, c->s.p[0].name,
	       c->s.p[c->s.n - 1].name);
	int rc = measure_ends(c);
	if (rc)
		return rc > 0 ? 1 : -1;
	printf("metric %s:%s op %s cell %s: %s %.4g vs %s %.4g\n", c->m.load, c->m.metric,
	       c->m.op, c->m.cell, c->s.p[0].name, c->ends[0].sum.amean, c->s.p[c->s.n - 1].name,
	       c->ends[1].sum.amean);
	char *rule = bisect_rule_describe(c->bi.alpha, (int)c->ends[0].better);
	printf("%s\n", rule);
	free(rule);
	long k;
	while ((k = bisect_search_next(&c->search)) >= 0)
		if (step(c, (int)k))
			return -1;
	return finish(c);
}


void bisect_walk_free(struct bisect_walk *w)
{
	store_bisection_free(&w->bi);
	bisect_series_free(&w->s);
	bisect_search_free(&w->search);
	bisect_metric_free(&w->m);
	bisect_sample_set_free(&w->ends[0]);
	bisect_sample_set_free(&w->ends[1]);
	free(w->dir);
	free(w->why);
	w->why = NULL;
	free(w->db_path);
	w->dir = w->db_path = NULL;
}
