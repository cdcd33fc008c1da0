/* The decision rule of a bisection and its error rates (bisect_rule.h). */
#include "bisect_rule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats_range.h"
#include "util.h"

static const char *const test_names[] = {
	[BISECT_TEST_WELCH] = "welch", [BISECT_TEST_MANN_WHITNEY] = "mann-whitney",
	[BISECT_TEST_RANGE] = "range",
};

const char *bisect_test_name(enum bisect_test t)
{
	return name_at(test_names, sizeof(test_names) / sizeof(test_names[0]), (unsigned)t);
}

int bisect_test_parse(const char *s)
{
	return name_index(test_names, sizeof(test_names) / sizeof(test_names[0]), s);
}

/* "pNN" with NN >= 99, or a name ending in "_pNN" likewise. */
static bool tail_percentile(const char *s)
{
	const char *p = strrchr(s, 'p');
	if (!p || (p != s && p[-1] != '_'))
		return false;
	char *end;
	double v = strtod(p + 1, &end);
	return end != p + 1 && !*end && v >= 99;
}

double bisect_default_min_effect_pct(const char *metric, const char *op)
{
	bool tail = !strcmp(op, "max") || !strncmp(metric, "max", 3) || strstr(metric, "_max") ||
		    tail_percentile(op) || tail_percentile(metric);
	return tail ? 10 : 1;
}

size_t bisect_rule_planned(const struct bisect_rule *r)
{
	size_t steps = 0;
	while (((size_t)1 << steps) < r->n_points - 1)
		steps++;
	return steps + 2;
}

double bisect_rule_share(const struct bisect_rule *r)
{
	return r->alpha / (double)(bisect_rule_planned(r) + 1);
}

double bisect_rule_point_alpha(const struct bisect_rule *r, size_t j)
{
	size_t planned = bisect_rule_planned(r) - 2;
	double share = bisect_rule_share(r);
	return j <= planned ? share : ldexp(share, -(int)(j - planned));
}

int bisect_look_count(int first, int last)
{
	if (last <= first)
		return 1;
	return last - first < BISECT_LOOKS - 1 ? 1 + last - first : BISECT_LOOKS;
}

int bisect_look_target(int first, int last, int look)
{
	int looks = bisect_look_count(first, last);
	if (look <= 1)
		return first;
	if (look >= looks)
		return last > first ? last : first;
	/* span >= steps, so the ceilings of span·(look − 1)/steps are distinct. */
	int span = last - first, steps = looks - 1;
	return first + (span * (look - 1) + steps - 1) / steps;
}

/* The O'Brien-Fleming-type spending function at information fraction t. */
static double spend(double share, double t)
{
	if (t <= 0)
		return 0;
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(share / 2) / sqrt(t > 1 ? 1 : t));
}

double bisect_look_alpha(double share, int prev, int now, int last)
{
	if (now <= prev || last <= 0)
		return 0;
	return spend(share, (double)now / last) - spend(share, (double)prev / last);
}

/* All n values equal (sorted ascending: the first is the last). */
static bool constant(const double *sorted, size_t n)
{
	return n >= 2 && sorted[0] == sorted[n - 1];
}

/* The mean a report shows: the Amean, or the Hmean of a higher-is-better
 * metric. */
static double shown_mean(const struct bisect_sample_set *s)
{
	return s->better == BETTER_HIGHER ? s->sum.hmean : s->sum.amean;
}

/* The mean Welch's test compares: the Amean, or the reciprocals' mean. */
static double tested_mean(const struct bisect_sample_set *s)
{
	return s->better == BETTER_HIGHER ? s->sum.recip_amean : s->sum.amean;
}

static void welch(double alpha, const struct bisect_sample_set *a,
		  const struct bisect_sample_set *b, struct stats_test *out)
{
	stats_compare(SIG_WELCH, alpha, a->better, a->v, &a->sum, b->v, &b->sum, out);
	/* Testing "neither side varies" on the values, not on a Stddev of 0,
	 * keeps the rounding noise of a mean of equal doubles out. */
	if (!out->valid || !constant(a->v, a->n) || !constant(b->v, b->n))
		return;
	double d = tested_mean(b) - tested_mean(a);
	out->statistic = d == 0 ? 0 : copysign(INFINITY, d);
	out->df = NAN;
	out->p = d == 0 ? 1 : 0;
	out->significant = out->p < alpha;
}

static void range(double alpha, const struct bisect_sample_set *a,
		  const struct bisect_sample_set *b, struct stats_test *out)
{
	struct stats_range r;
	stats_range_test(a->v, a->n, b->v, b->n, &r);
	*out = (struct stats_test){.valid = r.valid, .exact = true, .statistic = r.gap,
				   .df = NAN, .p = r.p};
	out->too_small = r.valid && stats_range_floor_p(a->n, b->n) >= alpha;
	out->significant = r.valid && r.p < alpha;
}

void bisect_diff_test(const struct bisect_rule *r, double alpha, const struct bisect_sample_set *a,
		      const struct bisect_sample_set *b, struct bisect_diff *out)
{
	memset(out, 0, sizeof(*out));
	out->alpha = alpha;
	if (a->n < 2 || b->n < 2) {
		out->t = (struct stats_test){.statistic = NAN, .df = NAN, .p = NAN};
		out->effect_pct = NAN;
		return;
	}
	switch (r->test) {
	case BISECT_TEST_WELCH:
		welch(alpha, a, b, &out->t);
		break;
	case BISECT_TEST_MANN_WHITNEY:
		stats_mann_whitney(a->v, a->n, b->v, b->n, alpha, &out->t);
		break;
	case BISECT_TEST_RANGE:
		range(alpha, a, b, &out->t);
		break;
	}
	double ma = shown_mean(a), mb = shown_mean(b);
	out->effect_pct = (mb - ma) / ma * 100;
	out->significant = out->t.valid && out->t.p < alpha;
	out->differs = out->significant && fabs(out->effect_pct) >= r->min_effect_pct;
}

double bisect_test_floor_p(enum bisect_test t, size_t n_a, size_t n_b)
{
	if (t == BISECT_TEST_RANGE)
		return stats_range_floor_p(n_a, n_b);
	if (t == BISECT_TEST_WELCH)
		return 0;
	double c = 1;
	for (size_t i = 1; i <= n_a; i++)
		c = c * (double)(n_b + i) / (double)i;
	return 2.0 / c;
}

/* The alpha the last look of a planned decision adds with n_max iterations. */
static double last_look_alpha(const struct bisect_rule *r, int n_max)
{
	int looks = bisect_look_count(r->n_min, n_max);
	int before = looks > 1 ? bisect_look_target(r->n_min, n_max, looks - 1) : 0;
	return bisect_look_alpha(bisect_rule_share(r), before, n_max, n_max);
}

int bisect_rule_feasible(const struct bisect_rule *r, char *err, size_t errsz)
{
	if (bisect_test_floor_p(r->test, (size_t)r->n_max, (size_t)r->n_max) <
	    last_look_alpha(r, r->n_max))
		return 0;
	int need = r->n_max + 1;
	while (need < 10000 && bisect_test_floor_p(r->test, (size_t)need, (size_t)need) >=
				       last_look_alpha(r, need))
		need++;
	return err_printf(err, errsz, "--rule %s: with at most %d iterations a side its smallest p"
			  " is %.4g, not below the %.4g a decision's last look tests at:"
			  " iterations max must be at least %d", bisect_test_name(r->test),
			  r->n_max, bisect_test_floor_p(r->test, (size_t)r->n_max, (size_t)r->n_max),
			  last_look_alpha(r, r->n_max), need);
}

void bisect_classify(const struct bisect_rule *r, double alpha, const struct bisect_sample_set *good,
		     const struct bisect_sample_set *bad, const struct bisect_sample_set *point,
		     struct bisect_class *out)
{
	memset(out, 0, sizeof(*out));
	bisect_diff_test(r, alpha, good, point, &out->vs_good);
	bisect_diff_test(r, alpha, bad, point, &out->vs_bad);
	/* The direction the metric moved from the good end to the bad one. */
	double dir = shown_mean(bad) - shown_mean(good);
	bool toward_bad = out->vs_good.effect_pct * dir > 0;
	bool toward_good = out->vs_bad.effect_pct * dir < 0;
	if (out->vs_good.differs && out->vs_bad.differs)
		out->verdict = toward_bad && toward_good ? BISECT_BETWEEN : BISECT_BEYOND;
	else if (out->vs_good.differs && toward_bad)
		out->verdict = BISECT_BAD;
	else if (out->vs_bad.differs && toward_good)
		out->verdict = BISECT_GOOD;
	else
		out->verdict = BISECT_UNTESTED;
}

char *bisect_class_reason(const struct bisect_class *cl, size_t iterations)
{
	if (cl->verdict == BISECT_UNTESTED)
		return xasprintf("ambiguous after %zu iteration(s) (the config's max): neither"
				 " end's rule holds", iterations);
	if (cl->verdict == BISECT_BETWEEN)
		return xasprintf("differs from both ends: part of the change may be here");
	if (cl->verdict == BISECT_BEYOND)
		return xasprintf("beyond an end (not monotone): it differs from both ends, outside"
				 " the interval between them");
	return NULL;
}

/* The test as the rule states it. */
static char *test_text(enum bisect_test t, int better)
{
	switch (t) {
	case BISECT_TEST_WELCH:
		return xasprintf("%s%s; where neither side varies t is undefined: equal values"
				 " p = 1, different p = 0", stats_significance_describe(SIG_WELCH),
				 better == BETTER_HIGHER ? " on the Hmean, i.e. the reciprocals" : "");
	case BISECT_TEST_MANN_WHITNEY:
		return xasprintf("%s", stats_significance_describe(SIG_MANN_WHITNEY));
	case BISECT_TEST_RANGE:
		break;
	}
	return xasprintf("range separation as lkp-tests bisects by (each side sorted, min(n >> 5,"
			 " 3) values trimmed off both ends, every kept value of one side beyond"
			 " every kept value of the other; p the chance of that under no change,"
			 " 2 / C(n_a + n_b, n_a) untrimmed)");
}

char *bisect_rule_describe(const struct bisect_rule *r, int better)
{
	char *test = test_text(r->test, better);
	size_t planned = bisect_rule_planned(r);
	double share = bisect_rule_share(r);
	int c_first = r->n_min > BISECT_CONFIRM_MIN ? r->n_min : BISECT_CONFIRM_MIN;
	int c_last = r->n_max > c_first ? r->n_max : c_first;
	int looks = bisect_look_count(r->n_min, r->n_max);
	char counts[64] = "";
	for (int l = 1; l <= looks; l++)
		snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts), "%s%d", l > 1 ? ", " : "",
			 bisect_look_target(r->n_min, r->n_max, l));
	char effect[64];
	if (isnan(r->min_effect_pct))
		snprintf(effect, sizeof(effect), "the minimum effect (--min-effect-pct)");
	else
		snprintf(effect, sizeof(effect), "the minimum effect, %g %%", r->min_effect_pct);
	char *text = xasprintf(
		"Rule: each point tested against both ends by %s. A point differs from an end when p <"
		" the decision's alpha and their means differ by at least %s: bad when it"
		" differs from the good end only, good when from the bad end only, between when"
		" from both (the change is not one step), else ambiguous: more iterations at the"
		" next look, then skip. Family-wise alpha %g for every decision that can blame a"
		" patch: Bonferroni over the %zu planned decisions (the ends, ceil(log2 %zu) = %zu"
		" points, the confirm) and a reserve for more points, each planned decision at"
		" %g / %zu = %.4g, the j-th point beyond the plan at %.4g / 2^j; a decision spends"
		" its alpha over at most %d look(s) at iteration counts fixed in advance (%s; each"
		" run measures exactly to its look's count, the config's ci_pct and max_time_s"
		" stop no run of a bisection; the ends get the second look's before the walk) by the O'Brien-Fleming-type function 2 - 2 Phi(z(1 -"
		" a/2) / sqrt(t)), t = iterations / %d, each look testing at the alpha it adds."
		" Confirm: the last good and first bad points measured again with"
		" both ends, interleaved (rounds of one iteration each, every other round"
		" reversed), %d rounds and up to %d at its looks; a patch is blamed only when the"
		" confirm shows the step at its share, the last good point is like the good end"
		" and the first bad like the bad end, neither end moved from its first"
		" measurement (p < %.4g, whatever the size) and no point it spans stayed"
		" ambiguous.",
		test, effect, r->alpha, planned, r->n_points - 1, planned - 2, r->alpha,
		planned + 1, share, share, looks, counts, r->n_max, c_first, c_last, share);
	free(test);
	return text;
}
