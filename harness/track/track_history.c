/* A config's histories read from the results database, and split by host
 * fingerprint (track.h). */
#include "track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store_track.h"
#include "strmap.h"
#include "track_host.h"

/* The samples of one (cell, load, metric, op) of one run and variant. */
struct tally {
	const struct sample_row *first;
	double sum;
	size_t n;
};

static void point_free(struct track_point *p)
{
	free(p->revision);
	free(p->commit);
	free(p->source);
	free(p->started_at);
	free(p->host);
}

static void history_free(struct track_history *h)
{
	free(h->config);
	free(h->variant);
	free(h->cell);
	free(h->load);
	free(h->metric);
	free(h->unit);
	free(h->op);
	free(h->host);
	free(h->split_fields);
	for (size_t i = 0; i < h->n; i++)
		point_free(&h->p[i]);
	free(h->p);
	free(h->first);
	free(h->order);
}

void track_set_free(struct track_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		history_free(&set->h[i]);
	free(set->h);
	*set = (struct track_set){0};
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Does f select this sample row's metric, op and cell? */
static bool selects(const struct track_filter *f, const struct sample_row *r)
{
	if (f->op && strcmp(f->op, r->op))
		return false;
	if (f->cell && strcmp(f->cell, r->cell))
		return false;
	if (!f->metric)
		return true;
	const char *colon = strchr(f->metric, ':');
	if (!colon)
		return !strcmp(f->metric, r->metric);
	return strlen(r->load) == (size_t)(colon - f->metric) &&
	       !strncmp(f->metric, r->load, (size_t)(colon - f->metric)) &&
	       !strcmp(colon + 1, r->metric);
}

static void add_point(struct track_history *h, const struct track_point *p)
{
	h->p = xrealloc(h->p, (h->n + 1) * sizeof(*h->p));
	h->p[h->n++] = *p;
}

/* The history of config, variant and r's key in set (made when new). */
static struct track_history *history_for(struct track_set *set, struct strmap *index,
					 const char *config, const char *variant,
					 const struct sample_row *r)
{
	struct buf key = {0};
	buf_printf(&key, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%s", config, variant, r->cell,
		   r->load, r->metric, r->unit, (int)r->better, r->op);
	int64_t *at = strmap_get(index, buf_str(&key));
	if (!at) {
		set->h = xrealloc(set->h, (set->n + 1) * sizeof(*set->h));
		set->h[set->n] = (struct track_history){
			.config = xstrdup(config), .variant = xstrdup(variant),
			.cell = xstrdup(r->cell), .load = xstrdup(r->load), .metric = xstrdup(r->metric),
			.unit = xstrdup(r->unit), .op = xstrdup(r->op), .better = r->better,
			.part = 1, .n_parts = 1,
		};
		strmap_add(index, buf_str(&key), (int64_t)set->n++);
		at = strmap_get(index, buf_str(&key));
	}
	buf_free(&key);
	return &set->h[*at];
}

/* The points of run row's variant from the run's samples t. */
static void add_run(struct track_set *set, struct strmap *index, const struct track_filter *f,
		    const struct stored_track_run *row, const struct sample_table *t,
		    const char *host)
{
	struct tally *k = NULL;
	size_t n_k = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		if (strcmp(r->variant, row->variant) || !selects(f, r) || isnan(r->value))
			continue;
		size_t j = 0;
		while (j < n_k && !(k[j].first->cell == r->cell && k[j].first->load == r->load &&
				    k[j].first->metric == r->metric && k[j].first->unit == r->unit &&
				    k[j].first->better == r->better && k[j].first->op == r->op))
			j++;
		if (j == n_k) {
			k = xrealloc(k, (n_k + 1) * sizeof(*k));
			k[n_k++] = (struct tally){r, 0, 0};
		}
		k[j].sum += r->value;
		k[j].n++;
	}
	for (size_t j = 0; j < n_k; j++) {
		struct track_point p = {
			.run_id = row->run_id, .variant_id = row->variant_id,
			.has_revision = row->has_revision, .kind = row->kind,
			.revision = row->has_revision ? xstrdup(row->revision)
						      : xasprintf("run %lld", (long long)row->run_id),
			.commit = dup_or_null(row->commit_hash), .source = dup_or_null(row->source),
			.started_at = dup_or_null(row->started_at), .host = dup_or_null(host),
			.value = k[j].sum / (double)k[j].n, .n = k[j].n,
		};
		add_point(history_for(set, index, row->config, row->variant, k[j].first), &p);
	}
	free(k);
}

/* Each split history's part 1: which host-state fields its parts differ
 * in (their first runs'). 0, or -1 with err. */
static int split_fields(struct store *st, struct track_set *set, char *err, size_t errsz)
{
	for (size_t i = 0; i < set->n; i++) {
		struct track_history *h = &set->h[i];
		if (h->part != 1 || h->n_parts < 2 || i + h->n_parts > set->n)
			continue;
		int64_t *runs = xcalloc(h->n_parts, sizeof(*runs));
		int64_t *vars = xcalloc(h->n_parts, sizeof(*vars));
		size_t n = 0;
		for (size_t j = 0; j < h->n_parts; j++)
			if (set->h[i + j].n) {
				runs[n] = set->h[i + j].p[0].run_id;
				vars[n++] = set->h[i + j].p[0].variant_id;
			}
		h->split_fields = track_host_differing(st, runs, vars, n, err, errsz);
		free(runs);
		free(vars);
		if (!h->split_fields)
			return -1;
	}
	return 0;
}

int track_histories_load(struct store *st, const struct track_filter *f, struct track_set *set,
			 char *err, size_t errsz)
{
	struct stored_track_run *rows;
	size_t n;
	struct strmap index = {0};
	*set = (struct track_set){0};
	if (store_track_runs(st, f->config, &rows, &n, err, errsz))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (f->variant && strcmp(f->variant, rows[i].variant))
			continue;
		/* Interning makes equal strings of one table one pointer
		 * (add_run compares them so): one table per run. */
		struct sample_table t;
		char host[65];
		int h = track_host_fingerprint(st, rows[i].variant_id, host, err, errsz);
		sample_table_init(&t);
		if (h < 0 || store_load_rows(st, &rows[i].run_id, 1, &t, err, errsz)) {
			sample_table_free(&t);
			rc = -1;
			break;
		}
		add_run(set, &index, f, &rows[i], &t, h == 0 ? host : NULL);
		sample_table_free(&t);
	}
	store_track_runs_free(rows, n);
	strmap_free(&index);
	if (rc) {
		track_set_free(set);
		return -1;
	}
	track_split_by_host(set);
	for (size_t i = 0; i < set->n; i++)
		track_order(&set->h[i]);
	if (split_fields(st, set, err, errsz)) {
		track_set_free(set);
		return -1;
	}
	return 0;
}

static bool same_host(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A copy of h without its points. */
static struct track_history part_of(const struct track_history *h)
{
	return (struct track_history){
		.config = xstrdup(h->config), .variant = xstrdup(h->variant),
		.cell = xstrdup(h->cell), .load = xstrdup(h->load), .metric = xstrdup(h->metric),
		.unit = xstrdup(h->unit), .op = xstrdup(h->op), .better = h->better,
	};
}

void track_split_by_host(struct track_set *set)
{
	struct track_set out = {0};
	for (size_t i = 0; i < set->n; i++) {
		struct track_history *h = &set->h[i];
		size_t first_part = out.n;
		for (size_t k = 0; k < h->n; k++) {
			size_t j = first_part;
			while (j < out.n && !same_host(out.h[j].host, h->p[k].host))
				j++;
			if (j == out.n) {
				out.h = xrealloc(out.h, (out.n + 1) * sizeof(*out.h));
				out.h[out.n] = part_of(h);
				out.h[out.n].host = dup_or_null(h->p[k].host);
				out.h[out.n].part = out.n - first_part + 1;
				out.n++;
			}
			add_point(&out.h[j], &h->p[k]);
		}
		for (size_t j = first_part; j < out.n; j++)
			out.h[j].n_parts = out.n - first_part;
		/* The points moved to the parts. */
		h->n = 0;
		history_free(h);
	}
	free(set->h);
	*set = out;
}
