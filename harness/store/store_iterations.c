/* Storing iterations: an iteration with its load instances, raw outputs,
 * samples (sample_key and sample_value, queued and written many rows per
 * INSERT), sample flags, histograms and monitor series in one transaction;
 * reparse's rewrite of one instance's samples (store.h). */
#include "store.h"
#include "store_impl.h"

#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

static const char *const save_sql[SAVE_COUNT] = {
	[SAVE_FIND_INCOMPLETE] =
	"SELECT 1 FROM iteration WHERE variant_id = ?1 AND cell_id = ?2 AND iteration = ?3"
	" AND status != 'complete'",
	[SAVE_DROP_SAMPLES] =
	"DELETE FROM sample_value WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_FLAGS] =
	"DELETE FROM sample_flag WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_HISTOGRAMS] =
	"DELETE FROM histogram WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_WINDOW] =
	"DELETE FROM window_sample WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_TRACE] =
	"DELETE FROM trace WHERE iteration_id IN (SELECT id FROM iteration WHERE"
	" variant_id = ?1 AND cell_id = ?2 AND iteration = ?3 AND status != 'complete')",
	[SAVE_DROP_RAW] =
	"DELETE FROM raw_output WHERE load_instance_id IN (SELECT li.id FROM load_instance li"
	" JOIN iteration i ON i.id = li.iteration_id WHERE i.variant_id = ?1 AND"
	" i.cell_id = ?2 AND i.iteration = ?3 AND i.status != 'complete')",
	[SAVE_DROP_INSTANCES] =
	"DELETE FROM load_instance WHERE iteration_id IN (SELECT id FROM iteration WHERE"
	" variant_id = ?1 AND cell_id = ?2 AND iteration = ?3 AND status != 'complete')",
	[SAVE_DROP_SERIES] =
	"DELETE FROM series WHERE iteration_id IN (SELECT id FROM iteration WHERE"
	" variant_id = ?1 AND cell_id = ?2 AND iteration = ?3 AND status != 'complete')",
	[SAVE_DROP_ITERATION] =
	"DELETE FROM iteration WHERE variant_id = ?1 AND cell_id = ?2 AND iteration = ?3"
	" AND status != 'complete'",
	[SAVE_ITERATION] =
	"INSERT INTO iteration (variant_id, cell_id, iteration, status, started_at,"
	" ended_at) VALUES (?, ?, ?, ?, ?, ?)",
	[SAVE_INSTANCE] =
	"INSERT INTO load_instance (iteration_id, seq, repetition, name, tool,"
	" role, argv, pid, sched_requested, sched_applied, state, exit_code,"
	" term_signal, reason, started_ns, ended_ns, elapsed_s, user_s, system_s)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[SAVE_RAW] = "INSERT INTO raw_output (load_instance_id, stdout, stderr) VALUES (?,?,?)",
	[SAVE_KEY_ADD] =
	"INSERT OR IGNORE INTO sample_key (metric, unit, better, op) VALUES (?1, ?2, ?3, ?4)",
	[SAVE_KEY_ID] =
	"SELECT id FROM sample_key WHERE metric = ?1 AND unit = ?2 AND better = ?3 AND op = ?4",
	[SAVE_VALUE] =
	"INSERT INTO sample_value (load_instance_id, seq, key_id, value) VALUES (?, ?, ?, ?)",
	[SAVE_VALUES] = NULL, /* VALUES_PER_INSERT rows of SAVE_VALUE, built by save_stmt */
	[SAVE_FLAG] = "INSERT INTO sample_flag (load_instance_id, seq, flag) VALUES (?, ?, ?)",
	[SAVE_HISTOGRAM] =
	"INSERT INTO histogram (load_instance_id, seq, metric, unit, op, bucket_width,"
	" n_buckets, limit_value, overflow, max_observed, counts, bounds, min_observed,"
	" sum_value, sum_sq_value)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[SAVE_SERIES] =
	"INSERT INTO series (iteration_id, monitor, key, cpu, pid, tgid, t_ms,"
	" value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
	[SAVE_WINDOW] =
	"INSERT INTO window_sample (load_instance_id, seq, key_id, value) VALUES (?, ?, ?, ?)",
	[SAVE_TRACE] =
	"INSERT INTO trace (iteration_id, path, events, buffer_kb, window_start_ns,"
	" window_end_ns, bytes, lines, lost_events, warning)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
};

/* The cached statement k, reset with its bindings cleared; NULL when it
 * cannot be prepared (sqlite3_errmsg says why). */
static sqlite3_stmt *save_stmt(struct store *s, enum save_stmt k)
{
	sqlite3_stmt *st = s->save_st[k];
	if (!st) {
		char *many = NULL;
		if (k == SAVE_VALUES) {
			size_t n = strlen(save_sql[SAVE_VALUE]) + VALUES_PER_INSERT * sizeof(",(?,?,?,?)");
			many = xmalloc(n);
			snprintf(many, n, "%s", save_sql[SAVE_VALUE]);
			for (int i = 1; i < VALUES_PER_INSERT; i++)
				strcat(many, ",(?,?,?,?)");
		}
		int rc = sqlite3_prepare_v3(s->db, many ? many : save_sql[k], -1,
					    SQLITE_PREPARE_PERSISTENT, &s->save_st[k], NULL);
		free(many);
		if (rc != SQLITE_OK)
			return s->save_st[k] = NULL;
		return s->save_st[k];
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return st;
}

/* store_exec with the cached statement k (left reset-pending, not finalized). */
static int exec_saved(struct store *s, enum save_stmt k, const char *spec, ...)
{
	sqlite3_stmt *st = save_stmt(s, k);
	va_list ap;

	if (!st)
		return -1;
	va_start(ap, spec);
	int rc = store_bind_step(st, spec, ap);
	va_end(ap);
	sqlite3_reset(st);
	return rc;
}

bool store_iteration_complete(struct store *s, int64_t variant_id, int64_t cell_id, int iteration)
{
	sqlite3_stmt *st;
	bool done = false;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT 1 FROM iteration WHERE variant_id = ? AND cell_id = ? AND"
			       " iteration = ? AND status = 'complete'",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, variant_id);
	sqlite3_bind_int64(st, 2, cell_id);
	sqlite3_bind_int(st, 3, iteration);
	done = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return done;
}

int store_sample_key_id(struct store *s, const char *metric, const char *unit,
			 enum better better, const char *op, int64_t *id)
{
	const char *b = better_name(better);
	const char *part[4] = {metric, unit, b, op};
	size_t len[4], need = 0;
	for (int i = 0; i < 4; i++)
		need += (len[i] = strlen(part[i])) + 1;
	if (need > s->key_cap) {
		s->key_cap = need * 2;
		s->key_buf = xrealloc(s->key_buf, s->key_cap);
	}
	char *p = s->key_buf; /* the four joined by \x1f (snprintf: 5 % of storing) */
	for (int i = 0; i < 4; i++) {
		memcpy(p, part[i], len[i]);
		p += len[i];
		*p++ = i < 3 ? '\x1f' : '\0';
	}
	int64_t *cached = strmap_get(&s->key_ids, s->key_buf);
	if (cached) {
		*id = *cached;
		return 0;
	}
	if (exec_saved(s, SAVE_KEY_ADD, "tttt", metric, unit, b, op))
		return -1;
	sqlite3_stmt *st = save_stmt(s, SAVE_KEY_ID);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, unit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, b, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, op, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		strmap_add(&s->key_ids, s->key_buf, *id);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static void bind_value(sqlite3_stmt *st, int first, const struct pending_value *p)
{
	sqlite3_bind_int64(st, first, p->instance_id);
	sqlite3_bind_int64(st, first + 1, p->seq);
	sqlite3_bind_int64(st, first + 2, p->key_id);
	if (isnan(p->value))
		sqlite3_bind_null(st, first + 3);
	else
		sqlite3_bind_double(st, first + 3, p->value);
}

/* Write the queued sample_value rows: a full queue with one multi-row
 * INSERT, a partial one row by row. */
int store_values_flush(struct store *s)
{
	size_t n = s->n_pending;
	s->n_pending = 0;
	sqlite3_stmt *st = save_stmt(s, n == VALUES_PER_INSERT ? SAVE_VALUES : SAVE_VALUE);
	if (!st)
		return -1;
	int rc = SQLITE_DONE;
	if (n == VALUES_PER_INSERT) {
		for (size_t i = 0; i < n; i++)
			bind_value(st, (int)(4 * i + 1), &s->pending[i]);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	for (size_t i = 0; n < VALUES_PER_INSERT && i < n && rc == SQLITE_DONE; i++) {
		bind_value(st, 1, &s->pending[i]);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

int store_value_add(struct store *s, int64_t instance_id, int64_t seq, const char *metric,
		    const char *unit, enum better better, const char *op, double value)
{
	int64_t key_id;
	if (store_sample_key_id(s, metric, unit, better, op, &key_id))
		return -1;
	return store_value_add_key(s, instance_id, seq, key_id, value);
}

int store_value_add_key(struct store *s, int64_t instance_id, int64_t seq, int64_t key_id,
			double value)
{
	s->pending[s->n_pending] = (struct pending_value){instance_id, seq, key_id, value};
	return ++s->n_pending == VALUES_PER_INSERT ? store_values_flush(s) : 0;
}

static int insert_samples(struct store *s, int64_t instance_id, const struct sample_vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct sample *x = &v->v[i];
		if (store_value_add(s, instance_id, (int64_t)i, x->metric, x->unit, x->better, x->op,
				    x->value))
			return -1;
		if (x->flag && exec_saved(s, SAVE_FLAG, "IIt", instance_id, (int64_t)i, x->flag))
			return -1;
	}
	return 0;
}

unsigned char *store_counts_le(const uint64_t *counts, size_t n)
{
	unsigned char *b = xcalloc(n ? n : 1, 8);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(counts[i] >> (8 * k));
	return b;
}

unsigned char *store_doubles_le(const double *v, size_t n)
{
	uint64_t *bits = xcalloc(n ? n : 1, sizeof(*bits));
	for (size_t i = 0; i < n; i++)
		memcpy(&bits[i], &v[i], sizeof(bits[i]));
	unsigned char *b = store_counts_le(bits, n);
	free(bits);
	return b;
}

/* Bind v, or NULL for NaN. */
static void bind_real(sqlite3_stmt *st, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_double(st, col, v);
}

static int insert_histograms(struct store *s, int64_t instance_id, const struct sample_vec *v)
{
	sqlite3_stmt *st = save_stmt(s, SAVE_HISTOGRAM);
	if (!st)
		return -1;
	for (size_t i = 0; i < v->n_hists; i++) {
		const struct sample_hist *h = &v->hists[i];
		unsigned char *blob = store_counts_le(h->counts, h->n_buckets);
		sqlite3_bind_int64(st, 1, instance_id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_text(st, 3, h->metric, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, h->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, h->op, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 6, h->bucket_width);
		sqlite3_bind_int64(st, 7, (int64_t)h->n_buckets);
		sqlite3_bind_double(st, 8, h->limit);
		sqlite3_bind_int64(st, 9, (int64_t)h->overflow);
		bind_real(st, 10, h->max_observed);
		sqlite3_bind_blob64(st, 11, blob, (sqlite3_uint64)h->n_buckets * 8, SQLITE_TRANSIENT);
		unsigned char *bounds = h->bounds ? store_doubles_le(h->bounds, h->n_buckets) : NULL;
		if (bounds)
			sqlite3_bind_blob64(st, 12, bounds, (sqlite3_uint64)h->n_buckets * 8,
					    SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, 12);
		bind_real(st, 13, h->min_observed);
		bind_real(st, 14, h->sum);
		bind_real(st, 15, h->sum_sq);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		free(blob);
		free(bounds);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

/* The instance's window samples (table window_sample). */
static int insert_window(struct store *s, int64_t instance_id, const struct sample_vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct sample *x = &v->v[i];
		int64_t key;
		if (store_sample_key_id(s, x->metric, x->unit, x->better, x->op, &key))
			return -1;
		sqlite3_stmt *st = save_stmt(s, SAVE_WINDOW);
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, instance_id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_int64(st, 3, key);
		bind_real(st, 4, x->value);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

/* The iteration's trace row (store_iteration_trace). */
static int insert_trace(struct store *s, int64_t iteration_id, const struct stored_trace_row *t)
{
	return exec_saved(s, SAVE_TRACE, "IttiIIIIIt", iteration_id, t->path, t->events,
			  t->buffer_kb, t->window_start_ns, t->window_end_ns, (int64_t)t->bytes,
			  (int64_t)t->lines, (int64_t)t->lost, t->warning && *t->warning ? t->warning : NULL);
}

static int insert_instance(struct store *s, int64_t iteration_id, const struct stored_instance *in)
{
	sqlite3_stmt *st = save_stmt(s, SAVE_INSTANCE); /* bindings cleared: NULL */
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, iteration_id);
	sqlite3_bind_int(st, 2, in->seq);
	sqlite3_bind_int(st, 3, in->repetition);
	sqlite3_bind_text(st, 4, in->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, in->tool, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, in->role, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, in->argv, -1, SQLITE_STATIC);
	if (in->pid > 0)
		sqlite3_bind_int(st, 8, in->pid);
	sqlite3_bind_text(st, 9, in->sched_requested, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, in->sched_applied, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, in->state, -1, SQLITE_STATIC);
	if (in->exited)
		sqlite3_bind_int(st, 12, in->exit_code);
	if (in->term_signal)
		sqlite3_bind_int(st, 13, in->term_signal);
	sqlite3_bind_text(st, 14, in->reason, -1, SQLITE_STATIC);
	if (in->started_ns)
		sqlite3_bind_int64(st, 15, in->started_ns);
	if (in->ended_ns)
		sqlite3_bind_int64(st, 16, in->ended_ns);
	sqlite3_bind_double(st, 17, in->elapsed_s);
	sqlite3_bind_double(st, 18, in->user_s);
	sqlite3_bind_double(st, 19, in->system_s);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return -1;
	int64_t id = sqlite3_last_insert_rowid(s->db);
	if (exec_saved(s, SAVE_RAW, "Ibb", id, in->out, in->out_len, in->err, in->err_len))
		return -1;
	if (in->samples && insert_samples(s, id, in->samples))
		return -1;
	if (in->samples && in->samples->n_hists && insert_histograms(s, id, in->samples))
		return -1;
	return in->window ? insert_window(s, id, in->window) : 0;
}

/* Monitor series rows of one iteration (store_iteration_series). */
static int insert_series(struct store *s, int64_t iteration_id, const struct stored_series_set *set)
{
	sqlite3_stmt *st = save_stmt(s, SAVE_SERIES);
	if (!st)
		return -1;
	for (size_t i = 0; i < set->n_points; i++) {
		const struct stored_point *p = &set->points[i];
		if (p->series >= set->n_series)
			continue;
		const struct stored_series *se = &set->series[p->series];
		sqlite3_bind_int64(st, 1, iteration_id);
		sqlite3_bind_text(st, 2, se->monitor, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, se->key, -1, SQLITE_STATIC);
		if (se->cpu >= 0)
			sqlite3_bind_int(st, 4, se->cpu);
		else
			sqlite3_bind_null(st, 4);
		if (se->pid > 0) {
			sqlite3_bind_int(st, 5, se->pid);
			sqlite3_bind_int(st, 6, se->tgid > 0 ? se->tgid : se->pid);
		} else {
			sqlite3_bind_null(st, 5);
			sqlite3_bind_null(st, 6);
		}
		sqlite3_bind_double(st, 7, p->t_ms);
		if (isnan(p->value))
			sqlite3_bind_null(st, 8);
		else
			sqlite3_bind_double(st, 8, p->value);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

void store_iteration_series(struct store *s, const struct stored_series_set *set)
{
	s->series = set;
}

void store_iteration_trace(struct store *s, const struct stored_trace_row *t)
{
	s->trace = t;
}

int store_iteration_save(struct store *s, int64_t variant_id, int64_t cell_id, int iteration,
			 const char *status, const char *started_at, const char *ended_at,
			 const struct stored_instance *inst, size_t n_inst, char *err, size_t errsz)
{
	const struct stored_series_set *series = s->series;
	const struct stored_trace_row *trace = s->trace;
	s->series = NULL;
	s->trace = NULL;
	if (store_begin(s, err, errsz))
		return -1;
	/* An incomplete earlier record (run --resume) is dropped first; the
	 * seven deletes run only when there is one. */
	sqlite3_stmt *find = save_stmt(s, SAVE_FIND_INCOMPLETE);
	if (!find)
		goto out_fail;
	sqlite3_bind_int64(find, 1, variant_id);
	sqlite3_bind_int64(find, 2, cell_id);
	sqlite3_bind_int(find, 3, iteration);
	int found = sqlite3_step(find);
	sqlite3_reset(find);
	if (found != SQLITE_ROW && found != SQLITE_DONE)
		goto out_fail;
	for (int k = SAVE_DROP_SAMPLES; found == SQLITE_ROW && k <= SAVE_DROP_ITERATION; k++)
		if (exec_saved(s, k, "IIi", variant_id, cell_id, iteration))
			goto out_fail;
	if (exec_saved(s, SAVE_ITERATION, "IIittt", variant_id, cell_id, iteration, status,
		       started_at, ended_at))
		goto out_fail;
	int64_t iteration_id = sqlite3_last_insert_rowid(s->db);
	for (size_t i = 0; i < n_inst; i++)
		if (insert_instance(s, iteration_id, &inst[i]))
			goto out_fail;
	if (series && insert_series(s, iteration_id, series))
		goto out_fail;
	if (trace && insert_trace(s, iteration_id, trace))
		goto out_fail;
	if (store_values_flush(s))
		goto out_fail;
	return store_commit(s, err, errsz);

out_fail:
	store_fail(s, "cannot store the iteration", err, errsz);
	store_rollback(s);
	return -1;
}

int store_instance_outcome(struct store *s, int64_t instance_id, const char *state,
			   const char *reason, const struct sample_vec *samples, char *err,
			   size_t errsz)
{
	static const char *const drop[] = {
		"DELETE FROM sample_value WHERE load_instance_id = ?",
		"DELETE FROM sample_flag WHERE load_instance_id = ?",
		"DELETE FROM histogram WHERE load_instance_id = ?",
	};
	for (size_t k = 0; k < sizeof(drop) / sizeof(drop[0]); k++)
		if (store_exec_bound(s, drop[k], "I", instance_id))
			return store_fail(s, "cannot drop an instance's samples", err, errsz);
	return store_write(s, "cannot store an instance's samples", err, errsz,
			   "UPDATE load_instance SET state = ?, reason = ? WHERE id = ?", "ttI",
			   state, reason,
			   instance_id) || (samples && insert_samples(s, instance_id, samples)) || (samples && samples->n_hists && insert_histograms(s, instance_id, samples)) || store_values_flush(s);
}

int store_iteration_status(struct store *s, int64_t iteration_id, const char *status, char *err,
			   size_t errsz)
{
	return store_write(s, "cannot set an iteration's status", err, errsz,
			   "UPDATE iteration SET status = ? WHERE id = ?", "tI", status,
			   iteration_id);
}
