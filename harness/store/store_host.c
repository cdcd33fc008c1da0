/* Host state fingerprints in the results database (store_host.h). */
#include "store_host.h"

#include <openssl/evp.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

static const struct store_row_shape host_state_shape = {
	"SELECT ifnull(h.variant_id, 0), v.name, h.field, h.value, h.source,"
	" h.stable FROM host_state h LEFT JOIN variant v ON v.id = h.variant_id"
	" WHERE h.run_id = ?1 ORDER BY h.variant_id IS NOT NULL, v.seq, v.id,"
	" h.field",
	"cannot read the host state", sizeof(struct stored_host_row), NULL, {
	{STORE_INT64, offsetof(struct stored_host_row, variant_id)},
	{STORE_TEXT, offsetof(struct stored_host_row, variant)},
	{STORE_TEXT, offsetof(struct stored_host_row, field)},
	{STORE_TEXT, offsetof(struct stored_host_row, value)},
	{STORE_TEXT, offsetof(struct stored_host_row, source)},
	{STORE_BOOL, offsetof(struct stored_host_row, stable)},
}};

/* A row that is one int64_t: a variant's id. */
static const struct store_row_shape measured_variant_shape = {
	"SELECT v.id FROM variant v WHERE v.run_id = ?1 AND EXISTS (SELECT 1"
	" FROM iteration i WHERE i.variant_id = v.id AND i.status = 'complete')"
	" ORDER BY v.seq, v.id",
	"cannot read the run's variants", sizeof(int64_t), NULL, {
	{STORE_INT64, 0},
}};

int store_host_save(struct store *s, int64_t run_id, int64_t variant_id,
		    const struct stored_host_field *fields, size_t n, char *err, size_t errsz)
{
	static const char what[] = "cannot record the host state";
	sqlite3_stmt *st = NULL;
	if (store_begin(s, err, errsz))
		return -1;
	/* variant_id 0 is the run's own machine: NULL in the table. */
	int rc = variant_id ? store_exec_bound(s, "DELETE FROM host_state WHERE run_id = ?"
					       " AND variant_id = ?", "II", run_id, variant_id)
			    : store_exec_bound(s, "DELETE FROM host_state WHERE run_id = ?"
					       " AND variant_id IS NULL", "I", run_id);
	if (!rc)
		rc = sqlite3_prepare_v2(s->db, "INSERT INTO host_state (run_id, variant_id, field,"
					" value, source, stable) VALUES (?, ?, ?, ?, ?, ?)", -1, &st,
					NULL) == SQLITE_OK ? 0 : -1;
	for (size_t i = 0; !rc && i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		if (variant_id)
			sqlite3_bind_int64(st, 2, variant_id);
		else
			sqlite3_bind_null(st, 2);
		sqlite3_bind_text(st, 3, fields[i].field, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, fields[i].value, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, fields[i].source, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 6, fields[i].stable);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	if (rc)
		store_fail(s, what, err, errsz);
	sqlite3_finalize(st);
	if (rc) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err, errsz);
}

int store_host_rows(struct store *s, int64_t run_id, struct stored_host_row **rows, size_t *n,
		    char *err, size_t errsz)
{
	return store_rows(s, &host_state_shape, run_id, (void **)rows, n, err, errsz);
}

void store_host_rows_free(struct stored_host_row *rows, size_t n)
{
	store_rows_free(&host_state_shape, rows, n);
}

int store_host_measured_variants(struct store *s, int64_t run_id, int64_t **ids, size_t *n,
				 char *err, size_t errsz)
{
	return store_rows(s, &measured_variant_shape, run_id, (void **)ids, n, err, errsz);
}

int store_host_digest(struct store *s, long long variant_id, char out[65], char *err,
		      size_t errsz)
{
	static const char what[] = "cannot read the host state";
	out[0] = '\0';
	sqlite3_stmt *st = store_prepare_id(s, "SELECT field, value FROM host_state"
					    " WHERE variant_id = ?1 AND stable ORDER BY field",
					    variant_id, what, err, errsz);
	if (!st)
		return -1;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	size_t rows = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *field = store_col_text(st, 0), *value = store_col_text(st, 1);
		EVP_DigestUpdate(md, field, strlen(field));
		EVP_DigestUpdate(md, "=", 1);
		EVP_DigestUpdate(md, value, strlen(value));
		EVP_DigestUpdate(md, "\n", 1);
		rows++;
	}
	unsigned char sum[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	EVP_DigestFinal_ex(md, sum, &len);
	EVP_MD_CTX_free(md);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, what, err, errsz);
	if (!rows)
		return 1;
	for (unsigned i = 0; i < len && i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", sum[i]);
	return 0;
}
