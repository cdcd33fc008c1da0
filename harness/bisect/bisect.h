/* harness/bisect/: schedrig bisect's subsystem. It owns finding the point
 * of an ordered series where a metric moved: the series (bisect_series.h:
 * one ordinary config per point, from a provider: bisect_list.c for a
 * config's bisect: points:, bisect_patches.c for a kernel build and the
 * prefixes of its patch series, bisect_git.c for builds at the commits of
 * a git range; bisect_builds.h reads kernels: for those two; ytree.h
 * writes the YAML), the engine here
 * (which point next, Welch's classification against both ends), a step
 * (bisect_step.h: `schedrig run` of a point as a child, through spawn.h),
 * the samples a verdict is decided on (bisect_samples.h), the walk from
 * both ends to the result (bisect_walk.h: begun, resumed, interrupted) and
 * the report (bisect_report.h, laid out through reportcmd like compare),
 * and the set-up between the command line and the walk (bisect_setup.h;
 * the cell and op checked before anything runs: bisect_choice.h), with the
 * checks of a stored bisection (bisect_verify.h) and its one walker
 * (bisect_owner.h).
 * It does not own its rows (store_bisect.h, beside the other store files),
 * the command line (cmd_bisect.c) or what a run is.
 *
 * The engine: which point of an ordered series to measure next, and
 * whether a measured point is good or bad. It knows nothing of what a
 * point is (a variant of a list, a kernel built with the first k patches of
 * a series, a commit): a provider (bisect_series.h) turns point k into
 * something to run, and the walk (bisect_walk.h) measures it.
 *
 * Points are 0..n-1: 0 is the good end, n-1 the bad end. As in git bisect,
 * the first bad point is sought between the highest good point below the
 * lowest bad point and that bad point; skipped points are stepped around,
 * and when only skipped points are left between them the answer is a
 * range. */
#ifndef SCHEDRIG_BISECT_H
#define SCHEDRIG_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "samples.h"
#include "stats.h"

enum bisect_verdict { BISECT_UNTESTED, BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

/* "untested" | "good" | "bad" | "skip"; parse returns -1 for anything else. */
const char *bisect_verdict_name(enum bisect_verdict v);
int bisect_verdict_parse(const char *s);

/* The verdicts of n points (n >= 2), all untested at first. */
struct bisect_search {
	size_t n;
	enum bisect_verdict *v;
};

/* Initialise s for n_points points (0 good end, n_points-1 bad end); free
 * with bisect_search_free. */
void bisect_search_init(struct bisect_search *s, size_t n_points);
void bisect_search_free(struct bisect_search *s);

/* The current window: hi the lowest bad point (n-1 while none is bad), lo
 * the highest good point below hi (0 while none is). */
void bisect_search_window(const struct bisect_search *s, size_t *lo, size_t *hi);

/* The next point to measure: the good end, then the bad end, then the
 * untested point of the window (lo, hi) nearest its middle floor((lo+hi)/2)
 * (on a tie the lower one), skipped points stepped around. -1 when nothing
 * is left to measure. Without skips a series of n points needs
 * ceil(log2(n-1)) points besides the ends. */
long bisect_search_next(const struct bisect_search *s);

/* The answer once bisect_search_next is -1: last_good and first_bad (the
 * window); exact when they are neighbours (first_bad is the first bad
 * point), else every point between them was skipped and the change is
 * somewhere in (last_good, first_bad]. */
struct bisect_result {
	size_t last_good, first_bad;
	bool exact;
};
void bisect_search_result(const struct bisect_search *s, struct bisect_result *r);

/* How a measured point compares with the two ends: Welch's two-sample
 * t-test (two-sided, stats_compare SIG_WELCH: on the Amean of a
 * lower-is-better metric, on the reciprocals, i.e. the Hmean, of a
 * higher-is-better one) of the point against each end. Where neither side
 * of a test varies (all its values equal, each side) t is undefined and the
 * values decide: equal → t 0, p 1 (not different); different → t ±inf,
 * p 0 (no spread can explain the difference). The rule
 * (bisect_rule_describe):
 *   bad  when p vs the good end < alpha and the point is nearer the bad end
 *        (bisect_nearer: it differs from good, and is nearer bad);
 *   good when p vs the bad end < alpha and it is nearer the good end;
 *   else BISECT_UNTESTED: ambiguous (different from neither end, or equally
 *        far from both), to be measured more or skipped.
 * partial is set on a good or bad point that differs from both ends (p <
 * alpha vs each): a change spread over several points. */
struct bisect_class {
	enum bisect_verdict verdict;
	bool partial;
	struct stats_test vs_good, vs_bad;
};

/* Which end the point is nearer: -1 the good end, 1 the bad end, 0 neither.
 * By the smaller |t| of its tests vs_good and vs_bad (as bisect_classify
 * makes them); when either |t| is infinite (neither side of it varies),
 * |t| cannot rank, so by the distance of the tested means (the Amean, or
 * the reciprocals' mean of a higher-is-better metric): the smaller of
 * |point − good| and |point − bad|, i.e. which side of the middle of the
 * ends' difference the point lies on. */
int bisect_nearer(enum better better, const struct stats_summary *good,
		  const struct stats_summary *bad, const struct stats_summary *point,
		  const struct stats_test *vs_good, const struct stats_test *vs_bad);

/* Classify a point. Each side is its samples sorted ascending with their
 * summary (stats_summarise); n >= 2 on every side, else the test is invalid
 * and the point ambiguous. */
void bisect_classify(double alpha, enum better better,
		     const double *good_sorted, const struct stats_summary *good,
		     const double *bad_sorted, const struct stats_summary *bad,
		     const double *point_sorted, const struct stats_summary *point,
		     struct bisect_class *out);

/* The reason the rig stores with an inner point classified cl from the
 * samples of iterations iterations: "ambiguous after N iteration(s) (the
 * config's max): neither end's rule holds" (a skip), "differs from both
 * ends: part of the change may be here" (partial), else NULL. malloc'd. */
char *bisect_class_reason(const struct bisect_class *cl, size_t iterations);

/* Do the ends differ (Welch as above, p < alpha)? out holds the test of
 * the bad end against the good one. */
bool bisect_ends_differ(double alpha, enum better better,
			const double *good_sorted, const struct stats_summary *good,
			const double *bad_sorted, const struct stats_summary *bad,
			struct stats_test *out);

/* The rule in one paragraph for the output, with alpha, e.g. "Rule:
 * Welch's two-sample t-test (two-sided, ...) of each point against both
 * ends, alpha 0.05: bad when p vs the good end < 0.05 and it is nearer the
 * bad end; ...". better: the metric's direction (BETTER_HIGHER adds "on
 * the Hmean, i.e. the reciprocals"), or -1 when it is not known (the
 * clause then says for which metrics it holds). malloc'd. */
char *bisect_rule_describe(double alpha, int better);

#endif
