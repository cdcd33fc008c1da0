/* The host-wide record of unrestored knob changes: see knob_pending.h. */
#include "knob_pending.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define PENDING_MAX (PATH_MAX + 256)
#define BOOT_UNKNOWN "-" /* the boot id was unreadable: the record counts in any boot */

static char lock_dir[PATH_MAX]; /* "": knobs_lock_dir's choice */

const char *knobs_lock_dir(void)
{
	if (lock_dir[0])
		return lock_dir;
	return access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp";
}

void knobs_set_lock_dir(const char *dir)
{
	snprintf(lock_dir, sizeof(lock_dir), "%s", dir ? dir : "");
}

void knob_boot_id(char *dst, size_t size)
{
	file_first_line("/proc/sys/kernel/random/boot_id", dst, size);
}

static char *pending_path(void)
{
	return xasprintf("%s/%s", knobs_lock_dir(), KNOB_PENDING_FILE);
}

int knob_pending_write(const char *db, int64_t run_id, char *err, size_t errsz)
{
	char abs[PATH_MAX], boot_id[64];
	char *path = pending_path();
	knob_boot_id(boot_id, sizeof(boot_id));
	char *text = xasprintf("pid %ld\nrun %" PRId64 "\nboot %s\ndb %s\n", (long)getpid(), run_id,
			       *boot_id ? boot_id : BOOT_UNKNOWN, realpath(db, abs) ? abs : db);
	int rc = file_replace(path, text, strlen(text), err, errsz);
	free(text);
	free(path);
	return rc;
}

/* The record open at fd is one the rig could have written: a regular file
 * of this euid or root, writable by its owner only (/run/lock is 1777: any
 * user can put a file there). 0, or -1 with err saying why not. */
static int pending_trusted(int fd, const char *path, char *err, size_t errsz)
{
	struct stat st;
	if (fstat(fd, &st)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode) && stat_trusted(&st))
		return 0;
	snprintf(err, errsz, "record %s is %sowned by uid %d (mode %04o), not trusted; remove it",
		 path, S_ISREG(st.st_mode) ? "" : "not a regular file, ", (int)st.st_uid,
		 (unsigned)(st.st_mode & 07777));
	return -1;
}

int knob_pending_read(struct knob_pending *p, char *err, size_t errsz)
{
	char *path = pending_path();
	char text[PENDING_MAX + 1], boot_id[64];
	long long run;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY), off = 0;
	int rc = -1;
	ssize_t n = 0;

	memset(p, 0, sizeof(*p));
	if (fd < 0 && errno == ENOENT) {
		free(path);
		return 0;
	}
	if (fd < 0 && errno == ELOOP) {
		snprintf(err, errsz, "record %s is a symbolic link, not trusted; remove it", path);
		goto out;
	}
	if (fd >= 0 && pending_trusted(fd, path, err, errsz))
		goto out;
	if (fd < 0 || (n = read(fd, text, PENDING_MAX)) < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		goto out;
	}
	text[n] = '\0';
	if (sscanf(text, "pid %ld run %lld boot %63s db %n", &p->pid, &run, p->boot_id, &off) != 3 ||
	    !off || n <= off || text[n - 1] != '\n') {
		snprintf(err, errsz, "%s: not a schedrig knob record (remove it once the knobs it"
			 " was about are put back)", path);
		goto out;
	}
	text[n - 1] = '\0';
	p->run_id = run;
	p->db = xstrdup(text + off);
	knob_boot_id(boot_id, sizeof(boot_id));
	rc = !*boot_id || !strcmp(p->boot_id, BOOT_UNKNOWN) || !strcmp(boot_id, p->boot_id);
	if (!rc)
		knob_pending_free(p);
out:
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

int knob_pending_remove(char *err, size_t errsz)
{
	char *path = pending_path();
	int rc = 0;
	if (unlink(path) && errno != ENOENT) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

bool knob_pending_names(const struct knob_pending *p, const char *db)
{
	struct stat a, b;
	char abs[PATH_MAX];
	if (!stat(p->db, &a) && !stat(db, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return !strcmp(p->db, realpath(db, abs) ? abs : db);
}

int knob_pending_check(char *err, size_t errsz)
{
	struct knob_pending p;
	int rc = knob_pending_read(&p, err, errsz);
	if (rc <= 0)
		return rc;
	int len = snprintf(err, errsz,
			   "run %" PRId64 " (pid %ld) of %s left kernel knobs changed on this"
			   " machine (killed, or its restore failed): run 'schedrig restore --db %s'"
			   " first",
			   p.run_id, p.pid, p.db, p.db);
	if (access(p.db, F_OK) && len >= 0 && (size_t)len < errsz) {
		char *path = pending_path();
		snprintf(err + len, errsz - (size_t)len,
			 "; that database is gone: put the knobs back by hand, then remove %s", path);
		free(path);
	}
	knob_pending_free(&p);
	return -1;
}

void knob_pending_free(struct knob_pending *p)
{
	free(p->db);
	p->db = NULL;
}
