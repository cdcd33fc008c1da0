/* The rig's cache directory: see cache.h. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
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

int cache_check(char *err, size_t errsz)
{
	const char *root = cache_root();
	struct stat st;
	if (mkdir_p(root, err, errsz))
		return -1;
	if (lstat(root, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022)) {
		snprintf(err, errsz, "cache directory %s is not a directory of uid %d that only it"
			 " can write (a link, or another user's?): remove it, or set XDG_CACHE_HOME"
			 " or HOME", root, (int)geteuid());
		return -1;
	}
	return 0;
}

int cache_lock(char *err, size_t errsz)
{
	if (cache_check(err, errsz))
		return -1;
	char *path = xasprintf("%s/.lock", cache_root());
	int fd = lock_file_open(path, err, errsz);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}
