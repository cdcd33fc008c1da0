/* The host state of runs as the results database holds it (table
 * host_state, schema version 13): one fingerprint per (run, variant), and
 * one of the machine the rig ran on per run, each a set of fields with
 * where each was read (harness/host/hostfp.h reads them). */
#ifndef SCHEDRIG_STORE_HOST_H
#define SCHEDRIG_STORE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* One field of a fingerprint to store; strings borrowed. stable false: the
 * field changes from run to run by itself (a timestamp, a load average). */
struct stored_host_field {
	const char *field, *value, *source;
	bool stable;
};

/* Replace the fingerprint of variant variant_id of run run_id (variant_id
 * 0: the run's own machine) with fields[0..n), in one transaction: on an
 * error nothing changes. A field named twice is an error (UNIQUE). 0, or
 * -1 with err. */
int store_host_save(struct store *s, int64_t run_id, int64_t variant_id,
		    const struct stored_host_field *fields, size_t n, char *err, size_t errsz);

/* One stored field, owned (store_host_rows_free). variant_id 0 and variant
 * NULL: the run's own machine. */
struct stored_host_row {
	int64_t variant_id;
	char *variant;
	char *field, *value, *source;
	bool stable;
};

/* Every fingerprint field of run run_id: the run's own machine first, then
 * its variants in config order, each by field name (byte order). *rows is
 * malloc'd (NULL when *n is 0). 0, or -1 with err. */
int store_host_rows(struct store *s, int64_t run_id, struct stored_host_row **rows, size_t *n,
		    char *err, size_t errsz);
void store_host_rows_free(struct stored_host_row *rows, size_t n);

/* The ids of run run_id's variants that hold at least one complete
 * iteration (the variants a table has samples of), config order. *ids
 * malloc'd (NULL when *n is 0). 0, or -1 with err. */
int store_host_measured_variants(struct store *s, int64_t run_id, int64_t **ids, size_t *n,
				 char *err, size_t errsz);

/* The digest of variant variant_id's fingerprint, for telling machine
 * states apart (schedrig track splits a branch's history with it): SHA-256
 * (FIPS 180-4), as 64 lowercase hex digits and a NUL in out, of its stable
 * fields as "field=value\n" lines sorted by field name (byte order, as
 * strcmp). Returns 0, 1 when the variant has no fingerprint rows (out
 * ""), -1 on error (err). */
int store_host_digest(struct store *s, long long variant_id, char out[65], char *err,
		      size_t errsz);

#endif
