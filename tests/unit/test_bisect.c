/* The bisection engine (next point, window, result), its classification
 * against both ends, and the two providers' configs. Expected p-values and
 * t statistics are R's t.test (Welch) on the same numbers; expected step
 * counts come from the closed form ceil(log2(n-1)) + 2. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bisect.h"
#include "bisect_list.h"
#include "bisect_patches.h"
#include "bisect_report.h"
#include "bisect_series.h"
#include "util.h"
#include "ytree.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("expected %.15g, got %.15g", want, got);
}

/* Bisect n points whose first bad one is bad_at (the oracle), skipping the
 * points in skip[] (a 0-terminated list); returns the points measured. */
static int simulate(size_t n, size_t bad_at, const size_t *skip, struct bisect_result *r)
{
	struct bisect_search s;
	long k;
	int measured = 0;
	bisect_search_init(&s, n);
	while ((k = bisect_search_next(&s)) >= 0) {
		bool skipped = false;
		for (size_t i = 0; skip && skip[i]; i++)
			skipped |= skip[i] == (size_t)k;
		s.v[k] = skipped ? BISECT_SKIP : (size_t)k >= bad_at ? BISECT_BAD : BISECT_GOOD;
		measured++;
	}
	bisect_search_result(&s, r);
	bisect_search_free(&s);
	return measured;
}

/* Every series of 2..65 points and every step position: found, and in at
 * most ceil(log2(n-1)) + 2 measurements (the ends and the halvings). */
static void test_search_finds_every_step(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 65; n++) {
		int bound = 2;
		while ((size_t)1 << (bound - 2) < n - 1)
			bound++;
		for (size_t bad_at = 1; bad_at < n; bad_at++) {
			struct bisect_result r;
			int m = simulate(n, bad_at, NULL, &r);
			assert_true(r.exact);
			assert_int_equal(r.first_bad, bad_at);
			assert_int_equal(r.last_good, bad_at - 1);
			if (m > bound)
				fail_msg("n %zu step %zu: %d measurements > %d", n, bad_at, m, bound);
		}
	}
}

/* The order of a 9-point series with its step at 5: 0, 8, 4, 6, 5. */
static void test_search_order(void **state)
{
	(void)state;
	struct bisect_search s;
	bisect_search_init(&s, 9);
	long want[] = {0, 8, 4, 6, 5, -1};
	for (size_t i = 0; i < 6; i++) {
		long k = bisect_search_next(&s);
		assert_int_equal(k, want[i]);
		if (k >= 0)
			s.v[k] = k >= 5 ? BISECT_BAD : BISECT_GOOD;
	}
	bisect_search_free(&s);
}

/* Skips are stepped around: the answer is exact when a skipped point is
 * not next to the step, a range when it is. */
static void test_search_skips(void **state)
{
	(void)state;
	struct bisect_result r;
	size_t skip_far[] = {4, 0};
	simulate(9, 7, skip_far, &r);
	assert_true(r.exact);
	assert_int_equal(r.first_bad, 7);
	/* 4 is the last good point, skipped: 3 good, 5 bad, a range. */
	size_t skip_near[] = {4, 0};
	simulate(9, 5, skip_near, &r);
	assert_false(r.exact);
	assert_int_equal(r.last_good, 3);
	assert_int_equal(r.first_bad, 5);
	size_t skip_step[] = {5, 0};
	simulate(9, 5, skip_step, &r);
	assert_false(r.exact);
	assert_int_equal(r.last_good, 4);
	assert_int_equal(r.first_bad, 6);
	size_t skip_two[] = {4, 5, 0};
	simulate(9, 5, skip_two, &r);
	assert_false(r.exact);
	assert_int_equal(r.last_good, 3);
	assert_int_equal(r.first_bad, 6);
}

static void summarise(double *v, size_t n, struct stats_summary *s)
{
	stats_sort(v, n);
	stats_summarise(v, n, BETTER_LOWER, s);
}

/* R: t.test(point, good), t.test(point, bad) on these numbers. */
static void test_classify(void **state)
{
	(void)state;
	double g[] = {10, 11, 12, 13}, b[] = {20, 21, 22, 23};
	double bad_like[] = {19, 20, 22, 24}, good_like[] = {11, 15, 9, 14, 12};
	double noisy[] = {5, 30, 10, 25}, between[] = {17, 18, 17.5, 18.5};
	struct stats_summary sg, sb, sp;
	struct bisect_class c;
	summarise(g, 4, &sg);
	summarise(b, 4, &sb);

	summarise(bad_like, 4, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, bad_like, &sp, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	assert_false(c.partial);
	assert_close(c.vs_good.statistic, 7.59996668880108, 1e-9);
	assert_close(c.vs_good.p, 0.000733349109051068, 1e-6);
	assert_close(c.vs_bad.statistic, -0.194870940738489, 1e-9);
	assert_close(c.vs_bad.p, 0.853433542009181, 1e-6);

	summarise(good_like, 5, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, good_like, &sp, &c);
	assert_int_equal(c.verdict, BISECT_GOOD);
	assert_close(c.vs_good.p, 0.594053741853094, 1e-6);
	assert_close(c.vs_bad.p, 0.000233076824188393, 1e-6);

	summarise(noisy, 4, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, noisy, &sp, &c);
	assert_int_equal(c.verdict, BISECT_UNTESTED);
	assert_close(c.vs_good.p, 0.388503635786356, 1e-6);
	assert_close(c.vs_bad.p, 0.550799316676206, 1e-6);

	/* Different from both: nearer the bad end by |t| (5.20 < 8.66). */
	summarise(between, 4, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, between, &sp, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	assert_true(c.partial);
	assert_close(c.vs_good.statistic, 8.66025403784439, 1e-9);
	assert_close(c.vs_bad.statistic, -5.19615242270663, 1e-9);

	/* One sample: no test, ambiguous. */
	double one[] = {20};
	summarise(one, 1, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, one, &sp, &c);
	assert_int_equal(c.verdict, BISECT_UNTESTED);

	struct stats_test t;
	assert_true(bisect_ends_differ(0.05, BETTER_LOWER, g, &sg, b, &sb, &t));
	assert_close(t.p, 3.43640280761216e-05, 1e-6);
	assert_false(bisect_ends_differ(0.05, BETTER_LOWER, g, &sg, g, &sg, &t));
}

/* Sorted and summarised with the metric's direction. */
static void summarise_b(double *v, size_t n, enum better better, struct stats_summary *s)
{
	stats_sort(v, n);
	stats_summarise(v, n, better, s);
}

/* Points and ends that do not vary: t undefined where neither side varies
 * (equal values p 1, different p 0), and the nearer end then by the
 * distance of the means. Expected t and p against the varying bad end:
 * Welch by hand, df = 2 exactly, p = 1 - |t|/sqrt(2 + t^2) (Student t with
 * 2 df). */
static void test_classify_constant(void **state)
{
	(void)state;
	double g[] = {100, 100, 100}, b[] = {190, 200, 210}, near_good[] = {101, 101, 101};
	struct stats_summary sg, sb, sp;
	struct bisect_class c;
	summarise(g, 3, &sg);
	summarise(b, 3, &sb);
	summarise(near_good, 3, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, near_good, &sp, &c);
	assert_true(isinf(c.vs_good.statistic) && c.vs_good.statistic > 0);
	assert_true(c.vs_good.p == 0);
	assert_close(c.vs_bad.statistic, -17.147302994931884, 1e-9);
	assert_close(c.vs_bad.p, 0.003383760928875823, 1e-6);
	assert_int_equal(c.verdict, BISECT_GOOD);
	assert_true(c.partial);

	/* Equal to the good end: t 0, p 1 against it. */
	double same[] = {100, 100, 100};
	summarise(same, 3, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, b, &sb, same, &sp, &c);
	assert_true(c.vs_good.statistic == 0 && c.vs_good.p == 1);
	assert_int_equal(c.verdict, BISECT_GOOD);
	assert_false(c.partial);

	/* Nothing varies anywhere: both t infinite; 101 is nearer 100 than 200,
	 * 180 nearer 200; 150 is the middle: ambiguous. */
	double cb[] = {200, 200, 200}, p1[] = {101, 101, 101}, p2[] = {180, 180, 180};
	double mid[] = {150, 150, 150};
	summarise(cb, 3, &sb);
	summarise(p1, 3, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, cb, &sb, p1, &sp, &c);
	assert_int_equal(c.verdict, BISECT_GOOD);
	summarise(p2, 3, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, cb, &sb, p2, &sp, &c);
	assert_int_equal(c.verdict, BISECT_BAD);
	summarise(mid, 3, &sp);
	bisect_classify(0.05, BETTER_LOWER, g, &sg, cb, &sb, mid, &sp, &c);
	assert_int_equal(c.verdict, BISECT_UNTESTED);

	/* Equal values whose mean is not exact in binary (a Stddev of ~1e-14,
	 * not 0): still no spread, decided by the values. */
	double ng[] = {120.227183, 120.227183, 120.227183};
	double nb[] = {130.1, 130.1, 130.1}, np[] = {120.3, 120.3, 120.3};
	summarise(ng, 3, &sg);
	summarise(nb, 3, &sb);
	summarise(np, 3, &sp);
	bisect_classify(0.05, BETTER_LOWER, ng, &sg, nb, &sb, np, &sp, &c);
	assert_true(isinf(c.vs_good.statistic) && isinf(c.vs_bad.statistic));
	assert_int_equal(c.verdict, BISECT_GOOD);

	/* Higher is better: the test is on the reciprocals, and so is the
	 * distance. 70 is nearer 50 than 100, but 1/70 is nearer 1/100. */
	double hg[] = {100, 100, 100}, hb[] = {50, 50, 50}, hp[] = {70, 70, 70};
	summarise_b(hg, 3, BETTER_HIGHER, &sg);
	summarise_b(hb, 3, BETTER_HIGHER, &sb);
	summarise_b(hp, 3, BETTER_HIGHER, &sp);
	bisect_classify(0.05, BETTER_HIGHER, hg, &sg, hb, &sb, hp, &sp, &c);
	assert_int_equal(c.verdict, BISECT_GOOD);

	/* The ends alike: both constant and different differ (p 0). */
	struct stats_test t;
	assert_true(bisect_ends_differ(0.05, BETTER_LOWER, ng, &sg, nb, &sb, &t));
	assert_true(t.p == 0);
}

/* The rule names the reciprocals only for a higher-is-better metric. */
static void test_rule_text(void **state)
{
	(void)state;
	char *lower = bisect_rule_describe(0.05, BETTER_LOWER);
	char *higher = bisect_rule_describe(0.01, BETTER_HIGHER);
	assert_null(strstr(lower, "Hmean"));
	assert_non_null(strstr(lower, "alpha 0.05"));
	assert_non_null(strstr(lower, "t is undefined: equal values p = 1"));
	assert_non_null(strstr(higher, "(on the Hmean, i.e. the reciprocals)"));
	free(lower);
	free(higher);
	/* No metric decided yet (-1): nothing said of the Hmean. */
	char *unknown = bisect_rule_describe(0.05, -1);
	assert_null(strstr(unknown, "Hmean"));
	assert_null(strstr(unknown, "reciprocals"));
	free(unknown);
}

/* The "No regression" line names the mean the test compared: the Hmean
 * of a higher-is-better metric (3 / (1/20000 + 1/25000 + 1/30000) =
 * 24324.32, by hand; its Amean 25000), the Amean of a lower-is-better one. */
static void test_no_regression_text(void **state)
{
	(void)state;
	struct bisect_metric m = {"t", "transactions", "0", "default"};
	struct bisect_sample_set g = {.better = BETTER_HIGHER}, b = {.better = BETTER_HIGHER};
	g.sum.amean = 25000;
	g.sum.hmean = 24324.32;
	b.sum.amean = 19540;
	b.sum.hmean = 18649.01;
	char *hi = bisect_report_no_regression(&m, "small", &g, "big", &b, 0.25, 0.05);
	assert_string_equal(hi, "No regression to bisect: default t:transactions op 0, small"
			    " 2.432e+04 vs big 1.865e+04 (Hmean), Welch's t-test on the"
			    " reciprocals p = 0.25 >= alpha 0.05");
	g.better = b.better = BETTER_LOWER;
	char *lo = bisect_report_no_regression(&m, "small", &g, "big", &b, 0.25, 0.05);
	assert_string_equal(lo, "No regression to bisect: default t:transactions op 0, small"
			    " 2.5e+04 vs big 1.954e+04 (Amean), Welch's t-test p = 0.25 >= alpha"
			    " 0.05");
	free(hi);
	free(lo);
}

/* Mean ± CI95 of the step table: the same decimals for both, from the
 * mean's magnitude (4 significant digits), no exponent for ordinary
 * magnitudes; the expected strings written by hand. */
static void test_fmt_mean(void **state)
{
	(void)state;
	char b[96];
	bisect_fmt_mean(b, sizeof(b), 3011.4, 241.7);
	assert_string_equal(b, "3011 ± 242");
	bisect_fmt_mean(b, sizeof(b), 448.2, 120.3);
	assert_string_equal(b, "448.2 ± 120.3");
	bisect_fmt_mean(b, sizeof(b), 120.227183, 4.3e-14);
	assert_string_equal(b, "120.2 ± 0.0");
	bisect_fmt_mean(b, sizeof(b), 0.51234, 0.01);
	assert_string_equal(b, "0.5123 ± 0.0100");
	bisect_fmt_mean(b, sizeof(b), 123456.7, 9876.6);
	assert_string_equal(b, "123457 ± 9877");
	bisect_fmt_mean(b, sizeof(b), 99.96, NAN);
	assert_string_equal(b, "99.96");
	bisect_fmt_mean(b, sizeof(b), 0.00001234, 0.000002);
	assert_string_equal(b, "1.234e-05 ± 2e-06");
	bisect_fmt_mean(b, sizeof(b), NAN, 1);
	assert_string_equal(b, "-");
}

/* Emitted text parses back to the same tree; an edited copy leaves the
 * original alone. */
static void test_ytree_round_trip(void **state)
{
	(void)state;
	const char *text = "name: x\nloads:\n  - {tool: fake, params: {mean: 100, note: 'a: b, c'}}\n"
			   "list: [1, \"two\", 'three #']\nempty: ''\n";
	char err[256];
	struct ydoc *d = ydoc_parse("t", text, strlen(text), err, sizeof(err));
	assert_non_null(d);
	struct ytree *t = ytree_new();
	struct ynode *root = ytree_copy(t, ydoc_root(d));
	ytree_set(t, root, "name", ytree_scalar(t, "y"));
	ytree_set(t, root, "list", NULL);
	char *out = ytree_emit(root, err, sizeof(err));
	assert_non_null(out);
	struct ydoc *d2 = ydoc_parse("t2", out, strlen(out), err, sizeof(err));
	assert_non_null(d2);
	const struct ynode *r2 = ydoc_root(d2);
	assert_string_equal(ynode_get(r2, "name")->text, "y");
	assert_null(ynode_get(r2, "list"));
	assert_string_equal(ynode_get(r2, "empty")->text, "");
	const struct ynode *params = ynode_get(ynode_get(r2, "loads")->items[0], "params");
	assert_string_equal(ynode_get(params, "mean")->text, "100");
	assert_string_equal(ynode_get(params, "note")->text, "a: b, c");
	assert_string_equal(ynode_get(ydoc_root(d), "name")->text, "x");
	assert_int_equal(ynode_get(ydoc_root(d), "list")->n, 3);
	free(out);
	ydoc_free(d2);
	ytree_free(t);
	ydoc_free(d);
}

static const char list_config[] =
	"name: l\n"
	"variants:\n"
	"  - {name: base, boot: local}\n"
	"loads:\n"
	"  - {name: f, tool: fake, params: {mean: 100, seed: 1}}\n"
	"bisect:\n"
	"  points:\n"
	"    - base\n"
	"    - {name: p1, params: {f: {mean: 110}}}\n"
	"    - {name: p2, params: {f: {mean: 120, seed: 7}}}\n"
	"    - {name: p3, boot: local}\n";

static int list_series(const char *text, const char *good, const char *bad,
		       struct bisect_series *s, char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse("l.yaml", text, strlen(text), err, errsz);
	assert_non_null(d);
	int rc = bisect_list_series("l.yaml", ydoc_root(d), good, bad, s, err, errsz);
	ydoc_free(d);
	return rc;
}

/* A point's config is the config with variants: [the point] and its
 * params applied, without bisect:; --good after --bad walks backwards. */
static void test_list_provider(void **state)
{
	(void)state;
	struct bisect_series s = {0};
	char err[512];
	assert_int_equal(list_series(list_config, "base", "p2", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.kind, "variants");
	assert_string_equal(s.p[0].name, "base");
	assert_string_equal(s.p[2].name, "p2");
	struct ydoc *d = ydoc_parse("p", s.p[2].config, strlen(s.p[2].config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *r = ydoc_root(d);
	assert_null(ynode_get(r, "bisect"));
	assert_int_equal(ynode_get(r, "variants")->n, 1);
	const struct ynode *v = ynode_get(r, "variants")->items[0];
	assert_string_equal(ynode_get(v, "name")->text, "p2");
	assert_null(ynode_get(v, "params"));
	const struct ynode *p = ynode_get(ynode_get(r, "loads")->items[0], "params");
	assert_string_equal(ynode_get(p, "mean")->text, "120");
	assert_string_equal(ynode_get(p, "seed")->text, "7");
	ydoc_free(d);
	bisect_series_free(&s);

	assert_int_equal(list_series(list_config, "p3", "p1", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.p[0].name, "p3");
	assert_string_equal(s.p[1].name, "p2");
	assert_string_equal(s.p[2].name, "p1");
	bisect_series_free(&s);

	assert_int_equal(list_series(list_config, "nope", "nada", &s, err, sizeof(err)), 1);
	assert_int_equal(list_series(list_config, "base", "nada", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "l.yaml:8:5: --bad nada is not a point of bisect: points:"
				 " (--good base is)");
	bisect_series_free(&s);
}

static void test_list_provider_errors(void **state)
{
	(void)state;
	struct bisect_series s = {0};
	char err[512];
	const char *axis = "name: l\nloads:\n  - {tool: fake}\nbisect:\n  points:\n"
			   "    - {name: a}\n    - {name: b, params: {fake: {mean: [1, 2]}}}\n";
	assert_int_equal(list_series(axis, "a", "b", &s, err, sizeof(err)), -1);
	if (!strstr(err, "l.yaml:7:39: params: fake: mean: a point takes single values"))
		fail_msg("%s", err);
	bisect_series_free(&s);
	const char *noload = "name: l\nloads:\n  - {tool: fake}\nbisect:\n  points:\n"
			     "    - {name: a}\n    - {name: b, params: {hackbench: {loops: 1}}}\n";
	assert_int_equal(list_series(noload, "a", "b", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "l.yaml:7:26: params: 'hackbench' is not a load of loads:");
	bisect_series_free(&s);
	const char *unknown = "name: l\nloads:\n  - {tool: fake}\nbisect:\n  points: [a, b]\n";
	assert_int_equal(list_series(unknown, "a", "b", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "l.yaml:5:12: bisect point 'a' is not a variant of variants:");
	bisect_series_free(&s);
}

/* Patch files of a series in a fresh directory; their paths in files[]. */
static void write_patches(char *dir, char files[][256], size_t n)
{
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < n; i++) {
		snprintf(files[i], 256, "%s/%04zu-change-%zu.patch", dir, i + 1, i + 1);
		FILE *f = fopen(files[i], "w");
		assert_non_null(f);
		fprintf(f, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
			   "From: A <a@b>\nSubject: [PATCH %zu/%zu]"
			   " sched/fair: change %zu\n\n---\n--- a/f%zu\n+++ b/f%zu\n@@ -0,0 +1 @@\n+x\n",
			i + 1, n, i + 1, i, i);
		fclose(f);
	}
}

static int patch_series(const char *text, const char *good, const char *bad,
			struct bisect_series *s, char *err, size_t errsz)
{
	struct ydoc *d = ydoc_parse("k.yaml", text, strlen(text), err, errsz);
	assert_non_null(d);
	int rc = bisect_patch_series("k.yaml", ydoc_root(d), good, bad, bisect_patch_files, s, err,
				     errsz);
	ydoc_free(d);
	return rc;
}

/* Point k is the good variant on a build of the good build plus the first
 * k patches; its label names the k-th patch and its subject. */
static void test_patch_provider(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-bisect-XXXXXX", files[4][256], err[512];
	write_patches(dir, files, 4);
	char *text = xasprintf(
		"name: k\nkernels:\n  base: {source: linux-source-6.12, config: [tinyconfig]}\n"
		"  series: {base: base, patches: [%s, %s]}\n  more: {base: series, patches: [%s, %s]}\n"
		"variants:\n  - {name: v6.12, boot: qemu, kernel: {build: base}, cpus: 2}\n"
		"  - {name: v6.12-s, boot: qemu, kernel: {build: more}, cpus: 2}\n"
		"  - {name: v6.12-x, boot: qemu, kernel: {build: more}, cpus: 1}\n"
		"loads:\n  - {tool: fake}\n", files[0], files[1], files[2], files[3]);
	struct bisect_series s = {0};
	assert_int_equal(patch_series(text, "v6.12", "v6.12-s", &s, err, sizeof(err)), 0);
	assert_string_equal(s.kind, "patches");
	assert_int_equal(s.n, 5);
	assert_string_equal(s.p[0].name, "v6.12");
	assert_string_equal(s.p[2].name, "v6.12-p2");
	assert_string_equal(s.p[4].name, "v6.12-s");
	char *label = xasprintf("%s: sched/fair: change 3", files[2]);
	assert_string_equal(s.p[3].label, label);
	free(label);
	struct ydoc *d = ydoc_parse("p", s.p[2].config, strlen(s.p[2].config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *b = ynode_get(ynode_get(ydoc_root(d), "kernels"), "v6.12-p2");
	assert_non_null(b);
	assert_string_equal(ynode_get(b, "base")->text, "base");
	const struct ynode *p = ynode_get(b, "patches");
	assert_int_equal(p->n, 2);
	assert_string_equal(p->items[0]->text, files[0]);
	assert_string_equal(p->items[1]->text, files[1]);
	const struct ynode *v = ynode_get(ydoc_root(d), "variants")->items[0];
	assert_string_equal(ynode_get(ynode_get(v, "kernel"), "build")->text, "v6.12-p2");
	assert_string_equal(ynode_get(v, "cpus")->text, "2");
	ydoc_free(d);
	bisect_series_free(&s);

	/* The wrong way round (the longer list as the good end): said so. */
	assert_int_equal(patch_series(text, "v6.12-s", "v6.12", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the good end's build more has every patch of the bad end's"
				    " base and more: the good end must be the shorter patch list"));
	/* Two variants that differ in more than the build. */
	assert_int_equal(patch_series(text, "v6.12", "v6.12-x", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "differ in more than their kernel build"));
	/* Not patch variants at all: not this provider's. */
	assert_int_equal(patch_series("name: k\nloads: []\n", "a", "b", &s, err, sizeof(err)), 1);
	free(text);

	/* Two roots of one source: good's list a prefix of bad's. */
	text = xasprintf("name: k\nkernels:\n  a: {source: src, patches: [%s]}\n"
			 "  b: {source: src, patches: [%s, %s, %s]}\n  c: {source: other, patches: [%s]}\n"
			 "variants:\n  - {name: a, kernel: {build: a}}\n  - {name: b, kernel: {build: b}}\n"
			 "  - {name: c, kernel: {build: c}}\nloads:\n  - {tool: fake}\n",
			 files[0], files[0], files[1], files[2], files[0]);
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_non_null(strstr(s.p[1].config, files[1]));
	bisect_series_free(&s);
	assert_int_equal(patch_series(text, "b", "a", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the good end's build b has every patch of the bad end's a"));
	assert_int_equal(patch_series(text, "c", "b", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not builds of one source"));
	free(text);
	for (size_t i = 0; i < 4; i++)
		unlink(files[i]);
	rmdir(dir);
}

/* make_args: are part of what a point builds: a build between good's and
 * bad's that sets its own, or two roots whose make_args differ, is not
 * good's build plus patches (the points would blame the wrong patch). A
 * patch_fuzz: travels with its patches into the points' builds. */
static void test_patch_series_make_args(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-bisect-XXXXXX", files[2][256], err[512];
	write_patches(dir, files, 2);
	char *text = xasprintf(
		"name: k\nkernels:\n  base: {source: src, config: [tinyconfig]}\n"
		"  more: {base: base, patches: [%s, %s], make_args: [KCFLAGS=-O3]}\n"
		"  a: {source: src, make_args: [LLVM=1], patches: [%s]}\n"
		"  b: {source: src, patches: [%s, %s]}\n"
		"  fz: {base: base, patches: [%s], patch_fuzz: 2}\n  fz2: {base: fz, patches: [%s]}\n"
		"variants:\n  - {name: v, kernel: {build: base}}\n  - {name: m, kernel: {build: more}}\n"
		"  - {name: a, kernel: {build: a}}\n  - {name: b, kernel: {build: b}}\n"
		"  - {name: z, kernel: {build: fz2}}\nloads:\n  - {tool: fake}\n",
		files[0], files[1], files[0], files[0], files[1], files[0], files[1]);
	struct bisect_series s = {0};
	assert_int_equal(patch_series(text, "v", "m", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more sets make_args: of its own, so more is not base plus patches"));
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "make_args: differ along their base: chains"));
	/* Point 1 of base..fz2: base + the first patch, allowed fuzz 2. */
	assert_int_equal(patch_series(text, "v", "z", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	struct ydoc *d = ydoc_parse("p", s.p[1].config, strlen(s.p[1].config), err, sizeof(err));
	assert_non_null(d);
	const struct ynode *b = ynode_get(ynode_get(ydoc_root(d), "kernels"), "v-p1");
	assert_non_null(b);
	assert_string_equal(ynode_get(b, "patch_fuzz")->text, "2");
	assert_string_equal(ynode_get(b, "base")->text, "base");
	ydoc_free(d);
	bisect_series_free(&s);
	free(text);
	for (size_t i = 0; i < 2; i++)
		unlink(files[i]);
	rmdir(dir);
}

/* A directory entry is the patch files in it, in name order, each with
 * its subject; an mbox of two patches is refused, saying how to split it. */
static void test_patch_directory(void **state)
{
	(void)state;
	char dir[] = "/tmp/schedrig-bisect-XXXXXX", files[3][256], err[512];
	write_patches(dir, files, 3);
	char *readme = xasprintf("%s/README", dir);
	FILE *f = fopen(readme, "w");
	assert_non_null(f);
	fputs("not a patch\n", f);
	fclose(f);
	char *text = xasprintf("name: k\nkernels:\n  base: {source: src}\n"
			       "  s: {base: base, patches: [%s]}\n"
			       "variants:\n  - {name: a, kernel: {build: base}}\n"
			       "  - {name: b, kernel: {build: s}}\nloads:\n  - {tool: fake}\n", dir);
	struct bisect_series s = {0};
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 4);
	for (size_t k = 1; k <= 3; k++) {
		char *label = xasprintf("%s: sched/fair: change %zu", files[k - 1], k);
		assert_string_equal(s.p[k].label, label);
		free(label);
	}
	assert_non_null(strstr(s.p[2].config, files[1]));
	assert_null(strstr(s.p[2].config, files[2]));
	bisect_series_free(&s);
	free(text);

	/* files[0] and files[1] as one mbox. */
	char *mbox = xasprintf("%s/two.mbox", dir);
	FILE *out = fopen(mbox, "w");
	assert_non_null(out);
	for (size_t i = 0; i < 2; i++) {
		FILE *in = fopen(files[i], "r");
		assert_non_null(in);
		int c;
		while ((c = fgetc(in)) != EOF)
			fputc(c, out);
		fclose(in);
		if (i == 0)
			fputc('\n', out);
	}
	fclose(out);
	text = xasprintf("name: k\nkernels:\n  base: {source: src}\n"
			 "  s: {base: base, patches: [%s]}\n"
			 "variants:\n  - {name: a, kernel: {build: base}}\n"
			 "  - {name: b, kernel: {build: s}}\nloads:\n  - {tool: fake}\n", mbox);
	assert_int_equal(patch_series(text, "a", "b", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "two.mbox holds 2 patches"));
	assert_non_null(strstr(err, "git format-patch -o DIR"));
	assert_non_null(strstr(err, "k.yaml:4:"));
	free(text);
	unlink(mbox);
	free(mbox);
	unlink(readme);
	free(readme);
	for (size_t i = 0; i < 3; i++)
		unlink(files[i]);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_finds_every_step),
		cmocka_unit_test(test_search_order),
		cmocka_unit_test(test_search_skips),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_classify_constant),
		cmocka_unit_test(test_rule_text),
		cmocka_unit_test(test_no_regression_text),
		cmocka_unit_test(test_fmt_mean),
		cmocka_unit_test(test_ytree_round_trip),
		cmocka_unit_test(test_list_provider),
		cmocka_unit_test(test_list_provider_errors),
		cmocka_unit_test(test_patch_provider),
		cmocka_unit_test(test_patch_series_make_args),
		cmocka_unit_test(test_patch_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
