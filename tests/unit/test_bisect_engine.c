/* The bisection engine (bisect_engine.h) over a scripted measurer: which
 * point it measures, in which phase and order, with how many iterations;
 * what it decides and says. The samples are a point's mean plus a fixed
 * cycle of offsets (-0.4 .. +0.4, a Stddev of about 0.27 % of 100), so the
 * tests' outcomes are the rule's on data whose truth is known: a clean
 * step, a gradual change, an end that moves, a step the confirm does not
 * show, a flat series, an ambiguous point, a failed run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bisect_engine.h"
#include "stats.h"
#include "util.h"

#define MAX_CALLS 512

/* One series as the measurer serves it. */
struct script {
	size_t n;
	double mean[16];          /* per point */
	double confirm_shift[16]; /* added in the confirm's rounds */
	double spread[16];        /* the offsets' multiplier (1 unless set) */
	long fail_k;              /* this point's walk run gives no sample (-1: none) */
	long stop_at;             /* the call that stops the bisection (-1: none) */
	/* what happened */
	size_t calls;
	struct { size_t k; enum bisect_phase ph; int nth, more; } call[MAX_CALLS];
	double *walk[16], *confirm[16];
	size_t n_walk[16], n_confirm[16];
	size_t n_points;
	long point_order[16];
	struct bisect_point_event points[16];
	char *reasons[16];
	size_t n_checks;
	char checks[8][64];
	char *result;
	const char *status;
	long blamed;
};

static double offset(size_t i)
{
	static const double cycle[] = {-0.3, 0.1, 0.4, -0.2, 0.0, 0.2, -0.1, 0.3, -0.4};
	return cycle[i % (sizeof(cycle) / sizeof(cycle[0]))];
}

static void to_set(const double *v, size_t n, struct bisect_sample_set *set)
{
	memset(set, 0, sizeof(*set));
	set->v = xcalloc(n ? n : 1, sizeof(*set->v));
	memcpy(set->v, v, n * sizeof(*v));
	set->n = set->iterations = n;
	set->better = BETTER_LOWER;
	stats_sort(set->v, n);
	stats_summarise(set->v, n, BETTER_LOWER, &set->sum);
}

static int measure(void *ctx, size_t k, enum bisect_phase ph, int nth, int more,
		   struct bisect_sample_set *set, char **why)
{
	struct script *s = ctx;
	assert_true(s->calls < MAX_CALLS);
	s->call[s->calls].k = k;
	s->call[s->calls].ph = ph;
	s->call[s->calls].nth = nth;
	s->call[s->calls].more = more;
	if ((long)s->calls++ == s->stop_at)
		return -1;
	if (ph == BISECT_PHASE_WALK && (long)k == s->fail_k) {
		*why = xstrdup("run 7 failed: boom");
		return 1;
	}
	bool c = ph == BISECT_PHASE_CONFIRM;
	double **v = c ? &s->confirm[k] : &s->walk[k];
	size_t *n = c ? &s->n_confirm[k] : &s->n_walk[k];
	int count = c ? 1 : more ? more : 3;
	*v = xrealloc(*v, (*n + (size_t)count) * sizeof(**v));
	double spread = s->spread[k] ? s->spread[k] : 1;
	for (int i = 0; i < count; i++, (*n)++)
		(*v)[*n] = s->mean[k] + (c ? s->confirm_shift[k] : 0) +
			   spread * offset(*n + 3 * k + (c ? 5 : 0));
	to_set(*v, *n, set);
	return 0;
}

static double min_effect(void *ctx, const struct bisect_sample_set *good)
{
	(void)ctx;
	(void)good;
	return 1;
}

static int point(void *ctx, const struct bisect_point_event *ev)
{
	struct script *s = ctx;
	s->point_order[s->n_points] = (long)ev->k;
	s->points[ev->k] = *ev;
	s->points[ev->k].set = NULL;
	free(s->reasons[ev->k]);
	s->reasons[ev->k] = ev->reason ? xstrdup(ev->reason) : NULL;
	s->n_points++;
	return 0;
}

static int check(void *ctx, const struct bisect_check *c)
{
	struct script *s = ctx;
	snprintf(s->checks[s->n_checks++], sizeof(s->checks[0]), "%s %zu %zu %s", c->what, c->k_a,
		 c->k_b, c->outcome);
	return 0;
}

static int result(void *ctx, const struct bisect_outcome *o)
{
	struct script *s = ctx;
	s->result = xstrdup(o->text);
	s->status = o->status;
	s->blamed = o->blamed;
	return 0;
}

/* A series of n points: mean 100 before step_at, 120 from it. */
static void script_init(struct script *s, size_t n, size_t step_at)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->fail_k = s->stop_at = -1;
	s->blamed = -2;
	for (size_t k = 0; k < n; k++)
		s->mean[k] = k >= step_at ? 120 : 100;
}

static void script_free(struct script *s)
{
	for (size_t k = 0; k < 16; k++) {
		free(s->walk[k]);
		free(s->confirm[k]);
		free(s->reasons[k]);
	}
	free(s->result);
}

/* Run the engine over s: welch, alpha 0.05, min effect decided by the
 * callback, iterations 3..6. Returns what bisect_engine_run returns. */
static int run(struct script *s)
{
	struct bisect_series names = {"variants", NULL, 0};
	for (size_t k = 0; k < s->n; k++) {
		char name[32];
		snprintf(name, sizeof(name), "p%zu", k);
		bisect_series_add(&names, name, name, "");
	}
	struct bisect_rule r = {BISECT_TEST_WELCH, 0.05, NAN, s->n, 3, 6};
	struct bisect_metric m = {"f", "value", "0", "default"};
	struct bisect_ops ops = {s, measure, min_effect, NULL, point, check, result};
	struct bisect_search search;
	bisect_search_init(&search, s->n);
	int rc = bisect_engine_run(&r, &names, &m, &ops, &search);
	bisect_search_free(&search);
	bisect_series_free(&names);
	return rc;
}

static void assert_prefix(const char *text, const char *prefix)
{
	if (!text || strncmp(text, prefix, strlen(prefix)))
		fail_msg("'%s' does not start with '%s'", text ? text : "(none)", prefix);
}

/* A clean step at p5 of p0..p8: the ends, then 4, 6, 5 (the search), the
 * ends up to the second look (5 iterations) before any point, p5 topped up
 * once; then 5 rounds of p0 p4 p5 p8, every other one reversed; the checks
 * in order; p5 blamed. */
static void test_clean_step(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 5);
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.blamed, 5);
	assert_prefix(s.result, "First bad point: p5 (confirmed: p4 -> p5 +20");
	assert_non_null(strstr(s.result, "over 5 + 5 fresh interleaved iterations; the ends held;"
				      " k 5 of 8)"));
	long order[] = {0, 8, 4, 6, 5};
	assert_int_equal(s.n_points, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(s.point_order[i], order[i]);
	assert_int_equal(s.points[5].verdict, BISECT_BAD);
	assert_int_equal(s.points[4].verdict, BISECT_GOOD);
	/* The ends: 3 each, then 2 more each (the second look's 5). */
	assert_int_equal(s.call[0].k, 0);
	assert_int_equal(s.call[0].more, 0);
	assert_int_equal(s.call[1].k, 8);
	assert_int_equal(s.call[2].k, 0);
	assert_int_equal(s.call[2].more, 2);
	assert_int_equal(s.call[2].nth, 2);
	assert_int_equal(s.call[3].k, 8);
	assert_int_equal(s.n_walk[0], 5);
	/* The confirm's rounds: interleaved, every other one reversed. */
	size_t first = 0;
	while (s.call[first].ph != BISECT_PHASE_CONFIRM)
		first++;
	size_t rounds[2][4] = {{0, 4, 5, 8}, {8, 5, 4, 0}};
	assert_int_equal(s.calls - first, 20);
	for (size_t i = 0; i < 20; i++) {
		assert_int_equal(s.call[first + i].k, rounds[(i / 4) % 2][i % 4]);
		assert_int_equal(s.call[first + i].nth, (int)(i / 4) + 1);
		assert_int_equal(s.call[first + i].more, 1);
	}
	const char *checks[] = {"confirm 4 5 step", "good end 0 0 held", "bad end 8 8 held",
				"last good 0 4 same", "first bad 8 5 same"};
	assert_int_equal(s.n_checks, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(s.checks[i], checks[i]);
	script_free(&s);
}

/* A point faster than both ends (p4 at 80 between ends at 100 and 120,
 * knob1's 6.05 s against 7.42 and 16.23 in the review): beyond an end, the
 * series is not monotone, no patch is blamed and the result does not call
 * it gradual. */
static void test_beyond(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 5);
	s.mean[4] = 80;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.blamed, -1);
	assert_int_equal(s.points[4].verdict, BISECT_BEYOND);
	assert_prefix(s.reasons[4], "beyond an end (not monotone)");
	assert_prefix(s.result, "No single first bad point: not monotone over p");
	assert_non_null(strstr(s.result, "(beyond an end: p4)"));
	assert_null(strstr(s.result, "gradual"));
	script_free(&s);
}

/* The gradual drift, means 100..108 over p0..p8: points differ from
 * both ends (between), no patch is blamed, the span is named; the confirm
 * measures the ends only (the guard). */
static void test_gradual(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 9);
	for (size_t k = 0; k < 9; k++)
		s.mean[k] = 100 + (double)k;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.blamed, -1);
	assert_prefix(s.result, "No single first bad point: gradual change over p");
	assert_non_null(strstr(s.result, "(between both ends: "));
	assert_int_equal(s.points[4].verdict, BISECT_BETWEEN);
	assert_string_equal(s.reasons[4], "differs from both ends: part of the change may be here");
	for (size_t i = 0; i < s.calls; i++)
		if (s.call[i].ph == BISECT_PHASE_CONFIRM && s.call[i].k != 0 && s.call[i].k != 8)
			fail_msg("the confirm measured point %zu", s.call[i].k);
	assert_int_equal(s.n_confirm[0], 5);
	assert_int_equal(s.n_checks, 2);
	assert_string_equal(s.checks[0], "good end 0 0 held");
	script_free(&s);
}

/* The good end measures 3 % higher in the confirm than in the walk: it
 * moved, so no patch is blamed although the step shows. */
static void test_end_moved(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 5);
	s.confirm_shift[0] = 3;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.blamed, -1);
	assert_prefix(s.result, "No single first bad point: the confirm shows p4 -> p5");
	assert_non_null(strstr(s.result, "; the good end p0 moved while the bisection ran (+2.94 %"));
	assert_non_null(strstr(s.result, "so no patch is blamed"));
	assert_string_equal(s.checks[1], "good end 0 0 moved");
	/* ... and the last good point no longer looks like it. */
	assert_string_equal(s.checks[3], "last good 0 4 differs");
	script_free(&s);
}

/* The walk saw a step at p5 that the confirm does not show (p5 measures as
 * p4 there): no step after every look of the confirm (6 rounds). */
static void test_no_step(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 5);
	s.confirm_shift[5] = -20;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.blamed, -1);
	assert_prefix(s.result, "No single first bad point: the confirm shows no step: p4 -> p5");
	assert_non_null(strstr(s.result, "over 6 + 6 fresh interleaved iterations"));
	assert_int_equal(s.n_confirm[5], 6);
	assert_string_equal(s.checks[0], "confirm 4 5 no step");
	assert_string_equal(s.checks[4], "first bad 8 5 differs");
	script_free(&s);
}

/* A flat series: the ends are looked at 3 times (3, 5, 6 iterations), then
 * refused; nothing else is measured. */
static void test_flat(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 5, 5);
	assert_int_equal(run(&s), 1);
	assert_string_equal(s.status, "refused");
	assert_prefix(s.result, "No regression to bisect: f:value op 0 (cell default), p0 ");
	assert_int_equal(s.calls, 6);
	int more[] = {0, 0, 2, 2, 1, 1};
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(s.call[i].k, i % 2 ? 4 : 0);
		assert_int_equal(s.call[i].more, more[i]);
	}
	assert_int_equal(s.n_points, 0);
	script_free(&s);
}

/* A step of 0.5 %, significant (the offsets are 0.27 % spread) but below
 * the 1 % minimum effect: no regression to bisect, saying why. */
static void test_below_min_effect(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 5, 3);
	for (size_t k = 3; k < 5; k++)
		s.mean[k] = 100.5;
	for (size_t k = 0; k < 5; k++)
		s.spread[k] = 0.1;
	assert_int_equal(run(&s), 1);
	assert_non_null(strstr(s.result, "less than the minimum effect 1 %"));
	script_free(&s);
}

/* p4 (mean 110, its offsets 30 times wider) differs from neither end after
 * every look: skipped as ambiguous; p3 good, p5 bad, and the range they
 * leave is no answer: p4 stayed ambiguous. */
static void test_ambiguous(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 5);
	s.mean[4] = 110;
	s.spread[4] = 30;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.points[4].verdict, BISECT_SKIP);
	assert_int_equal(s.points[4].look, 3);
	assert_string_equal(s.reasons[4], "ambiguous after 6 iteration(s) (the config's max):"
					  " neither end's rule holds");
	assert_int_equal(s.n_walk[4], 6);
	assert_int_equal(s.blamed, -1);
	assert_prefix(s.result, "No single first bad point: the change is in p3..p5, but p4 stayed"
				" ambiguous");
	script_free(&s);
}

/* p4 and p5 both ambiguous in the range p3..p6 the walk leaves: the
 * result names both, not just the first. */
static void test_two_ambiguous(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 6);
	s.mean[4] = s.mean[5] = 110;
	s.spread[4] = s.spread[5] = 30;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.points[4].verdict, BISECT_SKIP);
	assert_int_equal(s.points[5].verdict, BISECT_SKIP);
	assert_int_equal(s.blamed, -1);
	assert_prefix(s.result, "No single first bad point: the change is in p3..p6, but p4, p5"
				" stayed ambiguous (each differs from neither end at its alpha)");
	script_free(&s);
}

/* p4's run fails: skipped with the run's reason and stepped around; the
 * step at p6 is still named. A run that fails is no ambiguity: a range
 * with a failed point would be blamed. */
static void test_failed_point(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 6);
	s.fail_k = 4;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.points[4].verdict, BISECT_SKIP);
	assert_string_equal(s.reasons[4], "run 7 failed: boom");
	assert_int_equal(s.blamed, 6);
	assert_prefix(s.result, "First bad point: p6 (confirmed: p5 -> p6");
	script_free(&s);

	script_init(&s, 9, 5);
	s.fail_k = 4;
	assert_int_equal(run(&s), 0);
	assert_int_equal(s.blamed, 5);
	assert_prefix(s.result, "The change is in a range: after p3 (k 3, good) up to p5 (k 5,"
				" bad); skipped in between: p4 (confirmed: p3 -> p5");
	script_free(&s);
}

/* A measurement that stops (an interrupt) stops the bisection: no result. */
static void test_stop(void **state)
{
	(void)state;
	struct script s;
	script_init(&s, 9, 5);
	s.stop_at = 5;
	assert_int_equal(run(&s), -1);
	assert_null(s.result);
	assert_int_equal(s.calls, 6);
	script_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_step),
		cmocka_unit_test(test_gradual),
		cmocka_unit_test(test_beyond),
		cmocka_unit_test(test_two_ambiguous),
		cmocka_unit_test(test_end_moved),
		cmocka_unit_test(test_no_step),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_below_min_effect),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_failed_point),
		cmocka_unit_test(test_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
