/* The host-wide measuring lock: one run measures on a machine at a time
 * (two at once would each measure the other's load too). Every `schedrig
 * run` takes it before it records anything and holds it until it exits;
 * `run --concurrent` does not, and says so in the run's provenance.
 *
 * The lock is flock(2) LOCK_EX on a file: SCHEDRIG_MEASURE_LOCK when set
 * (the tests give each script its own), else in knobs_lock_dir()
 * (/run/lock) schedrig-measure.lock for root and schedrig-measure-UID.lock
 * for another user: lock files are 0600 (util.h lock_file_open), so runs of
 * different users do not exclude each other. Its holder writes "pid PID db
 * DATABASE" into it for the messages of the others. */
#ifndef SCHEDRIG_MEASURELOCK_H
#define SCHEDRIG_MEASURELOCK_H

#include <stddef.h>

/* Take the lock for a run on database db, waiting at most wait_s seconds
 * for the run holding it (saying once on stderr whose run it waits for);
 * SIGINT, SIGTERM and SIGHUP end the wait (runner_poll_interrupt: call
 * runner_init first). Returns the lock's fd (kept open until exit), or -1
 * with err (the time is up, interrupted, or the file cannot be opened). */
int measure_lock(const char *db, double wait_s, char *err, size_t errsz);

/* Who holds the lock now ("pid PID db DATABASE"), into dst; "" when
 * nobody does. */
void measure_lock_holder(char *dst, size_t size);

#endif
