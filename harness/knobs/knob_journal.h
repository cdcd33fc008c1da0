/* The controlling host's knob journal: knob_journal_ops (knobs.h) over the
 * results database (table knob, store_knob_*). Each change is committed to
 * the database before the knob is written, so "schedrig restore" can undo it
 * after a crash. While changes of this machine (not a guest's) are not all
 * marked restored, the host-wide pending record (knob_pending.h) names the
 * database and the run: written after the first one's row, before it is
 * made, and removed when the last one is marked restored. */
#ifndef SCHEDRIG_KNOB_JOURNAL_H
#define SCHEDRIG_KNOB_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "knob_pending.h"
#include "knobs.h"
#include "store.h"

struct knob_db_journal {
	struct knob_journal_ops ops;   /* pass &j->ops to knobs_apply/knobs_restore */
	struct store *st;
	int64_t run_id;
	const char *variant;
	char host[256];                /* uname nodename */
	char boot_id[64];              /* /proc/sys/kernel/random/boot_id */
	int64_t *ids;                  /* knob row id by entry seq */
	size_t n_ids;
	size_t n_here;                 /* rows of this machine not marked restored */
};

/* The results database of this process's journals (a run's --db), as the
 * pending record names it: set before the first knob_db_journal_init. */
void knob_journal_set_db(const char *db);

/* Set up j to journal the knobs of variant (a name, kept by pointer) of run
 * run_id into st. Free with knob_db_journal_free. */
void knob_db_journal_init(struct knob_db_journal *j, struct store *st, int64_t run_id,
			  const char *variant);
void knob_db_journal_free(struct knob_db_journal *j);

/* Host marker of the journal rows of a knob a qemu guest changed:
 * "guest:VARIANT" (knob_entry.host). Such a knob dies with its guest: it is
 * marked restored when the guest's agent says so or when the guest is gone,
 * and schedrig restore never writes it on this machine. Their boot_id is
 * KNOB_GUEST_BOOT_ID, which no /proc boot id (a UUID) equals. */
#define KNOB_HOST_GUEST_PREFIX "guest:"
#define KNOB_GUEST_BOOT_ID "guest"

/* true when a journal row's host is a guest's ("guest:..."). NULL: false. */
bool knob_host_is_guest(const char *host);

#endif
