/* A run's stored load instances for schedrig reparse (store_reparse.h). */
#include "store_reparse.h"

#include <math.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"

static const struct store_row_shape reparse_inst_shape = {
	"SELECT li.id, i.id, v.name, c.name, li.name, li.tool, li.role, li.state, li.reason,"
	" i.status, i.iteration, li.seq, li.pid IS NOT NULL, li.exit_code IS NOT NULL,"
	" ifnull(li.exit_code, 0), ifnull(li.term_signal, 0),"
	" li.state = 'stopped' OR (li.state <> 'ok' AND li.role = 'background' AND"
	" li.ended_ns >= (SELECT max(m.ended_ns) FROM load_instance m"
	" WHERE m.iteration_id = i.id AND m.role = 'measured')),"
	" li.role = 'background' AND li.ended_ns < (SELECT min(m.started_ns) FROM"
	" load_instance m WHERE m.iteration_id = i.id AND m.role = 'measured'),"
	" li.sched_requested, li.sched_applied"
	" FROM load_instance li JOIN iteration i ON i.id = li.iteration_id"
	" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
	" WHERE v.run_id = ?1 ORDER BY v.seq, c.seq, i.iteration, li.seq, li.repetition",
	"cannot read the run's instances", sizeof(struct stored_reparse_inst), NULL, {
	{STORE_INT64, offsetof(struct stored_reparse_inst, id)},
	{STORE_INT64, offsetof(struct stored_reparse_inst, iteration_id)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, variant)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, cell)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, load)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, tool)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, role)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, state)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, reason)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, it_status)},
	{STORE_INT, offsetof(struct stored_reparse_inst, iteration)},
	{STORE_INT, offsetof(struct stored_reparse_inst, seq)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, started)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, exited)},
	{STORE_INT, offsetof(struct stored_reparse_inst, exit_code)},
	{STORE_INT, offsetof(struct stored_reparse_inst, term_signal)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, stopped)},
	{STORE_BOOL, offsetof(struct stored_reparse_inst, warmup)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, sched_requested)},
	{STORE_TEXT, offsetof(struct stored_reparse_inst, sched_applied)},
}};

int store_reparse_instances(struct store *s, int64_t run_id, struct stored_reparse_inst **rows,
			    size_t *n, char *err, size_t errsz)
{
	return store_rows(s, &reparse_inst_shape, run_id, (void **)rows, n, err, errsz);
}

void store_reparse_rows_free(struct stored_reparse_inst *rows, size_t n)
{
	store_rows_free(&reparse_inst_shape, rows, n);
}

/* Column col of st's row appended to b: the blob first, then its size, as
 * SQLite wants; an empty one is NULL and appends nothing. */
static void append_column(struct buf *b, sqlite3_stmt *st, int col)
{
	const void *data = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	if (data && n)
		buf_append(b, data, n);
}

int store_raw_output(struct store *s, int64_t instance_id, struct buf *out, struct buf *errb,
		     char *err, size_t errsz)
{
	static const char what[] = "cannot read the raw output";
	buf_append(out, "", 0);
	buf_append(errb, "", 0);
	sqlite3_stmt *st = store_prepare_id(
		s, "SELECT stdout, stderr FROM raw_output WHERE load_instance_id = ?1", instance_id,
		what, err, errsz);
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		append_column(out, st, 0);
		append_column(errb, st, 1);
	} else if (rc != SQLITE_DONE) {
		store_fail(s, what, err, errsz);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Does the stored sample of st's row equal x (NULL: v has fewer)? */
static bool same_sample(sqlite3_stmt *st, const struct sample *x)
{
	double v = store_col_real(st, 2);
	const char *flag = (const char *)sqlite3_column_text(st, 3);
	return x && !strcmp((const char *)sqlite3_column_text(st, 0), x->metric) &&
	       !strcmp((const char *)sqlite3_column_text(st, 1), x->op) &&
	       (v == x->value || (isnan(v) && isnan(x->value))) &&
	       !(flag ? !x->flag || strcmp(flag, x->flag) : x->flag != NULL);
}

/* Equal, with NaN (a NULL column) equal to NaN. */
static bool same_real(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Is column col of st's row the blob want of size bytes (NULL: a NULL
 * column)? Frees want. */
static bool same_blob(sqlite3_stmt *st, int col, unsigned char *want, size_t size)
{
	const void *got = sqlite3_column_blob(st, col);
	bool same = want ? got && (size_t)sqlite3_column_bytes(st, col) == size &&
				   !memcmp(got, want, size) :
			   sqlite3_column_type(st, col) == SQLITE_NULL;
	free(want);
	return same;
}

/* Does the stored histogram of st's row equal h (NULL: v has fewer), every
 * column as store_iterations.c writes it? */
static bool same_hist(sqlite3_stmt *st, const struct sample_hist *h)
{
	return h && !strcmp((const char *)sqlite3_column_text(st, 0), h->metric) &&
	       !strcmp((const char *)sqlite3_column_text(st, 1), h->unit) &&
	       !strcmp((const char *)sqlite3_column_text(st, 2), h->op) &&
	       sqlite3_column_double(st, 3) == h->bucket_width &&
	       sqlite3_column_int64(st, 4) == (int64_t)h->n_buckets &&
	       sqlite3_column_double(st, 5) == h->limit &&
	       sqlite3_column_int64(st, 6) == (int64_t)h->overflow &&
	       same_real(store_col_real(st, 7), h->max_observed) &&
	       same_blob(st, 8, store_counts_le(h->counts, h->n_buckets), h->n_buckets * 8) &&
	       same_blob(st, 9, h->bounds ? store_doubles_le(h->bounds, h->n_buckets) : NULL,
			 h->n_buckets * 8) &&
	       same_real(store_col_real(st, 10), h->min_observed) &&
	       same_real(store_col_real(st, 11), h->sum) &&
	       same_real(store_col_real(st, 12), h->sum_sq);
}

/* Whether the instance's stored histograms equal those of v into *same. 0,
 * or -1 with err. */
static int hists_same(struct store *s, int64_t instance_id, const struct sample_vec *v,
		      bool *same, char *err, size_t errsz)
{
	static const char what[] = "cannot read the stored histograms";
	sqlite3_stmt *st = store_prepare_id(
		s,
		"SELECT metric, unit, op, bucket_width, n_buckets, limit_value, overflow, max_observed,"
		" counts, bounds, min_observed, sum_value, sum_sq_value FROM histogram"
		" WHERE load_instance_id = ?1 ORDER BY seq",
		instance_id, what, err, errsz);
	if (!st)
		return -1;
	int rc;
	size_t n = 0;
	for (; (rc = sqlite3_step(st)) == SQLITE_ROW; n++)
		*same = *same && same_hist(st, n < v->n_hists ? &v->hists[n] : NULL);
	if (rc != SQLITE_DONE)
		store_fail(s, what, err, errsz);
	sqlite3_finalize(st);
	*same = *same && n == v->n_hists;
	return rc == SQLITE_DONE ? 0 : -1;
}

int store_samples_same(struct store *s, int64_t instance_id, const struct sample_vec *v,
		       bool *same, size_t *n_stored, char *err, size_t errsz)
{
	static const char what[] = "cannot read the stored samples";
	sqlite3_stmt *st = store_prepare_id(
		s,
		"SELECT k.metric, k.op, v.value, f.flag"
		" FROM sample_value v JOIN sample_key k ON k.id = v.key_id"
		" LEFT JOIN sample_flag f ON f.load_instance_id = v.load_instance_id"
		" AND f.seq = v.seq WHERE v.load_instance_id = ?1 ORDER BY v.seq",
		instance_id, what, err, errsz);
	if (!st)
		return -1;
	int rc;
	*same = true;
	*n_stored = 0;
	for (size_t i = 0; (rc = sqlite3_step(st)) == SQLITE_ROW; i++, (*n_stored)++)
		*same = *same && same_sample(st, i < v->n ? &v->v[i] : NULL);
	if (rc != SQLITE_DONE)
		store_fail(s, what, err, errsz);
	sqlite3_finalize(st);
	*same = *same && *n_stored == v->n;
	if (rc != SQLITE_DONE)
		return -1;
	return hists_same(s, instance_id, v, same, err, errsz);
}
