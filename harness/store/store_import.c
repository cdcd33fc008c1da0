/* Importing samples (schedrig import): a sample_table stored as one new
 * run, its variants, cells, iterations and load instances made by name, in
 * one transaction (store.h).
 *
 * The run is new, so is every row under it: each is a plain INSERT whose
 * id the import keeps (idmap.h), never an INSERT OR IGNORE and a SELECT
 * (two statements per iteration and per instance, a third for the
 * instance's next sample seq, and a key string formatted per sample were
 * half the time of an import: bench/import.sh measures it beside
 * sqlite3's own .import). */
#include "store.h"
#include "store_impl.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>

#include "idmap.h"
#include "util.h"

/* Statements of an import, prepared once. */
enum import_stmt { IMP_VARIANT, IMP_CELL, IMP_ITERATION, IMP_INSTANCE, IMP_COUNT };

static const char *const import_sql[IMP_COUNT] = {
	"INSERT INTO variant (run_id, name, seq, boot, status)"
	" VALUES (?1, ?2, ?3, 'imported', 'complete')",
	"INSERT INTO cell (run_id, name, seq) VALUES (?1, ?2, ?3)",
	"INSERT INTO iteration (variant_id, cell_id, iteration, status)"
	" VALUES (?1, ?2, ?3, 'complete')",
	"INSERT INTO load_instance (iteration_id, name, seq, tool, role, state, repetition)"
	" VALUES (?1, ?2, ?3, coalesce(?4, 'imported'), 'measured', 'ok', ?5)",
};

/* Names (interned: one pointer per string) in order of first appearance,
 * with the id of each one's row (0: none made). */
struct named {
	const char **names;
	int64_t *ids;
	size_t n;
};

/* Position of name in the list (appended when new). */
static size_t named_seq(struct named *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->names[i] == name)
			return i;
	l->names = xrealloc(l->names, (l->n + 1) * sizeof(*l->names));
	l->ids = xrealloc(l->ids, (l->n + 1) * sizeof(*l->ids));
	l->names[l->n] = name;
	l->ids[l->n] = 0;
	return l->n++;
}

static void named_free(struct named *l)
{
	free(l->names);
	free(l->ids);
}

/* What one import keeps. */
struct import {
	struct store *s;
	sqlite3_stmt *st[IMP_COUNT];
	int64_t run_id;
	struct named variants, cells, loads;
	struct idmap iterations; /* variant id, cell id, iteration → id */
	struct idmap instances;  /* iteration id, load, repetition → id, next seq */
	struct idmap keys;       /* metric, unit, op, better → sample_key id */
};

static int64_t ptr_key(const char *p)
{
	return (int64_t)(intptr_t)p;
}

/* Step st once (its parameters bound) and reset it: the new row's id, or
 * -1 when the insert failed. */
static int64_t insert(struct import *im, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(im->s->db) : -1;
}

/* The id of the run's variant or cell called name (k: IMP_VARIANT or
 * IMP_CELL), inserted with the next seq when new; -1 on error. */
static int64_t named_id(struct import *im, enum import_stmt k, struct named *l, const char *name)
{
	size_t seq = named_seq(l, name);
	if (l->ids[seq])
		return l->ids[seq];
	sqlite3_stmt *st = im->st[k];
	sqlite3_bind_int64(st, 1, im->run_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, (int)seq);
	return l->ids[seq] = insert(im, st);
}

/* The id of row's iteration (variant, cell, iteration), inserted when
 * new; -1 on error. */
static int64_t iteration_id(struct import *im, const struct sample_row *r)
{
	int64_t variant = named_id(im, IMP_VARIANT, &im->variants, r->variant);
	int64_t cell = variant < 0 ? -1 : named_id(im, IMP_CELL, &im->cells, r->cell);
	if (cell < 0)
		return -1;
	bool added;
	int64_t *id = idmap_put(&im->iterations, (int64_t[4]){variant, cell, r->iteration, 0},
				&added);
	if (!added)
		return id[0];
	sqlite3_stmt *st = im->st[IMP_ITERATION];
	sqlite3_bind_int64(st, 1, variant);
	sqlite3_bind_int64(st, 2, cell);
	sqlite3_bind_int(st, 3, r->iteration);
	return id[0] = insert(im, st);
}

/* The id and next sample seq ({id, seq}) of row's load instance (its
 * iteration, load and repetition), inserted when new with the row's
 * tool; NULL on error. */
static int64_t *instance(struct import *im, const struct sample_row *r)
{
	int64_t it = iteration_id(im, r);
	if (it < 0)
		return NULL;
	bool added;
	int64_t *in = idmap_put(&im->instances,
				(int64_t[4]){it, ptr_key(r->load), r->repetition, 0}, &added);
	if (!added)
		return in;
	sqlite3_stmt *st = im->st[IMP_INSTANCE];
	sqlite3_bind_int64(st, 1, it);
	sqlite3_bind_text(st, 2, r->load, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, (int)named_seq(&im->loads, r->load));
	sqlite3_bind_text(st, 4, r->tool, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, r->repetition);
	in[0] = insert(im, st);
	in[1] = 0;
	return in[0] < 0 ? NULL : in;
}

/* The sample_key id of row's metric, unit, better and op. 0, or -1. */
static int key_id(struct import *im, const struct sample_row *r, int64_t *id)
{
	bool added;
	int64_t *k = idmap_put(&im->keys, (int64_t[4]){ptr_key(r->metric), ptr_key(r->unit),
						       ptr_key(r->op), r->better}, &added);
	if (added && store_sample_key_id(im->s, r->metric, r->unit, r->better, r->op, &k[0]))
		return -1;
	*id = k[0];
	return 0;
}

static int import_rows(struct import *im, const struct sample_table *t)
{
	const struct sample_row *prev = NULL;
	int64_t *in = NULL, key;

	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		bool same = prev && prev->variant == r->variant && prev->cell == r->cell &&
			    prev->iteration == r->iteration && prev->load == r->load &&
			    prev->repetition == r->repetition;
		if (!same && !(in = instance(im, r)))
			return -1;
		if (key_id(im, r, &key) || store_value_add_key(im->s, in[0], in[1]++, key, r->value))
			return -1;
		prev = r;
	}
	return store_values_flush(im->s);
}

static void import_free(struct import *im)
{
	for (int k = 0; k < IMP_COUNT; k++)
		sqlite3_finalize(im->st[k]);
	named_free(&im->variants);
	named_free(&im->cells);
	named_free(&im->loads);
	idmap_free(&im->iterations);
	idmap_free(&im->instances);
	idmap_free(&im->keys);
}

int store_import_rows(struct store *s, const struct sample_table *t, const char *run_name,
		      int64_t *run_id, char *err, size_t errsz)
{
	char now[32];
	struct import im = {.s = s};
	int rc = -1;

	utc_now(now, sizeof(now));
	if (store_begin(s, err, errsz))
		return -1;
	for (int k = 0; k < IMP_COUNT; k++)
		if (sqlite3_prepare_v2(s->db, import_sql[k], -1, &im.st[k], NULL) != SQLITE_OK)
			goto out;
	if (store_exec_bound(s,
		       "INSERT INTO run (name, status, started_at, ended_at, schedrig_version)"
		       " VALUES (?, 'imported', ?, ?, ?)",
		       "tttt", run_name, now, now, SCHEDRIG_VERSION))
		goto out;
	im.run_id = *run_id = sqlite3_last_insert_rowid(s->db);
	rc = import_rows(&im, t);
out:
	if (rc)
		store_fail(s, "cannot import", err, errsz);
	import_free(&im);
	if (rc) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err, errsz);
}
