/* One cgroup v2 per load instance, so that everything a load starts can be
 * killed at once with cgroup.kill (Linux 5.14+) — including processes that
 * left the load's process group with setsid(). Needs no controller: it
 * works on the cgroup2 mount of hybrid (/sys/fs/cgroup/unified) and pure v2
 * (/sys/fs/cgroup) hierarchies. Where cgroups cannot be used (no cgroup2, no
 * cgroup.kill, read-only, not permitted) loadcg_init fails with the reason
 * and the runner relies on process groups, the subreaper and the guardian. */
#ifndef SCHEDRIG_LOADCG_H
#define SCHEDRIG_LOADCG_H

#include <stdbool.h>
#include <stddef.h>

/* Create this rig's cgroup "schedrig-PID" below the rig's own cgroup2
 * cgroup. Returns 0, or -1 with the reason in why. */
int loadcg_init(char *why, size_t whysz);
/* The rig's cgroup directory, or NULL when loadcg_init failed or was not
 * called. */
const char *loadcg_base(void);
/* Create the cgroup of load instance id below the base into dir (its
 * path). Returns 0 or -1 (errno set). */
int loadcg_create(unsigned id, char *dir, size_t dirsz);
/* In a forked child before exec: move the calling process into dir.
 * Async-signal-safe. Returns 0 or -1 (errno set). */
int loadcg_enter(const char *dir);
/* Kill every process in dir (cgroup.kill), wait up to 2 s for it to empty
 * and remove it. Returns 0, or -1 when the cgroup could not be removed. */
int loadcg_kill_remove(const char *dir);
/* Remove the base cgroup at exit (after every instance's cgroup is gone). */
void loadcg_cleanup(void);

#endif
