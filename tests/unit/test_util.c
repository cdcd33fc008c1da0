/* util.h helpers: FNV-1a 64 against the published test vectors
 * (draft-eastlake-fnv, "FNV-1a 64 bit" values), and argv_render's quoting
 * (POSIX single quotes, as sh reads them back), file_last_line,
 * err_printf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"

static void test_fnv1a_vectors(void **state)
{
	(void)state;
	assert_true(fnv1a_bytes(FNV1A_OFFSET_BASIS, "", 0) == 0xcbf29ce484222325ULL);
	assert_true(fnv1a_bytes(FNV1A_OFFSET_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(fnv1a_bytes(FNV1A_OFFSET_BASIS, "foobar", 6) == 0x85944171f73967e8ULL);
	/* Data hashed in two parts is the whole hashed. */
	assert_true(fnv1a_bytes(fnv1a_bytes(FNV1A_OFFSET_BASIS, "foo", 3), "bar", 3) ==
		    0x85944171f73967e8ULL);
	/* One step is one byte. */
	assert_true(fnv1a_step(FNV1A_OFFSET_BASIS, 'a') == 0xaf63dc4c8601ec8cULL);
}

static void test_argv_render_quotes(void **state)
{
	struct argv a = {0};
	(void)state;
	argv_add(&a, "plain-1.0/x:y=z,+");
	argv_add(&a, "a b");
	argv_add(&a, "it's");
	argv_add(&a, "");
	argv_add(&a, "two\nlines");
	char *r = argv_render(&a);
	assert_string_equal(r, "plain-1.0/x:y=z,+ 'a b' 'it'\\''s' '' 'two\nlines'");
	free(r);
	argv_free(&a);
	r = argv_render(&a);
	assert_string_equal(r, "");
	free(r);
}

/* file_last_line: the last line that is not empty, "\r\n" cut, cut to
 * fit; "" for a file without one and for a file that is not there. */
static void test_file_last_line(void **state)
{
	(void)state;
	char path[] = "/tmp/test_util_lastXXXXXX", dst[8];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("first\r\nsecond line\r\n\n\r\n", f);
	fclose(f);
	file_last_line(path, dst, sizeof(dst));
	assert_string_equal(dst, "second ");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("\n\n", f);
	fclose(f);
	file_last_line(path, dst, sizeof(dst));
	assert_string_equal(dst, "");
	unlink(path);
	file_last_line(path, dst, sizeof(dst));
	assert_string_equal(dst, "");
}

/* err_printf: the message, cut to fit, and -1. */
static void test_err_printf(void **state)
{
	(void)state;
	char err[8];
	assert_int_equal(err_printf(err, sizeof(err), "%s: %d", "ab", 12), -1);
	assert_string_equal(err, "ab: 12");
	assert_int_equal(err_printf(err, sizeof(err), "%s", "abcdefghij"), -1);
	assert_string_equal(err, "abcdefg");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a_vectors),
		cmocka_unit_test(test_argv_render_quotes),
		cmocka_unit_test(test_file_last_line),
		cmocka_unit_test(test_err_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
