/* Importing samples (schedrig import): a sample_table stored as one new
 * run, its variants, cells, iterations and load instances made by name, in
 * one transaction (store.h). */
#include "store.h"
#include "store_impl.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util.h"

/* Statements of an import, prepared once. */
enum import_stmt {
	IMP_VARIANT, IMP_VARIANT_ID, IMP_CELL, IMP_CELL_ID, IMP_ITERATION, IMP_ITERATION_ID,
	IMP_INSTANCE, IMP_INSTANCE_ID, IMP_NEXT_SEQ, IMP_COUNT
};

static const char *const import_sql[IMP_COUNT] = {
	"INSERT OR IGNORE INTO variant (run_id, name, seq, boot, status)"
	" VALUES (?1, ?2, ?3, 'imported', 'complete')",
	"SELECT id FROM variant WHERE run_id = ?1 AND name = ?2",
	"INSERT OR IGNORE INTO cell (run_id, name, seq) VALUES (?1, ?2, ?3)",
	"SELECT id FROM cell WHERE run_id = ?1 AND name = ?2",
	"INSERT OR IGNORE INTO iteration (variant_id, cell_id, iteration, status)"
	" VALUES (?1, ?2, ?3, 'complete')",
	"SELECT id FROM iteration WHERE variant_id = ?1 AND cell_id = ?2 AND iteration = ?3",
	"INSERT OR IGNORE INTO load_instance (iteration_id, name, seq, tool, role, state, repetition)"
	" VALUES (?1, ?2, ?3, coalesce(?4, 'imported'), 'measured', 'ok', ?5)",
	"SELECT id FROM load_instance WHERE iteration_id = ?1 AND name = ?2 AND repetition = ?5",
	"SELECT coalesce(max(seq) + 1, 0) FROM sample_value WHERE load_instance_id = ?1",
};

/* Run an insert-or-ignore then its select: parent id, name, seq → id. */
static int import_upsert(sqlite3_stmt *ins, sqlite3_stmt *sel, int64_t parent, const char *name,
			 int seq, int64_t *id)
{
	sqlite3_bind_int64(ins, 1, parent);
	sqlite3_bind_text(ins, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(ins, 3, seq);
	int rc = sqlite3_step(ins);
	sqlite3_reset(ins);
	if (rc != SQLITE_DONE)
		return -1;
	sqlite3_bind_int64(sel, 1, parent);
	sqlite3_bind_text(sel, 2, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(sel);
	*id = sqlite3_column_int64(sel, 0);
	sqlite3_reset(sel);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int import_iteration(sqlite3_stmt **st, int64_t variant_id, int64_t cell_id, int iteration,
			    int64_t *id)
{
	for (int k = IMP_ITERATION; k <= IMP_ITERATION_ID; k++) {
		sqlite3_bind_int64(st[k], 1, variant_id);
		sqlite3_bind_int64(st[k], 2, cell_id);
		sqlite3_bind_int(st[k], 3, iteration);
	}
	int rc = sqlite3_step(st[IMP_ITERATION]);
	sqlite3_reset(st[IMP_ITERATION]);
	if (rc != SQLITE_DONE)
		return -1;
	rc = sqlite3_step(st[IMP_ITERATION_ID]);
	*id = sqlite3_column_int64(st[IMP_ITERATION_ID], 0);
	sqlite3_reset(st[IMP_ITERATION_ID]);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Position of name in a small list of names seen so far (appending it). */
static int seq_of(const char ***names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if ((*names)[i] == name)
			return (int)i;
	*names = xrealloc(*names, (*n + 1) * sizeof(**names));
	(*names)[*n] = name;
	return (int)(*n)++;
}

static int import_rows(struct store *s, sqlite3_stmt **st, const struct sample_table *t,
		       int64_t run_id)
{
	const char **variants = NULL, **cells = NULL, **loads = NULL;
	size_t n_variants = 0, n_cells = 0, n_loads = 0;
	const struct sample_row *prev = NULL;
	int64_t variant_id = 0, cell_id = 0, iteration_id = 0, instance_id = 0, sample_seq = 0;
	int rc = -1;

	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		bool same_iteration = prev && prev->variant == r->variant && prev->cell == r->cell &&
				      prev->iteration == r->iteration;
		if ((!prev || prev->variant != r->variant) &&
		    import_upsert(st[IMP_VARIANT], st[IMP_VARIANT_ID], run_id, r->variant,
				  seq_of(&variants, &n_variants, r->variant), &variant_id))
			goto out;
		if ((!prev || prev->cell != r->cell) &&
		    import_upsert(st[IMP_CELL], st[IMP_CELL_ID], run_id, r->cell,
				  seq_of(&cells, &n_cells, r->cell), &cell_id))
			goto out;
		if (!same_iteration &&
		    import_iteration(st, variant_id, cell_id, r->iteration, &iteration_id))
			goto out;
		if (!same_iteration || prev->load != r->load || prev->repetition != r->repetition) {
			sqlite3_bind_text(st[IMP_INSTANCE], 4, r->tool, -1, SQLITE_STATIC);
			sqlite3_bind_int(st[IMP_INSTANCE], 5, r->repetition);
			sqlite3_bind_int(st[IMP_INSTANCE_ID], 5, r->repetition);
			if (import_upsert(st[IMP_INSTANCE], st[IMP_INSTANCE_ID], iteration_id, r->load,
					  seq_of(&loads, &n_loads, r->load), &instance_id) ||
			    store_values_flush(s))
				goto out;
			sqlite3_bind_int64(st[IMP_NEXT_SEQ], 1, instance_id);
			if (sqlite3_step(st[IMP_NEXT_SEQ]) != SQLITE_ROW)
				goto out;
			sample_seq = sqlite3_column_int64(st[IMP_NEXT_SEQ], 0);
			sqlite3_reset(st[IMP_NEXT_SEQ]);
		}
		if (store_value_add(s, instance_id, sample_seq++, r->metric, r->unit, r->better, r->op,
				    r->value))
			goto out;
		prev = r;
	}
	rc = store_values_flush(s);
out:
	free(variants);
	free(cells);
	free(loads);
	return rc;
}

int store_import_rows(struct store *s, const struct sample_table *t, const char *run_name,
		      int64_t *run_id, char *err, size_t errsz)
{
	char now[32];
	sqlite3_stmt *st[IMP_COUNT] = {0};
	int rc = -1;

	store_now(now, sizeof(now));
	if (store_begin(s, err, errsz))
		return -1;
	for (int k = 0; k < IMP_COUNT; k++)
		if (sqlite3_prepare_v2(s->db, import_sql[k], -1, &st[k], NULL) != SQLITE_OK)
			goto out;
	if (store_exec_bound(s,
		       "INSERT INTO run (name, status, started_at, ended_at, schedrig_version)"
		       " VALUES (?, 'imported', ?, ?, ?)",
		       "tttt", run_name, now, now, SCHEDRIG_VERSION))
		goto out;
	*run_id = sqlite3_last_insert_rowid(s->db);
	rc = import_rows(s, st, t, *run_id);
out:
	if (rc)
		store_fail(s, "cannot import", err, errsz);
	for (int k = 0; k < IMP_COUNT; k++)
		sqlite3_finalize(st[k]);
	if (rc) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err, errsz);
}
