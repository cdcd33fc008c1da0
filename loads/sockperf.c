/* sockperf ping-pong client (sockperf 3.7; not packaged in Debian 12). A
 * `sockperf server` must already listen on ip:port (started outside this
 * driver).
 *
 * Lines parsed (stdout), microseconds:
 *   "sockperf: Summary: Latency is 39.409 usec"          -> latency_half_rtt, op "avg"
 *   "sockperf: ---> percentile 99.000 =   71.435"       -> latency_half_rtt, op "p99"
 *   "sockperf: ---> <MAX> observation = 1571.808"       -> latency_half_rtt, op "max"
 *   "sockperf: ---> <MIN> observation =    4.683"       -> latency_half_rtt, op "min"
 * sockperf's "latency" is HALF the measured round trip (RTT/2), so the metric
 * is named latency_half_rtt: it is not a one-way latency and not comparable
 * with a full round trip. With full_rtt (--full-rtt) sockperf reports the
 * whole round trip ("Summary: Round trip is 80.023 usec") and the same rows
 * go to metric latency_rtt. Percentile ops drop trailing zeros:
 * 99.900 -> "p99.9", 99.999 -> "p99.999", 50.000 -> "p50".
 * The "avg-latency" line (with ANSI colour codes) is not parsed; the Summary
 * line carries the same number. Both the <MAX> (first) and <MIN> (last)
 * rows are required, so a list cut short is a failure. The rows, printed
 * from <MAX> down to <MIN>, must not increase, and the Summary must lie
 * within <MIN> and <MAX>: anything else is garbage, a failure. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops sockperf_load;

static const struct param_def sockperf_params[] = {
	{"ip", PARAM_STRING, "127.0.0.1", NULL, 1, 0, "address of the sockperf server (-i)"},
	{"port", PARAM_UINT, "11111", NULL, 1, 65535, "port of the sockperf server (-p)"},
	{"protocol", PARAM_ENUM, "tcp", "tcp|udp", 1, 0, "tcp (--tcp) or udp"},
	{"duration_s", PARAM_UINT, "3", NULL, 1, 100000000, "run time in seconds (-t)"},
	{"msg_size", PARAM_UINT, NULL, NULL, 1, 65000, "optional: message size in bytes (-m)"},
	{"mps", PARAM_UINT, NULL, NULL, 1, 100000000,
	 "optional: messages per second (--mps=N); default: as fast as possible"},
	{"full_rtt", PARAM_BOOL, "false", NULL, 1, 0,
	 "report the full round trip (--full-rtt, metric latency_rtt)"},
};

static const struct metric_def sockperf_metrics[] = {
	{"latency_half_rtt", "us", BETTER_LOWER,
	 "half the round trip (sockperf's \"latency\"); ops avg, pNN, min, max", 2, false},
	{"latency_rtt", "us", BETTER_LOWER, "with full_rtt: the round trip; ops avg, pNN, min, max", 2, false},
};

/* Build "sockperf ping-pong [--tcp] -i IP -p PORT -t S [-m N] [--mps=N]
 * [--full-rtt]". Fails on an empty or option-like ip. */
static int sockperf_build_argv(const struct params *p, struct argv *argv,
			       char *err, size_t errsz)
{
	const char *ip = params_get(p, "ip");
	const char *proto = params_get(p, "protocol");

	if (!ip || !*ip || *ip == '-') {
		snprintf(err, errsz, "sockperf: ip \"%s\" is not an address", ip ? ip : "");
		return -1;
	}
	argv_add(argv, "sockperf");
	argv_add(argv, "ping-pong");
	if (!proto || !strcmp(proto, "tcp"))
		argv_add(argv, "--tcp");
	argv_add(argv, "-i");
	argv_add(argv, ip);
	params_argv_int(p, argv, "-p", "port");
	params_argv_int(p, argv, "-t", "duration_s");
	params_argv_int(p, argv, "-m", "msg_size");
	if (params_get(p, "mps"))
		argv_addf(argv, "--mps=%lld", params_int(p, "mps", 0));
	if (params_bool(p, "full_rtt"))
		argv_add(argv, "--full-rtt");
	return 0;
}

/* The value after "=" in "... = VALUE" (the last field, after a "=" field). */
static bool value_after_equals(const struct fields *fs, double *v)
{
	return fs->n >= 2 && !strcmp(fs->f[fs->n - 2], "=") && parse_double(fs->f[fs->n - 1], v) &&
	       *v >= 0;
}

/* The rows (printed largest first) do not increase, and avg (the Summary)
 * lies within the <MIN> and <MAX> rows. */
static int check_order(const struct sample_vec *rows, double avg, char *why, size_t whysz)
{
	struct order_stat *s = xcalloc(rows->n, sizeof(*s));
	double mn = 0, mx = 0;
	for (size_t i = 0; i < rows->n; i++) {
		s[rows->n - 1 - i] = (struct order_stat){rows->v[i].op, rows->v[i].value};
		mn = !strcmp(rows->v[i].op, "min") ? rows->v[i].value : mn;
		mx = !strcmp(rows->v[i].op, "max") ? rows->v[i].value : mx;
	}
	const struct order_stat summary[] = {{"<MIN>", mn}, {"Summary", avg}, {"<MAX>", mx}};
	int rc = order_check("statistics lines", s, rows->n, why, whysz);
	if (!rc)
		rc = order_check("Summary", summary, 3, why, whysz);
	free(s);
	return rc;
}

/* Parse the Summary line and the percentile/MIN/MAX rows into
 * latency_half_rtt (or latency_rtt with --full-rtt) samples. */
static int sockperf_parse(const struct load_output *o, const struct params *p,
			  struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	const char *metric = NULL;
	double avg = 0;
	int rc = -1;
	struct sample_vec rows = {0};

	(void)p;
	if (output_status(o, &sockperf_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	for (size_t i = 0; i < t.n; i++) {
		const char *l = t.line[i];
		const char *rest;
		struct fields fs;

		if ((rest = after_prefix(l, "sockperf: Summary:"))) {
			const char *m = NULL;
			const char *num = NULL;
			fields_split(&fs, rest);
			/* "Latency is X usec" | "Round trip is X usec" */
			if (fs.n == 4 && !strcmp(fs.f[0], "Latency") && !strcmp(fs.f[1], "is")) {
				m = "latency_half_rtt";
				num = fs.f[2];
			} else if (fs.n == 5 && !strcmp(fs.f[0], "Round") && !strcmp(fs.f[1], "trip") &&
				   !strcmp(fs.f[2], "is")) {
				m = "latency_rtt";
				num = fs.f[3];
			}
			bool ok = m && !strcmp(fs.f[fs.n - 1], "usec") && parse_double(num, &avg) &&
				  avg >= 0;
			fields_free(&fs);
			if (!m)
				continue; /* another summary (Message Rate, BandWidth) */
			if (!ok) {
				rc = parse_fail(why, whysz, "unparsable Summary line: \"%.60s\"", l);
				goto out;
			}
			if (metric) {
				rc = parse_fail(why, whysz, "more than one latency Summary line");
				goto out;
			}
			metric = m;
			continue;
		}
		if (!(rest = after_prefix(l, "sockperf: --->")))
			continue;
		fields_split(&fs, rest);
		char op[SAMPLE_OP_MAX] = "";
		double v;
		if (fs.n == 4 && !strcmp(fs.f[0], "percentile")) {
			if (!percentile_op(fs.f[1], op, sizeof(op)))
				op[0] = '\0';
		} else if (fs.n == 4 && !strcmp(fs.f[0], "<MAX>") && !strcmp(fs.f[1], "observation")) {
			snprintf(op, sizeof(op), "max");
		} else if (fs.n == 4 && !strcmp(fs.f[0], "<MIN>") && !strcmp(fs.f[1], "observation")) {
			snprintf(op, sizeof(op), "min");
		}
		bool ok = op[0] && value_after_equals(&fs, &v);
		fields_free(&fs);
		if (!ok) {
			rc = parse_fail(why, whysz, "unparsable statistics line: \"%.60s\"", l);
			goto out;
		}
		/* metric filled in below, once the Summary line told which. */
		sample_vec_add(&rows, NULL, "us", BETTER_LOWER, op, v);
	}
	if (!metric) {
		rc = parse_fail(why, whysz, "no \"Summary: Latency is\" (or Round trip) line in stdout");
		goto out;
	}
	/* sockperf prints <MAX> first and <MIN> last: both present means the
	 * list is complete. */
	bool have_min = false, have_max = false;
	for (size_t i = 0; i < rows.n; i++) {
		have_min |= !strcmp(rows.v[i].op, "min");
		have_max |= !strcmp(rows.v[i].op, "max");
	}
	if (!have_max || !have_min) {
		rc = parse_fail(why, whysz, "no \"<%s> observation\" line in stdout",
				have_max ? "MIN" : "MAX");
		goto out;
	}
	if ((rc = check_order(&rows, avg, why, whysz)) < 0)
		goto out;
	sample_vec_add(samples, metric, "us", BETTER_LOWER, "avg", avg);
	for (size_t i = 0; i < rows.n; i++)
		sample_vec_add(samples, metric, "us", BETTER_LOWER, rows.v[i].op, rows.v[i].value);
	rc = 0;
out:
	sample_vec_free(&rows);
	text_lines_free(&t);
	return rc;
}

/* The sockperf driver (see the top of this file). sockperf ends a timed run
 * by itself; a stopped client prints nothing usable. */
const struct load_ops sockperf_load = {
	.name = "sockperf",
	.description = "sockperf ping-pong client: half round-trip latency (needs a sockperf server)",
	.params = sockperf_params,
	.n_params = sizeof(sockperf_params) / sizeof(sockperf_params[0]),
	.metrics = sockperf_metrics,
	.n_metrics = sizeof(sockperf_metrics) / sizeof(sockperf_metrics[0]),
	.stop_signal = SIGTERM,
	.build_argv = sockperf_build_argv,
	.parse = sockperf_parse,
};
