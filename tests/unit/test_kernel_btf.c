/* The BTF reader preflight uses to tell, before a kernel boots, whether it
 * has latency_nice (struct sched_attr's sched_latency_nice) and a scheduler
 * feature (enumerator __SCHED_FEAT_NAME): a blob assembled here byte by
 * byte from Documentation/bpf/btf.rst, the running kernel's own BTF, and
 * malformed blobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_btf.h"

static void put32(struct buf *b, uint32_t v)
{
	unsigned char p[4] = {v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24};
	buf_append(b, p, 4);
}

/* A blob: INT "int" (4 extra bytes), STRUCT "sched_attr" {size,
 * sched_latency_nice}, ENUM (anonymous) {__SCHED_FEAT_PLACE_LAG, ...}.
 * String offsets: "" 0, "int" 1, "sched_attr" 5, "size" 16,
 * "sched_latency_nice" 21, "__SCHED_FEAT_PLACE_LAG" 40,
 * "__SCHED_FEAT_RUN_TO_PARITY" 63. */
static void blob(struct buf *b, bool latency_nice)
{
	static const char strs[] = "\0int\0sched_attr\0size\0sched_latency_nice\0"
				   "__SCHED_FEAT_PLACE_LAG\0__SCHED_FEAT_RUN_TO_PARITY";
	struct buf t = {0};
	/* INT int: info kind 1, size 4, then the int encoding (32 bits). */
	put32(&t, 1);
	put32(&t, 1u << 24);
	put32(&t, 4);
	put32(&t, 32);
	/* STRUCT sched_attr, 2 members (12 bytes each). */
	put32(&t, 5);
	put32(&t, 4u << 24 | 2);
	put32(&t, 60);
	put32(&t, 16); /* size */
	put32(&t, 1);
	put32(&t, 0);
	put32(&t, latency_nice ? 21 : 1); /* sched_latency_nice, or "int" */
	put32(&t, 1);
	put32(&t, 448);
	/* ENUM, 2 enumerators (8 bytes each). */
	put32(&t, 0);
	put32(&t, 6u << 24 | 2);
	put32(&t, 4);
	put32(&t, 40);
	put32(&t, 0);
	put32(&t, 63);
	put32(&t, 1);
	/* Header: magic, version 1, flags 0, hdr_len 24, types, strings. */
	unsigned char hdr[4] = {0x9f, 0xeb, 1, 0};
	buf_append(b, hdr, 4);
	put32(b, 24);
	put32(b, 0);
	put32(b, (uint32_t)t.len);
	put32(b, (uint32_t)t.len);
	put32(b, sizeof(strs));
	buf_append(b, t.data, t.len);
	buf_append(b, strs, sizeof(strs));
	buf_free(&t);
}

static void test_hand_made(void **state)
{
	(void)state;
	struct buf with = {0}, without = {0};
	blob(&with, true);
	blob(&without, false);
	assert_int_equal(btf_struct_has_member(with.data, with.len, "sched_attr", "sched_latency_nice"), 1);
	assert_int_equal(btf_struct_has_member(with.data, with.len, "sched_attr", "size"), 1);
	assert_int_equal(btf_struct_has_member(without.data, without.len, "sched_attr",
					       "sched_latency_nice"), 0);
	/* A member name of another struct, or a struct that is not there. */
	assert_int_equal(btf_struct_has_member(with.data, with.len, "task_struct", "size"), 0);
	assert_int_equal(btf_has_enumerator(with.data, with.len, "__SCHED_FEAT_PLACE_LAG"), 1);
	assert_int_equal(btf_has_enumerator(with.data, with.len, "__SCHED_FEAT_RUN_TO_PARITY"), 1);
	assert_int_equal(btf_has_enumerator(with.data, with.len, "__SCHED_FEAT_GENTLE_FAIR_SLEEPERS"), 0);
	/* "PLACE_LAG" alone is a substring, not the enumerator. */
	assert_int_equal(btf_has_enumerator(with.data, with.len, "PLACE_LAG"), 0);
	buf_free(&with);
	buf_free(&without);
}

static void test_malformed(void **state)
{
	(void)state;
	struct buf b = {0};
	blob(&b, true);
	/* Cut inside the types, inside the header, a wrong magic. */
	assert_int_equal(btf_struct_has_member(b.data, b.len - 80, "sched_attr", "size"), -1);
	assert_int_equal(btf_has_enumerator(b.data, 20, "__SCHED_FEAT_PLACE_LAG"), -1);
	b.data[0] = 0;
	assert_int_equal(btf_has_enumerator(b.data, b.len, "__SCHED_FEAT_PLACE_LAG"), -1);
	b.data[0] = (char)0x9f;
	/* A struct claiming more members than the types hold. */
	b.data[24 + 16 + 4] = (char)200;
	assert_int_equal(btf_struct_has_member(b.data, b.len, "sched_attr", "nothing"), -1);
	buf_free(&b);
	assert_int_equal(elf_btf_section("/nonexistent/vmlinux", &b), -1);
	assert_int_equal(elf_btf_section("/proc/self/status", &b), -1); /* not ELF */
	buf_free(&b);
}

/* The running kernel's BTF (mainline: no latency_nice; EEVDF since 6.6:
 * PLACE_LAG, and no GENTLE_FAIR_SLEEPERS, which 6.6 removed). */
static void test_running_kernel(void **state)
{
	(void)state;
	struct buf b = {0};
	char chunk[65536];
	size_t n;
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "rb");
	if (!f) {
		skip();
		return;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	assert_int_equal(btf_struct_has_member(b.data, b.len, "sched_attr", "sched_runtime"), 1);
	assert_int_equal(btf_struct_has_member(b.data, b.len, "sched_attr", "sched_latency_nice"), 0);
	assert_int_equal(btf_has_enumerator(b.data, b.len, "__SCHED_FEAT_PLACE_LAG"), 1);
	assert_int_equal(btf_has_enumerator(b.data, b.len, "__SCHED_FEAT_GENTLE_FAIR_SLEEPERS"), 0);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_running_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
