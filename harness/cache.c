/* The rig's cache directory: see cache.h. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util.h"

const char *cache_root(void)
{
	static char root[PATH_MAX];
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		snprintf(root, sizeof(root), "%s/schedrig", xdg);
	else if (home && home[0] == '/')
		snprintf(root, sizeof(root), "%s/.cache/schedrig", home);
	else
		snprintf(root, sizeof(root), "/tmp/schedrig-cache-%d", (int)getuid());
	return root;
}

int cache_lock(char *err, size_t errsz)
{
	if (mkdir_p(cache_root(), err, errsz))
		return -1;
	char *path = xasprintf("%s/.lock", cache_root());
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}
