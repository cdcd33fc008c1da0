/* util.h helpers: FNV-1a 64 against the published test vectors
 * (draft-eastlake-fnv, "FNV-1a 64 bit" values), and argv_render's quoting
 * (POSIX single quotes, as sh reads them back). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a_vectors),
		cmocka_unit_test(test_argv_render_quotes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
