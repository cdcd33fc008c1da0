/* The CPUs' fields of a fingerprint: model, microcode, which CPUs are
 * online and isolated, the topology (packages, cores, threads, NUMA
 * nodes) and the last-level cache. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "hostfp_impl.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* The value of key in every "key : value" line of /proc/cpuinfo, per
 * processor: model name and microcode. */
static void read_cpuinfo(const struct hf_ctx *c)
{
	char *path = hf_path(c, "/proc/cpuinfo"), line[512], why[64];
	FILE *f = fopen(path, "re");
	int e = f ? 0 : errno;
	free(path);
	struct buf model = {0};
	int *cpu = NULL;
	char **ucode = NULL;
	size_t n = 0;
	int processor = -1;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "processor", 9))
			processor = atoi(v);
		else if (!strncmp(line, "model name", 10) && !model.len)
			buf_puts(&model, v);
		else if (!strncmp(line, "microcode", 9)) {
			cpu = xrealloc(cpu, (n + 1) * sizeof(*cpu));
			ucode = xrealloc(ucode, (n + 1) * sizeof(*ucode));
			cpu[n] = processor;
			ucode[n++] = xstrdup(v);
		}
	}
	if (f)
		fclose(f);
	hostfp_add(c->fp, "cpu.model", "/proc/cpuinfo", true, "%s",
		   e ? hf_why(e, why, sizeof(why)) : model.len ? buf_str(&model) : "absent");
	struct buf u = {0};
	hf_cpu_summary(cpu, ucode, n, &u);
	hostfp_add(c->fp, "cpu.microcode", "/proc/cpuinfo", true, "%s",
		   e ? hf_why(e, why, sizeof(why)) : n ? buf_str(&u) : "absent");
	strv_free(ucode, n);
	free(cpu);
	buf_free(&u);
	buf_free(&model);
}

/* Distinct strings of v[0..n): how many. */
static size_t distinct(char *const *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(v[i], v[j]);
		k += !seen;
	}
	return k;
}

/* packages, cores (distinct package:core pairs), threads per core (the
 * most CPUs in one thread_siblings_list) of the online CPUs. */
static void read_topology(const struct hf_ctx *c, const int *online, size_t n)
{
	char **pkg = xcalloc(n + 1, sizeof(*pkg)), **core = xcalloc(n + 1, sizeof(*core));
	size_t threads = 0, have = 0;
	int e = 0;
	for (size_t i = 0; i < n; i++) {
		char rel[128], p[64], k[64], sib[512];
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/physical_package_id", online[i]);
		int e1 = hf_read(c, rel, p, sizeof(p));
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/core_id", online[i]);
		int e2 = hf_read(c, rel, k, sizeof(k));
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/thread_siblings_list", online[i]);
		int e3 = hf_read(c, rel, sib, sizeof(sib));
		if (e1 || e2 || e3) {
			e = e1 ? e1 : e2 ? e2 : e3;
			continue;
		}
		bool ok;
		size_t ns;
		free(cpulist_parse(sib, &ns, &ok));
		threads = ns > threads ? ns : threads;
		pkg[have] = xstrdup(p);
		core[have++] = xasprintf("%s:%s", p, k);
	}
	char why[64];
	const char *src = CPU_DIR "/cpu*/topology";
	if (have) {
		hostfp_add(c->fp, "topology.packages", src, true, "%zu", distinct(pkg, have));
		hostfp_add(c->fp, "topology.cores", src, true, "%zu", distinct(core, have));
		hostfp_add(c->fp, "topology.threads_per_core", src, true, "%zu", threads);
	} else {
		const char *v = hf_why(e ? e : ENOENT, why, sizeof(why));
		hostfp_add(c->fp, "topology.packages", src, true, "%s", v);
		hostfp_add(c->fp, "topology.cores", src, true, "%s", v);
		hostfp_add(c->fp, "topology.threads_per_core", src, true, "%s", v);
	}
	for (size_t i = 0; i < have; i++) {
		free(pkg[i]);
		free(core[i]);
	}
	free(pkg);
	free(core);
}

/* The last-level cache: of cpu0's cache indexes the highest level that
 * holds data, its size, and how many instances the online CPUs share
 * (distinct shared_cpu_list): "L3 32768K x 1 (cpus 0-1)". */
static void read_llc(const struct hf_ctx *c, const int *online, size_t n)
{
	const char *src = CPU_DIR "/cpu*/cache/index*";
	char rel[160], text[64];
	int best = -1, best_level = 0;
	char size[64] = "";
	if (!n) {
		hostfp_add(c->fp, "cache.llc", src, true, "absent");
		return;
	}
	for (int idx = 0; idx < 16; idx++) {
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cache/index%d/level", online[0], idx);
		if (hf_read(c, rel, text, sizeof(text)))
			break;
		int level = atoi(text);
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cache/index%d/type", online[0], idx);
		if (hf_read(c, rel, text, sizeof(text)) || !strcmp(text, "Instruction"))
			continue;
		if (level > best_level) {
			best_level = level;
			best = idx;
		}
	}
	if (best < 0) {
		hostfp_add(c->fp, "cache.llc", src, true, "absent");
		return;
	}
	snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cache/index%d/size", online[0], best);
	hf_read(c, rel, size, sizeof(size));
	char **shared = xcalloc(n, sizeof(*shared));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		char list[512];
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cache/index%d/shared_cpu_list", online[i], best);
		if (!hf_read(c, rel, list, sizeof(list))) {
			bool seen = false;
			for (size_t j = 0; j < k && !seen; j++)
				seen = !strcmp(shared[j], list);
			if (!seen)
				shared[k++] = xstrdup(list);
		}
	}
	struct buf v = {0};
	buf_printf(&v, "L%d %s x %zu (cpus ", best_level, size, k);
	for (size_t i = 0; i < k; i++) {
		buf_printf(&v, "%s%s", i ? "; " : "", shared[i]);
		free(shared[i]);
	}
	buf_puts(&v, ")");
	hostfp_add(c->fp, "cache.llc", src, true, "%s", buf_str(&v));
	buf_free(&v);
	free(shared);
}

/* NUMA nodes online: "1 (0)", "2 (0-1)". */
static void read_nodes(const struct hf_ctx *c)
{
	const char *rel = "/sys/devices/system/node/online";
	char text[512], why[64];
	size_t n;
	bool ok;
	int e = hf_read(c, rel, text, sizeof(text));
	free(cpulist_parse(e ? "" : text, &n, &ok));
	if (e || !ok)
		hostfp_add(c->fp, "topology.numa_nodes", rel, true, "%s",
			   e ? hf_why(e, why, sizeof(why)) : "unreadable: not a list");
	else
		hostfp_add(c->fp, "topology.numa_nodes", rel, true, "%zu (%s)", n, text);
}

/* cpu.nohz_full: the CPUs in adaptive-tick mode, "none" when there are
 * none. The kernel prints its unallocated mask as "(null)" when nohz_full=
 * is not given (drivers/base/cpu.c prints it with %*pbl), and a kernel
 * without CONFIG_NO_HZ_FULL lacks the file: both are none, as an empty
 * cpu.isolated is, so a guest and this machine compare alike. */
static void read_nohz_full(const struct hf_ctx *c)
{
	const char *rel = CPU_DIR "/nohz_full";
	char text[HOSTFP_VALUE_MAX], why[64];
	int e = hf_read(c, rel, text, sizeof(text));
	text[strcspn(text, "\n")] = '\0';
	if (e == ENOENT || (!e && (!*text || !strcmp(text, "(null)"))))
		hostfp_add(c->fp, "cpu.nohz_full", rel, true, "none");
	else
		hostfp_add(c->fp, "cpu.nohz_full", rel, true, "%s", e ? hf_why(e, why, sizeof(why)) : text);
}

void hf_read_cpu(const struct hf_ctx *c)
{
	size_t n;
	int *online = hf_online_cpus(c, &n);
	read_cpuinfo(c);
	hf_file_field(c, "cpu.online", CPU_DIR "/online");
	hf_file_field(c, "cpu.isolated", CPU_DIR "/isolated");
	read_nohz_full(c);
	read_topology(c, online, n);
	read_nodes(c);
	read_llc(c, online, n);
	free(online);
}
