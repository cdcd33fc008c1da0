/* The rig's cache, apart from results: what it fetches or prepares once and
 * reuses, never a result. Laid out as
 *   CACHE/debs/           linux-image packages of boot: qemu variants (apt-get download)
 *   CACHE/kernels/NAME/   each package extracted (dpkg-deb -x)
 *   CACHE/disks/          the scratch disk images of qemu guests (guestdisk.h)
 *   CACHE/kernbench/      kernbench's configured kernel trees (loads/kernbench.c)
 *   CACHE/.lock           flock: held while a kernel is fetched or extracted, and
 *                         by schedrig cache --clear
 * where CACHE is $XDG_CACHE_HOME/schedrig, or ~/.cache/schedrig when it is
 * unset, empty or relative (XDG Base Directory Specification 0.8: "If
 * $XDG_CACHE_HOME is either not set or empty, a default equal to
 * $HOME/.cache should be used" and "All paths set in these environment
 * variables must be absolute. If an implementation encounters a relative
 * path in any of these variables it should consider the path invalid and
 * ignore it."). `schedrig cache` says what it holds. */
#ifndef SCHEDRIG_CACHE_H
#define SCHEDRIG_CACHE_H

#include <stddef.h>

/* The cache directory (above), not created; /tmp/schedrig-cache-UID when
 * neither XDG_CACHE_HOME nor HOME is an absolute path. */
const char *cache_root(void);

/* Create the cache directory (when absent) and check it: a directory, not
 * a link, owned by the effective uid, writable by nobody else (the /tmp
 * fallback's name is predictable). Returns 0, or -1 with why in err. */
int cache_check(char *err, size_t errsz);

/* Create and check the cache directory (cache_check) and take CACHE/.lock
 * exclusively (waiting for its holder). Returns the lock's fd (close it to
 * release), or -1 with err. */
int cache_lock(char *err, size_t errsz);

#endif
