/* The knob journal (table knob): each knob change recorded before it is
 * made, its read-back value, its restore, and the rows a run or a restore
 * needs back (store.h; knob_journal.h is its user). */
#include "store.h"
#include "store_impl.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>

#include "util.h"

/* A knob row; the SELECT without its WHERE (knob_rows adds it). */
static const struct store_row_shape knob_shape = {
	"SELECT id, run_id, variant, seq, kind, name, path, old_value, requested_value, applied_value,"
	" host, boot_id, changed_at, restored_at FROM knob",
	"cannot read the knob journal", sizeof(struct stored_knob), NULL, {
	{STORE_INT64, offsetof(struct stored_knob, id)},
	{STORE_INT64, offsetof(struct stored_knob, run_id)},
	{STORE_TEXT, offsetof(struct stored_knob, variant)},
	{STORE_INT, offsetof(struct stored_knob, seq)},
	{STORE_TEXT, offsetof(struct stored_knob, kind)},
	{STORE_TEXT, offsetof(struct stored_knob, name)},
	{STORE_TEXT, offsetof(struct stored_knob, path)},
	{STORE_TEXT, offsetof(struct stored_knob, old_value)},
	{STORE_TEXT, offsetof(struct stored_knob, requested_value)},
	{STORE_TEXT, offsetof(struct stored_knob, applied_value)},
	{STORE_TEXT, offsetof(struct stored_knob, host)},
	{STORE_TEXT, offsetof(struct stored_knob, boot_id)},
	{STORE_TEXT, offsetof(struct stored_knob, changed_at)},
	{STORE_TEXT, offsetof(struct stored_knob, restored_at)},
}};

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
	return store_write(s, "cannot journal an applied knob value", err, errsz,
			   "UPDATE knob SET applied_value = ? WHERE id = ?", "tI", applied_value,
			   knob_id);
}

int store_knob_restored(struct store *s, int64_t knob_id, char *err, size_t errsz)
{
	char now[32];
	utc_now(now, sizeof(now));
	return store_write(s, "cannot journal a restored knob", err, errsz,
			   "UPDATE knob SET restored_at = ? WHERE id = ? AND restored_at IS NULL",
			   "tI", now, knob_id);
}

/* The knob rows of where_order ("WHERE ... ORDER BY ..."; run_id bound to
 * ?1 when it names it). */
static int knob_rows(struct store *s, const char *where_order, int64_t run_id,
		     struct stored_knob **rows, size_t *n, char *err, size_t errsz)
{
	char *sql = xasprintf("%s %s", knob_shape.sql, where_order);
	int rc = store_rows_stmt(s, store_prepare_id(s, sql, run_id, knob_shape.what, err, errsz),
				 &knob_shape, (void **)rows, n, err, errsz);
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
	store_rows_free(&knob_shape, rows, n);
}
