#include "stats.h"

#include <math.h>
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

double stats_min(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double stats_max(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
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

double stats_hmean(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += 1.0 / x[i];
	}
	return (double)n / s;
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

double stats_bamean_sorted(const double *sorted, size_t n, enum better better, int k)
{
	if (!n || k < 1 || k > 100)
		return NAN;
	size_t m = n * (size_t)k / 100;
	if (m < 1)
		m = 1;
	if (better == BETTER_LOWER)
		return stats_amean(sorted, m);
	return stats_amean(sorted + (n - m), m);
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
	if (isnan(base) || isnan(new_value) || base == 0)
		return NAN;
	if (better == BETTER_HIGHER)
		return new_value / base * 100.0 - 100.0;
	return 100.0 - new_value / base * 100.0;
}

void stats_summarise(const double *sorted, size_t n, enum better better,
		     struct stats_summary *out)
{
	out->n = n;
	out->min = n ? sorted[0] : NAN;
	out->max = n ? sorted[n - 1] : NAN;
	out->amean = stats_amean(sorted, n);
	out->gmean = stats_gmean(sorted, n);
	out->hmean = stats_hmean(sorted, n);
	out->median = stats_median_sorted(sorted, n);
	out->stddev = stats_stddev(sorted, n);
	out->coeffvar = stats_coeffvar(out->stddev, out->amean);
	out->bamean50 = stats_bamean_sorted(sorted, n, better, 50);
	out->bamean95 = stats_bamean_sorted(sorted, n, better, 95);
	out->bamean99 = stats_bamean_sorted(sorted, n, better, 99);
	out->sem = stats_sem(out->stddev, n);
	out->ci95_half = stats_ci_half_t(out->stddev, n, 0.95);
}

static const char *const sig_names[] = {
	[SIG_WELCH] = "welch",
	[SIG_CI_OVERLAP] = "ci-overlap",
	[SIG_MANN_WHITNEY] = "mann-whitney",
	[SIG_NONE] = "none",
};

const char *stats_significance_name(enum stats_significance s)
{
	return (unsigned)s <= SIG_NONE ? sig_names[s] : "?";
}

int stats_significance_parse(const char *s)
{
	for (int i = 0; i <= SIG_NONE; i++)
		if (!strcmp(s, sig_names[i]))
			return i;
	return -1;
}

const char *stats_significance_describe(enum stats_significance s)
{
	switch (s) {
	case SIG_WELCH:
		return "Welch's two-sample t-test (two-sided, Welch-Satterthwaite df)";
	case SIG_CI_OVERLAP:
		return "non-overlapping intervals mean +- z*Stddev (mmtests CI-overlap rule)";
	case SIG_MANN_WHITNEY:
		return "Mann-Whitney U test (two-sided, normal approximation, tie-corrected)";
	case SIG_NONE:
		break;
	}
	return "no significance test";
}

static void test_invalid(struct stats_test *out)
{
	out->valid = false;
	out->significant = false;
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

void stats_ci_overlap(double mean_a, double sd_a, size_t n_a,
		      double mean_b, double sd_b, size_t n_b, double alpha,
		      struct stats_test *out)
{
	test_invalid(out);
	if (n_a < 2 || n_b < 2 || isnan(mean_a) || isnan(mean_b) || isnan(sd_a) || isnan(sd_b) ||
	    !(alpha > 0 && alpha < 1))
		return;
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2.0);
	double ci = z * sd_a + z * sd_b;
	double diff = mean_b - mean_a;
	out->valid = true;
	if (ci == 0)
		out->statistic = diff == 0 ? 0 : copysign(INFINITY, diff);
	else
		out->statistic = diff / ci;
	out->significant = fabs(out->statistic) > 1;
}

void stats_mann_whitney(const double *a, size_t n_a, const double *b, size_t n_b,
			double alpha, struct stats_test *out)
{
	test_invalid(out);
	if (n_a < 2 || n_b < 2)
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
	double mu = na * nb / 2.0;
	double sigma2 = na * nb / 12.0 * ((N + 1) - tie_sum / (N * (N - 1)));
	out->valid = true;
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
	out->significant = out->p < alpha;
}

void stats_compare(enum stats_significance rule, double alpha,
		   const double *a_sorted, const struct stats_summary *a,
		   const double *b_sorted, const struct stats_summary *b,
		   struct stats_test *out)
{
	switch (rule) {
	case SIG_WELCH:
		stats_welch(a->amean, a->stddev, a->n, b->amean, b->stddev, b->n, alpha, out);
		return;
	case SIG_CI_OVERLAP:
		stats_ci_overlap(a->amean, a->stddev, a->n, b->amean, b->stddev, b->n, alpha, out);
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
			out->value = v;
			out->censored = false;
			return 0;
		}
	}
	out->value = h->limit;
	out->censored = true;
	return 0;
}
