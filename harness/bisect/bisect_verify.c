/* A stored bisection checked before it is resumed or shown
 * (bisect_verify.h). */
#include "bisect_verify.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect_engine.h"
#include "bisect_git.h"
#include "bisect_runs.h"
#include "bisect_rule.h"
#include "bisect_samples.h"
#include "config.h"
#include "util.h"

int bisect_verify_series(const struct stored_bisection *bi, const struct bisect_series *stored,
			 struct bisect_series *fresh, char *err, size_t errsz)
{
	char why[4096];
	char *pinned = NULL;
	if (bi->kind && !strcmp(bi->kind, "commits") && stored->n &&
	    !(pinned = bisect_git_pinned_config(bi->config_path, bi->config_text, stored->p[0].config,
						why, sizeof(why))))
		return err_printf(err, errsz, "bisection %lld: %s", (long long)bi->id, why);
	int rc = bisect_series_build(bi->config_path, pinned ? pinned : bi->config_text, bi->good,
				     bi->bad, fresh, why, sizeof(why));
	free(pinned);
	if (rc)
		return err_printf(err, errsz, "bisection %lld: its config no longer makes its series:"
				  " %s", (long long)bi->id, why);
	if (fresh->n != stored->n)
		return err_printf(err, errsz, "bisection %lld has %zu stored point(s) (k 0..%zu), but"
				  " its config makes %zu (k 0..%zu)", (long long)bi->id, stored->n,
				  stored->n - 1, fresh->n, fresh->n - 1);
	for (size_t k = 0; k < fresh->n; k++) {
		const struct bisect_point *a = &stored->p[k], *b = &fresh->p[k];
		const char *what = strcmp(a->name, b->name) ? "name"
				   : strcmp(a->label, b->label) ? "label"
				   : strcmp(a->config, b->config) ? "config" : NULL;
		if (what)
			return err_printf(err, errsz, "bisection %lld: point %zu %s: its stored %s is"
					  " not the one the bisection's config makes; not"
					  " measuring it", (long long)bi->id, k, b->name, what);
	}
	return 0;
}

/* A decision the replay made: a point's row, or a check's (strings
 * owned). */
struct replayed_point {
	struct stored_bisect_point row;
	bool decided;
};

/* Everything the replay keeps. */
struct verify {
	struct store *st;
	const struct stored_bisection *bi;
	const struct bisect_series *s;
	struct bisect_metric m;
	struct bisect_rule rule;
	int *last_attempt;
	struct replayed_point *points;      /* by k */
	long *order;                        /* the points in the order decided */
	size_t n_order;
	struct stored_bisect_check *checks; /* in the order made */
	size_t n_checks;
	char *result, *status;              /* NULL: not reached */
	char *err;                          /* the replay's own failure (a run's config) */
	size_t errsz;
	bool failed;
};

static bool is_end(const struct verify *v, size_t k)
{
	return k == 0 || k == v->s->n - 1;
}

/* The runs of phase ph up to attempt upto of point k ran its config. */
static int check_configs(struct verify *v, size_t k, const struct bisect_point_runs *r,
			 enum bisect_phase ph, int upto)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct stored_bisect_run *row = &r->rows[i];
		if (!row->run_id || row->attempt > upto || strcmp(row->phase, bisect_phase_name(ph)))
			continue;
		char *path = NULL, *text = NULL;
		int iterations, rc = 0;
		if (store_run_config(v->st, row->run_id, &path, &text, &iterations, v->err, v->errsz))
			rc = -1;
		else if (strcmp(path, row->config_path) || strcmp(text, v->s->p[k].config))
			rc = err_printf(v->err, v->errsz, "bisection %lld: point %zu %s: run %lld"
					" linked to it did not run the point's config",
					(long long)v->bi->id, k, v->s->p[k].name,
					(long long)row->run_id);
		free(path);
		free(text);
		if (rc)
			return -1;
	}
	return 0;
}

/* Did run id end (complete or failed)? */
static bool run_ended(struct store *st, int64_t id)
{
	struct run_owner ow;
	char err[256];
	return store_run_owner(st, id, &ow, err, sizeof(err)) == 0 &&
	       (!strcmp(ow.status, "complete") || !strcmp(ow.status, "failed"));
}

/* ops.measure over the stored runs only: the attempt the walk uses (not
 * stored, or its run not ended: the replay ends there). */
static int verify_measure(void *ctx, size_t k, enum bisect_phase ph, int nth, int more,
			  struct bisect_sample_set *set, char **why)
{
	struct verify *v = ctx;
	struct bisect_point_runs r;
	(void)more;
	if (!v->m.metric)
		return -1;
	if (bisect_point_runs_load(v->st, v->bi->id, (int)k, &r, v->err, v->errsz)) {
		v->failed = true;
		return -1;
	}
	bool retry = ph == BISECT_PHASE_CONFIRM || (is_end(v, k) && nth == 1);
	int prev = ph == BISECT_PHASE_WALK && nth == 1 ? 0 : v->last_attempt[k];
	int64_t failed;
	int a = bisect_point_next_attempt(v->st, &r, prev, retry, v->s->p[k].name, &v->m, &failed);
	v->last_attempt[k] = a;
	const struct stored_bisect_run *row = bisect_point_attempt(&r, a);
	int rc = 0;
	int64_t last_run = 0;
	if (!row || !row->run_id || !run_ended(v->st, row->run_id) ||
	    strcmp(row->phase, bisect_phase_name(ph)))
		rc = -1;
	else if (check_configs(v, k, &r, ph, a) ||
		 bisect_point_samples(v->st, &r, ph, a, v->s->p[k].name, &v->m, set, &last_run,
				      v->err, v->errsz))
		v->failed = true, rc = -1;
	bisect_point_runs_free(&r);
	size_t need = ph == BISECT_PHASE_CONFIRM ? (size_t)nth : 2;
	if (rc == 0 && set->iterations < need) {
		/* An inner point's failed run is its skip; anywhere else the
		 * walk stopped there. */
		if (ph == BISECT_PHASE_CONFIRM || is_end(v, k) || nth > 1)
			return -1;
		*why = bisect_run_failure(v->st, last_run);
		return 1;
	}
	return rc;
}

static double verify_min_effect(void *ctx, const struct bisect_sample_set *good)
{
	struct verify *v = ctx;
	(void)good;
	return isnan(v->bi->min_effect_pct) ? bisect_default_min_effect_pct(v->m.metric, v->m.op)
					    : v->bi->min_effect_pct;
}

static int verify_point(void *ctx, const struct bisect_point_event *ev)
{
	struct verify *v = ctx;
	struct replayed_point *p = &v->points[ev->k];
	p->row = bisect_point_row(ev);
	p->row.verdict = xstrdup(p->row.verdict);
	p->row.reason = p->row.reason ? xstrdup(p->row.reason) : NULL;
	p->decided = true;
	v->order[v->n_order++] = (long)ev->k;
	return 0;
}

static int verify_check(void *ctx, const struct bisect_check *c)
{
	struct verify *v = ctx;
	struct stored_bisect_check row = bisect_check_row(c);
	row.seq = (int)v->n_checks + 1;
	row.what = xstrdup(row.what);
	row.outcome = xstrdup(row.outcome);
	v->checks = xrealloc(v->checks, (v->n_checks + 1) * sizeof(*v->checks));
	v->checks[v->n_checks++] = row;
	return 0;
}

static int verify_result(void *ctx, const struct bisect_outcome *o)
{
	struct verify *v = ctx;
	v->result = xstrdup(o->text);
	v->status = xstrdup(o->status);
	return 0;
}

/* Do two stored statistics agree (NaN equals NaN; 1e-9 relative)? */
static bool same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* The first statistic of r that is not d's, with both values; false when
 * they all agree. */
static bool differing_stat(const struct stored_bisect_point *r, const struct stored_bisect_point *d,
			   const char **name, double *stored, double *derived)
{
	static const char *const names[] = {"n", "mean", "p vs good", "p vs bad", "alpha", "look"};
	const double a[] = {r->n, r->mean, r->p_good, r->p_bad, r->alpha, r->look};
	const double b[] = {d->n, d->mean, d->p_good, d->p_bad, d->alpha, d->look};
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		if (!same(a[i], b[i])) {
			*name = names[i];
			*stored = a[i];
			*derived = b[i];
			return true;
		}
	return false;
}

/* Stored row r of point k (verdict stored) against what the replay made. */
static int compare_point(struct verify *v, size_t k, const struct stored_bisect_point *r,
			 enum bisect_verdict stored)
{
	const struct replayed_point *p = &v->points[k];
	const struct stored_bisect_point *d = &p->row;
	const char *stat;
	double a, b;
	long long id = (long long)v->bi->id;
	const char *name = v->s->p[k].name;
	if (!p->decided)
		return err_printf(v->err, v->errsz, "bisection %lld: point %zu %s is stored as %s,"
				  " but no run of it decides that", id, k, name,
				  bisect_verdict_name(stored));
	if (strcmp(d->verdict, bisect_verdict_name(stored)))
		return err_printf(v->err, v->errsz, "bisection %lld: point %zu %s is stored as %s"
				  " (n %d, mean %.4g), but its runs' samples make it %s (n %d,"
				  " mean %.4g, p vs good %.4g, vs bad %.4g)", id, k, name,
				  bisect_verdict_name(stored), r->n, r->mean, d->verdict, d->n,
				  d->mean, d->p_good, d->p_bad);
	if (differing_stat(r, d, &stat, &a, &b))
		return err_printf(v->err, v->errsz, "bisection %lld: point %zu %s (%s): its stored"
				  " %s %.6g is not the %s its runs' samples give (%.6g)", id, k,
				  name, bisect_verdict_name(stored), stat, a, stat, b);
	if (!r->reason != !d->reason || (r->reason && strcmp(r->reason, d->reason)))
		return err_printf(v->err, v->errsz, "bisection %lld: point %zu %s (%s): its stored"
				  " reason '%s' is not the one its runs give ('%s')", id, k, name,
				  bisect_verdict_name(stored), r->reason ? r->reason : "",
				  d->reason ? d->reason : "");
	return 0;
}

/* The stored verdict of row r (NULL: untested). -1 with err for anything
 * the rig does not write there. */
static int stored_verdict(const struct verify *v, const struct stored_bisect_point *r,
			  enum bisect_verdict *out)
{
	int p = r->verdict ? bisect_verdict_parse(r->verdict) : BISECT_UNTESTED;
	if (p < 0 || (r->verdict && p == BISECT_UNTESTED))
		return err_printf(v->err, v->errsz, "bisection %lld: point %d has verdict '%s',"
				  " not one the rig writes", (long long)v->bi->id, r->k, r->verdict);
	*out = (enum bisect_verdict)p;
	return 0;
}

/* The decided points (k) in the order of their decided_seq, into order
 * (n entries); *m how many. -1 with err when two share one or one is < 1. */
static int decided_order(struct verify *v, const struct stored_bisect_point *rows, size_t n,
			 long *order, size_t *m)
{
	*m = 0;
	for (size_t k = 0; k < n; k++) {
		if (!rows[k].verdict)
			continue;
		size_t i = (*m)++;
		for (; i > 0 && rows[order[i - 1]].decided_seq >= rows[k].decided_seq; i--) {
			if (rows[order[i - 1]].decided_seq == rows[k].decided_seq)
				return err_printf(v->err, v->errsz, "bisection %lld: points %ld and %zu"
						  " were both decided at step %d: not one the rig"
						  " writes", (long long)v->bi->id, order[i - 1], k,
						  rows[k].decided_seq);
			order[i] = order[i - 1];
		}
		order[i] = (long)k;
	}
	if (*m && rows[order[0]].decided_seq < 1)
		return err_printf(v->err, v->errsz, "bisection %lld: point %ld was decided at step"
				  " %d: not one the rig writes", (long long)v->bi->id, order[0],
				  rows[order[0]].decided_seq);
	return 0;
}

/* The stored points' order against the replay's. */
static int check_order(struct verify *v, const struct stored_bisect_point *rows, size_t n,
		       size_t *decided)
{
	long *order = xcalloc(n ? n : 1, sizeof(*order));
	size_t m;
	int rc = decided_order(v, rows, n, order, &m);
	for (size_t j = 0; j < m && rc == 0; j++)
		if (j >= v->n_order || order[j] != v->order[j])
			rc = err_printf(v->err, v->errsz, "bisection %lld: point %ld is stored as"
					" decided at step %d, but the walk measures point %ld there:"
					" not one the rig writes", (long long)v->bi->id, order[j],
					rows[order[j]].decided_seq, j < v->n_order ? v->order[j] : -1);
	*decided = m;
	free(order);
	return rc;
}

/* The first field of stored check a that is not b's, or NULL. */
static const char *check_field(const struct stored_bisect_check *a, const struct stored_bisect_check *b)
{
	if (strcmp(a->what, b->what) || a->k_a != b->k_a || a->k_b != b->k_b)
		return "what it compares";
	if (a->n_a != b->n_a || a->n_b != b->n_b || a->rounds != b->rounds)
		return "n";
	if (!same(a->mean_a, b->mean_a) || !same(a->mean_b, b->mean_b))
		return "mean";
	if (!same(a->effect_pct, b->effect_pct) || !same(a->statistic, b->statistic))
		return "effect";
	if (!same(a->p, b->p))
		return "p";
	if (!same(a->alpha, b->alpha))
		return "alpha";
	return strcmp(a->outcome, b->outcome) ? "outcome" : NULL;
}

/* The stored checks against the replay's, one for one in order. */
static int check_checks(struct verify *v, size_t *n_stored)
{
	struct stored_bisect_check *rows;
	size_t n;
	if (store_bisect_checks(v->st, v->bi->id, &rows, &n, v->err, v->errsz))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const char *field = i < v->n_checks ? check_field(&rows[i], &v->checks[i]) : NULL;
		if (rows[i].seq != (int)i + 1)
			rc = err_printf(v->err, v->errsz, "bisection %lld: check %s is stored as made"
					" %d., not one the rig writes", (long long)v->bi->id,
					rows[i].what, rows[i].seq);
		else if (i >= v->n_checks)
			rc = err_printf(v->err, v->errsz, "bisection %lld: its %s check (%s) is stored,"
					" but its runs do not make it", (long long)v->bi->id,
					rows[i].what, rows[i].outcome);
		else if (field)
			rc = err_printf(v->err, v->errsz, "bisection %lld: its stored %s check (%s, p"
					" %.4g, %+.3g %%) is not the one its runs give (%s %s, p %.4g,"
					" %+.3g %%): its %s differs", (long long)v->bi->id,
					rows[i].what, rows[i].outcome, rows[i].p, rows[i].effect_pct,
					v->checks[i].what, v->checks[i].outcome, v->checks[i].p,
					v->checks[i].effect_pct, field);
	}
	*n_stored = n;
	store_bisect_check_rows_free(rows, n);
	return rc;
}

/* A finished bisection's status and result against the replay's. */
static int check_result(struct verify *v)
{
	const struct stored_bisection *bi = v->bi;
	if (strcmp(bi->status, "complete") && strcmp(bi->status, "refused"))
		return 0;
	if (!v->result)
		return err_printf(v->err, v->errsz, "bisection %lld is stored as %s, but its runs"
				  " leave measurements to make", (long long)bi->id, bi->status);
	if (strcmp(bi->status, v->status) || !bi->result || strcmp(bi->result, v->result))
		return err_printf(v->err, v->errsz, "bisection %lld: its stored result '%s' is not"
				  " the one its runs give: '%s'", (long long)bi->id,
				  bi->result ? bi->result : "", v->result);
	return 0;
}

/* The stored rows are k 0..n-1 in order. -1 with err. */
static int check_ks(const struct stored_bisection *bi, const struct stored_bisect_point *rows,
		    size_t n, char *err, size_t errsz)
{
	for (size_t k = 0; k < n; k++)
		if (rows[k].k != (int)k)
			return err_printf(err, errsz, "bisection %lld: its points are not k 0..%zu"
					  " (point %zu is k %d): not one the rig writes",
					  (long long)bi->id, n - 1, k, rows[k].k);
	return 0;
}

int bisect_stored_rule(const struct stored_bisection *bi, const struct bisect_series *s,
		       struct bisect_rule *r, char *err, size_t errsz)
{
	int t = bi->rule ? bisect_test_parse(bi->rule) : -1;
	if (!bi->rule)
		return err_printf(err, errsz, "bisection %lld was made by a schedrig before schema"
				  " version 13, by a rule this one no longer decides by (no"
				  " confirm, no family-wise alpha): its verdicts cannot be checked;"
				  " begin it again", (long long)bi->id);
	if (t < 0 || !(bi->alpha > 0 && bi->alpha < 0.5) ||
	    (!isnan(bi->min_effect_pct) && !(bi->min_effect_pct >= 0 && bi->min_effect_pct < 1000)))
		return err_printf(err, errsz, "bisection %lld has rule '%s', alpha %g and minimum"
				  " effect %g %%: not one the rig writes", (long long)bi->id,
				  bi->rule, bi->alpha, bi->min_effect_pct);
	if (s->n < 2)
		return err_printf(err, errsz, "bisection %lld has %zu point(s): not one the rig"
				  " writes", (long long)bi->id, s->n);
	char why[1024];
	struct experiment *e = config_parse(s->p[0].name, s->p[0].config, strlen(s->p[0].config),
					    why, sizeof(why));
	if (!e)
		return err_printf(err, errsz, "bisection %lld: point 0's config: %s",
				  (long long)bi->id, why);
	*r = (struct bisect_rule){(enum bisect_test)t, bi->alpha, bi->min_effect_pct, s->n,
				  e->min_iterations, e->iterations};
	experiment_free(e);
	return 0;
}

/* Replay the engine over the stored runs. */
static int replay(struct verify *v)
{
	if (bisect_stored_rule(v->bi, v->s, &v->rule, v->err, v->errsz))
		return -1;
	if (v->bi->load && v->bi->metric && v->bi->op && v->bi->cell)
		v->m = (struct bisect_metric){xstrdup(v->bi->load), xstrdup(v->bi->metric),
					      xstrdup(v->bi->op), xstrdup(v->bi->cell)};
	v->last_attempt = xcalloc(v->s->n, sizeof(*v->last_attempt));
	v->points = xcalloc(v->s->n, sizeof(*v->points));
	v->order = xcalloc(v->s->n, sizeof(*v->order));
	struct bisect_ops ops = {v, verify_measure, verify_min_effect, NULL, verify_point,
				 verify_check, verify_result};
	struct bisect_search search;
	bisect_search_init(&search, v->s->n);
	bisect_engine_run(&v->rule, v->s, &v->m, &ops, &search);
	bisect_search_free(&search);
	return v->failed ? -1 : 0;
}

static int check_rows(struct verify *v, const struct stored_bisect_point *rows, size_t n,
		      struct bisect_stored_counts *counts)
{
	if (check_ks(v->bi, rows, n, v->err, v->errsz))
		return -1;
	if (n != v->s->n)
		return err_printf(v->err, v->errsz, "bisection %lld has %zu point row(s) for %zu"
				  " points: not one the rig writes", (long long)v->bi->id, n,
				  v->s->n);
	enum bisect_verdict *stored = xcalloc(n, sizeof(*stored));
	bool any = false;
	int rc = 0;
	for (size_t k = 0; k < n && rc == 0; k++) {
		rc = stored_verdict(v, &rows[k], &stored[k]);
		any |= stored[k] != BISECT_UNTESTED;
	}
	if (rc == 0 && any && (!v->bi->load || !v->bi->metric || !v->bi->op || !v->bi->cell))
		rc = err_printf(v->err, v->errsz, "bisection %lld has verdicts but no metric"
				" decided: not one the rig writes", (long long)v->bi->id);
	if (rc == 0)
		rc = replay(v);
	for (size_t k = 0; k < n && rc == 0; k++)
		if (stored[k] != BISECT_UNTESTED)
			rc = compare_point(v, k, &rows[k], stored[k]);
	free(stored);
	if (rc == 0)
		rc = check_order(v, rows, n, &counts->points);
	if (rc == 0)
		rc = check_checks(v, &counts->checks);
	if (rc == 0 && (!strcmp(v->bi->status, "complete") || !strcmp(v->bi->status, "refused")) &&
	    counts->checks != v->n_checks)
		rc = err_printf(v->err, v->errsz, "bisection %lld is stored as %s with %zu of the %zu"
				" checks its runs make", (long long)v->bi->id, v->bi->status,
				counts->checks, v->n_checks);
	return rc ? -1 : check_result(v);
}

static void verify_free(struct verify *v)
{
	for (size_t k = 0; v->points && k < v->s->n; k++) {
		free(v->points[k].row.verdict);
		free(v->points[k].row.reason);
	}
	free(v->points);
	free(v->order);
	for (size_t i = 0; i < v->n_checks; i++) {
		free(v->checks[i].what);
		free(v->checks[i].outcome);
	}
	free(v->checks);
	free(v->last_attempt);
	free(v->result);
	free(v->status);
	bisect_metric_free(&v->m);
}

int bisect_verify_verdicts(struct store *st, const struct stored_bisection *bi,
			   const struct bisect_series *s, struct bisect_stored_counts *counts,
			   char *err, size_t errsz)
{
	struct stored_bisect_point *rows;
	size_t n;
	*counts = (struct bisect_stored_counts){0, 0};
	if (store_bisect_points(st, bi->id, &rows, &n, err, errsz))
		return -1;
	struct verify v = {.st = st, .bi = bi, .s = s, .err = err, .errsz = errsz};
	int rc = check_rows(&v, rows, n, counts);
	store_bisect_point_rows_free(rows, n);
	verify_free(&v);
	return rc;
}

/* bisect_verify_series of bi in the directory it was begun in (where its
 * config's relative paths point), this process back where it was after. */
static int verify_series_there(const struct stored_bisection *bi, const struct bisect_series *s,
			       char *err, size_t errsz)
{
	int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0)
		return err_printf(err, errsz, "cannot open the current directory: %s",
				  strerror(errno));
	struct bisect_series fresh = {0};
	int rc = 0;
	if (bi->cwd && chdir(bi->cwd))
		rc = err_printf(err, errsz, "bisection %lld was begun in %s, where its config's"
				" relative paths point: cannot go there: %s", (long long)bi->id,
				bi->cwd, strerror(errno));
	if (rc == 0)
		rc = bisect_verify_series(bi, s, &fresh, err, errsz);
	bisect_series_free(&fresh);
	if (fchdir(here) && rc == 0)
		rc = err_printf(err, errsz, "cannot return to the current directory: %s",
				strerror(errno));
	close(here);
	return rc;
}

/* The stored rows of bi are k 0..N (before the series is compared: the
 * stored series is read in k order). */
static int stored_ks(struct store *st, const struct stored_bisection *bi, char *err,
		     size_t errsz)
{
	struct stored_bisect_point *rows;
	size_t n;
	if (store_bisect_points(st, bi->id, &rows, &n, err, errsz))
		return -1;
	int rc = check_ks(bi, rows, n, err, errsz);
	store_bisect_point_rows_free(rows, n);
	return rc;
}

int bisect_verify_show(struct store *st, int64_t id, char *err, size_t errsz)
{
	struct stored_bisection bi = {0};
	struct bisect_series s = {0};
	struct bisect_stored_counts counts;
	int rc = store_bisect_get(st, id, &bi, &s, err, errsz);
	if (rc == 0 && s.n < 2)
		rc = err_printf(err, errsz, "bisection %lld has %zu point(s): not one the rig writes",
				(long long)bi.id, s.n);
	if (rc == 0)
		rc = stored_ks(st, &bi, err, errsz);
	if (rc == 0)
		rc = verify_series_there(&bi, &s, err, errsz);
	if (rc == 0)
		rc = bisect_verify_verdicts(st, &bi, &s, &counts, err, errsz);
	bisect_series_free(&s);
	store_bisection_free(&bi);
	return rc;
}
