#include "loadcg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "schedattr.h"
#include "util.h"

static char base[1100];
static char cpu_enabled_in[1100]; /* the rig's cgroup where loadcg_enable_cpu added +cpu */

/* The cgroup2 mount point from /proc/self/mountinfo into dst. */
static int cgroup2_mount(char *dst, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS ... - FSTYPE SOURCE SUPER */
		char *dash = strstr(line, " - cgroup2 ");
		char root[512], mnt[512];
		if (dash && sscanf(line, "%*s %*s %*s %511s %511s", root, mnt) == 2 &&
		    !strcmp(root, "/")) {
			snprintf(dst, size, "%s", mnt);
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

/* This process's cgroup2 path ("0::/path" in /proc/self/cgroup). */
static int own_cgroup(char *dst, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(dst, size, "%.500s", line + 3);
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* Remove the cgroups of rigs that died without their guardian cleaning up
 * ("schedrig-PID" below parent with PID gone): kill what is left, rmdir. */
static void remove_stale(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		long long pid;
		if (strncmp(e->d_name, "schedrig-", 9) || !parse_ll(e->d_name + 9, &pid) ||
		    pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(base, sizeof(base), "%.800s/%.200s", parent, e->d_name);
		loadcg_cleanup();
	}
	if (d)
		closedir(d);
}

int loadcg_init(char *why, size_t whysz)
{
	char mnt[512], own[512], path[1100];

	if (base[0])
		return 0;
	if (cgroup2_mount(mnt, sizeof(mnt)) || own_cgroup(own, sizeof(own))) {
		snprintf(why, whysz, "no cgroup2 hierarchy");
		return -1;
	}
	char parent[1024];
	snprintf(parent, sizeof(parent), "%.500s%.500s", mnt, strcmp(own, "/") ? own : "");
	remove_stale(parent);
	snprintf(path, sizeof(path), "%s/schedrig-%d", parent, (int)getpid());
	if (mkdir(path, 0755) && errno != EEXIST) {
		snprintf(why, whysz, "cannot create %.400s: %s", path, strerror(errno));
		return -1;
	}
	char kill_file[1200];
	snprintf(kill_file, sizeof(kill_file), "%s/cgroup.kill", path);
	if (access(kill_file, W_OK)) {
		snprintf(why, whysz, "%.400s: %s (cgroup.kill needs Linux 5.14)", kill_file,
			 strerror(errno));
		rmdir(path);
		return -1;
	}
	snprintf(base, sizeof(base), "%s", path);
	return 0;
}

const char *loadcg_base(void)
{
	return base[0] ? base : NULL;
}

int loadcg_create(unsigned id, char *dir, size_t dirsz)
{
	if (!base[0]) {
		errno = ENOENT;
		return -1;
	}
	snprintf(dir, dirsz, "%s/load-%u", base, id);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

/* Write text to dir/file; async-signal-safe. */
static int write_file(const char *dir, const char *file, const char *text)
{
	char path[1024];
	size_t dl = strlen(dir), fl = strlen(file);
	if (dl + fl + 2 > sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, dl);
	path[dl] = '/';
	memcpy(path + dl + 1, file, fl + 1);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return n < 0 ? -1 : 0;
}

/* Does dir still hold a process ("populated 1" in cgroup.events)? */
static bool populated(const char *dir)
{
	char path[1024], line[64];
	bool yes = false;
	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "populated 1", 11))
			yes = true;
	fclose(f);
	return yes;
}

int loadcg_kill_remove(const char *dir)
{
	write_file(dir, "cgroup.kill", "1");
	for (int i = 0; i < 200 && populated(dir); i++) {
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	return rmdir(dir) && errno != ENOENT ? -1 : 0;
}

void loadcg_cleanup(void)
{
	if (!base[0])
		return;
	/* cgroup.kill of the base reaches every instance below it. */
	write_file(base, "cgroup.kill", "1");
	DIR *d = opendir(base);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char dir[1400];
		if (strncmp(e->d_name, "load-", 5))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		loadcg_kill_remove(dir);
	}
	if (d)
		closedir(d);
	loadcg_kill_remove(base);
	base[0] = '\0';
	/* The controller this rig gave its own cgroup's children (other rigs'
	 * children may still use it: then the kernel refuses, EBUSY). */
	if (cpu_enabled_in[0])
		write_file(cpu_enabled_in, "cgroup.subtree_control", "-cpu");
	cpu_enabled_in[0] = '\0';
}

/* The mount point of the cgroup v1 hierarchy whose options hold the
 * controller (a word of its comma list), into dst; -1 when none. */
static int v1_mount(const char *controller, char *dst, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int rc = -1;
	while (f && rc && fgets(line, sizeof(line), f)) {
		char mnt[512], opts[512];
		const char *dash = strstr(line, " - cgroup ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1 ||
		    sscanf(dash, " - cgroup %*s %511s", opts) != 1)
			continue;
		for (char *save = NULL, *t = strtok_r(opts, ",", &save); t && rc;
		     t = strtok_r(NULL, ",", &save))
			if (!strcmp(t, controller)) {
				snprintf(dst, size, "%s", mnt);
				rc = 0;
			}
	}
	if (f)
		fclose(f);
	return rc;
}

/* The first line of dir/file into dst (newline dropped); -1 unreadable. */
static int read_line(const char *dir, const char *file, char *dst, size_t size)
{
	char path[1300];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	bool ok = fgets(dst, (int)size, f) != NULL;
	fclose(f);
	dst[ok ? strcspn(dst, "\n") : 0] = '\0';
	return ok ? 0 : -1;
}

/* Is word one of the blank-separated words of list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

/* "+cpu" into dir/cgroup.subtree_control unless there; 0, or -1 with why. */
static int subtree_cpu(const char *dir, bool *added, char *why, size_t whysz)
{
	char words[512] = "";
	*added = false;
	if (read_line(dir, "cgroup.subtree_control", words, sizeof(words)) == 0 &&
	    has_word(words, "cpu"))
		return 0;
	if (write_file(dir, "cgroup.subtree_control", "+cpu")) {
		int e = errno;
		snprintf(why, whysz, "cannot enable the cpu controller in %.400s/cgroup.subtree_control:"
			 " %s%s", dir, strerror(e), e == EBUSY ? " (a cgroup that holds processes, the"
			 " rig among them, may not give a controller to its children unless it is the"
			 " root: start the rig in a cgroup of its own whose parent has the cpu"
			 " controller, or run the variant as boot: qemu)" : "");
		return -1;
	}
	*added = true;
	return 0;
}

/* Does cgroup v2 dir offer the cpu controller to its children? 0, or -1
 * with why (loadcg_cpu_controller). */
static int dir_has_cpu(const char *dir, char *why, size_t whysz)
{
	char words[512] = "", v1[512];
	read_line(dir, "cgroup.controllers", words, sizeof(words));
	if (has_word(words, "cpu"))
		return 0;
	int n = snprintf(why, whysz, "cgroup attributes (cpu.weight, cpu.idle, cpu.max) need"
			 " cgroup v2's cpu controller, and %.400s has none (its"
			 " cgroup.controllers: %s)", dir, words[0] ? words : "none");
	if (v1_mount("cpu", v1, sizeof(v1)) == 0 && n > 0 && (size_t)n < whysz)
		snprintf(why + n, whysz - (size_t)n, "; the cpu controller is mounted as cgroup"
			 " v1 at %s here (a hybrid hierarchy), where the rig does not set it:"
			 " run such loads in a boot: qemu variant, or on a machine booted with"
			 " the unified hierarchy only (systemd.unified_cgroup_hierarchy=1)", v1);
	return -1;
}

int loadcg_cpu_controller(char *why, size_t whysz)
{
	char mnt[512], own[512], dir[1100];
	if (cgroup2_mount(mnt, sizeof(mnt)) || own_cgroup(own, sizeof(own))) {
		snprintf(why, whysz, "cgroup attributes need cgroup v2, and there is no cgroup2"
			 " hierarchy here");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.500s%.500s", mnt, strcmp(own, "/") ? own : "");
	return dir_has_cpu(dir, why, whysz);
}

int loadcg_enable_cpu(char *why, size_t whysz)
{
	char parent[1100];
	bool added;

	if (!base[0]) {
		snprintf(why, whysz, "cgroup attributes need a cgroup v2 of the loads' own, and there"
			 " is none here");
		return -1;
	}
	snprintf(parent, sizeof(parent), "%s", base);
	*strrchr(parent, '/') = '\0';
	if (dir_has_cpu(parent, why, whysz) || subtree_cpu(parent, &added, why, whysz))
		return -1;
	if (added)
		snprintf(cpu_enabled_in, sizeof(cpu_enabled_in), "%s", parent);
	return subtree_cpu(base, &added, why, whysz);
}

int loadcg_set_cpu(const char *dir, const struct sched_req *r, char *why, size_t whysz)
{
	char num[24];
	const char *file[3] = {NULL, NULL, NULL}, *value[3];
	size_t n = 0;
	/* idle before weight: a group leaving idle takes its weight again */
	if (r->has_cg_idle) {
		file[n] = "cpu.idle";
		value[n++] = r->cg_idle ? "1" : "0";
	}
	if (r->has_cg_weight) {
		snprintf(num, sizeof(num), "%d", r->cg_weight);
		file[n] = "cpu.weight";
		value[n++] = num;
	}
	if (r->cg_max[0]) {
		file[n] = "cpu.max";
		value[n++] = r->cg_max;
	}
	for (size_t i = 0; i < n; i++) {
		if (write_file(dir, file[i], value[i])) {
			snprintf(why, whysz, "%.400s/%s: wrote '%s': %s", dir, file[i], value[i],
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

void loadcg_read_cpu(const char *dir, const struct sched_req *r, char *dst, size_t size)
{
	static const char *const files[] = {"cpu.weight", "cpu.idle", "cpu.max"};
	const bool want[] = {r->has_cg_weight, r->has_cg_idle, r->cg_max[0] != '\0'};
	for (size_t i = 0; i < 3; i++) {
		char v[64];
		size_t len = strlen(dst);
		if (want[i] && len < size && read_line(dir, files[i], v, sizeof(v)) == 0)
			snprintf(dst + len, size - len, " cgroup.%s=%s", files[i] + 4, v);
	}
}

int loadcg_cpu_dir(char *dir, size_t size)
{
	char line[1024], mnt[512];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int rc = -1;
	while (f && rc && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		bool cpu = false;
		for (char *save = NULL, *t = strtok_r(c1 + 1, ",", &save); t; t = strtok_r(NULL, ",", &save))
			cpu |= !strcmp(t, "cpu");
		if (cpu && v1_mount("cpu", mnt, sizeof(mnt)) == 0) {
			snprintf(dir, size, "%s%s", mnt, strcmp(c2 + 1, "/") ? c2 + 1 : "");
			rc = 0;
		}
	}
	if (f)
		fclose(f);
	char own[512], words[512] = "";
	if (rc && cgroup2_mount(mnt, sizeof(mnt)) == 0 && own_cgroup(own, sizeof(own)) == 0) {
		snprintf(dir, size, "%s%s", mnt, strcmp(own, "/") ? own : "");
		if (read_line(dir, "cgroup.controllers", words, sizeof(words)) == 0 &&
		    has_word(words, "cpu"))
			rc = 0;
	}
	return rc;
}
