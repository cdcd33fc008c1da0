/* How well schedrig track's detector (harness/stats/changepoint.h, with
 * the settings track uses by default) finds changes in synthetic
 * histories of one value per revision around a mean of 100 with noise of
 * 1 %: Gaussian of sd 1 (gauss), or uniform in [-1, 1) (uniform: what
 * the fake load's spread_pct: 1 gives, sd 0.58) (bench/changepoint.sh
 * runs it):
 *   none    no change
 *   step1   one step of +1 % at a revision drawn uniformly in 10..30
 *   step2   one of +2 %
 *   step5   one of +5 %
 *   two     +3 % at a revision in 8..16 and +3 % more at one in 24..32
 *   drift   a slow drift: +5 % spread evenly over the whole history
 * For each: the share of histories with any change point (detected), the
 * share with a change point exactly at each true step (exact) and within
 * two revisions of it, the mean distance of the nearest change point to
 * the true step (located error, over histories that found one), and the
 * share with a change point more than two revisions from every true step
 * (false alarm; for "none", any change point is one). For one step, mle
 * is the share of histories in which the Gaussian maximum-likelihood
 * location of a single step (the split maximising n·m/(n+m)·(mean
 * before − mean after)², least squares) is exact: what no estimator can
 * beat by much on Gaussian noise, the yardstick for exact.
 *
 *   build/bench/changepoint HISTORIES LENGTH ALPHA PERMUTATIONS MIN_CHANGE_PCT NOISE
 * runs HISTORIES of each scenario (8 times as many of "none", whose false
 * alarms are rare: at 4000 their rate is measured to about ±0.3 % (95 %)
 * around 1 %) and prints one line per scenario: "NAME detected=F exact=F
 * near=F error=F false=F mle=F" (fractions of HISTORIES, error in
 * revisions); for "none" also binom_p=F, the one-sided binomial p of that
 * many false alarms or more if the rate were ALPHA (GSL
 * gsl_cdf_binomial_Q): a rate the test holds at alpha measures above it
 * about half the time, and binom_p >= 0.05 says the count is consistent
 * with a rate <= ALPHA. The
 * histories come from a splitmix64 stream (seed 20240601), Gaussian by
 * Box-Muller; each history's permutations have seed = its number. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "changepoint.h"
#include "util.h"

enum scenario { S_NONE, S_STEP1, S_STEP2, S_STEP5, S_TWO, S_DRIFT, S_COUNT };

static const char *const names[] = {"none", "step1", "step2", "step5", "two", "drift"};

static double uniform01(uint64_t *rng)
{
	return ((double)(changepoint_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *rng)
{
	double u = uniform01(rng), v = uniform01(rng);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static size_t draw_in(uint64_t *rng, size_t lo, size_t hi)
{
	return lo + (size_t)(uniform01(rng) * (double)(hi - lo + 1));
}

/* One history of scenario sc into x[0..n), its true steps into steps. */
static size_t history(enum scenario sc, bool uniform, uint64_t *rng, double *x, size_t n,
		      size_t *steps)
{
	static const double step_pct[] = {0, 1, 2, 5, 3, 0};
	size_t n_steps = 0;
	if (sc >= S_STEP1 && sc <= S_TWO)
		steps[n_steps++] = sc == S_TWO ? draw_in(rng, n / 5, 2 * n / 5)
					       : draw_in(rng, n / 4, 3 * n / 4);
	if (sc == S_TWO)
		steps[n_steps++] = draw_in(rng, 3 * n / 5, 4 * n / 5);
	for (size_t i = 0; i < n; i++) {
		double mean = 100;
		for (size_t k = 0; k < n_steps; k++)
			if (i >= steps[k])
				mean += step_pct[sc];
		if (sc == S_DRIFT)
			mean += 5.0 * (double)i / (double)(n - 1);
		x[i] = mean + (uniform ? 2 * uniform01(rng) - 1 : gauss(rng));
	}
	return n_steps;
}

struct tally {
	size_t detected, exact, near, located, false_alarm, mle_exact;
	double error;
};

/* The least-squares location of a single step in x[0..n) (each side at
 * least two points). */
static size_t mle_location(const double *x, size_t n)
{
	double total = 0, head = 0, best = -1;
	size_t at = 0;
	for (size_t i = 0; i < n; i++)
		total += x[i];
	for (size_t k = 1; k + 2 <= n; k++) {
		head += x[k - 1];
		double d = head / (double)k - (total - head) / (double)(n - k);
		double v = (double)k * (double)(n - k) / (double)n * d * d;
		if (k >= 2 && v > best) {
			best = v;
			at = k;
		}
	}
	return at;
}

static void score(const struct changepoint *cp, size_t n_cp, const size_t *steps, size_t n_steps,
		  struct tally *t)
{
	t->detected += n_cp > 0;
	bool all_exact = n_steps > 0, all_near = n_steps > 0, stray = false;
	for (size_t k = 0; k < n_steps; k++) {
		size_t best = SIZE_MAX;
		for (size_t c = 0; c < n_cp; c++) {
			size_t d = cp[c].index > steps[k] ? cp[c].index - steps[k] : steps[k] - cp[c].index;
			best = d < best ? d : best;
		}
		all_exact &= best == 0;
		all_near &= best <= 2;
		if (best != SIZE_MAX) {
			t->error += (double)best;
			t->located++;
		}
	}
	for (size_t c = 0; c < n_cp; c++) {
		bool close = false;
		for (size_t k = 0; k < n_steps; k++)
			close |= (cp[c].index > steps[k] ? cp[c].index - steps[k]
							 : steps[k] - cp[c].index) <= 2;
		stray |= !close;
	}
	t->exact += all_exact;
	t->near += all_near;
	t->false_alarm += stray;
}

int main(int argc, char **argv)
{
	if (argc != 7 || (strcmp(argv[6], "gauss") && strcmp(argv[6], "uniform"))) {
		fprintf(stderr, "usage: changepoint HISTORIES LENGTH ALPHA PERMUTATIONS"
			" MIN_CHANGE_PCT gauss|uniform\n");
		return 2;
	}
	bool uniform = !strcmp(argv[6], "uniform");
	size_t histories = strtoul(argv[1], NULL, 10), n = strtoul(argv[2], NULL, 10);
	struct changepoint_opts o = {.alpha = strtod(argv[3], NULL),
				     .permutations = atoi(argv[4]), .min_segment = 2};
	double min_pct = strtod(argv[5], NULL);
	double *x = xcalloc(n, sizeof(*x));
	struct changepoint *cp = xcalloc(n, sizeof(*cp));
	uint64_t rng = 20240601;
	for (int sc = 0; sc < S_COUNT; sc++) {
		struct tally t = {0};
		size_t count = sc == S_NONE ? 8 * histories : histories;
		for (size_t h = 0; h < count; h++) {
			size_t steps[2];
			size_t n_steps = history(sc, uniform, &rng, x, n, steps);
			t.mle_exact += n_steps == 1 && mle_location(x, n) == steps[0];
			o.seed = h + 1;
			size_t n_cp = changepoint_edivisive(x, n, &o, cp, NULL);
			changepoint_prune(x, n, cp, &n_cp, min_pct);
			score(cp, n_cp, steps, n_steps, &t);
		}
		double H = (double)count;
		printf("%s detected=%.4f exact=%.4f near=%.4f error=%.3f false=%.4f mle=%.4f\n",
		       names[sc], t.detected / H, t.exact / H, t.near / H,
		       t.located ? t.error / (double)t.located : NAN, t.false_alarm / H,
		       t.mle_exact / H);
		if (sc == S_NONE)
			printf("none binom_p=%.4f\n", t.false_alarm ?
			       gsl_cdf_binomial_Q((unsigned)t.false_alarm - 1, o.alpha, (unsigned)count) : 1.0);
		fflush(stdout);
	}
	free(x);
	free(cp);
	return 0;
}
