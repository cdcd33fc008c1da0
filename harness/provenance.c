#include "provenance.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void read_first_line(const char *path, char *dst, size_t size)
{
	FILE *f = fopen(path, "r");
	dst[0] = '\0';
	if (!f)
		return;
	if (fgets(dst, (int)size, f))
		dst[strcspn(dst, "\n")] = '\0';
	fclose(f);
}

static void read_cpu_model(char *dst, size_t size)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	dst[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		char *colon = strchr(line, ':');
		if (colon) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(dst, size, "%s", colon);
		}
		break;
	}
	fclose(f);
}

void provenance_read(struct provenance *p)
{
	struct utsname u;
	memset(p, 0, sizeof(*p));
	if (uname(&u) == 0) {
		snprintf(p->host, sizeof(p->host), "%s", u.nodename);
		snprintf(p->kernel_release, sizeof(p->kernel_release), "%s", u.release);
	}
	read_first_line("/proc/cmdline", p->kernel_cmdline, sizeof(p->kernel_cmdline));
	read_cpu_model(p->cpu_model, sizeof(p->cpu_model));
	p->cpu_count = (int)sysconf(_SC_NPROCESSORS_ONLN);
	read_first_line("/proc/sys/kernel/random/boot_id", p->boot_id, sizeof(p->boot_id));
}

const char *provenance_run_status(const char *status, const char *host, const char *boot_id,
				  long long rig_pid)
{
	struct provenance here;
	char path[64], comm[64];

	if (!status || strcmp(status, "running") || !host || !boot_id || rig_pid <= 0 ||
	    rig_pid > INT_MAX)
		return status;
	provenance_read(&here);
	if (strcmp(host, here.host))
		return status;
	if (strcmp(boot_id, here.boot_id))
		return "abandoned";
	snprintf(path, sizeof(path), "/proc/%lld/comm", rig_pid);
	read_first_line(path, comm, sizeof(comm));
	return strcmp(comm, "schedrig") ? "abandoned" : status;
}
