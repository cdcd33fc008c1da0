#include "kbuild_git.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin_proc.h"
#include "spawn.h"
#include "util.h"

/* Run `git -C DIR ARGS...` (args NULL-terminated); its stdout into out,
 * the first line of its stderr into why. 0 on exit status 0, else -1. */
static int git_output(const char *dir, const char *const *args, struct buf *out, char *why,
		      size_t whysz)
{
	struct argv a = {0};
	argv_add(&a, "git");
	argv_add(&a, "-C");
	argv_add(&a, dir);
	for (; *args; args++)
		argv_add(&a, *args);
	const char *env[] = {"LC_ALL=C", "GIT_TERMINAL_PROMPT=0", NULL};
	struct spawn s = {.argv = a.v, .env = env, .in.kind = SPAWN_NULL,
			  .out.kind = SPAWN_PIPE, .err.kind = SPAWN_PIPE};
	char err[256];
	int rc = spawn_run(&s, err, sizeof(err));
	if (rc) {
		snprintf(why, whysz, "%s", err);
	} else if (!proc_ok(s.status)) {
		const char *e = buf_str(&s.err_text);
		snprintf(why, whysz, "%.*s", (int)strcspn(e, "\n"), e);
		rc = -1;
	} else {
		buf_append(out, s.out_text.data ? s.out_text.data : "", s.out_text.len);
	}
	spawn_free(&s);
	argv_free(&a);
	return rc;
}

static bool is_hash(const char *s, size_t len)
{
	if (len != 40)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

int kgit_resolve(const char *dir, const char *commit, char hash[41], char *err, size_t errsz)
{
	char why[512] = "";
	struct buf out = {0};
	int rc = -1;
	if (commit[0] == '-' || !commit[0]) {
		snprintf(why, sizeof(why), "a revision does not begin with '-'");
	} else {
		char *rev = xasprintf("%s^{commit}", commit);
		const char *args[] = {"rev-parse", "--verify", "--quiet", rev, NULL};
		if (!git_output(dir, args, &out, why, sizeof(why)) &&
		    is_hash(buf_str(&out), strcspn(buf_str(&out), "\n"))) {
			memcpy(hash, out.data, 40);
			hash[40] = '\0';
			rc = 0;
		}
		free(rev);
	}
	if (rc)
		snprintf(err, errsz, "'%s' is not a commit of %s (%s)", commit, dir,
			 why[0] ? why : "no such revision");
	buf_free(&out);
	return rc;
}

char *kgit_describe(const char *dir, const char *hash)
{
	const char *args[] = {"describe", "--tags", "--always", hash, NULL};
	struct buf out = {0};
	char why[256];
	char *d = xstrdup(git_output(dir, args, &out, why, sizeof(why)) ? "" : buf_str(&out));
	d[strcspn(d, "\n")] = '\0';
	buf_free(&out);
	return d;
}

char *kgit_subject(const char *dir, const char *hash)
{
	const char *args[] = {"log", "-1", "--format=%s", hash, "--", NULL};
	struct buf out = {0};
	char why[256];
	char *s = xstrdup(git_output(dir, args, &out, why, sizeof(why)) ? "" : buf_str(&out));
	s[strcspn(s, "\n")] = '\0';
	buf_free(&out);
	return s;
}

void kgit_range_free(struct kgit_range *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->c[i].subject);
	free(r->c);
	*r = (struct kgit_range){0};
}

/* One line "HASH PARENTS\tSUBJECT" (parents space-separated; "HASH
 * \tSUBJECT" for a root commit) into r. 0, or -1 when it is not that. */
static int add_line(struct kgit_range *r, const char *line, size_t len)
{
	const char *tab = memchr(line, '\t', len);
	if (!tab || !is_hash(line, strcspn(line, " \t")))
		return -1;
	struct kgit_commit c = {0};
	memcpy(c.hash, line, 40);
	const char *p = line + 40;
	size_t n = *p == ' ' ? strcspn(p + 1, " \t") : 0;
	if (n && !is_hash(p + 1, n))
		return -1;
	if (n)
		memcpy(c.parent, p + 1, 40);
	c.subject = xasprintf("%.*s", (int)(line + len - tab - 1), tab + 1);
	r->c = xrealloc(r->c, (r->n + 1) * sizeof(*r->c));
	r->c[r->n++] = c;
	return 0;
}

int kgit_first_parent_range(const char *dir, const char *good, const char *bad,
			    struct kgit_range *out, char *err, size_t errsz)
{
	char *range = xasprintf("%s..%s", good, bad), why[512] = "";
	/* --no-commit-header: rev-list prints only the format's line. */
	const char *args[] = {"rev-list", "--first-parent", "--reverse", "--no-commit-header",
			      "--format=%H %P%x09%s", range, NULL};
	struct buf text = {0};
	int rc = git_output(dir, args, &text, why, sizeof(why));
	memset(out, 0, sizeof(*out));
	if (rc)
		snprintf(err, errsz, "git rev-list --first-parent %s in %s failed (%s)", range, dir,
			 why);
	for (const char *p = buf_str(&text); !rc && *p;) {
		size_t len = strcspn(p, "\n");
		if (add_line(out, p, len))
			rc = err_printf(err, errsz, "git rev-list --first-parent %s in %s printed"
					" '%.*s', not a commit", range, dir, (int)len, p);
		p += len + (p[len] == '\n');
	}
	if (rc)
		kgit_range_free(out);
	buf_free(&text);
	free(range);
	return rc;
}

/* The merge base of hash[0..n) into base. 0, or -1 with err. */
static int merge_base(const char *dir, char (*const hash)[41], size_t n, char base[41], char *err,
		      size_t errsz)
{
	struct argv a = {0};
	struct buf out = {0};
	char why[512] = "";
	argv_add(&a, "merge-base");
	argv_add(&a, "--octopus");
	for (size_t i = 0; i < n; i++)
		argv_add(&a, hash[i]);
	int rc = git_output(dir, (const char *const *)a.v, &out, why, sizeof(why));
	if (rc == 0 && !is_hash(buf_str(&out), strcspn(buf_str(&out), "\n")))
		rc = -1;
	if (rc)
		snprintf(err, errsz, "git merge-base --octopus of %zu commit(s) in %s failed (%s)", n,
			 dir, why[0] ? why : "no common ancestor");
	else
		snprintf(base, 41, "%.40s", buf_str(&out));
	buf_free(&out);
	argv_free(&a);
	return rc;
}

int kgit_topo_order(const char *dir, char (*const hash)[41], size_t n, size_t *pos, char *err,
		    size_t errsz)
{
	char base[41], why[512] = "";
	if (n == 0)
		return 0;
	if (merge_base(dir, hash, n, base, err, errsz))
		return -1;
	struct argv a = {0};
	argv_add(&a, "rev-list");
	argv_add(&a, "--topo-order");
	argv_add(&a, "--reverse");
	argv_addf(&a, "^%s", base);
	for (size_t i = 0; i < n; i++)
		argv_add(&a, hash[i]);
	struct buf out = {0};
	int rc = git_output(dir, (const char *const *)a.v, &out, why, sizeof(why));
	if (rc)
		snprintf(err, errsz, "git rev-list --topo-order in %s failed (%s)", dir, why);
	for (size_t i = 0; i < n && !rc; i++) {
		pos[i] = 0;
		if (!strcmp(hash[i], base))
			continue;
		size_t place = 1;
		const char *p = buf_str(&out);
		while (*p && strncmp(p, hash[i], 40)) {
			p += strcspn(p, "\n");
			p += *p == '\n';
			place++;
		}
		if (!*p)
			rc = err_printf(err, errsz, "commit %.12s is not in git rev-list --topo-order of"
					" %s", hash[i], dir);
		pos[i] = place;
	}
	buf_free(&out);
	argv_free(&a);
	return rc;
}
