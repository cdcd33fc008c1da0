/* Unit tests of the built-in loads kernbench and oltp: their argv (exact),
 * argument errors, the prepare hook's errors, and their parsers on their own
 * captured output (tests/fixtures/tool-output/kernbench-*, oltp-*) and on
 * truncated, empty, failed and garbage output. The real runs are in
 * tests/integration/catalog.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "load.h"
#include "oltp_report.h"
#include "util.h"

extern const struct load_ops kernbench_load;
extern const struct load_ops oltp_load;

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
	double v = -1;
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

static void assert_argv(const struct argv *a, const char *const *want, size_t n)
{
	for (size_t i = 0; i < a->n && i < n; i++)
		assert_string_equal(a->v[i], want[i]);
	assert_int_equal(a->n, n);
	assert_null(a->v[a->n]);
}

/* Every bad text must fail with a reason and no samples. */
static void assert_all_fail(const struct load_ops *ops, const char *const *bad, size_t n,
			    const struct params *p)
{
	for (size_t i = 0; i < n; i++) {
		struct sample_vec s = {0};
		char why[256] = "";
		struct load_output o = output_of(bad[i], strlen(bad[i]), 0);
		if (ops->parse(&o, p, &s, why, sizeof(why)) != -1)
			fail_msg("%s accepted bad output %zu: %s", ops->name, i, bad[i]);
		if (!why[0])
			fail_msg("%s: no reason for bad output %zu", ops->name, i);
		assert_int_equal(s.n, 0);
	}
}

/* Every cut of good before its end line fails (truncated output). */
static void assert_truncations_fail(const struct load_ops *ops, const char *good)
{
	size_t end_at = (size_t)(strstr(good, "\nend ") - good) + 1;
	for (size_t at = 0; at <= end_at + 3; at++) {
		struct sample_vec s = {0};
		char why[256] = "";
		struct load_output o = output_of(good, at, 0);
		if (ops->parse(&o, NULL, &s, why, sizeof(why)) != -1)
			fail_msg("%s accepted output cut at %zu", ops->name, at);
		assert_true(why[0] != '\0');
		assert_int_equal(s.n, 0);
	}
}

/* A good text with a failed exit (status 1, a signal, a stop) fails. */
static void assert_exit_failures(const struct load_ops *ops, const char *good, size_t len)
{
	struct sample_vec s = {0};
	char why[256] = "";
	struct load_output o = output_of(good, len, 1);
	o.err = "schedrig load x: make vmlinux failed\n";
	o.err_len = strlen(o.err);
	assert_int_equal(ops->parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "exit status 1"));
	assert_non_null(strstr(why, "make vmlinux failed"));
	o = output_of(good, len, 0);
	o.signaled = true;
	o.term_signal = 9;
	assert_int_equal(ops->parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "signal 9"));
	o = output_of(good, len, 0);
	o.stopped = true;
	assert_int_equal(ops->parse(&o, NULL, &s, why, sizeof(why)), -1);
	assert_int_equal(s.n, 0);
}

/* ---- kernbench ---- */

static void test_kernbench_build_argv(void **state)
{
	(void)state;
	const struct param_value v[] = {
		{"jobs", "2"}, {"config", "tinyconfig"}, {"targets", "vmlinux modules"},
		{"source", "/usr/src/linux-source-6.1.tar.xz"}, {"cache_dir", "results/cache/kernbench"},
		{"prepare_only", "false"},
	};
	struct params p = {sizeof(v) / sizeof(v[0]), v};
	struct argv a = {0};
	char err[128] = "";
	assert_int_equal(load_build_argv(&kernbench_load, &p, &a, err, sizeof(err)), 0);
	const char *want[] = {"schedrig", "load", "kernbench", "--jobs", "2", "--config", "tinyconfig",
			      "--targets", "vmlinux modules", "--source",
			      "/usr/src/linux-source-6.1.tar.xz", "--cache_dir",
			      "results/cache/kernbench", "--prepare_only", "false"};
	assert_argv(&a, want, sizeof(want) / sizeof(want[0]));
	argv_free(&a);

	/* No source: the default tarball is found by the load itself. */
	const struct param_value d[] = {
		{"jobs", "0"}, {"config", "/tmp/my config"}, {"targets", "vmlinux"},
		{"source", NULL}, {"cache_dir", "c"}, {"prepare_only", "false"},
	};
	struct params pd = {sizeof(d) / sizeof(d[0]), d};
	assert_int_equal(load_build_argv(&kernbench_load, &pd, &a, err, sizeof(err)), 0);
	const char *want_d[] = {"schedrig", "load", "kernbench", "--jobs", "0", "--config",
				"/tmp/my config", "--targets", "vmlinux", "--cache_dir", "c",
				"--prepare_only", "false"};
	assert_argv(&a, want_d, sizeof(want_d) / sizeof(want_d[0]));
	argv_free(&a);
}

static void test_kernbench_usage_errors(void **state)
{
	(void)state;
	char *opt_target[] = {"kernbench", "--targets", "vmlinux -k", NULL};
	assert_int_equal(kernbench_load.builtin_main(3, opt_target), 2);
	char *var_target[] = {"kernbench", "--targets", "CC=clang", NULL};
	assert_int_equal(kernbench_load.builtin_main(3, var_target), 2);
	char *no_target[] = {"kernbench", "--targets", "  ", NULL};
	assert_int_equal(kernbench_load.builtin_main(3, no_target), 2);
	char *neg_jobs[] = {"kernbench", "--jobs", "-1", NULL};
	assert_int_equal(kernbench_load.builtin_main(3, neg_jobs), 2);
	char *bad_bool[] = {"kernbench", "--prepare_only", "yes", NULL};
	assert_int_equal(kernbench_load.builtin_main(3, bad_bool), 2);
}

static void test_kernbench_prepare_errors(void **state)
{
	(void)state;
	char err[256] = "";
	const struct param_value nosrc[] = {
		{"jobs", "2"}, {"config", "tinyconfig"}, {"targets", "vmlinux"},
		{"source", "/nonexistent/linux.tar.xz"}, {"cache_dir", "/nonexistent/cache"},
		{"prepare_only", "false"},
	};
	struct params p = {sizeof(nosrc) / sizeof(nosrc[0]), nosrc};
	assert_int_equal(kernbench_load.prepare(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/linux.tar.xz"));

	const struct param_value badcfg[] = {
		{"jobs", "2"}, {"config", "/nonexistent/kconfig"}, {"targets", "vmlinux"},
		{"source", "/"}, {"cache_dir", "/nonexistent/cache"}, {"prepare_only", "false"},
	};
	p = (struct params){sizeof(badcfg) / sizeof(badcfg[0]), badcfg};
	assert_int_equal(kernbench_load.prepare(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tinyconfig, allnoconfig, defconfig or a readable file"));

	const struct param_value badtarget[] = {
		{"jobs", "2"}, {"config", "tinyconfig"}, {"targets", "-j8"},
		{"source", "/"}, {"cache_dir", "/nonexistent/cache"}, {"prepare_only", "false"},
	};
	p = (struct params){sizeof(badtarget) / sizeof(badtarget[0]), badtarget};
	assert_int_equal(kernbench_load.prepare(&p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a make target"));
}

static void test_kernbench_parse_fixture(void **state)
{
	(void)state;
	const char *files[] = {"kernbench-tinyconfig-j2.txt", "kernbench-tiny-j2.txt"};
	for (size_t f = 0; f < 2; f++) {
		size_t len;
		char *text = read_fixture(files[f], &len);
		struct load_output o = output_of(text, len, 0);
		struct sample_vec s = {0};
		char why[256] = "";
		if (kernbench_load.parse(&o, NULL, &s, why, sizeof(why)))
			fail_msg("%s: %s", files[f], why);
		assert_int_equal(s.n, 3);
		for (size_t i = 0; i < s.n; i++) {
			assert_string_equal(s.v[i].unit, "s");
			assert_int_equal(s.v[i].better, BETTER_LOWER);
			assert_string_equal(s.v[i].op, "2");
		}
		sample_vec_free(&s);
		free(text);
	}
	/* The full tinyconfig build (linux-source-6.1, -j2, 2 busy shared CPUs). */
	size_t len;
	char *text = read_fixture("kernbench-tinyconfig-j2.txt", &len);
	struct load_output o = output_of(text, len, 0);
	struct sample_vec s = {0};
	char why[256] = "";
	const struct param_value v[] = {{"jobs", "2"}};
	struct params p = {1, v};
	assert_int_equal(kernbench_load.parse(&o, &p, &s, why, sizeof(why)), 0);
	double elapsed = sample_value(&s, "elapsed", "2");
	double user = sample_value(&s, "user", "2");
	double sys = sample_value(&s, "system", "2");
	assert_true(elapsed == 234.036);
	assert_true(user == 220.777);
	assert_true(sys == 46.240);
	sample_vec_free(&s);
	/* jobs 0 (= the CPUs online) accepts any jobs= in the output. */
	const struct param_value z[] = {{"jobs", "0"}};
	p = (struct params){1, z};
	assert_int_equal(kernbench_load.parse(&o, &p, &s, why, sizeof(why)), 0);
	sample_vec_free(&s);
	/* Output for other jobs than the load's is refused. */
	const struct param_value four[] = {{"jobs", "4"}};
	p = (struct params){1, four};
	assert_int_equal(kernbench_load.parse(&o, &p, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "jobs=2"));
	assert_int_equal(s.n, 0);
	free(text);
}

static void test_kernbench_parse_failures(void **state)
{
	(void)state;
	size_t len;
	char *good = read_fixture("kernbench-tiny-j2.txt", &len);
	assert_truncations_fail(&kernbench_load, good);
	assert_exit_failures(&kernbench_load, good, len);
	free(good);

	const char *bad[] = {
		"",
		"\n\n",
		"garbage\n",
		"\x01\x02\x03 \xff\xfe\n",
		"  CC      init/main.o\n  LD      vmlinux\n",                  /* make's own output */
		"real 109.75\nuser 197.31\nsys 18.04\n",                      /* /usr/bin/time -p */
		"schedrig-oltp 1 clients=2\nend\n",                            /* another load */
		"schedrig-kernbench 2 jobs=2\nend\n",                          /* unknown version */
		"schedrig-kernbench 1\nend\n",                                 /* no jobs= */
		"schedrig-kernbench 1 jobs=0\nend\n",
		"schedrig-kernbench 1 jobs=x\nend\n",
		"schedrig-kernbench 1 jobs=2\nend status=0\n",                 /* no samples */
		"schedrig-kernbench 1 jobs=2\nelapsed 2 1.0\nuser 2 1.0\nend\n", /* no system */
		"schedrig-kernbench 1 jobs=2\nelapsed 2 1.0\nuser 2 1.0\nsystem 2 0.1\n", /* no end */
		"schedrig-kernbench 1 jobs=2\nelapsed 2 1.0\nuser 2 1.0\nsystem 2 0.1\nend\nelapsed 2 1.0\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 2 1.0\nelapsed 2 1.0\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 4 1.0\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 2 -1.0\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 2 nan\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 2 inf\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 2 1,5\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nelapsed 2 1.0 s\nuser 2 1.0\nsystem 2 0.1\nend\n",
		"schedrig-kernbench 1 jobs=2\nwall 2 1.0\nuser 2 1.0\nsystem 2 0.1\nend\n",
	};
	assert_all_fail(&kernbench_load, bad, sizeof(bad) / sizeof(bad[0]), NULL);
}

/* ---- oltp ---- */

static void test_oltp_build_argv(void **state)
{
	(void)state;
	const struct param_value v[] = {
		{"clients", "4"}, {"duration_s", "30"}, {"tables", "2"}, {"table_size", "1000"},
		{"client_inherits_sched", "true"}, {"flush_log_at_trx_commit", "2"},
		{"start_timeout_s", "60"}, {"tmp_dir", NULL},
	};
	struct params p = {sizeof(v) / sizeof(v[0]), v};
	struct argv a = {0};
	char err[128] = "";
	assert_int_equal(load_build_argv(&oltp_load, &p, &a, err, sizeof(err)), 0);
	const char *want[] = {"schedrig", "load", "oltp", "--clients", "4", "--duration_s", "30",
			      "--tables", "2", "--table_size", "1000", "--client_inherits_sched",
			      "true", "--flush_log_at_trx_commit", "2", "--start_timeout_s", "60"};
	assert_argv(&a, want, sizeof(want) / sizeof(want[0]));
	argv_free(&a);
}

static void test_oltp_usage_errors(void **state)
{
	(void)state;
	char *zero[] = {"oltp", "--clients", "0", NULL};
	assert_int_equal(oltp_load.builtin_main(3, zero), 2);
	char *flush[] = {"oltp", "--flush_log_at_trx_commit", "3", NULL};
	assert_int_equal(oltp_load.builtin_main(3, flush), 2);
	char *dur[] = {"oltp", "--duration_s", "0", NULL};
	assert_int_equal(oltp_load.builtin_main(3, dur), 2);
	char *unknown[] = {"oltp", "--threads", "2", NULL};
	assert_int_equal(oltp_load.builtin_main(3, unknown), 2);
}

static void test_oltp_parse_fixture(void **state)
{
	(void)state;
	size_t len;
	char *text = read_fixture("oltp-2clients.txt", &len);
	struct load_output o = output_of(text, len, 0);
	struct sample_vec s = {0};
	char why[256] = "";
	const struct param_value v[] = {{"clients", "2"}};
	struct params p = {1, v};
	if (oltp_load.parse(&o, &p, &s, why, sizeof(why)))
		fail_msg("oltp-2clients.txt: %s", why);
	assert_int_equal(s.n, 3);
	double tps = sample_value(&s, "transactions_per_s", "2");
	double qps = sample_value(&s, "queries_per_s", "2");
	double p95 = sample_value(&s, "latency_p95", "2");
	assert_true(tps > 0);
	assert_true(qps > 10 * tps); /* oltp_read_write: 18-20 queries a transaction */
	assert_true(p95 > 0);
	for (size_t i = 0; i < s.n; i++) {
		if (!strcmp(s.v[i].metric, "latency_p95")) {
			assert_string_equal(s.v[i].unit, "ms");
			assert_int_equal(s.v[i].better, BETTER_LOWER);
		} else {
			assert_int_equal(s.v[i].better, BETTER_HIGHER);
		}
	}
	sample_vec_free(&s);
	const struct param_value eight[] = {{"clients", "8"}};
	p = (struct params){1, eight};
	assert_int_equal(oltp_load.parse(&o, &p, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "clients=2"));
	free(text);
}

static void test_oltp_parse_failures(void **state)
{
	(void)state;
	size_t len;
	char *good = read_fixture("oltp-2clients.txt", &len);
	assert_truncations_fail(&oltp_load, good);
	assert_exit_failures(&oltp_load, good, len);
	free(good);

	/* sysbench's own report is not the built-in's format. */
	char *sb = read_fixture("sysbench-cpu.txt", &len);
	const char *raw[] = {sb};
	assert_all_fail(&oltp_load, raw, 1, NULL);
	free(sb);

	const char *bad[] = {
		"",
		"garbage\n",
		"\xff\xfe\xfd\n",
		"schedrig-kernbench 1 jobs=2\nend\n",
		"schedrig-oltp 1 clients=2\nend\n",                                  /* no samples */
		"schedrig-oltp 1 clients=0\nend\n",
		"schedrig-oltp 1 tables=1\nend\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 2 10\nqueries_per_s 2 200\nend\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 2 10\nqueries_per_s 2 200\nlatency_p95 2 3\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 1 10\nqueries_per_s 2 200\nlatency_p95 2 3\nend\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 2 10\ntransactions_per_s 2 10\nqueries_per_s 2 200\nlatency_p95 2 3\nend\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 2 -10\nqueries_per_s 2 200\nlatency_p95 2 3\nend\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 2 NaN\nqueries_per_s 2 200\nlatency_p95 2 3\nend\n",
		"schedrig-oltp 1 clients=2\ntps 2 10\nqueries_per_s 2 200\nlatency_p95 2 3\nend\n",
		"schedrig-oltp 1 clients=2\ntransactions_per_s 2 10\nqueries_per_s 2 200\nlatency_p95 2 3\nend\nx\n",
	};
	assert_all_fail(&oltp_load, bad, sizeof(bad) / sizeof(bad[0]), NULL);
}

/* Scan report text with oltp_report_scan; its return value. */
static int scan_report(const char *text, struct oltp_report *r, char *why, size_t whysz)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(f);
	int rc = oltp_report_scan(f, "run.out", r, why, whysz);
	fclose(f);
	return rc;
}

/* text with the first from replaced by to (from must occur). */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	assert_non_null(at);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* sysbench's own oltp_read_write report, as the built-in reads it: the
 * values of the captured report's lines; a rate or percentile that is not
 * a finite decimal (inf, nan, a hexadecimal float), a negative count or a
 * line with more on it is no value, and the report then fails naming the
 * line. */
static void test_oltp_sysbench_report(void **state)
{
	(void)state;
	size_t len;
	char why[512] = "";
	struct oltp_report r;
	char *good = read_fixture("sysbench-oltp-run.txt", &len);
	assert_int_equal(scan_report(good, &r, why, sizeof(why)), 0);
	/* "transactions: 1126 (369.33 per sec.)", "queries: 22553 (7397.48 per
	 * sec.)", "ignored errors: 2 (0.66 per sec.)", "reconnects: 0 (0.00 per
	 * sec.)", "95th percentile: 15.00" */
	assert_true(r.transactions == 1126 && r.tps == 369.33);
	assert_true(r.queries == 22553 && r.qps == 7397.48);
	assert_true(r.errors == 2 && r.reconnects == 0);
	assert_true(r.p95 == 15.00);

	static const char *const bad[][3] = {
		{"(369.33 per sec.)", "(inf per sec.)", "transactions:"},
		{"(369.33 per sec.)", "(nan per sec.)", "transactions:"},
		{"(369.33 per sec.)", "(0x1p4 per sec.)", "transactions:"},
		{"1126   (369.33", "-1126   (369.33", "transactions:"},
		{"(369.33 per sec.)", "(369.33 per sec.) x", "transactions:"},
		{"(7397.48 per sec.)", "(1e999 per sec.)", "queries:"},
		{"15.00", "inf", "95th percentile:"},
		{"15.00", "0x1p4", "95th percentile:"},
		{"15.00", "15.00 ms", "95th percentile:"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *text = replaced(good, bad[i][0], bad[i][1]);
		char want[128];
		snprintf(want, sizeof(want), "sysbench report without a valid %s line (run.out)",
			 bad[i][2]);
		assert_int_equal(scan_report(text, &r, why, sizeof(why)), -1);
		assert_string_equal(why, want);
		free(text);
	}
	char *fatal = replaced(good, "Threads started!", "FATAL: mysql_drv_query() returned error");
	assert_int_equal(scan_report(fatal, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "sysbench: FATAL: mysql_drv_query() returned error");
	free(fatal);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernbench_build_argv),
		cmocka_unit_test(test_kernbench_usage_errors),
		cmocka_unit_test(test_kernbench_prepare_errors),
		cmocka_unit_test(test_kernbench_parse_fixture),
		cmocka_unit_test(test_kernbench_parse_failures),
		cmocka_unit_test(test_oltp_build_argv),
		cmocka_unit_test(test_oltp_usage_errors),
		cmocka_unit_test(test_oltp_parse_fixture),
		cmocka_unit_test(test_oltp_parse_failures),
		cmocka_unit_test(test_oltp_sysbench_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
