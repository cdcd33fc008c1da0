/* Scheduler knobs with a restore journal: see knobs.h. */
#include "knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "knob_pending.h"
#include "util.h"

#define KNOB_VALUE_MAX 65536

static char proc_root[PATH_MAX] = KNOBS_PROC_SYS;
static char debugfs_root[PATH_MAX] = KNOBS_DEBUGFS;
static bool debugfs_overridden;
static char lock_dir[PATH_MAX]; /* "": knobs_lock_dir's choice */

/* knobs_lock waits out a shared hold (knobs_host_clean) this often and long. */
#define LOCK_TRIES 50
#define LOCK_RETRY_NS 10000000L

void knobs_set_roots(const char *proc_sys, const char *debugfs)
{
	snprintf(proc_root, sizeof(proc_root), "%s", proc_sys ? proc_sys : KNOBS_PROC_SYS);
	snprintf(debugfs_root, sizeof(debugfs_root), "%s", debugfs ? debugfs : KNOBS_DEBUGFS);
	debugfs_overridden = debugfs != NULL;
}

static const char *kernel_release(void)
{
	static struct utsname u;
	if (!u.release[0] && uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	return u.release;
}

bool knob_path_is_debugfs(const char *path)
{
	size_t n = strlen(debugfs_root);
	return !strncmp(path, debugfs_root, n) && (path[n] == '/' || path[n] == '\0');
}

/* A sched_features file: DEBUGFS/sched/features (5.13+) or DEBUGFS/sched_features. */
static bool is_features_file(const char *path)
{
	if (!knob_path_is_debugfs(path))
		return false;
	const char *rel = path + strlen(debugfs_root);
	return !strcmp(rel, "/sched/features") || !strcmp(rel, "/sched_features");
}

static void fail(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

/* "PATH: strerror (hint)" for an errno from opening, reading or writing a knob. */
static void errno_fail(char *err, size_t errsz, const char *path, int e, const char *what,
		       const char *value)
{
	const char *hint = "";
	if (e == EPERM)
		hint = knob_path_is_debugfs(path) ? " (the kernel is locked down?)" :
						    " (no privilege: not root, or in a container?)";
	else if (e == EACCES)
		hint = " (not root?)";
	else if (e == ENOENT)
		hint = knob_path_is_debugfs(path) ? " (this kernel has no such debugfs file)" :
						    " (this kernel has no such sysctl)";
	if (value)
		fail(err, errsz, "%s: cannot %s '%.200s': %s%s", path, what, value, strerror(e), hint);
	else
		fail(err, errsz, "%s: %s%s", path, strerror(e), hint);
}

/* Read a knob file (at most KNOB_VALUE_MAX bytes), trailing whitespace
 * trimmed. Returns a malloc'd string or NULL with err. */
static char *read_knob(const char *path, char *err, size_t errsz)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		errno_fail(err, errsz, path, e, "read", NULL);
		errno = e;
		return NULL;
	}
	char *buf = xmalloc(KNOB_VALUE_MAX + 1);
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, buf + len, KNOB_VALUE_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			errno_fail(err, errsz, path, e, "read", NULL);
			close(fd);
			free(buf);
			errno = e;
			return NULL;
		}
		if (n == 0 || (len += (size_t)n) == KNOB_VALUE_MAX)
			break;
	}
	close(fd);
	while (len && strchr(" \t\n", buf[len - 1]))
		len--;
	buf[len] = '\0';
	return buf;
}

/* sysctls under /proc/sys that name a program the kernel runs as root, or
 * register one: never a scheduler knob, and a results database naming
 * one must not make root write it (knob_path_check). */
static const char *const program_sysctls[] = {
	"kernel/core_pattern", "kernel/modprobe", "kernel/poweroff_cmd", "kernel/hotplug",
	"kernel/usermodehelper/", "fs/binfmt_misc/",
};

/* The part of real (a resolved path) below root (resolved here), or NULL
 * when real is not below it. */
static const char *below(const char *real, const char *root)
{
	char r[PATH_MAX];
	if (!realpath(root, r))
		return NULL;
	size_t n = strlen(r);
	return !strncmp(real, r, n) && real[n] == '/' && real[n + 1] ? real + n + 1 : NULL;
}

/* The path below /proc/sys of a sysctl key (malloc'd), as sysctl(8)
 * reads one (procps slashdot): its first separator separates; in a dotted
 * key every '.' becomes '/' and every '/' a '.' (a dot inside a name). */
static char *sysctl_rel(const char *key)
{
	char *rel = xstrdup(key);
	char *first = strpbrk(rel, "./");
	if (first && *first == '.')
		for (char *p = rel; *p; p++)
			*p = *p == '.' ? '/' : *p == '/' ? '.' : *p;
	return rel;
}

#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

/* Is rel '/'-separated components, each non-empty, of NAME_CHARS and,
 * when dots, '.' (but never dots only: no "." or "..")? */
static bool plain_components(const char *rel, bool dots)
{
	const char *set = dots ? NAME_CHARS "." : NAME_CHARS;
	for (const char *p = rel;; p++) {
		size_t n = strcspn(p, "/");
		if (!n || strspn(p, set) != n || strspn(p, ".") == n)
			return false;
		p += n;
		if (!*p)
			return true;
	}
}

/* A sched_feature as a config names it: NAME or NO_NAME, [A-Z0-9_]. */
static bool valid_feature(const char *s)
{
	return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(s);
}

/* A sysctl (path relative to /proc/sys) that names or registers a program. */
static bool runs_program(const char *rel)
{
	for (size_t i = 0; i < sizeof(program_sysctls) / sizeof(program_sysctls[0]); i++) {
		const char *p = program_sysctls[i];
		size_t n = strlen(p);
		bool dir = p[n - 1] == '/';
		/* a directory entry: the directory itself or anything in it */
		if (dir ? !strncmp(rel, p, n - 1) && (rel[n - 1] == '\0' || rel[n - 1] == '/')
			: !strcmp(rel, p))
			return true;
	}
	return false;
}

/* A debugfs key: [sched/]NAME[/NAME...], a value knob (its file reads back
 * what was written), so not features (a list: sched_features: sets it) nor
 * preempt (reads back every mode, the current one in parentheses). */
static int debugfs_name_check(const char *name, char *err, size_t errsz)
{
	const char *rel = strncmp(name, "sched/", 6) ? name : name + 6;
	if (!plain_components(rel, false))
		fail(err, errsz, "debugfs: '%s' is not a file name under sched/ ('/'-separated"
		     " names of letters, digits, '_' and '-')", name);
	else if (!strcmp(rel, "features"))
		fail(err, errsz, "debugfs: %s is the sched_features list, not a value knob:"
		     " use sched_features: [NAME or NO_NAME]", name);
	else if (!strcmp(rel, "preempt"))
		fail(err, errsz, "debugfs: %s reads back a list of modes with the current one in"
		     " parentheses, not the value written: schedrig cannot verify or restore it"
		     " (boot with preempt= instead)", name);
	else
		return 0;
	return -1;
}

int knob_name_check(const char *kind, const char *name, char *err, size_t errsz)
{
	if (!strcmp(kind, "sched_features")) {
		if (valid_feature(name))
			return 0;
		fail(err, errsz, "sched_features entries are names such as PLACE_LAG or NO_PLACE_LAG");
		return -1;
	}
	if (!strcmp(kind, "debugfs"))
		return debugfs_name_check(name, err, errsz);
	if (strcmp(kind, "sysctl")) {
		fail(err, errsz, "'%s' is not a kind of knob (sysctl, debugfs, sched_features)", kind);
		return -1;
	}
	char *rel = sysctl_rel(name);
	int rc = 0;
	if (!plain_components(rel, true)) {
		fail(err, errsz, "sysctl: '%s' is not a sysctl key (names of letters, digits, '_'"
		     " and '-' separated by '.', or by '/' with dots inside names)", name);
		rc = -1;
	} else if (runs_program(rel)) {
		fail(err, errsz, "sysctl: %s names a program the kernel runs as root, not a scheduler"
		     " knob: schedrig never writes it", name);
		rc = -1;
	}
	free(rel);
	return rc;
}

char *knob_canonical(const char *kind, const char *name)
{
	if (!strcmp(kind, "sysctl"))
		return sysctl_rel(name);
	if (!strcmp(kind, "debugfs"))
		return xstrdup(strncmp(name, "sched/", 6) ? name : name + 6);
	return xstrdup(strncmp(name, "NO_", 3) ? name : name + 3);
}

int knob_path_check(const char *path, char *real, size_t realsz, char *err, size_t errsz)
{
	char r[PATH_MAX];
	if (!realpath(path, r)) {
		fail(err, errsz, "%s: %s: not a knob file schedrig can write", path, strerror(errno));
		return -1;
	}
	const char *sysctl = below(r, proc_root), *dbg = below(r, debugfs_root);
	bool ok = sysctl ? !runs_program(sysctl) :
		  dbg && ((!strncmp(dbg, "sched/", 6) && dbg[6]) || !strcmp(dbg, "sched_features"));
	if (!ok) {
		fail(err, errsz, "%s (%s) is not a knob schedrig sets (a sysctl under %s other than"
		     " one naming a program, a file under %s/sched/, or %s/sched_features):"
		     " refused", path, r, proc_root, debugfs_root, debugfs_root);
		return -1;
	}
	snprintf(real, realsz, "%s", r);
	return 0;
}

/* One write(2) of the whole value at offset 0, as sysctl(8) and echo(1) do
 * (O_TRUNC: proc and debugfs files ignore it), to a knob file only
 * (knob_path_check), never through a symbolic link. */
static int write_knob(const char *path, const char *value, char *err, size_t errsz)
{
	char real[PATH_MAX];
	if (!realpath(path, real)) {
		errno_fail(err, errsz, path, errno, "write", value);
		return -1;
	}
	if (knob_path_check(path, real, sizeof(real), err, errsz))
		return -1;
	int fd = open(real, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		errno_fail(err, errsz, path, errno, "write", value);
		return -1;
	}
	size_t len = strlen(value);
	ssize_t n;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	int e = errno;
	if (close(fd) && n >= 0) {
		n = -1;
		e = errno;
	}
	if (n < 0) {
		errno_fail(err, errsz, path, e, "write", value);
		return -1;
	}
	if ((size_t)n != len) {
		fail(err, errsz, "%s: short write of '%.200s' (%zd of %zu bytes)", path, value, n, len);
		return -1;
	}
	return 0;
}

/* Whitespace-separated fields equal one by one; integers compare as numbers. */
static bool values_equal(const char *a, const char *b)
{
	for (;;) {
		a += strspn(a, " \t\n");
		b += strspn(b, " \t\n");
		size_t la = strcspn(a, " \t\n"), lb = strcspn(b, " \t\n");
		if (!la || !lb)
			return !la && !lb;
		if (la != lb || strncmp(a, b, la)) {
			char fa[64], fb[64];
			long long na, nb;
			if (la >= sizeof(fa) || lb >= sizeof(fb))
				return false;
			snprintf(fa, sizeof(fa), "%.*s", (int)la, a);
			snprintf(fb, sizeof(fb), "%.*s", (int)lb, b);
			if (!parse_ll(fa, &na) || !parse_ll(fb, &nb) || na != nb)
				return false;
		}
		a += la;
		b += lb;
	}
}

/* The feature's name without NO_. */
static const char *feature_name(const char *token)
{
	return strncmp(token, "NO_", 3) ? token : token + 3;
}

/* The token (NAME or NO_NAME) listing feature name in a features file's
 * text, malloc'd, or NULL when the kernel has no such feature. */
static char *feature_state(const char *text, const char *name)
{
	size_t ln = strlen(name);
	for (const char *p = text;;) {
		p += strspn(p, " \t\n");
		size_t l = strcspn(p, " \t\n");
		if (!l)
			return NULL;
		const char *n = p;
		size_t nl = l;
		if (l > 3 && !strncmp(p, "NO_", 3)) {
			n += 3;
			nl -= 3;
		}
		if (nl == ln && !strncmp(n, name, ln))
			return xasprintf("%.*s", (int)l, p);
		p += l;
	}
}

/* Read a feature's token from the features file at path. */
static char *read_feature(const char *path, const char *name, char *err, size_t errsz)
{
	char *text = read_knob(path, err, errsz);
	if (!text)
		return NULL;
	char *tok = feature_state(text, name);
	free(text);
	if (!tok)
		fail(err, errsz, "this kernel (%s) has no sched_feature %s", kernel_release(), name);
	return tok;
}

/* Read path back after value was written and compare. *back receives the
 * read-back value (malloc'd) whenever it could be read. */
static int read_back(const char *path, const char *value, char **back, char *err, size_t errsz)
{
	bool features = is_features_file(path);
	*back = features ? read_feature(path, feature_name(value), err, errsz) :
			   read_knob(path, err, errsz);
	if (!*back)
		return -1;
	if (features ? strcmp(*back, value) : !values_equal(*back, value)) {
		fail(err, errsz, "%s: wrote '%.200s', read back '%.200s'", path, value, *back);
		return -1;
	}
	return 0;
}

int knob_write_verify(const char *path, const char *value, char *applied, size_t appliedsz,
		      char *err, size_t errsz)
{
	char *back = NULL;
	if (write_knob(path, value, err, errsz))
		return -1;
	int rc = read_back(path, value, &back, err, errsz);
	if (applied && appliedsz)
		snprintf(applied, appliedsz, "%s", back ? back : "");
	free(back);
	return rc;
}

/* Is a debugfs mounted at the debugfs root? */
static bool debugfs_mounted(void)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[4096], dev[1024], dir[PATH_MAX], type[256];
	bool found = false;
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%1023s %4095s %255s", dev, dir, type) == 3)
			found = !strcmp(dir, debugfs_root) && !strcmp(type, "debugfs");
	fclose(f);
	return found;
}

int knobs_debugfs_mount(bool *mounted, char *err, size_t errsz)
{
	*mounted = false;
	if (debugfs_overridden || debugfs_mounted())
		return 0;
	if (mount("none", debugfs_root, "debugfs", 0, NULL)) {
		fail(err, errsz, "cannot mount debugfs on %s: %s", debugfs_root, strerror(errno));
		return -1;
	}
	*mounted = true;
	return 0;
}

void knobs_debugfs_unmount(void)
{
	if (debugfs_overridden)
		return;
	if (umount(debugfs_root) && errno == EBUSY)
		umount2(debugfs_root, MNT_DETACH);
}

size_t knobs_count(const struct cfg_variant *v)
{
	return (v->autogroup >= 0) + v->n_sysctl + v->n_debugfs + v->n_sched_features;
}

/* /proc/sys path of a sysctl key (sysctl_rel). */
static char *sysctl_path(const char *key)
{
	char *rel = sysctl_rel(key);
	char *path = xasprintf("%s/%s", proc_root, rel);
	free(rel);
	return path;
}

/* debugfs path of a sched tunable: base_slice_ns or sched/base_slice_ns. */
static char *debugfs_path(const char *key)
{
	if (!strncmp(key, "sched/", 6))
		key += 6;
	return xasprintf("%s/sched/%s", debugfs_root, key);
}

/* sched/features (5.13+), or the older top-level sched_features. */
static char *features_path(void)
{
	char *path = xasprintf("%s/sched/features", debugfs_root);
	char *old = xasprintf("%s/sched_features", debugfs_root);
	if (access(path, F_OK) && errno == ENOENT && !access(old, F_OK)) {
		free(path);
		return old;
	}
	free(old);
	return path;
}

/* The file the rig writes for the knob of kind ("sysctl", "debugfs",
 * "sched_features") called name (malloc'd). */
static char *knob_file(const char *kind, const char *name)
{
	if (!strcmp(kind, "sched_features"))
		return features_path();
	return strcmp(kind, "sysctl") ? debugfs_path(name) : sysctl_path(name);
}

int knob_row_check(const char *kind, const char *name, const char *path, const char *value,
		   char *derived, size_t derivedsz, char *err, size_t errsz)
{
	char want[PATH_MAX], got[PATH_MAX], why[512];
	if (knob_name_check(kind, name, why, sizeof(why))) {
		fail(err, errsz, "%s, which no config can name: refused", why);
		return -1;
	}
	char *file = knob_file(kind, name);
	int rc = -1;
	/* A file this kernel lacks: the write says so, when path names it. */
	if (realpath(file, want) ? !realpath(path, got) || strcmp(want, got) : strcmp(file, path))
		fail(err, errsz, "%s %s is %s, not %s: refused", kind, name, file, path);
	else if (!strcmp(kind, "sched_features") &&
		 (!valid_feature(value) || strcmp(feature_name(value), feature_name(name))))
		fail(err, errsz, "sched_features %s: '%.200s' is neither %s nor NO_%s: refused", name,
		     value, feature_name(name), feature_name(name));
	else
		rc = snprintf(derived, derivedsz, "%s", file) < (int)derivedsz ? 0 : -1;
	free(file);
	return rc;
}

static void entry_free(struct knob_entry *e)
{
	free(e->name);
	free(e->path);
	free(e->old_value);
	free(e->requested_value);
	free(e->applied_value);
	memset(e, 0, sizeof(*e));
}

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

static char *lock_path(void)
{
	return xasprintf("%s/schedrig-knobs.lock", knobs_lock_dir());
}

int knobs_lock(char *err, size_t errsz)
{
	char *path = lock_path();
	int fd = lock_file_open(path, err, errsz);
	if (fd < 0) {
		free(path);
		return -1;
	}
	for (int tries = 1; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		if (errno == EWOULDBLOCK && tries < LOCK_TRIES) {
			nanosleep(&(struct timespec){.tv_nsec = LOCK_RETRY_NS}, NULL);
			continue;
		}
		char holder[32];
		lock_file_holder(fd, holder, sizeof(holder));
		fail(err, errsz,
		     "another schedrig (pid %s) has scheduler knobs changed on this machine"
		     " (%s); knob changes of two runs at once would undo each other",
		     holder, path);
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* the lock holds; only the holder's pid in messages is lost */
	}
	return fd;
}

int knobs_host_clean(char *err, size_t errsz)
{
	char *path = lock_path();
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	free(path);
	/* Held shared while the record is read: no rig can take the lock (and
	 * write a record) meanwhile, so a record then is one nobody will restore. */
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB)) {
		char holder[32];
		lock_file_holder(fd, holder, sizeof(holder));
		fail(err, errsz,
		     "another schedrig (pid %s) is changing kernel knobs on this machine now;"
		     " what runs meanwhile would measure its settings: try again when it is done",
		     holder);
		close(fd);
		return -1;
	}
	rc = knob_pending_check(err, errsz);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void knobs_unlock(struct knob_state *st)
{
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	st->lock_fd = -1;
}

void knobs_free(struct knob_state *st)
{
	if (!st)
		return;
	knobs_unlock(st);
	for (size_t i = 0; i < st->n; i++)
		entry_free(&st->entries[i]);
	free(st->entries);
	free(st);
}

/* The knobs of v in order of application: kind, config name, value. */
struct knob_req {
	const char *kind, *name, *value;
};

static size_t knob_requests(const struct cfg_variant *v, struct knob_req *r)
{
	size_t n = 0;
	if (v->autogroup >= 0)
		r[n++] = (struct knob_req){"sysctl", "kernel.sched_autogroup_enabled",
					   v->autogroup ? "1" : "0"};
	for (size_t i = 0; i < v->n_sysctl; i++)
		r[n++] = (struct knob_req){"sysctl", v->sysctl[i].key, v->sysctl[i].value};
	for (size_t i = 0; i < v->n_debugfs; i++)
		r[n++] = (struct knob_req){"debugfs", v->debugfs[i].key, v->debugfs[i].value};
	for (size_t i = 0; i < v->n_sched_features; i++)
		r[n++] = (struct knob_req){"sched_features", v->sched_features[i].key,
					   v->sched_features[i].key};
	return n;
}

/* The number of whitespace-separated fields of text, when every one is a
 * base-10 integer (parse_ll) without a leading zero (the kernel reads
 * /proc/sys integers with base 0: "010" is 8); -1 when one is not, or there
 * is none. */
static long integer_fields(const char *text)
{
	long n = 0;
	for (const char *p = text;; n++) {
		char field[64];
		long long v;
		p += strspn(p, " \t\n");
		size_t len = strcspn(p, " \t\n");
		if (!len)
			return n ? n : -1;
		if (len >= sizeof(field))
			return -1;
		snprintf(field, sizeof(field), "%.*s", (int)len, p);
		const char *digits = field + (field[0] == '-');
		if (!parse_ll(field, &v) || (digits[0] == '0' && digits[1]))
			return -1;
		p += len;
	}
}

/* A knob whose file reads integers takes as many base-10 integers: '+1',
 * '0x10' or '1 2' for a '0' would fail at the write or the read-back, and
 * '010' would be written as 8. */
static int value_shape_check(const struct knob_entry *e, char *err, size_t errsz)
{
	long want = integer_fields(e->old_value);
	if (want < 0 || integer_fields(e->requested_value) == want)
		return 0;
	fail(err, errsz, "%s reads '%.100s': '%.100s' is not %ld base-10 integer%s like it",
	     e->path, e->old_value, e->requested_value, want, want == 1 ? "" : "s");
	return -1;
}

/* Fill e for request q, read its old value and check the requested one
 * has its shape (value_shape_check). */
static int knob_prepare(const struct knob_req *q, struct knob_entry *e, char *err, size_t errsz)
{
	e->kind = q->kind;
	e->name = xstrdup(q->name);
	e->requested_value = xstrdup(q->value);
	e->path = knob_file(q->kind, q->name);
	if (!strcmp(q->kind, "sched_features")) {
		e->old_value = read_feature(e->path, feature_name(q->value), err, errsz);
	} else {
		bool sysctl = !strcmp(q->kind, "sysctl");
		e->old_value = read_knob(e->path, err, errsz);
		if (!e->old_value && errno == ENOENT)
			fail(err, errsz, "%s: no such file (this kernel (%s) has no %s %s)", e->path,
			     kernel_release(), sysctl ? "sysctl" : "debugfs tunable", q->name);
	}
	return e->old_value ? value_shape_check(e, err, errsz) : -1;
}

int knobs_restore(struct knob_state *st, const struct knob_journal_ops *journal, char *err,
		  size_t errsz)
{
	int rc = 0;
	char why[1024];
	if (!st)
		return 0;
	for (size_t i = st->n; i-- > 0;) {
		struct knob_entry *e = &st->entries[i];
		if (e->restored)
			continue;
		if (e->changed && knob_write_verify(e->path, e->old_value, NULL, 0, why, sizeof(why))) {
			if (!rc)
				fail(err, errsz, "cannot restore %s: %s", e->name, why);
			rc = -1;
			continue;
		}
		e->restored = true;
		if (journal && journal->restored && journal->restored(journal->ctx, e, why, sizeof(why))) {
			if (!rc)
				fail(err, errsz, "%s restored, but the journal failed: %s", e->path, why);
			rc = -1;
		}
	}
	if (st->mounted_debugfs) {
		knobs_debugfs_unmount();
		st->mounted_debugfs = false;
	}
	knobs_unlock(st);
	return rc;
}

int knobs_apply(const struct cfg_variant *v, const struct knob_journal_ops *journal,
		struct knob_state **out, char *err, size_t errsz)
{
	size_t n_req = knobs_count(v);
	struct knob_req *req = xcalloc(n_req ? n_req : 1, sizeof(*req));
	struct knob_state *st = xcalloc(1, sizeof(*st));
	bool need_debugfs = false;

	n_req = knob_requests(v, req);
	st->entries = xcalloc(n_req ? n_req : 1, sizeof(*st->entries));
	st->lock_fd = -1;
	*out = NULL;
	if (n_req && ((st->lock_fd = knobs_lock(err, errsz)) < 0 || knob_pending_check(err, errsz)))
		goto fail;
	for (size_t i = 0; i < n_req; i++)
		need_debugfs |= strcmp(req[i].kind, "sysctl") != 0;
	*out = NULL;
	if (need_debugfs && knobs_debugfs_mount(&st->mounted_debugfs, err, errsz))
		goto fail;
	for (size_t i = 0; i < n_req; i++) {
		struct knob_entry *e = &st->entries[st->n];
		if (knob_prepare(&req[i], e, err, errsz)) {
			entry_free(e);
			goto fail;
		}
		e->seq = (int)st->n;
		/* Journalled before anything changes. */
		if (journal && journal->record && journal->record(journal->ctx, e, err, errsz)) {
			entry_free(e);
			goto fail;
		}
		st->n++;
		if (write_knob(e->path, e->requested_value, err, errsz))
			goto fail; /* nothing changed: restore just closes the entry */
		e->changed = true;
		int rc = read_back(e->path, e->requested_value, &e->applied_value, err, errsz);
		if (!e->applied_value)
			goto fail;
		char jerr[512];
		if (journal && journal->applied && journal->applied(journal->ctx, e, jerr, sizeof(jerr))) {
			if (!rc)
				fail(err, errsz, "%s", jerr);
			goto fail;
		}
		if (rc)
			goto fail;
	}
	free(req);
	*out = st;
	return 0;

fail:
	free(req);
	char why[1024];
	if (knobs_restore(st, journal, why, sizeof(why))) {
		size_t len = strlen(err);
		snprintf(err + len, errsz - len, "; restoring: %s (schedrig restore retries)", why);
	}
	knobs_free(st);
	return -1;
}

int knobs_probe(const struct cfg_variant *v, struct argv *problems)
{
	size_t n_req = knobs_count(v);
	struct knob_req *req = xcalloc(n_req ? n_req : 1, sizeof(*req));
	bool need_debugfs = false, mounted = false;
	char err[1024];
	size_t before = problems->n;

	n_req = knob_requests(v, req);
	for (size_t i = 0; i < n_req; i++)
		need_debugfs |= strcmp(req[i].kind, "sysctl") != 0;
	if (need_debugfs && knobs_debugfs_mount(&mounted, err, sizeof(err))) {
		argv_add(problems, err);
		need_debugfs = false;
	}
	for (size_t i = 0; i < n_req; i++) {
		struct knob_entry e = {0};
		if (strcmp(req[i].kind, "sysctl") && !need_debugfs)
			continue;
		if (knob_prepare(&req[i], &e, err, sizeof(err)))
			argv_add(problems, err);
		else if (access(e.path, W_OK))
			argv_addf(problems, "%s: not writable: %s", e.path, strerror(errno));
		entry_free(&e);
	}
	if (mounted)
		knobs_debugfs_unmount();
	free(req);
	return (int)(problems->n - before);
}
