#include "bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const verdict_names[] = {
	[BISECT_UNTESTED] = "untested", [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
	[BISECT_SKIP] = "skip",
};

const char *bisect_verdict_name(enum bisect_verdict v)
{
	return verdict_names[v];
}

int bisect_verdict_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(verdict_names) / sizeof(verdict_names[0]); i++)
		if (!strcmp(s, verdict_names[i]))
			return (int)i;
	return -1;
}

void bisect_search_init(struct bisect_search *s, size_t n_points)
{
	s->n = n_points;
	s->v = xcalloc(n_points, sizeof(*s->v));
}

void bisect_search_free(struct bisect_search *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

void bisect_search_window(const struct bisect_search *s, size_t *lo, size_t *hi)
{
	*hi = s->n - 1;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k] == BISECT_BAD) {
			*hi = k;
			break;
		}
	*lo = 0;
	for (size_t k = 0; k < *hi; k++)
		if (s->v[k] == BISECT_GOOD)
			*lo = k;
}

long bisect_search_next(const struct bisect_search *s)
{
	if (s->v[0] == BISECT_UNTESTED)
		return 0;
	if (s->v[s->n - 1] == BISECT_UNTESTED)
		return (long)s->n - 1;
	size_t lo, hi;
	bisect_search_window(s, &lo, &hi);
	size_t mid = (lo + hi) / 2;
	/* Outward from the middle: mid, mid+1, mid-1, ... (lower first on a
	 * tie of distance, mid itself being the lower of the two middles). */
	for (size_t d = 0; d < hi - lo; d++) {
		size_t below = mid >= d ? mid - d : 0, above = mid + d;
		if (mid >= d && below > lo && below < hi && s->v[below] == BISECT_UNTESTED)
			return (long)below;
		if (above > lo && above < hi && s->v[above] == BISECT_UNTESTED)
			return (long)above;
	}
	return -1;
}

void bisect_search_result(const struct bisect_search *s, struct bisect_result *r)
{
	bisect_search_window(s, &r->last_good, &r->first_bad);
	r->exact = r->first_bad == r->last_good + 1;
}

/* All n values equal (sorted ascending: the first is the last). */
static bool constant(const double *sorted, size_t n)
{
	return n >= 2 && sorted[0] == sorted[n - 1];
}

/* The mean a test of a metric of direction better compares: the Amean, or
 * for a higher-is-better one the mean of the reciprocals (stats_compare). */
static double tested_mean(const struct stats_summary *s, enum better better)
{
	return better == BETTER_HIGHER ? s->recip_amean : s->amean;
}

/* Welch's test of b against a (stats_compare SIG_WELCH). When neither side
 * varies (every value of each the same) t is undefined: the values decide,
 * equal → t 0, p 1; different → t ±inf, p 0 (no spread to explain the
 * difference). Testing that on the values, not on a Stddev of 0, keeps the
 * rounding noise of a mean of equal doubles (a Stddev of 1e-14) out. */
static void test_pair(double alpha, enum better better, const double *a_sorted,
		      const struct stats_summary *a, const double *b_sorted,
		      const struct stats_summary *b, struct stats_test *out)
{
	stats_compare(SIG_WELCH, alpha, better, a_sorted, a, b_sorted, b, out);
	if (!out->valid || !constant(a_sorted, a->n) || !constant(b_sorted, b->n))
		return;
	double d = tested_mean(b, better) - tested_mean(a, better);
	out->statistic = d == 0 ? 0 : copysign(INFINITY, d);
	out->df = NAN;
	out->p = d == 0 ? 1 : 0;
	out->significant = out->p < alpha;
}

int bisect_nearer(enum better better, const struct stats_summary *good,
		  const struct stats_summary *bad, const struct stats_summary *point,
		  const struct stats_test *vs_good, const struct stats_test *vs_bad)
{
	double t_good = fabs(vs_good->statistic), t_bad = fabs(vs_bad->statistic);
	if (!isfinite(t_good) || !isfinite(t_bad)) {
		double m = tested_mean(point, better);
		t_good = fabs(m - tested_mean(good, better));
		t_bad = fabs(m - tested_mean(bad, better));
	}
	return t_good < t_bad ? -1 : t_bad < t_good ? 1 : 0;
}

void bisect_classify(double alpha, enum better better,
		     const double *good_sorted, const struct stats_summary *good,
		     const double *bad_sorted, const struct stats_summary *bad,
		     const double *point_sorted, const struct stats_summary *point,
		     struct bisect_class *out)
{
	memset(out, 0, sizeof(*out));
	test_pair(alpha, better, good_sorted, good, point_sorted, point, &out->vs_good);
	test_pair(alpha, better, bad_sorted, bad, point_sorted, point, &out->vs_bad);
	out->verdict = BISECT_UNTESTED;
	if (!out->vs_good.valid || !out->vs_bad.valid)
		return;
	int nearer = bisect_nearer(better, good, bad, point, &out->vs_good, &out->vs_bad);
	if (out->vs_good.p < alpha && nearer > 0)
		out->verdict = BISECT_BAD;
	else if (out->vs_bad.p < alpha && nearer < 0)
		out->verdict = BISECT_GOOD;
	out->partial = out->verdict != BISECT_UNTESTED && out->vs_good.p < alpha &&
		       out->vs_bad.p < alpha;
}

bool bisect_ends_differ(double alpha, enum better better,
			const double *good_sorted, const struct stats_summary *good,
			const double *bad_sorted, const struct stats_summary *bad,
			struct stats_test *out)
{
	test_pair(alpha, better, good_sorted, good, bad_sorted, bad, out);
	return out->valid && out->p < alpha;
}

char *bisect_rule_describe(double alpha, int better)
{
	/* Direction unknown (no metric decided yet): no claim on the scale. */
	const char *scale = better == BETTER_HIGHER ? " (on the Hmean, i.e. the reciprocals)" : "";
	return xasprintf("Rule: %s of each point against both ends%s, alpha %g: bad when p vs"
			 " the good end < %g and it is nearer the bad end; good when p vs the"
			 " bad end < %g and it is nearer the good end; nearer: the smaller |t|,"
			 " or where a t is infinite the mean nearer that end's. Where neither"
			 " side varies t is undefined: equal values p = 1, different p = 0."
			 " Otherwise ambiguous: more iterations up to the config's max, then"
			 " skip.",
			 stats_significance_describe(SIG_WELCH), scale, alpha, alpha, alpha);
}

char *bisect_class_reason(const struct bisect_class *cl, size_t iterations)
{
	if (cl->verdict == BISECT_UNTESTED)
		return xasprintf("ambiguous after %zu iteration(s) (the config's max): neither"
				 " end's rule holds", iterations);
	if (cl->partial)
		return xasprintf("differs from both ends: part of the change may be here");
	return NULL;
}
