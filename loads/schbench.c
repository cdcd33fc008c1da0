/* schbench (Chris Mason's; not packaged in Debian 12): message threads
 * hand fake requests to worker threads and record wake-up latency, request
 * latency and requests per second.
 *
 * schbench writes its report to STDERR (stdout is searched if stderr has
 * none). Since 2023 it prints the three blocks every interval (-i, default
 * 10 s) and a final set at exit; only the final set is parsed: the last
 * "Wakeup Latencies percentiles" block, the Request and RPS blocks after it,
 * which must be followed by "average rps: X" (or "final rps goal was N"
 * with -A), the marker of the final report. Lines:
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
 * Before 2023 schbench printed one block, "Latency percentiles (usec)", at
 * exit: its rows are wakeup_latency. Every spelling of a row it has printed
 * is read (git history of schbench.c show_latencies):
 *   2016  "\t50.0000th: 7", "\t*99.0000th: 21", "\tOver=0, min=1, max=14453"
 *   2019  "\t*99.0th: 21", "\tmin=1, max=14453"
 *   2021  "... (N total samples)" header, "\t*99.0th: 21 (85637 samples)"
 *   2023  "\t* 99.0th: 21         (85637 samples)", "\t  min=1, max=14453"
 *
 * Sample counts: "(N samples)" on a row is the number of samples between
 * the previous printed percentile and this one (schbench calc_percentiles).
 * A row of "(0 samples)" in the final report gives no value: no sample of
 * the run lies between that percentile and the one printed before it, so
 * its number is the previous row's histogram bucket repeated (a percentile
 * finer than the samples resolve), not a measurement of its own; it is
 * left out rather than reported as if measured. A block whose header says
 * "(0 total samples)" is
 * filled with placeholder zeros: none of its rows (nor min/max) gives a
 * value. Otherwise a block whose percentile rows decrease (p50 above p90)
 * or whose min is above its max is garbage: a failure, no sample. A row
 * is its histogram bucket's midpoint (schbench plat_idx_to_val: PLAT_BITS
 * 8, so a bucket is at most 1/256 of its value wide, and the midpoint is
 * truncated to an integer), which may lie a little past the exact
 * extremes: a block whose min is above its first row, or whose last row is
 * above its max, by more than that bucket error (1/256 of the value plus
 * 1) is garbage too. */
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
	params_argv_int(p, argv, "-m", "message_threads");
	params_argv_int(p, argv, "-t", "threads");
	params_argv_int(p, argv, "-r", "duration_s");
	params_argv_int(p, argv, "-R", "rps");
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
	/* schbench before 2023: wake-up latency only, printed once at exit */
	{"Latency percentiles", "wakeup_latency", "us", BETTER_LOWER},
};
#define OLD_BLOCK 3

/* The total sample count of a block header "... (N total samples)"; -1
 * when the header has none, which only a header of schbench before 2021
 * may (old true). false otherwise. */
static bool header_total(const char *line, bool old, long long *total)
{
	struct fields fs;
	bool ok = true;

	*total = -1;
	fields_split(&fs, line);
	if (fs.n >= 3 && !strcmp(fs.f[fs.n - 2], "total") && !strcmp(fs.f[fs.n - 1], "samples)"))
		ok = fs.f[fs.n - 3][0] == '(' && parse_ll(fs.f[fs.n - 3] + 1, total) && *total >= 0;
	else
		ok = old && !strstr(line, "total samples");
	fields_free(&fs);
	return ok;
}

/* The "min=A, max=B" line that ends a block ("\tOver=N, min=A, max=B"
 * in 2016): 1 with *mn and *mx, 0 when line is not one, -1 garbage. */
static int min_max_line(const char *line, long long *mn, long long *mx)
{
	struct fields fs;
	const char *rest;
	int rc = 0;

	fields_split(&fs, line);
	size_t f = fs.n == 3 && after_prefix(fs.f[0], "Over=") ? 1 : 0;
	if (fs.n > f && after_prefix(fs.f[f], "min=")) {
		size_t len = strlen(fs.f[f]);
		rc = -1;
		if (fs.n == f + 2 && len > 5 && fs.f[f][len - 1] == ',') {
			fs.f[f][len - 1] = '\0';
			if (parse_ll(fs.f[f] + 4, mn) && (rest = after_prefix(fs.f[f + 1], "max=")) &&
			    parse_ll(rest, mx))
				rc = 1;
		}
	}
	fields_free(&fs);
	return rc;
}

/* One percentile row in any spelling schbench has printed:
 *   "  50.0th: 7          (303478 samples)"   2023 on; "* 99.0th:" marks
 *   "*99.0th: 21 (85637 samples)"             2021 ('*' attached)
 *   "*99.0th: 21", "50.0000th: 7"            2016-2019 (no count)
 * into op, *v and *count (-1 when the row has none). false for garbage. */
static bool percentile_row(const char *line, char *op, size_t opsz, long long *v,
			   long long *count)
{
	struct fields fs;
	fields_split(&fs, line);
	size_t f = fs.n > 0 && !strcmp(fs.f[0], "*") ? 1 : 0;
	bool ok = fs.n == f + 2 || fs.n == f + 4;
	if (ok) {
		char *pct = fs.f[f] + (fs.f[f][0] == '*' && !f);
		size_t len = strlen(pct);
		ok = len > 3 && !strcmp(pct + len - 3, "th:");
		if (ok)
			pct[len - 3] = '\0';
		ok = ok && percentile_op(pct, op, opsz) && parse_ll(fs.f[f + 1], v) && *v >= 0;
	}
	*count = -1;
	if (ok && fs.n == f + 4)
		ok = fs.f[f + 2][0] == '(' && parse_ll(fs.f[f + 2] + 1, count) && *count >= 0 &&
		     !strcmp(fs.f[f + 3], "samples)");
	fields_free(&fs);
	return ok;
}

/* Is a at most b, allowing b schbench's bucket error (see the top of this
 * file)? 0, or -1 with why naming both in the block's terms. */
static int bucket_order(const char *block, const char *a_name, long long a, const char *b_name,
			long long b, char *why, size_t whysz)
{
	if ((double)a <= (double)b + (double)b / 256 + 1)
		return 0;
	return parse_fail(why, whysz, "%s: %s %lld above %s %lld by more than schbench's bucket"
			  " error (1/256 + 1)", block, a_name, a, b_name, b);
}

/* Parse one block starting at line *i (its header) into samples (nothing
 * when it has no samples); *i is left on its "min=, max=" line. A row
 * "(0 samples)" gives no value (see the top of this file). */
static int parse_block(const struct text_lines *t, size_t *i, size_t b,
		       struct sample_vec *samples, int *values, char *why, size_t whysz)
{
	long long total;
	struct order_stat prev = {NULL, 0};
	char prev_op[SAMPLE_OP_MAX], first_op[SAMPLE_OP_MAX] = "";
	long long first = 0;

	if (!header_total(t->line[*i], b == OLD_BLOCK, &total))
		return parse_fail(why, whysz, "%s header without \"(N total samples)\"", blocks[b].header);
	for (size_t k = *i + 1; k < t->n; k++) {
		const char *l = t->line[k];
		char op[SAMPLE_OP_MAX];
		long long v, cnt, mn, mx;
		int mm = min_max_line(l, &mn, &mx);

		if (mm < 0)
			return parse_fail(why, whysz, "unparsable min/max line: \"%.60s\"", l);
		if (mm > 0) {
			const struct order_stat s[] = {{"min", (double)mn}, {"max", (double)mx}};
			if (total != 0 && (order_check(blocks[b].header, s, 2, why, whysz) ||
					   (prev.name && (bucket_order(blocks[b].header, "min", mn, first_op,
								       first, why, whysz) ||
							  bucket_order(blocks[b].header, prev.name,
								       (long long)prev.value, "max", mx,
								       why, whysz)))))
				return -1;
			if (total != 0) {
				sample_vec_add(samples, blocks[b].metric, blocks[b].unit, blocks[b].better,
					       "min", (double)mn);
				sample_vec_add(samples, blocks[b].metric, blocks[b].unit, blocks[b].better,
					       "max", (double)mx);
				*values += 2;
			}
			*i = k;
			return 0;
		}
		if (!percentile_row(l, op, sizeof(op), &v, &cnt))
			return parse_fail(why, whysz, "unparsable line in the %s block: \"%.60s\"",
					  blocks[b].header, l);
		const struct order_stat pair[] = {prev, {op, (double)v}};
		if (total != 0 && prev.name && order_check(blocks[b].header, pair, 2, why, whysz))
			return -1;
		if (!prev.name) {
			snprintf(first_op, sizeof(first_op), "%s", op);
			first = v;
		}
		snprintf(prev_op, sizeof(prev_op), "%s", op);
		prev = (struct order_stat){prev_op, (double)v};
		if (total != 0 && cnt != 0) {
			sample_vec_add(samples, blocks[b].metric, blocks[b].unit, blocks[b].better, op,
				       (double)v);
			(*values)++;
		}
	}
	return parse_fail(why, whysz, "%s block without its \"min=, max=\" line", blocks[b].header);
}

static bool has_report(const char *text, size_t len)
{
	return text && len && (memmem(text, len, blocks[0].header, strlen(blocks[0].header)) ||
			       memmem(text, len, blocks[OLD_BLOCK].header,
				      strlen(blocks[OLD_BLOCK].header)));
}

/* The last block of schbench before 2023 ("Latency percentiles", printed
 * once at exit) into samples. */
static int parse_old(const struct text_lines *t, size_t last, struct sample_vec *samples,
		     char *why, size_t whysz)
{
	int values = 0;
	if (parse_block(t, &last, OLD_BLOCK, samples, &values, why, whysz) < 0)
		return -1;
	if (!values)
		return parse_fail(why, whysz, "the final report has no samples (0 total samples)");
	return 0;
}

/* The index of the last line starting with the header of block b, or
 * (size_t)-1. */
static size_t last_block(const struct text_lines *t, size_t b)
{
	size_t last = (size_t)-1;
	for (size_t i = 0; i < t->n; i++)
		if (after_prefix(t->line[i], blocks[b].header))
			last = i;
	return last;
}

/* Parse the final Wakeup, Request and RPS blocks and "average rps" (or the
 * final block of schbench before 2023). */
static int schbench_parse(const struct load_output *o, const struct params *p,
			  struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	struct sample_vec got = {0};
	size_t last, b = 0, i;
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
	last = last_block(&t, 0);
	if (last == (size_t)-1 && (last = last_block(&t, OLD_BLOCK)) != (size_t)-1) {
		rc = parse_old(&t, last, &got, why, whysz);
		goto done;
	}
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
			if (!(have_avg = scan_value(rest, NULL, &avg))) {
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
	if (have_avg)
		sample_vec_add(&got, "rps", "requests/s", BETTER_HIGHER, "avg", avg);
	rc = 0;
done:
	for (i = 0; !rc && i < got.n; i++)
		sample_vec_add(samples, got.v[i].metric, got.v[i].unit, got.v[i].better, got.v[i].op,
			       got.v[i].value);
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
	.build_argv = schbench_build_argv,
	.parse = schbench_parse,
};
