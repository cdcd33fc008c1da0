#include "bisect_samples.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void bisect_metric_free(struct bisect_metric *m)
{
	free(m->load);
	free(m->metric);
	free(m->op);
	free(m->cell);
	memset(m, 0, sizeof(*m));
}

void bisect_sample_set_free(struct bisect_sample_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static bool row_matches(const struct sample_row *r, const char *variant,
			const struct bisect_metric *m)
{
	return !strcmp(r->variant, variant) && !strcmp(r->load, m->load) &&
	       !strcmp(r->metric, m->metric) && (!m->op || !strcmp(r->op, m->op)) &&
	       (!m->cell || !strcmp(r->cell, m->cell));
}

int bisect_samples_load(struct store *st, const int64_t *ids, size_t n_ids, const char *variant,
			const struct bisect_metric *m, struct bisect_sample_set *out, char *err,
			size_t errsz)
{
	struct sample_table t;
	memset(out, 0, sizeof(*out));
	sample_table_init(&t);
	if (n_ids && store_load_rows(st, ids, n_ids, &t, err, errsz)) {
		sample_table_free(&t);
		return -1;
	}
	out->v = xcalloc(t.n ? t.n : 1, sizeof(*out->v));
	const char *last_run = NULL;
	int last_it = -1;
	for (size_t i = 0; i < t.n; i++) {
		const struct sample_row *r = &t.rows[i];
		if (!row_matches(r, variant, m) || isnan(r->value))
			continue;
		out->v[out->n++] = r->value;
		out->better = r->better;
		snprintf(out->unit, sizeof(out->unit), "%s", r->unit);
		/* Rows come ordered by run, then iteration (store_load_rows). */
		if (r->run != last_run || r->iteration != last_it)
			out->iterations++;
		last_run = r->run;
		last_it = r->iteration;
	}
	sample_table_free(&t);
	stats_sort(out->v, out->n);
	stats_summarise(out->v, out->n, out->better, &out->sum);
	return 0;
}

/* The distinct values of one field (0 cell, 1 op) of the rows matching m,
 * ", "-separated, and how many there are; the first in *first. */
static size_t distinct(const struct sample_table *t, const char *variant,
		       const struct bisect_metric *m, int field, struct buf *list, const char **first)
{
	size_t n = 0;
	*first = NULL;
	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		if (!row_matches(r, variant, m))
			continue;
		const char *v = field ? r->op : r->cell;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = row_matches(&t->rows[j], variant, m) &&
			       (field ? t->rows[j].op : t->rows[j].cell) == v;
		if (seen)
			continue;
		buf_printf(list, "%s%s", n ? ", " : "", v[0] ? v : "\"\"");
		if (!n)
			*first = v;
		n++;
	}
	return n;
}

/* Decide one field (0 cell, 1 op) of out: want, or the only value. */
static int choose_field(const struct sample_table *t, const char *variant,
			struct bisect_metric *out, int field, const char *want, char *err,
			size_t errsz)
{
	struct buf list = {0};
	const char *first;
	const char *name = field ? "op" : "cell";
	size_t n = distinct(t, variant, out, field, &list, &first);
	int rc = 0;
	if (want) {
		char **slot = field ? &out->op : &out->cell;
		struct buf found = {0};
		*slot = xstrdup(want);
		bool none = !distinct(t, variant, out, field, &found, &first);
		buf_free(&found);
		if (none) {
			snprintf(err, errsz, "--%s %s: the samples of %s:%s have %s%s", name, want,
				 out->load, out->metric, field ? "ops " : "cells ", buf_str(&list));
			rc = -1;
		}
	} else if (n == 1) {
		*(field ? &out->op : &out->cell) = xstrdup(first);
	} else {
		snprintf(err, errsz, "the samples of %s:%s have %s %s: choose one with --%s",
			 out->load, out->metric, field ? "ops" : "cells", buf_str(&list), name);
		rc = -1;
	}
	buf_free(&list);
	return rc;
}

int bisect_metric_choose(struct store *st, const int64_t *ids, size_t n_ids, const char *variant,
			 const char *want_metric, const char *want_op, const char *want_cell,
			 const char *default_load, const char *default_metric,
			 struct bisect_metric *out, char *err, size_t errsz)
{
	struct sample_table t;
	memset(out, 0, sizeof(*out));
	if (want_metric) {
		const char *colon = strchr(want_metric, ':');
		out->load = xasprintf("%.*s", (int)(colon - want_metric), want_metric);
		out->metric = xstrdup(colon + 1);
	} else {
		out->load = xstrdup(default_load);
		out->metric = xstrdup(default_metric);
	}
	sample_table_init(&t);
	int rc = store_load_rows(st, ids, n_ids, &t, err, errsz);
	bool any = false;
	for (size_t i = 0; rc == 0 && i < t.n && !any; i++)
		any = row_matches(&t.rows[i], variant, out);
	if (rc == 0 && !any) {
		snprintf(err, errsz, "the good end %s has no sample of %s:%s (see schedrig compare"
			 " for the metrics it has)", variant, out->load, out->metric);
		rc = -2;
	}
	if (rc == 0)
		rc = choose_field(&t, variant, out, 0, want_cell, err, errsz);
	if (rc == 0)
		rc = choose_field(&t, variant, out, 1, want_op, err, errsz);
	sample_table_free(&t);
	if (rc)
		bisect_metric_free(out);
	return rc;
}

char *bisect_run_failure(struct store *st, int64_t id)
{
	char **msgs, err[256];
	size_t n;
	char *why = NULL;
	if (store_events(st, id, "failure", &msgs, &n, err, sizeof(err)) == 0) {
		if (n)
			why = xasprintf("run %lld failed: %s", (long long)id, msgs[0]);
		strv_free(msgs, n);
	}
	return why ? why : xasprintf("run %lld has no complete iteration", (long long)id);
}
