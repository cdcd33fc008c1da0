/* A bisection's decisions from its first measurement to its result, as
 * one procedure over a measurer: who measures a point (a child schedrig
 * run of its config, stored samples read back, synthetic draws) is the
 * caller's, so the walk (bisect_walk.h), the checks of a stored bisection
 * (bisect_verify.h: the same procedure over the stored samples) and the
 * simulator (bench/bisect_sim.c) share every decision.
 *
 * The procedure, with the rule of bisect_rule.h:
 *   1. the ends: each measured with the config's iterations; they must
 *      differ (at the ends' share, over its looks: the ends topped up
 *      together), else "No regression to bisect" (refused);
 *   2. the walk: the next point (bisect.h bisect_search_next) measured,
 *      classified against both ends at its alpha, looked at again with
 *      more iterations while ambiguous, then skipped; a point between
 *      (it differs from both ends) is noted and the search goes on for
 *      the span;
 *   3. the confirm and the drift guard: the last good point, the first bad
 *      one and both ends measured again in interleaved rounds (one
 *      iteration of each per round, every other round in reverse order,
 *      so a steady drift moves each point alike), at least
 *      BISECT_CONFIRM_MIN rounds (the config's min when larger), more at
 *      the confirm's looks up to the config's max while the step is not
 *      shown (after a between point only the ends, for the guard);
 *      checks: "confirm" (last good → first bad differs, in the ends'
 *      direction), "good end" and "bad end" (an end moved from its first
 *      measurement: p < the share, whatever the size), "last good"
 *      and "first bad" (each differs from its end's new measurement);
 *   4. the result: the first bad point (or the range skips leave) only
 *      when the confirm shows the step, the last good and first bad points
 *      are like their ends and neither end moved; else "No single first
 *      bad point: ..." saying which check failed, or "gradual change over
 *      pA..pB" after a between point. */
#ifndef SCHEDRIG_BISECT_ENGINE_H
#define SCHEDRIG_BISECT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "bisect.h"
#include "bisect_rule.h"
#include "bisect_samples.h"
#include "bisect_series.h"

enum bisect_phase { BISECT_PHASE_WALK, BISECT_PHASE_CONFIRM };

/* A point decided: the ends (k 0 good, N bad: vs_bad of the good end and
 * vs_good of the bad end are the ends' test; the other is not valid) or an
 * inner point at its last look. */
struct bisect_point_event {
	size_t k;
	enum bisect_verdict verdict;    /* GOOD, BAD, BETWEEN, SKIP */
	const char *reason;             /* bisect_class_reason, a failed run's; or NULL */
	const struct bisect_sample_set *set;  /* its walk samples (NULL: its run failed) */
	struct bisect_diff vs_good, vs_bad;
	int look;                       /* the look it was decided at (0: failed) */
};

/* A check of the confirm and the drift guard: b against a (the reference). */
struct bisect_check {
	const char *what;               /* "confirm", "good end", "bad end", "last good",
					 * "first bad" */
	size_t k_a, k_b;                /* the points compared (an end: twice the same) */
	const struct bisect_sample_set *a, *b;
	struct bisect_diff d;
	int rounds;                     /* the confirm's rounds measured */
	const char *outcome;            /* confirm: "step" | "no step"; an end: "held" |
					 * "moved"; last good, first bad: "same" | "differs" */
};

/* How the bisection ended. */
struct bisect_outcome {
	const char *status;             /* "complete" | "refused" */
	const char *text;               /* the result line */
	long blamed;                    /* the first bad point named; -1 none */
	bool range;                     /* a range (skips) named instead of one point */
};

/* What the procedure asks of its caller. Each callback returns 0 to go
 * on, -1 to stop the bisection (interrupted, an error, nothing stored to
 * replay: the callback has said why). */
struct bisect_ops {
	void *ctx;
	/* Measure point k: in the walk its nth measurement (1: the config's
	 * iterations, more 0; later ones more iterations), in the confirm
	 * round nth (one iteration, more 1). *set (empty on entry) receives
	 * every sample of k in that phase so far, sorted and summarised. 1
	 * when it has fewer than 2: for an inner point's first walk
	 * measurement the point is skipped with *why (malloc'd) as its
	 * reason; anywhere else the callback has said why and the bisection
	 * stops. */
	int (*measure)(void *ctx, size_t k, enum bisect_phase phase, int nth, int more,
		       struct bisect_sample_set *set, char **why);
	/* The minimum effect (percent) of the metric, asked once the good end
	 * is measured when the rule has none (NaN). */
	double (*min_effect_pct)(void *ctx, const struct bisect_sample_set *good);
	/* A line of progress for the user (may be NULL). */
	void (*say)(void *ctx, const char *line);
	int (*point)(void *ctx, const struct bisect_point_event *ev);
	int (*check)(void *ctx, const struct bisect_check *c);
	int (*result)(void *ctx, const struct bisect_outcome *o);
};

/* Run the procedure over series s (its names and labels go into the
 * texts; m names the metric there, any field may be NULL) by rule r;
 * search (initialised for s->n points, all untested) receives the
 * verdicts. 0 complete (ops->result called: a point, a range or no single
 * one), 1 refused (no regression: ops->result called), -1 stopped. */
int bisect_engine_run(const struct bisect_rule *r, const struct bisect_series *s,
		      const struct bisect_metric *m, const struct bisect_ops *ops,
		      struct bisect_search *search);

/* The result of a bisection whose ends do not differ: "No regression to
 * bisect: LOAD:METRIC op OP (cell CELL), GOOD X vs BAD Y (MEAN), TEST p = P >=
 * alpha A", or when they differ by less than the minimum effect "...,
 * TEST p = P < alpha A, but by E %, less than the minimum effect M %".
 * MEAN the mean the test compares, the Amean, or for a higher-is-better
 * metric the Hmean (Welch's t-test is then on the reciprocals, and says
 * so: "Welch's t-test on the reciprocals"). malloc'd. */
char *bisect_no_regression_text(const struct bisect_rule *r, const struct bisect_metric *m,
				const char *good, const struct bisect_sample_set *g,
				const char *bad, const struct bisect_sample_set *b,
				const struct bisect_diff *d);

#endif
