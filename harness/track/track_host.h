/* The host fingerprint a history is split by: runs whose machines were
 * in different states (host-state issue #27: the kernel command line, CPU
 * frequency policy, SMT, THP, ... of where the variant ran) are never one
 * history. The one place track asks for it. */
#ifndef SCHEDRIG_TRACK_HOST_H
#define SCHEDRIG_TRACK_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The fingerprint of variant variant_id's host state as a SHA-256 hex
 * digest into out (store_host_digest, #27: its stable "field=value"
 * lines where the variant's kernel ran): 0; 1 when the variant has no
 * fingerprint recorded (a run before schema 13, out ""); -1 with err.
 * Runs of one digest are one history; a run without one joins none of
 * the others' (track_history.c). */
int track_host_fingerprint(struct store *s, int64_t variant_id, char out[65], char *err,
			   size_t errsz);

/* The stable host-state fields (store_host_rows) whose values differ
 * between the fingerprints of the n variants vars[i] of runs runs[i] (one
 * per part of a split history), or that some have and others not: their
 * names, ", "-separated in the order of the parts' rows, malloc'd ("" when none differ).
 * NULL with err on a database error. */
char *track_host_differing(struct store *s, const int64_t *runs, const int64_t *vars, size_t n,
			   char *err, size_t errsz);

#endif
