/* One schedrig walks a bisection at a time. A bisection row names the
 * schedrig walking it (host, pid, its start time, boot: as a run does,
 * store_bisect.h), set when it begins and claimed again by --resume; a
 * second --resume while that schedrig still lives is refused, as run
 * --resume refuses a run that is still going (provenance_run_status tells
 * a live walker from one that died). */
#ifndef SCHEDRIG_BISECT_OWNER_H
#define SCHEDRIG_BISECT_OWNER_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_bisect.h"

/* Fill bi->host, rig_pid, rig_start_ticks and boot_id with this process,
 * for a new bisection (store_bisect_begin). */
void bisect_owner_self(struct stored_bisection *bi);

/* Claim bisection id for this process, in one transaction: refused (-1,
 * err "bisection 1 is running (pid 123): ...") while the schedrig that
 * walks it lives, or when it was begun on another host; else its status
 * running and its walker this process. 0, or -1 with err (also the
 * database). */
int bisect_owner_claim(struct store *st, int64_t id, char *err, size_t errsz);

#endif
