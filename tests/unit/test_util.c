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
#include <string.h>
#include <sys/stat.h>
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

/* argv_addl: each word in order, the list NULL-terminated. */
static void test_argv_addl(void **state)
{
	(void)state;
	struct argv a = {0};
	argv_add(&a, "qemu");
	argv_addl(&a, "-device", "pvpanic-pci", "-m", "512", NULL);
	assert_int_equal(a.n, 5);
	assert_string_equal(a.v[1], "-device");
	assert_string_equal(a.v[4], "512");
	assert_null(a.v[5]);
	argv_free(&a);
}

/* file_replace: the new text whole, mode 0644, no temporary file left;
 * a link planted at the temporary name is refused, the file kept. */
static void test_file_replace(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_util_replXXXXXX", err[256];
	assert_non_null(mkdtemp(dir));
	char path[300], tmp[320], back[64] = "";
	snprintf(path, sizeof(path), "%s/record", dir);
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	assert_int_equal(file_replace(path, "old\n", 4, err, sizeof(err)), 0);
	assert_int_equal(file_replace(path, "new text\n", 9, err, sizeof(err)), 0);
	file_first_line(path, back, sizeof(back));
	assert_string_equal(back, "new text");
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(access(tmp, F_OK), -1);
	/* unlink(tmp) first removes a stale temporary; a directory there stays. */
	assert_int_equal(mkdir(tmp, 0700), 0);
	assert_int_equal(file_replace(path, "x\n", 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, tmp));
	file_first_line(path, back, sizeof(back));
	assert_string_equal(back, "new text");
	rmdir(tmp);
	unlink(path);
	rmdir(dir);
}

/* strv_free: NULL entries and an empty list are fine (run under SANITIZE=1
 * for the leak check). */
static void test_strv_free(void **state)
{
	(void)state;
	char **v = malloc(3 * sizeof(*v));
	assert_non_null(v);
	v[0] = xstrdup("a");
	v[1] = NULL;
	v[2] = xstrdup("c");
	strv_free(v, 3);
	strv_free(NULL, 0);
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
		cmocka_unit_test(test_argv_addl),
		cmocka_unit_test(test_file_replace),
		cmocka_unit_test(test_strv_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
