/* Kernels built for a run's variants (table kernel_build, schema version
 * 10; harness/kbuild/kbuild.h): written by run, read by show and report. */
#ifndef SCHEDRIG_STORE_KBUILD_H
#define SCHEDRIG_STORE_KBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

struct stored_kernel_build {
	char *variant, *kernel, *build_key;
	char *status;      /* built|cached|failed */
	char *provenance;  /* provenance.txt lines (kbuild.h) */
	char *message;     /* why it failed, "" otherwise */
	char *log_path;
};

/* Record (or on run --resume replace) the build of variant's kernel.
 * Returns 0, or -1 with err. */
int store_kernel_build(struct store *s, int64_t run_id, const struct stored_kernel_build *kb,
		       char *err, size_t errsz);

/* The run's kernel builds in order of recording, into *out (malloc'd,
 * NULL when *n is 0; every string non-NULL, "" for a NULL column). Returns
 * 0 (*n 0 for a run without any), or -1 with err. */
int store_kernel_builds(struct store *s, int64_t run_id, struct stored_kernel_build **out,
			size_t *n, char *err, size_t errsz);

/* Free n rows from store_kernel_builds. */
void stored_kernel_builds_free(struct stored_kernel_build *kb, size_t n);

#endif
