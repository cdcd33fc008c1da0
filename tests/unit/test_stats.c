/* Statistics, significance tests, histogram percentiles, the sample CSV
 * reader/writer and the summary grouping. Expected values are computed by
 * hand or with python3 (math only: Simpson integration of the Student t
 * density, erfc for the normal), never with the code under test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "csvio.h"
#include "stats.h"
#include "summary.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EPS 1e-9

static void assert_close(double got, double want, double eps)
{
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("expected NaN, got %.17g", got);
		return;
	}
	if (!(fabs(got - want) <= eps))
		fail_msg("expected %.17g, got %.17g", want, got);
}

static void test_hmean_edges(void **state)
{
	(void)state;
	const double with_zero[] = {0, 50, 60}, two[] = {50, 60}, neg[] = {-1, 50};
	assert_close(stats_hmean(with_zero, N(with_zero)), NAN, 0);
	assert_close(stats_hmean(neg, N(neg)), NAN, 0);
	/* 2 / (1/50 + 1/60) = 600/11 */
	assert_close(stats_hmean(two, N(two)), 54.545454545454545, EPS);
	assert_close(stats_hmean(two, 0), NAN, 0);
	assert_close(stats_gmean(with_zero, N(with_zero)), NAN, 0);
	/* sqrt(50·60) */
	assert_close(stats_gmean(two, N(two)), 54.772255750516611, EPS);
}

static void test_stddev_coeffvar_edges(void **state)
{
	(void)state;
	const double one[] = {7}, three[] = {2, 4, 6};
	assert_close(stats_stddev(one, N(one)), NAN, 0);
	assert_close(stats_stddev(three, N(three)), 2.0, EPS);
	assert_close(stats_amean(three, N(three)), 4.0, EPS);
	assert_close(stats_coeffvar(2.0, 4.0), 50.0, EPS);
	assert_close(stats_coeffvar(NAN, 4.0), NAN, 0);
	assert_close(stats_coeffvar(2.0, 0.0), NAN, 0);
	struct stats_summary s;
	stats_summarise(one, 1, BETTER_LOWER, &s);
	assert_close(s.stddev, NAN, 0);
	assert_close(s.coeffvar, NAN, 0);
	assert_close(s.sem, NAN, 0);
	assert_close(s.ci95_half, NAN, 0);
	assert_close(s.amean, 7, 0);
	stats_summarise(three, 3, BETTER_LOWER, &s);
	assert_close(s.coeffvar, 50.0, EPS);
	assert_close(s.median, 4.0, 0);
}

static void test_bamean(void **state)
{
	(void)state;
	double x[] = {5, 1, 4, 2};
	stats_sort(x, N(x));
	/* lower is better: best-first 1,2,4,5; first floor(4·50/100) = 2 */
	assert_close(stats_bamean_sorted(x, N(x), BETTER_LOWER, 50), 1.5, EPS);
	/* higher is better: best-first 5,4,2,1 */
	assert_close(stats_bamean_sorted(x, N(x), BETTER_HIGHER, 50), 4.5, EPS);
	/* floor(4·95/100) = 3 */
	assert_close(stats_bamean_sorted(x, N(x), BETTER_LOWER, 95), 7.0 / 3.0, EPS);
	/* n·K/100 < 1 → max(1, ·) = 1: the best value */
	assert_close(stats_bamean_sorted(x, 1, BETTER_LOWER, 50), 1, 0);
	assert_close(stats_bamean_sorted(x, 0, BETTER_LOWER, 50), NAN, 0);
}

static void test_percentile_median(void **state)
{
	(void)state;
	/* Nearest-rank example: 15, 20, 35, 40, 50 */
	const double x[] = {15, 20, 35, 40, 50};
	assert_close(stats_percentile_sorted(x, 5, 5), 15, 0);
	assert_close(stats_percentile_sorted(x, 5, 30), 20, 0);
	assert_close(stats_percentile_sorted(x, 5, 40), 20, 0);
	assert_close(stats_percentile_sorted(x, 5, 50), 35, 0);
	assert_close(stats_percentile_sorted(x, 5, 100), 50, 0);
	assert_close(stats_percentile_sorted(x, 5, 0), NAN, 0);
	assert_close(stats_percentile_sorted(x, 0, 50), NAN, 0);
	double y[100];
	for (int i = 0; i < 100; i++)
		y[i] = i + 1;
	assert_close(stats_percentile_sorted(y, 100, 99), 99, 0);
	assert_close(stats_percentile_sorted(y, 100, 99.9), 100, 0);
	assert_close(stats_median_sorted(x, 5), 35, 0);
	assert_close(stats_median_sorted(x, 4), 27.5, 0);
}

static void test_pct_change(void **state)
{
	(void)state;
	assert_close(stats_pct_change(100, 110, BETTER_HIGHER), 10, EPS);
	assert_close(stats_pct_change(100, 110, BETTER_LOWER), -10, EPS);
	/* seed 000: 15.99 → 16.20 lower-is-better is −1.31 % (printed −1.27 %
	 * there from unrounded means) */
	assert_close(stats_pct_change(15.99, 16.20, BETTER_LOWER), 100 - 16.20 / 15.99 * 100, EPS);
	assert_close(stats_pct_change(0, 5, BETTER_HIGHER), NAN, 0);
	assert_close(stats_pct_change(NAN, 5, BETTER_HIGHER), NAN, 0);
	assert_close(stats_pct_change(5, NAN, BETTER_LOWER), NAN, 0);
}

static void test_sem_ci(void **state)
{
	(void)state;
	const double x[] = {10, 11, 12, 13, 14};
	double sd = stats_stddev(x, 5);
	assert_close(sd, sqrt(2.5), EPS);
	assert_close(stats_sem(sd, 5), sqrt(0.5), EPS);
	/* t_{0.975,4} = 2.7764451051977987 (tables) · sqrt(2.5)/sqrt(5) */
	assert_close(stats_ci_half_t(sd, 5, 0.95), 1.9632431614775607, 1e-9);
}

/* Welch significant (p = 0.0369 < 0.05), the intervals mean ± 1.96·Stddev
 * overlap (cidiff 0.403). a = 10..14, b = 12.5..16.5: t = 2.5, df = 8.
 * p and cidiff computed independently in python (Simpson integration of the
 * t density). */
static void test_welch_yes_ci_no(void **state)
{
	(void)state;
	const double a[] = {10, 11, 12, 13, 14}, b[] = {12.5, 13.5, 14.5, 15.5, 16.5};
	struct stats_summary sa, sb;
	struct stats_test w, c;
	stats_summarise(a, 5, BETTER_LOWER, &sa);
	stats_summarise(b, 5, BETTER_LOWER, &sb);
	stats_compare(SIG_WELCH, 0.05, a, &sa, b, &sb, &w);
	assert_true(w.valid);
	assert_close(w.statistic, 2.5, 1e-12);
	assert_close(w.df, 8, 1e-12);
	assert_close(w.p, 0.0369420377, 1e-8);
	assert_true(w.significant);
	stats_compare(SIG_CI_OVERLAP, 0.05, a, &sa, b, &sb, &c);
	assert_true(c.valid);
	assert_close(c.statistic, 0.4033591542, 1e-8);
	assert_false(c.significant);
}

/* ci-overlap significant (cidiff 2.044 > 1), Welch not (p = 0.1053):
 * a = {10, 10.2}, b = {20, 24}: unequal spreads give t = 5.9426 with only
 * df = 1.005 (Welch-Satterthwaite). p computed independently in python as
 * the regularised incomplete beta I_{df/(df+t²)}(df/2, 1/2) (Lentz continued
 * fraction), not with GSL. */
static void test_ci_yes_welch_no(void **state)
{
	(void)state;
	const double a[] = {10, 10.2}, b[] = {20, 24};
	struct stats_summary sa, sb;
	struct stats_test w, c;
	stats_summarise(a, 2, BETTER_HIGHER, &sa);
	stats_summarise(b, 2, BETTER_HIGHER, &sb);
	stats_compare(SIG_WELCH, 0.05, a, &sa, b, &sb, &w);
	assert_true(w.valid);
	assert_close(w.statistic, 5.9425764163, 1e-8);
	assert_close(w.df, 1.0049999688, 1e-8);
	assert_close(w.p, 0.1052846249, 1e-9);
	assert_false(w.significant);
	stats_compare(SIG_CI_OVERLAP, 0.05, a, &sa, b, &sb, &c);
	assert_close(c.statistic, 2.0443939064, 1e-8);
	assert_true(c.significant);
}

static void test_tests_need_two(void **state)
{
	(void)state;
	const double a[] = {10, 12}, b[] = {15};
	struct stats_summary sa, sb;
	struct stats_test t;
	stats_summarise(a, 2, BETTER_LOWER, &sa);
	stats_summarise(b, 1, BETTER_LOWER, &sb);
	for (int rule = SIG_WELCH; rule <= SIG_NONE; rule++) {
		stats_compare((enum stats_significance)rule, 0.05, a, &sa, b, &sb, &t);
		assert_false(t.valid);
		assert_false(t.significant);
		assert_true(isnan(t.p));
	}
	/* zero variance on both sides */
	const double c[] = {3, 3};
	stats_welch(3, 0, 2, 4, 0, 2, 0.05, &t);
	assert_true(t.significant);
	assert_close(t.p, 0, 0);
	stats_welch(3, 0, 2, 3, 0, 2, 0.05, &t);
	assert_false(t.significant);
	assert_close(t.p, 1, 0);
	stats_mann_whitney(c, 2, c, 2, 0.05, &t);
	assert_close(t.p, 1, 0);
}

static void test_mann_whitney(void **state)
{
	(void)state;
	const double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
	struct stats_test t;
	stats_mann_whitney(a, 5, b, 5, 0.05, &t);
	assert_true(t.valid);
	assert_close(t.statistic, 2.5067182457620487, 1e-12);
	assert_close(t.p, 0.012185780355344818, 1e-12);
	assert_true(t.significant);
	/* ties: ranks averaged, tie-corrected variance */
	const double c[] = {1, 2, 2, 3}, d[] = {2, 3, 3, 4};
	stats_mann_whitney(c, 4, d, 4, 0.05, &t);
	assert_close(t.statistic, 1.365698202000489, 1e-12);
	assert_close(t.p, 0.17203370892182296, 1e-12);
	assert_false(t.significant);
}

static void test_significance_names(void **state)
{
	(void)state;
	assert_int_equal(stats_significance_parse("welch"), SIG_WELCH);
	assert_int_equal(stats_significance_parse("ci-overlap"), SIG_CI_OVERLAP);
	assert_int_equal(stats_significance_parse("mann-whitney"), SIG_MANN_WHITNEY);
	assert_int_equal(stats_significance_parse("none"), SIG_NONE);
	assert_int_equal(stats_significance_parse("t-test"), -1);
	assert_string_equal(stats_significance_name(SIG_CI_OVERLAP), "ci-overlap");
}

static void test_hist_percentile(void **state)
{
	(void)state;
	const double upper[] = {0, 1, 2, 3, 4};
	const uint64_t count[] = {0, 5, 3, 1, 0};
	struct stats_hist h = {upper, count, 5, 1, 5, NAN};
	struct stats_hist_pct r;
	/* N = 10 */
	assert_int_equal(stats_hist_percentile(&h, 50, &r), 0);
	assert_close(r.value, 1, 0);
	assert_false(r.censored);
	assert_int_equal(stats_hist_percentile(&h, 80, &r), 0);
	assert_close(r.value, 2, 0);
	assert_int_equal(stats_hist_percentile(&h, 90, &r), 0);
	assert_close(r.value, 3, 0);
	/* rank 10 is the overflow sample: "≥ 5", never a bucket value */
	assert_int_equal(stats_hist_percentile(&h, 95, &r), 0);
	assert_true(r.censored);
	assert_close(r.value, 5, 0);
	/* no overflow, observed Max 2.5: bucket bound 3 is capped at 2.5 */
	struct stats_hist h2 = {upper, count, 5, 0, 5, 2.5};
	assert_int_equal(stats_hist_percentile(&h2, 100, &r), 0);
	assert_false(r.censored);
	assert_close(r.value, 2.5, 0);
	assert_int_equal(stats_hist_percentile(&h2, 50, &r), 0);
	assert_close(r.value, 1, 0);
	/* errors */
	const uint64_t zero[] = {0, 0, 0, 0, 0};
	struct stats_hist h3 = {upper, zero, 5, 0, 5, NAN};
	assert_int_equal(stats_hist_percentile(&h3, 50, &r), -1);
	assert_int_equal(stats_hist_percentile(&h, 0, &r), -1);
	assert_int_equal(stats_hist_percentile(&h, 100.5, &r), -1);
	const double bad_upper[] = {0, 2, 1, 3, 4};
	struct stats_hist h4 = {bad_upper, count, 5, 0, 5, NAN};
	assert_int_equal(stats_hist_percentile(&h4, 50, &r), -1);
}

static void test_csv_round_trip(void **state)
{
	(void)state;
	static const char in[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		",v1,\"a.x=1,b.y=2\",hackbench,time,s,lower,4,1,0.1\n"
		"r,\"we said \"\"hi\"\"\",,cyclictest,latency,us,higher,p99,2,NaN\r\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,3,1518.87\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,4,-1e-300\n";
	static const char out_want[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"dflt,v1,\"a.x=1,b.y=2\",hackbench,time,s,lower,4,1,0.1\n"
		"r,\"we said \"\"hi\"\"\",,cyclictest,latency,us,higher,p99,2,NaN\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,3,1518.87\n"
		"r,v1,c,tcp-rr,rate,transactions/s,higher,,4,-1e-300\n";
	struct sample_table t;
	char err[256];
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(in, "in.csv", "dflt", &t, err, sizeof(err)), 4);
	assert_string_equal(t.rows[0].run, "dflt");
	assert_string_equal(t.rows[0].cell, "a.x=1,b.y=2");
	assert_string_equal(t.rows[1].variant, "we said \"hi\"");
	assert_true(isnan(t.rows[1].value));
	assert_int_equal(t.rows[1].better, BETTER_HIGHER);
	assert_int_equal(t.rows[2].iteration, 3);
	struct buf out = {0};
	csv_write_samples(&out, &t);
	assert_string_equal(buf_str(&out), out_want);
	/* and it reads back to the same table */
	struct sample_table t2;
	sample_table_init(&t2);
	assert_int_equal(csv_read_samples_str(buf_str(&out), "out.csv", NULL, &t2, err, sizeof(err)), 4);
	for (size_t i = 0; i < 4; i++) {
		if (isnan(t.rows[i].value))
			assert_true(isnan(t2.rows[i].value));
		else
			assert_true(t.rows[i].value == t2.rows[i].value);
	}
	buf_free(&out);
	sample_table_free(&t);
	sample_table_free(&t2);

	char num[40];
	csv_format_double(num, sizeof(num), 0.1 + 0.2);
	assert_string_equal(num, "0.30000000000000004");
	csv_format_double(num, sizeof(num), 54.54545454545455);
	assert_string_equal(num, "54.54545454545455");
	csv_format_double(num, sizeof(num), NAN);
	assert_string_equal(num, "NaN");
}

static void expect_csv_error(const char *text, const char *want)
{
	struct sample_table t;
	char err[256] = "";
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(text, "x.csv", NULL, &t, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	sample_table_free(&t);
}

static void test_csv_errors(void **state)
{
	(void)state;
#define H "run,variant,cell,load,metric,unit,better,op,iteration,value\n"
	expect_csv_error("", "x.csv:1: empty file, expected the header " CSV_SAMPLE_HEADER);
	expect_csv_error("run,variant\n", "x.csv:1: bad header, expected " CSV_SAMPLE_HEADER);
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1,1\nr,v,c,l,m,u,worse,1,1,1\n",
			 "x.csv:3: better is 'worse', expected lower or higher");
	/* a quoted newline is valid CSV but no name holds one */
	expect_csv_error(H "r,v,\"two\nlines\",l,m,u,lower,1,1,1\nr,v,c,l,m,u,lower,1,0,1\n",
			 "x.csv:2: cell is not UTF-8 text without control characters");
	/* a quoted comma moves nothing: the next record is line 3 */
	expect_csv_error(H "r,v,\"two,cells\",l,m,u,lower,1,1,1\nr,v,c,l,m,u,lower,1,0,1\n",
			 "x.csv:3: iteration '0' is not an integer >= 1");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1,fast\n",
			 "x.csv:2: value 'fast' is not a decimal number (NaN for none)");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1\n",
			 "x.csv:2: 9 fields, expected 10 (" CSV_SAMPLE_HEADER ")");
	expect_csv_error(H "r,,c,l,m,u,lower,1,1,1\n", "x.csv:2: empty variant");
	expect_csv_error(H "r,v,\"c,l,m,u,lower,1,1,1\n", "x.csv:2: unterminated quoted field");
	expect_csv_error(H "r,v,c\"x,l,m,u,lower,1,1,1\n", "x.csv:2: quote inside an unquoted field");
	expect_csv_error(H "r,v,c,l,m,u,lower,1,1,\n",
			 "x.csv:2: value '' is not a decimal number (NaN for none)");
#undef H
}

static void test_summary_grouping(void **state)
{
	(void)state;
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,base,c1,l,m,s,lower,1,1,2\n"
		"r,base,c1,l,m,s,lower,2,1,20\n"
		"r,new,c1,l,m,s,lower,1,1,4\n"
		"r,base,c1,l,m,s,lower,1,2,4\n"
		"r,base,c1,l,m,s,lower,1,3,6\n"
		"r,new,c1,l,m,s,lower,1,2,NaN\n"
		"r,base,c2,l,m,s,lower,1,1,9\n"
		"r,base,c1,l,other,ops/s,higher,1,1,50\n"
		"r,base,c1,l,other,ops/s,higher,1,2,60\n";
	struct sample_table t;
	struct summary_opts o;
	struct summary s;
	char err[256];

	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "s.csv", NULL, &t, err, sizeof(err)), 9);
	summary_opts_init(&o);
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	/* two variants → columns are variants; tables: (m, c1), (m, c2), (other, c1) */
	assert_int_equal(s.columns, AXIS_VARIANT);
	assert_int_equal(s.n_tables, 3);
	const struct summary_table *tb = &s.tables[0];
	assert_string_equal(tb->metric, "m");
	assert_string_equal(tb->cell, "c1");
	assert_null(tb->variant);
	assert_int_equal(tb->n_cols, 2);
	assert_string_equal(tb->cols[0], "base");
	assert_int_equal(tb->n_ops, 2);
	assert_string_equal(tb->ops[1], "2");
	const struct summary_group *g = summary_group_at(tb, 0, 0);
	assert_int_equal(g->st.n, 3);
	assert_close(g->st.stddev, 2, EPS);
	assert_close(g->st.coeffvar, 50, EPS);
	g = summary_group_at(tb, 0, 1);
	assert_int_equal(g->st.n, 1);
	assert_int_equal(g->n_nan, 1);
	assert_false(g->test.valid);
	/* op 2 has no "new" samples: an empty group, NaN everywhere */
	g = summary_group_at(tb, 1, 1);
	assert_int_equal(g->st.n, 0);
	assert_true(isnan(g->st.amean));
	assert_int_equal(s.tables[1].n_cols, 1);
	assert_close(summary_group_at(&s.tables[2], 0, 0)->st.hmean, 600.0 / 11.0, EPS);
	summary_free(&s);

	/* --baseline moves a column first; the c2 table gets an empty "new" */
	o.baseline = "new";
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_string_equal(s.tables[0].cols[0], "new");
	assert_string_equal(s.tables[1].cols[0], "new");
	assert_int_equal(s.tables[1].n_cols, 2);
	assert_int_equal(summary_group_at(&s.tables[1], 0, 0)->st.n, 0);
	summary_free(&s);

	o.baseline = "nope";
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "--baseline: no variant named 'nope'");

	/* columns by cell, filtered to one metric */
	summary_opts_init(&o);
	o.columns = AXIS_CELL;
	o.metric = "m";
	assert_int_equal(summary_build(&t, &o, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_tables, 2);
	assert_string_equal(s.tables[0].variant, "base");
	assert_int_equal(s.tables[0].n_cols, 2);
	assert_string_equal(s.tables[0].cols[1], "c2");
	assert_int_equal(s.n_samples, 7);
	summary_free(&s);
	sample_table_free(&t);
}

static void test_summary_stats(void **state)
{
	(void)state;
	struct summary_stat st;
	assert_int_equal(summary_stat_parse("p99", &st), 0);
	assert_int_equal(st.kind, STAT_PERCENTILE);
	assert_close(st.p, 99, 0);
	assert_int_equal(summary_stat_parse("BAmean-95", &st), 0);
	assert_int_equal(st.kind, STAT_BAMEAN95);
	assert_int_equal(summary_stat_parse("p0", &st), -1);
	assert_int_equal(summary_stat_parse("mode", &st), -1);
	char label[32];
	st.kind = STAT_MEAN;
	summary_stat_label(&st, BETTER_HIGHER, label, sizeof(label));
	assert_string_equal(label, "Hmean");
	summary_stat_label(&st, BETTER_LOWER, label, sizeof(label));
	assert_string_equal(label, "Amean");
	st.kind = STAT_STDDEV;
	assert_int_equal(summary_stat_better(&st, BETTER_HIGHER), BETTER_LOWER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmean_edges),
		cmocka_unit_test(test_stddev_coeffvar_edges),
		cmocka_unit_test(test_bamean),
		cmocka_unit_test(test_percentile_median),
		cmocka_unit_test(test_pct_change),
		cmocka_unit_test(test_sem_ci),
		cmocka_unit_test(test_welch_yes_ci_no),
		cmocka_unit_test(test_ci_yes_welch_no),
		cmocka_unit_test(test_tests_need_two),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_significance_names),
		cmocka_unit_test(test_hist_percentile),
		cmocka_unit_test(test_csv_round_trip),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_summary_grouping),
		cmocka_unit_test(test_summary_stats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
