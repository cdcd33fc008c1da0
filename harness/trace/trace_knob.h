/* The rig's tracefs instance (harness/trace/trace_capture.h) in the knob
 * journal: a journal row of kind KNOB_KIND_TRACE (name the instance,
 * "schedrig-RUN-PID"; path its directory; old value "absent"; requested value
 * the events it enables), written before the instance is made and marked
 * restored once it is gone, so that after Ctrl-C or kill -9 schedrig
 * restore takes the instance down (events off, tracing off, rmdir) and
 * runs refuse until it has (knob_pending.h). One journal, more kinds. */
#ifndef SCHEDRIG_TRACE_KNOB_H
#define SCHEDRIG_TRACE_KNOB_H

#include <stdbool.h>

#include "knobs.h"
#include "store.h"
#include "trace_capture.h"

#define KNOB_KIND_TRACE "trace_instance"

/* A trace instance journalled through a knob journal. */
struct trace_knob {
	const struct knob_journal_ops *journal; /* may be NULL: nothing journalled */
	struct knob_entry e;                     /* the row, once recorded */
	bool recorded;
	struct trace_journal ops;                /* hand &ops to trace_capture_open */
	int lock_fd;                             /* trace_knob_lock's; -1 none */
};

/* Set kt up to journal an instance through journal with seq (the order
 * of application in the variant: after its knobs, knobs_count). */
void trace_knob_init(struct trace_knob *kt, const struct knob_journal_ops *journal, int seq);
/* Free what kt holds (not the journal), the lock released. */
void trace_knob_free(struct trace_knob *kt);

/* Take the host-wide knob lock (knobs_lock) for the instance's life when
 * no knob change of the variant holds it already: while the instance
 * exists, other runs on the machine are told a rig is changing its state
 * now rather than that one left it changed; and refuse as knobs_apply
 * does while a killed run's record is there (knob_pending_check). 0, or
 * -1 with err. */
int trace_knob_lock(struct trace_knob *kt, char *err, size_t errsz);

/* schedrig restore's side of a row k of kind KNOB_KIND_TRACE of this
 * machine: take the instance down when tracefs_row_check lets it (the row
 * names one of the rig's instances under a tracefs), printing what it did.
 * 0 done (or nothing to do), -1 after a message on stderr. */
int trace_knob_restore(const struct stored_knob *k);

#endif
