/* schedrig track's histories (harness/track/track.h): the split by host
 * fingerprint, revision order (labels by first run; git order of a real
 * repository made here with git), change points only at a revision's
 * first run, and what the table says. Expected values are written out by
 * hand from the points given. */
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

#include "track.h"
#include "track_follow_impl.h"

/* A point of run id with a label revision (NULL: none) and host. */
static struct track_point point(int64_t run, const char *label, const char *host, double v)
{
	return (struct track_point){
		.run_id = run, .variant_id = run, .revision = label ? strdup(label) : NULL,
		.has_revision = label != NULL, .kind = REVISION_LABEL,
		.host = host ? strdup(host) : NULL, .value = v, .n = 1,
	};
}

/* A set of one history named cfg with n points. */
static void one_history(struct track_set *set, struct track_point *p, size_t n)
{
	set->n = 1;
	set->h = calloc(1, sizeof(*set->h));
	struct track_history *h = &set->h[0];
	*h = (struct track_history){
		.config = strdup("cfg"), .variant = strdup("v"), .cell = strdup(""),
		.load = strdup("fake"), .metric = strdup("value"), .unit = strdup("units"),
		.op = strdup("0"), .better = BETTER_LOWER, .part = 1, .n_parts = 1,
	};
	h->p = calloc(n, sizeof(*h->p));
	h->n = n;
	for (size_t i = 0; i < n; i++) {
		h->p[i] = p[i];
		if (!h->p[i].revision)
			h->p[i].revision = strdup("run");
	}
}

/* Runs on hosts A, B, A, none, B: three histories, in the order of their
 * first point (A, B, none), each of one fingerprint, parts 1..3 of 3, the
 * points in their order. */
static void test_split_by_host(void **state)
{
	(void)state;
	struct track_point p[] = {point(1, "r1", "aaaa", 1), point(2, "r2", "bbbb", 2),
				  point(3, "r3", "aaaa", 3), point(4, "r4", NULL, 4),
				  point(5, "r5", "bbbb", 5)};
	struct track_set set;
	one_history(&set, p, 5);
	track_split_by_host(&set);
	assert_int_equal(set.n, 3);
	const char *hosts[] = {"aaaa", "bbbb", NULL};
	const int64_t runs[3][2] = {{1, 3}, {2, 5}, {4, 0}};
	const size_t sizes[] = {2, 2, 1};
	for (size_t k = 0; k < 3; k++) {
		const struct track_history *h = &set.h[k];
		assert_int_equal(h->part, k + 1);
		assert_int_equal(h->n_parts, 3);
		assert_int_equal(h->n, sizes[k]);
		if (hosts[k])
			assert_string_equal(h->host, hosts[k]);
		else
			assert_null(h->host);
		for (size_t i = 0; i < h->n; i++) {
			assert_int_equal(h->p[i].run_id, runs[k][i]);
			assert_true(h->host == h->p[i].host || !strcmp(h->host, h->p[i].host));
		}
		assert_string_equal(h->metric, "value");
	}
	struct buf title = {0};
	track_history_title(&title, &set.h[1]);
	assert_string_equal(buf_str(&title), "cfg variant v, fake value (units, lower is better),"
			    " op 0, host bbbb (part 2 of 3)");
	buf_free(&title);
	track_set_free(&set);

	/* One fingerprint: one history, not called split. */
	struct track_point q[] = {point(1, "r1", "aaaa", 1), point(2, "r2", "aaaa", 2)};
	one_history(&set, q, 2);
	track_split_by_host(&set);
	assert_int_equal(set.n, 1);
	assert_int_equal(set.h[0].n_parts, 1);
	assert_string_equal(set.h[0].host, "aaaa");
	track_set_free(&set);
}

/* Labels: the order of each revision's first run, a revision's runs
 * together (r2's runs 2 and 5 follow each other), a run without revision
 * its own; first[] marks each revision's first run. */
static void test_label_order(void **state)
{
	(void)state;
	struct track_point p[] = {point(1, "r1", NULL, 1), point(2, "r2", NULL, 2),
				  point(3, "r3", NULL, 3), point(4, NULL, NULL, 4),
				  point(5, "r2", NULL, 5)};
	struct track_set set;
	one_history(&set, p, 5);
	struct track_history *h = &set.h[0];
	track_order(h);
	const int64_t want[] = {1, 2, 5, 3, 4};
	const bool first[] = {true, true, false, true, true};
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(h->p[i].run_id, want[i]);
		assert_int_equal(h->first[i], first[i]);
	}
	assert_int_equal(h->n_revisions, 4);
	assert_string_equal(h->order, "run order");
	track_set_free(&set);
}

/* Run git in dir with a fixed identity; its first output line into out. */
static void git(const char *dir, const char *args, char *out, size_t size)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "git -C %s -c user.name=t -c user.email=t@example.org"
		 " -c commit.gpgsign=false %s", dir, args);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	if (!out || !fgets(out, (int)size, f)) {
		char sink[256];
		while (fgets(sink, sizeof(sink), f))
			;
	}
	assert_int_equal(pclose(f), 0);
	if (out)
		out[strcspn(out, "\n")] = '\0';
}

/* Git revisions of one repository: its commits c1 -> c2 -> c3 run as c3,
 * c1, c2, c1 come out c1, c1, c2, c3 (git order, the two runs of c1
 * together); a commit the repository lacks makes it run order, saying why. */
static void test_git_order(void **state)
{
	(void)state;
	if (system("git --version >/dev/null 2>&1"))
		skip();
	char dir[] = "/tmp/schedrig-test-track-XXXXXX", hash[3][64];
	assert_non_null(mkdtemp(dir));
	git(dir, "init -q", NULL, 0);
	for (int i = 0; i < 3; i++) {
		char args[128];
		snprintf(args, sizeof(args), "commit -q --allow-empty -m c%d", i + 1);
		git(dir, args, NULL, 0);
		git(dir, "rev-parse HEAD", hash[i], sizeof(hash[i]));
	}
	const int order[] = {2, 0, 1, 0};
	struct track_point p[4];
	for (int i = 0; i < 4; i++) {
		char label[16];
		snprintf(label, sizeof(label), "c%d", order[i] + 1);
		p[i] = point(i + 1, label, NULL, i);
		p[i].kind = REVISION_GIT;
		p[i].commit = strdup(hash[order[i]]);
		p[i].source = strdup(dir);
	}
	struct track_set set;
	one_history(&set, p, 4);
	struct track_history *h = &set.h[0];
	track_order(h);
	const int64_t want[] = {2, 4, 3, 1};
	for (int i = 0; i < 4; i++)
		assert_int_equal(h->p[i].run_id, want[i]);
	assert_int_equal(h->n_revisions, 3);
	assert_false(h->first[1]);
	char want_order[128];
	snprintf(want_order, sizeof(want_order), "git order of %s", dir);
	assert_string_equal(h->order, want_order);

	free(h->p[0].commit);
	h->p[0].commit = strdup("0123456789012345678901234567890123456789");
	track_order(h);
	assert_non_null(strstr(h->order, "run order (git order of"));
	track_set_free(&set);
	char rm[128];
	snprintf(rm, sizeof(rm), "rm -rf %s", dir);
	assert_int_equal(system(rm), 0);
}

/* Ten revisions of 100 then ten of 110, each of two runs (their values
 * 100/100.2 and 110/110.2): the change is at the first run of the
 * eleventh revision (point 20), a regression of the lower-is-better
 * metric from 100.1 to 110.1 (+9.99 %), with p = 1/200 (199
 * permutations: none as large). The table says so. */
static void test_detect_and_table(void **state)
{
	(void)state;
	struct track_point p[40];
	for (int i = 0; i < 40; i++) {
		char label[16];
		snprintf(label, sizeof(label), "r%02d", i / 2 + 1);
		p[i] = point(i + 1, label, NULL, (i < 20 ? 100 : 110) + (i % 2) * 0.2);
	}
	struct track_set set;
	one_history(&set, p, 40);
	track_order(&set.h[0]);
	assert_int_equal(set.h[0].n_revisions, 20);
	struct track_opts o;
	track_opts_init(&o);
	struct track_result r;
	track_detect(&set.h[0], &o, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.c[0].index, 20);
	assert_true(fabs(r.c[0].mean_before - 100.1) < 1e-9);
	assert_true(fabs(r.c[0].mean_after - 110.1) < 1e-9);
	assert_true(fabs(r.c[0].change_pct - 10.0 / 100.1 * 100) < 1e-9);
	assert_true(fabs(r.c[0].p - 1.0 / 200) < 1e-12);
	assert_true(r.c[0].regression);
	struct buf out = {0};
	track_report_text(&out, &set, &r, &o);
	assert_non_null(strstr(buf_str(&out), "  r10              r11                   100.10"
			       "        110.10     +9.99 %    0.005  yes\n"));
	assert_non_null(strstr(buf_str(&out), ": 40 run(s) of 20 revision(s), r01 .. r20, run"
			       " order\n"));
	buf_free(&out);
	track_result_free(&r);

	/* Higher is better: the same step is an improvement. */
	set.h[0].better = BETTER_HIGHER;
	track_detect(&set.h[0], &o, &r);
	assert_int_equal(r.n, 1);
	assert_false(r.c[0].regression);
	track_result_free(&r);
	/* A minimum change of 10 % drops it, and the table says why. */
	o.min_change_pct = 10;
	track_detect(&set.h[0], &o, &r);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.pruned, 1);
	track_report_text(&out, &set, &r, &o);
	assert_non_null(strstr(buf_str(&out), "  no change point: 1 found, each changing the level"
			       " by less than 10 %\n"));
	buf_free(&out);
	track_result_free(&r);
	track_set_free(&set);
}

/* --values: numbers one per line, comments and blank lines skipped; a
 * line that is not a number is refused with its position. */
static void test_values(void **state)
{
	(void)state;
	struct track_set set;
	char err[256];
	assert_int_equal(track_history_values("v.txt", "# head\n1\n\n 2.5 \n3e0\n", &set, err,
					      sizeof(err)), 0);
	assert_int_equal(set.n, 1);
	assert_int_equal(set.h[0].n, 3);
	assert_true(set.h[0].p[1].value == 2.5);
	assert_string_equal(set.h[0].p[2].revision, "line5");
	assert_true(set.h[0].first[2]);
	track_set_free(&set);
	assert_int_equal(track_history_values("v.txt", "1\nx2\n", &set, err, sizeof(err)), -1);
	assert_string_equal(err, "v.txt:2: 'x2' is not a finite number");
	assert_int_equal(track_history_values("v.txt", "# none\n", &set, err, sizeof(err)), -1);
	assert_string_equal(err, "v.txt: no numbers in it");
	/* A second word on a line is refused, never dropped. */
	assert_int_equal(track_history_values("v.txt", "1\n1 2\n3\n", &set, err, sizeof(err)), -1);
	assert_string_equal(err, "v.txt:2: '1 2' is not one number");
	assert_int_equal(track_history_values("v.txt", "9 # x\r\n", &set, err, sizeof(err)), -1);
	assert_string_equal(err, "v.txt:1: '9 # x' is not one number");
	assert_int_equal(track_history_values("v.txt", "4\t \r\n5\n", &set, err, sizeof(err)), 0);
	assert_int_equal(set.h[0].n, 2);
	track_set_free(&set);
}

/* A follow reports a bisection's verdict as the engine gave it: only a
 * complete bisection's "First bad point:" line blames a commit; the
 * engine's other lines (bisect_engine.c's unconfirmed_text and the range
 * of confirmed_text) and a refused or failed bisection blame none. */
static void test_bisect_verdict(void **state)
{
	(void)state;
	const char *blamed = "first bad commit confirmed by the bisection";
	assert_string_equal(track_bisect_verdict("complete", "First bad point: 3f2a (confirmed:"
						 " +8 %, p 1e-06; the ends held; k 3 of 6)"), blamed);
	assert_string_equal(track_bisect_verdict("complete", "No single first bad point: gradual"
						 " change over c1..c5 (between both ends: c2, c3)"),
			    "no single first bad commit: a gradual change");
	assert_string_equal(track_bisect_verdict("complete", "No single first bad point: the"
						 " confirm shows no step: +0.1 %"),
			    "no single first bad commit");
	assert_string_equal(track_bisect_verdict("complete", "The change is in a range: after c1"
						 " (k 1, good) up to c3 (k 3, bad); skipped in"
						 " between: c2 (confirmed: +8 %; the ends held)"),
			    "the change is in a range of commits (some skipped)");
	assert_string_not_equal(track_bisect_verdict("refused", "First bad point: x"), blamed);
	assert_string_not_equal(track_bisect_verdict("failed", "First bad point: x"), blamed);
	assert_string_not_equal(track_bisect_verdict("complete", NULL), blamed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_by_host),
		cmocka_unit_test(test_label_order),
		cmocka_unit_test(test_git_order),
		cmocka_unit_test(test_detect_and_table),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bisect_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
