#include "provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util.h"

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
	file_first_line("/proc/cmdline", p->kernel_cmdline, sizeof(p->kernel_cmdline));
	read_cpu_model(p->cpu_model, sizeof(p->cpu_model));
	p->cpu_count = (int)sysconf(_SC_NPROCESSORS_ONLN);
	file_first_line("/proc/sys/kernel/random/boot_id", p->boot_id, sizeof(p->boot_id));
	p->pid = (int)getpid();
	p->start_ticks = provenance_start_ticks(p->pid);
	char ag[16];
	file_first_line("/proc/sys/kernel/sched_autogroup_enabled", ag, sizeof(ag));
	p->autogroup = !strcmp(ag, "1") ? 1 : !strcmp(ag, "0") ? 0 : -1;
}

long long provenance_start_ticks(long long pid)
{
	char path[64], line[1024];
	snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	file_first_line(path, line, sizeof(line));
	/* Fields after the command name, which is in parentheses and may hold
	 * anything: state (3), ppid (4), ..., starttime (22). */
	const char *p = strrchr(line, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return -1; /* none, or dead: a zombie only waits to be reaped */
	for (int field = 2; field <= 21 && p; field++)
		p = strchr(p + 1, ' ');
	char *end;
	long long ticks = p ? strtoll(p + 1, &end, 10) : -1;
	return p && end != p + 1 ? ticks : -1;
}

const char *provenance_run_status(const char *status, const char *host, const char *boot_id,
				  long long rig_pid, long long rig_start_ticks)
{
	struct provenance here;

	if (!status || strcmp(status, "running") || !host || !boot_id || rig_pid <= 0 ||
	    rig_start_ticks <= 0)
		return status;
	provenance_read(&here);
	if (strcmp(host, here.host))
		return status;
	if (strcmp(boot_id, here.boot_id))
		return "abandoned";
	return provenance_start_ticks(rig_pid) == rig_start_ticks ? status : "abandoned";
}
