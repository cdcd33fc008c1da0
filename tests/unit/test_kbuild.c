/* Kernels built from source: the build key, the config merge and its
 * missing-option error, the patch series (order, mbox splitting, applying
 * and the message of a patch that does not apply), kernels: in configs.
 * Uses the real series in configs/patches/ and the real patch(1); no
 * kernel is built here (make check-slow does that). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "config.h"
#include "kbuild.h"
#include "kbuild_config.h"
#include "kbuild_env.h"
#include "kbuild_inputs.h"
#include "kbuild_key.h"
#include "kbuild_run.h"
#include "kbuild_tools.h"
#include "kbuild_tree.h"
#include "spawn.h"
#include "kbuild_series.h"

#define LATNICE "configs/patches/latency-nice-6.12"
#define NO_PLACE_LAG "configs/patches/no-place-lag-6.12/" \
	"0001-sched-features-Turn-PLACE_LAG-off-by-default.patch"

static char *slurp(const char *path)
{
	struct buf b = {0};
	assert_int_equal(buf_read_file(&b, path, 1 << 20), 0);
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* FIPS 180-2 appendix B.1: sha256("abc"). */
static void test_sha256_known_value(void **state)
{
	(void)state;
	char hex[65];
	kb_sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* Inputs of a build as kbuild_inputs_fill would give them. */
static void some_inputs(struct kbuild_inputs *in)
{
	memset(in, 0, sizeof(*in));
	in->source = xstrdup("tarball 1111");
	argv_add(&in->patches, "2222 fuzz 0");
	argv_add(&in->patches, "3333 fuzz 0");
	argv_add(&in->config, "tinyconfig");
	argv_add(&in->config, "fragment 4444");
	argv_add(&in->make_args, "LOCALVERSION=-x");
	argv_add(&in->env, "LC_ALL=C");
	in->tools.t = xcalloc(1, sizeof(*in->tools.t));
	in->tools.n = 1;
	in->tools.t[0] = (struct ktool){xstrdup("cc"), xstrdup("/usr/bin/gcc-12"),
					xstrdup("gcc version 12.2.0"), xstrdup(""), "5555"};
	in->target = xstrdup("bzImage");
	snprintf(in->config_final, sizeof(in->config_final), "6666");
}

/* Every field of the inputs is in the key: change one, the key changes. */
static void test_key_changes_with_every_input(void **state)
{
	(void)state;
	struct kbuild_inputs in;
	char k0[65], k[65];
	some_inputs(&in);
	kbuild_inputs_key(&in, k0);
	kbuild_inputs_key(&in, k);
	assert_string_equal(k0, k); /* same inputs, same key */
	for (int change = 0; change < 10; change++) {
		struct kbuild_inputs v;
		some_inputs(&v);
		switch (change) {
		case 0: free(v.source); v.source = xstrdup("tarball 1112"); break;
		case 1: free(v.patches.v[1]); v.patches.v[1] = xstrdup("3333 fuzz 1"); break;
		case 2: free(v.patches.v[1]); v.patches.v[1] = NULL; v.patches.n = 1; break;
		case 3: free(v.config.v[1]); v.config.v[1] = xstrdup("fragment 4445"); break;
		case 4: free(v.make_args.v[0]); v.make_args.v[0] = NULL; v.make_args.n = 0; break;
		case 5: argv_add(&v.env, "TZ=UTC"); break;
		case 6: v.tools.t[0].sha256[0] = '6'; break;
		case 7: free(v.target); v.target = xstrdup("vmlinux"); break;
		case 8: v.config_final[0] = '7'; break;
		case 9: free(v.tools.t[0].path); v.tools.t[0].path = xstrdup("/usr/bin/gcc-13"); break;
		}
		kbuild_inputs_key(&v, k);
		if (!strcmp(k, k0))
			fail_msg("changing input %d left the key as it was", change);
		kbuild_inputs_free(&v);
	}
	/* The key is the sha256 of its text, which names every input. */
	struct buf t = {0};
	kbuild_inputs_text(&in, &t);
	assert_non_null(strstr(buf_str(&t), "patch[1] 3333 fuzz 0\n"));
	assert_non_null(strstr(buf_str(&t), "tool cc 5555 /usr/bin/gcc-12 (gcc version 12.2.0)\n"));
	assert_non_null(strstr(buf_str(&t), "config_final 6666\n"));
	kb_sha256_hex(t.data, t.len, k);
	assert_string_equal(k, k0);
	/* cache diff: the lines that differ, by name. */
	struct kbuild_inputs v;
	some_inputs(&v);
	free(v.patches.v[1]);
	v.patches.v[1] = xstrdup("3334 fuzz 0");
	struct buf t2 = {0}, diff = {0};
	kbuild_inputs_text(&v, &t2);
	assert_int_equal(kbuild_inputs_diff(buf_str(&t), buf_str(&t2), &diff), 1);
	assert_non_null(strstr(buf_str(&diff), "  patch[1]: 3333 fuzz 0\n"));
	assert_non_null(strstr(buf_str(&diff), "3334 fuzz 0\n"));
	buf_free(&t);
	buf_free(&t2);
	buf_free(&diff);
	kbuild_inputs_free(&v);
	kbuild_inputs_free(&in);
}

static void test_config_line(void **state)
{
	(void)state;
	char name[64], value[64];
	assert_true(kconfig_line("CONFIG_SMP=y\n", name, sizeof(name), value, sizeof(value)));
	assert_string_equal(name, "CONFIG_SMP");
	assert_string_equal(value, "y");
	assert_true(kconfig_line("# CONFIG_SWAP is not set", name, sizeof(name), value,
				 sizeof(value)));
	assert_string_equal(name, "CONFIG_SWAP");
	assert_string_equal(value, "n");
	assert_true(kconfig_line("CONFIG_CMDLINE=\"a b\"", name, sizeof(name), value,
				 sizeof(value)));
	assert_string_equal(value, "\"a b\"");
	assert_false(kconfig_line("# a comment", name, sizeof(name), value, sizeof(value)));
	assert_false(kconfig_line("CONFIG_=y", name, sizeof(name), value, sizeof(value)));
}

/* merge_config.sh: a fragment's line replaces the option's line wherever
 * it was and is appended; later fragments win. */
static void test_merge_like_merge_config(void **state)
{
	(void)state;
	struct buf config = {0};
	struct kconfig_wants w = {0};
	buf_puts(&config, "# head\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=m\n");
	kconfig_merge(&config, "# comment\nCONFIG_B=y\n# CONFIG_A is not set\n", "frag1", &w);
	assert_string_equal(buf_str(&config),
			    "# head\nCONFIG_C=m\nCONFIG_B=y\n# CONFIG_A is not set\n");
	kconfig_merge(&config, "CONFIG_B=m\n", "CONFIG_B=m", &w);
	assert_string_equal(buf_str(&config), "# head\nCONFIG_C=m\n# CONFIG_A is not set\nCONFIG_B=m\n");
	assert_int_equal(w.n, 2);
	assert_string_equal(w.w[0].name, "CONFIG_B");
	assert_string_equal(w.w[0].value, "m");
	assert_string_equal(w.w[0].from, "CONFIG_B=m");
	assert_string_equal(w.w[1].value, "n");
	buf_free(&config);
	kconfig_wants_free(&w);
}

static void test_missing_option_named(void **state)
{
	(void)state;
	struct kconfig_wants w = {0};
	struct buf config = {0};
	char err[1024] = "";
	kconfig_merge(&config, "CONFIG_VIRTIO_CONSOLE=y\n# CONFIG_SWAP is not set\nCONFIG_HZ=250\n",
		      "guest", &w);
	assert_int_equal(kconfig_check("CONFIG_VIRTIO_CONSOLE=y\nCONFIG_HZ=250\n", &w, err,
				       sizeof(err)), 0);
	assert_int_equal(kconfig_check("# CONFIG_VIRTIO_CONSOLE is not set\nCONFIG_SWAP=y\n"
				       "CONFIG_HZ=250\n", &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CONFIG_VIRTIO_CONSOLE=y (from guest) is not in the final"
			       " .config (it has '# CONFIG_VIRTIO_CONSOLE is not set')"));
	assert_non_null(strstr(err, "# CONFIG_SWAP is not set (from guest) is not in the final"
			       " .config (it has 'CONFIG_SWAP=y')"));
	assert_null(strstr(err, "CONFIG_HZ"));
	assert_int_equal(kconfig_check("CONFIG_VIRTIO_CONSOLE=y\n", &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CONFIG_HZ=250 (from guest) is not in the final .config (it"
			       " has no line for it"));
	buf_free(&config);
	kconfig_wants_free(&w);
}

/* A directory: *.patch files in name order, the README left out. */
static void test_directory_order(void **state)
{
	(void)state;
	struct kseries s = {0};
	char err[512];
	assert_int_equal(kseries_add(&s, LATNICE "/", 0, err, sizeof(err)), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.p[0].file,
			    LATNICE "/0001-sched-Add-latency_nice-to-struct-sched_attr.patch");
	assert_string_equal(s.p[0].subject, "sched: Add latency_nice to struct sched_attr");
	assert_string_equal(s.p[1].subject, "sched/fair: Derive the default slice from latency_nice");
	assert_string_equal(s.p[2].subject,
			    "Documentation/scheduler: Describe the slice and latency_nice");
	assert_string_equal(s.p[3].subject, "selftests/sched: Add a latency_nice test");
	assert_int_equal(s.p[0].message, 0);
	/* The sha256 is of the file's bytes. */
	char *text = slurp(s.p[1].file), hex[65];
	kb_sha256_hex(text, strlen(text), hex);
	assert_string_equal(s.p[1].sha256, hex);
	free(text);
	kseries_free(&s);

	char dir[] = "/tmp/schedrig-kseries-XXXXXX";
	assert_non_null(mkdtemp(dir));
	const char *names[] = {"0010-c.patch", "0002-b.diff", "0001-a.patch", "README.md"};
	for (size_t i = 0; i < 4; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		char *t = xasprintf("Subject: [PATCH] %s\n\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
				    names[i]);
		spit(p, t);
		free(p);
		free(t);
	}
	assert_int_equal(kseries_add(&s, dir, 0, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.p[0].subject, "0001-a.patch");
	assert_string_equal(s.p[1].subject, "0002-b.diff");
	assert_string_equal(s.p[2].subject, "0010-c.patch");
	kseries_free(&s);
	proc_remove_tree(dir);
}

/* An mbox as git format-patch --stdout --cover-letter writes it: the cover
 * letter (no diff) is left out, each patch keeps its bytes. */
static void test_mbox_split(void **state)
{
	(void)state;
	struct kseries dir = {0}, s = {0};
	char err[512];
	assert_int_equal(kseries_add(&dir, LATNICE, 0, err, sizeof(err)), 0);
	struct buf mbox = {0};
	buf_puts(&mbox, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
			"From: a <a@example.org>\nSubject: [PATCH 0/4] latency_nice\n\n"
			"A cover letter.\nFrom here on, a line starting with From in the body.\n\n");
	for (size_t i = 0; i < dir.n; i++) {
		buf_puts(&mbox, dir.p[i].data);
		buf_puts(&mbox, "\n");
	}
	assert_int_equal(kseries_split(&s, "series.mbox", mbox.data, mbox.len, 0), 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(s.p[i].subject, dir.p[i].subject);
		assert_int_equal(s.p[i].message, (int)i + 2);
		assert_int_equal(strncmp(s.p[i].data, dir.p[i].data, dir.p[i].len), 0);
	}
	kseries_free(&s);
	/* A plain diff without headers: one patch named by its file. */
	assert_int_equal(kseries_split(&s, "x.diff", "--- a/x\n+++ b/x\n", 16, 0), 1);
	assert_string_equal(s.p[0].subject, "x.diff");
	kseries_free(&s);
	/* Nothing that looks like a diff: no patch. */
	assert_int_equal(kseries_split(&s, "notes.txt", "hello\n", 6, 0), 0);
	buf_free(&mbox);
	kseries_free(&dir);
}

/* A commit message may hold a line starting "From " after an empty line
 * (a quote, a sign-off discussion): only format-patch's and b4's
 * separators split an mbox. */
static void test_mbox_from_in_body(void **state)
{
	(void)state;
	static const char *const seps[] = {
		"From 1234567890123456789012345678901234567890 Mon Sep 17 00:00:00 2001\n",
		"From git@z Thu Jan  1 00:00:00 1970\n"};
	for (size_t k = 0; k < 2; k++) {
		struct kseries s = {0};
		struct buf mbox = {0};
		for (int i = 1; i <= 2; i++)
			buf_printf(&mbox, "%sFrom: a <a@example.org>\nSubject: [PATCH %d/2] sched: %s\n\n"
				   "Why.\n\nFrom the thread: the slice is too long.\n\n---\n"
				   "--- a/f%d\n+++ b/f%d\n@@ -0,0 +1 @@\n+x\n\n", seps[k], i,
				   i == 1 ? "One" : "Two", i, i);
		assert_int_equal(kseries_split(&s, "s.mbox", mbox.data, mbox.len, 0), 2);
		assert_string_equal(s.p[0].subject, "sched: One");
		assert_string_equal(s.p[1].subject, "sched: Two");
		assert_non_null(strstr(s.p[0].data, "From the thread: the slice is too long.\n"));
		assert_non_null(strstr(s.p[0].data, "+++ b/f1\n"));
		assert_null(strstr(s.p[0].data, "f2"));
		assert_int_equal(s.p[0].message, 1);
		assert_int_equal(s.p[1].message, 2);
		kseries_free(&s);
		buf_free(&mbox);
	}
}

/* The pre-image of the no-place-lag patch's hunk (its ' ' and '-' lines),
 * the file it patches: apply works, and with the removed line changed it
 * fails naming the file, the subject and the rejected hunk. */
static void make_features_tree(const char *dir, bool changed)
{
	char *text = slurp(NO_PLACE_LAG);
	struct buf pre = {0};
	char *hunk = strstr(text, "\n@@");
	assert_non_null(hunk);
	hunk = strchr(hunk + 1, '\n') + 1;
	for (char *l = hunk; *l && strncmp(l, "-- \n", 4);) {
		char *eol = strchr(l, '\n');
		if (*l == ' ' || *l == '-') {
			buf_append(&pre, l + 1, (size_t)(eol - l));
		}
		l = eol + 1;
	}
	char *path = xasprintf("%s/kernel/sched", dir);
	char err[256];
	assert_int_equal(mkdir_p(path, err, sizeof(err)), 0);
	free(path);
	path = xasprintf("%s/kernel/sched/features.h", dir);
	char *body = xstrdup(buf_str(&pre));
	if (changed) {
		char *at = strstr(body, "SCHED_FEAT(PLACE_LAG, true)");
		assert_non_null(at);
		memcpy(at, "SCHED_FEAT(PLACE_LAG, 1234)", 27);
	}
	spit(path, body);
	free(body);
	free(path);
	buf_free(&pre);
	free(text);
}

static void test_apply_and_failure_message(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-kapply-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *tree = xasprintf("%s/tree", dir), *work = xasprintf("%s/work", dir);
	char err[4096] = "";
	struct kseries s = {0};
	assert_int_equal(mkdir_p(work, err, sizeof(err)), 0);
	assert_int_equal(kseries_add(&s, NO_PLACE_LAG, 0, err, sizeof(err)), 0);
	make_features_tree(tree, false);
	assert_int_equal(kseries_apply(&s, tree, work, NULL, err, sizeof(err)), 0);
	char *path = xasprintf("%s/kernel/sched/features.h", tree);
	char *after = slurp(path);
	assert_non_null(strstr(after, "SCHED_FEAT(PLACE_LAG, false)"));
	assert_null(strstr(after, "SCHED_FEAT(PLACE_LAG, true)"));
	free(after);
	proc_remove_tree(tree);

	make_features_tree(tree, true);
	assert_int_equal(kseries_apply(&s, tree, work, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "patch 1 of 1, " NO_PLACE_LAG
			       ": 'sched/features: Turn PLACE_LAG off by default' does not apply: "
			       "kernel/sched/features.h: Hunk #1 FAILED at 3."));
	assert_non_null(strstr(err, "; first rejected hunk:\n@@ -3,8 +3,11 @@\n"));
	assert_non_null(strstr(err, "\n-SCHED_FEAT(PLACE_LAG, true)\n"));
	/* The user's file is never touched on the way: the tree is the copy. */
	after = slurp(path);
	assert_non_null(strstr(after, "SCHED_FEAT(PLACE_LAG, 1234)"));
	free(after);
	free(path);
	kseries_free(&s);
	free(tree);
	free(work);
	proc_remove_tree(dir);
}

/* The files a patch names: -p1 paths of "--- "/"+++ " (without the
 * timestamp after a tab), git's rename and copy paths as they are, each
 * once; /dev/null and a path climbing out of the tree left out. */
static void test_touched(void **state)
{
	(void)state;
	struct kpatch p = {.data = (char *)
		"Subject: [PATCH] x\n"
		"---\n"
		" kernel/sched/fair.c | 2 +-\n"
		"diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n"
		"--- a/kernel/sched/fair.c\t2024-11-17 15:15:00.000000000 +0100\n"
		"+++ b/kernel/sched/fair.c\r\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n"
		"--- /dev/null\n"
		"+++ b/include/new.h\n"
		"diff --git a/old.c b/moved.c\n"
		"rename from old.c\n"
		"rename to moved.c\n"
		"--- a/../outside\n"
		"+++ b/x/../../outside\n"};
	struct argv got = {0};
	kseries_touched(&p, &got);
	assert_int_equal(got.n, 4);
	assert_string_equal(got.v[0], "kernel/sched/fair.c");
	assert_string_equal(got.v[1], "include/new.h");
	assert_string_equal(got.v[2], "old.c");
	assert_string_equal(got.v[3], "moved.c");
	argv_free(&got);
}

/* A tree whose files are hard links to a pristine tree (ksource_copy's
 * cp -al of the cache), given by relative paths: the patched file becomes a file of its own, the
 * pristine one keeps its bytes and mtime, and a file no patch names stays
 * a link. */
static void test_apply_unshares_links(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-klink-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *orig = xasprintf("%s/orig", dir), *tree = xasprintf("%s/tree", dir);
	char *work = xasprintf("%s/work", dir), err[4096] = "";
	char *of = xasprintf("%s/kernel/sched/features.h", orig);
	char *om = xasprintf("%s/Makefile", orig);
	char *tf = xasprintf("%s/kernel/sched/features.h", tree);
	char *tm = xasprintf("%s/Makefile", tree);
	char *sched = xasprintf("%s/kernel/sched", tree);
	make_features_tree(orig, false);
	spit(om, "all:\n");
	assert_int_equal(mkdir_p(sched, err, sizeof(err)), 0);
	assert_int_equal(mkdir_p(work, err, sizeof(err)), 0);
	assert_int_equal(link(of, tf), 0);
	assert_int_equal(link(om, tm), 0);
	struct stat before, after;
	assert_int_equal(stat(of, &before), 0);
	char *pristine = slurp(of);
	struct kseries s = {0};
	assert_int_equal(kseries_add(&s, NO_PLACE_LAG, 0, err, sizeof(err)), 0);
	/* Tree and work directory relative to the rig's directory (a relative
	 * --db): patch runs in the tree and still finds its files. */
	char top[4096];
	assert_non_null(getcwd(top, sizeof(top)));
	assert_int_equal(chdir(dir), 0);
	int applied = kseries_apply(&s, "tree", "work", NULL, err, sizeof(err));
	assert_int_equal(chdir(top), 0);
	assert_int_equal(applied, 0);
	char *patched = slurp(tf), *kept = slurp(of);
	assert_non_null(strstr(patched, "SCHED_FEAT(PLACE_LAG, false)"));
	assert_string_equal(kept, pristine);
	assert_int_equal(stat(of, &after), 0);
	assert_int_equal(after.st_nlink, 1);
	assert_true(after.st_ino == before.st_ino);
	assert_true(after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
		    after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
	assert_int_equal(stat(tm, &after), 0);
	assert_int_equal(after.st_nlink, 2);
	kseries_free(&s);
	free(patched);
	free(kept);
	free(pristine);
	proc_remove_tree(dir);
	free(orig);
	free(tree);
	free(work);
	free(of);
	free(om);
	free(tf);
	free(tm);
	free(sched);
}

/* patch runs with --fuzz=0: a hunk whose outer context line is not the
 * tree's fails, naming the fuzz it would need and patch_fuzz:; with
 * patch_fuzz: 1 it applies and the fuzzed hunk is recorded; a hunk that
 * only moved (an offset) applies exactly and is recorded too. */
static void test_fuzz_and_offsets(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-kfuzz-XXXXXX", err[4096] = "";
	assert_non_null(mkdtemp(dir));
	char *tree = xasprintf("%s/tree", dir), *work = xasprintf("%s/work", dir);
	char *file = xasprintf("%s/f.c", tree);
	assert_int_equal(mkdir_p(tree, err, sizeof(err)), 0);
	assert_int_equal(mkdir_p(work, err, sizeof(err)), 0);
	static const char fuzzy[] = "--- a/f.c\n+++ b/f.c\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n"
				    " e\n f\n g\n";
	/* The tree's last context line differs: fuzz 1 would place it. */
	spit(file, "a\nb\nc\nd\ne\nf\nG\n");
	struct kseries s = {0};
	assert_int_equal(kseries_split(&s, "fuzzy.patch", fuzzy, strlen(fuzzy), 0), 1);
	struct argv applied = {0};
	assert_int_equal(kseries_apply(&s, tree, work, &applied, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "patch 1 of 1, fuzzy.patch: 'fuzzy.patch' does not apply:"
				    " f.c: Hunk #1 FAILED at 1."));
	assert_non_null(strstr(err, "(it applies with fuzz 1,"));
	assert_non_null(strstr(err, "patch_fuzz: 1 in its kernels: entry"));
	char *kept = slurp(file);
	assert_string_equal(kept, "a\nb\nc\nd\ne\nf\nG\n");
	free(kept);
	kseries_free(&s);
	assert_int_equal(kseries_split(&s, "fuzzy.patch", fuzzy, strlen(fuzzy), 1), 1);
	assert_int_equal(kseries_apply(&s, tree, work, &applied, err, sizeof(err)), 0);
	assert_int_equal(applied.n, 1);
	assert_non_null(strstr(applied.v[0], "patch 1 of 1, fuzzy.patch: 'fuzzy.patch': f.c:"
					     " Hunk #1 succeeded at 1 with fuzz 1."));
	kseries_free(&s);
	argv_free(&applied);
	/* Three lines more on top: the same hunk at an offset, fuzz 0. */
	spit(file, "x\ny\nz\na\nb\nc\nd\ne\nf\ng\n");
	assert_int_equal(kseries_split(&s, "moved.patch", fuzzy, strlen(fuzzy), 0), 1);
	assert_int_equal(kseries_apply(&s, tree, work, &applied, err, sizeof(err)), 0);
	assert_int_equal(applied.n, 1);
	assert_non_null(strstr(applied.v[0], "f.c: Hunk #1 succeeded at 4 (offset 3 lines)."));
	kseries_free(&s);
	argv_free(&applied);
	proc_remove_tree(dir);
	free(tree);
	free(work);
	free(file);
}

/* A directory of the tree that is a symbolic link to elsewhere: the rig
 * does not patch through it (the file patched would not be the tree's),
 * and what it points to keeps its bytes and its links. */
static void test_apply_refuses_links(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-ksym-XXXXXX", err[4096] = "";
	assert_non_null(mkdtemp(dir));
	char *tree = xasprintf("%s/tree", dir), *work = xasprintf("%s/work", dir);
	char *outside = xasprintf("%s/outside/sched", dir), *ofile = xasprintf("%s/f.c", outside);
	char *olink = xasprintf("%s/g.c", outside), *link_at = xasprintf("%s/kernel", tree);
	char *target = xasprintf("%s/outside", dir);
	assert_int_equal(mkdir_p(tree, err, sizeof(err)), 0);
	assert_int_equal(mkdir_p(work, err, sizeof(err)), 0);
	assert_int_equal(mkdir_p(outside, err, sizeof(err)), 0);
	spit(ofile, "a\n");
	assert_int_equal(link(ofile, olink), 0); /* two links: unshare would copy it */
	assert_int_equal(symlink(target, link_at), 0);
	static const char p[] = "--- a/kernel/sched/f.c\n+++ b/kernel/sched/f.c\n@@ -1 +1 @@\n-a\n+b\n";
	struct kseries s = {0};
	assert_int_equal(kseries_split(&s, "x.patch", p, strlen(p), 0), 1);
	assert_int_equal(kseries_apply(&s, tree, work, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the rig does not patch through links"));
	char *kept = slurp(ofile);
	assert_string_equal(kept, "a\n");
	struct stat st;
	assert_int_equal(stat(ofile, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	free(kept);
	kseries_free(&s);
	proc_remove_tree(dir);
	free(tree);
	free(work);
	free(outside);
	free(ofile);
	free(olink);
	free(link_at);
	free(target);
}

static void tree_digest(const char *dir, const char *idx, char out[65], size_t *hashed)
{
	struct ktree_stats st;
	char err[512];
	assert_int_equal(ktree_digest(dir, idx, out, &st, err, sizeof(err)), 0);
	*hashed = st.hashed;
}

/* A tree's identity is its content: other bytes at the same size with the
 * mtime set back (touch -r) change it, through the index's fast path too
 * (ctime moved); a binary byte changes it; the top-level .git does not
 * count. Unchanged, the index answers for every file (none read). */
static void test_tree_digest(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-ktree-XXXXXX", err[512];
	assert_non_null(mkdtemp(dir));
	char *tree = xasprintf("%s/tree", dir), *idx = xasprintf("%s/tree.idx", dir);
	char *core = xasprintf("%s/kernel/core.c", tree), *bin = xasprintf("%s/fw.bin", tree);
	char *sub = xasprintf("%s/kernel", tree), *git = xasprintf("%s/.git", tree);
	char *gitfile = xasprintf("%s/.git/HEAD", tree);
	assert_int_equal(mkdir_p(sub, err, sizeof(err)), 0);
	assert_int_equal(mkdir_p(git, err, sizeof(err)), 0);
	spit(core, "int slice = 3;\n");
	spit(bin, "\x01\x02\x03");
	spit(gitfile, "ref: refs/heads/master\n");
	char d0[65], d1[65], d2[65], d3[65], none[65];
	size_t hashed;
	tree_digest(tree, NULL, none, &hashed);
	assert_int_equal(hashed, 2);
	sleep(KTREE_RACY_S + 1); /* old enough for the index to be trusted */
	tree_digest(tree, idx, d0, &hashed);
	assert_string_equal(d0, none);
	tree_digest(tree, idx, d1, &hashed);
	assert_string_equal(d1, d0);
	assert_int_equal(hashed, 0);
	struct stat before;
	assert_int_equal(stat(core, &before), 0);
	spit(core, "int slice = 4;\n");
	struct timespec times[2] = {before.st_atim, before.st_mtim};
	assert_int_equal(utimensat(AT_FDCWD, core, times, 0), 0);
	tree_digest(tree, idx, d2, &hashed);
	assert_string_not_equal(d2, d0);
	assert_int_equal(hashed, 1);
	spit(gitfile, "ref: refs/heads/other\n");
	tree_digest(tree, idx, d3, &hashed);
	assert_string_equal(d3, d2);
	spit(bin, "\x01\x02\x04");
	tree_digest(tree, idx, d3, &hashed);
	assert_string_not_equal(d3, d2);
	proc_remove_tree(dir);
	free(tree);
	free(idx);
	free(core);
	free(bin);
	free(sub);
	free(git);
	free(gitfile);
}

/* kbuild's variables in the rig's environment are refused, naming the
 * config key to use; the ones the rig sets from the key are refused
 * saying so; without them nothing is refused. */
static void test_env_refused(void **state)
{
	(void)state;
	char err[1024];
	assert_int_equal(kbuild_env_check(err, sizeof(err)), 0);
	setenv("KCFLAGS", "-O3", 1);
	assert_int_equal(kbuild_env_check(err, sizeof(err)), -1);
	assert_string_equal(err, "environment variable KCFLAGS=-O3 is set: a kernel build does not"
			    " take it from the environment (the build key would not see it); write"
			    " it in the kernels: entry as make_args: [\"KCFLAGS=-O3\"], or unset it");
	unsetenv("KCFLAGS");
	setenv("KBUILD_BUILD_HOST", "box", 1);
	assert_int_equal(kbuild_env_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "KBUILD_BUILD_HOST=box is set: the rig sets it itself"));
	unsetenv("KBUILD_BUILD_HOST");
	assert_true(kbuild_env_refused("KCONFIG_ALLCONFIG"));
	assert_true(kbuild_env_refused("LLVM"));
	assert_false(kbuild_env_refused("EDITOR"));
	assert_int_equal(kbuild_env_check(err, sizeof(err)), 0);
}

/* "ccache gcc" and ccache's masquerading link are keyed as the compiler
 * behind them, found as make finds it. */
static void test_tools_behind_ccache(void **state)
{
	(void)state;
	char real[4096], gcc[4096], found[4096];
	const char *wrapper;
	if (spawn_which("ccache", KBUILD_PATH, found, sizeof(found)))
		skip();
	assert_int_equal(spawn_which("gcc", KBUILD_PATH, found, sizeof(found)), 0);
	assert_non_null(realpath(found, gcc));
	assert_int_equal(ktools_resolve("ccache gcc", real, sizeof(real), &wrapper), 0);
	assert_string_equal(real, gcc);
	assert_string_equal(wrapper, "ccache");
	if (!access("/usr/lib/ccache/gcc", X_OK)) {
		assert_int_equal(ktools_resolve("/usr/lib/ccache/gcc", real, sizeof(real), &wrapper),
				 -1); /* a path names that file: no "next gcc" to find */
		assert_int_equal(ktools_resolve("gcc", real, sizeof(real), &wrapper), 0);
		assert_string_equal(real, gcc);
	}
	assert_int_equal(ktools_resolve("gcc", real, sizeof(real), &wrapper), 0);
	assert_string_equal(wrapper, "");
}

/* kill() as the build's runner sends it: a process group's SIGKILL after
 * its leader was reaped could hit another group that reuses the ID. */
static int group_kills_after_reap;

int kill(pid_t pid, int sig)
{
	siginfo_t si = {0};
	if (pid < -1 && waitid(P_PID, (id_t)-pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	    errno == ECHILD)
		group_kills_after_reap++;
	return (int)syscall(SYS_kill, pid, sig);
}

/* kb_run kills what is left of a program's group before the program is
 * reaped, never after; what the program left behind in its group is gone. */
static void test_group_killed_before_reap(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-kgrp-XXXXXX", err[512];
	assert_non_null(mkdtemp(dir));
	char *pidfile = xasprintf("%s/pid", dir);
	char *script = xasprintf("sleep 30 & echo $! > %s; exit 0", pidfile);
	char *argv[] = {"sh", "-c", script, NULL};
	struct kb_cmd c = {.argv = argv};
	group_kills_after_reap = 0;
	assert_int_equal(kb_run(&c, err, sizeof(err)), 0);
	assert_int_equal(group_kills_after_reap, 0);
	char *text = slurp(pidfile);
	long long left;
	text[strcspn(text, "\n")] = '\0';
	assert_true(parse_ll(text, &left));
	/* Gone, or a zombie its new parent has not reaped yet (SIGKILL takes
	 * a moment to land). */
	char *stat_path = xasprintf("/proc/%lld/stat", left);
	char pstate = 'R';
	for (int i = 0; i < 100 && pstate != 'Z' && pstate != '-'; i++) {
		struct buf st = {0};
		const char *paren = buf_read_file(&st, stat_path, 4096) ? NULL :
				    strrchr(buf_str(&st), ')');
		pstate = paren && paren[1] && paren[2] ? paren[2] : '-';
		buf_free(&st);
		if (pstate != 'Z' && pstate != '-')
			usleep(10000);
	}
	assert_true(pstate == 'Z' || pstate == '-');
	free(stat_path);
	free(text);
	free(pidfile);
	free(script);
	proc_remove_tree(dir);
}

static void test_first_hunk(void **state)
{
	(void)state;
	char out[256];
	kseries_first_hunk("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n", 12, out,
			   sizeof(out));
	assert_string_equal(out, "@@ -1 +1 @@\n-a\n+b\n");
	kseries_first_hunk("@@ -1,3 +1,3 @@\n a\n b\n c\n", 2, out, sizeof(out));
	assert_string_equal(out, "@@ -1,3 +1,3 @@\n a\n");
}

static struct experiment *parse(const char *text, char *err, size_t errsz)
{
	return config_parse("k.yaml", text, strlen(text), err, errsz);
}

#define LOADS "loads: [{tool: hackbench}]\n"

static void expect_config_error(const char *text, const char *want)
{
	char err[1024] = "";
	struct experiment *e = parse(text, err, sizeof(err));
	if (e)
		fail_msg("expected '%s', the config was accepted", want);
	assert_string_equal(err, want);
}

static void test_kernels_in_config(void **state)
{
	(void)state;
	char err[1024] = "";
	struct experiment *e = parse(
		"name: k\n"
		"kernels:\n"
		"  base:    {source: linux-source-6.12, config: [tinyconfig, guest, CONFIG_HZ_100=y]}\n"
		"  latnice: {base: base, patches: [" LATNICE "/], make_args: [LOCALVERSION=-ln]}\n"
		"variants:\n"
		"  - {name: a, boot: qemu, kernel: {build: base}}\n"
		"  - {name: b, boot: qemu, kernel: {build: latnice}}\n"
		"  - {name: c, boot: ssh, host: 127.0.0.1, kexec: {kernel: {build: latnice}}}\n"
		LOADS, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(e->n_kernels, 2);
	assert_string_equal(e->variants[0].build, "base");
	assert_null(e->variants[0].kernel);
	assert_string_equal(e->variants[2].build, "latnice");
	const struct cfg_kernel *k = config_kernel(e, "latnice");
	assert_string_equal(k->base.text, "base");
	assert_int_equal(k->n_config, 0);
	assert_int_equal(k->n_patches, 1);
	assert_int_equal(k->patches[0].line, 4);
	assert_string_equal(config_kernel(e, "base")->config[2].text, "CONFIG_HZ_100=y");
	assert_int_equal(kbuild_check(e, err, sizeof(err)), 0);
	experiment_free(e);
}

static void test_kernels_errors(void **state)
{
	(void)state;
	expect_config_error("name: k\nvariants: [{name: a, boot: qemu, kernel: {build: nope}}]\n"
			    LOADS, "k.yaml:2:50: build: no kernel named 'nope' under kernels: (the"
			    " config has no kernels:)");
	expect_config_error("name: k\nkernels:\n  a: {base: b}\n  b: {base: a}\n" LOADS,
			    "k.yaml:3:3: kernel 'a': its chain of base: is a cycle");
	expect_config_error("name: k\nkernels:\n  a: {base: zz}\n" LOADS,
			    "k.yaml:3:13: base: no kernel named 'zz' under kernels:");
	expect_config_error("name: k\nkernels:\n  a: {config: [tinyconfig]}\n" LOADS,
			    "k.yaml:3:3: kernel 'a' needs 'source:' (or 'base:')");
	expect_config_error("name: k\nkernels:\n  a: {source: /x}\n" LOADS,
			    "k.yaml:3:3: kernel 'a' needs 'config:' (or 'base:'), e.g. [tinyconfig,"
			    " guest]");
	expect_config_error("name: k\nkernels:\n  a: {source: /x, config: [guest]}\n" LOADS,
			    "k.yaml:3:28: config: the first item is the base config (tinyconfig,"
			    " defconfig, package or a .config file), not the fragment 'guest'");
	expect_config_error("name: k\nkernels:\n  a: {source: /x, config: [guest.cfg, defconfig]}\n"
			    LOADS, "k.yaml:3:39: config: 'defconfig' is a base config; only the"
			    " first item may be one");
	expect_config_error("name: k\nkernels:\n  a: {source: /x, confg: [tinyconfig]}\n" LOADS,
			    "k.yaml:3:19: unknown key 'confg' in a kernel (did you mean 'config'?)");
	expect_config_error("name: k\nvariants: [{name: a, boot: qemu, kernel: {buld: x}}]\n" LOADS,
			    "k.yaml:2:43: unknown key 'buld' in kernel (did you mean 'build'?)");
}

/* Files a kernel names are checked before anything runs, with the
 * position of the item. */
static void test_missing_files_refused(void **state)
{
	(void)state;
	char err[1024] = "";
	struct experiment *e = parse(
		"name: k\n"
		"kernels:\n"
		"  a: {source: linux-source-6.12, config: [tinyconfig],\n"
		"      patches: [" LATNICE ", /nonexistent/0001.patch]}\n"
		"variants: [{name: a, boot: qemu, kernel: {build: a}}]\n" LOADS, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(kbuild_check(e, err, sizeof(err)), -1);
	assert_string_equal(err, "k.yaml:4:52: kernel 'a': patches: /nonexistent/0001.patch: No"
			    " such file or directory");
	experiment_free(e);
	e = parse("name: k\n"
		  "kernels:\n"
		  "  a: {source: /nonexistent/linux, config: [tinyconfig]}\n" LOADS, err,
		  sizeof(err));
	assert_non_null(e);
	assert_int_equal(kbuild_check(e, err, sizeof(err)), -1);
	assert_string_equal(err, "k.yaml:3:15: kernel 'a': source: /nonexistent/linux: No such"
			    " file or directory");
	experiment_free(e);
	e = parse("name: k\n"
		  "kernels:\n"
		  "  a: {source: linux-source-6.12, config: [tinyconfig], patches: [LICENSE]}\n"
		  LOADS, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(kbuild_check(e, err, sizeof(err)), -1);
	assert_string_equal(err, "k.yaml:3:66: kernel 'a': patches: LICENSE: holds no patch (no"
			    " line starting a diff: '--- ' or 'diff')");
	experiment_free(e);
}

/* One rule for a Debian source package name, for every caller: a source
 * that is not one (linux-source-6.12-rt) is a path, checked before
 * anything runs. */
static void test_one_package_rule(void **state)
{
	(void)state;
	assert_true(ksource_is_package("linux-source-6.12"));
	assert_false(ksource_is_package("linux-source-6.12-rt"));
	assert_false(ksource_is_package("linux-source-"));
	char err[1024];
	struct experiment *e = parse("name: k\nkernels:\n  a: {source: linux-source-6.12-rt,"
				     " config: [tinyconfig]}\n" LOADS, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(kbuild_check(e, err, sizeof(err)), -1);
	assert_string_equal(err, "k.yaml:3:15: kernel 'a': source: linux-source-6.12-rt: No such"
			    " file or directory");
	experiment_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_known_value),
		cmocka_unit_test(test_key_changes_with_every_input),
		cmocka_unit_test(test_config_line),
		cmocka_unit_test(test_merge_like_merge_config),
		cmocka_unit_test(test_missing_option_named),
		cmocka_unit_test(test_directory_order),
		cmocka_unit_test(test_mbox_split),
		cmocka_unit_test(test_mbox_from_in_body),
		cmocka_unit_test(test_apply_and_failure_message),
		cmocka_unit_test(test_first_hunk),
		cmocka_unit_test(test_touched),
		cmocka_unit_test(test_apply_unshares_links),
		cmocka_unit_test(test_fuzz_and_offsets),
		cmocka_unit_test(test_apply_refuses_links),
		cmocka_unit_test(test_tree_digest),
		cmocka_unit_test(test_env_refused),
		cmocka_unit_test(test_one_package_rule),
		cmocka_unit_test(test_tools_behind_ccache),
		cmocka_unit_test(test_group_killed_before_reap),
		cmocka_unit_test(test_kernels_in_config),
		cmocka_unit_test(test_kernels_errors),
		cmocka_unit_test(test_missing_files_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
