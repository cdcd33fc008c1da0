/* cyclictest (rt-tests 2.4): timer threads measuring wake-up latency.
 *
 * Always run with -q (no live refresh; the summary is printed at the end or
 * on SIGINT) and -d 0 (every thread uses interval_us).
 *
 * Lines parsed (stdout), latencies in microseconds (we never pass -N):
 *   without -h: one line per thread,
 *     "T: 0 (10708) P: 0 I:1000 C:   4982 Min:     26 Act:   87 Avg:   83 Max:    2348"
 *     -> min_latency, avg_latency, max_latency (us, lower), op = thread
 *     number. A run without -q reprints every thread's line at each refresh
 *     (each refresh after the first starts with a cursor-up escape, ESC [):
 *     the last refresh counts; a thread twice in one refresh is garbage.
 *     C: 0 (no cycle measured) is a failure.
 *   with -h N: no T: lines; zero-padded per-thread columns (base 10),
 *     "# Total: 000004973 000004966"      samples inside the histogram
 *     "# Min Latencies: 00006 00006"      -> min_latency
 *     "# Avg Latencies: 00024 00027"      -> avg_latency (rounded to 1 us)
 *     "# Max Latencies: 00856 01324"      -> max_latency
 *     "# Histogram Overflows: 00027 00032" -> overflows (count, lower):
 *                                            samples >= N us
 *     and the bucket rows after the "# Histogram" line, one per bucket,
 *     "000023 000273\t000158" (bucket = latency in us, then one count per
 *     thread) -> one histogram per thread (sample_vec_add_hist: metric
 *     latency, unit us, op = thread, bucket_width 1, limit N, overflow and
 *     max_observed from the rows above). rt-tests prints all N rows; with
 *     --json or output cut before them there are none and no histogram is
 *     reported (the summary samples still are). A row count other than 0
 *     or N, a row out of order or with the wrong number of columns is a
 *     failure.
 *   with -H N (--histofall; logs of other tools, the rig passes -h) and
 *     more than one thread: the same with one more column, all threads
 *     together, on the bucket rows (the row's sum), "# Total:" (the sum),
 *     "# Max Latencies:" (the largest) and "# Histogram Overflows:" (the
 *     sum), not on Min and Avg (rt-tests cyclictest.c print_hist). Either
 *     every one of those rows has it or none; a wrong sum or maximum is a
 *     failure.
 * A thread missing from the output, a T: line without its Max field, a
 * row with the wrong number of columns, or a thread whose Min, Avg and Max
 * are not in order (Min <= Avg <= Max, none negative) is a failure. */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops cyclictest_load;

static const struct param_def cyclictest_params[] = {
	{"threads", PARAM_UINT, "1", NULL, 1, 1024, "measuring threads (-t N); op = thread number"},
	{"interval_us", PARAM_UINT, "1000", NULL, 1, 10000000,
	 "timer interval in microseconds (-i)"},
	{"duration_s", PARAM_UINT, "10", NULL, 0, 100000000,
	 "run time in seconds (-D); 0 = until stopped (SIGINT)"},
	{"priority", PARAM_UINT, "0", NULL, 0, 99,
	 "0: SCHED_OTHER (--policy other); 1..99: SCHED_FIFO priority (-p N --policy fifo)"},
	{"histogram_us", PARAM_UINT, NULL, NULL, 1, 1000000,
	 "optional: histogram up to N microseconds (-h N); adds metric overflows and per-thread latency histograms"},
	{"mlock", PARAM_BOOL, "true", NULL, 1, 0, "lock memory (-m)"},
};

static const struct metric_def cyclictest_metrics[] = {
	{"min_latency", "us", BETTER_LOWER, "smallest wake-up latency of the thread", 0, false},
	{"avg_latency", "us", BETTER_LOWER, "mean wake-up latency of the thread", 0, false},
	{"max_latency", "us", BETTER_LOWER, "largest wake-up latency of the thread", 0, false},
	{"overflows", "count", BETTER_LOWER,
	 "with histogram_us: wake-ups at or above the histogram range", 0, false},
};

/* Build "cyclictest -q -d 0 -t N -i US [-D S] (--policy other | -p P
 * --policy fifo) [-h N] [-m]". Never fails. */
static int cyclictest_build_argv(const struct params *p, struct argv *argv,
				 char *err, size_t errsz)
{
	long long prio = params_int(p, "priority", 0);
	long long duration = params_int(p, "duration_s", 10);

	(void)err;
	(void)errsz;
	argv_add(argv, "cyclictest");
	argv_add(argv, "-q");
	argv_add(argv, "-d");
	argv_add(argv, "0");
	params_argv_int(p, argv, "-t", "threads");
	params_argv_int(p, argv, "-i", "interval_us");
	if (duration > 0) {
		argv_add(argv, "-D");
		argv_addf(argv, "%lld", duration);
	}
	if (prio > 0) {
		argv_add(argv, "-p");
		argv_addf(argv, "%lld", prio);
		argv_add(argv, "--policy");
		argv_add(argv, "fifo");
	} else {
		argv_add(argv, "--policy");
		argv_add(argv, "other");
	}
	params_argv_int(p, argv, "-h", "histogram_us");
	if (params_bool(p, "mlock"))
		argv_add(argv, "-m");
	return 0;
}

struct thread_result {
	bool seen;
	bool in_refresh;            /* T: lines: seen since the last refresh began */
	long long cycles;
	double min, avg, max;
	long long total, overflows; /* -h only */
};

/* The T: lines: the last one of each thread wins. */
static int parse_t_lines(const struct text_lines *t, struct thread_result *r, long long n,
			 char *why, size_t whysz)
{
	for (size_t i = 0; i < t->n; i++) {
		const char *line = t->line[i];
		long long tid;

		if (strstr(line, "\033["))
			for (long long k = 0; k < n; k++)
				r[k].in_refresh = false;
		if (!after_prefix(line, "T:"))
			continue;
		if (!key_ll(line, "T:", &tid))
			return parse_fail(why, whysz, "T: line without a thread number");
		if (tid < 0 || tid >= n)
			return parse_fail(why, whysz, "T: line of thread %lld, expected threads 0..%lld",
					  tid, n - 1);
		struct thread_result *x = &r[tid];
		if (x->in_refresh)
			return parse_fail(why, whysz, "T: line of thread %lld twice in one report", tid);
		x->in_refresh = true;
		if (!key_ll(line, "C:", &x->cycles))
			return parse_fail(why, whysz, "T: line of thread %lld without C field", tid);
		if (!key_double(line, "Min:", &x->min))
			return parse_fail(why, whysz, "T: line of thread %lld without Min field", tid);
		if (!key_double(line, "Avg:", &x->avg))
			return parse_fail(why, whysz, "T: line of thread %lld without Avg field", tid);
		if (!key_double(line, "Max:", &x->max))
			return parse_fail(why, whysz, "T: line of thread %lld without Max field", tid);
		x->seen = true;
	}
	return 0;
}

/* One "# NAME: v0 v1 ..." histogram summary row with n zero-padded
 * base-10 columns into vals, or n + 1 when all is true (-H: the all-threads
 * column last, vals must hold n + 1). */
static int hist_row(const struct text_lines *t, const char *name, long long *vals, long long n,
		    bool all, char *why, size_t whysz)
{
	long long want = n + (all ? 1 : 0);
	for (size_t i = 0; i < t->n; i++) {
		const char *rest = after_prefix(t->line[i], "#");
		if (!rest || !(rest = after_prefix(rest, name)))
			continue;
		struct fields fs;
		fields_split(&fs, rest);
		size_t cols = fs.n;
		if ((long long)cols != want) {
			fields_free(&fs);
			return parse_fail(why, whysz, "\"# %s\" has %zu columns, expected %lld",
					  name, cols, want);
		}
		for (long long k = 0; k < want; k++) {
			if (!parse_ll(fs.f[k], &vals[k]) || vals[k] < 0) {
				fields_free(&fs);
				return parse_fail(why, whysz, "\"# %s\" column %lld is not a number",
						  name, k);
			}
		}
		fields_free(&fs);
		return 0;
	}
	return parse_fail(why, whysz, "no \"# %s\" line", name);
}

/* -H: does the "# Total:" row carry the all-threads column (n > 1 and n + 1
 * columns)? */
static bool has_all_column(const struct text_lines *t, long long n)
{
	for (size_t i = 0; n > 1 && i < t->n; i++) {
		const char *rest = after_prefix(t->line[i], "#");
		if (rest && (rest = after_prefix(rest, "Total:"))) {
			struct fields fs;
			fields_split(&fs, rest);
			bool all = (long long)fs.n == n + 1;
			fields_free(&fs);
			return all;
		}
	}
	return false;
}

/* The all-threads column of a -H row is the sum (or, max true, the
 * largest) of the thread columns; 0 or -1 with why. */
static int check_all(const char *name, const long long *v, long long n, bool max, char *why,
		     size_t whysz)
{
	long long want = 0;
	for (long long k = 0; k < n; k++)
		want = max ? (v[k] > want ? v[k] : want) : want + v[k];
	if (v[n] != want)
		return parse_fail(why, whysz, "\"# %s\" all-threads column %lld is not the %s %lld",
				  name, v[n], max ? "largest" : "sum", want);
	return 0;
}

/* The -h summary rows, in the order cyclictest prints them; all: -H. */
static int parse_hist(const struct text_lines *t, struct thread_result *r, long long n, bool all,
		      char *why, size_t whysz)
{
	long long *v = calloc((size_t)n + 1, sizeof(*v));
	int rc = -1;

	if (!v)
		return parse_fail(why, whysz, "out of memory");
	if (hist_row(t, "Total:", v, n, all, why, whysz) < 0 ||
	    (all && check_all("Total:", v, n, false, why, whysz)))
		goto out;
	for (long long k = 0; k < n; k++)
		r[k].total = v[k];
	if (hist_row(t, "Min Latencies:", v, n, false, why, whysz) < 0)
		goto out;
	for (long long k = 0; k < n; k++)
		r[k].min = (double)v[k];
	if (hist_row(t, "Avg Latencies:", v, n, false, why, whysz) < 0)
		goto out;
	for (long long k = 0; k < n; k++)
		r[k].avg = (double)v[k];
	if (hist_row(t, "Max Latencies:", v, n, all, why, whysz) < 0 ||
	    (all && check_all("Max Latencies:", v, n, true, why, whysz)))
		goto out;
	for (long long k = 0; k < n; k++)
		r[k].max = (double)v[k];
	if (hist_row(t, "Histogram Overflows:", v, n, all, why, whysz) < 0 ||
	    (all && check_all("Histogram Overflows:", v, n, false, why, whysz)))
		goto out;
	for (long long k = 0; k < n; k++) {
		r[k].overflows = v[k];
		r[k].cycles = r[k].total + r[k].overflows;
		r[k].seen = true;
	}
	rc = 0;
out:
	free(v);
	return rc;
}

/* The -h bucket rows between "# Histogram" and the next "#" line into
 * *counts (malloc'd, thread k's bucket i at [k·rows + i]); *rows receives
 * the number of rows (0 when none is printed, *counts NULL then); all: -H,
 * each row ends with the row's sum. Returns 0, or -1 with why (rows cut
 * short, out of order, wrong columns, a wrong sum). */
static int parse_buckets(const struct text_lines *t, long long n, long long nb, bool all,
			 uint64_t **counts, size_t *rows, char *why, size_t whysz)
{
	size_t first = t->n, last;

	*counts = NULL;
	*rows = 0;
	for (size_t i = 0; i < t->n; i++) {
		const char *rest = after_prefix(t->line[i], "#");
		if (rest && (rest = after_prefix(rest, "Histogram")) && blank(rest)) {
			first = i + 1;
			break;
		}
	}
	for (last = first; last < t->n && !after_prefix(t->line[last], "#"); last++)
		;
	if (last == first)
		return 0;
	if ((long long)(last - first) != nb)
		return parse_fail(why, whysz, "histogram has %zu rows, expected %lld",
				  last - first, nb);
	uint64_t *c = calloc((size_t)n * (size_t)nb, sizeof(*c));
	if (!c)
		return parse_fail(why, whysz, "out of memory");
	for (size_t i = first; i < last; i++) {
		long long row = (long long)(i - first), v, sum = 0;
		struct fields fs;
		fields_split(&fs, t->line[i]);
		if ((long long)fs.n != n + 1 + all || !parse_ll(fs.f[0], &v) || v != row) {
			fields_free(&fs);
			free(c);
			return parse_fail(why, whysz, "histogram row %lld is not \"%lld\" and %lld counts",
					  row, row, n + all);
		}
		for (long long k = 0; k < n + all; k++) {
			if (!parse_ll(fs.f[k + 1], &v) || v < 0) {
				fields_free(&fs);
				free(c);
				return parse_fail(why, whysz, "histogram row %lld column %lld is not a count",
						  row, k);
			}
			if (k == n && v != sum) {
				fields_free(&fs);
				free(c);
				return parse_fail(why, whysz, "histogram row %lld: all-threads count %lld"
						  " is not the sum %lld", row, v, sum);
			}
			if (k < n)
				c[(size_t)k * (size_t)nb + (size_t)row] = (uint64_t)v;
			sum += v;
		}
		fields_free(&fs);
	}
	*counts = c;
	*rows = (size_t)nb;
	return 0;
}

/* Thread k's Min <= Avg <= Max, in the words of its T: line or, hist, of
 * the "# ... Latencies:" rows. */
static int check_order(const struct thread_result *x, long long k, bool hist, char *why,
		       size_t whysz)
{
	char what[64];
	if (hist)
		snprintf(what, sizeof(what), "thread %lld's \"# Min/Avg/Max Latencies\"", k);
	else
		snprintf(what, sizeof(what), "T: line of thread %lld", k);
	const struct order_stat s[] = {{"Min", x->min}, {"Avg", x->avg}, {"Max", x->max}};
	return order_check(what, s, 3, why, whysz);
}

/* Thread k's bucket rows hold its "# Total:" (the wake-ups inside the
 * histogram: rt-tests cyclictest.c print_hist), and the first non-empty
 * row is its Min (rows are 1 us wide, a value counts in row value). */
static int check_total(const struct thread_result *x, long long k, const uint64_t *counts,
		       size_t rows, char *why, size_t whysz)
{
	uint64_t total = 0;
	size_t first = rows;
	for (size_t i = 0; i < rows; i++) {
		total += counts[i];
		if (counts[i] && first == rows)
			first = i;
	}
	if (total != (uint64_t)x->total)
		return parse_fail(why, whysz, "thread %lld: \"# Total:\" %lld but %llu in its"
				  " histogram rows", k, x->total, (unsigned long long)total);
	if (first < rows && (double)first < x->min)
		return parse_fail(why, whysz, "thread %lld: histogram row %zu holds a wake-up below"
				  " its \"# Min Latencies:\" %g", k, first, x->min);
	return 0;
}

/* Parse the per-thread summary (T: lines, or the -h summary rows) into
 * min/avg/max_latency (and overflows with -h) per thread, op = thread, and
 * with -h bucket rows one latency histogram per thread. */
static int cyclictest_parse(const struct load_output *o, const struct params *p,
			    struct sample_vec *samples, char *why, size_t whysz)
{
	long long n = params_int(p, "threads", 1);
	bool hist = params_get(p, "histogram_us") != NULL;
	long long nb = params_int(p, "histogram_us", 0);
	uint64_t *counts = NULL;
	size_t rows = 0;
	struct text_lines t;
	struct thread_result *r;
	int rc;

	if (output_status(o, &cyclictest_load, why, whysz) < 0)
		return -1;
	if (n < 1 || n > 1024)
		return parse_fail(why, whysz, "threads %lld out of range", n);
	r = calloc((size_t)n, sizeof(*r));
	if (!r)
		return parse_fail(why, whysz, "out of memory");
	text_lines_split(&t, o->out, o->out_len);
	bool all = hist && has_all_column(&t, n);
	rc = hist ? parse_hist(&t, r, n, all, why, whysz) : parse_t_lines(&t, r, n, why, whysz);
	if (rc < 0)
		goto out;
	if (hist) {
		rc = parse_buckets(&t, n, nb, all, &counts, &rows, why, whysz);
		if (rc < 0)
			goto out;
	}
	for (long long k = 0; k < n; k++) {
		if (!r[k].seen) {
			rc = parse_fail(why, whysz, "no T: line for thread %lld", k);
			goto out;
		}
		if (r[k].cycles <= 0) {
			rc = parse_fail(why, whysz, "thread %lld measured no cycle", k);
			goto out;
		}
		if ((rc = check_order(&r[k], k, hist, why, whysz)) < 0 ||
		    (rows && (rc = check_total(&r[k], k, counts + (size_t)k * rows, rows, why,
					       whysz)) < 0))
			goto out;
	}
	for (long long k = 0; k < n; k++) {
		char op[SAMPLE_OP_MAX];
		snprintf(op, sizeof(op), "%lld", k);
		sample_vec_add(samples, "min_latency", "us", BETTER_LOWER, op, r[k].min);
		sample_vec_add(samples, "avg_latency", "us", BETTER_LOWER, op, r[k].avg);
		sample_vec_add(samples, "max_latency", "us", BETTER_LOWER, op, r[k].max);
		if (hist)
			sample_vec_add(samples, "overflows", "count", BETTER_LOWER, op,
				       (double)r[k].overflows);
		if (rows)
			sample_vec_add_hist(samples, "latency", "us", op, 1.0, counts + (size_t)k * rows,
					    rows, (uint64_t)r[k].overflows, (double)nb, r[k].max)
				->min_observed = r[k].min;
	}
	rc = 0;
out:
	text_lines_free(&t);
	free(counts);
	free(r);
	return rc;
}

/* cyclictest sets the policy of its measuring threads itself (--policy,
 * -p): a sched: policy would apply to its main thread only and be silently
 * undone on the threads that measure, so it is refused. nice, slice_us,
 * latency_nice and cpus are inherited by the threads and stay allowed. */
static int cyclictest_check(const struct params *p, const struct sched_req *sched,
			    bool background, char *err, size_t errsz)
{
	(void)background;
	if (sched->has_policy && sched->policy != SCHED_OTHER) {
		snprintf(err, errsz,
			 "cyclictest sets its measuring threads' policy itself: use params"
			 " {priority: N} for SCHED_FIFO instead of sched: policy %s",
			 sched_policy_name(sched->policy));
		return -1;
	}
	if (sched->has_policy && params_int(p, "priority", 0) > 0) {
		snprintf(err, errsz, "params priority > 0 runs cyclictest's threads at SCHED_FIFO,"
			 " which contradicts sched: policy other");
		return -1;
	}
	return 0;
}

/* The cyclictest driver (see the top of this file). SIGINT makes cyclictest
 * print its summary and exit 0. */
const struct load_ops cyclictest_load = {
	.name = "cyclictest",
	.description = "rt-tests cyclictest: timer wake-up latency per thread",
	.params = cyclictest_params,
	.n_params = sizeof(cyclictest_params) / sizeof(cyclictest_params[0]),
	.metrics = cyclictest_metrics,
	.n_metrics = sizeof(cyclictest_metrics) / sizeof(cyclictest_metrics[0]),
	.primary_metric = "max_latency",
	.rt_priority_param = "priority",
	.failure_lines = (const char *const[]){"Unable to change scheduling policy", NULL},
	.stop_signal = SIGINT,
	.summarizes_on_stop = true,
	.build_argv = cyclictest_build_argv,
	.until_stopped_param = "duration_s",
	.check = cyclictest_check,
	.parse = cyclictest_parse,
};
