/* harness/bisect/: schedrig bisect's subsystem. It owns finding the point
 * of an ordered series where a metric moved: the series (bisect_series.h:
 * one ordinary config per point, from a provider: bisect_list.c for a
 * config's bisect: points:, bisect_patches.c for a kernel build and the
 * prefixes of its patch series, bisect_git.c for builds at the commits of
 * a git range; bisect_builds.h reads kernels: for those two; ytree.h
 * writes the YAML), the search here (which point next), the rule
 * (bisect_rule.h: the tests, the minimum effect, the family-wise alpha and
 * its looks), the procedure from the ends through the confirm and the
 * drift guard to the result over a measurer (bisect_engine.h), a step
 * (bisect_step.h: `schedrig run` of a point as a child, through spawn.h),
 * the samples a verdict is decided on (bisect_samples.h) and a point's
 * stored runs by phase (bisect_runs.h), the walk from both ends to the
 * result (bisect_walk.h: begun, resumed, interrupted) and
 * the report (bisect_report.h, laid out through reportcmd like compare),
 * and the set-up between the command line and the walk (bisect_setup.h;
 * the cell and op checked before anything runs: bisect_choice.h), with the
 * checks of a stored bisection (bisect_verify.h) and its one walker
 * (bisect_owner.h).
 * It does not own its rows (store_bisect.h, beside the other store files),
 * the command line (cmd_bisect.c) or what a run is.
 *
 * The search: which point of an ordered series to measure next, given
 * the verdicts so far, and what they leave. It knows nothing of what a
 * point is (a variant of a list, a kernel built with the first k patches
 * of a series, a commit) nor how a verdict is decided (bisect_rule.h): a
 * provider (bisect_series.h) turns point k into something to run, and the
 * engine (bisect_engine.h) measures it, decides it, confirms the answer.
 *
 * Points are 0..n-1: 0 is the good end, n-1 the bad end. As in git bisect,
 * the first bad point is sought between the highest good point below the
 * lowest bad point and that bad point; skipped points are stepped around,
 * and when only skipped points are left between them the answer is a
 * range. A point "between" (it differs from both ends: the metric moved
 * in more than one place, or gradually) splits the search in two: the
 * first point that differs from the good end (the lower window, where a
 * between point counts as bad) and the last one that differs from the bad
 * end (the upper window, where it counts as good); without between points
 * the two windows are one. */
#ifndef SCHEDRIG_BISECT_H
#define SCHEDRIG_BISECT_H

#include <stdbool.h>
#include <stddef.h>


enum bisect_verdict {
	BISECT_UNTESTED, BISECT_GOOD, BISECT_BAD, BISECT_SKIP, BISECT_BETWEEN, BISECT_BEYOND,
};

/* "untested" | "good" | "bad" | "skip" | "between" | "beyond" (it differs
 * from both ends and lies outside their interval: the series is not
 * monotone; the search treats it as a between point); parse returns -1 for
 * anything else. */
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

/* The lower window: hi the lowest point that is bad or between (n-1
 * while none is), lo the highest good point below hi (0 while none is).
 * Without between points it is the window of the first bad point. */
void bisect_search_window(const struct bisect_search *s, size_t *lo, size_t *hi);

/* The upper window: hi the lowest bad point (n-1 while none is), lo the
 * highest point below it that is good or between (0 while none is). */
void bisect_search_upper_window(const struct bisect_search *s, size_t *lo, size_t *hi);

/* The next point to measure: the good end, then the bad end, then the
 * untested point of the lower window (lo, hi) nearest its middle
 * floor((lo+hi)/2) (on a tie the lower one), skipped points stepped
 * around, then likewise of the upper window. -1 when nothing is left to
 * measure. Without skips and between points a series of n points needs
 * ceil(log2(n-1)) points besides the ends. */
long bisect_search_next(const struct bisect_search *s);

/* The answer once bisect_search_next is -1. Without a between point:
 * last_good and first_bad (the window), exact when they are neighbours
 * (first_bad is the first bad point), else every point between them was
 * skipped and the change is somewhere in (last_good, first_bad]. With
 * one (gradual): the metric moved over span_lo..span_hi, from the last
 * point like the good end (the lower window's lo) to the first like the
 * bad end (the upper window's hi); last_good, first_bad and exact are
 * then the lower window's. */
struct bisect_result {
	size_t last_good, first_bad;
	bool exact;
	bool gradual;           /* a between or beyond point */
	bool beyond;            /* a beyond point: not monotone */
	size_t span_lo, span_hi;
};
void bisect_search_result(const struct bisect_search *s, struct bisect_result *r);

#endif
