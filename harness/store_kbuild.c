#include "store_kbuild.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int store_kernel_build(struct store *s, int64_t run_id, const struct stored_kernel_build *kb,
		       char *err, size_t errsz)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			       "INSERT OR REPLACE INTO kernel_build (run_id, variant, kernel,"
			       " build_key, status, provenance, message, log_path)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errsz, "cannot record a kernel build: %s", sqlite3_errmsg(db));
		return -1;
	}
	const char *v[] = {kb->variant, kb->kernel, kb->build_key, kb->status, kb->provenance,
			   kb->message, kb->log_path};
	sqlite3_bind_int64(st, 1, run_id);
	for (int i = 0; i < 7; i++)
		sqlite3_bind_text(st, i + 2, v[i] ? v[i] : "", -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(err, errsz, "cannot record a kernel build: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return xstrdup(t ? (const char *)t : "");
}

int store_kernel_builds(struct store *s, int64_t run_id, struct stored_kernel_build **out,
			size_t *n, char *err, size_t errsz)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT variant, kernel, build_key, status, provenance, message,"
			       " log_path FROM kernel_build WHERE run_id = ? ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK) {
		if (strstr(sqlite3_errmsg(db), "no such table"))
			return 0;
		snprintf(err, errsz, "cannot read kernel builds: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = (struct stored_kernel_build){col(st, 0), col(st, 1), col(st, 2),
							      col(st, 3), col(st, 4), col(st, 5),
							      col(st, 6)};
	}
	sqlite3_finalize(st);
	return 0;
}

void stored_kernel_builds_free(struct stored_kernel_build *kb, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kb[i].variant);
		free(kb[i].kernel);
		free(kb[i].build_key);
		free(kb[i].status);
		free(kb[i].provenance);
		free(kb[i].message);
		free(kb[i].log_path);
	}
	free(kb);
}
