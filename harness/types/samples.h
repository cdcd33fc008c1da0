/* harness/types/: what the rows are made of, shared from below by the
 * store, the loads, the runner and the reports: samples (this header),
 * iteration_result, provenance, bisect_points.
 */

/* Samples: what a load driver's parser produces for one load instance, and the
 * flat rows (one per stored sample) that export, import and every report use. */
#ifndef SCHEDRIG_SAMPLES_H
#define SCHEDRIG_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

/* Direction of a metric. mmtests summarises higher-is-better metrics with Hmean
 * and lower-is-better ones with Amean. */
enum better { BETTER_LOWER = 0, BETTER_HIGHER = 1 };

/* "lower" / "higher"; parse returns -1 for anything else. */
const char *better_name(enum better b);
int better_parse(const char *s);

#define SAMPLE_OP_MAX 48

/* One value parsed from a tool's output. metric and unit point at static
 * strings of the driver's metric table; op is the row label (a group count,
 * a thread number, a pair number, a percentile such as "p99"). flag is
 * NULL, or a static string: the tool's own warning about this value (e.g.
 * netperf's "Desired confidence was not achieved within the specified
 * iterations."), stored with the sample (sample_flag) and noted under the
 * tables; the value still counts. */
struct sample {
	const char *metric;
	const char *unit;
	enum better better;
	char op[SAMPLE_OP_MAX];
	double value;
	const char *flag;
};

/* One latency histogram parsed from a tool's output (cyclictest -h N: one
 * per thread, metric "latency", unit "us", op = thread number; tcp-rr and
 * wakeup-lat: one per latency metric, op ""). Bucket i counts the values x
 * with upper[i-1] < x <= upper[i]: with bounds NULL, upper[i] =
 * i·bucket_width (cyclictest: bucket i holds latency i us, integer data);
 * else upper[i] = bounds[i], strictly ascending (the built-in loads list
 * their non-empty log-linear buckets, loads/lat_hist.h). overflow counts
 * the values x >= limit (cyclictest "Histogram Overflows", limit = N =
 * n_buckets·bucket_width). min_observed and max_observed are the tool's
 * own Min and Max; sum and sum_sq the exact sum of the values and of their
 * squares (NaN when unknown). metric and unit point at static strings;
 * counts and bounds are owned by the sample_vec. */
struct sample_hist {
	const char *metric;
	const char *unit;
	char op[SAMPLE_OP_MAX];
	double bucket_width;
	uint64_t *counts;
	double *bounds;
	size_t n_buckets;
	uint64_t overflow;
	double limit;
	double max_observed;
	double min_observed;
	double sum, sum_sq;
};

/* A growable list of samples in the order the parser found them, and the
 * histograms it found (none for most tools: hists NULL, n_hists 0). */
struct sample_vec {
	struct sample *v;
	size_t n, cap;
	struct sample_hist *hists;
	size_t n_hists, cap_hists;
};
/* Append one sample (flag NULL); op may be NULL for "". */
void sample_vec_add(struct sample_vec *s, const char *metric, const char *unit,
		    enum better better, const char *op, double value);
/* Append every sample of src to s, in order, flags kept (the histograms
 * of src are not copied). */
void sample_vec_append(struct sample_vec *s, const struct sample_vec *src);
/* Append one histogram; counts (n_buckets values) is copied, op may be NULL
 * for "". Fields as in struct sample_hist; bounds NULL, min_observed, sum
 * and sum_sq NaN until set (sample_hist_set_bounds, or the fields).
 * Returns the new histogram (valid until the next append). */
struct sample_hist *sample_vec_add_hist(struct sample_vec *s, const char *metric, const char *unit,
					const char *op, double bucket_width, const uint64_t *counts,
					size_t n_buckets, uint64_t overflow, double limit,
					double max_observed);
/* Give h explicit bucket bounds: n_buckets values copied from bounds. */
void sample_hist_set_bounds(struct sample_hist *h, const double *bounds);
/* Free the samples and the histograms (with their counts); s is left empty. */
void sample_vec_free(struct sample_vec *s);

/* One stored sample with its identity, as exported:
 * run,variant,cell,load,metric,unit,better,op,iteration,value,tool.
 * tool is the load's driver as stored (load_instance.tool: "hackbench",
 * the CSV's tool for imports, "imported" when it names none); NULL when
 * not known (a CSV read directly without one). Strings are interned in the owning sample_table and live
 * as long as it. */
struct sample_row {
	const char *run;
	const char *variant;
	const char *cell;
	const char *load;
	const char *tool;
	const char *metric;
	const char *unit;
	enum better better;
	const char *op;
	int iteration;
	int repetition;   /* a repeating background load's run in the iteration,
			   * 0 first (load_instance.repetition); 0 otherwise */
	double value;
};

struct strmap;

/* Rows in insertion order (store queries return them in config order, so
 * first appearance gives variant, cell and op order). */
struct sample_table {
	struct sample_row *rows;
	size_t n, cap;
	struct strmap *pool;
};

/* An empty table with its string pool; free with sample_table_free. */
void sample_table_init(struct sample_table *t);
/* Copy row into the table, interning each string. */
void sample_table_add(struct sample_table *t, const struct sample_row *row);
void sample_table_free(struct sample_table *t);
/* Append row whose strings were all interned in t already (no copying). */
void sample_table_push(struct sample_table *t, const struct sample_row *row);
/* Intern a string in the table's pool (same pointer for equal strings). */
const char *sample_table_intern(struct sample_table *t, const char *s);

/* One stored histogram with its identity (store_load_histograms), keyed like
 * a sample_row: run, variant, cell, load, metric, op, iteration. Bucket
 * fields as in struct sample_hist. Strings are interned in the owning
 * hist_table; counts and bounds are owned by it. */
struct hist_row {
	const char *run;
	const char *variant;
	const char *cell;
	const char *load;
	const char *tool;           /* the load's driver (load_instance.tool);
				     * NULL: unknown */
	const char *metric;
	const char *unit;
	const char *op;
	int iteration;
	double bucket_width;
	uint64_t *counts;
	double *bounds;             /* NULL: upper bound i·bucket_width */
	size_t n_buckets;
	uint64_t overflow;
	double limit, max_observed, min_observed, sum, sum_sq; /* as in struct sample_hist */
};

/* Histogram rows in insertion order; strings interned in strings' pool. */
struct hist_table {
	struct hist_row *rows;
	size_t n, cap;
	struct sample_table strings;
};

/* An empty histogram table; free with hist_table_free. */
void hist_table_init(struct hist_table *t);
/* Copy row into the table: strings interned, counts and bounds copied. */
void hist_table_add(struct hist_table *t, const struct hist_row *row);
/* Free rows, counts and strings; t is left empty (init again to reuse). */
void hist_table_free(struct hist_table *t);

#endif
