/* Golden tests of every report layout: fixed CSVs in tests/data/ are read
 * with the csvio reader, summarised, rendered, and compared byte for byte
 * with tests/data/NAME.LAYOUT.txt. SCHEDRIG_UPDATE_GOLDEN=1 rewrites the
 * golden files instead (review the diff before keeping it). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csvio.h"
#include "report.h"
#include "summary.h"

static const char *data_dir(void)
{
	const char *d = getenv("TESTS_DIR");
	static char path[4096];
	snprintf(path, sizeof(path), "%s/data", d ? d : "tests");
	return path;
}

static void load_csv(const char *name, struct sample_table *t)
{
	char path[4200], err[512] = "";
	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	sample_table_init(t);
	long n = csv_read_samples(f, path, NULL, t, err, sizeof(err));
	fclose(f);
	if (n < 0)
		fail_msg("%s", err);
}

static void check_golden(const char *name, const struct buf *got)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	if (getenv("SCHEDRIG_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(buf_str(got), f);
		fclose(f);
		return;
	}
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open golden file %s", path);
	struct buf want = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&want, chunk, n);
	fclose(f);
	if (strcmp(buf_str(&want), buf_str(got))) {
		fprintf(stderr, "--- want %s\n%s--- got\n%s---\n", path, buf_str(&want), buf_str(got));
		buf_free(&want);
		fail_msg("%s differs", name);
	}
	buf_free(&want);
}

enum layout { L_MMTESTS, L_PERCENTILES, L_LATENCY, L_MARKDOWN, L_CSV, L_JSON, L_GRID };

static void render(const char *csv, const struct summary_opts *so, const struct report_opts *ro,
		   enum layout layout, const char *golden)
{
	struct sample_table t;
	struct summary s;
	struct buf out = {0};
	char err[256] = "";

	load_csv(csv, &t);
	if (summary_build(&t, so, &s, err, sizeof(err)))
		fail_msg("summary_build: %s", err);
	switch (layout) {
	case L_MMTESTS: report_mmtests(&out, &s, ro); break;
	case L_PERCENTILES: report_percentiles(&out, &s, ro); break;
	case L_LATENCY: report_latency(&out, &s, ro); break;
	case L_MARKDOWN: report_markdown(&out, &s, ro); break;
	case L_CSV: report_csv(&out, &s, ro); break;
	case L_JSON: assert_int_equal(report_json(&out, &s, ro, NULL), 0); break;
	case L_GRID:
		if (report_grid(&out, &s, ro, err, sizeof(err)))
			fail_msg("report_grid: %s", err);
		break;
	}
	check_golden(golden, &out);
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
}

static void test_mmtests_dbench(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	render("dbench.csv", &so, &ro, L_MMTESTS, "dbench.mmtests.txt");
}

static void test_mmtests_dbench_ci_overlap_baseline(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	so.significance = SIG_CI_OVERLAP;
	so.baseline = "5.15.0-rc1-sched-moveforward-v1r1";
	ro.decimals = 3;
	render("dbench.csv", &so, &ro, L_MMTESTS, "dbench.ci-overlap.txt");
}

static void test_mmtests_netperf_hmean_nan(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	render("netperf.csv", &so, &ro, L_MMTESTS, "netperf.mmtests.txt");
}

static void test_grid(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	so.columns = AXIS_CELL;
	ro.grid_row = "hackbench.latency_nice";
	ro.grid_col = "cyclictest.latency_nice";
	render("grid.csv", &so, &ro, L_GRID, "grid.grid.txt");
	assert_int_equal(summary_stat_parse("max", &ro.grid_stat), 0);
	render("grid.csv", &so, &ro, L_GRID, "grid.grid-max.txt");
}

static void test_grid_missing_axis(void **state)
{
	(void)state;
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	struct buf out = {0};
	char err[256] = "";

	load_csv("grid.csv", &t);
	summary_opts_init(&so);
	report_opts_init(&ro);
	so.columns = AXIS_CELL;
	ro.grid_row = "hackbench.latency_nice";
	ro.grid_col = "hackbench.nice";
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	assert_int_equal(report_grid(&out, &s, &ro, err, sizeof(err)), -1);
	assert_string_equal(err, "cell 'hackbench.latency_nice=0,cyclictest.latency_nice=0' "
				 "has no axis 'hackbench.nice'");
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
}

static void test_percentiles(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	ro.decimals = 0;
	render("latency.csv", &so, &ro, L_PERCENTILES, "latency.percentiles.txt");
	assert_int_equal(report_parse_percentiles(&ro, "50,99.9"), 0);
	render("latency.csv", &so, &ro, L_PERCENTILES, "latency.percentiles-50-99.9.txt");
}

static void test_latency_summary(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	ro.decimals = 0;
	render("latency.csv", &so, &ro, L_LATENCY, "latency.latency.txt");
}

static void test_markdown_csv_json(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	summary_opts_init(&so);
	report_opts_init(&ro);
	render("netperf.csv", &so, &ro, L_MARKDOWN, "netperf.markdown.txt");
	render("netperf.csv", &so, &ro, L_CSV, "netperf.csv.txt");
	render("netperf.csv", &so, &ro, L_JSON, "netperf.json.txt");
}

static void test_header_split(void **state)
{
	(void)state;
	char a[64], b[64];
	/* The dash split at stays with the first part: the two rows read
	 * back as the name. */
	report_split_header("hackbench-cyclictest", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "hackbench-");
	assert_string_equal(b, "cyclictest");
	report_split_header("5.15.0-rc1-vanilla", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "5.15.0-rc1-");
	assert_string_equal(b, "vanilla");
	report_split_header("5.15.0-rc1-sched-scalewakegran-v2r5", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "5.15.0-rc1-");
	assert_string_equal(b, "sched-scalewakegran-v2r5");
	report_split_header("v6.1-cfs", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "v6.1-");
	assert_string_equal(b, "cfs");
	report_split_header("running", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "");
	assert_string_equal(b, "running");
	report_split_header("6.12-rc10", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "6.12-rc10");
	assert_string_equal(b, "");
	report_split_header("x-rcfoo", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "x-");
	assert_string_equal(b, "rcfoo");
	/* Cell names: one axis splits after '=', several before the last axis,
	 * and a CPU list's commas stay inside its value. */
	report_split_header("ct.slice_us=100", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "ct.slice_us=");
	assert_string_equal(b, "100");
	report_split_header("hb.nice=0,ct.cpus=0-3,5", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "hb.nice=0");
	assert_string_equal(b, "ct.cpus=0-3,5");
	report_split_header("ct.cpus=0,1,hb.nice=-5", a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "ct.cpus=0,1");
	assert_string_equal(b, "hb.nice=-5");
}

/* The seed 000 spacing, rebuilt from summaries of single samples: header
 * rows right-aligned to 23 columns, NaN in the value width, no star
 * between two columns without variance (the star form is in the dbench
 * golden files). */
static void test_mmtests_seed_spacing(void **state)
{
	(void)state;
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,5.15.0-rc1-vanilla,c,dbench,t,s,lower,1,1,15.99\n"
		"r,5.15.0-rc1-vanilla,c,dbench,t,s,lower,1,2,15.99\n"
		"r,5.15.0-rc1-sched-scalewakegran-v2r5,c,dbench,t,s,lower,1,1,16.20\n"
		"r,5.15.0-rc1-sched-scalewakegran-v2r5,c,dbench,t,s,lower,1,2,16.20\n"
		"r,5.15.0-rc1-sched-moveforward-v1r1,c,dbench,t,s,lower,1,1,NaN\n";
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	struct buf out = {0};
	char err[256];

	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 5);
	summary_opts_init(&so);
	report_opts_init(&ro);
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	report_mmtests(&out, &s, &ro);
	const char *text = buf_str(&out);
	assert_non_null(strstr(text, "\n" "                       " "5.15.0-rc1-            5.15.0-rc1-            5.15.0-rc1-\n"));
	assert_non_null(strstr(text, "\n                           vanillasched-scalewakegran-v2r5 sched-moveforward-v1r1\n"));
	/* Zero variance on both sides, different means: Welch's t is
	 * undefined, no star; a Stddev of 0 against 0 is 0.00% (mmtests
	 * pndiff); the NaN of a single sample stays NaN. */
	assert_non_null(strstr(text, "\nAmean     1       15.99 (   0.00%)       16.20 (  -1.31%)         NaN (    NaN%)\n"));
	assert_non_null(strstr(text, "\nStddev    1        0.00 (   0.00%)        0.00 (   0.00%)         NaN (    NaN%)\n"));
	assert_non_null(strstr(text, ", n >= 2 on both sides, none where both Stddev are 0 (t undefined)\n"));
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
}

/* One metric in two units (us, then ms) or two directions, as CSV imports
 * or runs of two driver versions give it: separate tables, each titled
 * with its own unit and direction, never one table labelled with the first
 * unit (which compared 51 us with 0.05 ms). */
static void test_units_and_directions_stay_apart(void **state)
{
	(void)state;
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	char err[256] = "";

	summary_opts_init(&so);
	report_opts_init(&ro);
	render("units.csv", &so, &ro, L_MMTESTS, "units.mmtests.txt");
	load_csv("units.csv", &t);
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_tables, 5);
	assert_string_equal(s.tables[0].metric, "latency");
	assert_string_equal(s.tables[0].unit, "us");
	assert_int_equal(s.tables[0].n_cols, 1);
	assert_string_equal(s.tables[0].cols[0], "old");
	assert_float_equal(summary_group_at(&s.tables[0], 0, 0)->st.amean, 51, 1e-9);
	assert_string_equal(s.tables[1].metric, "latency");
	assert_string_equal(s.tables[1].unit, "ms");
	assert_int_equal(s.tables[1].n_cols, 1);
	assert_string_equal(s.tables[1].cols[0], "new");
	assert_float_equal(summary_group_at(&s.tables[1], 0, 0)->st.amean, 0.05, 1e-9);
	assert_string_equal(s.tables[2].metric, "time");
	assert_int_equal(s.tables[2].n_cols, 2);
	assert_string_equal(s.tables[3].metric, "events");
	assert_int_equal(s.tables[3].better, BETTER_HIGHER);
	assert_string_equal(s.tables[3].cols[0], "old");
	assert_string_equal(s.tables[4].metric, "events");
	assert_int_equal(s.tables[4].better, BETTER_LOWER);
	assert_string_equal(s.tables[4].cols[0], "new");
	summary_free(&s);
	sample_table_free(&t);
}

/* A spread statistic against a baseline spread of 0 prints what mmtests
 * Stat.pm pndiff does (0 when both are 0, -99 otherwise) instead of
 * (    NaN%), in every layout using report_pct; two columns that both have
 * zero variance get no Welch star and the footer says why. */
static void test_spread_against_zero(void **state)
{
	(void)state;
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,a,c,l,m,s,lower,1,1,5\n"
		"r,a,c,l,m,s,lower,1,2,5\n"
		"r,b,c,l,m,s,lower,1,1,5\n"
		"r,b,c,l,m,s,lower,1,2,5\n"
		"r,c,c,l,m,s,lower,1,1,6\n"
		"r,c,c,l,m,s,lower,1,2,6\n"
		"r,d,c,l,m,s,lower,1,1,5\n"
		"r,d,c,l,m,s,lower,1,2,7\n";
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	struct buf out = {0};
	char err[256];

	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 8);
	summary_opts_init(&so);
	report_opts_init(&ro);
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	report_mmtests(&out, &s, &ro);
	const char *text = buf_str(&out);
	assert_non_null(strstr(text, "\nAmean     1        5.00 (   0.00%)        5.00 (   0.00%)"
				     "        6.00 ( -20.00%)        6.00 ( -20.00%)\n"));
	assert_non_null(strstr(text, "\nStddev    1        0.00 (   0.00%)        0.00 (   0.00%)"
				     "        0.00 (   0.00%)        1.41 ( -99.00%)\n"));
	assert_non_null(strstr(text, "\nCoeffVar  1        0.00 (   0.00%)        0.00 (   0.00%)"
				     "        0.00 (   0.00%)       23.57 ( -99.00%)\n"));
	assert_non_null(strstr(text, "n >= 2 on both sides, none where both Stddev are 0 (t undefined)\n"));
	const struct summary_table *tb = &s.tables[0];
	assert_true(summary_group_at(tb, 0, 2)->zero_variance);
	assert_false(summary_group_at(tb, 0, 2)->test.valid);
	assert_false(summary_group_at(tb, 0, 3)->zero_variance);
	assert_true(summary_group_at(tb, 0, 3)->test.valid);

	/* The same rule in the grid (any --stat) and in CSV. */
	const struct summary_stat stddev = {STAT_STDDEV, 0};
	assert_float_equal(report_pct(tb, &stddev, 0, 3), -99.0, 0);
	assert_float_equal(report_pct(tb, &stddev, 0, 1), 0.0, 0);
	out.len = 0;
	report_csv(&out, &s, &ro);
	assert_non_null(strstr(buf_str(&out), ",d,c,1,Stddev,1.4142135623730951,-99,2,,\n"));
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
}

/* The notes under the tables: lines after a blank line in text, a list
 * with markdown's characters escaped, a "notes" array in JSON (empty when
 * there are none). */
static void test_notes(void **state)
{
	(void)state;
	struct report_notes n = {0};
	struct buf out = {0};
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	char err[256] = "";

	report_notes_text(&out, &n);
	report_notes_markdown(&out, &n);
	assert_int_equal(out.len, 0);
	report_notes_add(&n, xstrdup("No samples: cell fake.sleep_ms=3000 on variant a: none of 2 "
				     "iteration(s) complete"));
	report_notes_add(&n, xstrdup("Iterations: x*y <b> [c] |d| `e` & ~f \\g"));
	report_notes_text(&out, &n);
	assert_string_equal(buf_str(&out), "\nNo samples: cell fake.sleep_ms=3000 on variant a: none of 2 "
					   "iteration(s) complete\nIterations: x*y <b> [c] |d| `e` & ~f \\g\n");
	out.len = 0;
	report_notes_markdown(&out, &n);
	assert_string_equal(buf_str(&out), "\n- No samples: cell fake.sleep\\_ms=3000 on variant a: none "
					   "of 2 iteration(s) complete\n- Iterations: x\\*y \\<b\\> "
					   "\\[c\\] \\|d\\| \\`e\\` \\& \\~f \\\\g\n");

	load_csv("netperf.csv", &t);
	summary_opts_init(&so);
	report_opts_init(&ro);
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	out.len = 0;
	assert_int_equal(report_json(&out, &s, &ro, &n), 0);
	assert_non_null(strstr(buf_str(&out), "\"notes\": [\n    \"No samples: cell fake.sleep_ms=3000 "
						"on variant a: none of 2 iteration(s) complete\",\n"
						"    \"Iterations: x*y <b> [c] |d| `e` & ~f \\\\g\"\n  ]\n}\n"));
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
	report_notes_free(&n);
	assert_int_equal(n.n, 0);
}

/* import reads what export writes and nothing looser: decimal numbers and
 * NaN, not inf or hexadecimal; values beyond a double are out of range;
 * names are UTF-8 without control characters. */
static void test_csv_strict(void **state)
{
	(void)state;
	static const struct {
		const char *row, *err;
	} bad[] = {
		{"r,v,c,l,m,u,lower,,1,inf", "inline:2: value 'inf' is not a decimal number (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,-inf", "inline:2: value '-inf' is not a decimal number (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,0x10", "inline:2: value '0x10' is not a decimal number (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,1e", "inline:2: value '1e' is not a decimal number (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,1e309", "inline:2: value '1e309' is out of range"},
		{"r,v,c\xff,l,m,u,lower,,1,1", "inline:2: cell is not UTF-8 text without control characters"},
		{"r,v\x01,c,l,m,u,lower,,1,1", "inline:2: variant is not UTF-8 text without control characters"},
		{"r,v,c,l,m\xc2\x85,u,lower,,1,1", "inline:2: metric is not UTF-8 text without control characters"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sample_table t;
		char csv[256], err[256] = "";
		snprintf(csv, sizeof(csv), "%s\n%s\n", CSV_SAMPLE_HEADER, bad[i].row);
		sample_table_init(&t);
		assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i].err);
		sample_table_free(&t);
	}
	struct sample_table t;
	char csv[512], err[256] = "";
	snprintf(csv, sizeof(csv), "%s\nr,v,c,l,m,u,lower,,1,1.5e3\nr,v,c,l,m,u,lower,,2,-.5\n"
		 "r,v,c\xc3\xa9,l,m,u,lower,,1,NaN\nr,v,c,l,m,u,lower,,3,+7.\n", CSV_SAMPLE_HEADER);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 4);
	assert_true(t.rows[0].value == 1500.0);
	assert_true(t.rows[1].value == -0.5);
	assert_true(isnan(t.rows[2].value));
	assert_string_equal(t.rows[2].cell, "c\xc3\xa9");
	assert_true(t.rows[3].value == 7.0);
	sample_table_free(&t);

	/* Two rows of one sample: refused, naming both lines (another
	 * iteration, op or load is another sample). */
	snprintf(csv, sizeof(csv), "%s\nr,v,c,l,m,u,lower,p50,1,1\nr,v,c,l,m,u,lower,p50,2,1\n"
		 "r,v,c,l,m,u,lower,p99,1,1\nr,v,c,l2,m,u,lower,p50,1,1\nr,v,c,l,m,u,lower,p50,1,2\n",
		 CSV_SAMPLE_HEADER);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), -1);
	assert_string_equal(err, "inline:6: the same sample as line 2 (variant, cell, load, metric,"
			    " op and iteration)");
	sample_table_free(&t);

	/* A UTF-8 byte order mark before the header (a spreadsheet's export). */
	snprintf(csv, sizeof(csv), "\xef\xbb\xbf%s\nr,v,c,l,m,u,lower,,1,2.5\n", CSV_SAMPLE_HEADER);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 1);
	assert_true(t.rows[0].value == 2.5);
	sample_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_split),
		cmocka_unit_test(test_mmtests_seed_spacing),
		cmocka_unit_test(test_mmtests_dbench),
		cmocka_unit_test(test_mmtests_dbench_ci_overlap_baseline),
		cmocka_unit_test(test_mmtests_netperf_hmean_nan),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_grid_missing_axis),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_latency_summary),
		cmocka_unit_test(test_markdown_csv_json),
		cmocka_unit_test(test_units_and_directions_stay_apart),
		cmocka_unit_test(test_spread_against_zero),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_csv_strict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
