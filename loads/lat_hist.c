#include "lat_hist.h"

#include <math.h>
#include <string.h>

#include "util.h"

const struct lat_op lat_ops[] = {
	{"p50", 50.0},
	{"p90", 90.0},
	{"p99", 99.0},
	{"p99.9", 99.9},
	{"max", 100.0},
};
const size_t n_lat_ops = sizeof(lat_ops) / sizeof(lat_ops[0]);

void lat_hist_init(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

size_t lat_hist_index(uint64_t ns)
{
	if (ns < 2 * LAT_HIST_SUB)
		return (size_t)ns;
	if (ns >= (1ULL << LAT_HIST_MAX_BITS))
		return LAT_HIST_NBUCKETS - 1;
	unsigned msb = 63 - (unsigned)__builtin_clzll(ns);
	unsigned shift = msb - LAT_HIST_SUB_BITS;
	return (size_t)(shift + 1) * LAT_HIST_SUB + (size_t)((ns >> shift) & (LAT_HIST_SUB - 1));
}

uint64_t lat_hist_bucket_low(size_t idx)
{
	if (idx < 2 * LAT_HIST_SUB)
		return idx;
	unsigned shift = (unsigned)(idx / LAT_HIST_SUB) - 1;
	return (uint64_t)(LAT_HIST_SUB + idx % LAT_HIST_SUB) << shift;
}

uint64_t lat_hist_bucket_width(size_t idx)
{
	if (idx < 2 * LAT_HIST_SUB)
		return 1;
	return 1ULL << ((unsigned)(idx / LAT_HIST_SUB) - 1);
}

void lat_hist_add(struct lat_hist *h, uint64_t ns)
{
	h->bucket[lat_hist_index(ns)]++;
	h->count++;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	if (!src->count)
		return;
	for (size_t i = 0; i < LAT_HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

double lat_hist_percentile_ns(const struct lat_hist *h, double pct)
{
	if (!h->count || !(pct > 0.0) || pct > 100.0)
		return NAN;
	if (pct == 100.0)
		return (double)h->max_ns;
	/* Nearest rank; the small epsilon keeps 99.9% of 1000 at rank 999. */
	uint64_t rank = (uint64_t)ceil(pct / 100.0 * (double)h->count - 1e-9);
	if (rank < 1)
		rank = 1;
	uint64_t cum = 0;
	size_t i;
	for (i = 0; i < LAT_HIST_NBUCKETS; i++) {
		cum += h->bucket[i];
		if (cum >= rank)
			break;
	}
	if (i == LAT_HIST_NBUCKETS)
		return (double)h->max_ns;
	double v = (double)lat_hist_bucket_low(i) + (double)(lat_hist_bucket_width(i) - 1) / 2.0;
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return v;
}

void lat_hist_print_us(const struct lat_hist *h, const char *metric, FILE *f)
{
	if (!h->count)
		return;
	for (size_t i = 0; i < n_lat_ops; i++) {
		char num[64];
		fmt_double(num, sizeof(num), lat_hist_percentile_ns(h, lat_ops[i].pct) / 1000.0, 3);
		fprintf(f, "%s %s %s\n", metric, lat_ops[i].op, num);
	}
}
