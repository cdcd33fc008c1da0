/* The stored histograms of one (load, metric, op, column) pooled into one
 * distribution of every event: the bucket counts of all runs summed (one
 * per iteration, or each repetition of a repeating load; the distribution
 * of all wake-ups, as latt and schbench compute it), never an average of
 * per-run percentiles. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pooled_init(struct report_pooled *p)
{
	memset(p, 0, sizeof(*p));
	p->limit = INFINITY;
	p->min = INFINITY;
	p->max = -INFINITY;
}

void pooled_free(struct report_pooled *p)
{
	free(p->upper);
	free(p->count);
	free(p->means);
	memset(p, 0, sizeof(*p));
}

/* The upper bound of bucket i of r. */
static double row_upper(const struct hist_row *r, size_t i)
{
	return r->bounds ? r->bounds[i] : (double)i * r->bucket_width;
}

/* The mean of r's events: its exact sum over its count, else from its
 * bucket bounds; NaN without events, or with overflows and no sum. */
static double row_mean(const struct hist_row *r)
{
	uint64_t n = r->overflow;
	double s = 0;
	for (size_t i = 0; i < r->n_buckets; i++) {
		n += r->counts[i];
		s += row_upper(r, i) * (double)r->counts[i];
	}
	if (!n)
		return NAN;
	if (!isnan(r->sum))
		return r->sum / (double)n;
	return r->overflow ? NAN : s / (double)n;
}

void pooled_add(struct report_pooled *p, const struct hist_row *r)
{
	p->means = xrealloc(p->means, (p->n_hists + 1) * sizeof(*p->means));
	p->means[p->n_hists] = row_mean(r);
	size_t n = 0, i = 0, j = 0;
	double *upper = xcalloc(p->n + r->n_buckets + 1, sizeof(*upper));
	uint64_t *count = xcalloc(p->n + r->n_buckets + 1, sizeof(*count));
	/* Merge two ascending lists of (bound, count); equal bounds add up. */
	while (i < p->n || j < r->n_buckets) {
		if (j < r->n_buckets && !r->counts[j]) {
			j++;
			continue;
		}
		double b = j < r->n_buckets ? row_upper(r, j) : INFINITY;
		if (i < p->n && p->upper[i] <= b) {
			upper[n] = p->upper[i];
			count[n] = p->count[i++];
			if (upper[n] == b)
				count[n] += r->counts[j++];
		} else {
			upper[n] = b;
			count[n] = r->counts[j++];
		}
		n++;
	}
	free(p->upper);
	free(p->count);
	p->upper = upper;
	p->count = count;
	p->n = n;
	if (p->n_hists && r->limit != p->limit)
		p->limits_differ = true;
	p->limit = r->limit < p->limit ? r->limit : p->limit;
	p->overflow += r->overflow;
	p->min = isnan(r->min_observed) || isnan(p->min) ? NAN : fmin(p->min, r->min_observed);
	p->max = isnan(r->max_observed) || isnan(p->max) ? NAN : fmax(p->max, r->max_observed);
	p->shares_iteration |= p->n_hists && r->iteration == p->last_iteration;
	p->last_iteration = r->iteration;
	if (!p->n_hists++) {
		p->sum = r->sum;
		p->sum_sq = r->sum_sq;
	} else {
		p->sum += r->sum; /* NaN when one of them lacks it */
		p->sum_sq += r->sum_sq;
	}
}

uint64_t pooled_events(const struct report_pooled *p)
{
	uint64_t n = p->overflow;
	for (size_t i = 0; i < p->n; i++)
		n += p->count[i];
	return n;
}

bool pooled_mixed(const struct report_pooled *p)
{
	return p->limits_differ && p->overflow;
}

int pooled_percentile(const struct report_pooled *p, double pct, struct stats_hist_pct *out)
{
	if (!p->n_hists || pooled_mixed(p))
		return -1;
	struct stats_hist h = {
		.upper = p->upper, .count = p->count, .n = p->n, .overflow = p->overflow,
		.limit = p->limit, .max_observed = p->max, .min_observed = p->min,
	};
	return stats_hist_percentile(&h, pct, out);
}

double pooled_mean(const struct report_pooled *p)
{
	uint64_t n = pooled_events(p);
	if (!n || pooled_mixed(p))
		return NAN;
	if (!isnan(p->sum))
		return p->sum / (double)n;
	if (p->overflow)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < p->n; i++)
		s += p->upper[i] * (double)p->count[i];
	return s / (double)n;
}

double pooled_stddev(const struct report_pooled *p)
{
	uint64_t n = pooled_events(p);
	double mean = pooled_mean(p);
	if (n < 2 || isnan(mean))
		return NAN;
	double ss;
	if (!isnan(p->sum_sq)) {
		ss = p->sum_sq - p->sum * p->sum / (double)n;
		if (ss < 0)
			ss = 0; /* rounding of two nearly equal sums */
	} else {
		ss = 0;
		for (size_t i = 0; i < p->n; i++)
			ss += (double)p->count[i] * (p->upper[i] - mean) * (p->upper[i] - mean);
	}
	return sqrt(ss / (double)(n - 1));
}
