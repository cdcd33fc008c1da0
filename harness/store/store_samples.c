/* Reading samples and histograms for reports: the samples of the complete
 * iterations of the selected runs, in config order, into a sample_table,
 * and their histograms into a hist_table (store.h). Nothing read is
 * trusted: keys, counts and bounds are checked. */
#include "store.h"
#include "store_impl.h"

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* n little-endian u64 from blob (8·n bytes) into out. */
static void le_to_u64(const unsigned char *blob, size_t n, uint64_t *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = 0;
		for (int b = 7; b >= 0; b--)
			out[i] = out[i] << 8 | blob[i * 8 + b];
	}
}

static bool names_distinct(struct store *s, const int64_t *ids, size_t n)
{
	bool distinct = true;
	sqlite3_stmt *st;
	char **names = xcalloc(n, sizeof(*names));

	if (sqlite3_prepare_v2(s->db, "SELECT name FROM run WHERE id = ?", -1, &st, NULL) != SQLITE_OK) {
		free(names);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		names[i] = xstrdup(sqlite3_step(st) == SQLITE_ROW ?
					   (const char *)sqlite3_column_text(st, 0) : "");
		sqlite3_reset(st);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				distinct = false;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return distinct;
}

/* An instance of the selected run: its id and its rank in config order. */
struct ranked_instance {
	int64_t id;
	size_t rank;
};

static int by_instance_id(const void *a, const void *b)
{
	const struct ranked_instance *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* Put rows[from..n) into instance rank order (a stable counting sort over
 * instances; rows within an instance keep their seq order). */
static void order_by_rank(struct sample_table *t, size_t from, const size_t *rank, size_t n_ranks)
{
	size_t n = t->n - from;
	size_t *start = xcalloc(n_ranks + 1, sizeof(*start));
	for (size_t i = 0; i < n; i++)
		start[rank[i] + 1]++;
	for (size_t r = 0; r < n_ranks; r++)
		start[r + 1] += start[r];
	struct sample_row *sorted = xmalloc(n * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		sorted[start[rank[i]]++] = t->rows[from + i];
	memcpy(t->rows + from, sorted, n * sizeof(*sorted));
	free(sorted);
	free(start);
}

/* A sample_key row with its strings interned in a sample_table. */
struct key_names {
	const char *metric, *unit, *op;
	enum better better;
};

/* Every sample_key row, indexed by id (ids without a row: metric NULL);
 * *n is one more than the largest id. */
static int load_keys(struct store *s, struct sample_table *t, struct key_names **keys, size_t *n)
{
	sqlite3_stmt *st;
	int rc;

	*keys = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT id, metric, unit, better, op FROM sample_key"
			       " ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > INT32_MAX) {
			rc = SQLITE_CORRUPT;
			break;
		}
		*keys = xrealloc(*keys, ((size_t)id + 1) * sizeof(**keys));
		memset(*keys + *n, 0, ((size_t)id + 1 - *n) * sizeof(**keys));
		*n = (size_t)id + 1;
		(*keys)[id] = (struct key_names){
			.metric = sample_table_intern(t, store_col_text(st, 1)),
			.unit = sample_table_intern(t, store_col_text(st, 2)),
			.better = better_parse(store_col_text(st, 3)) == BETTER_HIGHER ? BETTER_HIGHER
										 : BETTER_LOWER,
			.op = sample_table_intern(t, store_col_text(st, 4)),
		};
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Where load_run_rows stands in one run's rows. */
struct run_scan {
	const struct sample_row *tmpl;      /* per rank: run, variant, cell, load, iteration */
	const struct ranked_instance *by_id; /* sorted by id */
	size_t n_inst, from, cap, last_rank;
	size_t *rank;                       /* per row appended: its instance's rank */
	bool ordered;
	bool bad_key;                       /* a row named a key that does not exist */
};

/* Append the rows of smp (load_instance_id, key_id, value over the run's
 * id range, bound here) to t, each after its instance's template. Returns
 * SQLITE_DONE, or another code: SQLite's error, or (r->bad_key, with err) a
 * row naming a key that does not exist. */
static int scan_values(struct run_scan *r, const struct key_names *keys, size_t n_keys,
		       sqlite3_stmt *smp, struct sample_table *t, char *err, size_t errsz)
{
	size_t cur = 0;
	int rc;
	sqlite3_bind_int64(smp, 1, r->by_id[0].id);
	sqlite3_bind_int64(smp, 2, r->by_id[r->n_inst - 1].id);
	while ((rc = sqlite3_step(smp)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(smp, 0);
		while (cur < r->n_inst && r->by_id[cur].id < id)
			cur++;
		if (cur == r->n_inst || r->by_id[cur].id != id)
			continue; /* an instance of another run */
		int64_t key = sqlite3_column_int64(smp, 1);
		if (key < 0 || (size_t)key >= n_keys || !keys[key].metric) {
			snprintf(err, errsz, "a sample of load instance %lld names sample_key %lld,"
				 " which does not exist", (long long)id, (long long)key);
			r->bad_key = true;
			rc = SQLITE_ERROR;
			break;
		}
		struct sample_row row = r->tmpl[r->by_id[cur].rank];
		row.metric = keys[key].metric;
		row.unit = keys[key].unit;
		row.better = keys[key].better;
		row.op = keys[key].op;
		row.value = sqlite3_column_type(smp, 2) == SQLITE_NULL ? NAN
								       : sqlite3_column_double(smp, 2);
		sample_table_push(t, &row);
		size_t k = t->n - r->from - 1;
		r->rank = xgrow(r->rank, &r->cap, k, 1024, sizeof(*r->rank));
		r->rank[k] = r->by_id[cur].rank;
		r->ordered &= k == 0 || r->rank[k] >= r->last_rank;
		r->last_rank = r->rank[k];
	}
	sqlite3_reset(smp);
	return rc;
}

/* Append the samples of one run to t in config order: its instances are
 * read (and sorted) first, then all samples in one scan of sample_value's
 * primary key, then the window samples (window_sample) the same way, each
 * placed by its instance's rank (an instance's window samples after its
 * parser's). A sample naming a key that does not exist fails with a
 * message in err. */
static int load_run_rows(struct store *s, int64_t run_id, const char *run_name,
			 const struct key_names *keys, size_t n_keys, sqlite3_stmt *inst,
			 sqlite3_stmt *const smp[2],
			 struct sample_table *t, char *err, size_t errsz)
{
	struct sample_row *tmpl = NULL;      /* per rank: run, variant, cell, load, iteration */
	struct ranked_instance *by_id = NULL;
	size_t n_inst = 0;
	int rc;

	sqlite3_bind_int64(inst, 1, run_id);
	while ((rc = sqlite3_step(inst)) == SQLITE_ROW) {
		tmpl = xrealloc(tmpl, (n_inst + 1) * sizeof(*tmpl));
		by_id = xrealloc(by_id, (n_inst + 1) * sizeof(*by_id));
		tmpl[n_inst] = (struct sample_row){
			.run = sample_table_intern(t, run_name),
			.variant = sample_table_intern(t, store_col_text(inst, 1)),
			.cell = sample_table_intern(t, store_col_text(inst, 2)),
			.load = sample_table_intern(t, store_col_text(inst, 3)),
			.tool = sample_table_intern(t, store_col_text(inst, 5)),
			.iteration = sqlite3_column_int(inst, 4),
			.repetition = sqlite3_column_int(inst, 6),
		};
		by_id[n_inst] = (struct ranked_instance){sqlite3_column_int64(inst, 0), n_inst};
		n_inst++;
	}
	sqlite3_reset(inst);
	struct run_scan r = {.tmpl = tmpl, .by_id = by_id, .n_inst = n_inst, .from = t->n,
			     .ordered = true};
	if (rc == SQLITE_DONE && n_inst) {
		qsort(by_id, n_inst, sizeof(*by_id), by_instance_id);
		rc = scan_values(&r, keys, n_keys, smp[0], t, err, errsz);
		if (rc == SQLITE_DONE)
			rc = scan_values(&r, keys, n_keys, smp[1], t, err, errsz);
		if (rc == SQLITE_DONE && !r.ordered)
			order_by_rank(t, r.from, r.rank, n_inst);
	}
	free(tmpl);
	free(by_id);
	free(r.rank);
	if (rc == SQLITE_DONE)
		return 0;
	if (!r.bad_key)
		store_fail(s, "cannot read samples", err, errsz);
	return -1;
}

int store_load_rows(struct store *s, const int64_t *ids, size_t n_ids,
		    struct sample_table *t, char *err, size_t errsz)
{
	sqlite3_stmt *inst = NULL, *smp[2] = {NULL, NULL};
	bool distinct = names_distinct(s, ids, n_ids);
	struct key_names *keys = NULL;
	size_t n_keys = 0;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT li.id, v.name, c.name, li.name, i.iteration, li.tool,"
			       " li.repetition"
			       " FROM variant v JOIN iteration i ON i.variant_id = v.id"
			       " JOIN cell c ON c.id = i.cell_id"
			       " JOIN load_instance li ON li.iteration_id = i.id"
			       " WHERE v.run_id = ? AND i.status = 'complete'"
			       " ORDER BY v.seq, c.seq, li.seq, i.iteration, li.repetition",
			       -1, &inst, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "SELECT load_instance_id, key_id, value FROM sample_value"
			       " WHERE load_instance_id BETWEEN ? AND ?"
			       " ORDER BY load_instance_id, seq",
			       -1, &smp[0], NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "SELECT load_instance_id, key_id, value FROM window_sample"
			       " WHERE load_instance_id BETWEEN ? AND ?"
			       " ORDER BY load_instance_id, seq",
			       -1, &smp[1], NULL) != SQLITE_OK ||
	    load_keys(s, t, &keys, &n_keys)) {
		sqlite3_finalize(inst);
		sqlite3_finalize(smp[0]);
		sqlite3_finalize(smp[1]);
		free(keys);
		return store_fail(s, "cannot read samples", err, errsz);
	}
	for (size_t k = 0; k < n_ids && rc == 0; k++) {
		char run_name[256];
		sqlite3_stmt *name;
		if (sqlite3_prepare_v2(s->db, "SELECT name FROM run WHERE id = ?", -1, &name, NULL) !=
		    SQLITE_OK) {
			rc = store_fail(s, "cannot read samples", err, errsz);
			break;
		}
		sqlite3_bind_int64(name, 1, ids[k]);
		const char *base = sqlite3_step(name) == SQLITE_ROW ? store_col_text(name, 0) : "";
		if (distinct)
			snprintf(run_name, sizeof(run_name), "%s", base);
		else
			snprintf(run_name, sizeof(run_name), "%s#%lld", base, (long long)ids[k]);
		sqlite3_finalize(name);
		rc = load_run_rows(s, ids[k], run_name, keys, n_keys, inst, smp, t, err, errsz);
	}
	sqlite3_finalize(inst);
	sqlite3_finalize(smp[0]);
	sqlite3_finalize(smp[1]);
	free(keys);
	return rc;
}

/* Column col of st as n_buckets strictly ascending finite doubles into
 * *out (malloc'd); -1 for anything else (nothing from a database is
 * trusted). */
static int hist_bounds(sqlite3_stmt *st, int col, size_t n, double **out)
{
	const unsigned char *blob = sqlite3_column_blob(st, col);
	if ((size_t)sqlite3_column_bytes(st, col) != n * 8 || (n && !blob))
		return -1;
	uint64_t *bits = xcalloc(n ? n : 1, sizeof(*bits));
	double *v = xcalloc(n ? n : 1, sizeof(*v));
	le_to_u64(blob, n, bits);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(&v[i], &bits[i], sizeof(v[i]));
		if (!isfinite(v[i]) || (i && !(v[i] > v[i - 1])))
			rc = -1;
	}
	free(bits);
	if (rc)
		free(v);
	else
		*out = v;
	return rc;
}

int store_load_histograms(struct store *s, const int64_t *ids, size_t n_ids,
			  struct hist_table *t, char *err, size_t errsz)
{
	sqlite3_stmt *st = NULL;
	bool distinct = names_distinct(s, ids, n_ids);
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT r.name, v.name, c.name, li.name, i.iteration, h.metric, h.unit,"
			       " h.op, h.bucket_width, h.n_buckets, h.limit_value, h.overflow,"
			       " h.max_observed, h.counts, h.bounds, h.min_observed, h.sum_value,"
			       " h.sum_sq_value, li.tool"
			       " FROM run r JOIN variant v ON v.run_id = r.id"
			       " JOIN iteration i ON i.variant_id = v.id"
			       " JOIN cell c ON c.id = i.cell_id"
			       " JOIN load_instance li ON li.iteration_id = i.id"
			       " JOIN histogram h ON h.load_instance_id = li.id"
			       " WHERE r.id = ?"
			       " ORDER BY v.seq, c.seq, li.seq, i.iteration, li.repetition, h.seq",
			       -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read histograms", err, errsz);
	for (size_t k = 0; k < n_ids && rc == SQLITE_DONE; k++) {
		sqlite3_bind_int64(st, 1, ids[k]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			char run_name[256];
			if (distinct)
				snprintf(run_name, sizeof(run_name), "%s", store_col_text(st, 0));
			else
				snprintf(run_name, sizeof(run_name), "%s#%lld", store_col_text(st, 0),
					 (long long)ids[k]);
			int64_t nb = sqlite3_column_int64(st, 9);
			const unsigned char *blob = sqlite3_column_blob(st, 13);
			int64_t bytes = sqlite3_column_bytes(st, 13);
			if (nb < 0 || bytes != nb * 8 || (nb && !blob)) {
				sqlite3_finalize(st);
				return err_printf(err, errsz, "histogram of %s has %lld bytes of counts for"
					    " %lld buckets", run_name, (long long)bytes, (long long)nb);
			}
			uint64_t *counts = xcalloc(nb ? (size_t)nb : 1, sizeof(*counts));
			le_to_u64(blob, (size_t)nb, counts);
			double *bounds = NULL;
			if (sqlite3_column_type(st, 14) != SQLITE_NULL &&
			    hist_bounds(st, 14, (size_t)nb, &bounds)) {
				free(counts);
				sqlite3_finalize(st);
				return err_printf(err, errsz, "histogram of %s has bucket bounds that are not"
					    " %lld ascending numbers", run_name, (long long)nb);
			}
			struct hist_row row = {
				.run = run_name,
				.variant = store_col_text(st, 1),
				.cell = store_col_text(st, 2),
				.load = store_col_text(st, 3),
				.tool = store_col_text(st, 18),
				.iteration = sqlite3_column_int(st, 4),
				.metric = store_col_text(st, 5),
				.unit = store_col_text(st, 6),
				.op = store_col_text(st, 7),
				.bucket_width = sqlite3_column_double(st, 8),
				.counts = counts,
				.bounds = bounds,
				.n_buckets = (size_t)nb,
				.limit = sqlite3_column_double(st, 10),
				.overflow = (uint64_t)sqlite3_column_int64(st, 11),
				.max_observed = store_col_real(st, 12),
				.min_observed = store_col_real(st, 15),
				.sum = store_col_real(st, 16),
				.sum_sq = store_col_real(st, 17),
			};
			hist_table_add(t, &row);
			free(counts);
			free(bounds);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read histograms", err, errsz);
	return 0;
}
