/* The controlling host's knob journal: knob_journal_ops (knobs.h) over the
 * results database (table knob, store_knob_*). Each change is committed to
 * the database before the knob is written, so "schedrig restore" can undo it
 * after a crash. */
#ifndef SCHEDRIG_KNOB_JOURNAL_H
#define SCHEDRIG_KNOB_JOURNAL_H

#include <stdint.h>

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
};

/* Set up j to journal the knobs of variant (a name, kept by pointer) of run
 * run_id into st. Free with knob_db_journal_free. */
void knob_db_journal_init(struct knob_db_journal *j, struct store *st, int64_t run_id,
			  const char *variant);
void knob_db_journal_free(struct knob_db_journal *j);

/* This kernel's boot id (/proc/sys/kernel/random/boot_id) into dst, "" when
 * unreadable; a journal row from another boot needs no restore. */
void knob_boot_id(char *dst, size_t size);

#endif
