/* sysbench (1.0.20): the cpu, threads and mutex tests.
 *
 * Lines parsed (stdout):
 *   "    events per second:  5570.51"           -> events_per_s (events/s,
 *                                                   higher); cpu test only,
 *                                                   required there
 *   "    total number of events:              27863" -> events (higher)
 *   under "Latency (ms):", up to the next blank line:
 *   "         min:                                    0.33" -> bound of latency_p95
 *   "         avg:                                    0.36" -> latency_avg (ms, lower)
 *   "         max:                                    9.51" -> bound of latency_p95
 *   "         95th percentile:                        0.40" -> latency_p95 (ms, lower)
 * ("avg" also appears in "events (avg/stddev):", outside that section.)
 * sysbench reads its percentile off a histogram bucket, whose value can lie
 * outside what it saw (one event of 630.92 ms: min = max = 630.92, 95th
 * percentile 634.66), so latency_p95 is clamped into the tool's own
 * [min, max] as far as that bucket error goes: sysbench's latency histogram
 * has 1024 buckets spaced evenly in log scale over 0.001..100000 ms
 * (sb_logger.c OPER_LOG_GRANULARITY, OPER_LOG_MIN_VALUE, OPER_LOG_MAX_VALUE)
 * and a value goes to the nearest one (sb_histogram.c
 * sb_histogram_update), so a percentile is within a factor
 * exp(ln(1e8) / 1023 / 2) = 1.00904 of a recorded value, and each number
 * is printed to 0.01 ms. A 95th percentile beyond that past min or max, or a report whose
 * min, avg and max are out of order (or negative), is garbage: a failure,
 * no sample.
 * op is "" (one row per run). The mutex test runs a fixed amount of work and
 * ignores --time. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops sysbench_load;

static const struct param_def sysbench_params[] = {
	{"test", PARAM_ENUM, "cpu", "cpu|threads|mutex", 1, 0, "sysbench test to run"},
	{"threads", PARAM_UINT, "1", NULL, 1, 100000, "worker threads (--threads=N)"},
	{"duration_s", PARAM_UINT, "5", NULL, 1, 100000000,
	 "run time in seconds (--time=S; mutex ignores it)"},
};

static const struct metric_def sysbench_metrics[] = {
	{"events_per_s", "events/s", BETTER_HIGHER, "cpu test: events per second", 2, false},
	{"latency_avg", "ms", BETTER_LOWER, "mean event latency", 2, false},
	{"latency_p95", "ms", BETTER_LOWER,
	 "95th percentile of event latency, within the tool's min and max", 2, false},
	{"events", "events", BETTER_HIGHER, "total number of events", 2, false},
};

/* Build "sysbench TEST --threads=N --time=S run". Never fails. */
static int sysbench_build_argv(const struct params *p, struct argv *argv,
			       char *err, size_t errsz)
{
	const char *test = params_get(p, "test");

	(void)err;
	(void)errsz;
	argv_add(argv, "sysbench");
	argv_add(argv, test ? test : "cpu");
	argv_addf(argv, "--threads=%lld", params_int(p, "threads", 1));
	argv_addf(argv, "--time=%lld", params_int(p, "duration_s", 5));
	argv_add(argv, "run");
	return 0;
}

/* Is the 95th percentile within sysbench's bucket error of [min, max]
 * (see the top of this file)? 0, or -1 with why. */
static int p95_within(double p95, double min, double max, char *why, size_t whysz)
{
	double ratio = exp(log(1e5 / 1e-3) / 1023 / 2), printed = 0.005;
	if (p95 > (max + printed) * ratio + printed)
		return parse_fail(why, whysz, "Latency (ms): 95th percentile %g above max %g by more"
				  " than sysbench's bucket error (x%.5f)", p95, max, ratio);
	if (p95 < (min - printed) / ratio - printed)
		return parse_fail(why, whysz, "Latency (ms): 95th percentile %g below min %g by more"
				  " than sysbench's bucket error (x%.5f)", p95, min, ratio);
	return 0;
}

/* The lines sysbench_parse reads, each once (events per second only with
 * test cpu, at most once otherwise), in the order their absence is told. */
enum { F_EVENTS, F_AVG, F_P95, F_MIN, F_MAX, F_EPS, N_FIELDS };
struct sysbench_field {
	const char *label; /* the line's start */
	const char *what;  /* in messages */
	bool latency;      /* inside the "Latency (ms):" block */
	double v;
	int n;             /* times seen */
};

/* Take line l as one of the fields; false when it has a label of one but
 * no valid number. */
static bool take_field(struct sysbench_field *f, const char *l, bool in_latency)
{
	for (int k = 0; k < N_FIELDS; k++) {
		if (f[k].latency && !in_latency)
			continue;
		int r = scan_labelled(l, f[k].label, NULL, &f[k].v);
		if (!r)
			continue;
		f[k].n++;
		return r > 0;
	}
	return true;
}

/* Parse events per second, total number of events and the Latency (ms)
 * avg and 95th percentile (clamped into that section's min and max) into
 * samples with op "". */
static int sysbench_parse(const struct load_output *o, const struct params *p,
			  struct sample_vec *samples, char *why, size_t whysz)
{
	const char *test = params_get(p, "test");
	bool cpu = !test || !strcmp(test, "cpu");
	struct sysbench_field f[N_FIELDS] = {
		[F_EVENTS] = {"total number of events:", "total number of events", false},
		[F_AVG] = {"avg:", "Latency (ms) avg", true},
		[F_P95] = {"95th percentile:", "Latency (ms) 95th percentile", true},
		[F_MIN] = {"min:", "Latency (ms) min", true},
		[F_MAX] = {"max:", "Latency (ms) max", true},
		[F_EPS] = {"events per second:", "events per second", false},
	};
	struct text_lines t;
	bool in_latency = false;
	int rc = -1;

	if (output_status(o, &sysbench_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	for (size_t i = 0; i < t.n; i++) {
		const char *l = t.line[i];
		if (blank(l))
			in_latency = false;
		else if (after_prefix(l, "Latency (ms):"))
			in_latency = true;
		else if (!take_field(f, l, in_latency)) {
			rc = parse_fail(why, whysz, "unparsable line: \"%.60s\"", l);
			goto out;
		}
	}
	for (int k = 0; k < N_FIELDS; k++)
		if (f[k].n != 1 && (f[k].n || k != F_EPS || cpu)) {
			rc = parse_fail(why, whysz, "%s \"%s\" line in stdout",
					f[k].n ? "repeated" : "no", f[k].what);
			goto out;
		}
	double eps = f[F_EPS].v, events = f[F_EVENTS].v, min = f[F_MIN].v, max = f[F_MAX].v;
	if (events == 0 && f[F_EPS].n && eps != 0) {
		rc = parse_fail(why, whysz, "total number of events 0 but %g events per second: the"
				" rate contradicts its count", eps);
		goto out;
	}
	const struct order_stat order[] = {{"min", min}, {"avg", f[F_AVG].v}, {"max", max}};
	if ((rc = order_check("Latency (ms)", order, 3, why, whysz)) < 0 ||
	    (rc = p95_within(f[F_P95].v, min, max, why, whysz)) < 0)
		goto out;
	double p95 = f[F_P95].v < min ? min : f[F_P95].v > max ? max : f[F_P95].v;
	if (f[F_EPS].n)
		sample_vec_add(samples, "events_per_s", "events/s", BETTER_HIGHER, "", eps);
	sample_vec_add(samples, "latency_avg", "ms", BETTER_LOWER, "", f[F_AVG].v);
	sample_vec_add(samples, "latency_p95", "ms", BETTER_LOWER, "", p95);
	sample_vec_add(samples, "events", "events", BETTER_HIGHER, "", events);
out:
	text_lines_free(&t);
	return rc;
}

/* The sysbench driver (see the top of this file). */
const struct load_ops sysbench_load = {
	.name = "sysbench",
	.description = "sysbench cpu|threads|mutex: events per second and event latency",
	.params = sysbench_params,
	.n_params = sizeof(sysbench_params) / sizeof(sysbench_params[0]),
	.metrics = sysbench_metrics,
	.n_metrics = sizeof(sysbench_metrics) / sizeof(sysbench_metrics[0]),
	.stop_signal = SIGTERM,
	.build_argv = sysbench_build_argv,
	.parse = sysbench_parse,
};
