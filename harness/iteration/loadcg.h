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
 * path); the load joins it as spawn starts it (spawn.cgroup). Returns 0 or
 * -1 (errno set). */
int loadcg_create(unsigned id, char *dir, size_t dirsz);
/* Kill every process in dir (cgroup.kill), wait up to 2 s for it to empty
 * and remove it. Returns 0, or -1 when the cgroup could not be removed. */
int loadcg_kill_remove(const char *dir);
/* Remove the base cgroup at exit (after every instance's cgroup is gone). */
void loadcg_cleanup(void);

struct sched_req;

/* For cgroup attributes (sched: {cgroup: ...}): enable cgroup v2's cpu
 * controller for the loads' cgroups: "+cpu" in the rig's own cgroup's
 * cgroup.subtree_control (unless there already) and in the base's. Needs
 * loadcg_init to have succeeded. Returns 0, or -1 with why naming the
 * cgroup and the reason: no cpu controller in this cgroup v2 (with the
 * cgroup v1 mount that has it, when one does: a hybrid hierarchy), or the
 * kernel refusing the write (a cgroup that holds processes, the rig among
 * them, may not hand a controller to its children unless it is the root:
 * EBUSY). */
int loadcg_enable_cpu(char *why, size_t whysz);
/* Before anything is created: does the cgroup v2 this process runs in offer
 * the cpu controller to its children (its cgroup.controllers)? Changes
 * nothing. Returns 0, or -1 with why: no cgroup2 hierarchy, or no cpu
 * controller there (naming the cgroup v1 mount that has it on a hybrid
 * hierarchy). Whether the kernel then lets the rig enable it (EBUSY) is
 * only known by loadcg_enable_cpu. */
int loadcg_cpu_controller(char *why, size_t whysz);
/* Write r's cgroup attributes (cpu.weight, cpu.idle, cpu.max) into the
 * load's cgroup dir before the load enters it. Returns 0, or -1 with why
 * ("DIR/cpu.max: wrote 'X': Invalid argument"). */
int loadcg_set_cpu(const char *dir, const struct sched_req *r, char *why, size_t whysz);
/* Append " cgroup.weight=W cgroup.idle=I cgroup.max=Q P" as the kernel
 * reads them back from dir (the attributes r sets only) to dst. */
void loadcg_read_cpu(const char *dir, const struct sched_req *r, char *dst, size_t size);

/* The directory of this process's cgroup of the cpu controller: in the
 * cgroup v1 hierarchy that has it ("N:cpu,cpuacct:/path" in
 * /proc/self/cgroup), else in cgroup v2. Returns 0, or -1 when there is
 * none (no cpu controller mounted). */
int loadcg_cpu_dir(char *dir, size_t size);

#endif
