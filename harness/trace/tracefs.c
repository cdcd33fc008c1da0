/* tracefs: mounts, instances, event files, statistics (tracefs.h). */
#include "tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The mount point of the first tracefs in /proc/self/mounts, or "". */
static void find_mount(char *root, size_t rootsz)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[4096], dev[1024], dir[PATH_MAX], type[256];
	root[0] = '\0';
	while (f && !root[0] && fgets(line, sizeof(line), f))
		if (sscanf(line, "%1023s %4095s %255s", dev, dir, type) == 3 && !strcmp(type, "tracefs"))
			snprintf(root, rootsz, "%s", dir);
	if (f)
		fclose(f);
}

int tracefs_root(char *root, size_t rootsz, bool mount_it, bool *mounted, char *err,
		 size_t errsz)
{
	*mounted = false;
	find_mount(root, rootsz);
	if (root[0])
		return 0;
	if (!mount_it)
		return err_printf(err, errsz, "tracefs is not mounted");
	if (mount("nodev", TRACEFS_MOUNT_POINT, "tracefs", 0, NULL))
		return err_printf(err, errsz, "tracefs is not mounted and cannot be: mount -t tracefs"
				  " nodev %s: %s", TRACEFS_MOUNT_POINT, strerror(errno));
	snprintf(root, rootsz, "%s", TRACEFS_MOUNT_POINT);
	*mounted = true;
	return 0;
}

void tracefs_unmount(const char *root)
{
	if (umount(root) && errno == EBUSY)
		umount2(root, MNT_DETACH);
}

bool tracefs_instance_name_ok(const char *name)
{
	size_t p = strlen(TRACEFS_INSTANCE_PREFIX);
	if (strncmp(name, TRACEFS_INSTANCE_PREFIX, p))
		return false;
	const char *rest = name + p;
	size_t n = strlen(rest);
	return n >= 1 && n <= 55 && strcmp(rest, ".") && strcmp(rest, "..") &&
	       strspn(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

char *tracefs_event_dir(const char *dir, const char *event)
{
	const char *colon = strchr(event, ':');
	if (!colon)
		return xasprintf("%s/events/%s", dir, event);
	return xasprintf("%s/events/%.*s/%s", dir, (int)(colon - event), event, colon + 1);
}

int tracefs_event_check(const char *root, const char *event, char *err, size_t errsz)
{
	char *dir = tracefs_event_dir(root, event);
	struct stat st;
	int rc = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		rc = err_printf(err, errsz, "this kernel has no trace event %s (%s is absent)", event,
				dir);
	free(dir);
	return rc;
}

int tracefs_write(const char *dir, const char *file, const char *value, char *err, size_t errsz)
{
	char *path = xasprintf("%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), rc = 0;
	size_t len = strlen(value);
	if (fd < 0 || write(fd, value, len) != (ssize_t)len)
		rc = err_printf(err, errsz, "%s: writing '%s': %s", path, value, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

int tracefs_instance_create(const char *root, const char *name, char *path, size_t pathsz,
			    char *err, size_t errsz)
{
	if (!tracefs_instance_name_ok(name))
		return err_printf(err, errsz, "'%s' is not a trace instance name of the rig", name);
	snprintf(path, pathsz, "%s/instances/%s", root, name);
	if (!mkdir(path, 0700))
		return 0;
	if (errno == EEXIST)
		return err_printf(err, errsz, "%s exists already (another schedrig's, or one a killed"
				  " run left: schedrig restore removes it)", path);
	return err_printf(err, errsz, "cannot make the trace instance %s: %s", path, strerror(errno));
}

/* Every event of instance path off: events/enable is the switch of all. */
static void events_off(const char *path)
{
	char why[512];
	tracefs_write(path, "tracing_on", "0", why, sizeof(why));
	tracefs_write(path, "events/enable", "0", why, sizeof(why));
}

int tracefs_instance_remove(const char *path, bool *existed, char *err, size_t errsz)
{
	struct stat st;
	*existed = stat(path, &st) == 0;
	if (!*existed)
		return 0;
	events_off(path);
	/* The kernel frees a busy instance's buffers only when no file of it
	 * is open: a reader that just closed can keep it a moment. */
	for (int tries = 0; rmdir(path); tries++) {
		if (errno == ENOENT)
			return 0;
		if (errno != EBUSY || tries >= 50)
			return err_printf(err, errsz, "cannot remove the trace instance %s: %s", path,
					  strerror(errno));
		usleep(20000);
	}
	return 0;
}

int tracefs_row_check(const char *name, const char *path, char *derived, size_t derivedsz,
		      bool *mounted, char *err, size_t errsz)
{
	char root[PATH_MAX], why[512];
	*mounted = false;
	if (!tracefs_instance_name_ok(name))
		return err_printf(err, errsz, "'%s' is not a trace instance name of the rig: refused",
				  name);
	size_t np = strlen(path), nn = strlen(name);
	const char *tail = np > nn + 11 ? path + np - nn - 11 : NULL;
	if (!tail || strncmp(tail, "/instances/", 11) || strcmp(tail + 11, name) ||
	    strstr(path, "/../") || strstr(path, "//"))
		return err_printf(err, errsz, "%s is not ROOT/instances/%s: refused", path, name);
	if (tracefs_root(root, sizeof(root), true, mounted, why, sizeof(why)))
		return err_printf(err, errsz, "%s: refused", why);
	snprintf(derived, derivedsz, "%s/instances/%s", root, name);
	char recorded_root[PATH_MAX];
	snprintf(recorded_root, sizeof(recorded_root), "%.*s", (int)(tail - path), path);
	if (strcmp(recorded_root, root) && strcmp(recorded_root, TRACEFS_MOUNT_POINT) &&
	    strcmp(recorded_root, "/sys/kernel/debug/tracing")) {
		if (*mounted)
			tracefs_unmount(root);
		*mounted = false;
		return err_printf(err, errsz, "%s is not under a tracefs (%s is where it is mounted):"
				  " refused", path, root);
	}
	return 0;
}

/* The value of "KEY: N" in stats text, 0 when absent. */
static uint64_t stat_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, n) || l[n] != ':')
			continue;
		unsigned long long v = 0;
		return sscanf(l + n + 1, "%llu", &v) == 1 ? v : 0;
	}
	return 0;
}

int tracefs_stats_read(const char *instance, struct tracefs_stats *st, char *err, size_t errsz)
{
	char *dir = xasprintf("%s/per_cpu", instance);
	DIR *d = opendir(dir);
	struct dirent *de;
	memset(st, 0, sizeof(*st));
	while (d && (de = readdir(d))) {
		long long cpu;
		if (strncmp(de->d_name, "cpu", 3) || !parse_ll(de->d_name + 3, &cpu) || cpu < 0)
			continue;
		char *path = xasprintf("%s/%s/stats", dir, de->d_name);
		struct buf b = {0};
		if (!buf_read_file(&b, path, 65536)) {
			const char *t = buf_str(&b);
			st->entries += stat_value(t, "entries");
			st->overrun += stat_value(t, "overrun");
			st->dropped += stat_value(t, "dropped events");
			st->read += stat_value(t, "read events");
			st->n_cpus++;
		}
		buf_free(&b);
		free(path);
	}
	if (d)
		closedir(d);
	int rc = st->n_cpus ? 0 : err_printf(err, errsz, "%s/cpu*/stats: none reads", dir);
	free(dir);
	return rc;
}
