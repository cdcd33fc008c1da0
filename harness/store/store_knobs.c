/* The knob journal (table knob): each knob change recorded before it is
 * made, its read-back value, its restore, and the rows a run or a restore
 * needs back (store.h; knob_journal.h is its user). */
#include "store.h"
#include "store_impl.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "util.h"

int store_knob_record(struct store *s, const struct stored_knob *k, int64_t *knob_id,
		      char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(s,
		       "INSERT INTO knob (run_id, variant, seq, kind, name, path, old_value,"
		       " requested_value, host, boot_id, changed_at)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       "Ititttttttt", k->run_id, k->variant, k->seq, k->kind, k->name, k->path,
		       k->old_value, k->requested_value, k->host, k->boot_id, now))
		return store_fail(s, "cannot journal a knob change", err, errsz);
	*knob_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_knob_applied(struct store *s, int64_t knob_id, const char *applied_value,
		       char *err, size_t errsz)
{
	if (store_exec_bound(s, "UPDATE knob SET applied_value = ? WHERE id = ?", "tI", applied_value,
		       knob_id))
		return store_fail(s, "cannot journal an applied knob value", err, errsz);
	return 0;
}

int store_knob_restored(struct store *s, int64_t knob_id, char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	if (store_exec_bound(s, "UPDATE knob SET restored_at = ? WHERE id = ? AND restored_at IS NULL",
		       "tI", now, knob_id))
		return store_fail(s, "cannot journal a restored knob", err, errsz);
	return 0;
}

static void read_knob(sqlite3_stmt *st, void *row)
{
	*(struct stored_knob *)row = (struct stored_knob){
		.id = sqlite3_column_int64(st, 0),
		.run_id = sqlite3_column_int64(st, 1),
		.variant = store_col_strdup(st, 2),
		.seq = sqlite3_column_int(st, 3),
		.kind = store_col_strdup(st, 4),
		.name = store_col_strdup(st, 5),
		.path = store_col_strdup(st, 6),
		.old_value = store_col_strdup(st, 7),
		.requested_value = store_col_strdup(st, 8),
		.applied_value = store_col_strdup(st, 9),
		.host = store_col_strdup(st, 10),
		.boot_id = store_col_strdup(st, 11),
		.changed_at = store_col_strdup(st, 12),
		.restored_at = store_col_strdup(st, 13),
	};
}

static void clear_knob(void *row)
{
	const struct stored_knob *k = row;
	const char *f[] = {k->variant, k->kind, k->name, k->path, k->old_value,
			   k->requested_value, k->applied_value, k->host, k->boot_id,
			   k->changed_at, k->restored_at};
	for (size_t j = 0; j < sizeof(f) / sizeof(f[0]); j++)
		free((char *)f[j]);
}

/* The knob rows of where_order ("WHERE ... ORDER BY ..."; run_id bound to
 * ?1 when it names it). */
static int knob_rows(struct store *s, const char *where_order, int64_t run_id,
		     struct stored_knob **rows, size_t *n, char *err, size_t errsz)
{
	char *sql = xasprintf("SELECT id, run_id, variant, seq, kind, name, path, old_value,"
			      " requested_value, applied_value, host, boot_id, changed_at,"
			      " restored_at FROM knob %s",
			      where_order);
	int rc = store_rows(s, sql, run_id, sizeof(**rows), (void **)rows, n, read_knob,
			    clear_knob, "cannot read the knob journal", err, errsz);
	free(sql);
	return rc;
}

int store_knob_list(struct store *s, int64_t run_id, struct stored_knob **rows, size_t *n,
		    char *err, size_t errsz)
{
	return knob_rows(s, "WHERE run_id = ?1 ORDER BY id", run_id, rows, n, err, errsz);
}

int store_knob_unrestored(struct store *s, struct stored_knob **rows, size_t *n,
			  char *err, size_t errsz)
{
	return knob_rows(s, "WHERE restored_at IS NULL ORDER BY id DESC", 0, rows, n, err, errsz);
}

void store_knob_rows_free(struct stored_knob *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_knob);
}
