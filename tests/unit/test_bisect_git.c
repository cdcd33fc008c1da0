/* Kernels at a commit of a git repository and bisecting a git range, on a
 * real repository made here with git itself:
 *
 *   master:  one (v1) - two - three - Merge topic - four (v2)
 *                          \                /
 *   topic:                  side ----------
 *   lonely:  lonely root (an orphan branch: a second root)
 *
 * Expected hashes come from `git rev-parse` run by the test, and the
 * expected range from this history as drawn: `git rev-list --first-parent
 * v1..v2` is two, three, the merge, four (side is not on master's first
 * parents). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bisect_git.h"
#include "bisect_series.h"
#include "builtin_proc.h"
#include "config.h"
#include "kbuild.h"
#include "kbuild_git.h"
#include "spawn.h"
#include "util.h"

static char repo[] = "/tmp/schedrig-git-XXXXXX";

/* `git -C repo ARGS` (NULL-terminated) with a fixed identity and no
 * user or system git config; its stdout's first line into out (may be
 * NULL). */
static void git(char *out, size_t size, ...)
{
	struct argv a = {0};
	va_list ap;
	argv_add(&a, "git");
	argv_add(&a, "-C");
	argv_add(&a, repo);
	va_start(ap, size);
	for (const char *s; (s = va_arg(ap, const char *));)
		argv_add(&a, s);
	va_end(ap);
	const char *env[] = {"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			     "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
			     "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org", NULL};
	struct spawn s = {.argv = a.v, .env = env, .in.kind = SPAWN_NULL,
			  .out.kind = SPAWN_PIPE, .err.kind = SPAWN_PIPE};
	char err[256];
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	if (!proc_ok(s.status))
		fail_msg("git %s: %s", a.v[3], buf_str(&s.err_text));
	if (out)
		snprintf(out, size, "%.*s", (int)strcspn(buf_str(&s.out_text), "\n"),
			 buf_str(&s.out_text));
	spawn_free(&s);
	argv_free(&a);
}

static void commit_file(const char *text, const char *subject)
{
	char *path = xasprintf("%s/core.c", repo);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
	git(NULL, 0, "add", "core.c", NULL);
	git(NULL, 0, "commit", "-q", "-m", subject, NULL);
}

static int make_repo(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(repo));
	git(NULL, 0, "init", "-q", "-b", "master", NULL);
	commit_file("int slice = 1;\n", "one");
	git(NULL, 0, "tag", "v1", NULL);
	commit_file("int slice = 2;\n", "two");
	git(NULL, 0, "checkout", "-q", "-b", "topic", NULL);
	char *side = xasprintf("%s/side.c", repo);
	FILE *f = fopen(side, "w");
	assert_non_null(f);
	fputs("int side;\n", f);
	fclose(f);
	free(side);
	git(NULL, 0, "add", "side.c", NULL);
	git(NULL, 0, "commit", "-q", "-m", "side", NULL);
	git(NULL, 0, "checkout", "-q", "master", NULL);
	commit_file("int slice = 3;\n", "three");
	git(NULL, 0, "merge", "-q", "--no-ff", "-m", "Merge topic", "topic", NULL);
	commit_file("int slice = 4;\n", "sched/fair: four");
	git(NULL, 0, "tag", "v2", NULL);
	git(NULL, 0, "checkout", "-q", "--orphan", "lonely", NULL);
	commit_file("int lonely;\n", "lonely root");
	git(NULL, 0, "checkout", "-q", "master", NULL);
	return 0;
}

static int remove_repo(void **state)
{
	(void)state;
	proc_remove_tree(repo);
	return 0;
}

static void rev(const char *r, char hash[41])
{
	git(hash, 41, "rev-parse", r, NULL);
	assert_int_equal(strlen(hash), 40);
}

static void test_resolve_and_describe(void **state)
{
	(void)state;
	char want[41], got[41], err[512];
	rev("v1", want);
	assert_int_equal(kgit_resolve(repo, "v1", got, err, sizeof(err)), 0);
	assert_string_equal(got, want);
	rev("master~1", want);
	assert_int_equal(kgit_resolve(repo, "master~1", got, err, sizeof(err)), 0);
	assert_string_equal(got, want);
	/* two, side, three and the merge since v1, then the abbreviated hash. */
	char *d = kgit_describe(repo, want);
	assert_int_equal(strncmp(d, "v1-4-g", 6), 0);
	assert_true(strlen(d) >= 6 + 7 && !strncmp(d + 6, want, strlen(d) - 6));
	free(d);
	assert_int_equal(kgit_resolve(repo, "v9", got, err, sizeof(err)), -1);
	char *msg = xasprintf("'v9' is not a commit of %s (no such revision)", repo);
	assert_string_equal(err, msg);
	free(msg);
	/* A tree object is not a commit. */
	char tree[41];
	git(tree, sizeof(tree), "rev-parse", "v1^{tree}", NULL);
	assert_int_equal(kgit_resolve(repo, tree, got, err, sizeof(err)), -1);
	assert_int_equal(kgit_resolve(repo, "--all", got, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not begin with '-'"));
	assert_int_equal(kgit_resolve("/nonexistent", "v1", got, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'v1' is not a commit of /nonexistent ("));
}

static void test_first_parent_range(void **state)
{
	(void)state;
	char v1[41], v2[41], two[41], three[41], merge[41], err[512];
	rev("v1", v1);
	rev("v2", v2);
	rev("master~3", two);
	rev("master~2", three);
	rev("master~1", merge);
	struct kgit_range r;
	assert_int_equal(kgit_first_parent_range(repo, v1, v2, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.c[0].hash, two);
	assert_string_equal(r.c[0].parent, v1);
	assert_string_equal(r.c[0].subject, "two");
	assert_string_equal(r.c[1].hash, three);
	assert_string_equal(r.c[2].hash, merge);
	assert_string_equal(r.c[2].parent, three);
	assert_string_equal(r.c[2].subject, "Merge topic");
	assert_string_equal(r.c[3].hash, v2);
	assert_string_equal(r.c[3].subject, "sched/fair: four");
	kgit_range_free(&r);
	assert_int_equal(kgit_first_parent_range(repo, v2, v1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 0);
	/* A root commit in the range has no parent. */
	char lonely[41];
	rev("lonely", lonely);
	assert_int_equal(kgit_first_parent_range(repo, v1, lonely, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.c[0].hash, lonely);
	assert_string_equal(r.c[0].parent, "");
	assert_string_equal(r.c[0].subject, "lonely root");
	kgit_range_free(&r);
	assert_int_equal(kgit_first_parent_range(repo, v1, "0123", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "git rev-list --first-parent "));
}

/* A config of two builds at commits of repo; extra is added to the bad
 * build's entry, bad_variant to the bad variant. */
static char *range_config(const char *good, const char *bad, const char *extra,
			  const char *bad_variant)
{
	return xasprintf("name: g\nkernels:\n"
			 "  a: {source: %s, commit: %s, config: [tinyconfig]}\n"
			 "  b: {base: a, commit: %s%s}\n"
			 "  w: {source: %s, config: [tinyconfig]}\n"
			 "variants:\n"
			 "  - {name: good, boot: qemu, kernel: {build: a}, cpus: 2}\n"
			 "  - {name: bad, boot: qemu, kernel: {build: b}, cpus: 2%s}\n"
			 "  - {name: tree, boot: qemu, kernel: {build: w}, cpus: 2}\n"
			 "loads:\n  - {tool: fake}\n",
			 repo, good, bad, extra, repo, bad_variant);
}

static int series(const char *text, const char *good, const char *bad, struct bisect_series *s,
		  char *err, size_t errsz)
{
	return bisect_series_build("g.yaml", text, good, bad, s, err, errsz);
}

/* The step of point k: its variant's build, and that build's commit. */
static void point_build(const struct bisect_point *p, const char *name, const char *base,
			const char *commit)
{
	char err[512];
	struct ydoc *d = ydoc_parse("p", p->config, strlen(p->config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *v = ynode_get(ydoc_root(d), "variants");
	assert_int_equal(v->n, 1);
	assert_string_equal(ynode_get(v->items[0], "name")->text, name);
	assert_string_equal(ynode_get(v->items[0], "cpus")->text, "2");
	const char *build = ynode_get(ynode_get(v->items[0], "kernel"), "build")->text;
	const struct ynode *b = ynode_get(ynode_get(ydoc_root(d), "kernels"), build);
	assert_non_null(b);
	if (base)
		assert_string_equal(ynode_get(b, "base")->text, base);
	assert_string_equal(ynode_get(b, "commit")->text, commit);
	assert_null(ynode_get(ydoc_root(d), "bisect"));
	ydoc_free(d);
}

static void test_git_range_series(void **state)
{
	(void)state;
	char v1[41], v2[41], two[41], three[41], merge[41], err[1024];
	rev("v1", v1);
	rev("v2", v2);
	rev("master~3", two);
	rev("master~2", three);
	rev("master~1", merge);
	char *text = range_config("v1", "v2", "", "");
	struct bisect_series s = {0};
	assert_int_equal(series(text, "good", "bad", &s, err, sizeof(err)), 0);
	assert_string_equal(s.kind, "commits");
	assert_int_equal(s.n, 5);
	char *name = xasprintf("good-%.12s", three);
	assert_string_equal(s.p[0].name, "good");
	assert_string_equal(s.p[2].name, name);
	assert_string_equal(s.p[4].name, "bad");
	char *label = xasprintf("commit %s three", three);
	assert_string_equal(s.p[2].label, label);
	free(label);
	label = xasprintf("commit %s sched/fair: four", v2);
	assert_string_equal(s.p[4].label, label);
	free(label);
	/* The ends are pinned to their hashes; a middle point is the good
	 * variant on {base: a, commit: HASH}. */
	point_build(&s.p[0], "good", NULL, v1);
	point_build(&s.p[1], s.p[1].name, "a", two);
	point_build(&s.p[2], name, "a", three);
	point_build(&s.p[3], s.p[3].name, "a", merge);
	point_build(&s.p[4], "bad", "a", v2);
	free(name);
	bisect_series_free(&s);
	free(text);

	/* Two commits next to each other: the ends alone. */
	text = range_config("master~1", "master", "", "");
	assert_int_equal(series(text, "good", "bad", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	bisect_series_free(&s);
	free(text);
	/* The same commit twice, written two ways. */
	text = range_config("v2", "master", "", "");
	assert_int_equal(series(text, "good", "bad", &s, err, sizeof(err)), -1);
	char *want = xasprintf("g.yaml: --good good and --bad bad build the same commit %s of %s:"
			       " nothing to bisect", v2, repo);
	assert_string_equal(err, want);
	free(want);
	free(text);
}

/* --resume's config: the refs replaced by point 0's pinned hashes make the
 * same series; a point 0 whose kernels: differ in more than commit: is
 * refused. */
static void test_pinned_config(void **state)
{
	(void)state;
	char v2[41], err[1024];
	rev("v2", v2);
	char *text = range_config("v1", "v2", "", "");
	struct bisect_series s = {0}, again = {0};
	assert_int_equal(series(text, "good", "bad", &s, err, sizeof(err)), 0);
	char *pinned = bisect_git_pinned_config("g.yaml", text, s.p[0].config, err, sizeof(err));
	assert_non_null(pinned);
	char *want = xasprintf("commit: %s", v2);
	assert_non_null(strstr(pinned, want));
	assert_null(strstr(pinned, "commit: v2"));
	free(want);
	assert_int_equal(series(pinned, "good", "bad", &again, err, sizeof(err)), 0);
	assert_int_equal(again.n, s.n);
	for (size_t k = 0; k < s.n; k++)
		assert_string_equal(again.p[k].config, s.p[k].config);
	free(pinned);
	bisect_series_free(&again);

	/* Point 0 stored with a kernel's config: changed. */
	char *tampered = xstrdup(s.p[0].config), *at = strstr(tampered, "tinyconfig");
	assert_non_null(at);
	memcpy(at, "smallconfig", 4);
	assert_null(bisect_git_pinned_config("g.yaml", text, tampered, err, sizeof(err)));
	assert_string_equal(err, "g.yaml: point 0's stored kernels: differ from the config's in"
				 " more than their commit: values");
	free(tampered);
	bisect_series_free(&s);
	free(text);
}

static void expect_refused(const char *text, const char *good, const char *bad,
			   const char *want)
{
	struct bisect_series s = {0};
	char err[1024];
	assert_int_equal(series(text, good, bad, &s, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("expected '%s' in '%s'", want, err);
	assert_int_equal(s.n, 0);
}

static void test_git_range_refused(void **state)
{
	(void)state;
	char *text = range_config("v2", "v1", "", "");
	expect_refused(text, "good", "bad", "--bad bad (v1) is not after --good good (v2)");
	free(text);
	text = range_config("topic", "v2", "", "");
	expect_refused(text, "good", "bad", "is not on the first-parent line of --bad bad's");
	free(text);
	text = range_config("v1", "lonely", "", "");
	expect_refused(text, "good", "bad", "whose first parent is none): bisect between two commits"
		       " of one first-parent history");
	free(text);
	text = range_config("v1", "v9", "", "");
	expect_refused(text, "good", "bad", "g.yaml: kernels: b: commit: 'v9' is not a commit of");
	free(text);
	text = range_config("v1", "v2", ", config: [defconfig]", "");
	expect_refused(text, "good", "bad", "kernels: a and b differ in config: as well as in"
		       " commit:");
	free(text);
	text = range_config("v1", "v2", ", patches: [x.patch]", "");
	expect_refused(text, "good", "bad", "differ in patches: as well as in commit:");
	free(text);
	text = range_config("v1", "v2", "", ", memory_mb: 512");
	expect_refused(text, "good", "bad", "variants good and bad differ in more than their"
		       " kernel build: a step would change more than the commit");
	free(text);
	text = range_config("v1", "v2", ", source: /elsewhere", "");
	expect_refused(text, "good", "bad", "build commits of different sources");
	free(text);
	/* A work tree build against a commit build. */
	text = range_config("v1", "v2", "", "");
	expect_refused(text, "tree", "bad", "--bad bad builds commit: v2 of");
	expect_refused(text, "tree", "bad", "--good tree no commit: (kernels: w): a git range"
		       " needs both builds at a commit of one repository");
	free(text);
}

/* A commit that does not resolve is refused before anything runs, at its
 * position; so is a commit of a source that is not a directory. */
static void test_commit_checked(void **state)
{
	(void)state;
	char err[1024];
	char *text = range_config("v1", "nope", "", "");
	struct experiment *e = config_parse("g.yaml", text, strlen(text), err, sizeof(err));
	assert_non_null(e);
	assert_string_equal(config_kernel(e, "b")->commit.text, "nope");
	assert_int_equal(kbuild_check(e, err, sizeof(err)), -1);
	char *want = xasprintf("g.yaml:4:24: kernel 'b': commit: 'nope' is not a commit of %s"
			       " (no such revision)", repo);
	assert_string_equal(err, want);
	free(want);
	experiment_free(e);
	free(text);
	text = range_config("v1", "v2", "", "");
	e = config_parse("g.yaml", text, strlen(text), err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(kbuild_check(e, err, sizeof(err)), 0);
	experiment_free(e);
	free(text);
	const char *pkg = "name: g\nkernels:\n  a: {source: linux-source-6.12, commit: v1,"
			  " config: [tinyconfig]}\nloads:\n  - {tool: fake}\n";
	e = config_parse("g.yaml", pkg, strlen(pkg), err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(kbuild_check(e, err, sizeof(err)), -1);
	assert_string_equal(err, "g.yaml:3:42: kernel 'a': commit: a commit needs a git"
			    " repository's directory as source:, not linux-source-6.12");
	experiment_free(e);
	const char *dash = "name: g\nkernels:\n  a: {source: /x, commit: --all, config:"
			   " [tinyconfig]}\nloads:\n  - {tool: fake}\n";
	assert_null(config_parse("g.yaml", dash, strlen(dash), err, sizeof(err)));
	assert_string_equal(err, "g.yaml:3:27: commit: '--all' is not a revision (a hash, tag or"
			    " branch of the source's git repository)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_and_describe),
		cmocka_unit_test(test_first_parent_range),
		cmocka_unit_test(test_git_range_series),
		cmocka_unit_test(test_pinned_config),
		cmocka_unit_test(test_git_range_refused),
		cmocka_unit_test(test_commit_checked),
	};
	return cmocka_run_group_tests(tests, make_repo, remove_repo);
}
