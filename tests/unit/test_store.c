/* The results database: a real SQLite file, written the way a run writes it
 * and read back the way reports read it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "store_bisect.h"
#include "store_host.h"
#include "store_adaptive.h"
#include "store_kbuild.h"
#include "store_list.h"
#include "store_reparse.h"
#include "store_revision.h"
#include "store_track.h"
#include "store_trace.h"

static char dir[] = "/tmp/schedrig-store.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void db_path(char *dst, size_t size, const char *name)
{
	snprintf(dst, size, "%s/%s", dir, name);
}

/* A second connection to the database at path, for what the tests check
 * or change behind the store's back. */
static sqlite3 *raw_db(const char *path)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	return db;
}

/* The schema version (PRAGMA user_version) of the database at path. */
static int db_user_version(const char *path)
{
	sqlite3 *db = raw_db(path);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void test_round_trip(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, cell;

	db_path(path, sizeof(path), "rt.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "demo", .config_text = "name: demo\n", .iterations = 2};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "running", "local", "6.18", "quiet", &variant,
					   err, sizeof(err)),
			 0);
	assert_int_equal(store_cell_add(s, run, 0, "cyclictest.slice_us=100", &cell, err,
					sizeof(err)),
			 0);
	for (int it = 1; it <= 2; it++) {
		struct sample_vec v = {0};
		sample_vec_add(&v, "max_latency", "us", BETTER_LOWER, "0", 100.0 * it);
		sample_vec_add(&v, "avg_latency", "us", BETTER_LOWER, "0", NAN);
		struct stored_instance in = {
			.name = "cyclictest", .tool = "cyclictest", .role = "measured",
			.argv = "cyclictest -q", .state = "ok", .exited = true,
			.out = "T: 0 ...\n", .out_len = 9, .samples = &v,
		};
		assert_int_equal(store_iteration_save(s, variant, cell, it, "complete", "a", "b", &in,
						      1, err, sizeof(err)),
				 0);
		sample_vec_free(&v);
	}
	assert_int_equal(store_run_end(s, run, "complete", err, sizeof(err)), 0);

	int64_t *ids;
	size_t n;
	char *sel[] = {"demo"};
	assert_int_equal(store_select_runs(s, sel, 1, &ids, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], run);
	struct sample_table t;
	sample_table_init(&t);
	assert_int_equal(store_load_rows(s, ids, n, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.rows[0].run, "demo");
	assert_string_equal(t.rows[0].cell, "cyclictest.slice_us=100");
	assert_string_equal(t.rows[0].metric, "max_latency");
	assert_int_equal(t.rows[2].iteration, 2);
	assert_true(t.rows[2].value == 200.0);
	assert_true(isnan(t.rows[3].value));
	assert_int_equal(t.rows[0].better, BETTER_LOWER);

	/* Import the rows as a second run; both load back in order. */
	int64_t run2;
	assert_int_equal(store_import_rows(s, &t, "copy", &run2, err, sizeof(err)), 0);
	int64_t both[] = {run, run2};
	struct sample_table t2;
	sample_table_init(&t2);
	assert_int_equal(store_load_rows(s, both, 2, &t2, err, sizeof(err)), 0);
	assert_int_equal(t2.n, 8);
	assert_string_equal(t2.rows[4].run, "copy");
	assert_true(t2.rows[6].value == 200.0);
	sample_table_free(&t2);
	sample_table_free(&t);
	free(ids);

	/* One run named twice (by id and by name) is selected once. */
	char *twice[] = {"1", "demo", "1"};
	assert_int_equal(store_select_runs(s, twice, 3, &ids, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], run);
	free(ids);

	char *missing[] = {"nosuch"};
	assert_int_equal(store_select_runs(s, missing, 1, &ids, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "no run 'nosuch' in the results database");
	store_close(s);
}

/* A sample's flag (the tool's warning) is stored with it; the notes count
 * the flagged samples of complete iterations only, per load and warning. */
static void test_sample_flags(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, cell;
	static const char warn[] = "netperf: Desired confidence was not achieved";

	db_path(path, sizeof(path), "flags.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "nf", .config_text = "name: nf\n", .iterations = 3};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "v1", "local", "6.1", "", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "c1", &cell, err, sizeof(err)), 0);
	for (int it = 1; it <= 3; it++) {
		struct sample_vec v = {0};
		sample_vec_add(&v, "transactions_per_s", "transactions/s", BETTER_HIGHER, "", 1000.0 * it);
		if (it != 2)
			v.v[0].flag = warn;
		struct stored_instance in = {
			.name = "rr", .tool = "netperf-tcp-rr", .role = "measured", .argv = "netperf",
			.state = "ok", .exited = true, .out = "x\n", .out_len = 2, .samples = &v,
		};
		assert_int_equal(store_iteration_save(s, variant, cell, it, it == 3 ? "failed" : "complete",
						      "a", "b", &in, 1, err, sizeof(err)), 0);
		sample_vec_free(&v);
	}
	char **msgs;
	size_t n;
	assert_int_equal(store_flag_notes(s, run, &msgs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(msgs[0], "variant v1 cell c1 load rr: 1 of 2 sample(s): netperf: Desired"
			    " confidence was not achieved");
	free(msgs[0]);
	free(msgs);
	/* The flag is on its sample: the row of iteration 1, seq 0. */
	sqlite3_stmt *st;
	sqlite3 *raw = raw_db(path);
	assert_int_equal(sqlite3_prepare_v2(raw,
		"SELECT i.iteration, f.seq, f.flag FROM sample_flag f JOIN load_instance li"
		" ON li.id = f.load_instance_id JOIN iteration i ON i.id = li.iteration_id"
		" ORDER BY i.iteration", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	assert_int_equal(sqlite3_column_int(st, 1), 0);
	assert_string_equal((const char *)sqlite3_column_text(st, 2), warn);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 3);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(raw);
	store_close(s);
}

/* Histograms are stored with their samples and read back keyed like sample
 * rows; counts are little-endian u64 in the blob; an incomplete iteration
 * (run --resume) is replaced together with its histograms. */
static void test_histogram_round_trip(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, cell;
	const uint64_t c0[4] = {0, 3, 88, 0x0102030405060708ULL};
	const uint64_t c1[3] = {7, 0, 1};

	db_path(path, sizeof(path), "hist.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "hist", .config_text = "name: hist\n", .iterations = 2};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "base", "local", "6.18", "", &variant, err,
					   sizeof(err)),
			 0);
	assert_int_equal(store_cell_add(s, run, 0, "", &cell, err, sizeof(err)), 0);
	/* Iteration 1 first interrupted, then stored again complete. */
	const char *status[] = {"interrupted", "complete", "complete"};
	const int iteration[] = {1, 1, 2};
	for (int k = 0; k < 3; k++) {
		struct sample_vec v = {0};
		sample_vec_add(&v, "max_latency", "us", BETTER_LOWER, "0", 856);
		sample_vec_add_hist(&v, "latency", "us", "0", 1.0, c0, 4, 27 + (uint64_t)k, 4.0,
				    856.0);
		struct sample_hist *h1 = sample_vec_add_hist(&v, "latency", "us", "1", 1.0, c1, 3, 0,
							     3.0, NAN);
		/* explicit bounds, the tool's Min and exact sums (schema 7) */
		static const double bounds[] = {0.25, 1.5, 1e9};
		sample_hist_set_bounds(h1, bounds);
		h1->min_observed = 0.125;
		h1->sum = 12.5;
		h1->sum_sq = 1e-300;
		struct stored_instance in = {
			.name = "ct", .tool = "cyclictest", .role = "measured", .argv = "cyclictest",
			.state = "ok", .exited = true, .out = "x\n", .out_len = 2, .samples = &v,
		};
		assert_int_equal(store_iteration_save(s, variant, cell, iteration[k], status[k], "a",
						      "b", &in, 1, err, sizeof(err)),
				 0);
		sample_vec_free(&v);
		assert_null(v.hists);
		assert_int_equal(v.n_hists, 0);
	}
	sqlite3_stmt *st;
	sqlite3 *raw = raw_db(path);
	assert_int_equal(sqlite3_prepare_v2(raw,
					    "SELECT count(*), hex(substr(min(counts), 25, 8)),"
					    " min(length(counts)) FROM histogram WHERE op = '0'",
					    -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 2); /* the interrupted one is gone */
	assert_string_equal((const char *)sqlite3_column_text(st, 1), "0807060504030201");
	assert_int_equal(sqlite3_column_int(st, 2), 32);
	sqlite3_finalize(st);

	struct hist_table h;
	hist_table_init(&h);
	assert_int_equal(store_load_histograms(s, &run, 1, &h, err, sizeof(err)), 0);
	assert_int_equal(h.n, 4);
	for (size_t i = 0; i < h.n; i++) {
		const struct hist_row *r = &h.rows[i];
		assert_string_equal(r->run, "hist");
		assert_string_equal(r->variant, "base");
		assert_string_equal(r->cell, "");
		assert_string_equal(r->load, "ct");
		assert_string_equal(r->metric, "latency");
		assert_string_equal(r->unit, "us");
		assert_string_equal(r->op, i % 2 ? "1" : "0");
		assert_int_equal(r->iteration, i < 2 ? 1 : 2);
		assert_true(r->bucket_width == 1.0);
	}
	assert_int_equal(h.rows[0].n_buckets, 4);
	assert_memory_equal(h.rows[0].counts, c0, sizeof(c0));
	assert_int_equal(h.rows[0].overflow, 28); /* the complete iteration 1 */
	assert_true(h.rows[0].limit == 4.0);
	assert_true(h.rows[0].max_observed == 856.0);
	assert_int_equal(h.rows[1].n_buckets, 3);
	assert_memory_equal(h.rows[1].counts, c1, sizeof(c1));
	assert_true(isnan(h.rows[1].max_observed));
	assert_null(h.rows[0].bounds);
	assert_true(isnan(h.rows[0].min_observed) && isnan(h.rows[0].sum));
	assert_non_null(h.rows[1].bounds);
	assert_true(h.rows[1].bounds[0] == 0.25 && h.rows[1].bounds[1] == 1.5 &&
		    h.rows[1].bounds[2] == 1e9);
	assert_true(h.rows[1].min_observed == 0.125 && h.rows[1].sum == 12.5 &&
		    h.rows[1].sum_sq == 1e-300);
	assert_int_equal(h.rows[2].overflow, 29);
	hist_table_free(&h);
	/* bounds out of order (a database is not trusted): refused */
	assert_int_equal(sqlite3_exec(raw, "UPDATE histogram SET bounds ="
				      " x'000000000000F03F0000000000000000000000000000F03F' WHERE op = '1'",
				      NULL, NULL, NULL), SQLITE_OK);
	hist_table_init(&h);
	assert_int_equal(store_load_histograms(s, &run, 1, &h, err, sizeof(err)), -1);
	assert_string_equal(err, "histogram of hist has bucket bounds that are not 3 ascending numbers");
	hist_table_free(&h);
	sqlite3_close(raw);
	store_close(s);
}

/* reparse's comparison sees a change that is only in a histogram (a bucket,
 * the sum, the bounds), and storing the new outcome replaces it. */
static void test_reparse_hist_same(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, cell;
	uint64_t c[3] = {7, 0, 1};
	static const double bounds[] = {0.25, 1.5, 1e9};

	db_path(path, sizeof(path), "rphist.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "rphist", .config_text = "name: rphist\n", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "base", "local", "6.18", "", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "", &cell, err, sizeof(err)), 0);
	struct sample_vec v = {0};
	sample_vec_add(&v, "latency", "us", BETTER_LOWER, "max", 2);
	struct sample_hist *h = sample_vec_add_hist(&v, "latency", "us", "", 0, c, 3, 0, 1e9, 2);
	sample_hist_set_bounds(h, bounds);
	h->min_observed = 0.125;
	h->sum = 3.5;
	h->sum_sq = 5;
	struct stored_instance in = {
		.name = "rr", .tool = "tcp-rr", .role = "measured", .argv = "tcp-rr",
		.state = "ok", .exited = true, .out = "x\n", .out_len = 2, .samples = &v,
	};
	assert_int_equal(store_iteration_save(s, variant, cell, 1, "complete", "a", "b", &in, 1,
					      err, sizeof(err)), 0);
	sqlite3 *raw = raw_db(path);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT id FROM load_instance", -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	bool same;
	size_t n;
	assert_int_equal(store_samples_same(s, id, &v, &same, &n, err, sizeof(err)), 0);
	assert_true(same);
	assert_int_equal(n, 1);
	v.hists[0].counts[1] = 1; /* one bucket */
	assert_int_equal(store_samples_same(s, id, &v, &same, &n, err, sizeof(err)), 0);
	assert_false(same);
	v.hists[0].counts[1] = 0;
	v.hists[0].sum = 999999999; /* the sum */
	assert_int_equal(store_samples_same(s, id, &v, &same, &n, err, sizeof(err)), 0);
	assert_false(same);
	v.hists[0].sum = 3.5;
	v.hists[0].bounds[1] = 1.75; /* a bound */
	assert_int_equal(store_samples_same(s, id, &v, &same, &n, err, sizeof(err)), 0);
	assert_false(same);
	/* Stored again: the new histogram replaces the old one. */
	assert_int_equal(store_instance_outcome(s, id, "ok", NULL, &v, err, sizeof(err)), 0);
	assert_int_equal(store_samples_same(s, id, &v, &same, &n, err, sizeof(err)), 0);
	assert_true(same);
	struct hist_table t;
	hist_table_init(&t);
	assert_int_equal(store_load_histograms(s, &run, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 1);
	assert_true(t.rows[0].bounds[1] == 1.75);
	hist_table_free(&t);
	sample_vec_free(&v);
	sqlite3_close(raw);
	store_close(s);
}

static void test_missing_and_foreign(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;

	db_path(path, sizeof(path), "absent.db");
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no such results database"));

	/* Read-only open of an existing database never creates tables. */
	db_path(path, sizeof(path), "empty.db");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a schedrig results database"));
}

static void test_schema_version(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "future.db");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(db);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schema version 99 is newer"));
}

/* A database at path made by running the SQL of tests/fixtures/NAME; left
 * open in *db. */
static void db_from_fixture(const char *name, const char *path, sqlite3 **db)
{
	char fixture[512];
	const char *fixtures = getenv("FIXTURES");
	snprintf(fixture, sizeof(fixture), "%s/%s", fixtures ? fixtures : "tests/fixtures", name);
	FILE *f = fopen(fixture, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	char *text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	assert_int_equal(sqlite3_open(path, db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(*db, text, NULL, NULL, NULL), SQLITE_OK);
	free(text);
}

/* A schema version 4 database (sample rows with their names) is migrated
 * by the first open, also a read-only one: the samples come back the same,
 * through sample_key and sample_value and through the view "sample", the
 * run table has the columns of version 6, the histogram table those of
 * version 7 (an old histogram reads as evenly spaced buckets) and the
 * sample_flag table of version 8 exists. */
static void test_migrate_v4(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "v4.db");
	db_from_fixture("schema-v4.sql", path, &db);
	assert_int_equal(sqlite3_exec(db,
		"PRAGMA user_version = 4;"
		"INSERT INTO run (id, name, status, started_at) VALUES (1, 'old', 'complete', 'x');"
		"INSERT INTO variant (id, run_id, seq, name, boot) VALUES (1, 1, 0, 'v', 'local');"
		"INSERT INTO cell (id, run_id, seq, name) VALUES (1, 1, 0, 'c');"
		"INSERT INTO iteration (id, variant_id, cell_id, iteration, status)"
		" VALUES (1, 1, 1, 1, 'complete');"
		"INSERT INTO load_instance (id, iteration_id, seq, name, tool, role, state)"
		" VALUES (1, 1, 0, 'hackbench', 'hackbench', 'measured', 'ok');"
		"INSERT INTO sample VALUES (1, 0, 'time', 's', 'lower', 'groups-4', 1.5);"
		"INSERT INTO sample VALUES (1, 1, 'time', 's', 'lower', 'groups-8', NULL);"
		"INSERT INTO sample VALUES (1, 2, 'time', 's', 'lower', 'groups-4', 2.5);"
		"INSERT INTO histogram (load_instance_id, seq, metric, unit, op, bucket_width,"
		" n_buckets, limit_value, overflow, max_observed, counts)"
		" VALUES (1, 0, 'latency', 'us', '0', 1, 2, 2, 0, 1, x'03000000000000000100000000000000');",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	int64_t ids[] = {1};
	struct sample_table t;
	sample_table_init(&t);
	assert_int_equal(store_load_rows(s, ids, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.rows[1].op, "groups-8");
	assert_true(isnan(t.rows[1].value));
	assert_true(t.rows[2].value == 2.5);
	assert_ptr_equal(t.rows[0].op, t.rows[2].op);
	sample_table_free(&t);
	/* a version 4 histogram: evenly spaced, Min and sums unknown */
	struct hist_table h;
	hist_table_init(&h);
	assert_int_equal(store_load_histograms(s, ids, 1, &h, err, sizeof(err)), 0);
	assert_int_equal(h.n, 1);
	assert_null(h.rows[0].bounds);
	assert_true(h.rows[0].counts[0] == 3 && h.rows[0].counts[1] == 1);
	assert_true(isnan(h.rows[0].min_observed) && isnan(h.rows[0].sum) && isnan(h.rows[0].sum_sq));
	hist_table_free(&h);
	store_close(s);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT (SELECT count(*) FROM sample_key) || ' ' || (SELECT count(*) FROM"
		" pragma_table_info('run')"
		" WHERE name IN ('rig_pid', 'boot_id', 'rig_start_ticks')) || ' ' ||"
		" (SELECT count(*) FROM pragma_table_info('histogram') WHERE name IN ('bounds',"
		" 'min_observed', 'sum_value', 'sum_sq_value')) || ' ' ||"
		" (SELECT count(*) FROM sqlite_master WHERE name = 'sample_flag') || ' ' ||"
		" (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
		" ('bisection', 'bisect_point', 'bisect_run')) || ' ' ||"
		" group_concat(op || '=' || ifnull(value, 'null'), ',')"
		" FROM (SELECT * FROM sample ORDER BY seq)", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0),
			    "2 3 4 1 3 groups-4=1.5,groups-8=null,groups-4=2.5");
	sqlite3_finalize(st);
	sqlite3_close(db);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
}

/* The database tests/fixtures/FIXTURE (schedrig's own code made it at
 * schema from_version), made again as DB and opened: the first open, a
 * read-only one, migrates it to STORE_SCHEMA_VERSION, whose sample_flag
 * table (of version 8) then takes a flagged sample beside the old run. The old run's samples and
 * histograms (run id 1) are loaded into t and h (initialized here). */
static void check_migrated(const char *fixture, const char *name, int from_version,
			   struct sample_table *t, struct hist_table *h)
{
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), name);
	db_from_fixture(fixture, path, &db);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), from_version);
	sqlite3_finalize(st);
	sqlite3_close(db);

	/* The first open is read-only: it migrates all the same. */
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'sample_flag') || ' ' ||"
		" (SELECT count(*) FROM pragma_table_info('histogram') WHERE name IN ('bounds',"
		" 'min_observed', 'sum_value', 'sum_sq_value'))", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "1 4");
	sqlite3_finalize(st);
	sqlite3_close(db);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);

	/* A flagged sample goes into the migrated database beside the old run. */
	int64_t run, variant, cell;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "after", .config_text = "name: after\n", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "v", "local", "6.1", "", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "c", &cell, err, sizeof(err)), 0);
	struct sample_vec v = {0};
	sample_vec_add(&v, "transactions_per_s", "transactions/s", BETTER_HIGHER, "", 10.0);
	v.v[0].flag = "netperf: Desired confidence was not achieved";
	struct stored_instance in = {
		.name = "rr", .tool = "netperf-tcp-rr", .role = "measured", .argv = "netperf",
		.state = "ok", .exited = true, .out = "x\n", .out_len = 2, .samples = &v,
	};
	assert_int_equal(store_iteration_save(s, variant, cell, 1, "complete", "a", "b", &in, 1,
					      err, sizeof(err)), 0);
	sample_vec_free(&v);
	char **msgs;
	size_t n;
	assert_int_equal(store_flag_notes(s, run, &msgs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(msgs[0], "variant v cell c load rr: 1 of 1 sample(s): netperf: Desired"
			    " confidence was not achieved");
	free(msgs[0]);
	free(msgs);
	store_close(s);

	int64_t ids[] = {1};
	sample_table_init(t);
	hist_table_init(h);
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	assert_int_equal(store_load_rows(s, ids, 1, t, err, sizeof(err)), 0);
	assert_int_equal(store_load_histograms(s, ids, 1, h, err, sizeof(err)), 0);
	store_close(s);
}

/* Schema version 6 as schedrig made it (tests/fixtures/db-v6.sql: a
 * cyclictest run with histogram_us 50): its samples and its histogram,
 * evenly spaced buckets with no Min or sums, read back as they were
 * stored. The expected values are those of the fixture's rows, read with
 * sqlite3. */
static void test_migrate_v6(void **state)
{
	(void)state;
	struct sample_table t;
	struct hist_table h;

	check_migrated("db-v6.sql", "v6.db", 6, &t, &h);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.rows[0].tool, "cyclictest");
	assert_string_equal(t.rows[0].metric, "min_latency");
	assert_true(t.rows[0].value == 31.0);
	assert_string_equal(t.rows[2].metric, "max_latency");
	assert_true(t.rows[2].value == 9009.0);
	assert_string_equal(t.rows[3].metric, "overflows");
	assert_true(t.rows[3].value == 841.0);
	sample_table_free(&t);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.rows[0].n_buckets, 50);
	assert_null(h.rows[0].bounds);
	assert_true(h.rows[0].bucket_width == 1.0);
	assert_true(h.rows[0].counts[31] == 1 && h.rows[0].counts[43] == 1);
	assert_true(h.rows[0].overflow == 841);
	assert_true(isnan(h.rows[0].min_observed) && isnan(h.rows[0].sum));
	hist_table_free(&h);
}

/* Schema version 7 as schedrig made it (tests/fixtures/
 * db-v7.sql: a wakeup-lat run): its samples and histograms (explicit
 * bounds, the tool's Min, exact sums) read back as they were stored. The
 * expected values are those of the fixture's rows, read with sqlite3. */
static void test_migrate_v7(void **state)
{
	(void)state;
	struct sample_table t;
	struct hist_table h;

	check_migrated("db-v7.sql", "v7.db", 7, &t, &h);
	assert_int_equal(t.n, 15);
	assert_string_equal(t.rows[3].tool, "wakeup-lat");
	assert_string_equal(t.rows[3].metric, "wakeup_latency");
	assert_string_equal(t.rows[3].op, "p99");
	assert_true(t.rows[3].value == 50.303);
	assert_string_equal(t.rows[14].metric, "requests_per_s");
	assert_true(t.rows[14].value == 577.9);
	sample_table_free(&t);
	assert_int_equal(h.n, 2);
	assert_string_equal(h.rows[0].metric, "wakeup_latency");
	assert_int_equal(h.rows[0].n_buckets, 202);
	assert_non_null(h.rows[0].bounds);
	assert_true(h.rows[0].bounds[0] == 2.879 && h.rows[0].bounds[1] == 3.055);
	assert_true(h.rows[0].min_observed == 2.865);
	assert_true(h.rows[0].sum == 24849.891);
	assert_true(h.rows[0].max_observed == 18009.407);
	assert_int_equal(h.rows[1].n_buckets, 83);
	assert_true(h.rows[1].min_observed == 104.99);
	hist_table_free(&h);
}

/* Schema version 8 as schedrig made it (tests/fixtures/db-v8.sql: an
 * adaptive run interrupted after cell fk.spread_pct=0 (id 1) of variant
 * running had stopped, with its stop note, event 3, and before
 * fk.spread_pct=80 (id 2) had), plus two notes of kind "iterations" that
 * stop no cell of the run: the whole-plan note of a qemu variant and one
 * naming a variant the run lacks. The first open migrates it past version 9:
 * the stopped cell has a cell_stop row naming event 3, the other cells
 * none, and every note reads as before. */
static void test_migrate_v8_stops(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;
	bool stopped;

	db_path(path, sizeof(path), "v8.db");
	db_from_fixture("db-v8.sql", path, &db);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO event (run_id, at, kind, message) VALUES (1, 'x', 'iterations',"
		" 'variant running: boot: qemu runs every cell to max (8 iterations);"
		" adaptive stopping applies to boot: local variants'),"
		" (1, 'x', 'iterations', 'variant gone cell fk.spread_pct=80: 3 iteration(s), max"
		" reached, CI 9.0 %')", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	assert_int_equal(store_cell_stopped(s, 1, "running", 1, &stopped, err, sizeof(err)), 0);
	assert_true(stopped);
	assert_int_equal(store_cell_stopped(s, 1, "running", 2, &stopped, err, sizeof(err)), 0);
	assert_false(stopped);
	char **msgs;
	size_t n;
	assert_int_equal(store_events(s, 1, "iterations", &msgs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(msgs[0], "variant running cell fk.spread_pct=0: 2 iteration(s), CI 0.0 %"
			    " <= 5 %");
	for (size_t i = 0; i < n; i++)
		free(msgs[i]);
	free(msgs);
	store_close(s);

	sqlite3 *raw = raw_db(path);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw,
		"SELECT group_concat(variant_id || ',' || cell_id || ',' || event_id, ' ')"
		" FROM cell_stop", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "1,1,3");
	sqlite3_finalize(st);
	sqlite3_close(raw);
}

/* Schema version 9 as schedrig made it (tests/fixtures/db-v9.sql: two
 * cells stopped, cell_stop rows (1,1,3) and (1,2,4)). The first open, a
 * read-only one, migrates it to STORE_SCHEMA_VERSION: its cell_stop rows are the
 * same two (the stop notes are not read again), and the kernel_build table
 * (of version 10) takes a build of the old run that reads back field for
 * field. */
static void test_migrate_v9_kernel_build(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;
	bool stopped;

	db_path(path, sizeof(path), "v9.db");
	db_from_fixture("db-v9.sql", path, &db);
	sqlite3_close(db);
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	assert_int_equal(store_cell_stopped(s, 1, "running", 2, &stopped, err, sizeof(err)), 0);
	assert_true(stopped);
	store_close(s);

	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct stored_kernel_build kb = {
		.variant = "running", .kernel = "v6.12", .build_key = "ab12", .status = "built",
		.provenance = "kernel v6.12\nsource linux-source-6.12 debian 6.12.117\n",
		.message = NULL, .log_path = "runs/1/build-v6.12.log"};
	assert_int_equal(store_kernel_build(s, 1, &kb, err, sizeof(err)), 0);
	struct stored_kernel_build *rows;
	size_t n;
	assert_int_equal(store_kernel_builds(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].variant, "running");
	assert_string_equal(rows[0].kernel, "v6.12");
	assert_string_equal(rows[0].build_key, "ab12");
	assert_string_equal(rows[0].status, "built");
	assert_string_equal(rows[0].provenance, kb.provenance);
	assert_string_equal(rows[0].message, "");
	assert_string_equal(rows[0].log_path, "runs/1/build-v6.12.log");
	stored_kernel_builds_free(rows, n);
	store_close(s);

	sqlite3 *raw = raw_db(path);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw,
		"SELECT group_concat(variant_id || ',' || cell_id || ',' || event_id, ' ') FROM"
		" (SELECT * FROM cell_stop ORDER BY cell_id)", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "1,1,3 1,2,4");
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
	sqlite3_finalize(st);
	sqlite3_close(raw);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
}

/* Schema version 11 made the bisection table without cwd and the walker's
 * columns (version 12): a version 11 database (the v9 fixture with the
 * version 11 bisection table and a row, as schedrig 11 wrote it) opened
 * for writing gets them; its bisection reads back with no directory and
 * no walker, and a claim names the walker. */
static void test_migrate_v11_bisection(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "v11.db");
	db_from_fixture("db-v9.sql", path, &db);
	assert_int_equal(sqlite3_exec(db,
		"CREATE TABLE bisection (id INTEGER PRIMARY KEY, config_path TEXT NOT NULL,"
		" config_text TEXT NOT NULL, good TEXT NOT NULL, bad TEXT NOT NULL,"
		" kind TEXT NOT NULL, load TEXT, metric TEXT, op TEXT, cell TEXT,"
		" alpha REAL NOT NULL, status TEXT NOT NULL, result TEXT,"
		" started_at TEXT NOT NULL, ended_at TEXT);"
		"INSERT INTO bisection (config_path, config_text, good, bad, kind, alpha, status,"
		" started_at) VALUES ('w.yaml', 'name: w', 'p0', 'p8', 'variants', 0.05,"
		" 'interrupted', '2026-01-01T00:00:00Z');"
		"PRAGMA user_version = 11;", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct stored_bisection bi;
	assert_int_equal(store_bisect_get(s, 1, &bi, NULL, err, sizeof(err)), 0);
	assert_string_equal(bi.status, "interrupted");
	assert_null(bi.cwd);
	assert_null(bi.host);
	assert_int_equal(bi.rig_pid, 0);
	store_bisection_free(&bi);
	struct rig_id rig = {4242, 777, "boot-1"};
	assert_int_equal(store_bisect_claim(s, 1, "hostA", &rig, err, sizeof(err)), 0);
	assert_int_equal(store_bisect_get(s, 0, &bi, NULL, err, sizeof(err)), 0);
	assert_string_equal(bi.status, "running");
	assert_string_equal(bi.host, "hostA");
	assert_string_equal(bi.boot_id, "boot-1");
	assert_int_equal(bi.rig_pid, 4242);
	assert_int_equal(bi.rig_start_ticks, 777);
	store_bisection_free(&bi);
	store_close(s);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
}

/* Schema version 13 added kernel_revision: the version 12 database main's
 * schedrig made (tests/fixtures/db-v12.sql) migrates to
 * STORE_SCHEMA_VERSION; its run has no revision, a revision recorded for
 * its variant reads back as written (a label without commit or source, a
 * git revision with both), recording one again replaces it, and a kind
 * the table does not know is refused by its CHECK. */
static void test_migrate_v12_revisions(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;
	struct stored_revision *rows;
	size_t n;

	db_path(path, sizeof(path), "v12.db");
	db_from_fixture("db-v12.sql", path, &db);
	sqlite3_close(db);
	assert_int_equal(db_user_version(path), 12);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
	assert_int_equal(store_revision_list(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	struct stored_revision label = {.variant = "running", .kind = REVISION_LABEL,
					.revision = "r01"};
	assert_int_equal(store_revision_record(s, 1, &label, err, sizeof(err)), 0);
	assert_int_equal(store_revision_list(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].variant, "running");
	assert_int_equal(rows[0].kind, REVISION_LABEL);
	assert_string_equal(rows[0].revision, "r01");
	assert_null(rows[0].commit_hash);
	assert_null(rows[0].source);
	store_revision_rows_free(rows, n);
	struct stored_revision git = {.variant = "running", .kind = REVISION_GIT,
				      .revision = "v1-2-gabc", .source = "/src/linux",
				      .commit_hash = "0123456789abcdef0123456789abcdef01234567"};
	assert_int_equal(store_revision_record(s, 1, &git, err, sizeof(err)), 0);
	assert_int_equal(store_revision_list(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].kind, REVISION_GIT);
	assert_string_equal(rows[0].revision, "v1-2-gabc");
	assert_string_equal(rows[0].commit_hash, git.commit_hash);
	assert_string_equal(rows[0].source, "/src/linux");
	store_revision_rows_free(rows, n);
	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO kernel_revision (run_id, variant, kind,"
					  " revision) VALUES (1, 'x', 'tag', 't')", NULL, NULL, NULL),
			     SQLITE_OK);
	sqlite3_close(db);
}

/* Schema version 13 added the bisection's rule and minimum effect, its
 * points' look and alpha, its runs' phase and the bisect_check table: a
 * version 12 database (tests/fixtures/db-v12.sql, as main's schedrig made
 * it, with a bisection, a point and a run written the way version 12
 * wrote them) opened for writing gets them; the old bisection reads back
 * with no rule (a rule before 13) and no minimum effect, its run as a walk
 * run, its point with no look; the new columns and the check table then
 * take values that read back field for field. */
static void test_migrate_v12_bisection(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "v12-bisection.db");
	db_from_fixture("db-v12.sql", path, &db);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO bisection (config_path, config_text, good, bad, kind, alpha, status,"
		" started_at) VALUES ('w.yaml', 'name: w', 'p0', 'p8', 'variants', 0.05,"
		" 'interrupted', '2026-01-01T00:00:00Z');"
		"INSERT INTO bisect_point (bisection_id, k, name, label, config_text, verdict, n,"
		" mean) VALUES (1, 0, 'p0', 'p0', 'name: p0', 'good', 3, 99.5);"
		"INSERT INTO bisect_run (bisection_id, k, attempt, config_path, run_id) VALUES"
		" (1, 0, 1, '/r/bisect/1/0-a1.yaml', 1);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(db_user_version(path), 12);

	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct stored_bisection bi;
	assert_int_equal(store_bisect_get(s, 1, &bi, NULL, err, sizeof(err)), 0);
	assert_null(bi.rule);
	assert_true(isnan(bi.min_effect_pct));
	store_bisection_free(&bi);
	struct stored_bisect_run *runs;
	size_t n;
	assert_int_equal(store_bisect_runs(s, 1, 0, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(runs[0].phase, "walk");
	store_bisect_run_rows_free(runs, n);
	struct stored_bisect_point *pts;
	assert_int_equal(store_bisect_points(s, 1, &pts, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pts[0].look, 0);
	assert_true(isnan(pts[0].alpha));
	store_bisect_point_rows_free(pts, n);

	/* The new columns and table take values. */
	assert_int_equal(store_bisect_min_effect(s, 1, 2.5, err, sizeof(err)), 0);
	assert_int_equal(store_bisect_run_add(s, 1, 0, 2, "confirm", "/r/bisect/1/0-a2.yaml", err,
					      sizeof(err)), 0);
	struct stored_bisect_point r = {.k = 0, .verdict = "good", .n = 5, .mean = 99.5,
					.ci95_half = NAN, .p_good = NAN, .p_bad = 0.001,
					.t_good = NAN, .t_bad = 7.5, .look = 2, .alpha = 0.0037};
	assert_int_equal(store_bisect_verdict(s, 1, &r, err, sizeof(err)), 0);
	struct stored_bisect_check c = {.what = "confirm", .k_a = 4, .k_b = 5, .n_a = 5, .n_b = 6,
					.mean_a = 100, .mean_b = 120, .effect_pct = 20, .p = 1e-6,
					.statistic = -9.5, .alpha = 0.0039, .rounds = 6,
					.outcome = "step"};
	assert_int_equal(store_bisect_check_add(s, 1, &c, err, sizeof(err)), 0);
	c.what = "good end";
	c.outcome = "held";
	assert_int_equal(store_bisect_check_add(s, 1, &c, err, sizeof(err)), 0);
	assert_int_equal(store_bisect_check_add(s, 1, &c, err, sizeof(err)), -1);

	assert_int_equal(store_bisect_get(s, 1, &bi, NULL, err, sizeof(err)), 0);
	assert_true(bi.min_effect_pct == 2.5);
	store_bisection_free(&bi);
	assert_int_equal(store_bisect_runs(s, 1, 0, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[1].phase, "confirm");
	store_bisect_run_rows_free(runs, n);
	assert_int_equal(store_bisect_points(s, 1, &pts, &n, err, sizeof(err)), 0);
	assert_int_equal(pts[0].look, 2);
	assert_true(pts[0].alpha == 0.0037);
	assert_true(pts[0].t_bad == 7.5);
	store_bisect_point_rows_free(pts, n);
	struct stored_bisect_check *cs;
	assert_int_equal(store_bisect_checks(s, 1, &cs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(cs[0].seq, 1);
	assert_string_equal(cs[0].what, "confirm");
	assert_string_equal(cs[0].outcome, "step");
	assert_int_equal(cs[0].k_a, 4);
	assert_int_equal(cs[0].k_b, 5);
	assert_int_equal(cs[0].n_b, 6);
	assert_true(cs[0].mean_b == 120 && cs[0].effect_pct == 20 && cs[0].p == 1e-6);
	assert_true(cs[0].statistic == -9.5 && cs[0].alpha == 0.0039 && cs[0].rounds == 6);
	assert_int_equal(cs[1].seq, 2);
	assert_string_equal(cs[1].what, "good end");
	store_bisect_check_rows_free(cs, n);
	store_close(s);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
}

/* Schema version 12 as main's schedrig made it (tests/fixtures/db-v12.sql,
 * three fake iterations): migrated to 13, its samples read as they were
 * stored (the fixture's values: the first is 98.87...), and beside it a new
 * run's iteration with window samples and a trace row, in the iteration's
 * transaction: the window samples come after the parser's, in their
 * order, and the trace row back as written. A trace row the rig cannot
 * have written is refused. */
static void test_migrate_v12_traces(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "v12-traces.db");
	db_from_fixture("db-v12.sql", path, &db);
	sqlite3_close(db);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
	int64_t old[] = {1};
	struct sample_table t;
	sample_table_init(&t);
	assert_int_equal(store_load_rows(s, old, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 3);
	sample_table_free(&t);

	int64_t run, variant, cell;
	struct run_info ri = {.name = "traced", .config_text = "name: traced\n", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "v", "local", "6.1", "", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "c", &cell, err, sizeof(err)), 0);
	struct sample_vec v = {0}, w = {0};
	sample_vec_add(&v, "time", "s", BETTER_LOWER, "1", 2.5);
	sample_vec_add(&w, "sched_wait_ms", "ms", BETTER_LOWER, "", 12.25);
	sample_vec_add(&w, "cgroup_cpu_ms", "ms", BETTER_LOWER, "", NAN);
	struct stored_instance in = {
		.name = "hb", .tool = "hackbench", .role = "measured", .argv = "hackbench",
		.state = "ok", .exited = true, .out = "Time: 2.5\n", .out_len = 10, .samples = &v,
		.window = &w,
	};
	struct stored_trace_row tr = {.path = "runs/2/traces/v-c1-it1.trace.gz",
				      .events = "sched:sched_switch", .buffer_kb = 64,
				      .window_start_ns = 100, .window_end_ns = 300, .bytes = 4096,
				      .lines = 40, .lost = 7, .warning = "buffer overran"};
	store_iteration_trace(s, &tr);
	assert_int_equal(store_iteration_save(s, variant, cell, 1, "complete", "a", "b", &in, 1,
					      err, sizeof(err)), 0);
	sample_vec_free(&v);
	sample_vec_free(&w);
	sample_table_init(&t);
	assert_int_equal(store_load_rows(s, &run, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.rows[0].metric, "time");
	assert_string_equal(t.rows[1].metric, "sched_wait_ms");
	assert_true(t.rows[1].value == 12.25);
	assert_string_equal(t.rows[2].metric, "cgroup_cpu_ms");
	assert_true(isnan(t.rows[2].value));
	sample_table_free(&t);
	struct stored_trace *rows;
	size_t n;
	assert_int_equal(store_trace_list(s, run, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].variant, "v");
	assert_string_equal(rows[0].cell, "c");
	assert_int_equal(rows[0].iteration, 1);
	assert_string_equal(rows[0].status, "complete");
	assert_string_equal(rows[0].path, "runs/2/traces/v-c1-it1.trace.gz");
	assert_true(rows[0].window_start_ns == 100 && rows[0].window_end_ns == 300);
	assert_true(rows[0].bytes == 4096 && rows[0].lines == 40 && rows[0].lost == 7);
	assert_string_equal(rows[0].warning, "buffer overran");
	store_trace_rows_free(rows, n);
	store_close(s);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE trace SET path = '/etc/passwd'", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	assert_int_equal(store_trace_list(s, run, &rows, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not one the rig writes"));
	store_close(s);
}

/* Schema version 12 as main's schedrig made it (tests/fixtures/
 * db-v12.sql: one complete run of the fake load) migrates to version 13:
 * the old run keeps its variant and has no host state (digest: 1); a
 * fingerprint stored for it reads back in field order, the run's own
 * machine first; its digest is the SHA-256 of its stable fields sorted by
 * name (the expected sums computed with sha256sum over the same lines),
 * so an unstable field (the time it was read) changes nothing and a
 * stable one (THP) changes it; stored again, a fingerprint replaces the
 * old one, and a field named twice is refused with nothing changed. */
static void test_migrate_v12_host_state(void **state)
{
	(void)state;
	char path[256], err[512], digest[65];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "v12-host.db");
	db_from_fixture("db-v12.sql", path, &db);
	sqlite3_close(db);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
	assert_int_equal(store_host_digest(s, 1, digest, err, sizeof(err)), 1);
	assert_string_equal(digest, "");

	const struct stored_host_field run_fp[] = {{"thp.enabled", "madvise", "/sys/x", true}};
	struct stored_host_field fp[] = {
		{"thp.enabled", "never", "/sys/kernel/mm/transparent_hugepage/enabled", true},
		{"fingerprint.read_at", "2026-12-07T07:56:52Z", "clock_gettime", false},
		{"cpufreq.governor", "performance", "/sys/devices/system/cpu/cpufreq", true},
	};
	assert_int_equal(store_host_save(s, 1, 0, run_fp, 1, err, sizeof(err)), 0);
	assert_int_equal(store_host_save(s, 1, 1, fp, 3, err, sizeof(err)), 0);
	assert_int_equal(store_host_digest(s, 1, digest, err, sizeof(err)), 0);
	assert_string_equal(digest, "10b51556ea27059c31f3465708fda8d76c4a48d2034408decf90580a6aeaa60f");

	struct stored_host_row *rows;
	size_t n;
	assert_int_equal(store_host_rows(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(rows[0].variant_id, 0);
	assert_null(rows[0].variant);
	assert_string_equal(rows[1].variant, "running");
	assert_string_equal(rows[1].field, "cpufreq.governor");
	assert_string_equal(rows[2].field, "fingerprint.read_at");
	assert_false(rows[2].stable);
	assert_string_equal(rows[3].source, "/sys/kernel/mm/transparent_hugepage/enabled");
	store_host_rows_free(rows, n);

	fp[1].value = "2027-01-01T00:00:00Z";
	fp[0].value = "madvise";
	assert_int_equal(store_host_save(s, 1, 1, fp, 3, err, sizeof(err)), 0);
	assert_int_equal(store_host_digest(s, 1, digest, err, sizeof(err)), 0);
	assert_string_equal(digest, "348815f2f728afebe9aa98aa3aa96bfe923d3b1d4eb27cd1fd490285bc6e9dff");
	fp[2].field = "thp.enabled";
	assert_int_equal(store_host_save(s, 1, 1, fp, 3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot record the host state"));
	assert_int_equal(store_host_digest(s, 1, digest, err, sizeof(err)), 0);
	assert_string_equal(digest, "348815f2f728afebe9aa98aa3aa96bfe923d3b1d4eb27cd1fd490285bc6e9dff");

	int64_t *ids;
	assert_int_equal(store_host_measured_variants(s, 1, &ids, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 1);
	free(ids);
	store_close(s);
}

/* A stopped cell (adaptive iterations) is a cell_stop row with its note:
 * the note reads back among the run's "iterations" events, only that cell
 * of that variant reads as stopped, and a stop of a variant the run lacks
 * is refused with nothing written, its note neither. */
static void test_cell_stop(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, c1, c2;
	bool stopped;
	char **msgs;
	size_t n;

	db_path(path, sizeof(path), "stop.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "stop", .iterations = 5};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "v", "local", "6.1", "", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 1, "w", "local", "6.1", "", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "x=1", &c1, err, sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 1, "x=2", &c2, err, sizeof(err)), 0);
	assert_int_equal(store_cell_stop(s, run, "w", c2, "variant w cell x=2: 3 iteration(s), CI"
					 " 0.5 % <= 1 %", err, sizeof(err)), 0);
	assert_int_equal(store_cell_stop(s, run, "gone", c1, "variant gone cell x=1: 1 iteration(s)",
					 err, sizeof(err)), -1);
	assert_string_equal(err, "cannot record a stopped cell: run 1 has no variant gone");
	const struct {
		const char *variant;
		int64_t cell;
		bool stopped;
	} want[] = {{"w", c2, true}, {"w", c1, false}, {"v", c2, false}, {"gone", c1, false}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(store_cell_stopped(s, run, want[i].variant, want[i].cell, &stopped,
						    err, sizeof(err)), 0);
		assert_int_equal(stopped, want[i].stopped);
	}
	assert_int_equal(store_events(s, run, "iterations", &msgs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(msgs[0], "variant w cell x=2: 3 iteration(s), CI 0.5 % <= 1 %");
	free(msgs[0]);
	free(msgs);
	store_close(s);
}

/* A writing open never takes over someone else's SQLite file (tables, no
 * schedrig schema version); a file that is not SQLite says so. */
static void test_foreign_database(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "foreign.db");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE foo (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "an SQLite database that is not a schedrig results database"));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT group_concat(name) FROM sqlite_master",
					    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "foo");
	sqlite3_finalize(st);
	sqlite3_close(db);

	db_path(path, sizeof(path), "text.db");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a database, just text that is long enough to be read as a header\n", f);
	fclose(f);
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read it: file is not a database"));
}

/* A sample key added by an iteration whose transaction is rolled back is
 * forgotten with it: the next iteration naming the same key adds it again
 * instead of pointing at a row that is not there. */
static void test_key_after_rollback(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, cell;

	db_path(path, sizeof(path), "rollback.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "rb", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "v", "local", "r", "c", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "c", &cell, err, sizeof(err)), 0);
	struct sample_vec v = {0};
	sample_vec_add(&v, "new_metric", "us", BETTER_LOWER, "0", 7.0);
	struct stored_instance in[2] = {
		{.name = "a", .tool = "fake", .role = "measured", .state = "ok", .samples = &v},
		{.name = "b", .tool = "fake", .role = "measured", .state = "ok"},
	};
	/* Two instances with one seq and repetition: the second breaks the
	 * UNIQUE constraint after the first one's key was added. */
	assert_int_equal(store_iteration_save(s, variant, cell, 1, "complete", "a", "b", in, 2,
					      err, sizeof(err)), -1);
	assert_non_null(strstr(err, "UNIQUE"));
	assert_int_equal(store_iteration_save(s, variant, cell, 1, "complete", "a", "b", in, 1,
					      err, sizeof(err)), 0);
	sample_vec_free(&v);
	struct sample_table t;
	sample_table_init(&t);
	assert_int_equal(store_load_rows(s, &run, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.rows[0].metric, "new_metric");
	assert_true(t.rows[0].value == 7.0);
	sample_table_free(&t);
	store_close(s);
}

/* Rows come back in config order even when iterations were stored out of
 * order (run --resume fills gaps after later cells were stored). */
static void test_rows_in_config_order(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run, variant, cells[2];

	db_path(path, sizeof(path), "order.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "order", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	assert_int_equal(store_variant_add(s, run, 0, "v", "local", "r", "c", &variant, err,
					   sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 0, "a.x=1", &cells[0], err, sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run, 1, "a.x=2", &cells[1], err, sizeof(err)), 0);
	for (int k = 1; k >= 0; k--) { /* cell 2 first */
		struct sample_vec v = {0};
		sample_vec_add(&v, "time", "s", BETTER_LOWER, "1", 10.0 + k);
		sample_vec_add(&v, "time", "s", BETTER_LOWER, "2", 20.0 + k);
		struct stored_instance in = {.name = "a", .tool = "hackbench", .role = "measured",
					     .state = "ok", .samples = &v};
		assert_int_equal(store_iteration_save(s, variant, cells[k], 1, "complete", "a", "b",
						      &in, 1, err, sizeof(err)), 0);
		sample_vec_free(&v);
	}
	struct sample_table t;
	sample_table_init(&t);
	assert_int_equal(store_load_rows(s, &run, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.rows[0].cell, "a.x=1");
	assert_string_equal(t.rows[0].op, "1");
	assert_true(t.rows[1].value == 20.0);
	assert_string_equal(t.rows[2].cell, "a.x=2");
	assert_true(t.rows[3].value == 21.0);
	sample_table_free(&t);
	store_close(s);
}

/* schedrig list's rows: each run with its cells counted, and a NULL
 * iterations column (set here with SQL, as an old import could leave it)
 * read as -1. */
static void test_run_list(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	int64_t run1, run2, cell;
	struct stored_run_row *rows;
	size_t n;

	db_path(path, sizeof(path), "list.db");
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(store_run_list(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	struct run_info a = {.name = "a", .kernel_release = "6.18", .iterations = 3};
	struct run_info b = {.name = "b", .iterations = 2};
	assert_int_equal(store_run_begin(s, &a, &run1, err, sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run1, 0, "x=1", &cell, err, sizeof(err)), 0);
	assert_int_equal(store_cell_add(s, run1, 1, "x=2", &cell, err, sizeof(err)), 0);
	assert_int_equal(store_run_begin(s, &b, &run2, err, sizeof(err)), 0);
	assert_int_equal(store_run_end(s, run2, "complete", err, sizeof(err)), 0);
	sqlite3 *raw = raw_db(path);
	assert_int_equal(sqlite3_exec(raw, "UPDATE run SET iterations = NULL WHERE name = 'b'",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_run_list(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_true(rows[0].id == run1 && rows[1].id == run2);
	assert_string_equal(rows[0].name, "a");
	assert_string_equal(rows[0].kernel_release, "6.18");
	assert_null(rows[1].kernel_release);
	assert_int_equal(rows[0].n_cells, 2);
	assert_int_equal(rows[1].n_cells, 0);
	assert_int_equal(rows[0].iterations, 3);
	assert_int_equal(rows[1].iterations, -1);
	assert_string_equal(rows[0].status, "running");
	assert_string_equal(rows[1].status, "complete");
	store_run_rows_free(rows, n);
	sqlite3_close(raw);
	store_close(s);
}

/* Schema version 14 added a follow's change's outcome and attempts: the
 * version 13 database main's schedrig made (tests/fixtures/db-v13.sql,
 * one run of the fake load) with a follow and a change as version 13
 * wrote them (a verdict in result) migrates: the change reads back with
 * its result, no outcome and 0 attempts, and takes an outcome and
 * attempts after. */
static void test_migrate_v13_track_change(void **state)
{
	(void)state;
	char path[256], err[512];
	struct store *s;
	sqlite3 *db;

	db_path(path, sizeof(path), "v13-track.db");
	db_from_fixture("db-v13.sql", path, &db);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO track_follow (id, config_path, config_text, tree, branch, build, every,"
		" alpha, permutations, seed, min_change_pct, status, started_at, cwd) VALUES (1,"
		" 'f.yaml', 'name: f', '/t', 'master', 'k', 1, 0.01, 199, 1, 0.5, 'done',"
		" '2026-12-07T15:00:00Z', '/');"
		"INSERT INTO track_change (follow_id, before_commit, after_commit, commits,"
		" mean_before, mean_after, change_pct, p, result) VALUES (1, 'aa', 'bb', 1, 100,"
		" 108, 8, 0.005, 'first bad commit bb');", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(db_user_version(path), STORE_SCHEMA_VERSION);
	struct stored_follow_change *rows;
	size_t n;
	assert_int_equal(store_follow_changes(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].result, "first bad commit bb");
	assert_null(rows[0].outcome);
	assert_int_equal(rows[0].attempts, 0);
	store_follow_changes_free(rows, n);
	assert_int_equal(store_follow_change_outcome(s, 1, "bb", "retryable", 2, err, sizeof(err)),
			 0);
	assert_int_equal(store_follow_changes(s, 1, &rows, &n, err, sizeof(err)), 0);
	assert_string_equal(rows[0].outcome, "retryable");
	assert_int_equal(rows[0].attempts, 2);
	store_follow_changes_free(rows, n);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_run_list),
		cmocka_unit_test(test_rows_in_config_order),
		cmocka_unit_test(test_histogram_round_trip),
		cmocka_unit_test(test_reparse_hist_same),
		cmocka_unit_test(test_sample_flags),
		cmocka_unit_test(test_schema_version),
		cmocka_unit_test(test_migrate_v4),
		cmocka_unit_test(test_migrate_v6),
		cmocka_unit_test(test_migrate_v7),
		cmocka_unit_test(test_migrate_v8_stops),
		cmocka_unit_test(test_migrate_v9_kernel_build),
		cmocka_unit_test(test_migrate_v11_bisection),
		cmocka_unit_test(test_migrate_v12_traces),
		cmocka_unit_test(test_migrate_v12_revisions),
		cmocka_unit_test(test_migrate_v12_bisection),
		cmocka_unit_test(test_migrate_v12_host_state),
		cmocka_unit_test(test_migrate_v13_track_change),
		cmocka_unit_test(test_cell_stop),
		cmocka_unit_test(test_key_after_rollback),
		cmocka_unit_test(test_foreign_database),
		cmocka_unit_test(test_missing_and_foreign),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
