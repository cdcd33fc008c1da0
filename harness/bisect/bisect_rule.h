/* The rule a bisection decides by, and the error rates it keeps.
 *
 * A comparison of two sets of samples (bisect_diff_test): the chosen test
 * (--rule welch | mann-whitney | range) gives a p; the sets "differ" when
 * p < the decision's alpha AND the means differ by at least the minimum
 * effect (--min-effect-pct): a smaller difference is no change whatever
 * its p. A point against both ends (bisect_classify): bad when it differs
 * from the good end only, good when from the bad end only (each in the
 * direction the ends moved), between when from both, else ambiguous.
 *
 * Error rates: the family-wise alpha (--alpha) covers every decision that
 * can lead to a blamed patch. It is split Bonferroni-wise into
 * D + 1 equal shares, D = ceil(log2 N) + 2 the planned decisions of a
 * series of N + 1 points (the ends, ceil(log2 N) points, the confirm):
 * each planned decision gets a share, and the one left over is a reserve
 * for decisions beyond the plan (points a skip or a between point adds):
 * the j-th of those gets share / 2^j, so all of them together never spend
 * more than the reserve. A decision that needs more iterations is looked
 * at again (top-ups) under a pre-declared group-sequential rule: at most
 * BISECT_LOOKS looks, at iteration counts fixed in advance
 * (bisect_look_target), its share spent by the Lan-DeMets
 * O'Brien-Fleming-type function 2 − 2·Phi(z_{1−share/2} / sqrt(t)), t the
 * fraction of the last look's iterations measured: next to nothing at a
 * first look of 3 iterations (where no test at these alphas has power),
 * most at the last. Each look tests at the alpha it adds, so by Bonferroni
 * over the looks the decision's false-verdict chance stays within its
 * share however many looks it takes. Why this one: the simulator
 * (bench/bisect_sim.c) measured it, while the rule was designed, against
 * the Pocock-type share·ln(1 + (e − 1)·t), which spends 42 % of the share
 * at the first look: 97.0 % of 3-sigma steps found against 93.6 %, for
 * 22 % more iterations (docs/bisect.md). Sources:
 * Bonferroni; Lan & DeMets (1983); O'Brien & Fleming (1979). */
#ifndef SCHEDRIG_BISECT_RULE_H
#define SCHEDRIG_BISECT_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "bisect.h"
#include "bisect_samples.h"
#include "stats.h"

/* Looks of one decision, at most (the first one included). */
#define BISECT_LOOKS 3
/* Rounds of the confirm at its first look, at least (the config's min
 * when that is larger). */
#define BISECT_CONFIRM_MIN 5

enum bisect_test { BISECT_TEST_WELCH, BISECT_TEST_MANN_WHITNEY, BISECT_TEST_RANGE };

/* "welch" | "mann-whitney" | "range"; parse returns -1 for anything else. */
const char *bisect_test_name(enum bisect_test t);
int bisect_test_parse(const char *s);

/* What a bisection decides by. */
struct bisect_rule {
	enum bisect_test test;
	double alpha;            /* family-wise, in (0, 0.5) */
	double min_effect_pct;   /* >= 0; NaN until the metric is decided */
	size_t n_points;         /* >= 2 */
	int n_min, n_max;        /* the points' iterations: the config's min and max */
};

/* The default minimum effect of a metric, percent, by its kind, as lkp
 * does (it asks a change of more than 1 % of a performance metric, 5 % of
 * other stats and 3 times the max of a latency before it bisects): 10 %
 * for a tail (an op or metric that is a max, or a percentile of 99 and
 * above: "max", "p99.9", max_latency), 1 % for everything else
 * (throughput, time, means, lower percentiles). */
double bisect_default_min_effect_pct(const char *metric, const char *op);

/* D, the planned decisions of r: ceil(log2(n_points − 1)) + 2. */
size_t bisect_rule_planned(const struct bisect_rule *r);

/* The alpha of a planned decision: alpha / (D + 1). */
double bisect_rule_share(const struct bisect_rule *r);

/* The alpha of the j-th inner point decided (j >= 1): the share for the
 * ceil(log2 N) planned ones, then share / 2^(j − planned). */
double bisect_rule_point_alpha(const struct bisect_rule *r, size_t j);

/* The looks of a decision whose first look has first and last has last
 * iterations: BISECT_LOOKS, fewer when there are fewer iteration counts
 * from first to last (1 + last − first; 1 when last <= first), so no two
 * looks are at the same count (a look at a count already tested would
 * spend no alpha and test at 0). */
int bisect_look_count(int first, int last);

/* Iterations at look (1..bisect_look_count) of that decision: first +
 * ceil((last − first)·(look − 1)/(looks − 1)), strictly increasing; first
 * when last <= first, last for a look beyond the count. */
int bisect_look_target(int first, int last, int look);

/* The alpha a look adds: f(now/last) − f(prev/last), f(t) = 2 −
 * 2·Phi(z_{1−share/2} / sqrt(min(t, 1))) (Lan-DeMets O'Brien-Fleming-type
 * spending; GSL's normal distribution), f(0) = 0, f(1) = share; 0 when
 * now <= prev. */
double bisect_look_alpha(double share, int prev, int now, int last);

/* One comparison of b against a. */
struct bisect_diff {
	struct stats_test t;     /* p, and statistic: t (Welch), U or z (Mann-Whitney),
				  * the gap (range) */
	double effect_pct;       /* (mean_b − mean_a)/mean_a · 100, on the mean a report
				  * shows: the Amean, for a higher-is-better metric the Hmean */
	double alpha;            /* the alpha it was tested at */
	bool significant;        /* p < alpha */
	bool differs;            /* significant and |effect_pct| >= the minimum effect */
};

/* Test ascending, summarised sets a and b (bisect_samples.h) by r's test at
 * alpha. Welch: stats_compare SIG_WELCH (on the reciprocals of a
 * higher-is-better metric); where neither side varies (every value of each
 * the same) t is undefined and the values decide: equal → t 0, p 1,
 * different → t ±inf, p 0. Mann-Whitney: stats_mann_whitney. Range:
 * stats_range_test. n < 2 on a side: not valid, not significant. */
void bisect_diff_test(const struct bisect_rule *r, double alpha, const struct bisect_sample_set *a,
		      const struct bisect_sample_set *b, struct bisect_diff *out);

/* The smallest p r's test can give at these n (0 for Welch; without ties
 * 2 / C(n_a + n_b, n_a) for an exact Mann-Whitney; stats_range_floor_p). */
double bisect_test_floor_p(enum bisect_test t, size_t n_a, size_t n_b);

/* Can r's test decide at all with the config's iterations? At n_max
 * iterations a side its smallest p (bisect_test_floor_p) must be below
 * the alpha the last look of a planned decision adds. 0, or -1 with err:
 * "--rule range: with at most 6 iterations a side its smallest p is
 * 0.002165, not below the 0.001234 a decision's last look tests at:
 * iterations max must be at least 8". */
int bisect_rule_feasible(const struct bisect_rule *r, char *err, size_t errsz);

/* A point against both ends, tested at alpha. */
struct bisect_class {
	enum bisect_verdict verdict;    /* GOOD, BAD, BETWEEN, BEYOND; UNTESTED: ambiguous */
	struct bisect_diff vs_good, vs_bad;
};

/* Classify point against good and bad (both ends decided different):
 * bad when it differs from the good end, in the direction the bad end
 * lies, and not from the bad end; good likewise the other way; between
 * when it differs from both and lies between them (toward the bad end from
 * the good one and toward the good end from the bad one), beyond when it
 * differs from both outside that interval (beyond an end: not monotone);
 * else ambiguous. */
void bisect_classify(const struct bisect_rule *r, double alpha, const struct bisect_sample_set *good,
		     const struct bisect_sample_set *bad, const struct bisect_sample_set *point,
		     struct bisect_class *out);

/* The reason stored with an inner point whose last look classified it cl
 * from iterations iterations: "ambiguous after N iteration(s) (the
 * config's max): neither end's rule holds" (a skip), "differs from both
 * ends: part of the change may be here" (between), "beyond an end (not
 * monotone): ..." (beyond), else NULL. malloc'd. */
char *bisect_class_reason(const struct bisect_class *cl, size_t iterations);

/* The rule in one paragraph for the output (the test, the minimum
 * effect, the verdicts, the family-wise alpha and its shares, the looks,
 * the confirm and the drift guard). better: the metric's direction
 * (BETTER_HIGHER adds "on the Hmean, i.e. the reciprocals" to Welch), or
 * -1 when not known yet. malloc'd. */
char *bisect_rule_describe(const struct bisect_rule *r, int better);

#endif
