/* The revision of each variant's kernel (table kernel_revision, schema
 * version 13): written by run (git builds by runbuild.c, package kernels
 * and --revision labels by the session), read by show, export and track. */
#ifndef SCHEDRIG_STORE_REVISION_H
#define SCHEDRIG_STORE_REVISION_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* What a variant's kernel is a revision of. */
enum revision_kind { REVISION_GIT, REVISION_PACKAGE, REVISION_LABEL };

/* "git" | "package" | "label"; parse returns -1 for anything else. */
const char *revision_kind_name(enum revision_kind k);
int revision_kind_parse(const char *s);

/* One variant's revision. revision: git describe (git), the package's
 * version (package), the user's text (label); commit_hash: the full hash
 * (git; NULL otherwise); source: the repository directory (git) or the
 * package's name (package), NULL for a label. Rows read back own their
 * strings (store_revision_rows_free). */
struct stored_revision {
	char *variant;
	enum revision_kind kind;
	char *revision, *commit_hash, *source;
};

/* Record (or on run --resume replace) the revision of variant r->variant
 * of run run_id. 0, or -1 with err. */
int store_revision_record(struct store *s, int64_t run_id, const struct stored_revision *r,
			  char *err, size_t errsz);

/* The run's revisions, by variant name (a row whose kind is none of the
 * three, which the table's CHECK refuses, is left out). *rows is malloc'd
 * (NULL when *n is 0). 0, or -1 with err. */
int store_revision_list(struct store *s, int64_t run_id, struct stored_revision **rows,
			size_t *n, char *err, size_t errsz);
void store_revision_rows_free(struct stored_revision *rows, size_t n);

#endif
