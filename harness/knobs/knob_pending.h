/* The host-wide record of knob changes not restored yet: one file,
 * KNOB_PENDING_FILE in the knob lock's directory (knobs_lock_dir(), below:
 * /run/lock, a tmpfs, so the record ends with the boot, as the changes do).
 * The journal in a database names the changes; this record names the
 * database, so that every run on the machine sees them, whatever database it
 * writes to.
 *
 * The rig holding the knob lock writes it after journalling its first change
 * of this machine and before making it, and removes it once every change is
 * marked restored (knob_journal.c); schedrig restore --db DB removes a record
 * naming DB once DB's changes are restored. A record while no rig holds the
 * knob lock is left over: its rig was killed, or could not restore.
 *
 * Format, text: "pid PID\nrun RUN_ID\nboot BOOT_ID\ndb PATH\n", BOOT_ID "-"
 * when unreadable (the record then counts in any boot), PATH running to the
 * end of the file less the final newline (any path fits). */
#ifndef SCHEDRIG_KNOB_PENDING_H
#define SCHEDRIG_KNOB_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KNOB_PENDING_FILE "schedrig-knobs.pending"

/* The directory of the host-wide knob lock (schedrig-knobs.lock) and of the
 * record of unrestored changes (this file): /run/lock (a tmpfs: emptied
 * at boot), /tmp where /run/lock is not writable, or knobs_set_lock_dir's. */
const char *knobs_lock_dir(void);

/* Tests: keep the knob lock and the pending record in dir (NULL: the real one). */
void knobs_set_lock_dir(const char *dir);

/* This kernel's boot id (/proc/sys/kernel/random/boot_id) into dst, "" when
 * unreadable; a journal row from another boot needs no restore. */
void knob_boot_id(char *dst, size_t size);

struct knob_pending {
	long pid;           /* the rig that changed the knobs */
	int64_t run_id;     /* its run in db */
	char boot_id[64];   /* /proc/sys/kernel/random/boot_id when written */
	char *db;           /* its results database, absolute (malloc'd) */
};

/* Write the record of run run_id of database db (made absolute) and this
 * process, replacing the file at once (written aside, then renamed). Call
 * holding the knob lock. Returns 0, or -1 with err naming the file. */
int knob_pending_write(const char *db, int64_t run_id, char *err, size_t errsz);

/* Read the record: 1 with *p (free with knob_pending_free), 0 when there is
 * none of this boot (a record of an earlier boot, which the /tmp fallback
 * can keep, is none: its changes died with that boot), -1 with err when the
 * file cannot be read or is not such a record. */
int knob_pending_read(struct knob_pending *p, char *err, size_t errsz);

/* Remove the record (none is fine). Call holding the knob lock. Returns 0,
 * or -1 with err naming the file. */
int knob_pending_remove(char *err, size_t errsz);

/* true when p names the database file db (the same file, however named). */
bool knob_pending_names(const struct knob_pending *p, const char *db);

/* 0 when there is no record of this boot; else -1 with err saying which run
 * of which database left knobs changed and what to do, e.g.
 *   "run 3 (pid 4242) of /srv/a.db left kernel knobs changed on this machine
 *    (killed, or its restore failed): run 'schedrig restore --db /srv/a.db' first"
 * (and, when that database is gone, to put the knobs back by hand and remove
 * the record), or why the record is unreadable. Call holding the knob lock,
 * shared or not, so that the record's rig is known to be gone. */
int knob_pending_check(char *err, size_t errsz);

/* Free what knob_pending_read filled in. */
void knob_pending_free(struct knob_pending *p);

#endif
