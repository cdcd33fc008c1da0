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
};

/* Fill p from uname(2), /proc/cmdline, /proc/cpuinfo ("model name"),
 * sysconf(_SC_NPROCESSORS_ONLN) and /proc/sys/kernel/random/boot_id.
 * Fields that cannot be read are "". */
void provenance_read(struct provenance *p);

/* A stored run status as a reader should see it: "running" becomes
 * "abandoned" when the rig that wrote it (run.rig_pid, on run.host during
 * boot run.boot_id) is gone: this machine rebooted since, or the process
 * is not there or is not a schedrig. A run of another host, or without
 * rig_pid (schema version 4 and older), keeps its status; so does any
 * other status. host and boot_id may be NULL. */
const char *provenance_run_status(const char *status, const char *host, const char *boot_id,
				  long long rig_pid);

#endif
