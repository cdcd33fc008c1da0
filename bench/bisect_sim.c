/* Bisection simulator (issue 26), built by `make build/bench/bisect_sim`,
 * run by bench/bisect-sim.sh: BISECTIONS bisections per scenario, each
 * through the rig's own decision procedure (bisect_engine.h, with
 * bisect_rule.h: the walk, its looks, the confirm and the drift guard)
 * with a measurement callback that draws synthetic samples instead of
 * running schedrig run; and, for comparison, the rule of schedrig before
 * it (main's bisect_classify and walk, transcribed below: Welch at alpha
 * against both ends, nearer end by |t|, one top-up to the max, no confirm)
 * over the same series.
 *
 * A series: POINTS points (default 17, a 16-patch series), a sample of
 * point k drawn N(mu_k + drift, SIGMA) (Box-Muller over xoshiro256**),
 * mean 100, SIGMA 1 by default (a CoeffVar of 1 %, hackbench's on a quiet
 * machine); a lower-is-better time, so the default minimum effect is 1 %;
 * iterations min 3, max 10 as the README's example; alpha 0.05. Scenarios:
 *   null          every point 100 (ends equal)
 *   step-1s ..3s  100 before a step at a random k* in 1..N, 100 + 1, 2, 3
 *                 SIGMA from it
 *   gradual       100 + 8·k/N: the 100..108, spread over the series
 *   machine-null  every point 100, the machine drifting by +0.06 SIGMA per
 *                 iteration measured (+3 SIGMA after 50)
 *   machine-3s    a 3 SIGMA step and that drifting machine
 *   two-steps     +3 SIGMA at k1 and again at k2 > k1, both random
 * Rules: the rig's procedure with each of its tests (--rule welch,
 * mann-whitney, range: bisect_rule.h), and main's. Per scenario and rule: correct (the result names a point where the mean
 * steps, or a range holding one), wrong (any other point or range; any
 * point at all where nothing steps), no answer (refused, or no single
 * first bad point), and mean runs per bisection: iterations measured over
 * all points (the unit a bisection's machine time is made of; main's rule
 * and this one run the same iterations per schedrig run).
 *
 * usage: bisect_sim [BISECTIONS [SEED [POINTS [SIGMA]]]]
 * Prints one line per scenario and rule:
 *   SCENARIO RULE correct=% wrong=% none=% runs=MEAN
 * RULE welch | mann-whitney | range | main. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "bisect_engine.h"
#include "bisect_rule.h"
#include "bisect_samples.h"
#include "stats.h"
#include "util.h"

#define MEAN 100.0
#define N_MIN 3
#define N_MAX 10
#define ALPHA 0.05
#define MACHINE_DRIFT 0.06  /* SIGMA per iteration */

enum scenario { NUL, STEP1, STEP2, STEP3, GRADUAL, MACHINE_NULL, MACHINE3, TWO_STEPS, N_SCENARIOS };
static const char *const scenario_names[] = {
	"null", "step-1s", "step-2s", "step-3s", "gradual", "machine-null", "machine-3s",
	"two-steps",
};

/* xoshiro256** (Blackman & Vigna 2018), seeded by splitmix64. */
static uint64_t rng[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t next_u64(void)
{
	uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
	rng[2] ^= rng[0];
	rng[3] ^= rng[1];
	rng[1] ^= rng[2];
	rng[0] ^= rng[3];
	rng[2] ^= t;
	rng[3] = rotl(rng[3], 45);
	return r;
}

static void seed_rng(uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		rng[i] = z ^ (z >> 31);
	}
}

static double uniform01(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

/* The values drawn of one point in one phase. */
struct draws {
	double *v;
	size_t n, cap;
};

/* One synthetic series and the samples drawn from it so far. */
struct series {
	size_t n;
	double sigma;
	double *mu;
	bool *steps;        /* steps[k]: the mean moves from k-1 to k */
	bool machine;       /* the machine drifts */
	long drawn;         /* iterations measured so far */
	struct draws walk[64], confirm[64];
};

static double draw(struct series *s, size_t k)
{
	double drift = s->machine ? MACHINE_DRIFT * s->sigma * (double)s->drawn : 0;
	s->drawn++;
	return s->mu[k] + drift + s->sigma * normal();
}

static void make_series(struct series *s, enum scenario sc, size_t n, double sigma)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->sigma = sigma;
	s->mu = xcalloc(n, sizeof(*s->mu));
	s->steps = xcalloc(n, sizeof(*s->steps));
	size_t k1 = 1 + next_u64() % (n - 1), k2 = k1;
	while (sc == TWO_STEPS && k2 == k1)
		k2 = 1 + next_u64() % (n - 1);
	if (k2 < k1) {
		size_t t = k1;
		k1 = k2;
		k2 = t;
	}
	double height = sc == STEP1 ? 1 : sc == STEP2 ? 2 : 3;
	s->machine = sc == MACHINE_NULL || sc == MACHINE3;
	for (size_t k = 0; k < n; k++) {
		s->mu[k] = MEAN;
		if (sc == GRADUAL)
			s->mu[k] += 8.0 * (double)k / (double)(n - 1);
		else if (sc != NUL && sc != MACHINE_NULL && k >= k1)
			s->mu[k] += height * sigma;
		if (sc == TWO_STEPS && k >= k2)
			s->mu[k] += height * sigma;
	}
	if (sc != NUL && sc != MACHINE_NULL && sc != GRADUAL)
		s->steps[k1] = true;
	if (sc == TWO_STEPS)
		s->steps[k2] = true;
}

static void free_series(struct series *s)
{
	for (size_t k = 0; k < s->n; k++) {
		free(s->walk[k].v);
		free(s->confirm[k].v);
	}
	free(s->mu);
	free(s->steps);
}

/* The sorted, summarised set of values v (n). */
static void to_set(const double *v, size_t n, struct bisect_sample_set *set)
{
	memset(set, 0, sizeof(*set));
	set->v = xcalloc(n ? n : 1, sizeof(*set->v));
	memcpy(set->v, v, n * sizeof(*v));
	set->n = set->iterations = n;
	set->better = BETTER_LOWER;
	snprintf(set->unit, sizeof(set->unit), "s");
	stats_sort(set->v, n);
	stats_summarise(set->v, n, BETTER_LOWER, &set->sum);
}

static void add_draws(struct series *s, size_t k, bool confirm, int count)
{
	struct draws *l = confirm ? &s->confirm[k] : &s->walk[k];
	for (int i = 0; i < count; i++) {
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 16;
			l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
		}
		l->v[l->n++] = draw(s, k);
	}
}

/* --- the rig's procedure over the synthetic series ------------------- */

struct sim_ctx {
	struct series *s;
	long blamed;
	bool range;
	size_t last_good, first_bad;
};

static int sim_measure(void *ctx, size_t k, enum bisect_phase phase, int nth, int more,
		       struct bisect_sample_set *set, char **why)
{
	struct series *s = ((struct sim_ctx *)ctx)->s;
	(void)nth;
	(void)why;
	bool confirm = phase == BISECT_PHASE_CONFIRM;
	add_draws(s, k, confirm, more ? more : N_MIN);
	struct draws *l = confirm ? &s->confirm[k] : &s->walk[k];
	to_set(l->v, l->n, set);
	return 0;
}

static double sim_min_effect(void *ctx, const struct bisect_sample_set *good)
{
	(void)ctx;
	(void)good;
	return bisect_default_min_effect_pct("time", "0");
}

static int sim_point(void *ctx, const struct bisect_point_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

static int sim_check(void *ctx, const struct bisect_check *c)
{
	struct sim_ctx *x = ctx;
	if (!strcmp(c->what, "confirm")) {
		x->last_good = c->k_a;
		x->first_bad = c->k_b;
	}
	return 0;
}

static int sim_result(void *ctx, const struct bisect_outcome *o)
{
	struct sim_ctx *x = ctx;
	x->blamed = o->blamed;
	x->range = o->range;
	return 0;
}

/* What a result names: 1 correct, -1 wrong, 0 nothing. A range is
 * (last_good, first_bad]. */
static int judge(const struct series *s, long blamed, bool range, size_t last_good)
{
	if (blamed < 0)
		return 0;
	size_t from = range ? last_good + 1 : (size_t)blamed;
	for (size_t k = from; k <= (size_t)blamed; k++)
		if (s->steps[k])
			return 1;
	return -1;
}

static int run_rig(struct series *s, struct bisect_series *names, enum bisect_test test)
{
	struct bisect_rule r = {test, ALPHA, NAN, s->n, N_MIN, N_MAX};
	struct bisect_metric m = {"sim", "time", "0", "default"};
	struct sim_ctx x = {.s = s, .blamed = -1};
	struct bisect_ops ops = {&x, sim_measure, sim_min_effect, NULL, sim_point, sim_check,
				 sim_result};
	struct bisect_search search;
	bisect_search_init(&search, s->n);
	if (bisect_engine_run(&r, names, &m, &ops, &search) < 0) {
		fprintf(stderr, "bisect_sim: the procedure stopped\n");
		exit(1);
	}
	bisect_search_free(&search);
	return judge(s, x.blamed, x.range, x.last_good);
}

/* --- main's rule, transcribed: Welch at alpha vs both ends, nearer by
 * |t|, ambiguous → the rest of the max, then skip; no confirm ---------- */

static void main_test(const struct bisect_sample_set *a, const struct bisect_sample_set *b,
		      struct stats_test *t)
{
	stats_compare(SIG_WELCH, ALPHA, BETTER_LOWER, a->v, &a->sum, b->v, &b->sum, t);
}

static enum bisect_verdict main_classify(const struct bisect_sample_set *g,
					 const struct bisect_sample_set *b,
					 const struct bisect_sample_set *p)
{
	struct stats_test vg, vb;
	main_test(g, p, &vg);
	main_test(b, p, &vb);
	if (!vg.valid || !vb.valid)
		return BISECT_UNTESTED;
	double tg = fabs(vg.statistic), tb = fabs(vb.statistic);
	int nearer = tg < tb ? -1 : tb < tg ? 1 : 0;
	if (vg.p < ALPHA && nearer > 0)
		return BISECT_BAD;
	if (vb.p < ALPHA && nearer < 0)
		return BISECT_GOOD;
	return BISECT_UNTESTED;
}

static int run_main(struct series *s)
{
	struct bisect_sample_set set[2], p;
	size_t ends[2] = {0, s->n - 1};
	for (int i = 0; i < 2; i++) {
		add_draws(s, ends[i], false, N_MIN);
		to_set(s->walk[ends[i]].v, s->walk[ends[i]].n, &set[i]);
	}
	struct stats_test t;
	main_test(&set[0], &set[1], &t);
	int verdict = 0;
	if (t.valid && t.p < ALPHA) {
		struct bisect_search search;
		bisect_search_init(&search, s->n);
		search.v[0] = BISECT_GOOD;
		search.v[s->n - 1] = BISECT_BAD;
		long k;
		while ((k = bisect_search_next(&search)) >= 0) {
			add_draws(s, (size_t)k, false, N_MIN);
			to_set(s->walk[k].v, s->walk[k].n, &p);
			enum bisect_verdict v = main_classify(&set[0], &set[1], &p);
			bisect_sample_set_free(&p);
			if (v == BISECT_UNTESTED) {
				add_draws(s, (size_t)k, false, N_MAX - N_MIN);
				to_set(s->walk[k].v, s->walk[k].n, &p);
				v = main_classify(&set[0], &set[1], &p);
				bisect_sample_set_free(&p);
			}
			search.v[k] = v == BISECT_UNTESTED ? BISECT_SKIP : v;
		}
		struct bisect_result r;
		bisect_search_result(&search, &r);
		verdict = judge(s, (long)r.first_bad, !r.exact, r.last_good);
		bisect_search_free(&search);
	}
	bisect_sample_set_free(&set[0]);
	bisect_sample_set_free(&set[1]);
	return verdict;
}

int main(int argc, char **argv)
{
	long long bisections = 1000, seed = 1, points = 17;
	double sigma = 1;
	if (argc > 5 || (argc > 1 && (!parse_ll(argv[1], &bisections) || bisections < 1)) ||
	    (argc > 2 && !parse_ll(argv[2], &seed)) ||
	    (argc > 3 && (!parse_ll(argv[3], &points) || points < 3 || points > 64)) ||
	    (argc > 4 && (!parse_double(argv[4], &sigma) || !(sigma > 0)))) {
		fprintf(stderr, "usage: bisect_sim [BISECTIONS [SEED [POINTS (3..64) [SIGMA]]]]\n");
		return 2;
	}
	struct bisect_series names = {"variants", NULL, 0};
	for (long long k = 0; k < points; k++) {
		char name[32];
		snprintf(name, sizeof(name), "p%lld", k);
		bisect_series_add(&names, name, name, "");
	}
	/* The rig's three rules, then main's. */
	static const char *const rule_names[] = {"welch", "mann-whitney", "range", "main"};
	for (int sc = 0; sc < N_SCENARIOS; sc++)
		for (int rule = 0; rule < 4; rule++) {
			long counts[3] = {0}, runs = 0;
			seed_rng((uint64_t)seed * 1000 + (uint64_t)sc);
			for (long long i = 0; i < bisections; i++) {
				struct series s;
				make_series(&s, (enum scenario)sc, (size_t)points, sigma);
				int v = rule == 3 ? run_main(&s)
						  : run_rig(&s, &names, (enum bisect_test)rule);
				counts[v + 1]++;
				runs += s.drawn;
				free_series(&s);
			}
			printf("%s %s correct=%.1f wrong=%.1f none=%.1f runs=%.1f\n",
			       scenario_names[sc], rule_names[rule],
			       100.0 * (double)counts[2] / (double)bisections,
			       100.0 * (double)counts[0] / (double)bisections,
			       100.0 * (double)counts[1] / (double)bisections,
			       (double)runs / (double)bisections);
			fflush(stdout);
		}
	bisect_series_free(&names);
	return 0;
}
