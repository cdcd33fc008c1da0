/* A point's stored runs and their samples (bisect_runs.h). */
#include "bisect_runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *bisect_phase_name(enum bisect_phase ph)
{
	return ph == BISECT_PHASE_CONFIRM ? "confirm" : "walk";
}

int bisect_point_runs_load(struct store *st, int64_t id, int k, struct bisect_point_runs *r,
			   char *err, size_t errsz)
{
	return store_bisect_runs(st, id, k, &r->rows, &r->n, err, errsz);
}

void bisect_point_runs_free(struct bisect_point_runs *r)
{
	store_bisect_run_rows_free(r->rows, r->n);
	r->rows = NULL;
	r->n = 0;
}

const struct stored_bisect_run *bisect_point_attempt(const struct bisect_point_runs *r, int a)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rows[i].attempt == a)
			return &r->rows[i];
	return NULL;
}

size_t bisect_point_run_ids(const struct bisect_point_runs *r, enum bisect_phase ph, int upto,
			    int64_t *ids)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->rows[i].run_id && r->rows[i].attempt <= upto &&
		    !strcmp(r->rows[i].phase, bisect_phase_name(ph)))
			ids[n++] = r->rows[i].run_id;
	return n;
}

bool bisect_run_measured(struct store *st, int64_t id, const char *variant,
			 const struct bisect_metric *m)
{
	struct run_owner ow;
	char err[512];
	if (store_run_owner(st, id, &ow, err, sizeof(err)) || strcmp(ow.status, "failed"))
		return true;
	if (!m->metric)
		return false;
	struct bisect_sample_set set;
	bool any = bisect_samples_load(st, &id, 1, variant, m, &set, err, sizeof(err)) == 0 &&
		   set.n > 0;
	bisect_sample_set_free(&set);
	return any;
}

int bisect_point_next_attempt(struct store *st, const struct bisect_point_runs *r, int prev,
			      bool retry, const char *variant, const struct bisect_metric *m,
			      int64_t *failed_run)
{
	int a = prev + 1;
	*failed_run = 0;
	const struct stored_bisect_run *row;
	while (retry && (row = bisect_point_attempt(r, a)) && row->run_id &&
	       !bisect_run_measured(st, row->run_id, variant, m)) {
		if (!bisect_point_attempt(r, a + 1))
			*failed_run = row->run_id;
		a++;
	}
	return a;
}

int bisect_point_samples(struct store *st, const struct bisect_point_runs *r, enum bisect_phase ph,
			 int upto, const char *variant, const struct bisect_metric *m,
			 struct bisect_sample_set *out, int64_t *last_run, char *err, size_t errsz)
{
	int64_t *ids = xcalloc(r->n ? r->n : 1, sizeof(*ids));
	size_t n = bisect_point_run_ids(r, ph, upto, ids);
	*last_run = n ? ids[n - 1] : 0;
	int rc = bisect_samples_load(st, ids, n, variant, m, out, err, errsz);
	free(ids);
	return rc;
}

struct stored_bisect_point bisect_point_row(const struct bisect_point_event *ev)
{
	const struct bisect_sample_set *set = ev->set;
	double alpha = ev->k == 0 ? ev->vs_bad.alpha : ev->vs_good.alpha;
	return (struct stored_bisect_point){
		.k = (int)ev->k, .verdict = (char *)bisect_verdict_name(ev->verdict),
		.reason = (char *)ev->reason, .n = set ? (int)set->n : 0,
		.mean = set ? set->sum.amean : NAN, .ci95_half = set ? set->sum.ci95_half : NAN,
		.p_good = ev->vs_good.t.p, .p_bad = ev->vs_bad.t.p,
		.t_good = ev->vs_good.t.statistic, .t_bad = ev->vs_bad.t.statistic,
		.look = ev->look, .alpha = set ? alpha : NAN,
	};
}

/* The mean a report shows of s. */
static double shown_mean(const struct bisect_sample_set *s)
{
	return s->better == BETTER_HIGHER ? s->sum.hmean : s->sum.amean;
}

struct stored_bisect_check bisect_check_row(const struct bisect_check *c)
{
	return (struct stored_bisect_check){
		.what = (char *)c->what, .k_a = (int)c->k_a, .k_b = (int)c->k_b,
		.n_a = (int)c->a->n, .n_b = (int)c->b->n, .mean_a = shown_mean(c->a),
		.mean_b = shown_mean(c->b), .effect_pct = c->d.effect_pct, .p = c->d.t.p,
		.statistic = c->d.t.statistic, .alpha = c->d.alpha, .rounds = c->rounds,
		.outcome = (char *)c->outcome,
	};
}
