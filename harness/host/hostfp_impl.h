/* What the fingerprint readers (hostfp*.c) share: the root they read
 * under, file reads that say why they failed, per-CPU summaries. Private
 * to harness/host/hostfp*.c. */
#ifndef SCHEDRIG_HOSTFP_IMPL_H
#define SCHEDRIG_HOSTFP_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "hostfp.h"
#include "util.h"

/* One reading: the root every path is below, and the fingerprint. */
struct hf_ctx {
	const char *root;   /* "" for the running system, else the directory */
	bool live;          /* reading the running system ("/") */
	struct host_fp *fp;
};

/* root + rel (rel absolute, e.g. "/proc/cmdline"), malloc'd. */
char *hf_path(const struct hf_ctx *c, const char *rel);

/* Read file rel (below the root, at most size-1 bytes, trailing blanks and
 * newlines trimmed) into buf. 0, or the errno (ENOENT: no such file). */
int hf_read(const struct hf_ctx *c, const char *rel, char *buf, size_t size);

/* The value a failed read gives: "absent" for ENOENT (and ENOTDIR),
 * else "unreadable: ENAME" (strerrorname_np). */
const char *hf_why(int e, char *buf, size_t size);

/* Read rel and add it as field (source rel): the file's first line
 * ("none" when it is empty), or hf_why's value. Returns the errno (0:
 * read). */
int hf_file_field(const struct hf_ctx *c, const char *field, const char *rel);

/* The token in brackets of a "a [b] c" list (THP's enabled, defrag),
 * written into buf; the whole text when it has none. */
void hf_bracketed(const char *text, char *buf, size_t size);

/* The online CPUs of the system (/sys/devices/system/cpu/online), as a
 * malloc'd array of CPU numbers in ascending order (*n of them); on
 * failure the CPUs with a cpuN directory. */
int *hf_online_cpus(const struct hf_ctx *c, size_t *n);

/* Per-CPU values: cpu[i] read value[i]. The summary into out: the value
 * when all are equal, else "VALUE (cpus LIST); ..." in order of first
 * appearance, LIST as the kernel prints CPU lists ("0-3,8"). */
void hf_cpu_summary(const int *cpu, char *const *value, size_t n, struct buf *out);

/* The groups of fields, in hostfp_read's order. */
void hf_read_kernel(const struct hf_ctx *c);
void hf_read_cpu(const struct hf_ctx *c);
void hf_read_power(const struct hf_ctx *c);
void hf_read_memory(const struct hf_ctx *c);
void hf_read_sched(const struct hf_ctx *c);
void hf_read_irq(const struct hf_ctx *c);

#endif
