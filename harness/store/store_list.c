/* The runs of a results database for schedrig list (store_list.h). */
#include "store_list.h"

#include <sqlite3.h>
#include <stddef.h>

#include "store_impl.h"

static const struct store_row_shape run_list_shape = {
	"SELECT r.id, r.name, r.started_at, ifnull((SELECT group_concat(k, ',')"
	" FROM (SELECT DISTINCT v.kernel_release AS k FROM variant v"
	" WHERE v.run_id = r.id AND v.kernel_release IS NOT NULL ORDER BY v.seq)),"
	" r.kernel_release),"
	" (SELECT count(*) FROM cell c WHERE c.run_id = r.id),"
	" r.iterations, r.status, r.host, r.boot_id, r.rig_pid, r.rig_start_ticks"
	" FROM run r ORDER BY r.id",
	"cannot list the runs", sizeof(struct stored_run_row), NULL, {
	{STORE_INT64, offsetof(struct stored_run_row, id)},
	{STORE_TEXT, offsetof(struct stored_run_row, name)},
	{STORE_TEXT, offsetof(struct stored_run_row, started_at)},
	{STORE_TEXT, offsetof(struct stored_run_row, kernel_release)},
	{STORE_INT64, offsetof(struct stored_run_row, n_cells)},
	{STORE_INT64_OR, offsetof(struct stored_run_row, iterations)},
	{STORE_TEXT, offsetof(struct stored_run_row, status)},
	{STORE_TEXT, offsetof(struct stored_run_row, host)},
	{STORE_TEXT, offsetof(struct stored_run_row, boot_id)},
	{STORE_INT64, offsetof(struct stored_run_row, rig_pid)},
	{STORE_INT64, offsetof(struct stored_run_row, rig_start_ticks)},
}};

int store_run_list(struct store *s, struct stored_run_row **rows, size_t *n, char *err,
		   size_t errsz)
{
	return store_rows(s, &run_list_shape, 0, (void **)rows, n, err, errsz);
}

void store_run_rows_free(struct stored_run_row *rows, size_t n)
{
	store_rows_free(&run_list_shape, rows, n);
}
