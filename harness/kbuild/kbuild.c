/* Building a resolved kernel (kbuild_spec.c) into the cache: temporary
 * directory, source copy, series, config, make, provenance, rename. */
#include "kbuild.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "kbuild_key.h"
#include "kbuild_run.h"
#include "spawn.h"

#define KB_LOG_TAIL_LINES 15

/* The state of one build, for the progress ticks. */
struct build_ctx {
	const struct kbuild *b;
	const char *step;
	const char *log;
	kbuild_progress_fn progress;
	void *ctx;
};

static void tick(void *p)
{
	struct build_ctx *bc = p;
	if (bc->progress)
		bc->progress(bc->ctx, bc->b->name, bc->step, bc->log);
}

/* Remove CACHE/builds/.tmp-KEY-PID directories whose PID is gone (a rig
 * killed during a build). */
static void remove_stale(const char *builds)
{
	DIR *d = opendir(builds);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		const char *dash = strrchr(de->d_name, '-');
		long long pid;
		if (strncmp(de->d_name, ".tmp-", 5) || !dash || !parse_ll(dash + 1, &pid) ||
		    pid <= 0 || (kill((pid_t)pid, 0) && errno == EPERM) ||
		    !kill((pid_t)pid, 0))
			continue;
		char *path = xasprintf("%s/%s", builds, de->d_name);
		proc_remove_tree(path);
		free(path);
	}
	if (d)
		closedir(d);
}

static int copy_file(const char *from, const char *to, char *err, size_t errsz)
{
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	char chunk[65536];
	size_t n;
	bool ok = in && out;
	while (ok && (n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		ok = fwrite(chunk, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ok = false;
	if (!ok)
		snprintf(err, errsz, "copy %s to %s: %s", from, to, strerror(errno));
	return ok ? 0 : -1;
}

/* make's failure: its status and the log's last lines. */
static void make_failed(const char *why, const char *log, char *err, size_t errsz)
{
	char tail[4096] = "";
	proc_file_tail(log, KB_LOG_TAIL_LINES, "  ", tail, sizeof(tail));
	snprintf(err, errsz, "make bzImage failed (%s); the log's last lines (%s):\n%s", why, log,
		 tail);
}

static int run_make(struct build_ctx *bc, const char *tree, const char *tmp, char *err,
		    size_t errsz)
{
	const struct kbuild *b = bc->b;
	struct argv a = {0};
	char ccache[4096];
	bool cc_given = false;
	for (size_t i = 0; i < b->make_args.n; i++)
		cc_given |= !strncmp(b->make_args.v[i], "CC=", 3) ||
			    !strcmp(b->make_args.v[i], "LLVM=1");
	bool use_ccache = !cc_given && spawn_which("ccache", NULL, ccache, sizeof(ccache)) == 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	argv_add(&a, "make");
	argv_addf(&a, "-j%ld", cpus > 0 ? cpus : 1);
	for (size_t i = 0; i < b->make_args.n; i++)
		argv_add(&a, b->make_args.v[i]);
	if (use_ccache) {
		argv_add(&a, "CC=ccache gcc");
		argv_add(&a, "HOSTCC=ccache gcc");
	}
	argv_add(&a, "bzImage");
	char *basedir = xasprintf("CCACHE_BASEDIR=%s", tmp);
	const char *env[] = {"KBUILD_BUILD_TIMESTAMP=2025-01-01 00:00:00 UTC",
			     "KBUILD_BUILD_USER=schedrig", "KBUILD_BUILD_HOST=schedrig",
			     "KBUILD_BUILD_VERSION=1", "CCACHE_NOHASHDIR=1",
			     "CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime", basedir,
			     NULL};
	struct kb_cmd c = {.argv = a.v, .dir = tree, .log = bc->log, .append = true,
			   .set_env = env, .tick = tick, .ctx = bc};
	char why[512];
	FILE *f = fopen(bc->log, "a");
	if (f) {
		char *line = argv_render(&a);
		fprintf(f, "schedrig: %s\n", line);
		free(line);
		fclose(f);
	}
	int rc = kb_run(&c, why, sizeof(why));
	if (rc == KB_INTERRUPTED)
		snprintf(err, errsz, "%s", why);
	else if (rc)
		make_failed(why, bc->log, err, errsz);
	free(basedir);
	argv_free(&a);
	return rc == KB_INTERRUPTED ? rc : rc ? -1 : 0;
}

/* The options whose lines differ between two .config texts, as "-LINE"
 * and "+LINE", at most 40, into out. */
static void config_diff(const char *base, const char *mine, struct buf *out)
{
	size_t n = 0;
	const char *texts[2] = {base, mine}, *sign = "-+";
	for (int side = 0; side < 2; side++) {
		for (const char *p = texts[side]; p && *p;) {
			const char *eol = strchr(p, '\n');
			size_t len = eol ? (size_t)(eol - p) : strlen(p);
			char *line = xasprintf("%.*s", (int)len, p), name[256], value[8];
			const char *other = texts[1 - side];
			const char *hit = strstr(other, line);
			bool same = hit && (hit == other || hit[-1] == '\n') &&
				    (hit[len] == '\n' || !hit[len]);
			if (!same && kconfig_line(line, name, sizeof(name), value, sizeof(value)) &&
			    n++ < 40)
				buf_printf(out, " %c%s", sign[side], line);
			free(line);
			p = eol ? eol + 1 : NULL;
		}
	}
	if (n > 40)
		buf_printf(out, " (and %zu more)", n - 40);
}

/* The text of a file of a cache entry ("" when unreadable). */
static char *slurp(const char *path)
{
	struct buf b = {0};
	buf_read_file(&b, path, 16 * 1024 * 1024);
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

static void provenance(const struct kbuild *b, const char *cache, const char *entry,
		       struct buf *out)
{
	char sha[65] = "";
	char *cfg_path = xasprintf("%s/config", entry), *img = xasprintf("%s/bzImage", entry);
	buf_printf(out, "kernel %s\nkey %s\nsource %s %s", b->name, b->key, b->src.written,
		   b->src.identity);
	if (b->src.describe)
		buf_printf(out, " (%s)", b->src.describe[0] ? b->src.describe : "no describe");
	buf_puts(out, "\n");
	if (b->base_name[0])
		buf_printf(out, "base %s\n", b->base_name);
	for (size_t i = 0; i < b->series.n; i++) {
		const struct kpatch *p = &b->series.p[i];
		buf_printf(out, "patch %s %s", p->sha256, p->file);
		if (p->message)
			buf_printf(out, "#%d", p->message);
		buf_printf(out, " %s\n", p->subject);
	}
	buf_printf(out, "config %s", b->base_from);
	for (size_t i = 0; i < b->n_frags; i++)
		buf_printf(out, " %s", b->frags[i].from);
	kb_sha256_file(cfg_path, sha);
	buf_printf(out, "\nconfig_sha256 %s\n", sha);
	/* The difference from the base kernel's .config, when it is built. */
	char *mine = slurp(cfg_path);
	char *dir = xasprintf("%s/builds", cache);
	DIR *d = b->base_name[0] ? opendir(dir) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char *pv = xasprintf("%s/%s/provenance.txt", dir, de->d_name);
		char *text = de->d_name[0] != '.' ? slurp(pv) : xstrdup("");
		char *want = xasprintf("kernel %s\n", b->base_name);
		if (!strncmp(text, want, strlen(want))) {
			char *bc = xasprintf("%s/%s/config", dir, de->d_name);
			char *base = slurp(bc);
			struct buf diff = {0};
			config_diff(base, mine, &diff);
			buf_printf(out, "config_diff %s\n", diff.len ? buf_str(&diff) + 1 : "none");
			buf_free(&diff);
			free(base);
			free(bc);
			closedir(d);
			d = NULL;
		}
		free(want);
		free(text);
		free(pv);
	}
	if (d)
		closedir(d);
	free(dir);
	free(mine);
	char *args = argv_render(&b->make_args);
	buf_printf(out, "make_args %s\ncompiler %s\nbuild_s %.1f\n", args, b->compiler,
		   b->build_s);
	free(args);
	kb_sha256_file(img, sha);
	buf_printf(out, "bzimage_sha256 %s\n", sha);
	free(cfg_path);
	free(img);
}

void kbuild_describe(struct kbuild *b, const char *cache, const char *entry)
{
	struct buf pv = {0};
	provenance(b, cache, entry, &pv);
	free(b->provenance);
	b->provenance = xstrdup(buf_str(&pv));
	buf_free(&pv);
}

/* Steps in tmp/: tree/ copied and patched, configured, built; entry/
 * filled. */
static int build_steps(struct build_ctx *bc, const char *cache, const char *tmp, char *err,
		       size_t errsz)
{
	struct kbuild *b = (struct kbuild *)bc->b;
	char *tree = xasprintf("%s/tree", tmp), *work = xasprintf("%s/work", tmp);
	char *entry = xasprintf("%s/entry", tmp);
	char *from, *to;
	int64_t start = mono_ns();
	int rc;
	if ((rc = mkdir_p(tree, err, errsz) || mkdir_p(work, err, errsz) ||
		  mkdir_p(entry, err, errsz) ? -1 : 0))
		goto out;
	bc->step = "copying the source";
	tick(bc);
	if ((rc = ksource_copy(&b->src, cache, tree, bc->log, err, errsz)))
		goto out;
	bc->step = "applying patches";
	tick(bc);
	if ((rc = kseries_apply(&b->series, tree, work, err, errsz)))
		goto out;
	bc->step = "config";
	tick(bc);
	if ((rc = kconfig_make(tree, b->base_config, b->base_text, b->frags, b->n_frags,
			       b->make_args.v, b->make_args.n, bc->log, err, errsz)))
		goto out;
	bc->step = "make";
	tick(bc);
	if ((rc = run_make(bc, tree, tmp, err, errsz)))
		goto out;
	b->build_s = (double)(mono_ns() - start) / 1e9;
	from = xasprintf("%s/arch/x86/boot/bzImage", tree);
	to = xasprintf("%s/bzImage", entry);
	rc = copy_file(from, to, err, errsz);
	free(from);
	free(to);
	from = xasprintf("%s/.config", tree);
	to = xasprintf("%s/config", entry);
	rc = rc ? rc : copy_file(from, to, err, errsz);
	free(from);
	free(to);
	if (rc)
		goto out;
	kbuild_describe(b, cache, entry);
	to = xasprintf("%s/provenance.txt", entry);
	rc = file_write(to, b->provenance, strlen(b->provenance), err, errsz);
	free(to);
	to = xasprintf("%s/key.txt", entry);
	rc = rc ? rc : file_write(to, b->key_text, strlen(b->key_text), err, errsz);
	free(to);
	to = xasprintf("%s/build.log", entry);
	rc = rc ? rc : copy_file(bc->log, to, err, errsz);
	free(to);
out:
	free(tree);
	free(work);
	free(entry);
	return rc;
}

int kbuild_build(struct kbuild *b, const char *cache, const char *log,
		 kbuild_progress_fn progress, void *ctx, char *err, size_t errsz)
{
	if (b->cached)
		return 0;
	char *builds = xasprintf("%s/builds", cache);
	char *tmp = xasprintf("%s/.tmp-%.16s-%d", builds, b->key, (int)getpid());
	struct build_ctx bc = {.b = b, .step = "", .log = log, .progress = progress, .ctx = ctx};
	int rc = mkdir_p(builds, err, errsz);
	if (!rc) {
		remove_stale(builds);
		FILE *f = fopen(log, "w");
		if (f) {
			fprintf(f, "schedrig: building kernel %s, key %s\n%s", b->name, b->key,
				b->key_text);
			fclose(f);
		}
		rc = build_steps(&bc, cache, tmp, err, errsz);
	}
	if (!rc) {
		char *entry = xasprintf("%s/entry", tmp);
		if (rename(entry, b->entry) && errno != ENOTEMPTY && errno != EEXIST) {
			snprintf(err, errsz, "rename %s to %s: %s", entry, b->entry, strerror(errno));
			rc = -1;
		}
		free(entry);
	}
	/* The tree is gone whatever happened; SIGINT meanwhile waits. */
	proc_remove_tree(tmp);
	free(tmp);
	free(builds);
	return rc;
}
