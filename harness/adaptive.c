#include "adaptive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"
#include "util.h"

/* CI half-width as % of |mean| of the finite values; NaN when n < 2. */
static double ci_pct_of(const double *values, size_t n)
{
	double *x = xcalloc(n ? n : 1, sizeof(*x));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(values[i]))
			x[k++] = values[i];
	double pct = NAN;
	if (k >= 2) {
		double mean = stats_amean(x, k);
		double half = stats_ci_half_t(stats_stddev(x, k), k, 0.95);
		if (mean != 0)
			pct = half * 100.0 / fabs(mean);
	}
	free(x);
	return pct;
}

bool adaptive_should_stop(const struct adaptive_rule *r, const double *values, size_t n,
			  double elapsed_s, char *why, size_t whysz)
{
	double pct = ci_pct_of(values, n);
	char ci[64];

	if (isnan(pct))
		snprintf(ci, sizeof(ci), "CI NaN");
	else
		snprintf(ci, sizeof(ci), "CI %.1f %%", pct);
	if (n >= (size_t)r->max) {
		snprintf(why, whysz, "%s%s", r->min == r->max ? "fixed count, " : "max reached, ", ci);
		return true;
	}
	if (r->max_time_s > 0 && elapsed_s >= r->max_time_s) {
		snprintf(why, whysz, "max_time_s %g reached, %s", r->max_time_s, ci);
		return true;
	}
	if (n < (size_t)r->min || r->ci_pct <= 0 || isnan(pct))
		return false;
	if (pct <= r->ci_pct) {
		snprintf(why, whysz, "%s <= %g %%", ci, r->ci_pct);
		return true;
	}
	return false;
}
