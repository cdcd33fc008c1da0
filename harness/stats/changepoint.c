/* E-divisive means with a permutation test (changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

uint64_t changepoint_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform below m (< 2^32) from the stream. */
static size_t uniform_below(uint64_t *state, size_t m)
{
	return (size_t)(((changepoint_splitmix64(state) >> 32) * (uint64_t)m) >> 32);
}

double changepoint_q(const double *x, size_t s, size_t tau, size_t kappa)
{
	if (tau < s + 2 || kappa < tau + 2)
		return NAN;
	double between = 0, within_x = 0, within_y = 0;
	for (size_t i = s; i < tau; i++)
		for (size_t j = tau; j < kappa; j++)
			between += fabs(x[i] - x[j]);
	for (size_t i = s; i < tau; i++)
		for (size_t k = i + 1; k < tau; k++)
			within_x += fabs(x[i] - x[k]);
	for (size_t j = tau; j < kappa; j++)
		for (size_t k = j + 1; k < kappa; k++)
			within_y += fabs(x[j] - x[k]);
	double n = (double)(tau - s), m = (double)(kappa - tau);
	return n * m / (n + m) *
	       (2 * between / (n * m) - 2 * within_x / (n * (n - 1)) - 2 * within_y / (m * (m - 1)));
}

/* The best split of one segment. */
struct split {
	size_t tau;   /* 0: none */
	double q;
};

/* Scratch of one detection: col[c·(L+1) + r] is the sum of |x_i − x_c|
 * over the segment's points i below r (r from the segment's start). */
struct scratch {
	double *col;
	size_t cap;
};

/* Q from its sums (changepoint.h). */
static double q_of(double between, double within_x, double within_y, size_t n, size_t m)
{
	double dn = (double)n, dm = (double)m;
	return dn * dm / (dn + dm) *
	       (2 * between / (dn * dm) - 2 * within_x / (dn * (dn - 1)) -
		2 * within_y / (dm * (dm - 1)));
}

/* Σ |x_i − x_c| over the segment's points a <= i < b (segment-relative,
 * the segment L points long). */
static double col(const struct scratch *sc, size_t L, size_t c, size_t a, size_t b)
{
	return sc->col[c * (L + 1) + b] - sc->col[c * (L + 1) + a];
}

/* The best split of x[s..e): every permitted tau, every kappa, from
 * column prefix sums of |x_i − x_j| (O(L²) time and memory, L = e − s). */
static struct split best_split(const double *x, size_t s, size_t e,
			       const struct changepoint_opts *o, struct scratch *sc)
{
	struct split best = {0, -INFINITY};
	size_t L = e - s, min = o->min_segment;
	if (L < 2 * min)
		return best;
	if (sc->cap < L * (L + 1)) {
		sc->cap = L * (L + 1);
		sc->col = xrealloc(sc->col, sc->cap * sizeof(*sc->col));
	}
	for (size_t c = 0; c < L; c++) {
		double *p = sc->col + c * (L + 1);
		p[0] = 0;
		for (size_t r = 0; r < L; r++)
			p[r + 1] = p[r] + fabs(x[s + r] - x[s + c]);
	}
	double within_x = 0;
	for (size_t t = 1; t + min <= L; t++) {
		within_x += col(sc, L, t - 1, 0, t - 1);
		if (t < min || (o->boundary && !o->boundary[s + t]))
			continue;
		double between = 0, within_y = 0;
		for (size_t k = t + 1; k <= L; k++) {
			between += col(sc, L, k - 1, 0, t);
			within_y += col(sc, L, k - 1, t, k - 1);
			if (k - t < min)
				continue;
			double q = q_of(between, within_x, within_y, t, k - t);
			if (q > best.q) {
				best.q = q;
				best.tau = s + t;
			}
		}
	}
	return best;
}

/* The largest best split over the segments cut at cuts[0..n_cuts)
 * (sorted), and in *seg which segment holds it. */
static struct split best_over(const double *x, size_t n, const size_t *cuts, size_t n_cuts,
			      const struct changepoint_opts *o, struct scratch *sc, size_t *seg)
{
	struct split best = {0, -INFINITY};
	for (size_t k = 0; k <= n_cuts; k++) {
		size_t s = k ? cuts[k - 1] : 0, e = k < n_cuts ? cuts[k] : n;
		struct split sp = best_split(x, s, e, o, sc);
		if (sp.tau && sp.q > best.q) {
			best = sp;
			if (seg)
				*seg = k;
		}
	}
	return best;
}

/* p of candidate q: R permutations within the segments (changepoint.h). */
static double permutation_p(const double *x, size_t n, const size_t *cuts, size_t n_cuts,
			    double q, const struct changepoint_opts *o, uint64_t *rng,
			    struct scratch *sc)
{
	double *w = xmalloc(n * sizeof(*w));
	memcpy(w, x, n * sizeof(*w));
	size_t as_large = 0;
	double bar = q - 1e-9 * fabs(q);
	for (int r = 0; r < o->permutations; r++) {
		for (size_t k = 0; k <= n_cuts; k++) {
			size_t s = k ? cuts[k - 1] : 0, e = k < n_cuts ? cuts[k] : n;
			for (size_t i = e - s; i-- > 1;) {
				size_t j = uniform_below(rng, i + 1);
				double t = w[s + i];
				w[s + i] = w[s + j];
				w[s + j] = t;
			}
		}
		struct split sp = best_over(w, n, cuts, n_cuts, o, sc, NULL);
		if (sp.tau && sp.q >= bar)
			as_large++;
	}
	free(w);
	return (1.0 + (double)as_large) / (o->permutations + 1.0);
}

static int by_index(const void *a, const void *b)
{
	const struct changepoint *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

size_t changepoint_edivisive(const double *x, size_t n, const struct changepoint_opts *o,
			     struct changepoint *out, struct changepoint *rejected)
{
	size_t *cuts = xcalloc(n + 1, sizeof(*cuts)), n_cuts = 0, seg = 0;
	struct scratch sc = {0};
	uint64_t rng = o->seed;
	if (rejected)
		*rejected = (struct changepoint){0};
	for (;;) {
		struct split cand = best_over(x, n, cuts, n_cuts, o, &sc, &seg);
		if (!cand.tau)
			break;
		double p = permutation_p(x, n, cuts, n_cuts, cand.q, o, &rng, &sc);
		struct changepoint cp = {cand.tau, cand.q, p, n_cuts + 1};
		if (p > o->alpha) {
			if (rejected)
				*rejected = cp;
			break;
		}
		out[n_cuts] = cp;
		memmove(cuts + seg + 1, cuts + seg, (n_cuts - seg) * sizeof(*cuts));
		cuts[seg] = cand.tau;
		n_cuts++;
	}
	free(cuts);
	free(sc.col);
	qsort(out, n_cuts, sizeof(*out), by_index);
	return n_cuts;
}

static double mean_of(const double *x, size_t a, size_t b)
{
	double sum = 0;
	for (size_t i = a; i < b; i++)
		sum += x[i];
	return sum / (double)(b - a);
}

void changepoint_levels(const double *x, size_t n, const struct changepoint *cp, size_t n_cp,
			size_t k, double *before, double *after)
{
	size_t a = k ? cp[k - 1].index : 0, b = k + 1 < n_cp ? cp[k + 1].index : n;
	*before = mean_of(x, a, cp[k].index);
	*after = mean_of(x, cp[k].index, b);
}

double changepoint_change_pct(double before, double after)
{
	if (before == 0)
		return after == 0 ? 0 : after > 0 ? INFINITY : -INFINITY;
	return (after - before) / fabs(before) * 100;
}

void changepoint_prune(const double *x, size_t n, struct changepoint *cp, size_t *n_cp,
		       double min_pct)
{
	while (*n_cp) {
		size_t weakest = 0;
		double smallest = INFINITY;
		for (size_t k = 0; k < *n_cp; k++) {
			double before, after;
			changepoint_levels(x, n, cp, *n_cp, k, &before, &after);
			double size = fabs(changepoint_change_pct(before, after));
			if (size < smallest) {
				smallest = size;
				weakest = k;
			}
		}
		if (smallest >= min_pct)
			return;
		memmove(cp + weakest, cp + weakest + 1, (*n_cp - weakest - 1) * sizeof(*cp));
		(*n_cp)--;
	}
}
