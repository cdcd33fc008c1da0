/* The results directory's kernel cache (CACHE = the results directory's
 * cache/, absolute): its locks and its temporary directories.
 *
 * Everything the rig makes there is made in a temporary directory beside
 * its final name and renamed into place when complete, under a lock (flock
 * of a lock file) held while it is made:
 *   builds/.tmp-INPUTS      lock builds/.lock-INPUTS  (a build; INPUTS:
 *                           the inputs line of key.txt, kbuild_inputs.h)
 *   sources/ID.tmp          lock sources/ID.lock      (an unpacked tree)
 *   debs/NAME.tmp           lock debs/NAME.lock       (an unpacked .deb)
 * A temporary directory whose lock nobody holds is stale, whatever PID
 * made it and however old: a rig that was killed left it. The next build
 * removes every stale one (kcache_clear_stale) and never reads one: the
 * holder of a lock removes its own temporary directory before it starts.
 * Older rigs' names (.tmp-KEY-PID, NAME.tmp.PID) have no lock and are
 * always stale; so are trees/ index files' *.tmp.PID older than a
 * minute. */
#ifndef SCHEDRIG_KBUILD_CACHE_H
#define SCHEDRIG_KBUILD_CACHE_H

#include <stddef.h>

#include "util.h"

/* Called once when the lock is held by another process, with what it
 * wrote into the lock file ("pid 1234: kernel v6.12"). */
typedef void kcache_wait_fn(void *ctx, const char *holder);

/* Take the lock file path (created 0600, lock_file_open), waiting while
 * another holds it (on_wait told once; NULL: nothing said), and write who
 * holds it (pid, what) into it. Returns the fd (close it to release), -1
 * with err, or KB_INTERRUPTED when SIGINT, SIGTERM or SIGHUP came while
 * waiting. */
int kcache_lock(const char *path, const char *what, kcache_wait_fn *on_wait, void *ctx,
		char *err, size_t errsz);

/* Remove every stale temporary directory (and file) under cache (above),
 * each path appended to removed (NULL: not kept), bytes added to *bytes
 * (NULL: not counted). Returns how many were removed. */
size_t kcache_clear_stale(const char *cache, struct argv *removed, unsigned long long *bytes);

/* The temporary path of final (final + ".tmp") and its lock (final +
 * ".lock") for sources/ and debs/, malloc'd. */
char *kcache_tmp_of(const char *final);
char *kcache_lock_of(const char *final);

#endif
