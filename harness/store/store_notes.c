/* What a report says beside its tables, read from a run's iterations, load
 * instances and sample flags: cells without a complete iteration, loads
 * that yielded no sample, tool warnings on samples (store.h). */
#include "store.h"
#include <stddef.h>

#include "store_impl.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The rows of store_silent_loads and store_flag_notes: one message each,
 * made by the SELECT's printf (SQLite's, in the C locale like the rest of
 * the rig). */
static const struct store_row_shape silent_load_shape = {
	"SELECT printf('load %s (%s): none of its %d run(s) in complete iterations"
	" finished (%d stopped when the measured load ended%s)', li.name, li.role,"
	" count(*), sum(li.state = 'stopped'), CASE WHEN sum(li.state = 'warmup')"
	" THEN printf(', %d ended in the warm-up', sum(li.state = 'warmup'))"
	" ELSE '' END)"
	" FROM load_instance li JOIN iteration i ON i.id = li.iteration_id"
	" JOIN variant v ON v.id = i.variant_id"
	" WHERE v.run_id = ?1 AND i.status = 'complete'"
	" GROUP BY li.name HAVING NOT EXISTS (SELECT 1 FROM sample s"
	" JOIN load_instance l2 ON l2.id = s.load_instance_id"
	" JOIN iteration i2 ON i2.id = l2.iteration_id"
	" JOIN variant v2 ON v2.id = i2.variant_id"
	" WHERE v2.run_id = ?1 AND l2.name = li.name)"
	" ORDER BY min(li.seq)",
	"cannot read load instances", sizeof(char *), NULL, {
	{STORE_TEXT, 0},
}};

static const struct store_row_shape flag_note_shape = {
	"SELECT printf('variant %s cell %s load %s: %d of %d sample(s): %s', v.name,"
	" c.name, li.name, count(*),"
	" (SELECT count(*) FROM sample_value x JOIN load_instance y"
	" ON y.id = x.load_instance_id JOIN iteration z ON z.id = y.iteration_id"
	" WHERE z.variant_id = v.id AND z.cell_id = c.id AND y.name = li.name"
	" AND z.status = 'complete' AND x.key_id = k.key_id), f.flag)"
	" FROM sample_flag f JOIN sample_value k"
	" ON k.load_instance_id = f.load_instance_id AND k.seq = f.seq"
	" JOIN load_instance li ON li.id = f.load_instance_id"
	" JOIN iteration i ON i.id = li.iteration_id AND i.status = 'complete'"
	" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
	" WHERE v.run_id = ?1 GROUP BY v.id, c.id, li.name, f.flag"
	" ORDER BY v.seq, c.seq, min(li.seq)",
	"cannot read sample flags", sizeof(char *), NULL, {
	{STORE_TEXT, 0},
}};

static void add_msg(char ***msgs, size_t *n, char *msg)
{
	*msgs = xrealloc(*msgs, (*n + 1) * sizeof(**msgs));
	(*msgs)[(*n)++] = msg;
}

/* The message of one row of empty_cells_sql (store_empty_cells), NULL when
 * the row needs none: its cell has a complete iteration, or its variant,
 * which has none at all, was reported already (*reported_variant). */
static char *empty_cell_msg(sqlite3_stmt *st, int64_t *reported_variant)
{
	int64_t variant = sqlite3_column_int64(st, 0);
	int recorded = sqlite3_column_int(st, 4);
	if (sqlite3_column_int(st, 5) > 0 || variant == *reported_variant)
		return NULL;
	if (sqlite3_column_int(st, 6) == 0) {
		*reported_variant = variant;
		bool failed = !strcmp(store_col_text(st, 2), "failed");
		return xasprintf("variant %s%s: no complete iteration", store_col_text(st, 1),
				 failed ? " (failed)" : "");
	}
	if (recorded == 0)
		return xasprintf("cell %s on variant %s: not run", store_col_text(st, 3),
				 store_col_text(st, 1));
	return xasprintf("cell %s on variant %s: none of %d iteration(s) complete",
			 store_col_text(st, 3), store_col_text(st, 1), recorded);
}

int store_empty_cells(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		      size_t errsz)
{
	static const char empty_cells_sql[] =
		"SELECT v.id, v.name, v.status, c.name, count(i.id),"
		" coalesce(sum(i.status = 'complete'), 0),"
		" (SELECT count(*) FROM iteration a WHERE a.variant_id = v.id"
		" AND a.status = 'complete')"
		" FROM variant v JOIN cell c ON c.run_id = v.run_id"
		" LEFT JOIN iteration i ON i.variant_id = v.id AND i.cell_id = c.id"
		" WHERE v.run_id = ?1 GROUP BY v.id, c.id ORDER BY v.seq, c.seq";
	int64_t reported_variant = 0;
	int rc = SQLITE_ERROR;

	*msgs = NULL;
	*n = 0;
	sqlite3_stmt *st = store_prepare_id(s, empty_cells_sql, run_id, "cannot read iterations",
					    err, errsz);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *msg = empty_cell_msg(st, &reported_variant);
		if (msg)
			add_msg(msgs, n, msg);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot read iterations", err, errsz);
}

int store_silent_loads(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		       size_t errsz)
{
	return store_rows(s, &silent_load_shape, run_id, (void **)msgs, n, err, errsz);
}

int store_flag_notes(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		     size_t errsz)
{
	return store_rows(s, &flag_note_shape, run_id, (void **)msgs, n, err, errsz);
}
