/* Latency histogram with bounded memory for the built-in loads (tcp-rr,
 * wakeup-lat): a log2/linear bucket layout as in fio's and schbench's
 * "plat" histograms (fio stat.h FIO_IO_U_PLAT_BITS; HdrHistogram uses the
 * same idea).
 *
 * Values are nanoseconds. Values below 2^(LAT_HIST_SUB_BITS+1) = 256 ns get
 * one bucket each (exact). Above that, every power of two [2^k, 2^(k+1)) is
 * split into 2^LAT_HIST_SUB_BITS = 128 equal buckets, so a bucket is at most
 * 1/128 (0.78%) of its lower bound wide; a percentile is reported as the
 * bucket's midpoint, i.e. within +-0.4% of a value that was recorded.
 * Values of 2^40 ns (about 18 minutes) and more land in the last bucket;
 * min, max, the sum and the sum of squares are also kept exactly (the sums
 * as doubles). The table is LAT_HIST_NBUCKETS uint64_t counters (34 KiB)
 * whatever the number of values, and has no pointers, so it can live in
 * memory shared between processes. */
#ifndef SCHEDRIG_LAT_HIST_H
#define SCHEDRIG_LAT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "load.h"
#include "samples.h"

#define LAT_HIST_SUB_BITS 7
#define LAT_HIST_SUB (1u << LAT_HIST_SUB_BITS)
#define LAT_HIST_MAX_BITS 40
/* Buckets: exact ones for [0, 2*SUB), then SUB per octave up to 2^MAX_BITS. */
#define LAT_HIST_NBUCKETS ((LAT_HIST_MAX_BITS - LAT_HIST_SUB_BITS + 1) * LAT_HIST_SUB)

struct lat_hist {
	uint64_t count;
	uint64_t min_ns, max_ns; /* exact; min_ns is UINT64_MAX while empty */
	double sum_ns, sum_sq_ns2; /* Σx and Σx² of the values */
	uint64_t bucket[LAT_HIST_NBUCKETS];
};

/* The ops both built-in loads report per latency metric, in print order:
 * "p50", "p90", "p95", "p99", "p99.9" (percent rank), "max" (exact
 * maximum) and "mean" (the true mean, sum / count). */
struct lat_op {
	const char *op;
	double pct; /* percentile in percent; 100 for max */
	bool mean;  /* the mean instead of a percentile */
};
extern const struct lat_op lat_ops[];
extern const size_t n_lat_ops;

/* Empty the histogram (it may also be zeroed memory plus this call). */
void lat_hist_init(struct lat_hist *h);
/* Record one value in nanoseconds. Not thread-safe: one writer per histogram,
 * merge afterwards. */
void lat_hist_add(struct lat_hist *h, uint64_t ns);
/* Add every count of src to dst (for per-thread histograms). */
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);
/* Bucket index of a value, and the lowest value and width (ns) of a bucket:
 * exposed for the unit test of the layout. */
size_t lat_hist_index(uint64_t ns);
uint64_t lat_hist_bucket_low(size_t idx);
uint64_t lat_hist_bucket_width(size_t idx);
/* The pct-th percentile (0 < pct <= 100) in nanoseconds by nearest rank
 * (the smallest value with at least ceil(pct/100 * count) values at or below
 * it): the midpoint of that value's bucket, clamped to [min, max], so
 * pct == 100 gives the exact max. NaN when the histogram is empty. */
double lat_hist_percentile_ns(const struct lat_hist *h, double pct);
/* The mean Σx / count in nanoseconds; NaN when empty. */
double lat_hist_mean_ns(const struct lat_hist *h);
/* Print one line "METRIC OP VALUE" per entry of lat_ops, VALUE in
 * microseconds with 3 decimals (C locale), then the histogram itself as
 * result lines the parser reads back (lat_hist_read_line):
 *   METRIC hist.events N            values counted
 *   METRIC hist.sum S               Σx in us (%.17g)
 *   METRIC hist.sum_sq Q            Σx² in us² (%.17g)
 *   METRIC hist.min M               the exact minimum in us
 *   METRIC hist.le:U C              per non-empty bucket, ascending: C values
 *                                   at most U us (the bucket's highest ns / 1000)
 * Prints nothing when empty. */
void lat_hist_print_us(const struct lat_hist *h, const char *metric, FILE *f);

/* Histograms read back from a built-in load's "METRIC hist.*" lines. */
struct lat_hist_reader {
	struct lat_hist_read *v;
	size_t n;
};
/* Take one result line "METRIC OP VALUE" of a latency metric md (one
 * whose ops are lat_ops), the reading that tcp-rr and wakeup-lat share: a
 * histogram record ("hist.*") is kept in r; any other op must be one of
 * lat_ops, at most once per metric, and is appended to out as a sample of
 * md. Returns 0, or -1 with the reason in why: "line L: bad or repeated
 * METRIC op 'OP'", or a bad histogram record (bucket bounds not ascending,
 * a count that is not a whole number >= 1, a record twice). */
int lat_hist_read_line(struct lat_hist_reader *r, const struct metric_def *md, const char *op,
		       double value, unsigned lineno, struct sample_vec *out, char *why,
		       size_t whysz);
/* After the last result line, with read the samples of the whole output:
 * each metric of mds[0..n_mds) has every one of lat_ops among them, or
 * none when ran is false (nothing completed: no latency to tell), else
 * "K of 7 METRIC percentiles"; for each metric with a "max" op, its
 * lat_ops never decrease from p50 to max and its mean is at most max
 * (order_check, scan.h: "latency: p99 812 is above p99.9 640"); every
 * histogram read checks (its events equal the sum of its bucket counts;
 * hist.sum, hist.sum_sq and hist.min given, the minimum at most the first
 * bucket's bound). Then the samples of read and each histogram, as a
 * sample_hist with explicit bounds (op ""), its max_observed the metric's
 * "max" op (NaN when absent), are appended to out. Returns 0, or -1 with
 * the reason in why and nothing appended. */
int lat_hist_read_finish(const struct lat_hist_reader *r, const struct metric_def *const *mds,
			 size_t n_mds, bool ran, const struct sample_vec *read,
			 struct sample_vec *out, char *why, size_t whysz);
/* Free what r read; r is left empty. */
void lat_hist_read_free(struct lat_hist_reader *r);

#endif
