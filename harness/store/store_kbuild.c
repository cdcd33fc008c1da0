#include "store_kbuild.h"

#include <stddef.h>

#include "store_impl.h"
#include "util.h"

static const struct store_row_shape kernel_build_shape = {
	"SELECT variant, kernel, build_key, status, provenance, message, log_path"
	" FROM kernel_build WHERE run_id = ?1 ORDER BY id",
	"cannot read kernel builds", sizeof(struct stored_kernel_build), NULL, {
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, variant)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, kernel)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, build_key)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, status)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, provenance)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, message)},
	{STORE_TEXT_OR_EMPTY, offsetof(struct stored_kernel_build, log_path)},
}};

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

int store_kernel_builds(struct store *s, int64_t run_id, struct stored_kernel_build **out,
			size_t *n, char *err, size_t errsz)
{
	return store_rows(s, &kernel_build_shape, run_id, (void **)out, n, err, errsz);
}

void stored_kernel_builds_free(struct stored_kernel_build *kb, size_t n)
{
	store_rows_free(&kernel_build_shape, kb, n);
}
