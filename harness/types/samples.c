#include "samples.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

const char *better_name(enum better b)
{
	return b == BETTER_HIGHER ? "higher" : "lower";
}

int better_parse(const char *s)
{
	if (!strcmp(s, "higher"))
		return BETTER_HIGHER;
	if (!strcmp(s, "lower"))
		return BETTER_LOWER;
	return -1;
}

void sample_vec_add(struct sample_vec *s, const char *metric, const char *unit,
		    enum better better, const char *op, double value)
{
	s->v = xgrow(s->v, &s->cap, s->n, 16, sizeof(*s->v));
	struct sample *x = &s->v[s->n++];
	x->metric = metric;
	x->unit = unit;
	x->better = better;
	snprintf(x->op, sizeof(x->op), "%s", op ? op : "");
	x->value = value;
	x->flag = NULL;
}

void sample_vec_append(struct sample_vec *s, const struct sample_vec *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct sample *x = &src->v[i];
		sample_vec_add(s, x->metric, x->unit, x->better, x->op, x->value);
		s->v[s->n - 1].flag = x->flag;
	}
}

struct sample_hist *sample_vec_add_hist(struct sample_vec *s, const char *metric, const char *unit,
					const char *op, double bucket_width, const uint64_t *counts,
					size_t n_buckets, uint64_t overflow, double limit,
					double max_observed)
{
	s->hists = xgrow(s->hists, &s->cap_hists, s->n_hists, 4, sizeof(*s->hists));
	struct sample_hist *h = &s->hists[s->n_hists++];
	h->metric = metric;
	h->unit = unit;
	snprintf(h->op, sizeof(h->op), "%s", op ? op : "");
	h->bucket_width = bucket_width;
	h->counts = xcalloc(n_buckets ? n_buckets : 1, sizeof(*h->counts));
	if (n_buckets)
		memcpy(h->counts, counts, n_buckets * sizeof(*h->counts));
	h->n_buckets = n_buckets;
	h->overflow = overflow;
	h->limit = limit;
	h->max_observed = max_observed;
	h->bounds = NULL;
	h->min_observed = h->sum = h->sum_sq = NAN;
	return h;
}

void sample_hist_set_bounds(struct sample_hist *h, const double *bounds)
{
	free(h->bounds);
	h->bounds = xcalloc(h->n_buckets ? h->n_buckets : 1, sizeof(*h->bounds));
	if (h->n_buckets)
		memcpy(h->bounds, bounds, h->n_buckets * sizeof(*h->bounds));
}

void sample_vec_free(struct sample_vec *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
	for (size_t i = 0; i < s->n_hists; i++) {
		free(s->hists[i].counts);
		free(s->hists[i].bounds);
	}
	free(s->hists);
	s->hists = NULL;
	s->n_hists = s->cap_hists = 0;
}

static const char *pool_intern(struct strmap *pool, const char *s)
{
	return strmap_add(pool, s ? s : "", 0);
}

void sample_table_init(struct sample_table *t)
{
	memset(t, 0, sizeof(*t));
	t->pool = xcalloc(1, sizeof(*t->pool));
}

const char *sample_table_intern(struct sample_table *t, const char *s)
{
	return pool_intern(t->pool, s);
}

void sample_table_push(struct sample_table *t, const struct sample_row *row)
{
	t->rows = xgrow(t->rows, &t->cap, t->n, 256, sizeof(*t->rows));
	t->rows[t->n++] = *row;
}

void sample_table_add(struct sample_table *t, const struct sample_row *row)
{
	sample_table_push(t, row);
	struct sample_row *r = &t->rows[t->n - 1];
	r->run = pool_intern(t->pool, row->run);
	r->variant = pool_intern(t->pool, row->variant);
	r->cell = pool_intern(t->pool, row->cell);
	r->load = pool_intern(t->pool, row->load);
	r->tool = row->tool ? pool_intern(t->pool, row->tool) : NULL;
	r->metric = pool_intern(t->pool, row->metric);
	r->unit = pool_intern(t->pool, row->unit);
	r->op = pool_intern(t->pool, row->op);
}

void sample_table_free(struct sample_table *t)
{
	if (t->pool) {
		strmap_free(t->pool);
		free(t->pool);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void hist_table_init(struct hist_table *t)
{
	memset(t, 0, sizeof(*t));
	sample_table_init(&t->strings);
}

void hist_table_add(struct hist_table *t, const struct hist_row *row)
{
	t->rows = xgrow(t->rows, &t->cap, t->n, 16, sizeof(*t->rows));
	struct hist_row *r = &t->rows[t->n++];
	struct sample_table *p = &t->strings;
	*r = *row;
	r->run = sample_table_intern(p, row->run);
	r->variant = sample_table_intern(p, row->variant);
	r->cell = sample_table_intern(p, row->cell);
	r->load = sample_table_intern(p, row->load);
	r->tool = row->tool ? sample_table_intern(p, row->tool) : NULL;
	r->metric = sample_table_intern(p, row->metric);
	r->unit = sample_table_intern(p, row->unit);
	r->op = sample_table_intern(p, row->op);
	r->counts = xcalloc(row->n_buckets ? row->n_buckets : 1, sizeof(*r->counts));
	if (row->n_buckets)
		memcpy(r->counts, row->counts, row->n_buckets * sizeof(*r->counts));
	r->bounds = NULL;
	if (row->bounds) {
		r->bounds = xcalloc(row->n_buckets ? row->n_buckets : 1, sizeof(*r->bounds));
		if (row->n_buckets)
			memcpy(r->bounds, row->bounds, row->n_buckets * sizeof(*r->bounds));
	}
}

void hist_table_free(struct hist_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].counts);
		free(t->rows[i].bounds);
	}
	free(t->rows);
	sample_table_free(&t->strings);
	memset(t, 0, sizeof(*t));
}
