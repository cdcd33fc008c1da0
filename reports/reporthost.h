/* The host state notes of compare, report and mail (reporthost.c), apart
 * from reportcmd.c, which calls them. */
#ifndef SCHEDRIG_REPORTHOST_H
#define SCHEDRIG_REPORTHOST_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

struct store;

/* The "Host state differs: ..." notes (report_notes_host) of runs ids:
 * the fingerprints of their variants that hold a complete iteration, as
 * stored (store_host.h), with what each variant's stored config declares
 * (hostdecl.h), appended to notes. Runs without fingerprints (older
 * schedrigs) add nothing; nor does a database that cannot be read. */
void reportcmd_host_notes(struct store *st, const int64_t *ids, size_t n_ids,
			  struct report_notes *notes);

#endif
