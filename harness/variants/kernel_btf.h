/* What a kernel image says about itself before it boots, from its BTF
 * (the .BTF section of vmlinux; CONFIG_DEBUG_INFO_BTF, on in Debian's
 * kernels): whether struct sched_attr has the latency-nice series'
 * sched_latency_nice field, whether a scheduler feature (an enumerator
 * __SCHED_FEAT_NAME of kernel/sched/features.h) is built in.
 *
 * Format: Documentation/bpf/btf.rst. A header (magic 0xeB9F, version 1,
 * flags, hdr_len, then type_off, type_len, str_off, str_len relative to the
 * header's end), then the types: each a struct btf_type {name_off; info
 * (vlen bits 0-15, kind bits 24-28); size or type} followed by data whose
 * size depends on the kind (INT 4 bytes, ARRAY 12, STRUCT/UNION vlen*12,
 * ENUM vlen*8, FUNC_PROTO vlen*8, VAR 4, DATASEC vlen*12, DECL_TAG 4,
 * ENUM64 vlen*12, the others none). Only little-endian blobs (x86) are read.
 * Nothing in the blob is trusted: every offset is checked against its size. */
#ifndef SCHEDRIG_KERNEL_BTF_H
#define SCHEDRIG_KERNEL_BTF_H

#include <stddef.h>

#include "util.h"

/* In the BTF blob btf (len bytes): 1 when a struct (or union) named st has
 * a member named member, 0 when it has not or no such struct exists, -1
 * when the blob is not BTF or is malformed. */
int btf_struct_has_member(const void *btf, size_t len, const char *st, const char *member);

/* 1 when an enum (ENUM or ENUM64) of the blob has an enumerator named name,
 * 0 when none has, -1 when the blob is not BTF or is malformed. */
int btf_has_enumerator(const void *btf, size_t len, const char *name);

/* The contents of the section named ".BTF" of the 64-bit little-endian ELF
 * file at path into b (appended). Returns 0, or -1 (no such file, not a
 * 64-bit ELF file, no .BTF section: a bzImage, a kernel built without
 * CONFIG_DEBUG_INFO_BTF). */
int elf_btf_section(const char *path, struct buf *b);

#endif
