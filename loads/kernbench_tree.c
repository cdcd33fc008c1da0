#include "kernbench_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "cache.h"
#include "util.h"

const char *const kb_make_env[] = {"MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES",
				   "GNUMAKEFLAGS", NULL};

static const char *const named_configs[] = {"tinyconfig", "allnoconfig", "defconfig", NULL};

/* FNV-1a of s with its terminating NUL (a separator between strings). */
static uint64_t fnv1a_str(uint64_t h, const char *s)
{
	return fnv1a_bytes(h, s, strlen(s) + 1);
}

/* Hash the file's content into h; false when it cannot be read. */
static bool fnv1a_file(uint64_t *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		*h = fnv1a_bytes(*h, buf, (size_t)n);
	close(fd);
	return n == 0;
}

/* Copy the basename of path without .tar.* into dst, keeping [A-Za-z0-9._-]. */
static void name_part(const char *path, char *dst, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	const char *tar = strstr(base, ".tar");
	if (tar)
		len = (size_t)(tar - base);
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < size && o < 40; i++) {
		char c = base[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			  c == '.' || c == '_' || c == '-';
		dst[o++] = ok ? c : '_';
	}
	if (!o && size > 1)
		dst[o++] = 'x';
	dst[o] = '\0';
}

static int version_cmp(const void *a, const void *b)
{
	return strverscmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_named_config(const char *config)
{
	for (const char *const *c = named_configs; *c; c++)
		if (!strcmp(*c, config))
			return true;
	return false;
}

void kb_packed_name(const char *source, const char *config, char *dst, size_t size)
{
	uint64_t h = fnv1a_str(FNV1A_OFFSET_BASIS, "kernbench-packed-1");
	h = fnv1a_str(fnv1a_str(h, source ? source : ""), config);
	snprintf(dst, size, "packed-%016llx", (unsigned long long)h);
}

/* In a guest: the entry the rig packed for source and config under
 * cache_dir, when it is there and prepared. 0 with e filled, or -1. */
static int kb_packed_entry(struct kb_entry *e, const char *source, const char *cache_dir)
{
	char name[32], cache[PATH_MAX], marker[PATH_MAX + 48];
	kb_packed_name(source, e->config, name, sizeof(name));
	if (!realpath(cache_dir, cache) || strlen(cache) + sizeof(name) + 1 > sizeof(e->dir))
		return -1;
	snprintf(e->dir, sizeof(e->dir), "%.*s/%s", (int)(sizeof(e->dir) - sizeof(name) - 1), cache,
		 name);
	snprintf(marker, sizeof(marker), "%s/prepared", e->dir);
	if (access(marker, F_OK))
		return -1;
	snprintf(e->source, sizeof(e->source), "%s", e->dir);
	snprintf(e->lock, sizeof(e->lock), "%s.lock", e->dir);
	snprintf(e->tree, sizeof(e->tree), "%s/src", e->dir);
	return 0;
}

int kb_entry_init(struct kb_entry *e, const char *source, const char *config,
		  const char *cache_dir, char *err, size_t errsz)
{
	struct stat sb;
	memset(e, 0, sizeof(*e));
	e->config = config;

	/* In a guest the rig's packed entry, even where the source is there
	 * too (the guest's /usr is this machine's: /usr/src). */
	if (kb_packed_entry(e, source && *source ? source : NULL,
			    cache_dir ? cache_dir : KERNBENCH_PACKED_DIR) == 0)
		return 0;
	if (!source || !*source) {
		glob_t g;
		if (glob(KERNBENCH_DEFAULT_TARBALLS, 0, NULL, &g) || !g.gl_pathc) {
			globfree(&g);
			snprintf(err, errsz, "no kernel source: %s not found (apt-get install linux-source-6.12) and no source: parameter",
				 KERNBENCH_DEFAULT_TARBALLS);
			return -1;
		}
		qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), version_cmp);
		snprintf(e->source, sizeof(e->source), "%s", g.gl_pathv[g.gl_pathc - 1]);
		globfree(&g);
	} else if (!realpath(source, e->source)) {
		snprintf(err, errsz, "source %s: %s", source, strerror(errno));
		return -1;
	}
	if (stat(e->source, &sb)) {
		snprintf(err, errsz, "source %s: %s", e->source, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
		snprintf(err, errsz, "source %s is neither a tarball nor a directory", e->source);
		return -1;
	}
	e->source_is_tree = S_ISDIR(sb.st_mode);

	uint64_t h = FNV1A_OFFSET_BASIS;
	h = fnv1a_str(h, "kernbench-cache-2"); /* 2: prepared with KERNBENCH_PATH */
	h = fnv1a_str(h, e->source);
	if (!e->source_is_tree) {
		char stamp[64];
		snprintf(stamp, sizeof(stamp), "%lld %lld.%09ld", (long long)sb.st_size,
			 (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec);
		h = fnv1a_str(h, stamp);
	}
	if (is_named_config(config)) {
		h = fnv1a_str(h, config);
	} else {
		errno = 0;
		if (!realpath(config, e->config_file) || stat(e->config_file, &sb) ||
		    !S_ISREG(sb.st_mode)) {
			snprintf(err, errsz, "config '%s' is not tinyconfig, allnoconfig, defconfig or a readable file%s%s",
				 config, errno ? ": " : "", errno ? strerror(errno) : "");
			return -1;
		}
		h = fnv1a_str(h, "file");
		if (!fnv1a_file(&h, e->config_file)) {
			snprintf(err, errsz, "config file %s: %s", e->config_file, strerror(errno));
			return -1;
		}
	}

	char why[512], dflt[PATH_MAX];
	if (!cache_dir) {
		if (cache_check(why, sizeof(why))) {
			snprintf(err, errsz, "%s", why);
			return -1;
		}
		snprintf(dflt, sizeof(dflt), "%s/kernbench", cache_root());
		cache_dir = dflt;
	}
	if (mkdir_p(cache_dir, why, sizeof(why))) {
		snprintf(err, errsz, "cache_dir: %s", why);
		return -1;
	}
	char cache[PATH_MAX], src_part[48], cfg_part[48];
	if (!realpath(cache_dir, cache)) {
		snprintf(err, errsz, "cache_dir %s: %s", cache_dir, strerror(errno));
		return -1;
	}
	name_part(e->source, src_part, sizeof(src_part));
	name_part(e->config_file[0] ? e->config_file : config, cfg_part, sizeof(cfg_part));
	int n = snprintf(e->dir, sizeof(e->dir), "%s/%s-%s-%016llx", cache, src_part, cfg_part,
			 (unsigned long long)h);
	if (n < 0 || (size_t)n >= sizeof(e->dir) - 32) {
		snprintf(err, errsz, "cache_dir %s: path too long", cache);
		return -1;
	}
	snprintf(e->lock, sizeof(e->lock), "%s.lock", e->dir);
	snprintf(e->tree, sizeof(e->tree), "%s/src", e->dir);
	return 0;
}

void kb_entry_path(const struct kb_entry *e, const char *name, char *dst, size_t size)
{
	snprintf(dst, size, "%s/%s", e->dir, name);
}

/* Run one preparation step (argv in dir, output appended to prepare.log).
 * 0, or -1 with err naming the step, its status and the log's last line. */
static int prep_step(const struct kb_entry *e, char *const *argv, const char *dir,
		     const sigset_t *sigs, char *err, size_t errsz)
{
	char log[PATH_MAX + 16], why[96];
	kb_entry_path(e, "prepare.log", log, sizeof(log));
	struct proc_spec spec = {.argv = argv, .dir = dir, .out_path = log, .append = true,
				 .pdeath_sig = SIGTERM, .unset_env = kb_make_env,
				 .path_env = KERNBENCH_PATH};
	struct spawn x;
	if (proc_start(&x, &spec, err, errsz))
		return -1;
	int r = proc_wait(&x, sigs, UINT64_MAX);
	if (r > 0) {
		proc_stop(&x, SIGTERM, 10, sigs);
		snprintf(err, errsz, "preparing %s: stopped by %s during %s %s", e->dir,
			 strsignal(r), argv[0], argv[1]);
		return -1;
	}
	if (proc_ok(x.status))
		return 0;
	proc_describe(x.status, why, sizeof(why));
	char tail[200] = "";
	proc_file_tail(log, 1, "", tail, sizeof(tail));
	tail[strcspn(tail, "\n")] = '\0';
	snprintf(err, errsz, "preparing %s: %s %s: %s (%s: %s)", e->dir, argv[0], argv[1], why, log,
		 tail);
	return -1;
}

/* Copy the file at from to the file at to. 0 or -1 with errno. */
static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[65536];
	ssize_t n;
	int rc = 0;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
	if (n < 0)
		rc = -1;
	int e = errno;
	close(in);
	if (close(out))
		rc = -1;
	errno = e;
	return rc;
}

/* Unpack or copy the source to e->tree. 0 or -1 with err. */
static int prep_source(const struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz)
{
	if (e->source_is_tree) {
		char *argv[] = {"cp", "-a", "-T", "--", (char *)e->source, (char *)e->tree, NULL};
		return prep_step(e, argv, NULL, sigs, err, errsz);
	}
	char x[PATH_MAX + 8];
	kb_entry_path(e, "x", x, sizeof(x));
	if (mkdir(x, 0755)) {
		snprintf(err, errsz, "mkdir %s: %s", x, strerror(errno));
		return -1;
	}
	char *argv[] = {"tar", "-xf", (char *)e->source, "-C", x, "--no-same-owner", NULL};
	if (prep_step(e, argv, NULL, sigs, err, errsz))
		return -1;
	/* A tarball with one top directory (linux-source-6.1/): that is the
	 * tree. Otherwise the unpacked files themselves are. */
	DIR *d = opendir(x);
	if (!d) {
		snprintf(err, errsz, "opendir %s: %s", x, strerror(errno));
		return -1;
	}
	char only[NAME_MAX + 1] = "";
	unsigned entries = 0;
	bool only_dir = false;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		entries++;
		snprintf(only, sizeof(only), "%s", de->d_name);
		only_dir = de->d_type == DT_DIR;
	}
	closedir(d);
	char from[2 * PATH_MAX];
	if (entries == 1 && only_dir)
		snprintf(from, sizeof(from), "%s/%s", x, only);
	else
		snprintf(from, sizeof(from), "%s", x);
	if (rename(from, e->tree)) {
		snprintf(err, errsz, "rename %s to %s: %s", from, e->tree, strerror(errno));
		return -1;
	}
	if (entries == 1 && only_dir)
		rmdir(x);
	return 0;
}

int kb_prepare_entry(struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz)
{
	char marker[PATH_MAX + 16];
	kb_entry_path(e, "prepared", marker, sizeof(marker));

	int lock = lock_file_open(e->lock, err, errsz);
	if (lock < 0)
		return -1;
	while (flock(lock, LOCK_EX)) {
		if (errno != EINTR) {
			snprintf(err, errsz, "flock %s: %s", e->lock, strerror(errno));
			close(lock);
			return -1;
		}
	}
	int rc = -1;
	if (!access(marker, F_OK)) {
		rc = 0;
		goto out;
	}
	/* Left over by a preparation that failed or was killed: start over. */
	if (proc_remove_tree(e->dir) && errno != ENOENT) {
		snprintf(err, errsz, "removing the unfinished %s: %s", e->dir, strerror(errno));
		goto out;
	}
	if (mkdir(e->dir, 0755)) {
		snprintf(err, errsz, "mkdir %s: %s", e->dir, strerror(errno));
		goto out;
	}
	if (prep_source(e, sigs, err, errsz))
		goto out;
	if (e->config_file[0]) {
		char dot[PATH_MAX + 16];
		snprintf(dot, sizeof(dot), "%s/.config", e->tree);
		if (copy_file(e->config_file, dot)) {
			snprintf(err, errsz, "copying %s to %s: %s", e->config_file, dot, strerror(errno));
			goto out;
		}
		char *argv[] = {"make", "ARCH=x86_64", "olddefconfig", NULL};
		if (prep_step(e, argv, e->tree, sigs, err, errsz))
			goto out;
	} else {
		char *argv[] = {"make", "ARCH=x86_64", (char *)e->config, NULL};
		if (prep_step(e, argv, e->tree, sigs, err, errsz))
			goto out;
	}
	FILE *f = fopen(marker, "w");
	if (!f) {
		snprintf(err, errsz, "%s: %s", marker, strerror(errno));
		goto out;
	}
	time_t now = time(NULL);
	char when[32];
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "source=%s\nconfig=%s\nprepared_at=%s\n", e->source,
		e->config_file[0] ? e->config_file : e->config, when);
	if (fclose(f)) {
		snprintf(err, errsz, "%s: %s", marker, strerror(errno));
		unlink(marker);
		goto out;
	}
	e->prepared_now = true;
	rc = 0;
out:
	close(lock); /* releases the flock */
	return rc;
}

int kb_make_prepare(const struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz)
{
	char mark[PATH_MAX + 16];
	kb_entry_path(e, "made-prepare", mark, sizeof(mark));
	if (!access(mark, F_OK))
		return 0;
	int lock = lock_file_open(e->lock, err, errsz);
	if (lock < 0)
		return -1;
	while (flock(lock, LOCK_EX) && errno == EINTR)
		;
	int rc = 0;
	if (access(mark, F_OK)) {
		long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
		char jobs[32];
		snprintf(jobs, sizeof(jobs), "-j%ld", ncpus > 0 ? ncpus : 1);
		char *argv[] = {"make", "ARCH=x86_64", jobs, "prepare", NULL};
		rc = prep_step(e, argv, e->tree, sigs, err, errsz);
		FILE *f = rc ? NULL : fopen(mark, "w");
		if (!rc && (!f || fclose(f))) {
			snprintf(err, errsz, "%s: %s", mark, strerror(errno));
			rc = -1;
		}
	}
	close(lock);
	return rc;
}

int kb_check_source(const char *source, const char *config, char *err, size_t errsz)
{
	glob_t g;
	bool found = source && *source ? access(source, R_OK) == 0 :
		     glob(KERNBENCH_DEFAULT_TARBALLS, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	if (!source || !*source)
		globfree(&g);
	if (!found) {
		snprintf(err, errsz, "no kernel source here: %s (apt-get install linux-source-6.12)",
			 source && *source ? source : KERNBENCH_DEFAULT_TARBALLS);
		return -1;
	}
	if (!is_named_config(config) && access(config, R_OK)) {
		snprintf(err, errsz, "config '%s' is not tinyconfig, allnoconfig, defconfig or a"
			 " readable file", config);
		return -1;
	}
	return 0;
}
