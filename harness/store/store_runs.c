/* Runs, their variants, cells and event log: the run recorded as it
 * begins, resumes and ends (store.h), run selectors resolved to ids, and a
 * run's provenance read back typed (store_runs.h). */
#include "store_runs.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_impl.h"
#include "util.h"

/* A run row (store_run_read; its id is not a column). */
static const struct store_row_shape run_shape = {
	"SELECT name, status, started_at, ended_at, host, kernel_release, kernel_cmdline, cpu_model,"
	" schedrig_version, config_path, config_text, boot_id, cpu_count, iterations, rig_pid,"
	" rig_start_ticks, (SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id"
	" WHERE v.run_id = run.id AND i.status = 'complete') FROM run WHERE id = ?1",
	"cannot read the run", sizeof(struct stored_run), NULL, {
	{STORE_TEXT, offsetof(struct stored_run, name)},
	{STORE_TEXT, offsetof(struct stored_run, status)},
	{STORE_TEXT, offsetof(struct stored_run, started_at)},
	{STORE_TEXT, offsetof(struct stored_run, ended_at)},
	{STORE_TEXT, offsetof(struct stored_run, host)},
	{STORE_TEXT, offsetof(struct stored_run, kernel_release)},
	{STORE_TEXT, offsetof(struct stored_run, kernel_cmdline)},
	{STORE_TEXT, offsetof(struct stored_run, cpu_model)},
	{STORE_TEXT, offsetof(struct stored_run, schedrig_version)},
	{STORE_TEXT, offsetof(struct stored_run, config_path)},
	{STORE_TEXT, offsetof(struct stored_run, config_text)},
	{STORE_TEXT, offsetof(struct stored_run, boot_id)},
	{STORE_INT64_OR, offsetof(struct stored_run, cpu_count)},
	{STORE_INT64_OR, offsetof(struct stored_run, iterations)},
	{STORE_INT64, offsetof(struct stored_run, rig_pid)},
	{STORE_INT64, offsetof(struct stored_run, rig_start_ticks)},
	{STORE_INT64, offsetof(struct stored_run, complete_iterations)},
}};

static const struct store_row_shape variant_shape = {
	"SELECT id, name, boot, kernel_release, kernel_cmdline, status"
	" FROM variant WHERE run_id = ?1 ORDER BY seq, id",
	"cannot read the run's variants", sizeof(struct stored_variant), NULL, {
	{STORE_INT64, offsetof(struct stored_variant, id)},
	{STORE_TEXT, offsetof(struct stored_variant, name)},
	{STORE_TEXT, offsetof(struct stored_variant, boot)},
	{STORE_TEXT, offsetof(struct stored_variant, kernel_release)},
	{STORE_TEXT, offsetof(struct stored_variant, kernel_cmdline)},
	{STORE_TEXT, offsetof(struct stored_variant, status)},
}};

static const struct store_row_shape event_shape = {
	"SELECT at, kind, message FROM event WHERE run_id = ?1 ORDER BY id",
	"cannot read the run's events", sizeof(struct stored_event), NULL, {
	{STORE_TEXT, offsetof(struct stored_event, at)},
	{STORE_TEXT, offsetof(struct stored_event, kind)},
	{STORE_TEXT, offsetof(struct stored_event, message)},
}};

int store_run_begin(struct store *s, const struct run_info *ri, int64_t *run_id,
		    char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_begin(s, err, errsz))
		return -1;
	if (store_exec_bound(s,
		       "INSERT INTO run (name, config_path, config_text, status, started_at, host,"
		       " kernel_release, kernel_cmdline, cpu_model, cpu_count, schedrig_version,"
		       " iterations, rig_pid, rig_start_ticks, boot_id)"
		       " VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       "ttttttttitiiIt", ri->name, ri->config_path, ri->config_text, now, ri->host,
		       ri->kernel_release, ri->kernel_cmdline, ri->cpu_model, ri->cpu_count,
		       SCHEDRIG_VERSION, ri->iterations, ri->rig.pid, (int64_t)ri->rig.start_ticks,
		       ri->rig.boot_id)) {
		store_fail(s, "cannot record the run", err, errsz);
		store_rollback(s);
		return -1;
	}
	*run_id = sqlite3_last_insert_rowid(s->db);
	return store_commit(s, err, errsz);
}

int store_run_end(struct store *s, int64_t run_id, const char *status, char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	return store_write(s, "cannot finish the run", err, errsz,
			   "UPDATE run SET status = ?, ended_at = ? WHERE id = ?", "ttI", status,
			   now, run_id);
}

int store_variant_id(struct store *s, int64_t run_id, const char *name, int64_t *variant_id,
		     char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT id FROM variant WHERE run_id = ? AND name = ?", -1,
			       &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read variants", err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*variant_id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, "cannot read variants", err, errsz);
	return 0;
}

int store_variant_add(struct store *s, int64_t run_id, int seq, const char *name, const char *boot,
		      const char *kernel_release, const char *kernel_cmdline,
		      int64_t *variant_id, char *err, size_t errsz)
{
	if (store_exec_bound(s,
		       "INSERT INTO variant (run_id, seq, name, boot, kernel_release, kernel_cmdline)"
		       " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, name) DO UPDATE SET"
		       " kernel_release = excluded.kernel_release,"
		       " kernel_cmdline = excluded.kernel_cmdline",
		       "Iitttt", run_id, seq, name, boot, kernel_release, kernel_cmdline))
		return store_fail(s, "cannot record a variant", err, errsz);
	return store_variant_id(s, run_id, name, variant_id, err, errsz);
}

int store_variant_status(struct store *s, int64_t variant_id, const char *status,
			 char *err, size_t errsz)
{
	return store_write(s, "cannot update a variant", err, errsz,
			   "UPDATE variant SET status = ? WHERE id = ?", "tI", status, variant_id);
}

int store_cell_add(struct store *s, int64_t run_id, int seq, const char *name,
		   int64_t *cell_id, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (store_exec_bound(s, "INSERT OR IGNORE INTO cell (run_id, seq, name) VALUES (?, ?, ?)", "Iit",
		       run_id, seq, name) ||
	    sqlite3_prepare_v2(s->db, "SELECT id FROM cell WHERE run_id = ? AND name = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return store_fail(s, "cannot record a cell", err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*cell_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_fail(s, "cannot record a cell", err, errsz);
}

int store_run_config(struct store *s, int64_t run_id, char **path, char **text, int *iterations,
		     char *err, size_t errsz)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT config_path, config_text, iterations FROM run WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read the run", err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW || sqlite3_column_type(st, 1) == SQLITE_NULL) {
		sqlite3_finalize(st);
		return err_printf(err, errsz, "run %lld has no config to resume (imported?)",
			    (long long)run_id);
	}
	*path = xstrdup(sqlite3_column_type(st, 0) == SQLITE_NULL ?
				"config" : (const char *)sqlite3_column_text(st, 0));
	*text = xstrdup((const char *)sqlite3_column_text(st, 1));
	*iterations = sqlite3_column_int(st, 2);
	sqlite3_finalize(st);
	return 0;
}

int store_run_owner(struct store *s, int64_t run_id, struct run_owner *o, char *err,
		    size_t errsz)
{
	sqlite3_stmt *st;
	memset(o, 0, sizeof(*o));
	if (sqlite3_prepare_v2(s->db, "SELECT status, host, boot_id, rig_pid, rig_start_ticks"
			       " FROM run WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read the run", err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(o->status, sizeof(o->status), "%s", store_col_text(st, 0));
		snprintf(o->host, sizeof(o->host), "%s", store_col_text(st, 1));
		snprintf(o->boot_id, sizeof(o->boot_id), "%s", store_col_text(st, 2));
		o->pid = sqlite3_column_int64(st, 3);
		o->start_ticks = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return err_printf(err, errsz, "no run %lld in the results database", (long long)run_id);
	return store_fail(s, "cannot read the run", err, errsz);
}

int store_run_resume(struct store *s, int64_t run_id, const struct rig_id *rig, char *err,
		     size_t errsz)
{
	return store_write(s, "cannot resume the run", err, errsz,
			   "UPDATE run SET status = 'running', ended_at = NULL, rig_pid = ?,"
			   " rig_start_ticks = ?, boot_id = ? WHERE id = ?", "iItI", rig->pid,
			   (int64_t)rig->start_ticks, rig->boot_id, run_id);
}

int store_event(struct store *s, int64_t run_id, const char *kind, const char *message,
		char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	return store_write(s, "cannot record an event", err, errsz,
			   "INSERT INTO event (run_id, at, kind, message) VALUES (?, ?, ?, ?)",
			   "Ittt", run_id, now, kind, message);
}

int store_events(struct store *s, int64_t run_id, const char *kind, char ***msgs, size_t *n,
		 char *err, size_t errsz)
{
	sqlite3_stmt *st;
	*msgs = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT message FROM event WHERE run_id = ? AND kind = ? ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read events", err, errsz);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		*msgs = xrealloc(*msgs, (*n + 1) * sizeof(**msgs));
		(*msgs)[(*n)++] = xstrdup(store_col_text(st, 0));
	}
	sqlite3_finalize(st);
	return 0;
}

int store_run_status(struct store *s, int64_t run_id, const char *status, char *err,
		     size_t errsz)
{
	return store_write(s, "cannot set the run's status", err, errsz,
			   "UPDATE run SET status = ? WHERE id = ?", "tI", status, run_id);
}

int store_events_drop(struct store *s, int64_t run_id, const char *kind, const char *prefix,
		      char *err, size_t errsz)
{
	return store_write(s, "cannot drop events", err, errsz,
			   "DELETE FROM event WHERE run_id = ? AND kind = ? AND"
			   " substr(message, 1, length(?3)) = ?3", "Itt", run_id, kind, prefix);
}

static int run_by_selector(struct store *s, const char *sel, int64_t *id)
{
	sqlite3_stmt *st;
	long long n;
	int rc;

	if (!strcmp(sel, "latest"))
		rc = sqlite3_prepare_v2(s->db, "SELECT id FROM run ORDER BY id DESC LIMIT 1", -1, &st,
					NULL);
	else if (parse_ll(sel, &n)) {
		rc = sqlite3_prepare_v2(s->db, "SELECT id FROM run WHERE id = ?", -1, &st, NULL);
		sqlite3_bind_int64(st, 1, n);
	} else {
		rc = sqlite3_prepare_v2(s->db,
					"SELECT id FROM run WHERE name = ? ORDER BY id DESC LIMIT 1",
					-1, &st, NULL);
		sqlite3_bind_text(st, 1, sel, -1, SQLITE_STATIC);
	}
	if (rc != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : 1;
}

int store_select_runs(struct store *s, char *const *sel, size_t n_sel,
		      int64_t **ids, size_t *n_ids, char *err, size_t errsz)
{
	static char *const latest[] = {"latest"};
	if (n_sel == 0) {
		sel = latest;
		n_sel = 1;
	}
	*ids = xcalloc(n_sel, sizeof(**ids));
	*n_ids = 0;
	for (size_t i = 0; i < n_sel; i++) {
		int rc = run_by_selector(s, sel[i], &(*ids)[*n_ids]);
		if (rc) {
			free(*ids);
			*ids = NULL;
			if (rc < 0)
				return store_fail(s, "cannot look up runs", err, errsz);
			if (!strcmp(sel[i], "latest"))
				return err_printf(err, errsz, "the results database holds no run yet");
			return err_printf(err, errsz, "no run '%s' in the results database", sel[i]);
		}
		/* A run named twice (1 1, or an id and its name) is one run:
		 * its samples must not count twice. */
		bool seen = false;
		for (size_t k = 0; k < *n_ids; k++)
			seen |= (*ids)[k] == (*ids)[*n_ids];
		if (!seen)
			(*n_ids)++;
	}
	return 0;
}

int store_run_read(struct store *s, int64_t run_id, struct stored_run *r, char *err,
		   size_t errsz)
{
	int rc = store_row_get(s, &run_shape, run_id, r, err, errsz);
	if (rc > 0)
		snprintf(err, errsz, "no run %lld", (long long)run_id);
	if (rc)
		return -1;
	r->id = run_id;
	return 0;
}

void store_run_free(struct stored_run *r)
{
	store_row_clear(&run_shape, r);
}

int store_variant_list(struct store *s, int64_t run_id, struct stored_variant **rows, size_t *n,
		       char *err, size_t errsz)
{
	return store_rows(s, &variant_shape, run_id, (void **)rows, n, err, errsz);
}

void store_variant_rows_free(struct stored_variant *rows, size_t n)
{
	store_rows_free(&variant_shape, rows, n);
}

int store_event_list(struct store *s, int64_t run_id, struct stored_event **rows, size_t *n,
		     char *err, size_t errsz)
{
	return store_rows(s, &event_shape, run_id, (void **)rows, n, err, errsz);
}

void store_event_rows_free(struct stored_event *rows, size_t n)
{
	store_rows_free(&event_shape, rows, n);
}
