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

/* The number after "label:" on a line that starts with it; 0 absent, 1
 * found, -1 found without a valid number. */
static int labelled(const char *line, const char *label, double *v)
{
	const char *rest = after_prefix(line, label);
	if (!rest)
		return 0;
	struct fields fs;
	fields_split(&fs, rest);
	int rc = fs.n == 1 && parse_double(fs.f[0], v) && *v >= 0 ? 1 : -1;
	fields_free(&fs);
	return rc;
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

/* Parse events per second, total number of events and the Latency (ms)
 * avg and 95th percentile (clamped into that section's min and max) into
 * samples with op "". */
static int sysbench_parse(const struct load_output *o, const struct params *p,
			  struct sample_vec *samples, char *why, size_t whysz)
{
	const char *test = params_get(p, "test");
	bool cpu = !test || !strcmp(test, "cpu");
	struct text_lines t;
	double eps = 0, events = 0, avg = 0, p95 = 0, min = 0, max = 0;
	int n_eps = 0, n_events = 0, n_avg = 0, n_p95 = 0, n_min = 0, n_max = 0, rc = -1;
	bool in_latency = false;

	if (output_status(o, &sysbench_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	for (size_t i = 0; i < t.n; i++) {
		const char *l = t.line[i];
		int r;

		if (blank(l)) {
			in_latency = false;
			continue;
		}
		if (after_prefix(l, "Latency (ms):")) {
			in_latency = true;
			continue;
		}
		if ((r = labelled(l, "events per second:", &eps)) != 0) {
			if (r < 0)
				goto bad;
			n_eps++;
		} else if ((r = labelled(l, "total number of events:", &events)) != 0) {
			if (r < 0)
				goto bad;
			n_events++;
		} else if (in_latency && (r = labelled(l, "avg:", &avg)) != 0) {
			if (r < 0)
				goto bad;
			n_avg++;
		} else if (in_latency && (r = labelled(l, "min:", &min)) != 0) {
			if (r < 0)
				goto bad;
			n_min++;
		} else if (in_latency && (r = labelled(l, "max:", &max)) != 0) {
			if (r < 0)
				goto bad;
			n_max++;
		} else if (in_latency && (r = labelled(l, "95th percentile:", &p95)) != 0) {
			if (r < 0)
				goto bad;
			n_p95++;
		}
		continue;
bad:
		rc = parse_fail(why, whysz, "unparsable line: \"%.60s\"", l);
		goto out;
	}
	if (n_events != 1 || n_avg != 1 || n_p95 != 1 || n_min != 1 || n_max != 1 ||
	    (cpu && n_eps != 1) || n_eps > 1) {
		const char *what = n_events != 1 ? "total number of events" :
				   n_avg != 1 ? "Latency (ms) avg" :
				   n_p95 != 1 ? "Latency (ms) 95th percentile" :
				   n_min != 1 ? "Latency (ms) min" :
				   n_max != 1 ? "Latency (ms) max" : "events per second";
		int n = n_events != 1 ? n_events : n_avg != 1 ? n_avg : n_p95 != 1 ? n_p95 :
			n_min != 1 ? n_min : n_max != 1 ? n_max : n_eps;
		rc = parse_fail(why, whysz, "%s \"%s\" line in stdout", n ? "repeated" : "no", what);
		goto out;
	}
	if (events == 0 && n_eps && eps != 0) {
		rc = parse_fail(why, whysz, "total number of events 0 but %g events per second: the"
				" rate contradicts its count", eps);
		goto out;
	}
	const struct order_stat order[] = {{"min", min}, {"avg", avg}, {"max", max}};
	if ((rc = order_check("Latency (ms)", order, 3, why, whysz)) < 0)
		goto out;
	if ((rc = p95_within(p95, min, max, why, whysz)) < 0)
		goto out;
	p95 = p95 < min ? min : p95 > max ? max : p95;
	if (n_eps)
		sample_vec_add(samples, "events_per_s", "events/s", BETTER_HIGHER, "", eps);
	sample_vec_add(samples, "latency_avg", "ms", BETTER_LOWER, "", avg);
	sample_vec_add(samples, "latency_p95", "ms", BETTER_LOWER, "", p95);
	sample_vec_add(samples, "events", "events", BETTER_HIGHER, "", events);
	rc = 0;
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
	.summarizes_on_stop = false,
	.build_argv = sysbench_build_argv,
	.parse = sysbench_parse,
};
