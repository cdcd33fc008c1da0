/* Table kernel_revision (store_revision.h). */
#include "store_revision.h"

#include <stddef.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

/* The revision's kind, from column 4 (the SELECT keeps to the three). */
static void revision_kind(sqlite3_stmt *st, void *row)
{
	int kind = revision_kind_parse(store_col_text(st, 4));
	((struct stored_revision *)row)->kind = kind < 0 ? REVISION_LABEL : (enum revision_kind)kind;
}

static const struct store_row_shape revision_shape = {
	"SELECT variant, revision, commit_hash, source, kind FROM kernel_revision"
	" WHERE run_id = ?1 AND kind IN ('git', 'package', 'label') ORDER BY variant",
	"cannot read kernel revisions", sizeof(struct stored_revision), revision_kind, {
	{STORE_TEXT, offsetof(struct stored_revision, variant)},
	{STORE_TEXT, offsetof(struct stored_revision, revision)},
	{STORE_TEXT, offsetof(struct stored_revision, commit_hash)},
	{STORE_TEXT, offsetof(struct stored_revision, source)},
}};

static const char *const kind_names[] = {"git", "package", "label"};

const char *revision_kind_name(enum revision_kind k)
{
	return kind_names[k];
}

int revision_kind_parse(const char *s)
{
	for (int k = 0; k < 3; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

int store_revision_record(struct store *s, int64_t run_id, const struct stored_revision *r,
			  char *err, size_t errsz)
{
	return store_write(s, "cannot record a kernel revision", err, errsz,
			   "INSERT OR REPLACE INTO kernel_revision (run_id, variant, kind, revision,"
			   " commit_hash, source) VALUES (?, ?, ?, ?, ?, ?)", "Ittttt", run_id,
			   r->variant, revision_kind_name(r->kind), r->revision, r->commit_hash,
			   r->source);
}

int store_revision_list(struct store *s, int64_t run_id, struct stored_revision **rows,
			size_t *n, char *err, size_t errsz)
{
	/* The table's CHECK keeps kind to the three; a row that escaped it
	 * (an edited database) is read as none of them. */
	return store_rows(s, &revision_shape, run_id, (void **)rows, n, err, errsz);
}

void store_revision_rows_free(struct stored_revision *rows, size_t n)
{
	store_rows_free(&revision_shape, rows, n);
}
