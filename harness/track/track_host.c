/* The host fingerprint of a variant (track_host.h). */
#include "track_host.h"

#include <stdlib.h>
#include <string.h>

#include "store_host.h"
#include "util.h"

int track_host_fingerprint(struct store *s, int64_t variant_id, char out[65], char *err,
			   size_t errsz)
{
	return store_host_digest(s, (long long)variant_id, out, err, errsz);
}

/* The value of variant var's stable field in rows[0..n), or NULL. */
static const char *value_of(const struct stored_host_row *rows, size_t n, int64_t var,
			    const char *field)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].stable && rows[i].variant_id == var && !strcmp(rows[i].field, field))
			return rows[i].value;
	return NULL;
}

/* Has field one value in every part (and is it in every one)? */
static bool field_same(struct stored_host_row *const *rows, const size_t *n_rows,
		       const int64_t *vars, size_t n, const char *field)
{
	const char *v0 = value_of(rows[0], n_rows[0], vars[0], field);
	for (size_t i = 1; i < n; i++) {
		const char *v = value_of(rows[i], n_rows[i], vars[i], field);
		if (!v0 || !v || strcmp(v0, v))
			return false;
	}
	return true;
}

/* Is field one of names' (argv) already? */
static bool named(const struct argv *names, const char *field)
{
	for (size_t i = 0; i < names->n; i++)
		if (!strcmp(names->v[i], field))
			return true;
	return false;
}

char *track_host_differing(struct store *s, const int64_t *runs, const int64_t *vars, size_t n,
			   char *err, size_t errsz)
{
	struct stored_host_row **rows = xcalloc(n ? n : 1, sizeof(*rows));
	size_t *n_rows = xcalloc(n ? n : 1, sizeof(*n_rows));
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = store_host_rows(s, runs[i], &rows[i], &n_rows[i], err, errsz);
	struct argv names = {0};
	for (size_t i = 0; i < n && !rc; i++)
		for (size_t k = 0; k < n_rows[i]; k++) {
			const struct stored_host_row *r = &rows[i][k];
			if (r->stable && r->variant_id == vars[i] && !named(&names, r->field) &&
			    !field_same(rows, n_rows, vars, n, r->field))
				argv_add(&names, r->field);
		}
	struct buf out = {0};
	buf_puts(&out, "");
	for (size_t i = 0; i < names.n; i++)
		buf_printf(&out, "%s%s", i ? ", " : "", names.v[i]);
	for (size_t i = 0; i < n; i++)
		store_host_rows_free(rows[i], n_rows[i]);
	free(rows);
	free(n_rows);
	argv_free(&names);
	char *r = rc ? NULL : xstrdup(buf_str(&out));
	buf_free(&out);
	return r;
}
