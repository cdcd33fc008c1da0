/* Unit tests of the built-in loads tcp-rr and wakeup-lat: the latency
 * histogram (loads/lat_hist.c), argument handling and argv (loads/builtin.c),
 * the parsers on captured output (tests/fixtures/tool-output/tcp-rr-*,
 * wakeup-lat-*) and on damaged output, and one short real run of each load
 * in a forked child. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "builtin.h"
#include "lat_hist.h"
#include "load.h"

extern const struct load_ops tcp_rr_load;
extern const struct load_ops wakeup_lat_load;

/* ---- helpers ---- */

static char *read_fixture(const char *name, size_t *len)
{
	const char *dir = getenv("FIXTURES");
	char path[512];
	snprintf(path, sizeof(path), "%s/tool-output/%s", dir ? dir : "tests/fixtures", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open fixture %s", path);
	struct buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	buf_append(&b, "", 0);
	*len = b.len;
	return b.data ? b.data : xstrdup("");
}

static struct load_output output_of(const char *out, size_t len, int exit_code)
{
	struct load_output o = {.out = out, .out_len = len, .err = "", .err_len = 0,
				.exit_code = exit_code};
	return o;
}

/* The value of sample metric/op, asserting it occurs exactly once. */
static double sample_value(const struct sample_vec *s, const char *metric, const char *op)
{
	double v = NAN;
	int n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].metric, metric) && !strcmp(s->v[i].op, op)) {
			v = s->v[i].value;
			n++;
		}
	if (n != 1)
		fail_msg("%s %s found %d times", metric, op, n);
	return v;
}

static int parse_text(const struct load_ops *ops, const char *text, const struct params *p,
		      struct sample_vec *s, char *why, size_t whysz)
{
	struct load_output o = output_of(text, strlen(text), 0);
	return ops->parse(&o, p, s, why, whysz);
}

/* ---- lat_hist ---- */

static void test_hist_layout(void **state)
{
	(void)state;
	/* Buckets tile [0, 2^40) without gaps or overlaps. */
	for (size_t i = 0; i + 1 < LAT_HIST_NBUCKETS; i++)
		assert_int_equal(lat_hist_bucket_low(i) + lat_hist_bucket_width(i),
				 lat_hist_bucket_low(i + 1));
	assert_int_equal(lat_hist_bucket_low(LAT_HIST_NBUCKETS - 1) +
				 lat_hist_bucket_width(LAT_HIST_NBUCKETS - 1),
			 1ULL << LAT_HIST_MAX_BITS);
	/* Every value falls in its bucket; relative width <= 1/128. */
	uint64_t vals[] = {0, 1, 255, 256, 257, 511, 512, 1000, 4095, 4096, 123456789,
			   (1ULL << 40) - 1};
	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		size_t i = lat_hist_index(vals[k]);
		assert_true(i < LAT_HIST_NBUCKETS);
		assert_true(lat_hist_bucket_low(i) <= vals[k]);
		assert_true(vals[k] < lat_hist_bucket_low(i) + lat_hist_bucket_width(i));
		if (vals[k] >= 256)
			assert_true(lat_hist_bucket_width(i) * 128 <= lat_hist_bucket_low(i));
	}
	assert_int_equal(lat_hist_index(255), 255);
	assert_int_equal(lat_hist_index(256), 256);
	assert_int_equal(lat_hist_index(1ULL << 50), LAT_HIST_NBUCKETS - 1);
}

static void test_hist_exact_small(void **state)
{
	(void)state;
	struct lat_hist *h = malloc(sizeof(*h));
	lat_hist_init(h);
	for (uint64_t v = 1; v <= 100; v++)
		lat_hist_add(h, v);
	assert_int_equal(h->count, 100);
	/* Nearest rank on 1..100: the p-th percentile is p itself. */
	assert_true(lat_hist_percentile_ns(h, 50) == 50.0);
	assert_true(lat_hist_percentile_ns(h, 90) == 90.0);
	assert_true(lat_hist_percentile_ns(h, 99) == 99.0);
	assert_true(lat_hist_percentile_ns(h, 99.9) == 100.0);
	assert_true(lat_hist_percentile_ns(h, 100) == 100.0);
	assert_true(lat_hist_percentile_ns(h, 1) == 1.0);
	free(h);
}

static void test_hist_microseconds(void **state)
{
	(void)state;
	struct lat_hist *h = malloc(sizeof(*h));
	lat_hist_init(h);
	/* 1..1000 us, in ns. */
	for (uint64_t v = 1; v <= 1000; v++)
		lat_hist_add(h, v * 1000);
	double want[] = {500e3, 900e3, 990e3, 999e3};
	double pct[] = {50, 90, 99, 99.9};
	for (int i = 0; i < 4; i++) {
		double got = lat_hist_percentile_ns(h, pct[i]);
		assert_true(fabs(got - want[i]) <= want[i] * 0.004);
	}
	assert_true(lat_hist_percentile_ns(h, 100) == 1000e3); /* max is exact */
	free(h);
}

static void test_hist_skewed(void **state)
{
	(void)state;
	struct lat_hist *h = malloc(sizeof(*h));
	lat_hist_init(h);
	for (int i = 0; i < 990; i++)
		lat_hist_add(h, 10000);   /* 10 us */
	for (int i = 0; i < 10; i++)
		lat_hist_add(h, 5000000); /* 5 ms */
	/* Rank 990 is the last 10 us value, rank 999 a 5 ms one; bucket
	 * midpoints are within 0.4%, the max is exact. */
	assert_true(fabs(lat_hist_percentile_ns(h, 50) - 10000.0) <= 40.0);
	assert_true(fabs(lat_hist_percentile_ns(h, 99) - 10000.0) <= 40.0);
	assert_true(fabs(lat_hist_percentile_ns(h, 99.9) - 5000000.0) <= 20000.0);
	assert_true(lat_hist_percentile_ns(h, 100) == 5000000.0);
	free(h);
}

static void test_hist_empty_merge_clamp(void **state)
{
	(void)state;
	struct lat_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	lat_hist_init(a);
	lat_hist_init(b);
	assert_true(isnan(lat_hist_percentile_ns(a, 50)));
	lat_hist_add(a, 1000);
	lat_hist_add(b, 3000);
	lat_hist_add(b, 1ULL << 50); /* beyond the table: last bucket, exact max */
	lat_hist_merge(a, b);
	assert_int_equal(a->count, 3);
	assert_int_equal(a->min_ns, 1000);
	assert_int_equal(a->max_ns, 1ULL << 50);
	assert_true(fabs(lat_hist_percentile_ns(a, 50) - 3000) <= 3000 * 0.004);
	assert_true(lat_hist_percentile_ns(a, 100) == (double)(1ULL << 50));
	assert_true(isnan(lat_hist_percentile_ns(a, 0)));
	assert_true(isnan(lat_hist_percentile_ns(a, 101)));
	free(a);
	free(b);
}

static void test_hist_print(void **state)
{
	(void)state;
	struct lat_hist *h = malloc(sizeof(*h));
	lat_hist_init(h);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	lat_hist_print_us(h, "latency", f); /* empty: nothing */
	for (uint64_t v = 1; v <= 100; v++)
		lat_hist_add(h, v);
	lat_hist_print_us(h, "latency", f);
	fclose(f);
	/* 1..100 ns: the mean 50.5 ns, Σx = 5050 ns, Σx² = 338350 ns²; every
	 * value below 256 ns has a bucket of its own, bound = the value */
	assert_non_null(strstr(text, "latency p50 0.050\nlatency p90 0.090\nlatency p95 0.095\n"
				     "latency p99 0.099\nlatency p99.9 0.100\nlatency max 0.100\n"
				     "latency mean 0.051\nlatency hist.events 100\n"
				     "latency hist.sum 5.0499999999999998\n"
				     "latency hist.sum_sq 0.33834999999999998\nlatency hist.min 0.001\n"
				     "latency hist.le:0.001 1\nlatency hist.le:0.002 1\n"));
	assert_non_null(strstr(text, "latency hist.le:0.099 1\nlatency hist.le:0.100 1\n"));
	size_t buckets = 0;
	for (const char *p = text; (p = strstr(p, " hist.le:")); p++)
		buckets++;
	assert_int_equal(buckets, 100);
	free(text);
	free(h);
}

/* ---- argv both ways ---- */

static void test_tcp_rr_build_argv(void **state)
{
	(void)state;
	const struct param_value v[] = {
		{"pairs", "2"}, {"duration_s", "0"}, {"request_bytes", "1"},
		{"response_bytes", "64"}, {"port", "0"}, {"host", "127.0.0.1"},
		{"mode", "thread"},
	};
	struct params p = {sizeof(v) / sizeof(v[0]), v};
	struct argv a = {0};
	char err[128] = "";
	assert_int_equal(load_build_argv(&tcp_rr_load, &p, &a, err, sizeof(err)), 0);
	const char *want[] = {"schedrig", "load", "tcp-rr", "--pairs", "2", "--duration_s", "0",
			      "--request_bytes", "1", "--response_bytes", "64", "--port", "0",
			      "--host", "127.0.0.1", "--mode", "thread"};
	assert_int_equal(a.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.v[i], want[i]);
	assert_null(a.v[a.n]);
	argv_free(&a);
}

static void test_wakeup_lat_build_argv(void **state)
{
	(void)state;
	/* A parameter without a value is left out. */
	const struct param_value v[] = {
		{"message_threads", "2"}, {"workers", "4"}, {"runtime_s", "5"},
		{"think_us", NULL}, {"work_us", "50"},
	};
	struct params p = {sizeof(v) / sizeof(v[0]), v};
	struct argv a = {0};
	char err[128] = "";
	assert_int_equal(load_build_argv(&wakeup_lat_load, &p, &a, err, sizeof(err)), 0);
	const char *want[] = {"schedrig", "load", "wakeup-lat", "--message_threads", "2",
			      "--workers", "4", "--runtime_s", "5", "--work_us", "50"};
	assert_int_equal(a.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.v[i], want[i]);
	argv_free(&a);
}

static void test_parse_args(void **state)
{
	(void)state;
	const char *vals[16];
	char *ok[] = {"tcp-rr", "--pairs", "3", "--mode", "thread", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 5, ok, vals), 0);
	assert_int_equal(builtin_val_ll(&tcp_rr_load, vals, "pairs"), 3);
	assert_string_equal(builtin_val(&tcp_rr_load, vals, "mode"), "thread");
	assert_string_equal(builtin_val(&tcp_rr_load, vals, "host"), "127.0.0.1"); /* default */
	assert_int_equal(builtin_val_ll(&tcp_rr_load, vals, "duration_s"), 10);

	char *unknown[] = {"tcp-rr", "--paris", "3", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 3, unknown, vals), -1);
	char *range[] = {"tcp-rr", "--pairs", "0", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 3, range, vals), -1);
	char *notnum[] = {"tcp-rr", "--pairs", "2x", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 3, notnum, vals), -1);
	char *neg[] = {"wakeup-lat", "--think_us", "-5", NULL};
	assert_int_equal(builtin_parse_args(&wakeup_lat_load, 3, neg, vals), -1);
	char *choice[] = {"tcp-rr", "--mode", "fork", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 3, choice, vals), -1);
	char *novalue[] = {"tcp-rr", "--pairs", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 2, novalue, vals), -1);
	char *twice[] = {"tcp-rr", "--pairs", "1", "--pairs", "2", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 5, twice, vals), -1);
	char *bare[] = {"tcp-rr", "pairs", "2", NULL};
	assert_int_equal(builtin_parse_args(&tcp_rr_load, 3, bare, vals), -1);
}

static void test_builtin_main_usage_errors(void **state)
{
	(void)state;
	char *bad[] = {"tcp-rr", "--host", "0.0.0.0", "--duration_s", "1", NULL};
	assert_int_equal(tcp_rr_load.builtin_main(5, bad), 2);
	char *v6any[] = {"tcp-rr", "--host", "::", NULL};
	assert_int_equal(tcp_rr_load.builtin_main(3, v6any), 2);
	char *name[] = {"tcp-rr", "--host", "localhost", NULL};
	assert_int_equal(tcp_rr_load.builtin_main(3, name), 2);
	char *ports[] = {"tcp-rr", "--port", "65535", "--pairs", "2", NULL};
	assert_int_equal(tcp_rr_load.builtin_main(5, ports), 2);
	char *opt[] = {"wakeup-lat", "--threads", "2", NULL};
	assert_int_equal(wakeup_lat_load.builtin_main(3, opt), 2);
	char *many[] = {"wakeup-lat", "--message_threads", "64", "--workers", "64", NULL};
	assert_int_equal(wakeup_lat_load.builtin_main(5, many), 2);
}

/* ---- tcp-rr parser ---- */

static void test_tcp_rr_parse_fixture(void **state)
{
	(void)state;
	size_t len;
	char *text = read_fixture("tcp-rr-2pairs.txt", &len);
	struct load_output o = output_of(text, len, 0);
	struct sample_vec s = {0};
	char why[256] = "";
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), 0);
	assert_int_equal(s.n, 3 * 2 + 2 + 7);
	assert_true(sample_value(&s, "transactions", "0") == 24390.1);
	assert_true(sample_value(&s, "transactions", "1") == 24526.4);
	assert_true(sample_value(&s, "interval_transactions", "pair1-s2") == 36183.1);
	assert_true(sample_value(&s, "latency", "p50") == 23.872);
	assert_true(sample_value(&s, "latency", "p95") == 93.439);
	assert_true(sample_value(&s, "latency", "p99.9") == 2957.311);
	assert_true(sample_value(&s, "latency", "max") == 11349.868);
	assert_true(sample_value(&s, "latency", "mean") == 40.610);
	/* The histogram of every round trip: its 829 non-empty buckets hold
	 * the 146759 events (counted in python from the fixture's lines). */
	assert_int_equal(s.n_hists, 1);
	const struct sample_hist *h = &s.hists[0];
	assert_string_equal(h->metric, "latency");
	assert_string_equal(h->unit, "us");
	assert_int_equal(h->n_buckets, 829);
	uint64_t events = 0;
	for (size_t i = 0; i < h->n_buckets; i++)
		events += h->counts[i];
	assert_true(events == 146759);
	assert_true(h->bounds[0] == 16.639 && h->bounds[828] == 11403.263);
	assert_true(h->min_observed == 16.572 && h->max_observed == 11349.868);
	assert_true(h->sum == 5959820.4390000002 && h->sum_sq == 4471084039.6013393);
	assert_int_equal(h->overflow, 0);
	for (size_t i = 0; i < s.n; i++) {
		if (!strcmp(s.v[i].metric, "latency")) {
			assert_string_equal(s.v[i].unit, "us");
			assert_int_equal(s.v[i].better, BETTER_LOWER);
		} else {
			assert_string_equal(s.v[i].unit, "transactions/s");
			assert_int_equal(s.v[i].better, BETTER_HIGHER);
		}
	}
	sample_vec_free(&s);

	/* The instance's params must agree with the output. */
	const struct param_value v[] = {{"pairs", "3"}};
	struct params p = {1, v};
	assert_int_equal(tcp_rr_load.parse(&o, &p, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "2 pairs"));
	assert_int_equal(s.n, 0);
	free(text);
}

/* A built-in's latency ops out of order (a percentile above a higher one,
 * the mean above the max) are garbage: a failure naming the pair, no
 * sample. Each case edits one line of a captured output. */
static void test_latency_order(void **state)
{
	(void)state;
	const struct {
		const struct load_ops *ops;
		const char *fixture, *from, *to, *reason;
	} cases[] = {
		{&tcp_rr_load, "tcp-rr-2pairs.txt", "latency p95 93.439", "latency p95 60.5",
		 "latency: p90 68.864 is above p95 60.5"},
		{&tcp_rr_load, "tcp-rr-2pairs.txt", "latency mean 40.610", "latency mean 20000",
		 "latency: mean 20000 is above max 11349.868"},
		{&wakeup_lat_load, "wakeup-lat-2s.txt", "wakeup_latency p99 3153.919",
		 "wakeup_latency p99 50000", "wakeup_latency: p99 50000 is above p99.9 40239.103"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *text = read_fixture(cases[i].fixture, &len);
		char *at = strstr(text, cases[i].from);
		assert_non_null(at);
		char *edited = xasprintf("%.*s%s%s", (int)(at - text), text, cases[i].to,
					 at + strlen(cases[i].from));
		struct load_output o = output_of(edited, strlen(edited), 0);
		struct sample_vec s = {0};
		char why[256] = "";
		assert_int_equal(cases[i].ops->parse(&o, NULL, &s, why, sizeof(why)), -1);
		assert_string_equal(why, cases[i].reason);
		assert_int_equal(s.n, 0);
		free(edited);
		free(text);
	}
}

static void test_tcp_rr_parse_stopped_and_thread(void **state)
{
	(void)state;
	size_t len;
	char *text = read_fixture("tcp-rr-sigint.txt", &len);
	struct load_output o = output_of(text, len, 0);
	o.stopped = true;
	struct sample_vec s = {0};
	char why[256] = "";
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), 0);
	assert_true(sample_value(&s, "transactions", "0") == 25558.5);
	assert_true(sample_value(&s, "latency", "mean") == 36.712);
	assert_int_equal(s.n_hists, 1);
	sample_vec_free(&s);
	free(text);

	text = read_fixture("tcp-rr-thread-64b.txt", &len);
	o = output_of(text, len, 0);
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), 0);
	assert_int_equal(s.n, 2 + 1 + 7);
	assert_true(sample_value(&s, "transactions", "0") == 41097.4);
	assert_true(sample_value(&s, "latency", "p90") == 18.367);
	sample_vec_free(&s);
	free(text);
}

static void test_tcp_rr_parse_failures(void **state)
{
	(void)state;
	size_t len;
	char *good = read_fixture("tcp-rr-2pairs.txt", &len);
	struct sample_vec s = {0};
	char why[256];

	/* Truncated before the end line, and in the middle of a line. */
	char *cut = strstr(good, "end ");
	for (size_t at = 0; at < (size_t)(cut - good); at += 7) {
		struct load_output o = output_of(good, at, 0);
		why[0] = '\0';
		assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
		assert_true(why[0] != '\0');
		assert_int_equal(s.n, 0);
	}
	struct load_output o = output_of(good, (size_t)(cut - good), 0);
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "truncated"));

	/* Empty output. */
	o = output_of("", 0, 0);
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_string_equal(why, "no output");

	/* Crashed or failed runs, even with complete output. */
	o = output_of(good, len, 1);
	o.err = "schedrig load tcp-rr: pair 0 client: connect: Connection refused\n";
	o.err_len = strlen(o.err);
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_string_equal(why, "exit status 1: schedrig load tcp-rr: pair 0 client: connect: "
				 "Connection refused");
	o = output_of(good, len, 0);
	o.signaled = true;
	o.term_signal = 9;
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "signal 9"));

	/* Captured usage error: exit status 2, nothing on stdout. */
	size_t elen;
	char *err = read_fixture("tcp-rr-fail-badopt.stderr.txt", &elen);
	o = output_of("", 0, 2);
	o.err = err;
	o.err_len = elen;
	assert_int_equal(tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "exit status 2"));
	free(err);

	const char *bad[] = {
		"hello world\n",
		"\x01\x02\x03 binary\n",
		"schedrig-tcp-rr 2 pairs=1\ntransactions 0 1.0\nend\n",          /* version */
		"schedrig-wakeup-lat 1\nend\n",                                  /* other tool */
		"schedrig-tcp-rr 1\ntransactions 0 1.0\nend\n",                  /* no pairs= */
		"schedrig-tcp-rr 1 pairs=2\ntransactions 0 1.0\nend\n",          /* pair missing */
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 NaN\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 -3\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 12abc\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 1 5.0\nend\n",         /* pair out of range */
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 5.0\ntransactions 0 5.0\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 5.0\nend\n",          /* rate but no latency */
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 0.0\nlatency p50 1.0\nend\n", /* partial */
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 0.0\nlatency p42 1.0\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 0.0\nbogus 0 1.0\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ninterval_transactions pair0-sX 1.0\ntransactions 0 0.0\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ninterval_transactions pair3-s0 1.0\ntransactions 0 0.0\nend\n",
		"schedrig-tcp-rr 1 pairs=1\ntransactions 0 0.0\nend\ntransactions 0 0.0\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (parse_text(&tcp_rr_load, bad[i], NULL, &s, why, sizeof(why)) != -1)
			fail_msg("accepted bad output %zu: %s", i, bad[i]);
		assert_true(why[0] != '\0');
		assert_int_equal(s.n, 0);
	}

	/* A stop before any transaction: rates of 0, no latency; still valid. */
	assert_int_equal(parse_text(&tcp_rr_load, "schedrig-tcp-rr 1 pairs=1\ntransactions 0 0.0\n"
				    "end elapsed_s=0.001 transactions=0\n", NULL, &s, why, sizeof(why)), 0);
	assert_int_equal(s.n, 1);
	sample_vec_free(&s);
	free(good);
}

/* The histogram lines of a built-in load are checked like every other
 * line: ascending bounds, whole counts, the events in the buckets, each
 * summary once; a bad one fails the instance with the line named. */
static void test_hist_records(void **state)
{
	(void)state;
	static const char head[] = "schedrig-tcp-rr 1 pairs=1\ntransactions 0 10\nlatency p50 1\n"
				   "latency p90 2\nlatency p95 2\nlatency p99 2\nlatency p99.9 2\n"
				   "latency max 2\nlatency mean 1.5\n";
	static const struct {
		const char *tail, *why;
	} cases[] = {
		{"latency hist.events 2\nlatency hist.sum 3\nlatency hist.sum_sq 5\nlatency hist.min 1\n"
		 "latency hist.le:1.000 1\nlatency hist.le:2.000 1\nend\n", NULL},
		{"latency hist.events 2\nlatency hist.sum 3\nlatency hist.sum_sq 5\nlatency hist.min 1\n"
		 "latency hist.le:2.000 1\nlatency hist.le:1.000 1\nend\n",
		 "line 15: bad latency histogram record 'hist.le:1.000' (bounds ascend, counts are whole"
		 " numbers >= 1)"},
		{"latency hist.events 3\nlatency hist.sum 3\nlatency hist.sum_sq 5\nlatency hist.min 1\n"
		 "latency hist.le:1.000 1\nlatency hist.le:2.000 1\nend\n",
		 "latency histogram: hist.events 3 but 2 in its buckets"},
		{"latency hist.events 2\nlatency hist.sum 3\nlatency hist.sum_sq 5\nlatency hist.min 1.5\n"
		 "latency hist.le:1.000 1\nlatency hist.le:2.000 1\nend\n",
		 "latency histogram: hist.min 1.5 above its first bucket (values at most 1)"},
		/* The sum within min·events..max·events (max 2: the max op). */
		{"latency hist.events 2\nlatency hist.sum 999999999\nlatency hist.sum_sq 5\n"
		 "latency hist.min 1\nlatency hist.le:1.000 1\nlatency hist.le:2.000 1\nend\n",
		 "latency histogram: hist.sum 999999999 is above max x hist.events (4)"},
		{"latency hist.events 2\nlatency hist.sum 1.5\nlatency hist.sum_sq 5\nlatency hist.min 1\n"
		 "latency hist.le:1.000 1\nlatency hist.le:2.000 1\nend\n",
		 "latency histogram: hist.sum 1.5 is below hist.min x hist.events (2)"},
		{"latency hist.events 2\nlatency hist.sum 3\nlatency hist.sum_sq 5\nlatency hist.min 1\n"
		 "latency hist.le:1.000 0.5\nend\n",
		 "line 14: bad latency histogram record 'hist.le:1.000' (bounds ascend, counts are whole"
		 " numbers >= 1)"},
		{"latency hist.events 2\nlatency hist.sum 3\nlatency hist.sum 3\nend\n",
		 "line 12: hist.sum given twice"},
		{"latency hist.events 1\nlatency hist.sum 3\nlatency hist.sum_sq 5\n"
		 "latency hist.le:1.000 1\nend\n",
		 "latency histogram lacks hist.events, hist.sum, hist.sum_sq, hist.min or its buckets"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xasprintf("%s%s", head, cases[i].tail);
		struct load_output o = output_of(text, strlen(text), 0);
		struct sample_vec s = {0};
		char why[256] = "";
		int rc = tcp_rr_load.parse(&o, NULL, &s, why, sizeof(why));
		if (cases[i].why) {
			assert_int_equal(rc, -1);
			assert_string_equal(why, cases[i].why);
			assert_int_equal(s.n + s.n_hists, 0);
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(s.n_hists, 1);
			assert_true(s.hists[0].bounds[1] == 2.0 && s.hists[0].counts[1] == 1);
			assert_true(s.hists[0].sum == 3 && s.hists[0].min_observed == 1);
		}
		sample_vec_free(&s);
		free(text);
	}
}

/* ---- wakeup-lat parser ---- */

static void test_wakeup_lat_parse_fixture(void **state)
{
	(void)state;
	size_t len;
	char *text = read_fixture("wakeup-lat-2s.txt", &len);
	struct load_output o = output_of(text, len, 0);
	struct sample_vec s = {0};
	char why[256] = "";
	assert_int_equal(wakeup_lat_load.parse(&o, NULL, &s, why, sizeof(why)), 0);
	assert_int_equal(s.n, 15);
	assert_true(sample_value(&s, "wakeup_latency", "p50") == 33.919);
	assert_true(sample_value(&s, "wakeup_latency", "p95") == 281.599);
	assert_true(sample_value(&s, "wakeup_latency", "max") == 42725.722);
	assert_true(sample_value(&s, "wakeup_latency", "mean") == 245.217);
	assert_true(sample_value(&s, "request_latency", "p99.9") == 40239.103);
	assert_true(sample_value(&s, "requests_per_s", "all") == 667.9);
	/* Both histograms: 1336 wake-ups in 465 and 241 non-empty buckets
	 * (counted in python from the fixture's lines) */
	assert_int_equal(s.n_hists, 2);
	assert_string_equal(s.hists[0].metric, "wakeup_latency");
	assert_int_equal(s.hists[0].n_buckets, 465);
	assert_int_equal(s.hists[1].n_buckets, 241);
	assert_true(s.hists[1].min_observed == 105.221 && s.hists[1].max_observed == 42832.545);
	uint64_t events = 0;
	for (size_t i = 0; i < s.hists[0].n_buckets; i++)
		events += s.hists[0].counts[i];
	assert_true(events == 1336);
	for (size_t i = 0; i < s.n; i++)
		if (!strcmp(s.v[i].metric, "requests_per_s"))
			assert_int_equal(s.v[i].better, BETTER_HIGHER);
		else
			assert_int_equal(s.v[i].better, BETTER_LOWER);
	sample_vec_free(&s);
	free(text);

	text = read_fixture("wakeup-lat-2x4.txt", &len);
	o = output_of(text, len, 0);
	assert_int_equal(wakeup_lat_load.parse(&o, NULL, &s, why, sizeof(why)), 0);
	assert_true(sample_value(&s, "requests_per_s", "all") == 5601.3);
	assert_true(sample_value(&s, "request_latency", "p90") == 414.719);
	sample_vec_free(&s);
	free(text);
}

static void test_wakeup_lat_parse_failures(void **state)
{
	(void)state;
	size_t len;
	char *good = read_fixture("wakeup-lat-2s.txt", &len);
	struct sample_vec s = {0};
	char why[256];

	size_t end_at = (size_t)(strstr(good, "end ") - good);
	for (size_t at = 0; at <= end_at; at += 5) {
		struct load_output o = output_of(good, at, 0);
		why[0] = '\0';
		assert_int_equal(wakeup_lat_load.parse(&o, NULL, &s, why, sizeof(why)), -1);
		assert_true(why[0] != '\0');
		assert_int_equal(s.n, 0);
	}
	struct load_output o = output_of(good, len, 0);
	o.signaled = true;
	o.term_signal = 11;
	assert_int_equal(wakeup_lat_load.parse(&o, NULL, &s, why, sizeof(why)), -1);

	const char *bad[] = {
		"",
		"garbage\n",
		"schedrig-tcp-rr 1 pairs=1\nend\n",
		"schedrig-wakeup-lat 1\nend\n",                                  /* no rate */
		"schedrig-wakeup-lat 1\nrequests_per_s all 10.0\nend\n",         /* no latencies */
		"schedrig-wakeup-lat 1\nrequests_per_s total 10.0\nend\n",
		"schedrig-wakeup-lat 1\nrequests_per_s all inf\nend\n",
		"schedrig-wakeup-lat 1\nrequests_per_s all 0.0\nwakeup_latency p50 3.0\nend\n",
		"schedrig-wakeup-lat 1\nrequests_per_s all 0.0\nwakeup_latency p50 3.0 us\nend\n",
		"schedrig-wakeup-lat 1\nrequests_per_s all 0.0\nrequests_per_s all 0.0\nend\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (parse_text(&wakeup_lat_load, bad[i], NULL, &s, why, sizeof(why)) != -1)
			fail_msg("accepted bad output %zu: %s", i, bad[i]);
		assert_true(why[0] != '\0');
		assert_int_equal(s.n, 0);
	}
	free(good);
}

/* ---- real runs ---- */

/* Run ops->builtin_main(args) in a child with stdout in a temporary file,
 * then parse that output. Returns the parse result; *status gets the exit
 * status. */
static int run_builtin(const struct load_ops *ops, char **args, int nargs,
		       struct sample_vec *s, char *why, size_t whysz)
{
	char path[] = "/tmp/test_builtin_loads.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	fflush(stdout);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd, 1);
		_exit(ops->builtin_main(nargs, args));
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	lseek(fd, 0, SEEK_SET);
	struct buf b = {0};
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_append(&b, chunk, (size_t)n);
	close(fd);
	struct load_output o = output_of(buf_str(&b), b.len, WEXITSTATUS(st));
	int r = ops->parse(&o, NULL, s, why, whysz);
	buf_free(&b);
	return r;
}

static void test_tcp_rr_real_run(void **state)
{
	(void)state;
	const char *modes[] = {"process", "thread"};
	for (int m = 0; m < 2; m++) {
		char *args[] = {"tcp-rr", "--pairs", "2", "--duration_s", "1", "--mode",
				(char *)modes[m], "--response_bytes", "100", NULL};
		struct sample_vec s = {0};
		char why[256] = "";
		if (run_builtin(&tcp_rr_load, args, 9, &s, why, sizeof(why)))
			fail_msg("tcp-rr %s: %s", modes[m], why);
		assert_true(sample_value(&s, "transactions", "0") > 0);
		assert_true(sample_value(&s, "transactions", "1") > 0);
		assert_true(sample_value(&s, "interval_transactions", "pair0-s0") > 0);
		double p50 = sample_value(&s, "latency", "p50");
		assert_true(p50 > 0 && p50 <= sample_value(&s, "latency", "p99"));
		assert_true(sample_value(&s, "latency", "p99") <= sample_value(&s, "latency", "max"));
		sample_vec_free(&s);
	}
}

static void test_wakeup_lat_real_run(void **state)
{
	(void)state;
	char *args[] = {"wakeup-lat", "--runtime_s", "1", "--workers", "2", "--work_us", "50", NULL};
	struct sample_vec s = {0};
	char why[256] = "";
	if (run_builtin(&wakeup_lat_load, args, 7, &s, why, sizeof(why)))
		fail_msg("wakeup-lat: %s", why);
	assert_true(sample_value(&s, "requests_per_s", "all") > 0);
	assert_true(sample_value(&s, "wakeup_latency", "p50") > 0);
	/* A request includes its wake-up and at least 50 us of CPU work. */
	assert_true(sample_value(&s, "request_latency", "p50") >= 50);
	assert_true(sample_value(&s, "request_latency", "max") >=
		    sample_value(&s, "request_latency", "p99.9"));
	sample_vec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_layout),
		cmocka_unit_test(test_hist_exact_small),
		cmocka_unit_test(test_hist_microseconds),
		cmocka_unit_test(test_hist_skewed),
		cmocka_unit_test(test_hist_empty_merge_clamp),
		cmocka_unit_test(test_hist_print),
		cmocka_unit_test(test_hist_records),
		cmocka_unit_test(test_tcp_rr_build_argv),
		cmocka_unit_test(test_wakeup_lat_build_argv),
		cmocka_unit_test(test_parse_args),
		cmocka_unit_test(test_builtin_main_usage_errors),
		cmocka_unit_test(test_tcp_rr_parse_fixture),
		cmocka_unit_test(test_latency_order),
		cmocka_unit_test(test_tcp_rr_parse_stopped_and_thread),
		cmocka_unit_test(test_tcp_rr_parse_failures),
		cmocka_unit_test(test_wakeup_lat_parse_fixture),
		cmocka_unit_test(test_wakeup_lat_parse_failures),
		cmocka_unit_test(test_tcp_rr_real_run),
		cmocka_unit_test(test_wakeup_lat_real_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
