#include "kbuild_tools.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild_env.h"
#include "kbuild_key.h"
#include "kbuild_run.h"
#include "spawn.h"
#include "util.h"

#define KTOOLS_MAX_OUTPUT (1024 * 1024)

/* The value of make variable name in make_args (the last "NAME=..."), or
 * NULL. */
static const char *make_var(char *const *args, size_t n, const char *name)
{
	const char *v = NULL;
	size_t len = strlen(name);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(args[i], name, len) && args[i][len] == '=')
			v = args[i] + len + 1;
	return v;
}

static bool is_ccache(const char *real)
{
	const char *base = strrchr(real, '/');
	return !strcmp(base ? base + 1 : real, "ccache");
}

/* name found in KBUILD_PATH (or as a path) and resolved, skipping what
 * resolves to ccache when skip_ccache. */
static int find_real(const char *name, bool skip_ccache, char *dst, size_t size)
{
	char found[PATH_MAX], real[PATH_MAX];
	if (strchr(name, '/') || !skip_ccache) {
		if (spawn_which(name, KBUILD_PATH, found, sizeof(found)) || !realpath(found, real))
			return -1;
		snprintf(dst, size, "%s", real);
		return 0;
	}
	for (const char *p = KBUILD_PATH;;) {
		size_t len = strcspn(p, ":");
		char *dir = xasprintf("%.*s", (int)len, p);
		int rc = spawn_which(name, dir, found, sizeof(found)) || !realpath(found, real) ||
			 is_ccache(real) ? -1 : 0;
		free(dir);
		if (!rc) {
			snprintf(dst, size, "%s", real);
			return 0;
		}
		if (!p[len])
			return -1;
		p += len + 1;
	}
}

int ktools_resolve(const char *value, char *dst, size_t size, const char **wrapper)
{
	struct argv words = {0};
	char *copy = xstrdup(value), *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		argv_add(&words, w);
	free(copy);
	*wrapper = "";
	int rc = -1;
	for (size_t i = 0; i < words.n && rc; i++) {
		char real[PATH_MAX];
		if (find_real(words.v[i], false, real, sizeof(real)))
			break;
		if (!is_ccache(real)) {
			snprintf(dst, size, "%s", real);
			rc = 0;
		} else {
			*wrapper = "ccache";
			/* A masquerading link (/usr/lib/ccache/gcc): the next gcc. */
			if (i + 1 == words.n && strcmp(words.v[i], "ccache") &&
			    !strchr(words.v[i], '/'))
				rc = find_real(words.v[i], true, dst, size);
		}
	}
	argv_free(&words);
	return rc;
}

/* The output (stdout and stderr) of path with one option, into out. */
static void output_of(const char *path, const char *option, const char *log, struct buf *out)
{
	char *argv[] = {(char *)path, (char *)option, NULL};
	struct kb_cmd c = {.argv = argv, .log = log};
	char why[256];
	kb_run(&c, why, sizeof(why));
	buf_read_file(out, log, KTOOLS_MAX_OUTPUT);
	unlink(log);
}

/* The line of a version output people read: a compiler's -v line "gcc
 * version ..." or "... clang version ...", else the first line; trailing
 * blanks cut. */
static char *version_line(const char *text, bool compiler)
{
	const char *pick = text;
	for (const char *p = text; compiler && p && *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p);
		bool hit = !strncmp(line, "gcc version ", 12) || strstr(line, "clang version ");
		free(line);
		if (hit) {
			pick = p;
			break;
		}
		p = p[len] ? p + len + 1 : NULL;
	}
	size_t len = strcspn(pick, "\n");
	while (len > 0 && (pick[len - 1] == ' ' || pick[len - 1] == '\t' || pick[len - 1] == '\r'))
		len--;
	return xasprintf("%.*s", (int)len, pick);
}

static void probe_one(struct ktools *out, const char *role, const char *value, const char *log)
{
	char real[PATH_MAX], sha[65];
	const char *wrapper = "";
	bool compiler = !strcmp(role, "cc") || !strcmp(role, "hostcc");
	out->t = xrealloc(out->t, (out->n + 1) * sizeof(*out->t));
	struct ktool *t = &out->t[out->n++];
	memset(t, 0, sizeof(*t));
	t->role = xstrdup(role);
	if (ktools_resolve(value, real, sizeof(real), &wrapper)) {
		t->path = xstrdup("");
		t->version = xstrdup("");
		t->wrapper = xstrdup(wrapper);
		kb_sha256_hex(value, strlen(value), t->sha256);
		return;
	}
	struct buf text = {0}, cc1 = {0};
	output_of(real, compiler ? "-v" : "--version", log, &text);
	t->path = xstrdup(real);
	t->version = version_line(buf_str(&text), compiler);
	t->wrapper = xstrdup(wrapper);
	if (kb_sha256_file(real, sha))
		snprintf(sha, sizeof(sha), "unreadable");
	struct buf all = {0};
	buf_printf(&all, "%s\n%s\n", sha, buf_str(&text));
	if (compiler) {
		output_of(real, "-print-prog-name=cc1", log, &cc1);
		char *path = xasprintf("%.*s", (int)strcspn(buf_str(&cc1), "\n"), buf_str(&cc1));
		if (path[0] == '/' && !kb_sha256_file(path, sha))
			buf_printf(&all, "cc1 %s\n", sha);
		free(path);
	}
	kb_sha256_hex(buf_str(&all), all.len, t->sha256);
	buf_free(&all);
	buf_free(&cc1);
	buf_free(&text);
}

/* Probes made by this process, by their make variables: a command that
 * resolves several kernels (a base and its patched kernel) asks once. */
static struct {
	char **args;
	struct ktools *tools;
	size_t n;
} memo;

static void copy_tools(const struct ktools *from, struct ktools *to)
{
	to->n = from->n;
	to->t = xcalloc(from->n ? from->n : 1, sizeof(*to->t));
	for (size_t i = 0; i < from->n; i++) {
		const struct ktool *f = &from->t[i];
		to->t[i] = (struct ktool){xstrdup(f->role), xstrdup(f->path), xstrdup(f->version),
					  xstrdup(f->wrapper), ""};
		memcpy(to->t[i].sha256, f->sha256, sizeof(f->sha256));
	}
}

static void probe_all(char *const *args, size_t n, const char *log, struct ktools *out);

void ktools_probe(char *const *args, size_t n, const char *log, struct ktools *out)
{
	struct buf key = {0};
	for (size_t i = 0; i < n; i++)
		buf_printf(&key, "%s\n", args[i]);
	for (size_t i = 0; i < memo.n; i++)
		if (!strcmp(memo.args[i], buf_str(&key))) {
			copy_tools(&memo.tools[i], out);
			buf_free(&key);
			return;
		}
	probe_all(args, n, log, out);
	memo.args = xrealloc(memo.args, (memo.n + 1) * sizeof(*memo.args));
	memo.tools = xrealloc(memo.tools, (memo.n + 1) * sizeof(*memo.tools));
	memo.args[memo.n] = xstrdup(buf_str(&key));
	copy_tools(out, &memo.tools[memo.n]);
	memo.n++;
	buf_free(&key);
}

static void probe_all(char *const *args, size_t n, const char *log, struct ktools *out)
{
	const char *llvm = make_var(args, n, "LLVM");
	const char *cross = make_var(args, n, "CROSS_COMPILE");
	const char *cc = make_var(args, n, "CC"), *hostcc = make_var(args, n, "HOSTCC");
	const char *ld = make_var(args, n, "LD"), *as = make_var(args, n, "AS");
	const char *pahole = make_var(args, n, "PAHOLE");
	char *prefix = xstrdup(""), *suffix = xstrdup("");
	if (llvm && *llvm && llvm[strlen(llvm) - 1] == '/') {
		free(prefix);
		prefix = xstrdup(llvm);
	} else if (llvm && llvm[0] == '-') {
		free(suffix);
		suffix = xstrdup(llvm);
	}
	char *d_cc = llvm ? xasprintf("%sclang%s", prefix, suffix)
			  : xasprintf("%sgcc", cross ? cross : "");
	char *d_hostcc = llvm ? xasprintf("%sclang%s", prefix, suffix) : xstrdup("gcc");
	char *d_ld = llvm ? xasprintf("%sld.lld%s", prefix, suffix)
			  : xasprintf("%sld", cross ? cross : "");
	char *d_as = llvm ? xasprintf("%sllvm-as%s", prefix, suffix)
			  : xasprintf("%sas", cross ? cross : "");
	memset(out, 0, sizeof(*out));
	probe_one(out, "cc", cc ? cc : d_cc, log);
	probe_one(out, "hostcc", hostcc ? hostcc : d_hostcc, log);
	probe_one(out, "as", as ? as : d_as, log);
	probe_one(out, "ld", ld ? ld : d_ld, log);
	probe_one(out, "pahole", pahole ? pahole : "pahole", log);
	probe_one(out, "make", "make", log);
	free(d_cc);
	free(d_hostcc);
	free(d_ld);
	free(d_as);
	free(prefix);
	free(suffix);
}

void ktools_free(struct ktools *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->t[i].role);
		free(t->t[i].path);
		free(t->t[i].version);
		free(t->t[i].wrapper);
	}
	free(t->t);
	memset(t, 0, sizeof(*t));
}
