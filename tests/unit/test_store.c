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

	char *missing[] = {"nosuch"};
	assert_int_equal(store_select_runs(s, missing, 1, &ids, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "no run 'nosuch' in the results database");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_schema_version),
		cmocka_unit_test(test_missing_and_foreign),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
