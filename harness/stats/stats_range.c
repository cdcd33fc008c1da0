/* Range separation with its exact p (stats_range.h). */
#include "stats_range.h"

#include <math.h>

size_t stats_range_margin(size_t n)
{
	size_t m = n >> 5;
	return m > 3 ? 3 : m;
}

/* ln C(n, k). */
static double ln_choose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/* The orders of n_a a's and n_b b's in which the (m_a+1)-th a comes after
 * the (n_b−m_b)-th b, over C(n_a+n_b, n_a). */
static double above_p(size_t n_a, size_t m_a, size_t n_b, size_t m_b)
{
	double total = ln_choose((double)(n_a + n_b), (double)n_a), sum = 0;
	for (size_t j = n_b - m_b; j <= n_b; j++)
		sum += exp(ln_choose((double)(m_a + j), (double)j) +
			   ln_choose((double)(n_a - m_a - 1 + n_b - j), (double)(n_b - j)) - total);
	return sum;
}

double stats_range_floor_p(size_t n_a, size_t n_b)
{
	size_t m_a = stats_range_margin(n_a), m_b = stats_range_margin(n_b);
	if (n_a <= 2 * m_a || n_b <= 2 * m_b)
		return 1;
	double p = above_p(n_a, m_a, n_b, m_b) + above_p(n_b, m_b, n_a, m_a);
	return p > 1 ? 1 : p;
}

void stats_range_test(const double *a, size_t n_a, const double *b, size_t n_b,
		      struct stats_range *out)
{
	size_t m_a = stats_range_margin(n_a), m_b = stats_range_margin(n_b);
	*out = (struct stats_range){.gap = NAN, .p = NAN};
	if (n_a <= 2 * m_a || n_b <= 2 * m_b)
		return;
	double lo_a = a[m_a], hi_a = a[n_a - 1 - m_a], lo_b = b[m_b], hi_b = b[n_b - 1 - m_b];
	if (isnan(lo_a) || isnan(hi_a) || isnan(lo_b) || isnan(hi_b))
		return;
	out->valid = true;
	out->separated = lo_b > hi_a || lo_a > hi_b;
	if (out->separated)
		out->gap = lo_b > hi_a ? lo_b - hi_a : -(lo_a - hi_b);
	out->p = out->separated ? stats_range_floor_p(n_a, n_b) : 1;
}
