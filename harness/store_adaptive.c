/* Reads for run --resume of adaptive iterations (store_adaptive.h). */
#include "store_adaptive.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_impl.h"
#include "util.h"

int store_adaptive_values(struct store *s, int64_t run_id, const char *variant, int64_t cell_id,
			  const char *load, const char *metric, double **values, size_t *n,
			  double *spent_s, char *err, size_t errsz)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	int rc;

	*values = NULL;
	*n = 0;
	*spent_s = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT (SELECT avg(sv.value) FROM load_instance li"
			       "  JOIN sample_value sv ON sv.load_instance_id = li.id"
			       "  JOIN sample_key k ON k.id = sv.key_id"
			       "  WHERE li.iteration_id = i.id AND li.name = ?4 AND k.metric = ?5),"
			       " (SELECT max(ended_ns) - min(started_ns) FROM load_instance"
			       "  WHERE iteration_id = i.id)"
			       " FROM iteration i JOIN variant v ON v.id = i.variant_id"
			       " WHERE v.run_id = ?1 AND v.name = ?2 AND i.cell_id = ?3"
			       " AND i.status = 'complete' ORDER BY i.iteration",
			       -1, &st, NULL) != SQLITE_OK)
		goto out_err;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, cell_id);
	sqlite3_bind_text(st, 4, load, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*values = xrealloc(*values, (*n + 1) * sizeof(**values));
		(*values)[(*n)++] = sqlite3_column_type(st, 0) == SQLITE_NULL
					    ? NAN : sqlite3_column_double(st, 0);
		*spent_s += (double)sqlite3_column_int64(st, 1) / 1e9;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	free(*values);
	*values = NULL;
	*n = 0;
out_err:
	snprintf(err, errsz, "cannot read the iterations to resume: %s", sqlite3_errmsg(db));
	return -1;
}
