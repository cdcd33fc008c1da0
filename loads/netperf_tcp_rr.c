/* netperf TCP_RR client (netperf 2.7 omni format; not packaged in Debian 12
 * main). A netserver must already listen on host (control port 12865 or
 * port).
 *
 * Output forms accepted (stdout):
 *   default (-P 1): banner, four header lines, then
 *     "16384  131072 1        1       10.00    56195.43   "   the full data row:
 *        local send/recv socket bytes, request bytes, response bytes,
 *        elapsed s, transaction rate -> the LAST field is the rate
 *     "16384  131072"                                       remote socket sizes
 *        (only two fields: never the rate)
 *   -P 0: the same two rows without banner and headers.
 *   With -c/-C (CPU columns) the data row has 10 fields and the rate is the
 *   6th.
 *   CSV (test-specific -o SELECTORS): a header row naming "Throughput"
 *     ("Throughput,Throughput Units") and the value row after it; with -P 0
 *     only the value row, where the field before "Trans/s" is the rate.
 *   Key=value (-k): "THROUGHPUT=56195.43".
 * -> transactions_per_s (transactions/s, higher), op "". Error text
 * ("establish control: are you sure there is a netserver listening ...")
 * with no data row is a failure, and so is a rate of 0 (outcome.h: a run
 * that did nothing). Interim results (-D) are ignored. With -i/-I
 * (confidence intervals) netperf warns on stdout when the interval was
 * not reached ("!!! Desired confidence was not achieved within the
 * specified iterations."): the sample keeps that as its flag, noted under
 * the tables. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops netperf_tcp_rr_load;

static const struct param_def netperf_params[] = {
	{"host", PARAM_STRING, "127.0.0.1", NULL, 1, 0, "netserver host (-H)"},
	{"port", PARAM_UINT, NULL, NULL, 1, 65535, "optional: netserver control port (-p)"},
	{"duration_s", PARAM_UINT, "5", NULL, 1, 100000000, "run time in seconds (-l)"},
	{"request_size", PARAM_UINT, "1", NULL, 1, 1048576, "request bytes (-- -r REQ,RESP)"},
	{"response_size", PARAM_UINT, "1", NULL, 1, 1048576, "response bytes (-- -r REQ,RESP)"},
};

static const struct metric_def netperf_metrics[] = {
	{"transactions_per_s", "transactions/s", BETTER_HIGHER,
	 "request/response transactions per second (Trans. Rate)", 2, false},
};

/* Build "netperf -H HOST [-p PORT] -t TCP_RR -l S -- -r REQ,RESP". Fails on
 * an empty or option-like host. */
static int netperf_build_argv(const struct params *p, struct argv *argv,
			      char *err, size_t errsz)
{
	const char *host = params_get(p, "host");

	if (!host || !*host || *host == '-') {
		snprintf(err, errsz, "netperf-tcp-rr: host \"%s\" is not a host name", host ? host : "");
		return -1;
	}
	argv_add(argv, "netperf");
	argv_add(argv, "-H");
	argv_add(argv, host);
	params_argv_int(p, argv, "-p", "port");
	argv_add(argv, "-t");
	argv_add(argv, "TCP_RR");
	params_argv_int(p, argv, "-l", "duration_s");
	argv_add(argv, "--");
	argv_add(argv, "-r");
	argv_addf(argv, "%lld,%lld", params_int(p, "request_size", 1),
		  params_int(p, "response_size", 1));
	return 0;
}

/* true when every field of the line is a number; count in *n. */
static bool numeric_row(const char *line, size_t *n, double *rate)
{
	struct fields fs;
	bool ok;

	fields_split(&fs, line);
	ok = fs.n > 0 && fs.n < FIELDS_MAX;
	for (size_t k = 0; ok && k < fs.n; k++) {
		double v;
		ok = parse_double(fs.f[k], &v);
		if (ok && k == 5)
			*rate = v;
	}
	*n = fs.n;
	fields_free(&fs);
	return ok;
}

/* Split a CSV line at commas (no quoting in netperf's CSV) into at most max
 * fields of buf; returns the count. */
static size_t csv_split(char *buf, char **f, size_t max)
{
	size_t n = 0;
	char *p = buf;

	while (n < max) {
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	size_t k = strspn(s, " \t");
	memmove(s, s + k, strlen(s + k) + 1);
}

/* The rate from CSV output: 1 found, 0 not CSV, -1 CSV without a rate. */
static int csv_rate(const struct text_lines *t, double *rate)
{
	char *f[FIELDS_MAX];
	int col = -1, found = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (!strchr(t->line[i], ','))
			continue;
		char *buf = xstrdup(t->line[i]);
		size_t n = csv_split(buf, f, FIELDS_MAX);
		for (size_t k = 0; k < n; k++)
			trim(f[k]);
		if (col < 0) {
			for (size_t k = 0; k < n; k++)
				if (!strcmp(f[k], "Throughput"))
					col = (int)k;
			if (col >= 0) {
				free(buf);
				continue; /* the value row follows */
			}
			for (size_t k = 1; k < n; k++)
				if (!strcmp(f[k], "Trans/s") && parse_double(f[k - 1], rate) && *rate >= 0)
					found = 1;
		} else {
			found = (size_t)col < n && parse_double(f[col], rate) && *rate >= 0 ? 1 : -1;
			free(buf);
			return found;
		}
		free(buf);
		if (found)
			return 1;
	}
	return col >= 0 ? -1 : 0;
}

static const char confidence_flag[] =
	"netperf: Desired confidence was not achieved within the specified iterations";

/* Parse the transaction rate (see the top of this file) into
 * transactions_per_s, op "". */
static int netperf_parse(const struct load_output *o, const struct params *p,
			 struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	double rate = 0;
	int rc = -1;
	bool found = false;

	(void)p;
	if (output_status(o, &netperf_tcp_rr_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	for (size_t i = 0; i < t.n; i++) {
		size_t n;
		double r = 0;
		const char *kv = after_prefix(t.line[i], "THROUGHPUT=");
		if (kv) {
			if (!parse_double(kv, &r) || r < 0) {
				rc = parse_fail(why, whysz, "unparsable THROUGHPUT= line");
				goto out;
			}
			rate = r;
			found = true;
		} else if (numeric_row(t.line[i], &n, &r) && (n == 6 || n == 10)) {
			/* the full data row; the last one wins */
			rate = r;
			found = true;
		}
	}
	if (!found) {
		int c = csv_rate(&t, &rate);
		if (c < 0) {
			rc = parse_fail(why, whysz, "CSV output without a Throughput value");
			goto out;
		}
		found = c > 0;
	}
	if (!found || !(rate >= 0)) {
		rc = parse_fail(why, whysz, "no TCP_RR data row (6 numeric fields) in stdout");
		goto out;
	}
	sample_vec_add(samples, "transactions_per_s", "transactions/s", BETTER_HIGHER, "", rate);
	for (size_t i = 0; i < t.n; i++)
		if (strstr(t.line[i], "Desired confidence was not achieved"))
			samples->v[samples->n - 1].flag = confidence_flag;
	rc = 0;
out:
	text_lines_free(&t);
	return rc;
}

/* The netperf-tcp-rr driver (see the top of this file). */
const struct load_ops netperf_tcp_rr_load = {
	.name = "netperf-tcp-rr",
	.description = "netperf TCP_RR client: transactions per second (needs a netserver)",
	.params = netperf_params,
	.n_params = sizeof(netperf_params) / sizeof(netperf_params[0]),
	.metrics = netperf_metrics,
	.n_metrics = sizeof(netperf_metrics) / sizeof(netperf_metrics[0]),
	.stop_signal = SIGTERM,
	.failure_lines = (const char *const[]){"are you sure there is a netserver", NULL},
	.build_argv = netperf_build_argv,
	.parse = netperf_parse,
};
