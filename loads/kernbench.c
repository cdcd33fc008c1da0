/* kernbench: a real kernel build, timed like mmtests' kernbench
 * (shellpack kernbench: make clean, then make -jN vmlinux, per iteration),
 * run as `schedrig load kernbench --jobs N --config tinyconfig ...`.
 *
 * Source and cache entry: kernbench_tree.h (prepared once per source and
 * config, in the rig by the driver's prepare hook or by the built-in when
 * run by hand).
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
 * make's standard output (kbuild's "  CC  FILE" lines, one per compile job
 * as it starts) goes to kernbench's stderr as it comes, where the rig
 * counts the jobs of the measured window (load_ops.progress:
 * compile_jobs_per_s); make's errors go to build.log.
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
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "builtin_proc.h"
#include "kernbench_tree.h"
#include "load.h"
#include "scan.h"

#define KERNBENCH_MAX_TARGETS 16

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
	struct spawn x;

	kb_entry_path(e, "made-prepare", mark, sizeof(mark));
	unlink(mark);
	spec->argv = clean_argv;
	if (proc_start(&x, spec, err, sizeof(err))) {
		fprintf(stderr, "schedrig load kernbench: %s\n", err);
		return -1;
	}
	int sig = proc_wait(&x, sigs, UINT64_MAX);
	if (sig > 0) {
		proc_stop(&x, SIGTERM, 10, sigs);
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

/* Lock the entry's build.lock at once or not at all (a second concurrent
 * kernbench on the entry fails). The descriptor, or -1 after saying why on
 * stderr. */
static int kb_build_lock(const struct kb_entry *e)
{
	char path[PATH_MAX + 16], why[PATH_MAX + 160];
	kb_entry_path(e, "build.lock", path, sizeof(path));
	int lock = lock_file_open(path, why, sizeof(why));
	if (lock < 0) {
		fprintf(stderr, "schedrig load kernbench: %s\n", why);
		return -1;
	}
	if (flock(lock, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			fprintf(stderr, "schedrig load kernbench: %s is being built by another kernbench; give concurrent kernbench loads their own cache_dir\n",
				e->tree);
		else
			fprintf(stderr, "schedrig load kernbench: %s: %s\n", path, strerror(errno));
		close(lock);
		return -1;
	}
	return lock;
}

/* The build: make (spec, argv make) timed from the fork to its reaping,
 * into x with the time in *elapsed_s. 0, or -1 after saying why on stderr
 * (make failed, was stopped, or exited 0 over a killed compiler). */
static int kb_timed_make(struct proc_spec *spec, const struct argv *make, const sigset_t *sigs,
			 struct spawn *x, double *elapsed_s)
{
	char err[PATH_MAX + 512];
	spec->argv = make->v;
	uint64_t start = builtin_now_ns();
	if (proc_start(x, spec, err, sizeof(err))) {
		fprintf(stderr, "schedrig load kernbench: %s\n", err);
		return -1;
	}
	int sig = proc_wait(x, sigs, UINT64_MAX);
	if (sig > 0) {
		proc_stop(x, SIGTERM, 10, sigs);
		fprintf(stderr, "schedrig load kernbench: stopped by %s before the build finished\n",
			strsignal(sig));
		return -1;
	}
	if (!proc_ok(x->status)) {
		char *what = argv_render(make);
		report_make_failure(what, x->status, spec->out_path);
		free(what);
		return -1;
	}
	/* make exits 0 when a killed compiler's failure was ignored (a
	 * cc-option probe, a '-' recipe): the build is not what was asked. */
	char killed[256];
	if (log_failure_line(spec->out_path, killed, sizeof(killed))) {
		fprintf(stderr, "schedrig load kernbench: %s\nschedrig load kernbench: make exited 0,"
			" but a compiler was killed (the OOM killer?); log %s\n", killed,
			spec->out_path);
		return -1;
	}
	*elapsed_s = (double)((uint64_t)x->end_ns - start) / 1e9;
	return 0;
}

/* One repetition in e's tree under its build.lock: make clean (or the
 * targets' removal; not timed, but it must work), then the timed make;
 * prints the samples. Returns the exit status. */
static int kb_build(const struct kb_entry *e, const struct argv *make, bool clean_targets,
		    long long jobs, long ncpus, const sigset_t *sigs)
{
	char err[PATH_MAX + 512], log[PATH_MAX + 16];
	int lock = kb_build_lock(e);
	if (lock < 0)
		return 1;
	kb_entry_path(e, "build.log", log, sizeof(log));
	struct proc_spec spec = {.dir = e->tree, .out_path = log, .pdeath_sig = SIGTERM,
				 .unset_env = kb_make_env, .path_env = KERNBENCH_PATH};
	struct spawn x;
	double elapsed;
	int rc = 1;
	uint64_t t0 = builtin_now_ns();
	if (clean_targets ? kb_remove_targets(e, make, err, sizeof(err)) :
			    kb_make_clean(e, &spec, sigs, log)) {
		if (clean_targets)
			fprintf(stderr, "schedrig load kernbench: %s\n", err);
		goto out;
	}
	double clean_s = (double)(builtin_now_ns() - t0) / 1e9;
	spec.append = !clean_targets;
	/* kbuild's "  CC  FILE" lines go to the rig as they come (progress);
	 * make's errors stay in the log. */
	spec.out_to_stderr = true;
	spec.err_path = log;
	if (kb_timed_make(&spec, make, sigs, &x, &elapsed))
		goto out;
	printf("schedrig-kernbench 1 jobs=%lld ncpus=%ld\n", jobs, ncpus);
	printf("elapsed %lld %.3f\n", jobs, elapsed);
	printf("user %lld %.3f\n", jobs, tv_s(x.ru.ru_utime));
	printf("system %lld %.3f\n", jobs, tv_s(x.ru.ru_stime));
	printf("end status=0 clean_s=%.3f prepared=%s\n", clean_s, e->prepared_now ? "now" : "cached");
	fflush(stdout);
	rc = 0;
out:
	close(lock);
	return rc;
}

static int kernbench_main(int argc, char **argv)
{
	struct builtin_args a;
	if (builtin_begin(&a, &kernbench_load, argc, argv))
		return a.exit_status;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	long long jobs = builtin_arg_ll(&a, "jobs");
	if (!jobs)
		jobs = ncpus;
	const char *targets = builtin_arg(&a, "targets");

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
	bool clean_targets = builtin_arg_is(&a, "clean", "targets");
	int rc = 0;
	if (kb_entry_init(&e, builtin_arg(&a, "source"),
			  builtin_arg(&a, "config"),
			  builtin_arg(&a, "cache_dir"), err, sizeof(err)) ||
	    kb_prepare_entry(&e, &a.sigs, err, sizeof(err)) ||
	    (clean_targets && kb_make_prepare(&e, &a.sigs, err, sizeof(err)))) {
		fprintf(stderr, "schedrig load kernbench: %s\n", err);
		rc = 1;
	} else if (builtin_arg_is(&a, "prepare_only", "true")) {
		/* Only here: otherwise the first stderr line is a failure's reason. */
		fprintf(stderr, "schedrig load kernbench: tree %s (%s)\n", e.tree,
			e.prepared_now ? "prepared now" : "cached");
	} else {
		rc = kb_build(&e, &make, clean_targets, jobs, ncpus, &a.sigs);
	}
	argv_free(&make);
	return rc;
}

/* ---- the driver side: prepare and parser ---- */

/* The compile jobs in text: kbuild's quiet command lines "  CC      FILE"
 * (and "  CC [M]  FILE"), which make prints as each job starts
 * (scripts/Kbuild.include, quiet_cmd_cc_o_c), on the load's stderr. */
static uint64_t kernbench_progress(const char *text, size_t len)
{
	uint64_t n = 0;
	for (size_t i = 0; i + 5 <= len; i++) {
		if ((i == 0 || text[i - 1] == '\n') && !memcmp(text + i, "  CC ", 5))
			n++;
		const char *nl = memchr(text + i, '\n', len - i);
		if (!nl)
			break;
		i = (size_t)(nl - text);
	}
	return n;
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

static int kernbench_parse(const struct load_output *o, const struct params *p,
			   struct sample_vec *samples, char *why, size_t whysz)
{
	return builtin_parse_once_each(&kernbench_load, o, p, "jobs", 4096, samples, why, whysz);
}

/* Durations of the run (load_ops.durations). */
static const char *const kernbench_durations[] = {"elapsed", NULL};

/* The kernbench driver (see the top of this file). */
const struct load_ops kernbench_load = {
	.name = "kernbench",
	.description = "kernel build: make clean, then timed make -jJOBS vmlinux in a cached, configured tree",
	.params = kernbench_params,
	.n_params = sizeof(kernbench_params) / sizeof(kernbench_params[0]),
	.metrics = kernbench_metrics,
	.n_metrics = sizeof(kernbench_metrics) / sizeof(kernbench_metrics[0]),
	.stop_signal = SIGTERM,
	.failure_lines = kernbench_failure_lines,
	.parse = kernbench_parse,
	.prepare = kernbench_prepare,
	.check_here = kernbench_check_here,
	.needs = {.scratch = true, .host_usr = true,
		  .note = "make, gcc and the kernel source (a qemu guest gets the tree prepared here"
			  " on its scratch disk, a relative cache_dir); clean: targets suits TCG"},
	.guest_needs = kernbench_guest_needs,
	.builtin_main = kernbench_main,
	.durations = kernbench_durations,
	.progress = kernbench_progress,
	.progress_metric = "compile_jobs_per_s",
	.progress_unit = "jobs/s",
};
