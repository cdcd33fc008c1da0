/* Which files are scheduler knobs: the roots (/proc/sys, debugfs), the
 * names a config may give a knob and their canonical spellings, the file
 * each knob is, the rules a path read from a database must pass before the
 * rig writes it, and mounting debugfs. */
#include "knob_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "util.h"

static char proc_root[PATH_MAX] = KNOBS_PROC_SYS;
static char debugfs_root[PATH_MAX] = KNOBS_DEBUGFS;
static bool debugfs_overridden;
static char sys_root[PATH_MAX] = KNOBS_SYSFS;
static char irq_root[PATH_MAX] = KNOBS_PROC_IRQ;

void knobs_set_host_roots(const char *sys, const char *irq)
{
	snprintf(sys_root, sizeof(sys_root), "%s", sys ? sys : KNOBS_SYSFS);
	snprintf(irq_root, sizeof(irq_root), "%s", irq ? irq : KNOBS_PROC_IRQ);
}

const char *knobs_sysfs_root(void)
{
	return sys_root;
}

const char *knobs_irq_root(void)
{
	return irq_root;
}

/* The files below /sys a sysfs knob may be (host: settings,
 * harness/host/hostset.h); "policy#" is policy and a CPU number. */
static const char *const sysfs_knobs[] = {
	"kernel/mm/transparent_hugepage/enabled",
	"kernel/mm/transparent_hugepage/defrag",
	"devices/system/cpu/smt/control",
	"devices/system/cpu/cpufreq/boost",
	"devices/system/cpu/intel_pstate/no_turbo",
	"devices/system/cpu/cpufreq/policy#/scaling_governor",
};

/* Is rel (below /sys) one of sysfs_knobs? */
static bool sysfs_knob_ok(const char *rel)
{
	for (size_t i = 0; i < sizeof(sysfs_knobs) / sizeof(sysfs_knobs[0]); i++) {
		const char *p = sysfs_knobs[i], *hash = strchr(p, '#');
		if (!hash) {
			if (!strcmp(rel, p))
				return true;
			continue;
		}
		size_t pre = (size_t)(hash - p);
		if (strncmp(rel, p, pre))
			continue;
		size_t digits = strspn(rel + pre, "0123456789");
		if (digits && digits <= 5 && !strcmp(rel + pre + digits, hash + 1))
			return true;
	}
	return false;
}

/* An IRQ knob's name: an IRQ number, or "default" (default_smp_affinity). */
static bool irq_name_ok(const char *name)
{
	size_t n = strlen(name);
	return !strcmp(name, "default") ||
	       (n && n <= 6 && strspn(name, "0123456789") == n && (name[0] != '0' || n == 1));
}

/* Below irq_root: "N/smp_affinity_list" or "default_smp_affinity". */
static bool irq_rel_ok(const char *rel)
{
	if (!strcmp(rel, "default_smp_affinity"))
		return true;
	size_t d = strspn(rel, "0123456789");
	return d && d <= 6 && !strcmp(rel + d, "/smp_affinity_list");
}

void knobs_set_roots(const char *proc_sys, const char *debugfs)
{
	snprintf(proc_root, sizeof(proc_root), "%s", proc_sys ? proc_sys : KNOBS_PROC_SYS);
	snprintf(debugfs_root, sizeof(debugfs_root), "%s", debugfs ? debugfs : KNOBS_DEBUGFS);
	debugfs_overridden = debugfs != NULL;
}

bool knob_path_is_debugfs(const char *path)
{
	size_t n = strlen(debugfs_root);
	return !strncmp(path, debugfs_root, n) && (path[n] == '/' || path[n] == '\0');
}

bool knob_path_is_sysfs(const char *path)
{
	size_t n = strlen(sys_root);
	return !strncmp(path, sys_root, n) && path[n] == '/';
}

bool knob_path_is_irq_mask(const char *path)
{
	size_t n = strlen(irq_root);
	return !strncmp(path, irq_root, n) && !strcmp(path + n, "/default_smp_affinity");
}

bool knob_is_features_file(const char *path)
{
	if (!knob_path_is_debugfs(path))
		return false;
	const char *rel = path + strlen(debugfs_root);
	return !strcmp(rel, "/sched/features") || !strcmp(rel, "/sched_features");
}

void knob_errorf(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
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

bool knob_valid_feature(const char *s)
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
		knob_errorf(err, errsz, "debugfs: '%s' is not a file name under sched/ ('/'-separated"
			    " names of letters, digits, '_' and '-')", name);
	else if (!strcmp(rel, "features"))
		knob_errorf(err, errsz, "debugfs: %s is the sched_features list, not a value knob:"
			    " use sched_features: [NAME or NO_NAME]", name);
	else if (!strcmp(rel, "preempt"))
		knob_errorf(err, errsz, "debugfs: %s reads back a list of modes with the current one in"
			    " parentheses, not the value written: schedrig cannot verify or restore it"
			    " (boot with preempt= instead)", name);
	else
		return 0;
	return -1;
}

int knob_name_check(const char *kind, const char *name, char *err, size_t errsz)
{
	if (!strcmp(kind, "sched_features")) {
		if (knob_valid_feature(name))
			return 0;
		knob_errorf(err, errsz, "sched_features entries are names such as PLACE_LAG or NO_PLACE_LAG");
		return -1;
	}
	if (!strcmp(kind, "debugfs"))
		return debugfs_name_check(name, err, errsz);
	if (!strcmp(kind, "sysfs")) {
		if (sysfs_knob_ok(name))
			return 0;
		knob_errorf(err, errsz, "sysfs: '%s' is not a host setting's file schedrig writes (THP"
			    " enabled or defrag, SMT control, cpufreq boost or a policy's"
			    " scaling_governor, intel_pstate no_turbo)", name);
		return -1;
	}
	if (!strcmp(kind, "irq")) {
		if (irq_name_ok(name))
			return 0;
		knob_errorf(err, errsz, "irq: '%s' is not an IRQ number or default", name);
		return -1;
	}
	if (strcmp(kind, "sysctl")) {
		knob_errorf(err, errsz, "'%s' is not a kind of knob (sysctl, debugfs, sched_features,"
			    " sysfs, irq)", kind);
		return -1;
	}
	char *rel = sysctl_rel(name);
	int rc = 0;
	if (!plain_components(rel, true)) {
		knob_errorf(err, errsz, "sysctl: '%s' is not a sysctl key (names of letters, digits, '_'"
			    " and '-' separated by '.', or by '/' with dots inside names)", name);
		rc = -1;
	} else if (runs_program(rel)) {
		knob_errorf(err, errsz, "sysctl: %s names a program the kernel runs as root, not a scheduler"
			    " knob: schedrig never writes it", name);
		rc = -1;
	}
	free(rel);
	return rc;
}

char *knob_canonical(const char *kind, const char *name)
{
	if (!strcmp(kind, "sysfs") || !strcmp(kind, "irq"))
		return xstrdup(name);
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
		knob_errorf(err, errsz, "%s: %s: not a knob file schedrig can write", path, strerror(errno));
		return -1;
	}
	const char *sysctl = below(r, proc_root), *dbg = below(r, debugfs_root);
	const char *sys = below(r, sys_root), *irq = below(r, irq_root);
	bool ok = sysctl ? !runs_program(sysctl) :
		  dbg ? (!strncmp(dbg, "sched/", 6) && dbg[6]) || !strcmp(dbg, "sched_features") :
		  sys ? sysfs_knob_ok(sys) : irq && irq_rel_ok(irq);
	if (!ok) {
		knob_errorf(err, errsz, "%s (%s) is not a knob schedrig sets (a sysctl under %s other than"
			    " one naming a program, a file under %s/sched/, %s/sched_features, a host"
			    " setting's file under %s, or an IRQ's affinity under %s): refused", path, r,
			    proc_root, debugfs_root, debugfs_root, sys_root, irq_root);
		return -1;
	}
	snprintf(real, realsz, "%s", r);
	return 0;
}

const char *knob_feature_name(const char *token)
{
	return strncmp(token, "NO_", 3) ? token : token + 3;
}

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

char *knob_file(const char *kind, const char *name)
{
	if (!strcmp(kind, "sched_features"))
		return features_path();
	if (!strcmp(kind, "sysfs"))
		return xasprintf("%s/%s", sys_root, name);
	if (!strcmp(kind, "irq"))
		return strcmp(name, "default") ? xasprintf("%s/%s/smp_affinity_list", irq_root, name)
					       : xasprintf("%s/default_smp_affinity", irq_root);
	return strcmp(kind, "sysctl") ? debugfs_path(name) : sysctl_path(name);
}

int knob_row_check(const char *kind, const char *name, const char *path, const char *value,
		   char *derived, size_t derivedsz, char *err, size_t errsz)
{
	char want[PATH_MAX], got[PATH_MAX], why[512];
	if (knob_name_check(kind, name, why, sizeof(why))) {
		knob_errorf(err, errsz, "%s, which no config can name: refused", why);
		return -1;
	}
	char *file = knob_file(kind, name);
	int rc = -1;
	/* A file this kernel lacks: the write says so, when path names it. */
	if (realpath(file, want) ? !realpath(path, got) || strcmp(want, got) : strcmp(file, path))
		knob_errorf(err, errsz, "%s %s is %s, not %s: refused", kind, name, file, path);
	else if (!strcmp(kind, "sched_features") &&
		 (!knob_valid_feature(value) || strcmp(knob_feature_name(value), knob_feature_name(name))))
		knob_errorf(err, errsz, "sched_features %s: '%.200s' is neither %s nor NO_%s: refused", name,
			    value, knob_feature_name(name), knob_feature_name(name));
	else
		rc = snprintf(derived, derivedsz, "%s", file) < (int)derivedsz ? 0 : -1;
	free(file);
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
		knob_errorf(err, errsz, "cannot mount debugfs on %s: %s", debugfs_root, strerror(errno));
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
