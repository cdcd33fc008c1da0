#include "store_kbuild.h"

#include <stdlib.h>

#include "store_impl.h"
#include "util.h"

int store_kernel_build(struct store *s, int64_t run_id, const struct stored_kernel_build *kb,
		       char *err, size_t errsz)
{
	sqlite3_stmt *st = store_prepare_id(s,
		"INSERT OR REPLACE INTO kernel_build (run_id, variant, kernel, build_key, status,"
		" provenance, message, log_path) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", run_id,
		"cannot record a kernel build", err, errsz);
	if (!st)
		return -1;
	const char *v[] = {kb->variant, kb->kernel, kb->build_key, kb->status, kb->provenance,
			   kb->message, kb->log_path};
	for (int i = 0; i < 7; i++)
		sqlite3_bind_text(st, i + 2, v[i] ? v[i] : "", -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot record a kernel build", err, errsz);
	return 0;
}

static void read_build(sqlite3_stmt *st, void *row)
{
	char *c[7];
	for (int i = 0; i < 7; i++) {
		c[i] = store_col_strdup(st, i);
		if (!c[i])
			c[i] = xstrdup("");
	}
	*(struct stored_kernel_build *)row = (struct stored_kernel_build){
		c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
}

static void clear_build(void *row)
{
	struct stored_kernel_build *kb = row;
	free(kb->variant);
	free(kb->kernel);
	free(kb->build_key);
	free(kb->status);
	free(kb->provenance);
	free(kb->message);
	free(kb->log_path);
}

int store_kernel_builds(struct store *s, int64_t run_id, struct stored_kernel_build **out,
			size_t *n, char *err, size_t errsz)
{
	return store_rows(s,
			  "SELECT variant, kernel, build_key, status, provenance, message, log_path"
			  " FROM kernel_build WHERE run_id = ?1 ORDER BY id",
			  run_id, sizeof(**out), (void **)out, n, read_build, clear_build,
			  "cannot read kernel builds", err, errsz);
}

void stored_kernel_builds_free(struct stored_kernel_build *kb, size_t n)
{
	store_rows_free(kb, n, sizeof(*kb), clear_build);
}
