/* The load instances of a run for schedrig show (store_show.h). */
#include "store_show.h"

#include <sqlite3.h>

#include "store_impl.h"

/* Column col as text, NULL for NULL. */
static const char *text_or_null(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static bool has(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) != SQLITE_NULL;
}

static void read_view(sqlite3_stmt *st, struct stored_instance_view *v)
{
	*v = (struct stored_instance_view){
		.variant = text_or_null(st, 0), .cell = text_or_null(st, 1),
		.iteration = sqlite3_column_int(st, 2), .iteration_status = text_or_null(st, 3),
		.name = text_or_null(st, 4), .repetition = sqlite3_column_int(st, 5),
		.role = text_or_null(st, 6), .state = text_or_null(st, 7),
		.exited = has(st, 8), .exit_code = sqlite3_column_int(st, 8),
		.signalled = has(st, 9), .term_signal = sqlite3_column_int(st, 9),
		.sched_requested = text_or_null(st, 10), .sched_applied = text_or_null(st, 11),
		.argv = text_or_null(st, 12), .reason = text_or_null(st, 13),
		.elapsed_s = sqlite3_column_double(st, 14), .n_samples = sqlite3_column_int64(st, 15),
		.n_flagged = sqlite3_column_int64(st, 18), .flags = text_or_null(st, 19),
	};
	v->out = sqlite3_column_blob(st, 16);
	v->out_len = (size_t)sqlite3_column_bytes(st, 16);
	v->err = sqlite3_column_blob(st, 17);
	v->err_len = (size_t)sqlite3_column_bytes(st, 17);
}

int store_instance_views(struct store *s, int64_t run_id,
			 int (*fn)(const struct stored_instance_view *v, void *ctx), void *ctx,
			 char *err, size_t errsz)
{
	static const char what[] = "cannot read the run's load instances";
	sqlite3_stmt *st = store_prepare_id(
		s,
		"SELECT v.name, c.name, i.iteration, i.status, li.name, li.repetition, li.role,"
		" li.state, li.exit_code, li.term_signal, li.sched_requested, li.sched_applied,"
		" li.argv, li.reason, ifnull(li.elapsed_s, 0),"
		" (SELECT count(*) FROM sample_value s WHERE s.load_instance_id = li.id),"
		" r.stdout, r.stderr,"
		" (SELECT count(*) FROM sample_flag f WHERE f.load_instance_id = li.id),"
		" (SELECT group_concat(DISTINCT flag) FROM sample_flag f"
		"  WHERE f.load_instance_id = li.id)"
		" FROM iteration i JOIN variant v ON v.id = i.variant_id"
		" JOIN cell c ON c.id = i.cell_id"
		" JOIN load_instance li ON li.iteration_id = i.id"
		" LEFT JOIN raw_output r ON r.load_instance_id = li.id"
		" WHERE v.run_id = ?1 ORDER BY v.seq, c.seq, i.iteration, li.seq, li.repetition",
		run_id, what, err, errsz);
	if (!st)
		return -1;
	int rc, ret = 0;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct stored_instance_view v;
		read_view(st, &v);
		ret = fn(&v, ctx);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_fail(s, what, err, errsz);
	sqlite3_finalize(st);
	return ret;
}
