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

#include "util.h"

static char base[1100];

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

int loadcg_enter(const char *dir)
{
	return write_file(dir, "cgroup.procs", "0");
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
}
