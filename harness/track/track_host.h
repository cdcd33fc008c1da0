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
 * digest into out: 0; 1 when the variant has no fingerprint recorded
 * (out ""); -1 with err. Today every variant has none: the host_state
 * rows and store_host_digest() (TEAM.md: SHA-256 of the variant's
 * stable "field=value" lines) are on the host-state branch, and this is
 * where they are wired in (return store_host_digest(s, variant_id, out,
 * err, errsz)). */
int track_host_fingerprint(struct store *s, int64_t variant_id, char out[65], char *err,
			   size_t errsz);

#endif
