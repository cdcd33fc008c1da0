/* What a tree takes on disk: see disk_usage.h. */
#include "disk_usage.h"

#include <ftw.h>
#include <sys/stat.h>

/* nftw has no argument for its callback: the running sum of one walk. */
static unsigned long long walked_bytes;

static int add_blocks(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)path;
	(void)flag;
	(void)f;
	walked_bytes += (unsigned long long)st->st_blocks * 512;
	return 0;
}

unsigned long long disk_usage_bytes(const char *path)
{
	walked_bytes = 0;
	nftw(path, add_blocks, 16, FTW_PHYS);
	return walked_bytes;
}
