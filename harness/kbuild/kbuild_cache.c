#include "kbuild_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "disk_usage.h"
#include "kbuild_run.h"
#include "util.h"

#define KCACHE_WAIT_MS 250
#define KCACHE_INDEX_TMP_S 60

int kcache_lock(const char *path, const char *what, kcache_wait_fn *on_wait, void *ctx,
		char *err, size_t errsz)
{
	int fd = lock_file_open(path, err, errsz);
	bool told = false;
	while (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK) {
			snprintf(err, errsz, "lock %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (!told && on_wait) {
			char holder[256];
			lock_file_holder(fd, holder, sizeof(holder));
			on_wait(ctx, holder);
		}
		told = true;
		if (kb_stop_requested()) {
			close(fd);
			return KB_INTERRUPTED;
		}
		struct timespec t = {0, KCACHE_WAIT_MS * 1000000L};
		nanosleep(&t, NULL);
	}
	if (fd >= 0) {
		char line[512];
		int n = snprintf(line, sizeof(line), "pid %d: %s\n", (int)getpid(), what);
		/* Who holds it is for messages only: a failed write changes nothing. */
		if (!ftruncate(fd, 0) && pwrite(fd, line, (size_t)n, 0) != n)
			errno = 0;
	}
	return fd;
}

char *kcache_tmp_of(const char *final)
{
	return xasprintf("%s.tmp", final);
}

char *kcache_lock_of(const char *final)
{
	return xasprintf("%s.lock", final);
}

/* Is the lock file path held by some process? (Absent: no.) */
static bool held(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool busy = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK;
	if (fd >= 0)
		close(fd);
	return busy;
}

static void remove_one(const char *path, struct argv *removed, unsigned long long *bytes,
		       size_t *n)
{
	unsigned long long counted = disk_usage_bytes(path);
	if (proc_remove_tree(path))
		return;
	if (bytes)
		*bytes += counted;
	if (removed)
		argv_add(removed, path);
	(*n)++;
}

/* The lock guarding entry name of dir (NULL: none, always stale), by the
 * naming above. */
static char *lock_for(const char *dir, const char *name, bool builds)
{
	size_t len = strlen(name);
	if (builds && !strncmp(name, ".tmp-", 5) && len == 5 + 64)
		return xasprintf("%s/.lock-%s", dir, name + 5);
	if (!builds && len > 4 && !strcmp(name + len - 4, ".tmp"))
		return xasprintf("%s/%.*s.lock", dir, (int)(len - 4), name);
	return NULL;
}

static bool is_tmp(const char *name, bool builds)
{
	return builds ? !strncmp(name, ".tmp-", 5) : strstr(name, ".tmp") != NULL;
}

static void clear_dir(const char *dir, bool builds, struct argv *removed,
		      unsigned long long *bytes, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!is_tmp(de->d_name, builds))
			continue;
		char *lock = lock_for(dir, de->d_name, builds);
		char *path = xasprintf("%s/%s", dir, de->d_name);
		if (!lock || !held(lock))
			remove_one(path, removed, bytes, n);
		free(path);
		free(lock);
	}
	if (d)
		closedir(d);
}

/* trees/: index files being written are NAME.tmp.PID for under a second. */
static void clear_index_tmps(const char *dir, struct argv *removed, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	time_t now = time(NULL);
	while (d && (de = readdir(d))) {
		char *path = xasprintf("%s/%s", dir, de->d_name);
		if (strstr(de->d_name, ".tmp.") && !lstat(path, &st) && S_ISREG(st.st_mode) &&
		    now - st.st_mtime > KCACHE_INDEX_TMP_S && !unlink(path)) {
			if (removed)
				argv_add(removed, path);
			(*n)++;
		}
		free(path);
	}
	if (d)
		closedir(d);
}

size_t kcache_clear_stale(const char *cache, struct argv *removed, unsigned long long *bytes)
{
	size_t n = 0;
	char *builds = xasprintf("%s/builds", cache), *sources = xasprintf("%s/sources", cache);
	char *debs = xasprintf("%s/debs", cache), *trees = xasprintf("%s/trees", cache);
	clear_dir(builds, true, removed, bytes, &n);
	clear_dir(sources, false, removed, bytes, &n);
	clear_dir(debs, false, removed, bytes, &n);
	clear_index_tmps(trees, removed, &n);
	char *verify = xasprintf("%s/verify.tmp", cache), *lock = xasprintf("%s/verify.lock", cache);
	struct stat st;
	if (!lstat(verify, &st) && !held(lock))
		remove_one(verify, removed, bytes, &n);
	free(verify);
	free(lock);
	free(builds);
	free(sources);
	free(debs);
	free(trees);
	return n;
}
