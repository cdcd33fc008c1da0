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

#include "bisect_git.h"
#include "bisect_samples.h"
#include "bisect_walk.h"
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

/* Everything a verdict is checked with. */
struct verify {
	struct store *st;
	const struct stored_bisection *bi;
	const struct bisect_series *s;
	struct bisect_metric m;
	struct bisect_sample_set ends[2];
	char *err;
	size_t errsz;
};

/* Point k's runs, each checked to have run the point's config: their ids
 * into *ids (malloc'd). -1 with v->err. */
static int point_runs(struct verify *v, size_t k, int64_t **ids, size_t *n)
{
	struct stored_bisect_run *rows;
	size_t nr;
	*ids = NULL;
	*n = 0;
	if (store_bisect_runs(v->st, v->bi->id, (int)k, &rows, &nr, v->err, v->errsz))
		return -1;
	*ids = xcalloc(nr ? nr : 1, sizeof(**ids));
	int rc = 0;
	for (size_t i = 0; i < nr && rc == 0; i++) {
		char *path = NULL, *text = NULL;
		int iterations;
		if (!rows[i].run_id)
			continue;
		if (store_run_config(v->st, rows[i].run_id, &path, &text, &iterations, v->err,
				     v->errsz))
			rc = -1;
		else if (strcmp(path, rows[i].config_path) || strcmp(text, v->s->p[k].config))
			rc = err_printf(v->err, v->errsz, "bisection %lld: point %zu %s: run %lld"
					" linked to it did not run the point's config",
					(long long)v->bi->id, k, v->s->p[k].name,
					(long long)rows[i].run_id);
		else
			(*ids)[(*n)++] = rows[i].run_id;
		free(path);
		free(text);
	}
	store_bisect_run_rows_free(rows, nr);
	return rc;
}

/* The samples of point k's linked runs into set (n 0 when none); *n_runs
 * how many runs. -1 with v->err. */
static int point_samples(struct verify *v, size_t k, struct bisect_sample_set *set,
			 size_t *n_runs)
{
	int64_t *ids;
	int rc = point_runs(v, k, &ids, n_runs);
	if (rc == 0)
		rc = bisect_samples_load(v->st, ids, *n_runs, v->s->p[k].name, &v->m, set, v->err,
					 v->errsz);
	free(ids);
	return rc;
}

/* Do two stored statistics agree (NaN equals NaN; 1e-9 relative)? */
static bool same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* What point k's samples decide (the walk's rule), with the statistics it
 * would store: n (0 for a point that failed), mean, p vs each end, and the
 * reason (malloc'd; NULL for none). */
struct decided {
	enum bisect_verdict verdict;
	int n;
	double mean, p_good, p_bad;
	char *reason;
};

static int decide(struct verify *v, size_t k, struct decided *d)
{
	struct bisect_sample_set set = {0};
	int64_t *ids;
	size_t n_runs;
	*d = (struct decided){BISECT_SKIP, 0, NAN, NAN, NAN, NULL};
	int rc = point_runs(v, k, &ids, &n_runs);
	if (rc == 0)
		rc = bisect_samples_load(v->st, ids, n_runs, v->s->p[k].name, &v->m, &set, v->err,
					 v->errsz);
	if (rc == 0 && set.n < 2) {
		/* No samples: a failed run's skip, its reason the run's failure. */
		if (n_runs)
			d->reason = bisect_run_failure(v->st, ids[n_runs - 1]);
		else
			d->verdict = BISECT_UNTESTED;
	} else if (rc == 0) {
		struct bisect_class cl;
		bisect_classify(v->bi->alpha, set.better, v->ends[0].v, &v->ends[0].sum,
				v->ends[1].v, &v->ends[1].sum, set.v, &set.sum, &cl);
		*d = (struct decided){cl.verdict == BISECT_UNTESTED ? BISECT_SKIP : cl.verdict,
				      (int)set.n, set.sum.amean, cl.vs_good.p, cl.vs_bad.p,
				      bisect_class_reason(&cl, set.iterations)};
	}
	free(ids);
	bisect_sample_set_free(&set);
	return rc;
}

/* What the ends decide: point 0 good and N bad when they differ, each with
 * the test of the bad end against the good one. */
static void decide_end(const struct verify *v, size_t e, struct decided *d)
{
	struct stats_test t = {.p = NAN};
	bool differ = v->ends[0].n >= 2 && v->ends[1].n >= 2 &&
		      bisect_ends_differ(v->bi->alpha, v->ends[0].better, v->ends[0].v,
					 &v->ends[0].sum, v->ends[1].v, &v->ends[1].sum, &t);
	*d = (struct decided){differ ? (e ? BISECT_BAD : BISECT_GOOD) : BISECT_UNTESTED,
			      (int)v->ends[e].n, v->ends[e].sum.amean, e ? t.p : NAN,
			      e ? NAN : t.p, NULL};
}

/* The first statistic of r that is not what d gives, with its stored and
 * derived value; false when they all agree. */
static bool differing_stat(const struct stored_bisect_point *r, const struct decided *d,
			   const char **name, double *stored, double *derived)
{
	static const char *const names[] = {"n", "mean", "p vs good", "p vs bad"};
	const double a[] = {r->n, r->mean, r->p_good, r->p_bad};
	const double b[] = {d->n, d->mean, d->p_good, d->p_bad};
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		if (!same(a[i], b[i])) {
			*name = names[i];
			*stored = a[i];
			*derived = b[i];
			return true;
		}
	return false;
}

/* Stored row r of point k (verdict stored) against d, what its samples
 * decide: the verdict, then each statistic, then the reason. */
static int compare_point(struct verify *v, size_t k, const struct stored_bisect_point *r,
			 enum bisect_verdict stored, const struct decided *d)
{
	const char *stat;
	double a, b;
	long long id = (long long)v->bi->id;
	const char *name = v->s->p[k].name;
	if (d->verdict == BISECT_UNTESTED)
		return err_printf(v->err, v->errsz, "bisection %lld: point %zu %s is stored as %s,"
				  " but no run of it decides that", id, k, name,
				  bisect_verdict_name(stored));
	if (d->verdict != stored)
		return err_printf(v->err, v->errsz, "bisection %lld: point %zu %s is stored as %s"
				  " (n %d, mean %.4g), but its runs' samples make it %s (n %d,"
				  " mean %.4g, p vs good %.4g, vs bad %.4g)", id, k, name,
				  bisect_verdict_name(stored), r->n, r->mean,
				  bisect_verdict_name(d->verdict), d->n, d->mean, d->p_good, d->p_bad);
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

/* Stored row r of point k against what its samples decide. */
static int check_point(struct verify *v, size_t k, const struct stored_bisect_point *r,
		       enum bisect_verdict stored)
{
	struct decided d;
	if (k == 0 || k == v->s->n - 1)
		decide_end(v, k ? 1 : 0, &d);
	else if (decide(v, k, &d))
		return -1;
	int rc = compare_point(v, k, r, stored, &d);
	free(d.reason);
	return rc;
}

/* The decided points (k) in the order of their decided_seq, into order
 * (n entries); *m how many. -1 with err when two share one or one is < 1. */
static int decided_order(struct verify *v, const struct stored_bisect_point *rows, size_t n,
			 const struct bisect_search *search, long *order, size_t *m)
{
	*m = 0;
	for (size_t k = 0; k < n; k++) {
		if (search->v[k] == BISECT_UNTESTED)
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

/* The decided points' decided_seq against the walk: in their order, the
 * points the walk measures given the verdicts before (good end, bad end,
 * then bisect_search_next of the verdicts so far). */
static int check_order(struct verify *v, const struct stored_bisect_point *rows, size_t n,
		       const struct bisect_search *search)
{
	long *order = xcalloc(n ? n : 1, sizeof(*order));
	size_t m;
	int rc = decided_order(v, rows, n, search, order, &m);
	struct bisect_search replay;
	bisect_search_init(&replay, n);
	for (size_t j = 0; j < m && rc == 0; j++) {
		long want = j == 0 ? 0 : j == 1 ? (long)n - 1 : bisect_search_next(&replay);
		if (order[j] != want)
			rc = err_printf(v->err, v->errsz, "bisection %lld: point %ld is stored as"
					" decided at step %d, but the walk measures point %ld there:"
					" not one the rig writes", (long long)v->bi->id, order[j],
					rows[order[j]].decided_seq, want);
		else
			replay.v[want] = search->v[want];
	}
	bisect_search_free(&replay);
	free(order);
	return rc;
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

/* The ends' samples and the decided metric, when any verdict is stored. */
static int load_ends(struct verify *v)
{
	const struct stored_bisection *bi = v->bi;
	if (!bi->load || !bi->metric || !bi->op || !bi->cell)
		return err_printf(v->err, v->errsz, "bisection %lld has verdicts but no metric"
				  " decided: not one the rig writes", (long long)bi->id);
	v->m = (struct bisect_metric){xstrdup(bi->load), xstrdup(bi->metric), xstrdup(bi->op),
				      xstrdup(bi->cell)};
	size_t n_runs, ks[2] = {0, v->s->n - 1};
	for (int e = 0; e < 2; e++)
		if (point_samples(v, ks[e], &v->ends[e], &n_runs))
			return -1;
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

static int check_rows(struct verify *v, const struct stored_bisect_point *rows, size_t n,
		      struct bisect_search *search)
{
	if (check_ks(v->bi, rows, n, v->err, v->errsz))
		return -1;
	if (n != v->s->n)
		return err_printf(v->err, v->errsz, "bisection %lld has %zu point row(s) for %zu"
				  " points: not one the rig writes", (long long)v->bi->id, n,
				  v->s->n);
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		if (stored_verdict(v, &rows[k], &search->v[k]))
			return -1;
		any |= search->v[k] != BISECT_UNTESTED;
	}
	if (any && load_ends(v))
		return -1;
	for (size_t k = 0; k < n; k++)
		if (search->v[k] != BISECT_UNTESTED && check_point(v, k, &rows[k], search->v[k]))
			return -1;
	return check_order(v, rows, n, search);
}

int bisect_verify_verdicts(struct store *st, const struct stored_bisection *bi,
			   const struct bisect_series *s, struct bisect_search *search, char *err,
			   size_t errsz)
{
	struct stored_bisect_point *rows;
	size_t n;
	if (store_bisect_points(st, bi->id, &rows, &n, err, errsz))
		return -1;
	struct verify v = {.st = st, .bi = bi, .s = s, .err = err, .errsz = errsz};
	int rc = check_rows(&v, rows, n, search);
	store_bisect_point_rows_free(rows, n);
	bisect_metric_free(&v.m);
	bisect_sample_set_free(&v.ends[0]);
	bisect_sample_set_free(&v.ends[1]);
	return rc;
}

/* A complete bisection's stored result against its verdicts' result. */
static int check_result(const struct stored_bisection *bi, const struct bisect_series *s,
			const struct bisect_search *search, char *err, size_t errsz)
{
	if (strcmp(bi->status, "complete"))
		return 0;
	if (bisect_search_next(search) >= 0)
		return err_printf(err, errsz, "bisection %lld is stored as complete, but its"
				  " verdicts leave points to measure", (long long)bi->id);
	char *want = bisect_result_text(search, s);
	int rc = 0;
	if (!bi->result || strcmp(bi->result, want))
		rc = err_printf(err, errsz, "bisection %lld: its stored result '%s' is not the one"
				" its verdicts give: '%s'", (long long)bi->id,
				bi->result ? bi->result : "", want);
	free(want);
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
	struct bisect_search search = {0};
	int rc = store_bisect_get(st, id, &bi, &s, err, errsz);
	if (rc == 0 && s.n < 2)
		rc = err_printf(err, errsz, "bisection %lld has %zu point(s): not one the rig writes",
				(long long)bi.id, s.n);
	if (rc == 0)
		rc = stored_ks(st, &bi, err, errsz);
	if (rc == 0)
		rc = verify_series_there(&bi, &s, err, errsz);
	if (rc == 0) {
		bisect_search_init(&search, s.n);
		rc = bisect_verify_verdicts(st, &bi, &s, &search, err, errsz);
	}
	if (rc == 0)
		rc = check_result(&bi, &s, &search, err, errsz);
	bisect_search_free(&search);
	bisect_series_free(&s);
	store_bisection_free(&bi);
	return rc;
}
