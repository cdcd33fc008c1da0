/* Table kernel_revision (store_revision.h). */
#include "store_revision.h"

#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "util.h"

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
	if (store_exec_bound(s,
		       "INSERT OR REPLACE INTO kernel_revision (run_id, variant, kind, revision,"
		       " commit_hash, source) VALUES (?, ?, ?, ?, ?, ?)",
		       "Ittttt", run_id, r->variant, revision_kind_name(r->kind), r->revision,
		       r->commit_hash, r->source))
		return store_fail(s, "cannot record a kernel revision", err, errsz);
	return 0;
}

static void read_revision(sqlite3_stmt *st, void *row)
{
	int kind = revision_kind_parse(store_col_text(st, 1));
	*(struct stored_revision *)row = (struct stored_revision){
		store_col_strdup(st, 0), kind < 0 ? REVISION_LABEL : (enum revision_kind)kind,
		store_col_strdup(st, 2), store_col_strdup(st, 3), store_col_strdup(st, 4)};
}

static void clear_revision(void *row)
{
	struct stored_revision *r = row;
	free(r->variant);
	free(r->revision);
	free(r->commit_hash);
	free(r->source);
}

int store_revision_list(struct store *s, int64_t run_id, struct stored_revision **rows,
			size_t *n, char *err, size_t errsz)
{
	/* The table's CHECK keeps kind to the three; a row that escaped it
	 * (an edited database) is read as none of them. */
	return store_rows(s,
			  "SELECT variant, kind, revision, commit_hash, source FROM kernel_revision"
			  " WHERE run_id = ?1 AND kind IN ('git', 'package', 'label') ORDER BY variant",
			  run_id, sizeof(**rows), (void **)rows, n, read_revision, clear_revision,
			  "cannot read kernel revisions", err, errsz);
}

void store_revision_rows_free(struct stored_revision *rows, size_t n)
{
	store_rows_free(rows, n, sizeof(*rows), clear_revision);
}
