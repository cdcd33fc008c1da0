/* schbench (Chris Mason's, v1.0 / git 2023-2025 format; not packaged in
 * Debian 12): message threads hand fake requests to worker threads and
 * record wake-up latency, request latency and requests per second.
 *
 * schbench writes its report to STDERR (stdout is searched if stderr has
 * none). It prints the three blocks every interval (-i, default 10 s) and a
 * final set at exit; only the final set is parsed: the last "Wakeup
 * Latencies percentiles" block, the Request and RPS blocks after it, which
 * must be followed by "average rps: X" (or "final rps goal was N" with
 * -A), the marker of the final report. Lines:
 *   "Wakeup Latencies percentiles (usec) runtime 30 (s) (1015467 total samples)"
 *   "	  50.0th: 7          (303478 samples)"
 *   "	* 99.0th: 21         (85637 samples)"      ('*' marks the headline row)
 *   "	  min=1, max=14453"                          (ends a block)
 *   "Request Latencies percentiles (usec) ..."     same rows
 *   "RPS percentiles (requests) ..."               rows 20.0th, 50.0th, 90.0th
 *   "average rps: 33856.50"
 * -> wakeup_latency, request_latency (us, lower), rps (requests/s, higher);
 * op = the percentile with '*' and trailing zeros stripped ("p50", "p99",
 * "p99.9"), "min", "max", and for rps also "avg" (average rps line).
 *
 * Sample counts: "(N samples)" on a row is the number of samples between
 * the previous printed percentile and this one (schbench calc_percentiles),
 * so "(0 samples)" only means this percentile fell into the same histogram
 * bucket as the previous one: the value is real and is reported. A block
 * whose header says "(0 total samples)" is filled with placeholder zeros by
 * schbench: none of its rows (nor min/max) gives a value. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops schbench_load;

static const struct param_def schbench_params[] = {
	{"message_threads", PARAM_UINT, "1", NULL, 1, 100000, "message threads (-m)"},
	{"threads", PARAM_UINT, "2", NULL, 1, 100000, "worker threads per message thread (-t)"},
	{"duration_s", PARAM_UINT, "10", NULL, 1, 100000000, "run time in seconds (-r)"},
	{"rps", PARAM_UINT, NULL, NULL, 1, 1000000000,
	 "optional: requests per second to generate (-R); default: as fast as possible"},
};

static const struct metric_def schbench_metrics[] = {
	{"wakeup_latency", "us", BETTER_LOWER, "worker wake-up latency; ops pNN, min, max", 2, false},
	{"request_latency", "us", BETTER_LOWER, "request completion time; ops pNN, min, max", 2, false},
	{"rps", "requests/s", BETTER_HIGHER, "requests per second; ops p20, p50, p90, min, max, avg", 2, false},
};

/* Build "schbench -m M -t T -r S [-R RPS]". Never fails. */
static int schbench_build_argv(const struct params *p, struct argv *argv,
			       char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	argv_add(argv, "schbench");
	argv_add(argv, "-m");
	argv_addf(argv, "%lld", params_int(p, "message_threads", 1));
	argv_add(argv, "-t");
	argv_addf(argv, "%lld", params_int(p, "threads", 2));
	argv_add(argv, "-r");
	argv_addf(argv, "%lld", params_int(p, "duration_s", 10));
	if (params_get(p, "rps")) {
		argv_add(argv, "-R");
		argv_addf(argv, "%lld", params_int(p, "rps", 0));
	}
	return 0;
}

static const struct {
	const char *header; /* line prefix */
	const char *metric;
	const char *unit;
	enum better better;
} blocks[] = {
	{"Wakeup Latencies percentiles", "wakeup_latency", "us", BETTER_LOWER},
	{"Request Latencies percentiles", "request_latency", "us", BETTER_LOWER},
	{"RPS percentiles", "rps", "requests/s", BETTER_HIGHER},
};

/* The total sample count of a block header "... (N total samples)". */
static bool header_total(const char *line, long long *total)
{
	struct fields fs;
	bool ok = false;

	fields_split(&fs, line);
	if (fs.n >= 3 && !strcmp(fs.f[fs.n - 2], "total") && !strcmp(fs.f[fs.n - 1], "samples)") &&
	    fs.f[fs.n - 3][0] == '(')
		ok = parse_ll(fs.f[fs.n - 3] + 1, total) && *total >= 0;
	fields_free(&fs);
	return ok;
}

/* Parse one block starting at line *i (its header) into samples (nothing
 * when it has no samples); *i is left on its "min=, max=" line. */
static int parse_block(const struct text_lines *t, size_t *i, size_t b,
		       struct sample_vec *samples, int *values, char *why, size_t whysz)
{
	long long total;

	if (!header_total(t->line[*i], &total))
		return parse_fail(why, whysz, "%s header without \"(N total samples)\"", blocks[b].header);
	for (size_t k = *i + 1; k < t->n; k++) {
		const char *l = t->line[k];
		struct fields fs;
		char op[SAMPLE_OP_MAX];
		long long v, cnt;
		const char *rest;

		if ((rest = after_prefix(l, "min="))) {
			long long mn, mx;
			fields_split(&fs, l);
			bool ok = fs.n == 2 && strlen(fs.f[0]) > 5 && fs.f[0][strlen(fs.f[0]) - 1] == ',';
			if (ok) {
				fs.f[0][strlen(fs.f[0]) - 1] = '\0';
				ok = parse_ll(fs.f[0] + 4, &mn) && (rest = after_prefix(fs.f[1], "max=")) &&
				     parse_ll(rest, &mx);
			}
			fields_free(&fs);
			if (!ok)
				return parse_fail(why, whysz, "unparsable min/max line: \"%.60s\"", l);
			if (total > 0) {
				sample_vec_add(samples, blocks[b].metric, blocks[b].unit, blocks[b].better,
					       "min", (double)mn);
				sample_vec_add(samples, blocks[b].metric, blocks[b].unit, blocks[b].better,
					       "max", (double)mx);
				*values += 2;
			}
			*i = k;
			return 0;
		}
		fields_split(&fs, l);
		size_t f = fs.n > 0 && !strcmp(fs.f[0], "*") ? 1 : 0;
		bool ok = fs.n == f + 4;
		if (ok) {
			size_t len = strlen(fs.f[f]);
			ok = len > 3 && !strcmp(fs.f[f] + len - 3, "th:");
			if (ok)
				fs.f[f][len - 3] = '\0';
			ok = ok && percentile_op(fs.f[f], op, sizeof(op)) && parse_ll(fs.f[f + 1], &v) &&
			     v >= 0 && fs.f[f + 2][0] == '(' && parse_ll(fs.f[f + 2] + 1, &cnt) &&
			     !strcmp(fs.f[f + 3], "samples)");
		}
		fields_free(&fs);
		if (!ok)
			return parse_fail(why, whysz, "unparsable line in the %s block: \"%.60s\"",
					  blocks[b].header, l);
		if (total > 0) {
			sample_vec_add(samples, blocks[b].metric, blocks[b].unit, blocks[b].better, op,
				       (double)v);
			(*values)++;
		}
	}
	return parse_fail(why, whysz, "%s block without its \"min=, max=\" line", blocks[b].header);
}

static bool has_report(const char *text, size_t len)
{
	return text && len && memmem(text, len, blocks[0].header, strlen(blocks[0].header));
}

/* Parse the final Wakeup, Request and RPS blocks and "average rps". */
static int schbench_parse(const struct load_output *o, const struct params *p,
			  struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	struct sample_vec got = {0};
	size_t last = (size_t)-1, b = 0, i;
	int values = 0, rc = -1;
	bool final = false;
	double avg = 0;
	bool have_avg = false;

	(void)p;
	if (output_status(o, &schbench_load, why, whysz) < 0)
		return -1;
	if (has_report(o->err, o->err_len))
		text_lines_split(&t, o->err, o->err_len);
	else
		text_lines_split(&t, o->out, o->out_len);
	for (i = 0; i < t.n; i++)
		if (after_prefix(t.line[i], blocks[0].header))
			last = i;
	if (last == (size_t)-1) {
		rc = parse_fail(why, whysz, "no \"Wakeup Latencies percentiles\" block");
		goto out;
	}
	for (i = last; i < t.n; i++) {
		const char *l = t.line[i];
		const char *rest;
		if (b < 3 && after_prefix(l, blocks[b].header)) {
			if (parse_block(&t, &i, b, &got, &values, why, whysz) < 0)
				goto out;
			b++;
		} else if (b == 3 && (rest = after_prefix(l, "average rps:"))) {
			struct fields fs;
			fields_split(&fs, rest);
			have_avg = fs.n == 1 && parse_double(fs.f[0], &avg) && avg >= 0;
			fields_free(&fs);
			if (!have_avg) {
				rc = parse_fail(why, whysz, "unparsable \"average rps\" line");
				goto out;
			}
			final = true;
			break;
		} else if (b == 3 && after_prefix(l, "final rps goal was")) {
			final = true;
			break;
		}
	}
	if (b < 3) {
		rc = parse_fail(why, whysz, "no \"%s\" block after the last Wakeup block",
				blocks[b].header);
		goto out;
	}
	if (!final) {
		rc = parse_fail(why, whysz, "no final report (\"average rps:\" line) after the last blocks");
		goto out;
	}
	if (!values) {
		rc = parse_fail(why, whysz, "the final report has no samples (0 total samples)");
		goto out;
	}
	for (i = 0; i < got.n; i++)
		sample_vec_add(samples, got.v[i].metric, got.v[i].unit, got.v[i].better, got.v[i].op,
			       got.v[i].value);
	if (have_avg)
		sample_vec_add(samples, "rps", "requests/s", BETTER_HIGHER, "avg", avg);
	rc = 0;
out:
	sample_vec_free(&got);
	text_lines_free(&t);
	return rc;
}

/* The schbench driver (see the top of this file). */
const struct load_ops schbench_load = {
	.name = "schbench",
	.description = "schbench: wake-up and request latency percentiles and requests per second",
	.params = schbench_params,
	.n_params = sizeof(schbench_params) / sizeof(schbench_params[0]),
	.metrics = schbench_metrics,
	.n_metrics = sizeof(schbench_metrics) / sizeof(schbench_metrics[0]),
	.stop_signal = SIGTERM,
	.summarizes_on_stop = false,
	.build_argv = schbench_build_argv,
	.parse = schbench_parse,
};
