#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof(*x), cmp_double);
}

double stats_amean(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_gmean(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += log(x[i]);
	}
	return exp(s / (double)n);
}

double stats_stddev(const double *x, size_t n)
{
	if (n <= 1)
		return NAN;
	double mean = stats_amean(x, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

double stats_coeffvar(double stddev, double mean)
{
	if (isnan(stddev) || isnan(mean) || mean == 0)
		return NAN;
	return stddev * 100.0 / mean;
}

double stats_median_sorted(const double *sorted, size_t n)
{
	if (!n)
		return NAN;
	if (n % 2)
		return sorted[n / 2];
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

/* The i-th of n values in mmtests' order: ascending, or descending when
 * desc (higher-is-better data, sorted best first). */
static double at(const double *sorted, size_t n, bool desc, size_t i)
{
	return desc ? sorted[n - 1 - i] : sorted[i];
}

/* Σx/m over the first m values in mmtests' order (calc_amean). */
static double ordered_amean(const double *sorted, size_t n, bool desc, size_t m)
{
	if (!m)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < m; i++)
		s += at(sorted, n, desc, i);
	return s / (double)m;
}

/* m/Σ(1/x) over the first m values in mmtests' order (calc_hmean); NaN
 * when a value is <= 0. */
static double ordered_hmean(const double *sorted, size_t n, bool desc, size_t m)
{
	if (!m)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < m; i++) {
		double x = at(sorted, n, desc, i);
		if (!(x > 0))
			return NAN;
		s += 1.0 / x;
	}
	return (double)m / s;
}

/* The count of best values a BAmean-K/BHmean-K averages: int(n·K/100),
 * at least 1 (mmtests Summarise.pm runStatFunc). */
static size_t best_count(size_t n, int k)
{
	size_t m = n * (size_t)k / 100;
	return m < 1 ? 1 : m;
}

/* mmtests calc_stddev: around the Amean, sqrt(Σ(x−mean)²/(n−1)); around
 * the Hmean, sqrt(Σ(1/x−1/mean)² · mean⁴ / n). */
static double ordered_stddev(const double *sorted, size_t n, bool desc, double mean, bool harmonic)
{
	if (n <= 1 || isnan(mean))
		return NAN;
	double diff = 0;
	for (size_t i = 0; i < n; i++) {
		double x = at(sorted, n, desc, i);
		double d = harmonic ? 1.0 / x - 1.0 / mean : x - mean;
		diff += d * d;
	}
	if (!harmonic)
		return sqrt(diff / (double)(n - 1));
	return sqrt(diff * pow(mean, 4) / (double)n);
}

/* Amean and sample Stddev of the reciprocals; NaN when a value is <= 0. */
static void reciprocals(const double *sorted, size_t n, double *mean, double *stddev)
{
	*mean = *stddev = NAN;
	if (!n || !(sorted[0] > 0))
		return;
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += 1.0 / sorted[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n && n > 1; i++)
		ss += (1.0 / sorted[i] - *mean) * (1.0 / sorted[i] - *mean);
	if (n > 1)
		*stddev = sqrt(ss / (double)(n - 1));
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	if (!n || !(p > 0) || p > 100)
		return NAN;
	double r = ceil(p * (double)n / 100.0);
	size_t rank = r < 1 ? 1 : (size_t)r;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

double stats_sem(double stddev, size_t n)
{
	if (isnan(stddev) || !n)
		return NAN;
	return stddev / sqrt((double)n);
}

double stats_ci_half_t(double stddev, size_t n, double level)
{
	if (n <= 1 || isnan(stddev) || !(level > 0 && level < 1))
		return NAN;
	double t = gsl_cdf_tdist_Pinv((1.0 + level) / 2.0, (double)(n - 1));
	return t * stddev / sqrt((double)n);
}

double stats_pct_change(double base, double new_value, enum better better)
{
	if (isnan(base) || isnan(new_value))
		return NAN;
	if (better == BETTER_HIGHER) {
		if (new_value == base || new_value == 0)
			return 0;
		if (base == 0)
			return 100;
		return new_value * 100.0 / base - 100.0;
	}
	if (new_value == base)
		return 0;
	if (new_value == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100.0 - new_value * 100.0 / base;
}

void stats_summarise(const double *sorted, size_t n, enum better better,
		     struct stats_summary *out)
{
	bool desc = better == BETTER_HIGHER;
	out->n = n;
	out->min = n ? sorted[0] : NAN;
	out->max = n ? sorted[n - 1] : NAN;
	out->amean = ordered_amean(sorted, n, desc, n);
	out->gmean = stats_gmean(sorted, n);
	out->hmean = ordered_hmean(sorted, n, desc, n);
	out->median = stats_median_sorted(sorted, n);
	out->stddev = ordered_stddev(sorted, n, desc, out->amean, false);
	out->coeffvar = stats_coeffvar(out->stddev, out->amean);
	out->bamean50 = n ? ordered_amean(sorted, n, desc, best_count(n, 50)) : NAN;
	out->bamean95 = n ? ordered_amean(sorted, n, desc, best_count(n, 95)) : NAN;
	out->bamean99 = n ? ordered_amean(sorted, n, desc, best_count(n, 99)) : NAN;
	out->hstddev = ordered_stddev(sorted, n, desc, out->hmean, true);
	out->hcoeffvar = stats_coeffvar(out->hstddev, out->hmean);
	out->bhmean50 = n ? ordered_hmean(sorted, n, desc, best_count(n, 50)) : NAN;
	out->bhmean95 = n ? ordered_hmean(sorted, n, desc, best_count(n, 95)) : NAN;
	out->bhmean99 = n ? ordered_hmean(sorted, n, desc, best_count(n, 99)) : NAN;
	reciprocals(sorted, n, &out->recip_amean, &out->recip_stddev);
	out->sem = stats_sem(out->stddev, n);
	out->ci95_half = stats_ci_half_t(out->stddev, n, 0.95);
}

/* Each test's name (as --significance spells it) and what a table's
 * footnote says of it. */
static const struct {
	const char *name, *description;
} sig_info[] = {
	[SIG_WELCH] = {"welch", "Welch's two-sample t-test (two-sided, Welch-Satterthwaite df)"},
	[SIG_CI_OVERLAP] = {"ci-overlap",
			    "non-overlapping intervals mean +- z*Stddev (mmtests CI-overlap rule)"},
	[SIG_MANN_WHITNEY] = {"mann-whitney", "Mann-Whitney U test (two-sided)"},
	[SIG_NONE] = {"none", "no significance test"},
};

const char *stats_significance_name(enum stats_significance s)
{
	return (unsigned)s <= SIG_NONE ? sig_info[s].name : "?";
}

int stats_significance_parse(const char *s)
{
	for (int i = 0; i <= SIG_NONE; i++)
		if (!strcmp(s, sig_info[i].name))
			return i;
	return -1;
}

const char *stats_significance_describe(enum stats_significance s)
{
	return sig_info[(unsigned)s <= SIG_NONE ? s : SIG_NONE].description;
}

static void test_invalid(struct stats_test *out)
{
	out->valid = false;
	out->significant = false;
	out->exact = false;
	out->too_small = false;
	out->statistic = NAN;
	out->df = NAN;
	out->p = NAN;
}

void stats_welch(double mean_a, double sd_a, size_t n_a,
		 double mean_b, double sd_b, size_t n_b, double alpha,
		 struct stats_test *out)
{
	test_invalid(out);
	if (n_a < 2 || n_b < 2 || isnan(mean_a) || isnan(mean_b) || isnan(sd_a) || isnan(sd_b))
		return;
	double va = sd_a * sd_a / (double)n_a, vb = sd_b * sd_b / (double)n_b;
	out->valid = true;
	if (va + vb == 0) {
		out->statistic = mean_a == mean_b ? 0 : copysign(INFINITY, mean_b - mean_a);
		out->p = mean_a == mean_b ? 1 : 0;
	} else {
		out->statistic = (mean_b - mean_a) / sqrt(va + vb);
		out->df = (va + vb) * (va + vb) /
			  (va * va / (double)(n_a - 1) + vb * vb / (double)(n_b - 1));
		out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->statistic), out->df);
		if (out->p > 1)
			out->p = 1;
	}
	out->significant = out->p < alpha;
}

/* v rounded to 7 significant digits, as R prints a number by default
 * (mmtests reads qnorm()'s printed output back). */
static double r_printed(double v)
{
	char buf[64];
	if (!isfinite(v))
		return v;
	snprintf(buf, sizeof(buf), "%.6e", v);
	return strtod(buf, NULL);
}

double stats_meanci_q(double sd, double alpha)
{
	if (isnan(sd) || !(alpha > 0 && alpha < 1))
		return NAN;
	return r_printed(gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0) * sd);
}

double stats_cidiff(double new_mean, double new_lo, double new_hi, double base_mean,
		    double base_lo, double base_hi)
{
	double diff = new_mean - base_mean, cisum;
	if (new_mean < base_mean)
		cisum = new_hi - new_mean + base_mean - base_lo;
	else
		cisum = new_mean - new_lo + base_hi - base_mean;
	return cisum == 0 ? diff : diff / cisum;
}

void stats_ci_overlap(double mean_a, double sd_a, size_t n_a,
		      double mean_b, double sd_b, size_t n_b, double alpha,
		      struct stats_test *out)
{
	test_invalid(out);
	if (n_a < 2 || n_b < 2 || isnan(mean_a) || isnan(mean_b) || isnan(sd_a) || isnan(sd_b) ||
	    !(alpha > 0 && alpha < 1))
		return;
	double q_a = stats_meanci_q(sd_a, alpha), q_b = stats_meanci_q(sd_b, alpha);
	out->valid = true;
	out->statistic = stats_cidiff(mean_a, mean_a - q_a, mean_a + q_a, mean_b, mean_b - q_b,
				      mean_b + q_b);
	out->significant = fabs(out->statistic) > 1;
}

/* Number of arrangements giving each U = 0..n_a·n_b, no ties: the
 * coefficients of Π_{i=1..n_a} (1 − q^{n_b+i}) / (1 − q^i), the Gaussian
 * binomial [N choose n_a]_q; each step stays a polynomial with
 * non-negative coefficients. malloc'd, n_a·n_b + 1 values. */
static double *u_counts(size_t n_a, size_t n_b)
{
	size_t top = n_a * n_b;
	double *c = xcalloc(top + 1, sizeof(*c));
	c[0] = 1;
	for (size_t i = 1; i <= n_a; i++) {
		for (size_t u = top; u >= n_b + i; u--)
			c[u] -= c[u - n_b - i];
		for (size_t u = i; u <= top; u++)
			c[u] += c[u - i];
	}
	return c;
}

/* Two-sided exact p of U = u: 2·min(P(U <= u), P(U >= u)), at most 1. */
static double exact_p(size_t n_a, size_t n_b, double u)
{
	size_t top = n_a * n_b;
	double *c = u_counts(n_a, n_b), total = 0, lower = 0, upper = 0;
	for (size_t k = 0; k <= top; k++) {
		total += c[k];
		if ((double)k <= u)
			lower += c[k];
		if ((double)k >= u)
			upper += c[k];
	}
	free(c);
	double p = 2.0 * (lower < upper ? lower : upper) / total;
	return p > 1 ? 1 : p;
}

/* 2 / C(N, n_a): the smallest two-sided p any arrangement can give. */
static double smallest_p(size_t n_a, size_t n_b)
{
	double c = 1;
	for (size_t i = 1; i <= n_a; i++)
		c = c * (double)(n_b + i) / (double)i;
	return 2.0 / c;
}

void stats_mann_whitney(const double *a, size_t n_a, const double *b, size_t n_b,
			double alpha, struct stats_test *out)
{
	test_invalid(out);
	if (!n_a || !n_b)
		return;
	/* Merge the two ascending samples, giving tied runs their mean rank. */
	size_t i = 0, j = 0, rank = 0;
	double rank_sum_b = 0, tie_sum = 0;
	while (i < n_a || j < n_b) {
		double v = (j >= n_b || (i < n_a && a[i] <= b[j])) ? a[i] : b[j];
		size_t ta = 0, tb = 0;
		while (i < n_a && a[i] == v) {
			i++;
			ta++;
		}
		while (j < n_b && b[j] == v) {
			j++;
			tb++;
		}
		size_t t = ta + tb;
		if (!t)
			return; /* NaN in the input */
		double mean_rank = (double)rank + ((double)t + 1.0) / 2.0;
		rank_sum_b += mean_rank * (double)tb;
		tie_sum += (double)t * (double)t * (double)t - (double)t;
		rank += t;
	}
	double na = (double)n_a, nb = (double)n_b, N = na + nb;
	double u = rank_sum_b - nb * (nb + 1) / 2.0;
	out->valid = true;
	if (tie_sum == 0 && n_a < 50 && n_b < 50) {
		out->exact = true;
		out->too_small = smallest_p(n_a, n_b) >= alpha;
		out->statistic = u;
		out->p = exact_p(n_a, n_b, u);
	} else {
		double mu = na * nb / 2.0;
		double sigma2 = na * nb / 12.0 * ((N + 1) - tie_sum / (N * (N - 1)));
		if (!(sigma2 > 0)) {
			out->statistic = 0;
			out->p = 1;
			return;
		}
		double d = u - mu;
		double cc = d > 0 ? 0.5 : d < 0 ? -0.5 : 0;
		out->statistic = (d - cc) / sqrt(sigma2);
		out->p = 2.0 * gsl_cdf_ugaussian_Q(fabs(out->statistic));
		if (out->p > 1)
			out->p = 1;
	}
	out->significant = !out->too_small && out->p < alpha;
}

void stats_compare(enum stats_significance rule, double alpha, enum better better,
		   const double *a_sorted, const struct stats_summary *a,
		   const double *b_sorted, const struct stats_summary *b,
		   struct stats_test *out)
{
	bool harmonic = better == BETTER_HIGHER;
	switch (rule) {
	case SIG_WELCH:
		if (harmonic)
			stats_welch(a->recip_amean, a->recip_stddev, a->n, b->recip_amean,
				    b->recip_stddev, b->n, alpha, out);
		else
			stats_welch(a->amean, a->stddev, a->n, b->amean, b->stddev, b->n, alpha, out);
		return;
	case SIG_CI_OVERLAP:
		if (harmonic)
			stats_ci_overlap(a->hmean, a->hstddev, a->n, b->hmean, b->hstddev, b->n,
					 alpha, out);
		else
			stats_ci_overlap(a->amean, a->stddev, a->n, b->amean, b->stddev, b->n,
					 alpha, out);
		return;
	case SIG_MANN_WHITNEY:
		stats_mann_whitney(a_sorted, a->n, b_sorted, b->n, alpha, out);
		return;
	case SIG_NONE:
		break;
	}
	test_invalid(out);
}

int stats_hist_percentile(const struct stats_hist *h, double p, struct stats_hist_pct *out)
{
	if (!(p > 0) || p > 100)
		return -1;
	uint64_t total = h->overflow;
	for (size_t i = 0; i < h->n; i++) {
		if (i && !(h->upper[i] > h->upper[i - 1]))
			return -1;
		total += h->count[i];
	}
	if (!total)
		return -1;
	double r = ceil(p * (double)total / 100.0);
	uint64_t rank = r < 1 ? 1 : (uint64_t)r;
	if (rank > total)
		rank = total;
	uint64_t cum = 0;
	for (size_t i = 0; i < h->n; i++) {
		cum += h->count[i];
		if (cum >= rank) {
			double v = h->upper[i];
			if (!isnan(h->max_observed) && v > h->max_observed)
				v = h->max_observed;
			if (!isnan(h->min_observed) && v < h->min_observed)
				v = h->min_observed;
			out->value = v;
			out->censored = false;
			return 0;
		}
	}
	out->value = h->limit;
	out->censored = true;
	return 0;
}
