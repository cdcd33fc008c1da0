/* The scratch disk of a qemu guest (guestdisk.h). */
#include "guestdisk.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"

/* FNV-1a of s, then a separator byte (0xff, never in a path or a stamp). */
static uint64_t key_add(uint64_t h, const char *s)
{
	return fnv1a_step(fnv1a_bytes(h, s, strlen(s)), 0xff);
}

/* The cache key of gc's trees. -1 with err when a tree is not here. */
static int disk_key(const struct guest_contents *gc, uint64_t *key, char *err, size_t errsz)
{
	uint64_t h = key_add(FNV1A_OFFSET_BASIS, "schedrig-guestdisk-1");
	for (size_t i = 0; i < gc->n_trees; i++) {
		struct stat st;
		char real[PATH_MAX], stamp[64];
		if (gc->trees[i].target) {
			h = key_add(key_add(h, gc->trees[i].rel), gc->trees[i].target);
			continue;
		}
		if (!realpath(gc->trees[i].host, real) || stat(real, &st) || !S_ISDIR(st.st_mode)) {
			snprintf(err, errsz, "%s is not a directory here", gc->trees[i].host);
			return -1;
		}
		snprintf(stamp, sizeof(stamp), "%lld.%09ld", (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec);
		h = key_add(key_add(key_add(h, real), gc->trees[i].rel), stamp);
	}
	*key = h;
	return 0;
}

/* Run argv to its end with its output in log. 0, or -1 with err naming the
 * program, its status and the log's last line. */
static int run_step(char *const *argv, const char *log, char *err, size_t errsz)
{
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	struct proc_spec spec = {.argv = argv, .out_path = log, .append = true,
				 .pdeath_sig = SIGKILL};
	pid_t pid = proc_start(&spec, err, errsz);
	if (pid < 0)
		return -1;
	struct proc_exit x;
	while (proc_wait(pid, &chld, UINT64_MAX, &x) > 0)
		;
	if (proc_ok(x.status))
		return 0;
	char why[96], tail[256] = "";
	proc_describe(x.status, why, sizeof(why));
	proc_file_tail(log, 1, "", tail, sizeof(tail));
	tail[strcspn(tail, "\n")] = '\0';
	snprintf(err, errsz, "%s: %s (%s: %s)", argv[0], why, log, tail);
	return -1;
}

static uint64_t staged_bytes;

static int count_bytes(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	staged_bytes += (uint64_t)st->st_blocks * 512 + 4096;
	return 0;
}

/* Stage every tree under stage/REL: hard links where the file system
 * allows, else copies; and the links. */
static int stage_trees(const struct guest_contents *gc, const char *stage, const char *log,
		       char *err, size_t errsz)
{
	for (size_t i = 0; i < gc->n_trees; i++) {
		char *dst = xasprintf("%s/%s", stage, gc->trees[i].rel);
		char *parent = xstrdup(dst);
		*strrchr(parent, '/') = '\0';
		int rc = mkdir_p(parent, err, errsz);
		if (!rc && gc->trees[i].target && symlink(gc->trees[i].target, dst)) {
			snprintf(err, errsz, "symlink %s: %s", dst, strerror(errno));
			rc = -1;
		} else if (!rc && !gc->trees[i].target) {
			char *link_argv[] = {"cp", "-al", "-T", "--", gc->trees[i].host, dst, NULL};
			char *copy_argv[] = {"cp", "-a", "-T", "--", gc->trees[i].host, dst, NULL};
			rc = run_step(link_argv, log, err, errsz);
			if (rc) {
				proc_remove_tree(dst);
				rc = run_step(copy_argv, log, err, errsz);
			}
		}
		free(parent);
		free(dst);
		if (rc)
			return -1;
	}
	return 0;
}

/* Build the image at img from stage. */
static int make_image(const char *stage, const char *img, const char *log, char *err,
		      size_t errsz)
{
	char mkfs[PATH_MAX];
	const char *names[] = {"mkfs.ext4", NULL};
	if (!proc_find_program(names, mkfs, sizeof(mkfs))) {
		snprintf(err, errsz, "mkfs.ext4 is not installed here (e2fsprogs)");
		return -1;
	}
	staged_bytes = 0;
	nftw(stage, count_bytes, 64, FTW_PHYS);
	uint64_t mb = staged_bytes / 1000000 * 12 / 10 + GUESTDISK_FREE_MB + 64;
	int fd = open(img, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)(mb << 20))) {
		snprintf(err, errsz, "%s: %s", img, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	char *argv[] = {mkfs, "-q", "-F", "-m", "0", "-L", "schedrig", "-O",
			"^has_journal,^metadata_csum", "-E",
			"lazy_itable_init=1,lazy_journal_init=1,root_owner=0:0", "-d", (char *)stage,
			(char *)img, NULL};
	return run_step(argv, log, err, errsz);
}

int guestdisk_image(const struct guest_contents *gc, const char *cache, char *path, size_t size,
		    char *err, size_t errsz)
{
	uint64_t key;
	if (disk_key(gc, &key, err, errsz))
		return -1;
	char *dir = xasprintf("%s/disks", cache);
	char *base = xasprintf("%s/scratch-%016llx", dir, (unsigned long long)key);
	char *lock = xasprintf("%s.lock", base), *img = xasprintf("%s.img", base);
	char *tmp = xasprintf("%s.img.tmp", base), *stage = xasprintf("%s.stage", base);
	char *log = xasprintf("%s.log", base);
	int rc = -1, fd = -1;

	if (mkdir_p(dir, err, errsz))
		goto out;
	fd = lock_file_open(lock, err, errsz);
	if (fd < 0)
		goto out;
	while (flock(fd, LOCK_EX) && errno == EINTR)
		;
	if (access(img, R_OK)) {
		unlink(log);
		proc_remove_tree(stage);
		if (mkdir_p(stage, err, errsz) || stage_trees(gc, stage, log, err, errsz) ||
		    make_image(stage, tmp, log, err, errsz))
			goto out;
		if (rename(tmp, img)) {
			snprintf(err, errsz, "rename %s: %s", tmp, strerror(errno));
			goto out;
		}
	}
	snprintf(path, size, "%s", img);
	rc = 0;
out:
	unlink(tmp);
	proc_remove_tree(stage);
	if (fd >= 0)
		close(fd);
	free(dir);
	free(base);
	free(lock);
	free(img);
	free(tmp);
	free(stage);
	free(log);
	return rc;
}
