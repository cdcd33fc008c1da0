/* Facts about the machine a run executes on, stored with every run. */
#ifndef SCHEDRIG_PROVENANCE_H
#define SCHEDRIG_PROVENANCE_H

struct provenance {
	char host[256];
	char kernel_release[256];
	char kernel_cmdline[4096];
	char cpu_model[256];
	int cpu_count;
	char boot_id[64];
	int pid;                /* this process */
	long long start_ticks;  /* its provenance_start_ticks */
	int autogroup;          /* kernel.sched_autogroup_enabled: 0, 1; -1 absent */
};

/* Fill p from uname(2), /proc/cmdline, /proc/cpuinfo ("model name"),
 * sysconf(_SC_NPROCESSORS_ONLN), /proc/sys/kernel/random/boot_id,
 * /proc/sys/kernel/sched_autogroup_enabled and this process's pid and
 * start time. Fields that cannot be read are "" or 0 (autogroup -1). */
void provenance_read(struct provenance *p);

/* When process pid started, in clock ticks since boot (/proc/PID/stat
 * field 22, starttime; proc(5)); -1 when there is no such process or it
 * is dead (state, field 3, Z or X: a zombie not yet reaped by its parent
 * runs nothing, so a run or bisection it wrote is abandoned). */
long long provenance_start_ticks(long long pid);

/* A stored run status as a reader should see it: "running" becomes
 * "abandoned" when the rig that wrote it (run.rig_pid started at
 * run.rig_start_ticks, on run.host during boot run.boot_id) is gone: this
 * machine rebooted since, or no process with that pid and start time
 * exists. A run of another host, or without rig_pid and rig_start_ticks
 * (runs of schema version 5 and older), keeps its status; so does any
 * other status. host and boot_id may be NULL. */
const char *provenance_run_status(const char *status, const char *host, const char *boot_id,
				  long long rig_pid, long long rig_start_ticks);

#endif
