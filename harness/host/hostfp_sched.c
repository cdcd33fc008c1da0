/* The scheduler's fields of a fingerprint: the kernel.sched_* sysctls (and
 * numa_balancing, timer_migration), the debugfs scheduler tunables that
 * exist, and sched_features. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hostfp_impl.h"

#define DEBUG_SCHED "/sys/kernel/debug/sched"

/* debugfs files under sched/ that are no tunable: a dump of every
 * runqueue (debug), the features list (its own field). */
static const char *const debugfs_skip[] = {"debug", "features"};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of directory rel (below the root) whose names pass
 * keep, sorted; *n of them (malloc'd names), NULL with the errno in *e
 * when the directory cannot be read. */
static char **dir_files(const struct hf_ctx *c, const char *rel, bool (*keep)(const char *),
			bool dirs, size_t *n, int *e)
{
	char *path = hf_path(c, rel);
	DIR *d = opendir(path);
	char **names = NULL;
	*n = 0;
	*e = d ? 0 : errno;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || (keep && !keep(de->d_name)))
			continue;
		char *full = xasprintf("%s/%s", path, de->d_name);
		struct stat st;
		bool is_dir = !stat(full, &st) && S_ISDIR(st.st_mode);
		free(full);
		if (is_dir != dirs)
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	free(path);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

static bool sched_sysctl(const char *name)
{
	return !strncmp(name, "sched_", 6) || !strncmp(name, "numa_balancing", 14) ||
	       !strcmp(name, "timer_migration");
}

static void read_sysctls(const struct hf_ctx *c)
{
	size_t n;
	int e;
	char **names = dir_files(c, "/proc/sys/kernel", sched_sysctl, false, &n, &e);
	for (size_t i = 0; i < n; i++) {
		char *field = xasprintf("sysctl.kernel.%s", names[i]);
		char *rel = xasprintf("/proc/sys/kernel/%s", names[i]);
		hf_file_field(c, field, rel);
		free(field);
		free(rel);
	}
	strv_free(names, n);
}

static bool debugfs_tunable(const char *name)
{
	for (size_t i = 0; i < sizeof(debugfs_skip) / sizeof(debugfs_skip[0]); i++)
		if (!strcmp(name, debugfs_skip[i]))
			return false;
	return true;
}

/* Each tunable of dir (below DEBUG_SCHED: "" or "/numa_balancing") as
 * debugfs.sched[.DIR].NAME; preempt lists the modes with the current
 * one in parentheses: that one. */
static void read_debugfs_dir(const struct hf_ctx *c, const char *sub, int *dir_errno)
{
	size_t n;
	char *rel = xasprintf(DEBUG_SCHED "%s", sub);
	char **names = dir_files(c, rel, debugfs_tunable, false, &n, dir_errno);
	for (size_t i = 0; i < n; i++) {
		char *field = xasprintf("debugfs.sched%s%s.%s", *sub ? "." : "", *sub ? sub + 1 : "",
					names[i]);
		char *file = xasprintf("%s/%s", rel, names[i]), text[512], why[64];
		int e = hf_read(c, file, text, sizeof(text));
		char *open = strchr(text, '('), *close = open ? strchr(open, ')') : NULL;
		if (!e && !strcmp(names[i], "preempt") && open && close)
			hostfp_add(c->fp, field, file, true, "%.*s", (int)(close - open - 1), open + 1);
		else
			hostfp_add(c->fp, field, file, true, "%s", e ? hf_why(e, why, sizeof(why)) :
				   *text ? text : "none");
		free(field);
		free(file);
	}
	strv_free(names, n);
	free(rel);
}

static void read_debugfs(const struct hf_ctx *c)
{
	int e, sub_e;
	char why[64];
	read_debugfs_dir(c, "", &e);
	if (e) {
		/* No sched/ directory: debugfs is not mounted, or a kernel older than 5.13. */
		hostfp_add(c->fp, "debugfs.sched", DEBUG_SCHED, true, "%s", hf_why(e, why, sizeof(why)));
		return;
	}
	read_debugfs_dir(c, "/numa_balancing", &sub_e);
}

/* sched_features: sched/features (5.13+) or the older top-level file. */
static void read_features(const struct hf_ctx *c)
{
	const char *rel = DEBUG_SCHED "/features", *old = "/sys/kernel/debug/sched_features";
	char text[HOSTFP_VALUE_MAX], why[64];
	int e = hf_read(c, rel, text, sizeof(text));
	if (e == ENOENT && !hf_read(c, old, text, sizeof(text))) {
		hostfp_add(c->fp, "sched.features", old, true, "%s", text);
		return;
	}
	hostfp_add(c->fp, "sched.features", rel, true, "%s", e ? hf_why(e, why, sizeof(why)) : text);
}

void hf_read_sched(const struct hf_ctx *c)
{
	read_sysctls(c);
	read_features(c);
	read_debugfs(c);
}
