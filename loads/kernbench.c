/* kernbench: a real kernel build, timed like mmtests' kernbench
 * (shellpack kernbench: make clean, then make -jN vmlinux, per iteration),
 * run as `schedrig load kernbench --jobs N --config tinyconfig ...`.
 *
 * Source: a kernel tarball (default: the newest Debian linux-source tarball,
 * /usr/src/linux-source-*.tar.xz from package linux-source-6.12) or a tree
 * (--source DIR). It is prepared once into a cache entry under cache_dir
 * (default: the rig's cache, ~/.cache/schedrig/kernbench: cache.h),
 * named after the source, the config and a hash of both (FNV-1a 64 of the
 * source's real path, and for a tarball its size and mtime, and the config
 * name or the config file's content):
 *   CACHE/NAME.lock        flock: one preparer at a time; a second run waits
 *                          and then reuses the entry
 *   CACHE/NAME/src         the tree: the tarball's top directory (tar -xf), or
 *                          a copy of the source tree (cp -a -T)
 *   CACHE/NAME/prepared    written last; an entry without it is redone
 *   CACHE/NAME/prepare.log output of tar/cp and the config step
 *   CACHE/NAME/build.lock  flock held during clean + build; a second
 *                          concurrent kernbench on the entry fails at once
 *   CACHE/NAME/build.log   output of the last make clean + make
 * The config step runs in src: `make ARCH=x86_64 tinyconfig|allnoconfig|
 * defconfig`, or for a file: copy it to .config, `make ARCH=x86_64
 * olddefconfig`. The driver's prepare hook does this in the rig before the
 * instance starts (so a background build is building, not untarring, when
 * measured loads start); the built-in does it too when run by hand.
 * A full linux-source-6.1 tinyconfig: untar about 15 s, tinyconfig about 7 s.
 *
 * Each run (one repetition): `make ARCH=x86_64 clean`, then, timed,
 * `make ARCH=x86_64 -jJOBS TARGETS...` (fork/exec, no shell, MAKEFLAGS and
 * friends removed from the environment). With clean: targets the untimed
 * step removes only the target files (objects such as kernel/sched/core.o,
 * so that make rebuilds exactly those), in a tree the preparation has run
 * `make ARCH=x86_64 -jNCPUS prepare` in once (CACHE/NAME/made-prepare marks
 * it; clean: tree removes the mark before make clean): a small, real build
 * for a slow machine or a TCG guest.
 *
 * In a boot: qemu guest (guest_needs) the rig prepares the entry here and
 * puts it on the guest's scratch disk, mounted in the guest at the same
 * absolute path as here (kbuild's tools/ record absolute paths: elsewhere
 * objtool would be rebuilt), with a link CACHE_DIR/packed-KEY to it
 * (a given cache_dir must be relative: the guest works on that disk;
 * without one, KERNBENCH_PACKED_DIR/packed-KEY), KEY an
 * FNV-1a 64 of the source: and config: values as written; the toolchain is
 * this machine's /usr, shared read-only (needs.host_usr). There the packed
 * entry of the same source: and config: is used. make runs with
 * PATH=KERNBENCH_PATH both here and there, so that what kbuild finds (its
 * Kconfig records the compilers it probed, rustc among them) is the same on
 * both sides.
 *
 * elapsed is CLOCK_MONOTONIC from the fork to the reaping of make; user and
 * system are the wait4 rusage of make, which includes every compiler and
 * shell it waited for. A build that
 * exits non-zero or is killed (a compiler killed by the OOM killer makes make
 * fail) is reported on stderr with the tail of build.log, exit status 1, no
 * samples; so is a build whose make exits 0 while build.log holds gcc's
 * "Killed signal terminated program" (a killed compiler whose failure make
 * ignored). That line is printed on stderr first and becomes the failure's
 * reason (failure_lines, outcome.h). SIGINT/SIGTERM: make gets SIGTERM (it kills its jobs), 10 s, then
 * SIGKILL; exit status 1, no samples. Bad arguments: exit 2.
 *
 * Output (see loads/builtin.h for the common frame), e.g. --jobs 2:
 *   schedrig-kernbench 1 jobs=2 ncpus=2
 *   elapsed 2 109.752
 *   user 2 197.310
 *   system 2 18.042
 *   end status=0 clean_s=1.210 prepared=cached
 * Metrics (op = jobs, as mmtests' "elsp-80" row of kernbench):
 *   elapsed  wall time of the build, s
 *   user     user CPU time of the make process tree, s
 *   system   system CPU time of the make process tree, s */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "builtin_proc.h"
#include "cache.h"
#include "load.h"
#include "scan.h"

#define KERNBENCH_DEFAULT_TARBALLS "/usr/src/linux-source-*.tar.xz"
#define KERNBENCH_MAX_TARGETS 16
/* The PATH make and the preparation run with: Debian's for root, the same
 * here and in a guest (whose /usr is this machine's). */
#define KERNBENCH_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
/* Where a guest finds the entries packed for it when cache_dir is not
 * given: relative to its working directory, the scratch disk. */
#define KERNBENCH_PACKED_DIR "kernbench-packed"

static const struct param_def kernbench_params[] = {
	{"jobs", PARAM_UINT, "0", NULL, 0, 4096,
	 "make -j jobs; 0: the number of CPUs online"},
	{"config", PARAM_STRING, "tinyconfig", NULL, 1, 0,
	 "tinyconfig|allnoconfig|defconfig, or a .config file path (made with olddefconfig)"},
	{"targets", PARAM_STRING, "vmlinux", NULL, 1, 0,
	 "make targets, separated by spaces"},
	{"source", PARAM_STRING, NULL, NULL, 1, 0,
	 "kernel tarball or tree; default the newest " KERNBENCH_DEFAULT_TARBALLS},
	{"cache_dir", PARAM_STRING, NULL, NULL, 1, 0,
	 "directory of prepared trees, reused across iterations and runs; default the"
	 " rig's cache: $XDG_CACHE_HOME/schedrig/kernbench (~/.cache/schedrig/kernbench)"},
	{"prepare_only", PARAM_BOOL, "false", NULL, 1, 0,
	 "prepare the cache entry and exit without building (no samples)"},
	{"clean", PARAM_ENUM, "tree", "tree|targets", 1, 0,
	 "before each build: tree = make clean (mmtests); targets = remove only the target"
	 " files (e.g. kernel/sched/core.o) in a tree made ready once with make prepare"},
};

static const struct metric_def kernbench_metrics[] = {
	{"elapsed", "s", BETTER_LOWER, "wall time of make -jJOBS TARGETS, op = jobs", 2, false},
	{"user", "s", BETTER_LOWER, "user CPU time of the make process tree, op = jobs", 2, false},
	{"system", "s", BETTER_LOWER, "system CPU time of the make process tree, op = jobs", 2, false},
};

const struct load_ops kernbench_load;

/* Environment of the outer make (make check) that must not reach ours. */
static const char *const make_env[] = {"MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES",
				       "GNUMAKEFLAGS", NULL};

static const char *const named_configs[] = {"tinyconfig", "allnoconfig", "defconfig", NULL};

/* ---- the cache entry ---- */

struct kb_entry {
	char source[PATH_MAX];   /* real path of the tarball or tree */
	bool source_is_tree;
	char config_file[PATH_MAX]; /* real path when config is a file, else "" */
	const char *config;      /* as given */
	char dir[PATH_MAX];      /* CACHE/NAME */
	char lock[PATH_MAX + 8]; /* CACHE/NAME.lock */
	char tree[PATH_MAX + 8]; /* CACHE/NAME/src */
	bool prepared_now;       /* this call prepared it */
};

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

/* The name of the entry packed for a guest (guest_needs): packed-KEY, KEY
 * from source (NULL: the default) and config as written. */
static void kb_packed_name(const char *source, const char *config, char *dst, size_t size)
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

/* Resolve source, config and cache_dir (NULL: CACHE/kernbench, cache.h)
 * into e. 0, or -1 with err. */
static int kb_entry_init(struct kb_entry *e, const char *source, const char *config,
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

static void entry_path(const struct kb_entry *e, const char *name, char *dst, size_t size)
{
	snprintf(dst, size, "%s/%s", e->dir, name);
}

/* Run one preparation step (argv in dir, output appended to prepare.log).
 * 0, or -1 with err naming the step, its status and the log's last line. */
static int prep_step(const struct kb_entry *e, char *const *argv, const char *dir,
		     const sigset_t *sigs, char *err, size_t errsz)
{
	char log[PATH_MAX + 16], why[96];
	entry_path(e, "prepare.log", log, sizeof(log));
	struct proc_spec spec = {.argv = argv, .dir = dir, .out_path = log, .append = true,
				 .pdeath_sig = SIGTERM, .unset_env = make_env,
				 .path_env = KERNBENCH_PATH};
	pid_t pid = proc_start(&spec, err, errsz);
	if (pid < 0)
		return -1;
	struct proc_exit x;
	int r = proc_wait(pid, sigs, UINT64_MAX, &x);
	if (r > 0) {
		proc_stop(pid, SIGTERM, 10, sigs, &x);
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
	entry_path(e, "x", x, sizeof(x));
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

/* Prepare the entry unless it is: under CACHE/NAME.lock, unpack, configure,
 * write the marker. sigs: the signals that abort the preparation (SIGINT,
 * SIGTERM) besides SIGCHLD. 0 or -1 with err. */
static int kb_prepare_entry(struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz)
{
	char marker[PATH_MAX + 16];
	entry_path(e, "prepared", marker, sizeof(marker));

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

/* For clean: targets: `make ARCH=x86_64 -jNCPUS prepare` in the tree once,
 * under CACHE/NAME.lock, marked by CACHE/NAME/made-prepare. sigs as for
 * kb_prepare_entry. 0 or -1 with err. */
static int kb_make_prepare(const struct kb_entry *e, const sigset_t *sigs, char *err, size_t errsz)
{
	char mark[PATH_MAX + 16];
	entry_path(e, "made-prepare", mark, sizeof(mark));
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

/* ---- the load itself ---- */

/* Split targets at blanks into argv; each must be a plain make target (no
 * option, no variable assignment). 0 or -1 with err. */
static int add_targets(struct argv *argv, const char *targets, char *err, size_t errsz)
{
	char *copy = xstrdup(targets), *save = NULL;
	size_t n = 0;
	int rc = 0;
	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (t[0] == '-' || strchr(t, '=')) {
			snprintf(err, errsz, "target '%s' is an option or a variable, not a make target", t);
			rc = -1;
			break;
		}
		if (++n > KERNBENCH_MAX_TARGETS) {
			snprintf(err, errsz, "more than %d targets", KERNBENCH_MAX_TARGETS);
			rc = -1;
			break;
		}
		argv_add(argv, t);
	}
	if (!rc && !n) {
		snprintf(err, errsz, "no make target in targets '%s'", targets);
		rc = -1;
	}
	free(copy);
	return rc;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* gcc's own words when one of its programs was killed (the OOM killer,
 * a signal): "gcc: fatal error: Killed signal terminated program cc1". */
static const char *const kernbench_failure_lines[] = {"Killed signal terminated program", NULL};

/* The first line of the build log holding a kernbench_failure_lines
 * pattern, into line; false when none does or the log cannot be read. */
static bool log_failure_line(const char *log, char *line, size_t size)
{
	FILE *f = fopen(log, "r");
	char *l = NULL;
	size_t cap = 0;
	ssize_t n;
	bool found = false;
	while (f && !found && (n = getline(&l, &cap, f)) > 0)
		found = text_find_line(l, (size_t)n, kernbench_failure_lines, line, size);
	free(l);
	if (f)
		fclose(f);
	return found;
}

/* On a failed make: the compiler's killed line when the log has one, one
 * reason line, then the log's tail, on stderr. */
static void report_make_failure(const char *what, int status, const char *log)
{
	char why[96], tail[4096] = "", killed[256];
	proc_describe(status, why, sizeof(why));
	bool oom = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	if (log_failure_line(log, killed, sizeof(killed))) {
		fprintf(stderr, "schedrig load kernbench: %s\n", killed);
		oom = true;
	}
	proc_file_tail(log, 15, "  ", tail, sizeof(tail));
	fprintf(stderr, "schedrig load kernbench: %s failed: %s%s (log %s)\n%s", what, why,
		oom ? "; a process was killed (SIGKILL: the OOM killer?)" : "", log, tail);
}

/* clean: tree: `make clean` in the tree (which undoes make prepare, so the
 * made-prepare mark goes first). 0, or -1 after saying why on stderr. */
static int kb_make_clean(const struct kb_entry *e, struct proc_spec *spec, const sigset_t *sigs,
			 const char *log)
{
	char err[PATH_MAX + 256], mark[PATH_MAX + 16];
	char *clean_argv[] = {"make", "ARCH=x86_64", "clean", NULL};
	struct proc_exit x;

	entry_path(e, "made-prepare", mark, sizeof(mark));
	unlink(mark);
	spec->argv = clean_argv;
	pid_t pid = proc_start(spec, err, sizeof(err));
	if (pid < 0) {
		fprintf(stderr, "schedrig load kernbench: %s\n", err);
		return -1;
	}
	int sig = proc_wait(pid, sigs, UINT64_MAX, &x);
	if (sig > 0) {
		proc_stop(pid, SIGTERM, 10, sigs, NULL);
		fprintf(stderr, "schedrig load kernbench: stopped by %s during make clean\n", strsignal(sig));
		return -1;
	}
	if (!proc_ok(x.status)) {
		report_make_failure("make clean", x.status, log);
		return -1;
	}
	return 0;
}

/* clean: targets: remove each target file of the make argv (its words
 * after "make ARCH=x86_64 -jN") from the tree; one not there yet is fine.
 * 0, or -1 with err (a target that is a directory, or a path leaving the
 * tree: absolute, or with a ".." component). */
static int kb_remove_targets(const struct kb_entry *e, const struct argv *make, char *err,
			     size_t errsz)
{
	for (size_t i = 3; i < make->n; i++) {
		char path[2 * PATH_MAX];
		const char *t = make->v[i];
		size_t len = strlen(t);
		if (t[0] == '/' || !strcmp(t, "..") || !strncmp(t, "../", 3) || strstr(t, "/../") ||
		    (len >= 3 && !strcmp(t + len - 3, "/.."))) {
			snprintf(err, errsz, "clean: targets removes files of the tree only, not %s", t);
			return -1;
		}
		snprintf(path, sizeof(path), "%s/%s", e->tree, make->v[i]);
		if (unlink(path) && errno != ENOENT) {
			snprintf(err, errsz, "clean: targets cannot remove target %s: %s (give object"
				 " files such as kernel/sched/core.o)", make->v[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int kernbench_main(int argc, char **argv)
{
	sigset_t sigs;
	builtin_block_signals(&sigs);

	const char *vals[sizeof(kernbench_params) / sizeof(kernbench_params[0])];
	int r = builtin_parse_args(&kernbench_load, argc, argv, vals);
	if (r)
		return r > 0 ? 0 : BUILTIN_EXIT_USAGE;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	long long jobs = builtin_val_ll(&kernbench_load, vals, "jobs");
	if (!jobs)
		jobs = ncpus;
	const char *targets = builtin_val(&kernbench_load, vals, "targets");
	const char *prep_only = builtin_val(&kernbench_load, vals, "prepare_only");

	char err[PATH_MAX + 512];
	struct argv make = {0};
	argv_add(&make, "make");
	argv_add(&make, "ARCH=x86_64");
	argv_addf(&make, "-j%lld", jobs);
	if (add_targets(&make, targets, err, sizeof(err))) {
		fprintf(stderr, "schedrig load kernbench: --targets: %s\n", err);
		argv_free(&make);
		return BUILTIN_EXIT_USAGE;
	}

	struct kb_entry e;
	bool clean_targets = !strcmp(builtin_val(&kernbench_load, vals, "clean"), "targets");
	if (kb_entry_init(&e, builtin_val(&kernbench_load, vals, "source"),
			  builtin_val(&kernbench_load, vals, "config"),
			  builtin_val(&kernbench_load, vals, "cache_dir"), err, sizeof(err)) ||
	    kb_prepare_entry(&e, &sigs, err, sizeof(err)) ||
	    (clean_targets && kb_make_prepare(&e, &sigs, err, sizeof(err)))) {
		fprintf(stderr, "schedrig load kernbench: %s\n", err);
		argv_free(&make);
		return 1;
	}
	if (prep_only && !strcmp(prep_only, "true")) {
		/* Only here: otherwise the first stderr line is a failure's reason. */
		fprintf(stderr, "schedrig load kernbench: tree %s (%s)\n", e.tree,
			e.prepared_now ? "prepared now" : "cached");
		argv_free(&make);
		return 0;
	}

	int rc = 1;
	char path[PATH_MAX + 16], log[PATH_MAX + 16];
	entry_path(&e, "build.lock", path, sizeof(path));
	entry_path(&e, "build.log", log, sizeof(log));
	char why[PATH_MAX + 160];
	int lock = lock_file_open(path, why, sizeof(why));
	if (lock < 0) {
		fprintf(stderr, "schedrig load kernbench: %s\n", why);
		goto out;
	}
	if (flock(lock, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			fprintf(stderr, "schedrig load kernbench: %s is being built by another kernbench; give concurrent kernbench loads their own cache_dir\n",
				e.tree);
		else
			fprintf(stderr, "schedrig load kernbench: %s: %s\n", path, strerror(errno));
		goto out;
	}

	/* make clean (or the targets' removal): not timed, but it must work. */
	struct proc_spec spec = {.dir = e.tree, .out_path = log, .pdeath_sig = SIGTERM,
				 .unset_env = make_env, .path_env = KERNBENCH_PATH};
	struct proc_exit x;
	uint64_t t0 = builtin_now_ns();
	if (clean_targets ? kb_remove_targets(&e, &make, err, sizeof(err)) :
			    kb_make_clean(&e, &spec, &sigs, log)) {
		if (clean_targets)
			fprintf(stderr, "schedrig load kernbench: %s\n", err);
		goto out;
	}
	double clean_s = (double)(builtin_now_ns() - t0) / 1e9;

	/* The build, timed from the fork to the reaping of make. */
	spec.argv = make.v;
	spec.append = !clean_targets;
	uint64_t start = builtin_now_ns();
	pid_t pid = proc_start(&spec, err, sizeof(err));
	if (pid < 0) {
		fprintf(stderr, "schedrig load kernbench: %s\n", err);
		goto out;
	}
	int sig = proc_wait(pid, &sigs, UINT64_MAX, &x);
	if (sig > 0) {
		proc_stop(pid, SIGTERM, 10, &sigs, NULL);
		fprintf(stderr, "schedrig load kernbench: stopped by %s before the build finished\n",
			strsignal(sig));
		goto out;
	}
	if (!proc_ok(x.status)) {
		char *what = argv_render(&make);
		report_make_failure(what, x.status, log);
		free(what);
		goto out;
	}
	/* make exits 0 when a killed compiler's failure was ignored (a
	 * cc-option probe, a '-' recipe): the build is not what was asked. */
	char killed[256];
	if (log_failure_line(log, killed, sizeof(killed))) {
		fprintf(stderr, "schedrig load kernbench: %s\nschedrig load kernbench: make exited 0,"
			" but a compiler was killed (the OOM killer?); log %s\n", killed, log);
		goto out;
	}
	double elapsed = (double)(x.end_ns - start) / 1e9;
	printf("schedrig-kernbench 1 jobs=%lld ncpus=%ld\n", jobs, ncpus);
	printf("elapsed %lld %.3f\n", jobs, elapsed);
	printf("user %lld %.3f\n", jobs, tv_s(x.ru.ru_utime));
	printf("system %lld %.3f\n", jobs, tv_s(x.ru.ru_stime));
	printf("end status=0 clean_s=%.3f prepared=%s\n", clean_s, e.prepared_now ? "now" : "cached");
	fflush(stdout);
	rc = 0;
out:
	if (lock >= 0)
		close(lock);
	argv_free(&make);
	return rc;
}

/* ---- the driver side: prepare, argv and parser ---- */

/* That the source and config are here, changing nothing (preflight of a
 * guest). 0, or -1 with err. */
static int kb_check_source(const char *source, const char *config, char *err, size_t errsz)
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

/* The entry of p's source, config and cache_dir into e, prepared, made
 * ready for clean: targets. Only SIGCHLD is waited for: SIGINT/SIGTERM
 * stay with the rig. 0 or -1 with err. */
static int kb_prepare_params(const struct params *p, struct kb_entry *e, char *err, size_t errsz)
{
	struct argv tmp = {0};
	int r = add_targets(&tmp, params_get(p, "targets") ? params_get(p, "targets") : "vmlinux",
			    err, errsz);
	argv_free(&tmp);
	if (r)
		return -1;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	const char *config = params_get(p, "config");
	const char *cache = params_get(p, "cache_dir");
	const char *clean = params_get(p, "clean");
	r = kb_entry_init(e, params_get(p, "source"), config ? config : "tinyconfig", cache, err,
			  errsz);
	if (!r)
		r = kb_prepare_entry(e, &chld, err, errsz);
	if (!r && clean && !strcmp(clean, "targets"))
		r = kb_make_prepare(e, &chld, err, errsz);
	return r;
}

/* In the rig, before the instance starts: prepare the cache entry, so that
 * the instance itself only cleans and builds. Only SIGCHLD is waited for
 * here: SIGINT/SIGTERM stay with the rig's signalfd. */
static int kernbench_prepare(const struct params *p, char *err, size_t errsz)
{
	const char *prep_only = params_get(p, "prepare_only");
	if (prep_only && !strcmp(prep_only, "true"))
		return 0;
	struct kb_entry *e = xmalloc(sizeof(*e));
	int r = kb_prepare_params(p, e, err, errsz);
	free(e);
	return r;
}

/* On this machine (boot: local): the source and config are here. */
static int kernbench_check_here(const struct params *p, char *err, size_t errsz)
{
	const char *config = params_get(p, "config");
	return kb_check_source(params_get(p, "source"), config ? config : "tinyconfig", err, errsz);
}

/* In a qemu guest: the entry, prepared here, on the scratch disk (the
 * toolchain is this machine's /usr: needs.host_usr). */
static int kernbench_guest_needs(const struct params *p, bool prepare, struct guest_extra *g,
				 char *err, size_t errsz)
{
	const char *cache = params_get(p, "cache_dir");
	const char *config = params_get(p, "config");

	if (cache && cache[0] == '/') {
		snprintf(err, errsz, "cache_dir %s must be relative in a qemu variant: the guest works"
			 " on its scratch disk, where the rig puts the prepared tree", cache);
		return -1;
	}
	if (!prepare)
		return kernbench_check_here(p, err, errsz);
	struct kb_entry *e = xmalloc(sizeof(*e));
	int r = kb_prepare_params(p, e, err, errsz);
	if (!r) {
		char name[32];
		kb_packed_name(params_get(p, "source"), config ? config : "tinyconfig", name,
			       sizeof(name));
		/* At its path here (kbuild's tools/ record absolute paths), and
		 * found by its packed name through a link. */
		argv_add(&g->trees, e->dir);
		argv_add(&g->trees, e->dir);
		argv_addf(&g->links, "%s/%s", cache ? cache : KERNBENCH_PACKED_DIR, name);
		argv_add(&g->links, e->dir);
	}
	free(e);
	return r;
}

static int kernbench_build_argv(const struct params *p, struct argv *argv, char *err, size_t errsz)
{
	return builtin_build_argv(&kernbench_load, p, argv, err, errsz);
}

static int kernbench_parse(const struct load_output *o, const struct params *p,
                     struct sample_vec *samples, char *why, size_t whysz)
{
	if (o->stopped) {
		snprintf(why, whysz, "stopped before the build finished");
		return -1;
	}
	return builtin_parse_once_each(&kernbench_load, o, "jobs", 4096, p ? params_int(p, "jobs", 0) : 0, samples, why,
				       whysz);
}

/* Durations of the run (load_ops.durations). */
static const char *const kernbench_durations[] = {"elapsed", NULL};

const struct load_ops kernbench_load = {
	.name = "kernbench",
	.description = "kernel build: make clean, then timed make -jJOBS vmlinux in a cached, configured tree",
	.params = kernbench_params,
	.n_params = sizeof(kernbench_params) / sizeof(kernbench_params[0]),
	.metrics = kernbench_metrics,
	.n_metrics = sizeof(kernbench_metrics) / sizeof(kernbench_metrics[0]),
	.stop_signal = SIGTERM,
	.summarizes_on_stop = false,
	.failure_lines = kernbench_failure_lines,
	.build_argv = kernbench_build_argv,
	.parse = kernbench_parse,
	.prepare = kernbench_prepare,
	.check_here = kernbench_check_here,
	.needs = {.scratch = true, .host_usr = true,
		  .note = "make, gcc and the kernel source (a qemu guest gets the tree prepared here"
			  " on its scratch disk, a relative cache_dir); clean: targets suits TCG"},
	.guest_needs = kernbench_guest_needs,
	.builtin_main = kernbench_main,
	.durations = kernbench_durations,
};
