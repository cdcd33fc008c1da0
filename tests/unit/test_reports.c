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

#include "config.h"
#include "csvio.h"
#include "hostdecl.h"
#include "report.h"
#include "runinfo.h"
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

enum layout { L_MMTESTS, L_MMTESTS_WIDE, L_PERCENTILES, L_LATENCY, L_MARKDOWN, L_CSV, L_JSON, L_GRID };

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
	case L_MMTESTS_WIDE: report_mmtests_wide(&out, &s, ro); break;
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

/* The golden text with its first header row edited where the rig splits
 * a name on purpose otherwise than mmtests (report_split_header: a name
 * without '-' is not split, so mmtests' "runnin" over "running" becomes
 * blanks over it): every occurrence of from in the first line becomes to. */
static char *header_edited(const char *golden, const char *from, const char *to)
{
	struct buf b = {0};
	const char *eol = strchr(golden, '\n');
	size_t first = eol ? (size_t)(eol - golden) : strlen(golden);
	for (size_t i = 0; i < first;) {
		if (from && !strncmp(golden + i, from, strlen(from)) && i + strlen(from) <= first) {
			buf_puts(&b, to);
			i += strlen(from);
		} else {
			buf_append(&b, golden + i, 1);
			i++;
		}
	}
	buf_puts(&b, golden + first);
	return b.data;
}

static char *read_data(const char *name)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	struct buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	return b.data ? b.data : xstrdup("");
}

/* What mmtests' own compare-mmtests.pl printed for the same samples
 * (tests/data/mmtests/README.md says how the golden files were made; they
 * are never rewritten from this code), byte for byte but for the header
 * edit above: both layouts and the --print-ratio view, a lower- and a
 * higher-is-better metric, ops out of order in the CSV, header shapes
 * (-rc, a dash, none), its CI-overlap stars including the fallback where
 * both spreads are 0, each benchmark's decimals from the tool alone (no
 * --decimals), and what it prints where a statistic is undefined: a mean
 * of 0, one sample, a missing op, an op the baseline lacks (left out). */
static void test_mmtests_golden_from_mmtests(void **state)
{
	(void)state;
	static const struct {
		const char *csv, *golden;
		enum layout layout;
		bool ratio;
		const char *from, *to; /* the header edit */
	} cases[] = {
		{"hackbench.csv", "hackbench.classic.txt", L_MMTESTS, false, "runnin", "      "},
		{"hackbench.csv", "hackbench.newer.txt", L_MMTESTS_WIDE, false, "runnin", "      "},
		{"hackbench.csv", "hackbench.ratio.classic.txt", L_MMTESTS, true, "runnin", "      "},
		{"hackbench.csv", "hackbench.ratio.newer.txt", L_MMTESTS_WIDE, true, "runnin", "      "},
		{"netperf.csv", "netperf.classic.txt", L_MMTESTS, false, "ti", "  "},
		{"netperf.csv", "netperf.newer.txt", L_MMTESTS_WIDE, false, "ti", "  "},
		{"netperf.csv", "netperf.ratio.classic.txt", L_MMTESTS, true, "ti", "  "},
		{"netperf.csv", "netperf.ratio.newer.txt", L_MMTESTS_WIDE, true, "ti", "  "},
		{"zero-mean.csv", "zero-mean.classic.txt", L_MMTESTS, false, NULL, NULL},
		{"zero-mean.csv", "zero-mean.newer.txt", L_MMTESTS_WIDE, false, NULL, NULL},
		{"zero-mean.csv", "zero-mean.ratio.classic.txt", L_MMTESTS, true, NULL, NULL},
		{"zero-mean.csv", "zero-mean.ratio.newer.txt", L_MMTESTS_WIDE, true, NULL, NULL},
		{"missing-op.csv", "missing-op.newer.txt", L_MMTESTS_WIDE, false, NULL, NULL},
		{"missing-op.csv", "missing-op.ratio.classic.txt", L_MMTESTS, true, NULL, NULL},
		{"missing-op.csv", "missing-op.ratio.newer.txt", L_MMTESTS_WIDE, true, NULL, NULL},
		{"one-sample.csv", "one-sample.newer.txt", L_MMTESTS_WIDE, false, NULL, NULL},
		{"one-sample.csv", "one-sample.ratio.newer.txt", L_MMTESTS_WIDE, true, NULL, NULL},
		{"one-sample-hmean.csv", "one-sample-hmean.newer.txt", L_MMTESTS_WIDE, false, NULL, NULL},
		{"one-sample-hmean.csv", "one-sample-hmean.ratio.newer.txt", L_MMTESTS_WIDE, true, NULL,
		 NULL},
		{"one-sample-baseline.csv", "one-sample-baseline.ratio.newer.txt", L_MMTESTS_WIDE, true,
		 NULL, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct summary_opts so;
		struct report_opts ro;
		struct sample_table t;
		struct summary s;
		struct buf out = {0};
		char err[256] = "", csv[64], golden[64];
		summary_opts_init(&so);
		report_opts_init(&ro);
		so.significance = SIG_CI_OVERLAP;
		ro.plain = true;
		ro.ratio = cases[i].ratio;
		snprintf(csv, sizeof(csv), "mmtests/%s", cases[i].csv);
		snprintf(golden, sizeof(golden), "mmtests/%s", cases[i].golden);
		load_csv(csv, &t);
		if (summary_build(&t, &so, &s, err, sizeof(err)))
			fail_msg("summary_build: %s", err);
		if (cases[i].layout == L_MMTESTS)
			report_mmtests(&out, &s, &ro);
		else
			report_mmtests_wide(&out, &s, &ro);
		char *text = read_data(golden);
		char *want = header_edited(text, cases[i].from, cases[i].to);
		if (strcmp(want, buf_str(&out))) {
			fprintf(stderr, "--- want %s\n%s--- got\n%s---\n", golden, want, buf_str(&out));
			fail_msg("%s differs", golden);
		}
		free(want);
		free(text);
		buf_free(&out);
		summary_free(&s);
		sample_table_free(&t);
	}
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
	assert_int_equal(report_parse_grid_items(&ro, "max"), 0);
	render("grid.csv", &so, &ro, L_GRID, "grid.grid-max.txt");
}

/* Seed 002's boxed grids: sub-columns of statistics (cyclictest Min, Avg,
 * Max) under each value of the column axis, or the tool's own percentile
 * ops (schbench 90th, 95th, 99th), a '*' on values of cells that differ
 * from the baseline cell, n below; axes named by their labels or their
 * shortest form. */
static void test_grid_boxed(void **state)
{
	(void)state;
	struct summary_opts so;
	struct report_opts ro;
	struct axis_labels labels = {0};
	summary_opts_init(&so);
	report_opts_init(&ro);
	so.columns = AXIS_CELL;
	ro.grid_row = "hackbench.latency_nice";
	ro.grid_col = "cyclictest.latency_nice";
	assert_int_equal(report_parse_grid_items(&ro, "min,mean,max"), 0);
	render("grid.csv", &so, &ro, L_GRID, "grid.grid-box.txt");
	/* ops as sub-columns, axes by label */
	axis_labels_add(&labels, "hb.latency_nice", "HB-LN");
	axis_labels_add(&labels, "sb.latency_nice", "SB-LN");
	ro.labels = &labels;
	ro.grid_row = "HB-LN";
	ro.grid_col = "SB-LN";
	assert_int_equal(report_parse_grid_items(&ro, "p90,p95,p99"), 0);
	render("grid-ops.csv", &so, &ro, L_GRID, "grid-ops.grid.txt");
	axis_labels_free(&labels);
	assert_int_equal(report_parse_grid_items(&ro, "a,,b"), -1);
	assert_int_equal(report_parse_grid_items(&ro, "12345678901234567890123456789012"), -1);
}

/* Column names in headers: a label reads LABEL:VALUE, an axis without one
 * its key alone unless two axes share the key; the mmtests header rows put
 * the last axis below. */
static void test_column_names(void **state)
{
	(void)state;
	const char *cols[] = {"hb.latency_nice=-20,ct.latency_nice=19,ct.slice_us=100",
			      "hb.latency_nice=0,ct.latency_nice=0,ct.slice_us=3000"};
	struct summary_table t = {.cols = cols, .n_cols = 2};
	struct axis_labels labels = {0};
	struct report_opts o;
	struct report_cols rc;
	report_opts_init(&o);
	report_cols_init(&rc, &t, &o);
	assert_string_equal(rc.name[0], "hb.latency_nice=-20,ct.latency_nice=19,slice_us=100");
	assert_string_equal(rc.first[1], "hb.latency_nice=0,ct.latency_nice=0");
	assert_string_equal(rc.second[1], "slice_us=3000");
	report_cols_free(&rc);
	axis_labels_add(&labels, "hb.latency_nice", "LN");
	axis_labels_add(&labels, "ct.latency_nice", "CT-LN");
	o.labels = &labels;
	report_cols_init(&rc, &t, &o);
	assert_string_equal(rc.name[0], "LN:-20,CT-LN:19,slice_us=100");
	report_cols_free(&rc);
	const char *one[] = {"ct.slice_us=100", "ct.cpus=0-3,5", "5.15.0-rc1-vanilla"};
	t.cols = one;
	t.n_cols = 3;
	report_cols_init(&rc, &t, &o);
	assert_string_equal(rc.first[0], "slice_us=");
	assert_string_equal(rc.second[0], "100");
	assert_string_equal(rc.first[1], "cpus=");
	assert_string_equal(rc.second[1], "0-3,5");
	assert_string_equal(rc.first[2], "5.15.0-rc1");
	assert_string_equal(rc.second[2], "vanilla");
	report_cols_free(&rc);
	axis_labels_free(&labels);
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
	assert_string_equal(err, "hackbench.nice is no axis of the cells of cyclictest latency_max "
				 "(axes: hackbench.latency_nice, cyclictest.latency_nice)");
	/* latency_nice is the key of both axes */
	ro.grid_col = "latency_nice";
	assert_int_equal(report_grid(&out, &s, &ro, err, sizeof(err)), -1);
	assert_string_equal(err, "latency_nice stands for several axes of the cells of cyclictest "
				 "latency_max (axes: hackbench.latency_nice, cyclictest.latency_nice)");
	ro.grid_col = "cyclictest.latency_nice";
	assert_int_equal(report_parse_grid_items(&ro, "mode"), 0);
	assert_int_equal(report_grid(&out, &s, &ro, err, sizeof(err)), -1);
	assert_string_equal(err, "--stat mode is neither a statistic nor, with the other items, an op "
				 "of cyclictest latency_max");
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

/* Column names split where mmtests Compare.pm _generateHeaderTable splits
 * them, but only at a boundary: at the first '-', dropped; "-rc" and a
 * digit in the i + 3 characters from that dash move the split past the
 * whole -rc number when a '-' or the end follows it (mmtests moves it 4
 * on, so an -rc10 loses its 0, as its own comment says it will); no '-':
 * no split, the name on the second row (mmtests: the name less its last
 * character over the name, "v6.1" over "v6.12"). */
static void test_header_split(void **state)
{
	(void)state;
	static const struct {
		const char *name, *first, *second;
	} cases[] = {
		{"hackbench-cyclictest", "hackbench", "cyclictest"},
		{"5.15.0-rc1-vanilla", "5.15.0-rc1", "vanilla"},
		{"5.15.0-rc1-sched-scalewakegran-v2r5", "5.15.0-rc1", "sched-scalewakegran-v2r5"},
		{"v6.1-no-gentle-sleepers", "v6.1", "no-gentle-sleepers"},
		{"v6.1-cfs", "v6.1", "cfs"},
		{"running", "", "running"},
		{"v6.12", "", "v6.12"},
		{"v6.1", "", "v6.1"},
		{"no_gentle_sleepers", "", "no_gentle_sleepers"},
		{"x", "", "x"},
		{"6.12-rc10", "6.12-rc10", ""},
		{"6.12-rc10-eevdf", "6.12-rc10", "eevdf"},
		{"6.12-rc1x-eevdf", "6.12", "rc1x-eevdf"},
		{"x-rcfoo", "x", "rcfoo"},
		{"ab-rc1", "ab-rc1", ""},
		{"-rc1-x", "", "rc1-x"},
		{"abcd-x-rc1-foo", "abcd-x-rc1", "foo"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char a[64], b[64];
		report_split_header(cases[i].name, a, sizeof(a), b, sizeof(b));
		assert_string_equal(a, cases[i].first);
		assert_string_equal(b, cases[i].second);
	}
}

/* The seed 000 header rows (dbench4, ops 1 to 128: lines copied from the
 * thread), rebuilt from summaries of two samples: NaN in the value width,
 * no star between two columns without variance (the star form is in the
 * dbench golden files). */
static void test_mmtests_seed_spacing(void **state)
{
	(void)state;
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,5.15.0-rc1-vanilla,c,dbench,t,s,lower,128,1,330.42\n"
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
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 6);
	summary_opts_init(&so);
	report_opts_init(&ro);
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	report_mmtests(&out, &s, &ro);
	const char *text = buf_str(&out);
	assert_non_null(strstr(text, "\n                          5.15.0-rc1             5.15.0-rc1"
				     "             5.15.0-rc1\n"
				     "                             vanillasched-scalewakegran-v2r5"
				     " sched-moveforward-v1r1\n"));
	/* Zero variance on both sides, different means: Welch's t is
	 * undefined, no star; a Stddev of 0 against 0 is 0.00% (mmtests
	 * pndiff); a column whose only sample is NaN has no statistic and
	 * prints 0 with 0.00%, as compare-mmtests.pl prints a missing op. */
	assert_non_null(strstr(text, "\nAmean     1         15.99 (   0.00%)       16.20 (  -1.31%)        0.00 (   0.00%)\n"));
	assert_non_null(strstr(text, "\nStddev    1          0.00 (   0.00%)        0.00 (   0.00%)        0.00 (   0.00%)\n"));
	assert_non_null(strstr(text, "\nUndefined (printed 0 as compare-mmtests.pl prints it): "
				     "5.15.0-rc1-sched-moveforward-v1r1 op 1 (no samples); "
				     "5.15.0-rc1-vanilla op 128 (n = 1); "
				     "5.15.0-rc1-sched-scalewakegran-v2r5 op 128 (no samples); "
				     "5.15.0-rc1-sched-moveforward-v1r1 op 128 (no samples)\n"));
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

/* import reads what export writes and nothing looser: decimal numbers as
 * tool output is read (parse_double: no '+', no bare '.', nothing beyond or
 * below a double's range) and NaN, not inf or hexadecimal;
 * names are UTF-8 without control characters. */
static void test_csv_strict(void **state)
{
	(void)state;
	static const struct {
		const char *row, *err;
	} bad[] = {
		{"r,v,c,l,m,u,lower,,1,inf", "inline:2: value 'inf' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,-inf", "inline:2: value '-inf' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,0x10", "inline:2: value '0x10' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,1e", "inline:2: value '1e' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,1e309", "inline:2: value '1e309' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,1e-999", "inline:2: value '1e-999' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,+7", "inline:2: value '+7' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,-.5", "inline:2: value '-.5' is not a decimal number in range (NaN for none)"},
		{"r,v,c,l,m,u,lower,,1,7.", "inline:2: value '7.' is not a decimal number in range (NaN for none)"},
		{"r,v,c\xff,l,m,u,lower,,1,1", "inline:2: cell is not UTF-8 text without control characters"},
		{"r,v\x01,c,l,m,u,lower,,1,1", "inline:2: variant is not UTF-8 text without control characters"},
		{"r,v,c,l,m\xc2\x85,u,lower,,1,1", "inline:2: metric is not UTF-8 text without control characters"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sample_table t;
		char csv[256], err[256] = "";
		snprintf(csv, sizeof(csv), "%s\n%s\n", CSV_SAMPLE_HEADER_NO_TOOL, bad[i].row);
		sample_table_init(&t);
		assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i].err);
		sample_table_free(&t);
	}
	struct sample_table t;
	char csv[512], err[256] = "";
	snprintf(csv, sizeof(csv), "%s\nr,v,c,l,m,u,lower,,1,1.5e3\nr,v,c,l,m,u,lower,,2,-0.5\n"
		 "r,v,c\xc3\xa9,l,m,u,lower,,1,NaN\nr,v,c,l,m,u,lower,,3,7\n", CSV_SAMPLE_HEADER_NO_TOOL);
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
		 CSV_SAMPLE_HEADER_NO_TOOL);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), -1);
	assert_string_equal(err, "inline:6: the same sample as line 2 (variant, cell, load, metric,"
			    " op, iteration and repetition)");
	sample_table_free(&t);

	/* A UTF-8 byte order mark before the header (a spreadsheet's export). */
	snprintf(csv, sizeof(csv), "\xef\xbb\xbf%s\nr,v,c,l,m,u,lower,,1,2.5,cyclictest\n", CSV_SAMPLE_HEADER_NO_REPETITION);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 1);
	assert_true(t.rows[0].value == 2.5);
	sample_table_free(&t);
}

/* A histogram row of load ct, metric latency, variant v, iteration it. */
static void add_hist(struct hist_table *h, const char *variant, int it, const uint64_t *counts,
		     const double *bounds, size_t n, uint64_t overflow, double min, double max,
		     double sum, double sum_sq)
{
	struct hist_row r = {
		.run = "r", .variant = variant, .cell = "c", .load = "ct", .metric = "latency",
		.unit = "us", .op = "", .iteration = it, .bucket_width = 1, .counts = (uint64_t *)counts,
		.bounds = (double *)bounds, .n_buckets = n, .overflow = overflow, .limit = 6,
		.max_observed = max, .min_observed = min, .sum = sum, .sum_sq = sum_sq,
	};
	hist_table_add(h, &r);
}

/* The latency layout's Avg lines as mmtests marks its mean rows: the
 * change against the baseline column and a star where Welch's test finds
 * the Avg differs. Computed by hand: events of a in three iterations of
 * two events each, means 10, 11, 12 (pooled 66 / 6 = 11), of b 30, 31,
 * 32 (pooled 31): pndiff 100 − 31·100/11 = −181.82 %; the per-iteration
 * means 10, 11, 12 against 30, 31, 32 give t = 20 / sqrt(2/3) = 24.5 with
 * 4 df, p < 0.0001: starred. c has one iteration: no test. The values
 * table: 10, 11, 12 against 20, 21, 22, t = 12.2, starred, −90.91 %. */
static void test_latency_significance(void **state)
{
	(void)state;
	static const uint64_t two[] = {2}, one[] = {1};
	static const double b10[] = {10}, b11[] = {11}, b12[] = {12}, b30[] = {30}, b31[] = {31},
			    b32[] = {32};
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,a,c,ct,max_latency,us,lower,0,1,10\nr,a,c,ct,max_latency,us,lower,0,2,11\n"
		"r,a,c,ct,max_latency,us,lower,0,3,12\nr,b,c,ct,max_latency,us,lower,0,1,20\n"
		"r,b,c,ct,max_latency,us,lower,0,2,21\nr,b,c,ct,max_latency,us,lower,0,3,22\n"
		"r,c,c,ct,max_latency,us,lower,0,1,11\n";
	struct hist_table h;
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	struct buf out = {0};
	char err[256];

	hist_table_init(&h);
	add_hist(&h, "a", 1, two, b10, 1, 0, 10, 10, 20, 200);
	add_hist(&h, "a", 2, two, b11, 1, 0, 11, 11, 22, 242);
	add_hist(&h, "a", 3, two, b12, 1, 0, 12, 12, 24, 288);
	add_hist(&h, "b", 1, two, b30, 1, 0, 30, 30, 60, 1800);
	add_hist(&h, "b", 2, two, b31, 1, 0, 31, 31, 62, 1922);
	add_hist(&h, "b", 3, two, b32, 1, 0, 32, 32, 64, 2048);
	add_hist(&h, "c", 1, one, b11, 1, 0, 11, 11, 11, 121);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 7);
	summary_opts_init(&so);
	report_opts_init(&ro);
	ro.hists = &h;
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	report_latency(&out, &s, &ro);
	assert_string_equal(buf_str(&out),
		"ct latency (us, lower is better), cell c, run r: every event, pooled over iterations\n"
		"\n"
		"a\n"
		"        Max                12.00 us\n"
		"        Avg                11.00 us (   0.00%)\n"
		"        Stdev               0.89 us\n"
		"        Stdev mean          0.37 us\n"
		"        n                      6 events\n"
		"\n"
		"b\n"
		"        Max                32.00 us\n"
		"        Avg                31.00 us *-181.82%*\n"
		"        Stdev               0.89 us\n"
		"        Stdev mean          0.37 us\n"
		"        n                      6 events\n"
		"\n"
		"c\n"
		"        Max                11.00 us\n"
		"        Avg                11.00 us (   0.00%)\n"
		"        Stdev                NaN us\n"
		"        Stdev mean           NaN us\n"
		"        n                      1 events\n"
		"\n"
		"Significance (stars, on the Avg line; (x%) its change, positive is better): Welch's"
		" two-sample t-test (two-sided, Welch-Satterthwaite df) of the Avg against a, alpha 0.05,"
		" n >= 2 on both sides, on the per-iteration means of the events (n = iterations), not on"
		" the events\n"
		"\n"
		"ct max_latency (us, lower is better), cell c, run r: per-iteration values, n = iterations"
		" (no histogram of its events is stored)\n"
		"\n"
		"a\n"
		"        Max                12.00 us\n"
		"        Avg                11.00 us (   0.00%)\n"
		"        Stdev               1.00 us\n"
		"        Stdev mean          0.58 us\n"
		"        n                      3 iterations\n"
		"\n"
		"b\n"
		"        Max                22.00 us\n"
		"        Avg                21.00 us * -90.91%*\n"
		"        Stdev               1.00 us\n"
		"        Stdev mean          0.58 us\n"
		"        n                      3 iterations\n"
		"\n"
		"c\n"
		"        Max                11.00 us\n"
		"        Avg                11.00 us (   0.00%)\n"
		"        Stdev                NaN us\n"
		"        Stdev mean           NaN us\n"
		"        n                      1 iterations\n"
		"\n"
		"Significance (stars, on the Avg line; (x%) its change, positive is better): Welch's"
		" two-sample t-test (two-sided, Welch-Satterthwaite df) of the Avg against a, alpha 0.05,"
		" n >= 2 on both sides, on the per-iteration values\n");
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
	hist_table_free(&h);
}

/* Percentiles of pooled buckets from three iterations of different sizes,
 * computed by hand: cyclictest's 1 us buckets (bound = the latency), one
 * event in the overflow. Pooled counts 1us:3 2us:4 3us:3 4us:1 5us:1, 1
 * above 6 us: N = 13; p10 rank 2 → 1, p50 rank 7 → 2, p90 rank 12 → 5,
 * p95 rank 13 → the overflow (">=6"). The mean is unknown with an
 * overflow and no exact sums. */
static void test_pooled_percentiles(void **state)
{
	(void)state;
	static const uint64_t a[] = {0, 2, 1, 0, 0, 0}, b[] = {0, 0, 3, 2, 0, 0},
			      c[] = {0, 1, 0, 1, 1, 1};
	struct hist_table h;
	struct report_pooled p;
	struct stats_hist_pct r;
	hist_table_init(&h);
	add_hist(&h, "v", 1, a, NULL, 6, 0, 1, 2, NAN, NAN);
	add_hist(&h, "v", 2, b, NULL, 6, 0, 2, 3, NAN, NAN);
	add_hist(&h, "v", 3, c, NULL, 6, 1, 1, 9, NAN, NAN);
	pooled_init(&p);
	for (size_t i = 0; i < h.n; i++)
		pooled_add(&p, &h.rows[i]);
	assert_int_equal(pooled_events(&p), 13);
	assert_int_equal(p.n_hists, 3);
	static const double pct[] = {10, 50, 90};
	static const double want[] = {1, 2, 5};
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(pooled_percentile(&p, pct[i], &r), 0);
		assert_false(r.censored);
		assert_true(r.value == want[i]);
	}
	assert_int_equal(pooled_percentile(&p, 95, &r), 0);
	assert_true(r.censored && r.value == 6);
	assert_true(isnan(pooled_mean(&p)));
	assert_true(p.min == 1 && p.max == 9);
	pooled_free(&p);

	/* Without the overflow the mean and Stdev come from the bucket bounds
	 * (exact for whole microseconds): 1,1,1,2,2,2,2,3,3,3,4,5 → python
	 * statistics: mean 2.4166666666666665, stdev 1.2401124093721456 */
	pooled_init(&p);
	pooled_add(&p, &h.rows[0]);
	pooled_add(&p, &h.rows[1]);
	h.rows[2].overflow = 0;
	pooled_add(&p, &h.rows[2]);
	assert_true(fabs(pooled_mean(&p) - 2.4166666666666665) < 1e-12);
	assert_true(fabs(pooled_stddev(&p) - 1.2401124093721456) < 1e-12);
	pooled_free(&p);
	hist_table_free(&h);
}

/* The latency layout over every event: three iterations (3, 3 and 1
 * events) with explicit bounds and exact sums; the values 10 20 20 | 20 30
 * 40 | 5: python statistics gives mean 20.714285714285715, stdev
 * 11.700630833624395, stdev / sqrt(7) 4.422422766906359. A metric without
 * histograms says it is per-iteration values with n = iterations. The
 * percentile layout reads the same pool: p50 rank 4 → 20, p90 rank 7 → 40. */
static void test_latency_over_events(void **state)
{
	(void)state;
	static const uint64_t ca[] = {1, 2}, cb[] = {1, 1, 1}, cc[] = {1};
	static const double ba[] = {10, 20}, bb[] = {20, 30, 40}, bc[] = {5};
	static const char csv[] =
		"run,variant,cell,load,metric,unit,better,op,iteration,value\n"
		"r,v,c,ct,max_latency,us,lower,0,1,20\nr,v,c,ct,max_latency,us,lower,0,2,40\n"
		"r,v,c,ct,max_latency,us,lower,0,3,5\n";
	struct hist_table h;
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	struct buf out = {0};
	char err[256];

	hist_table_init(&h);
	add_hist(&h, "v", 1, ca, ba, 2, 0, 10, 20, 50, 900);
	add_hist(&h, "v", 2, cb, bb, 3, 0, 20, 40, 90, 2900);
	add_hist(&h, "v", 3, cc, bc, 1, 0, 5, 5, 5, 25);
	sample_table_init(&t);
	assert_int_equal(csv_read_samples_str(csv, "inline", NULL, &t, err, sizeof(err)), 3);
	summary_opts_init(&so);
	report_opts_init(&ro);
	ro.hists = &h;
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	report_latency(&out, &s, &ro);
	assert_string_equal(buf_str(&out),
		"ct latency (us, lower is better), variant v, run r: every event, pooled over iterations\n"
		"\n"
		"c\n"
		"        Max                40.00 us\n"
		"        Avg                20.71 us\n"
		"        Stdev              11.70 us\n"
		"        Stdev mean          4.42 us\n"
		"        n                      7 events\n"
		"\n"
		"ct max_latency (us, lower is better), variant v, run r: per-iteration values, n = iterations"
		" (no histogram of its events is stored)\n"
		"\n"
		"c\n"
		"        Max                40.00 us\n"
		"        Avg                21.67 us\n"
		"        Stdev              17.56 us\n"
		"        Stdev mean         10.14 us\n"
		"        n                      3 iterations\n");
	out.len = 0;
	assert_int_equal(report_parse_percentiles(&ro, "50,90"), 0);
	report_percentiles(&out, &s, &ro);
	assert_non_null(strstr(buf_str(&out), "\n|all| 20.00 | 40.00 |\n"));
	assert_non_null(strstr(buf_str(&out), "\nn: c 7 events (3 iterations)\n"));
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
	hist_table_free(&h);
}

/* A repeating load: iteration 1 gave two runs, iteration 2 one. The layouts
 * name what n counts: 3 samples and 3 runs, not 3 iterations (before:
 * "iterations" whatever n was). Sum and events as in the test above. */
static void test_repetitions_not_iterations(void **state)
{
	(void)state;
	static const uint64_t ca[] = {1, 2}, cb[] = {1, 1, 1}, cc[] = {1};
	static const double ba[] = {10, 20}, bb[] = {20, 30, 40}, bc[] = {5};
	static const int iteration[] = {1, 1, 2};
	struct hist_table h;
	struct sample_table t;
	struct summary_opts so;
	struct report_opts ro;
	struct summary s;
	struct buf out = {0};
	char err[256];

	hist_table_init(&h);
	add_hist(&h, "v", 1, ca, ba, 2, 0, 10, 20, 50, 900);
	add_hist(&h, "v", 1, cb, bb, 3, 0, 20, 40, 90, 2900);
	add_hist(&h, "v", 2, cc, bc, 1, 0, 5, 5, 5, 25);
	sample_table_init(&t);
	for (int i = 0; i < 3; i++)
		sample_table_add(&t, &(struct sample_row){
			.run = "r", .variant = "v", .cell = "c", .load = "ct", .metric = "time",
			.unit = "s", .better = BETTER_LOWER, .op = "", .iteration = iteration[i],
			.value = 2 * (i + 1)});
	summary_opts_init(&so);
	report_opts_init(&ro);
	ro.hists = &h;
	assert_int_equal(summary_build(&t, &so, &s, err, sizeof(err)), 0);
	report_latency(&out, &s, &ro);
	const char *text = buf_str(&out);
	assert_non_null(strstr(text, "run r: every event, pooled over runs\n"));
	assert_non_null(strstr(text, "        n                      7 events\n"));
	assert_non_null(strstr(text, "run r: per-sample values, n = samples (no histogram"));
	assert_non_null(strstr(text, "        n                      3 samples\n"));
	assert_null(strstr(text, "iterations"));
	out.len = 0;
	report_percentiles(&out, &s, &ro);
	text = buf_str(&out);
	assert_non_null(strstr(text, "run r: every event, pooled over runs\n"));
	assert_non_null(strstr(text, "Pooled: the bucket counts of all runs of an op"));
	assert_non_null(strstr(text, "\nn: c 7 events (3 runs)\n"));
	assert_non_null(strstr(text, "run r: per-sample summaries (several samples per iteration)\n"));
	assert_non_null(strstr(text, "\nPer-sample values: nearest-rank percentiles of the samples"));
	assert_non_null(strstr(text, "\nn: c 3 samples\n"));
	buf_free(&out);
	summary_free(&s);
	sample_table_free(&t);
	hist_table_free(&h);
}

/* The layout registry: every layout has a name of its own and a text; the
 * default has every format; a section has an html anchor; unknown names
 * are NULL. */
static void test_layout_registry(void **state)
{
	size_t n;
	const struct report_layout *const *all = report_layout_all(&n);
	(void)state;
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(all[i]->text);
		assert_ptr_equal(report_layout_find(all[i]->name), all[i]);
		assert_true(!all[i]->section || all[i]->anchor);
	}
	const struct report_layout *d = report_layout_find(REPORT_LAYOUT_DEFAULT);
	assert_non_null(d);
	assert_true(d->markdown && d->csv && d->json && d->html);
	assert_null(report_layout_find("mmtest"));
	assert_true(report_layout_find("percentiles")->histograms);
	assert_false(report_layout_find("grid")->histograms);
}

/* The variants of a config as compare's host notes see them. */
static struct experiment *host_config(void)
{
	static const char text[] =
		"name: h\n"
		"variants:\n"
		"  - {name: a}\n"
		"  - {name: b, host_settings: {thp: never}}\n"
		"  - {name: g61, boot: qemu, kernel: linux-image-6.1.0-57-amd64-unsigned}\n"
		"  - {name: g612, boot: qemu, kernel: linux-image-6.12.48+deb12-amd64-unsigned}\n"
		"loads: [{tool: fake}]\n";
	char err[512];
	struct experiment *e = config_parse("h.yaml", text, strlen(text), err, sizeof(err));
	assert_non_null(e);
	return e;
}

/* The provenance's host state (runinfo_text, as report and mail print
 * it): the rig's machine's fields in full; a variant's line says only the
 * stable fields that read otherwise there (THP, from a guest), not those
 * that agree (the governor) nor those that change by themselves (loadavg);
 * a variant in the rig's machine's state says just that; lines wrap at
 * 76 columns. */
static void test_provenance_host_lines(void **state)
{
	(void)state;
	struct runinfo_host h[] = {
		{NULL, "cpufreq.governor", "no cpufreq", "/sys/x", NULL, true},
		{NULL, "loadavg", "0.50", "/proc/loadavg", NULL, false},
		{NULL, "thp.enabled", "madvise", "/sys/y", NULL, true},
		{"a", "cpufreq.governor", "no cpufreq", "/sys/x", "0123456789abcdef0123", true},
		{"a", "loadavg", "3.00", "/proc/loadavg", "0123456789abcdef0123", false},
		{"a", "thp.enabled", "never", "/sys/y", "0123456789abcdef0123", true},
		{"b", "thp.enabled", "madvise", "/sys/y", "fedcba9876543210fedc", true},
	};
	struct runinfo ri = {.id = 7, .name = "r", .host_state = h, .n_host = 7};
	struct buf out = {0};
	runinfo_text(&out, &ri, 1);
	const char *t = buf_str(&out);
	assert_non_null(strstr(t, "  host state of the rig's machine: cpufreq.governor=no cpufreq,"
			       " loadavg=0.50,\n    thp.enabled=madvise\n"));
	assert_non_null(strstr(t, "  host state of variant a (digest 0123456789abcdef): as the rig's"
			       " machine, except\n    thp.enabled=never\n"));
	assert_non_null(strstr(t, "  host state of variant b (digest fedcba9876543210): as the rig's"
			       " machine\n"));
	assert_null(strstr(t, "loadavg=3.00"));
	buf_free(&out);
}

/* "Host state differs" notes: a field undeclared runs read differently is
 * noted once, its inputs grouped by value; the same field declared by one
 * variant's host_settings: is not; two kernels declare their kernel's
 * identity, command line and the fields only one has, not their defaults
 * (autogroup: the seeds' 6.1-vs-6.12 confound; THP of this machine against
 * a guest), which are noted as such; identical fingerprints say nothing. */
static void test_host_notes(void **state)
{
	(void)state;
	struct experiment *e = host_config();
	struct hostdecls d[4];
	for (int i = 0; i < 4; i++)
		hostdecl_of_variant(&e->variants[i], &d[i]);
	char *f3[] = {"thp.enabled", "cpu.online", "mem.total_kb"};
	char *v1[] = {"never", "0-1", "2014632"}, *v2[] = {"madvise", "0-1", "2003912"},
	     *v3[] = {"never", "0-1", "2014632"};
	struct host_note_input runs[] = {
		{"run 1", f3, v1, 3, &d[0]}, {"run 2", f3, v2, 3, &d[0]}, {"run 3", f3, v3, 3, &d[0]},
	};
	struct report_notes n = {0};
	report_notes_host(&n, runs, 3);
	assert_int_equal(n.n, 1);
	assert_int_equal(n.n_host, 1);
	assert_string_equal(n.v[0], "Host state differs: thp.enabled never (run 1, run 3) vs madvise"
			    " (run 2)");
	report_notes_free(&n);
	/* Declared: variant b asks for thp: never. */
	struct host_note_input vars[] = {{"variant a", f3, v2, 3, &d[0]}, {"variant b", f3, v1, 3, &d[1]}};
	report_notes_host(&n, vars, 2);
	assert_int_equal(n.n, 0);
	/* Identical: nothing. */
	report_notes_host(&n, runs, 1);
	struct host_note_input same[] = {{"run 1", f3, v1, 3, &d[0]}, {"run 3", f3, v3, 3, &d[0]}};
	report_notes_host(&n, same, 2);
	assert_int_equal(n.n, 0);
	/* Two kernels: their releases and a field one lacks are declared; autogroup is not. */
	char *fa[] = {"kernel.release", "sysctl.kernel.sched_autogroup_enabled", "debugfs.sched.latency_ns"};
	char *va[] = {"6.1.0-57-amd64", "0", "6000000"};
	char *fb[] = {"kernel.release", "sysctl.kernel.sched_autogroup_enabled", "debugfs.sched.base_slice_ns"};
	char *vb[] = {"6.12.48+deb12-amd64", "1", "3000000"};
	struct host_note_input kernels[] = {{"variant g61", fa, va, 3, &d[2]},
					    {"variant g612", fb, vb, 3, &d[3]}};
	report_notes_host(&n, kernels, 2);
	assert_int_equal(n.n, 1);
	assert_string_equal(n.v[0], "Host state differs (kernel default):"
			    " sysctl.kernel.sched_autogroup_enabled 0 (variant g61) vs 1 (variant g612)");
	report_notes_free(&n);
	/* This machine against a guest: another kernel and boot declare the
	 * command line, the release and the machine's fields (cpuidle), not the
	 * kernel's THP default. */
	char *fl[] = {"kernel.release", "kernel.cmdline", "cpuidle.driver", "thp.enabled"};
	char *vl[] = {"6.1.0-41-amd64", "BOOT_IMAGE=/vmlinuz-6.1.0-41-amd64 root=UUID=x ro quiet",
		      "intel_idle", "madvise"};
	char *vg[] = {"6.1.0-57-amd64", "console=ttyS0 panic=-1", "none", "always"};
	struct host_note_input local_guest[] = {{"variant a", fl, vl, 4, &d[0]},
						{"variant g61", fl, vg, 4, &d[2]}};
	report_notes_host(&n, local_guest, 2);
	assert_int_equal(n.n, 1);
	assert_int_equal(n.n_host, 1);
	assert_string_equal(n.v[0], "Host state differs (kernel default): thp.enabled madvise"
			    " (variant a) vs always (variant g61)");
	report_notes_free(&n);
	/* The same kernel, a field one fingerprint lacks: noted as absent. */
	struct host_note_input one_kernel[] = {{"run 1", fa, va, 3, &d[2]}, {"run 2", fa, va, 2, &d[2]}};
	report_notes_host(&n, one_kernel, 2);
	assert_int_equal(n.n, 1);
	assert_string_equal(n.v[0], "Host state differs: debugfs.sched.latency_ns 6000000 (run 1) vs"
			    " absent (run 2)");
	report_notes_free(&n);
	for (int i = 0; i < 4; i++)
		hostdecls_free(&d[i]);
	experiment_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_split),
		cmocka_unit_test(test_repetitions_not_iterations),
		cmocka_unit_test(test_mmtests_seed_spacing),
		cmocka_unit_test(test_mmtests_dbench),
		cmocka_unit_test(test_mmtests_dbench_ci_overlap_baseline),
		cmocka_unit_test(test_mmtests_netperf_hmean_nan),
		cmocka_unit_test(test_mmtests_golden_from_mmtests),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_grid_missing_axis),
		cmocka_unit_test(test_grid_boxed),
		cmocka_unit_test(test_pooled_percentiles),
		cmocka_unit_test(test_latency_over_events),
		cmocka_unit_test(test_latency_significance),
		cmocka_unit_test(test_column_names),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_latency_summary),
		cmocka_unit_test(test_markdown_csv_json),
		cmocka_unit_test(test_units_and_directions_stay_apart),
		cmocka_unit_test(test_spread_against_zero),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_csv_strict),
		cmocka_unit_test(test_layout_registry),
		cmocka_unit_test(test_host_notes),
		cmocka_unit_test(test_provenance_host_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
