/* The power fields of a fingerprint: cpufreq (driver, governor, limits,
 * boost), SMT, cpuidle (driver, governor, each CPU's states with their
 * exit latencies) and the CPU latency request of /dev/cpu_dma_latency. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostfp_impl.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* Field from the file "CPU_DIR/cpuN/REL" of every online CPU, summarised
 * (hf_cpu_summary); none_value when no CPU has the file. */
static void per_cpu_field(const struct hf_ctx *c, const int *cpus, size_t n, const char *field,
			  const char *rel, const char *none_value)
{
	char **values = xcalloc(n + 1, sizeof(*values));
	size_t absent = 0;
	for (size_t i = 0; i < n; i++) {
		char path[256], text[256], why[64];
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/%s", cpus[i], rel);
		int e = hf_read(c, path, text, sizeof(text));
		absent += e == ENOENT;
		values[i] = xstrdup(e ? hf_why(e, why, sizeof(why)) : text);
	}
	char *source = xasprintf(CPU_DIR "/cpu*/%s", rel);
	struct buf v = {0};
	hf_cpu_summary(cpus, values, n, &v);
	hostfp_add(c->fp, field, source, true, "%s", absent == n ? none_value : buf_str(&v));
	buf_free(&v);
	free(source);
	strv_free(values, n);
}

/* Turbo/boost: cpufreq/boost (acpi-cpufreq, amd-pstate: 1 on), else
 * intel_pstate/no_turbo (1: off). */
static void read_boost(const struct hf_ctx *c)
{
	char text[32], why[64];
	const char *boost = CPU_DIR "/cpufreq/boost", *no_turbo = CPU_DIR "/intel_pstate/no_turbo";
	int e = hf_read(c, boost, text, sizeof(text));
	if (!e) {
		hostfp_add(c->fp, "cpufreq.boost", boost, true, "%s", !strcmp(text, "1") ? "on" :
			   !strcmp(text, "0") ? "off" : text);
		return;
	}
	int e2 = hf_read(c, no_turbo, text, sizeof(text));
	if (!e2)
		hostfp_add(c->fp, "cpufreq.boost", no_turbo, true, "%s", !strcmp(text, "1") ? "off" :
			   !strcmp(text, "0") ? "on" : text);
	else
		hostfp_add(c->fp, "cpufreq.boost", e != ENOENT ? boost : no_turbo, true, "%s",
			   hf_why(e != ENOENT ? e : e2, why, sizeof(why)));
}

/* One CPU's idle states: "POLL 0us, C1 2us, C6 disabled 200us" (name,
 * "disabled" when disable reads 1, exit latency), or why not. */
static char *cpu_idle_states(const struct hf_ctx *c, int cpu)
{
	struct buf b = {0};
	char rel[160], name[64], lat[32], dis[16], why[64];
	for (int s = 0; s < 32; s++) {
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpuidle/state%d/name", cpu, s);
		int e = hf_read(c, rel, name, sizeof(name));
		if (e) {
			if (!s)
				buf_puts(&b, hf_why(e, why, sizeof(why)));
			break;
		}
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpuidle/state%d/latency", cpu, s);
		if (hf_read(c, rel, lat, sizeof(lat)))
			snprintf(lat, sizeof(lat), "?");
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpuidle/state%d/disable", cpu, s);
		bool off = !hf_read(c, rel, dis, sizeof(dis)) && !strcmp(dis, "1");
		buf_printf(&b, "%s%s%s %sus", s ? ", " : "", name, off ? " disabled" : "", lat);
	}
	char *v = xstrdup(buf_str(&b));
	buf_free(&b);
	return v;
}

static void read_cpuidle(const struct hf_ctx *c, const int *cpus, size_t n)
{
	char text[64], why[64];
	hf_file_field(c, "cpuidle.driver", CPU_DIR "/cpuidle/current_driver");
	const char *gov = CPU_DIR "/cpuidle/current_governor", *ro = CPU_DIR "/cpuidle/current_governor_ro";
	int e = hf_read(c, gov, text, sizeof(text));
	if (e == ENOENT && !hf_read(c, ro, text, sizeof(text)))
		hostfp_add(c->fp, "cpuidle.governor", ro, true, "%s", text);
	else
		hostfp_add(c->fp, "cpuidle.governor", gov, true, "%s", e ? hf_why(e, why, sizeof(why)) : text);
	char **states = xcalloc(n + 1, sizeof(*states));
	for (size_t i = 0; i < n; i++)
		states[i] = cpu_idle_states(c, cpus[i]);
	struct buf v = {0};
	hf_cpu_summary(cpus, states, n, &v);
	hostfp_add(c->fp, "cpuidle.states", CPU_DIR "/cpu*/cpuidle/state*/{name,disable,latency}", true,
		   "%s", n ? buf_str(&v) : "absent");
	buf_free(&v);
	strv_free(states, n);
}

/* The CPU latency limit in force (PM QoS, Documentation/power/pm_qos_interface.rst):
 * reading /dev/cpu_dma_latency gives it as a 32-bit integer (us);
 * 2000000000 is no limit. */
static void read_pm_qos(const struct hf_ctx *c)
{
	const char *rel = "/dev/cpu_dma_latency";
	char *path = hf_path(c, rel), why[64];
	int32_t us = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int e = fd < 0 ? errno : read(fd, &us, sizeof(us)) == (ssize_t)sizeof(us) ? 0 : errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	free(path);
	if (e)
		hostfp_add(c->fp, "pm_qos.cpu_dma_latency_us", rel, true, "%s", hf_why(e, why, sizeof(why)));
	else
		hostfp_add(c->fp, "pm_qos.cpu_dma_latency_us", rel, true, "%d", (int)us);
}

void hf_read_power(const struct hf_ctx *c)
{
	size_t n;
	int *cpus = hf_online_cpus(c, &n);
	per_cpu_field(c, cpus, n, "cpufreq.driver", "cpufreq/scaling_driver", "no cpufreq");
	per_cpu_field(c, cpus, n, "cpufreq.governor", "cpufreq/scaling_governor", "no cpufreq");
	per_cpu_field(c, cpus, n, "cpufreq.min_khz", "cpufreq/scaling_min_freq", "no cpufreq");
	per_cpu_field(c, cpus, n, "cpufreq.max_khz", "cpufreq/scaling_max_freq", "no cpufreq");
	read_boost(c);
	hf_file_field(c, "smt.control", CPU_DIR "/smt/control");
	hf_file_field(c, "smt.active", CPU_DIR "/smt/active");
	read_cpuidle(c, cpus, n);
	read_pm_qos(c);
	free(cpus);
}
