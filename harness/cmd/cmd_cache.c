/* schedrig cache [--clear]: what the rig's cache (cache.h) holds, and
 * emptying it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cmdopts.h"
#include "commands.h"
#include "disk_usage.h"
#include "util.h"

static const char usage_text[] =
	"usage: schedrig cache [--clear]\n"
	"\n"
	"Say where the rig's cache is and how much each part of it holds: the kernel\n"
	"packages of boot: qemu variants (debs/) and their extracted trees (kernels/),\n"
	"the scratch disk images of their guests (disks/), kernbench's configured\n"
	"kernel trees (kernbench/). It is apart from results:\n"
	"$XDG_CACHE_HOME/schedrig, or ~/.cache/schedrig when XDG_CACHE_HOME is unset,\n"
	"empty or not an absolute path; what it holds is fetched or prepared again\n"
	"when needed.\n"
	"\n"
	"  --clear   remove everything in it, but a kernbench tree a running kernbench\n"
	"            prepares or builds (it is kept and named); waits while a run\n"
	"            fetches or extracts a kernel\n"
	"\n"
	"Exit status: 0 done, 1 something could not be removed, 2 bad usage.\n";

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	if (remove(path) && errno != ENOENT) {
		fprintf(stderr, "schedrig cache: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* rm -r path, symbolic links not followed. 0 or -1 (said why). */
static int remove_tree(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Is the kernbench entry at dir (CACHE/kernbench/NAME) in use: its
 * preparer's lock (NAME.lock) or its build lock (NAME/build.lock) held? */
static bool kernbench_busy(const char *dir)
{
	const char *locks[] = {".lock", "/build.lock"};
	bool busy = false;
	for (int i = 0; i < 2 && !busy; i++) {
		char *path = xasprintf("%s%s", dir, locks[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		busy = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK;
		if (fd >= 0)
			close(fd);
		free(path);
	}
	return busy;
}

static void print_mb(const char *what, unsigned long long bytes)
{
	printf("  %-12s %10.1f MB\n", what, (double)bytes / 1e6);
}

static int show(const char *root)
{
	struct stat st;
	if (stat(root, &st)) {
		printf("cache %s: empty (not created yet)\n", root);
		return 0;
	}
	printf("cache %s:\n", root);
	static const char *const parts[] = {"debs", "kernels", "disks", "kernbench"};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		char *p = xasprintf("%s/%s", root, parts[i]);
		print_mb(parts[i], stat(p, &st) ? 0 : disk_usage_bytes(p));
		free(p);
	}
	print_mb("total", disk_usage_bytes(root));
	return 0;
}

/* Remove every entry of dir (its files and trees), keeping the kernbench
 * entries in use. 0, or -1 when something stayed. */
static int clear_dir(const char *dir, bool kernbench, unsigned long long *freed)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, ".lock"))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		size_t n = strlen(p);
		bool lockfile = n > 5 && !strcmp(p + n - 5, ".lock");
		char *entry = lockfile ? xasprintf("%.*s", (int)(n - 5), p) : xstrdup(p);
		if (kernbench && kernbench_busy(entry)) {
			printf("kept %s: a kernbench is using it\n", entry);
		} else if (!strcmp(e->d_name, "kernbench")) {
			rc |= clear_dir(p, true, freed);
		} else {
			*freed += disk_usage_bytes(p);
			rc |= remove_tree(p);
		}
		free(entry);
		free(p);
	}
	if (d)
		closedir(d);
	return rc ? -1 : 0;
}

/* --clear (cmd_options). */
static int clear_option(int val, const char *arg, void *ctx)
{
	(void)val;
	(void)arg;
	*(bool *)ctx = true;
	return 0;
}

int cmd_cache(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no set-up: CMD_NO_STORE */
	static const struct option longopts[] = {
		{"clear", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool clear = false;
	char err[512];
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--clear-stale") || (i == 1 && (!strcmp(argv[i], "diff") ||
								    !strcmp(argv[i], "verify"))))
			return cmd_cache_builds(argc, argv);
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help")) {
			printf("%s\n%s", usage_text, cmd_cache_builds_help());
			return 0;
		}
	int opt = cmd_options(argc, argv, longopts, usage_text, clear_option, &clear);

	if (opt >= 0)
		return opt;
	if (optind != argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	const char *root = cache_root();
	if (!clear)
		return show(root);
	struct stat st;
	if (stat(root, &st)) {
		printf("cache %s: empty (not created yet)\n", root);
		return 0;
	}
	int lock = cache_lock(err, sizeof(err));
	if (lock < 0) {
		fprintf(stderr, "schedrig cache: %s\n", err);
		return 1;
	}
	unsigned long long freed = 0;
	int rc = clear_dir(root, false, &freed);
	close(lock);
	printf("cache %s: %.1f MB removed%s\n", root, (double)freed / 1e6,
	       rc ? "; some could not be removed" : "");
	return rc ? 1 : 0;
}
