#include "lat_hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "scan.h"
#include "util.h"

const struct lat_op lat_ops[] = {
	{"p50", 50.0, false},
	{"p90", 90.0, false},
	{"p95", 95.0, false},
	{"p99", 99.0, false},
	{"p99.9", 99.9, false},
	{"max", 100.0, false},
	{"mean", 0.0, true},
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
	h->sum_ns += (double)ns;
	h->sum_sq_ns2 += (double)ns * (double)ns;
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
	dst->sum_ns += src->sum_ns;
	dst->sum_sq_ns2 += src->sum_sq_ns2;
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

double lat_hist_mean_ns(const struct lat_hist *h)
{
	return h->count ? h->sum_ns / (double)h->count : NAN;
}

void lat_hist_print_us(const struct lat_hist *h, const char *metric, FILE *f)
{
	if (!h->count)
		return;
	for (size_t i = 0; i < n_lat_ops; i++) {
		char num[64];
		double ns = lat_ops[i].mean ? lat_hist_mean_ns(h) : lat_hist_percentile_ns(h, lat_ops[i].pct);
		fmt_double(num, sizeof(num), ns / 1000.0, 3);
		fprintf(f, "%s %s %s\n", metric, lat_ops[i].op, num);
	}
	fprintf(f, "%s hist.events %llu\n", metric, (unsigned long long)h->count);
	fprintf(f, "%s hist.sum %.17g\n", metric, h->sum_ns / 1e3);
	fprintf(f, "%s hist.sum_sq %.17g\n", metric, h->sum_sq_ns2 / 1e6);
	fprintf(f, "%s hist.min %llu.%03llu\n", metric, (unsigned long long)(h->min_ns / 1000),
		(unsigned long long)(h->min_ns % 1000));
	for (size_t i = 0; i < LAT_HIST_NBUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		uint64_t high = lat_hist_bucket_low(i) + lat_hist_bucket_width(i) - 1;
		fprintf(f, "%s hist.le:%llu.%03llu %llu\n", metric, (unsigned long long)(high / 1000),
			(unsigned long long)(high % 1000), (unsigned long long)h->bucket[i]);
	}
}

/* One histogram being read back. */
struct lat_hist_read {
	const struct metric_def *md;
	uint64_t events;
	double sum, sum_sq, min;
	bool has_events, has_sum, has_sum_sq, has_min;
	double *bound;
	uint64_t *count;
	size_t n, cap;
};

static struct lat_hist_read *reading(struct lat_hist_reader *r, const struct metric_def *md)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].md == md)
			return &r->v[i];
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	struct lat_hist_read *h = &r->v[r->n++];
	memset(h, 0, sizeof(*h));
	h->md = md;
	return h;
}

/* A field given once: sets *has, or -1 with why. */
static int once(bool *has, const char *what, unsigned lineno, char *why, size_t whysz)
{
	if (*has) {
		snprintf(why, whysz, "line %u: %s given twice", lineno, what);
		return -1;
	}
	*has = true;
	return 0;
}

/* Take a histogram record of md: 1 (consumed), 0 when op is not "hist.*",
 * -1 with why for a bad record. */
static int read_hist_record(struct lat_hist_reader *r, const struct metric_def *md, const char *op,
			    double value, unsigned lineno, char *why, size_t whysz)
{
	if (strncmp(op, "hist.", 5))
		return 0;
	struct lat_hist_read *h = reading(r, md);
	bool whole = value == floor(value) && value < 9007199254740992.0;
	if (!strcmp(op, "hist.events")) {
		if (!whole) {
			snprintf(why, whysz, "line %u: %s hist.events is not a whole number", lineno, md->name);
			return -1;
		}
		h->events = (uint64_t)value;
		return once(&h->has_events, "hist.events", lineno, why, whysz) ? -1 : 1;
	}
	if (!strcmp(op, "hist.sum")) {
		h->sum = value;
		return once(&h->has_sum, "hist.sum", lineno, why, whysz) ? -1 : 1;
	}
	if (!strcmp(op, "hist.sum_sq")) {
		h->sum_sq = value;
		return once(&h->has_sum_sq, "hist.sum_sq", lineno, why, whysz) ? -1 : 1;
	}
	if (!strcmp(op, "hist.min")) {
		h->min = value;
		return once(&h->has_min, "hist.min", lineno, why, whysz) ? -1 : 1;
	}
	double bound;
	if (strncmp(op, "hist.le:", 8) || !builtin_parse_value(op + 8, &bound) || !whole || value < 1 ||
	    (h->n && !(bound > h->bound[h->n - 1]))) {
		snprintf(why, whysz, "line %u: bad %s histogram record '%s' (bounds ascend, counts are"
			 " whole numbers >= 1)", lineno, md->name, op);
		return -1;
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->bound = xrealloc(h->bound, h->cap * sizeof(*h->bound));
		h->count = xrealloc(h->count, h->cap * sizeof(*h->count));
	}
	h->bound[h->n] = bound;
	h->count[h->n++] = (uint64_t)value;
	return 1;
}

/* The sample of metric with op among v, or NULL. */
static const struct sample *find_sample(const struct sample_vec *v, const char *metric,
					const char *op)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->v[i].metric, metric) && !strcmp(v->v[i].op, op))
			return &v->v[i];
	return NULL;
}

/* The value of op of metric among the samples, or NaN. */
static double sample_of(const struct sample_vec *v, const char *metric, const char *op)
{
	const struct sample *x = find_sample(v, metric, op);
	return x ? x->value : NAN;
}

static bool is_lat_op(const char *op)
{
	for (size_t i = 0; i < n_lat_ops; i++)
		if (!strcmp(op, lat_ops[i].op))
			return true;
	return false;
}

int lat_hist_read_line(struct lat_hist_reader *r, const struct metric_def *md, const char *op,
		       double value, unsigned lineno, struct sample_vec *out, char *why,
		       size_t whysz)
{
	int h = read_hist_record(r, md, op, value, lineno, why, whysz);
	if (h)
		return h < 0 ? -1 : 0;
	if (!is_lat_op(op) || find_sample(out, md->name, op))
		return parse_fail(why, whysz, "line %u: bad or repeated %s op '%s'", lineno, md->name,
				  op);
	sample_vec_add(out, md->name, md->unit, md->better, op, value);
	return 0;
}

/* Every lat_ops of md among read, or none when nothing ran. */
static int lat_ops_complete(const struct sample_vec *read, const struct metric_def *md, bool ran,
			    char *why, size_t whysz)
{
	size_t n = 0;
	for (size_t i = 0; i < read->n; i++)
		n += !strcmp(read->v[i].metric, md->name);
	if (n == n_lat_ops || (!n && !ran))
		return 0;
	return parse_fail(why, whysz, "%zu of %zu %s percentiles", n, n_lat_ops, md->name);
}

/* The lat_ops of metric among v that are there, in order: every
 * percentile up to max never decreasing, and mean at most max. */
static int lat_ops_order(const struct sample_vec *v, const char *metric, char *why, size_t whysz)
{
	struct order_stat s[8];
	size_t n = 0;
	for (size_t i = 0; i < n_lat_ops && n < 8; i++) {
		double x = sample_of(v, metric, lat_ops[i].op);
		if (!lat_ops[i].mean && !isnan(x))
			s[n++] = (struct order_stat){lat_ops[i].op, x};
	}
	const struct order_stat mean[] = {{"mean", sample_of(v, metric, "mean")},
					  {"max", sample_of(v, metric, "max")}};
	if (order_check(metric, s, n, why, whysz))
		return -1;
	return isnan(mean[0].value) ? 0 : order_check(metric, mean, 2, why, whysz);
}

/* One histogram read back against itself: every record there, its
 * buckets holding its events, its minimum in its first bucket, and its sum
 * between min·events and max·events (max: the metric's max op, else its
 * last bucket's bound), allowing the 3 decimals max is printed with and
 * the doubles' rounding. 0, or -1 with why naming the check that failed. */
static int hist_check(const struct lat_hist_read *h, double max, char *why, size_t whysz)
{
	const char *name = h->md->name;
	uint64_t total = 0;
	for (size_t k = 0; k < h->n; k++)
		total += h->count[k];
	if (!h->has_events || !h->has_sum || !h->has_sum_sq || !h->has_min || !h->n)
		return parse_fail(why, whysz, "%s histogram lacks hist.events, hist.sum, hist.sum_sq,"
				  " hist.min or its buckets", name);
	if (total != h->events)
		return parse_fail(why, whysz, "%s histogram: hist.events %llu but %llu in its buckets",
				  name, (unsigned long long)h->events, (unsigned long long)total);
	if (h->min > h->bound[0])
		return parse_fail(why, whysz, "%s histogram: hist.min %g above its first bucket"
				  " (values at most %g)", name, h->min, h->bound[0]);
	if (isnan(max))
		max = h->bound[h->n - 1];
	double n = (double)h->events, tol = 0.0005 * n + 1e-9 * max * n;
	if (!isfinite(h->sum) || !isfinite(h->sum_sq))
		return parse_fail(why, whysz, "%s histogram: hist.sum or hist.sum_sq is not finite",
				  name);
	if (h->sum < h->min * n - tol)
		return parse_fail(why, whysz, "%s histogram: hist.sum %.17g is below hist.min x"
				  " hist.events (%g)", name, h->sum, h->min * n);
	if (h->sum > max * n + tol)
		return parse_fail(why, whysz, "%s histogram: hist.sum %.17g is above max x hist.events"
				  " (%g)", name, h->sum, max * n);
	return 0;
}

int lat_hist_read_finish(const struct lat_hist_reader *r, const struct metric_def *const *mds,
			 size_t n_mds, bool ran, const struct sample_vec *read,
			 struct sample_vec *out, char *why, size_t whysz)
{
	for (size_t i = 0; i < n_mds; i++)
		if (lat_ops_complete(read, mds[i], ran, why, whysz))
			return -1;
	for (size_t i = 0; i < read->n; i++)
		if (!strcmp(read->v[i].op, "max") && lat_ops_order(read, read->v[i].metric, why, whysz))
			return -1;
	for (size_t i = 0; i < r->n; i++)
		if (hist_check(&r->v[i], sample_of(read, r->v[i].md->name, "max"), why, whysz))
			return -1;
	for (size_t i = 0; i < r->n; i++) {
		const struct lat_hist_read *h = &r->v[i];
		struct sample_hist *s = sample_vec_add_hist(out, h->md->name, h->md->unit, "", 0, h->count,
							    h->n, 0, h->bound[h->n - 1],
							    sample_of(read, h->md->name, "max"));
		sample_hist_set_bounds(s, h->bound);
		s->min_observed = h->min;
		s->sum = h->sum;
		s->sum_sq = h->sum_sq;
	}
	sample_vec_append(out, read);
	return 0;
}

void lat_hist_read_free(struct lat_hist_reader *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].bound);
		free(r->v[i].count);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
