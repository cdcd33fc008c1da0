/* A run's provenance read from the results database (store_runs.h). */
#include "store_runs.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_impl.h"
#include "util.h"

int store_run_read(struct store *s, int64_t run_id, struct stored_run *r, char *err,
		   size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(
		s,
		"SELECT name, status, started_at, ended_at, host, kernel_release, kernel_cmdline,"
		" cpu_model, schedrig_version, config_path, config_text, boot_id,"
		" cpu_count, iterations, rig_pid, rig_start_ticks,"
		" (SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id"
		" WHERE v.run_id = run.id AND i.status = 'complete')"
		" FROM run WHERE id = ?1",
		run_id, "cannot read the run", err, errsz);
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		char **text[] = {&r->name, &r->status, &r->started_at, &r->ended_at, &r->host,
				 &r->kernel_release, &r->kernel_cmdline, &r->cpu_model,
				 &r->schedrig_version, &r->config_path, &r->config_text, &r->boot_id};
		r->id = run_id;
		for (int k = 0; k < 12; k++)
			*text[k] = store_col_strdup(st, k);
		r->cpu_count = store_col_int_or(st, 12);
		r->iterations = store_col_int_or(st, 13);
		r->rig_pid = sqlite3_column_int64(st, 14);
		r->rig_start_ticks = sqlite3_column_int64(st, 15);
		r->complete_iterations = sqlite3_column_int64(st, 16);
	} else if (rc == SQLITE_DONE) {
		snprintf(err, errsz, "no run %lld", (long long)run_id);
	} else {
		store_fail(s, "cannot read the run", err, errsz);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

void store_run_free(struct stored_run *r)
{
	char *text[] = {r->name, r->status, r->started_at, r->ended_at, r->host,
			r->kernel_release, r->kernel_cmdline, r->cpu_model, r->schedrig_version,
			r->config_path, r->config_text, r->boot_id};
	for (int k = 0; k < 12; k++)
		free(text[k]);
}

static void read_variant(sqlite3_stmt *st, void *row)
{
	*(struct stored_variant *)row = (struct stored_variant){
		sqlite3_column_int64(st, 0), store_col_strdup(st, 1), store_col_strdup(st, 2),
		store_col_strdup(st, 3), store_col_strdup(st, 4), store_col_strdup(st, 5)};
}

static void clear_variant(void *row)
{
	struct stored_variant *v = row;
	free(v->name);
	free(v->boot);
	free(v->kernel_release);
	free(v->kernel_cmdline);
	free(v->status);
}

int store_variant_list(struct store *s, int64_t run_id, struct stored_variant **rows, size_t *n,
		       char *err, size_t errsz)
{
	return store_rows(s,
			  "SELECT id, name, boot, kernel_release, kernel_cmdline, status"
			  " FROM variant WHERE run_id = ?1 ORDER BY seq, id",
			  run_id, sizeof(**rows), (void **)rows, n, read_variant, clear_variant,
			  "cannot read the run's variants", err, errsz);
}

void store_variant_rows_free(struct stored_variant *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_variant);
}

static void read_event(sqlite3_stmt *st, void *row)
{
	*(struct stored_event *)row = (struct stored_event){
		store_col_strdup(st, 0), store_col_strdup(st, 1), store_col_strdup(st, 2)};
}

static void clear_event(void *row)
{
	struct stored_event *e = row;
	free(e->at);
	free(e->kind);
	free(e->message);
}

int store_event_list(struct store *s, int64_t run_id, struct stored_event **rows, size_t *n,
		     char *err, size_t errsz)
{
	return store_rows(s, "SELECT at, kind, message FROM event WHERE run_id = ?1 ORDER BY id",
			  run_id, sizeof(**rows), (void **)rows, n, read_event, clear_event,
			  "cannot read the run's events", err, errsz);
}

void store_event_rows_free(struct stored_event *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_event);
}
