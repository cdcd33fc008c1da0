/* Facts about the machine a run executes on, stored with every run. */
#ifndef SCHEDRIG_PROVENANCE_H
#define SCHEDRIG_PROVENANCE_H

struct provenance {
	char host[256];
	char kernel_release[256];
	char kernel_cmdline[4096];
	char cpu_model[256];
	int cpu_count;
};

/* Fill p from uname(2), /proc/cmdline, /proc/cpuinfo ("model name") and
 * sysconf(_SC_NPROCESSORS_ONLN). Fields that cannot be read are "". */
void provenance_read(struct provenance *p);

#endif
