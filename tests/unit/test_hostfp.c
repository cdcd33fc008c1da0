/* The fingerprint readers (harness/host/hostfp.h) over the fixture trees
 * of tests/fixtures/host/ (README there): every field's value and source
 * as the fixture's files say, per-CPU files summarised, absent and
 * unreadable files saying so, the kernel config's hash as sha256sum
 * computes it over the same text; and the running system read in full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostadvice.h"
#include "hostfp.h"

/* sha256sum of the text in both fixtures' kernel configs,
 * "CONFIG_SMP=y\nCONFIG_SCHED_AUTOGROUP=y\n". */
#define CONFIG_SHA256 "276913d57e971ad7b058154a04d511ecd22a38d9ac280cea1087c23c044d6720"

static void read_fixture(const char *name, struct host_fp *fp)
{
	const char *fixtures = getenv("FIXTURES");
	char root[512];
	snprintf(root, sizeof(root), "%s/host/%s", fixtures ? fixtures : "tests/fixtures", name);
	hostfp_read(root, fp);
}

/* field's value is value and its source source. */
static void check(const struct host_fp *fp, const char *field, const char *value,
		  const char *source)
{
	const struct host_field *f = hostfp_get(fp, field);
	if (!f)
		fail_msg("no field %s", field);
	if (strcmp(f->value, value))
		fail_msg("%s: '%s', expected '%s'", field, f->value, value);
	if (source && strcmp(f->source, source))
		fail_msg("%s: source '%s', expected '%s'", field, f->source, source);
}

static void test_server(void **state)
{
	(void)state;
	struct host_fp fp;
	read_fixture("server", &fp);
	check(&fp, "kernel.release", "6.12.48+deb12-amd64", "/proc/sys/kernel/osrelease");
	check(&fp, "kernel.config_sha256", CONFIG_SHA256, "/proc/config.gz");
	check(&fp, "cmdline.isolcpus", "nohz,domain,6-7", "/proc/cmdline");
	check(&fp, "cmdline.nohz_full", "6-7", NULL);
	check(&fp, "cmdline.intel_idle.max_cstate", "1", NULL);
	assert_null(hostfp_get(&fp, "cmdline.mitigations"));
	check(&fp, "cpu.isolated", "6-7", "/sys/devices/system/cpu/isolated");
	check(&fp, "cpu.nohz_full", "6-7", "/sys/devices/system/cpu/nohz_full");
	check(&fp, "cpu.model", "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", "/proc/cpuinfo");
	check(&fp, "cpu.microcode", "0x2007006 (cpus 0-6); 0x2006e05 (cpus 7)", NULL);
	check(&fp, "topology.packages", "2", NULL);
	check(&fp, "topology.cores", "4", NULL);
	check(&fp, "topology.threads_per_core", "2", NULL);
	check(&fp, "topology.numa_nodes", "2 (0-1)", NULL);
	check(&fp, "cache.llc", "L3 22528K x 2 (cpus 0-3; 4-7)", NULL);
	check(&fp, "cpufreq.driver", "intel_pstate", NULL);
	check(&fp, "cpufreq.governor", "performance (cpus 0-5); powersave (cpus 6-7)",
	      "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor");
	check(&fp, "cpufreq.max_khz", "3700000", NULL);
	check(&fp, "cpufreq.boost", "on", "/sys/devices/system/cpu/intel_pstate/no_turbo");
	check(&fp, "smt.control", "on", "/sys/devices/system/cpu/smt/control");
	check(&fp, "cpuidle.driver", "intel_idle", NULL);
	check(&fp, "cpuidle.governor", "menu", "/sys/devices/system/cpu/cpuidle/current_governor_ro");
	check(&fp, "cpuidle.states",
	      "POLL 0us, C1 2us, C1E 10us, C6 133us (cpus 0-2,4-7); POLL 0us, C1 2us, C1E 10us,"
	      " C6 disabled 133us (cpus 3)", NULL);
	check(&fp, "pm_qos.cpu_dma_latency_us", "0", "/dev/cpu_dma_latency");
	check(&fp, "mem.total_kb", "196608000", "/proc/meminfo");
	check(&fp, "thp.enabled", "always", "/sys/kernel/mm/transparent_hugepage/enabled");
	check(&fp, "thp.defrag", "madvise", NULL);
	check(&fp, "sysctl.kernel.sched_autogroup_enabled", "0",
	      "/proc/sys/kernel/sched_autogroup_enabled");
	check(&fp, "sysctl.kernel.numa_balancing", "1", NULL);
	check(&fp, "sysctl.kernel.timer_migration", "0", NULL);
	assert_null(hostfp_get(&fp, "sysctl.kernel.sched_domain")); /* a directory */
	assert_null(hostfp_get(&fp, "sysctl.kernel.hostname"));
	check(&fp, "sched.features", "unreadable: EISDIR", "/sys/kernel/debug/sched/features");
	check(&fp, "debugfs.sched.base_slice_ns", "3000000", "/sys/kernel/debug/sched/base_slice_ns");
	check(&fp, "debugfs.sched.preempt", "full", NULL);
	check(&fp, "debugfs.sched.numa_balancing.scan_delay_ms", "1000", NULL);
	assert_null(hostfp_get(&fp, "debugfs.sched.debug"));
	check(&fp, "irq.affinity", "5 IRQs: 0-5 (4); 6 (1)", "/proc/irq/*/smp_affinity_list");
	check(&fp, "irq.default_affinity", "3f", NULL);
	check(&fp, "services.irqbalance", "running", "/proc/*/comm");
	check(&fp, "services.tuned", "not running", NULL);
	check(&fp, "rig.cpus", "0-5", "/proc/self/status");
	check(&fp, "loadavg", "0.52 0.58 0.59", "/proc/loadavg");
	assert_false(hostfp_get(&fp, "loadavg")->stable);
	assert_false(hostfp_get(&fp, "fingerprint.read_at")->stable);
	assert_true(hostfp_get(&fp, "thp.enabled")->stable);
	for (size_t i = 0; i < fp.n; i++)
		if (!hostfp_valid_name(fp.v[i].field))
			fail_msg("field name %s", fp.v[i].field);
	hostfp_free(&fp);
}

/* A machine with almost nothing: each missing file reads "absent" (no
 * cpufreq: "no cpufreq"), nohz_full's "(null)" reads none, the config from /boot, the CPUs from their
 * directories. */
static void test_bare(void **state)
{
	(void)state;
	struct host_fp fp;
	read_fixture("bare", &fp);
	check(&fp, "kernel.release", "6.1.0-28-amd64", NULL);
	check(&fp, "kernel.version", "absent", "/proc/sys/kernel/version");
	check(&fp, "kernel.config_sha256", CONFIG_SHA256, "/boot/config-6.1.0-28-amd64");
	check(&fp, "cmdline.isolcpus", "none", NULL);
	check(&fp, "cmdline.nosmt", "(given)", NULL);
	/* The kernel prints an unused nohz_full mask as "(null)". */
	check(&fp, "cpu.nohz_full", "none", "/sys/devices/system/cpu/nohz_full");
	check(&fp, "cpufreq.governor", "no cpufreq", NULL);
	check(&fp, "cpufreq.boost", "absent", NULL);
	check(&fp, "smt.control", "absent", NULL);
	check(&fp, "thp.enabled", "absent", "/sys/kernel/mm/transparent_hugepage/enabled");
	check(&fp, "pm_qos.cpu_dma_latency_us", "absent", NULL);
	check(&fp, "mem.total_kb", "absent", NULL);
	check(&fp, "cpuidle.states", "absent", NULL);
	check(&fp, "sched.features", "absent", NULL);
	check(&fp, "debugfs.sched", "absent", "/sys/kernel/debug/sched");
	check(&fp, "irq.affinity", "absent", NULL);
	check(&fp, "topology.packages", "absent", NULL);
	hostfp_free(&fp);
}

/* The running system: every field has a name, a value and a source, and
 * the release is uname's. */
static void test_live(void **state)
{
	(void)state;
	struct host_fp fp;
	char release[256] = "";
	FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
	assert_non_null(f);
	assert_non_null(fgets(release, sizeof(release), f));
	fclose(f);
	release[strcspn(release, "\n")] = '\0';
	hostfp_read("/", &fp);
	check(&fp, "kernel.release", release, "/proc/sys/kernel/osrelease");
	assert_true(fp.n > 30);
	for (size_t i = 0; i < fp.n; i++) {
		assert_true(hostfp_valid_name(fp.v[i].field));
		assert_true(*fp.v[i].value);
		assert_true(*fp.v[i].source);
	}
	hostfp_free(&fp);
}

static void test_same(void **state)
{
	(void)state;
	assert_true(hostfp_same("thp.enabled", "never", "never"));
	assert_false(hostfp_same("thp.enabled", "never", "madvise"));
	assert_true(hostfp_same("mem.total_kb", "2014632", "2003912"));
	assert_false(hostfp_same("mem.total_kb", "2014632", "4028632"));
	assert_false(hostfp_same("cpu.online", "100", "99"));
	assert_false(hostfp_valid_name("Thp"));
	assert_false(hostfp_valid_name("a..b"));
	assert_false(hostfp_valid_name("a b"));
	assert_true(hostfp_valid_name("sysctl.kernel.numa_balancing_promote_rate_limit_MBps"));
}

/* schedrig host's advice: the server fixture's mixed governors, boost,
 * SMT, irqbalance, THP always and NUMA balancing over 2 nodes, in that
 * order; not its idle states (a latency limit of 0 is held) nor its
 * isolation (6-7 isolated). A deep enabled state without a limit, and a
 * busy machine, are advised on. */
static void test_advice(void **state)
{
	(void)state;
	struct host_fp fp;
	struct argv a = {0};
	read_fixture("server", &fp);
	assert_int_equal(hostadvice(&fp, &a), 6);
	assert_non_null(strstr(a.v[0], "cpufreq governor performance (cpus 0-5); powersave (cpus"
				   " 6-7)"));
	assert_non_null(strstr(a.v[0], "host: {governor: performance}"));
	assert_non_null(strstr(a.v[1], "host: {boost: off}"));
	assert_non_null(strstr(a.v[2], "host: {smt: off}"));
	assert_non_null(strstr(a.v[3], "irqbalance is running"));
	assert_non_null(strstr(a.v[4], "host: {thp: madvise}"));
	assert_non_null(strstr(a.v[5], "NUMA balancing is on over 2 nodes"));
	hostfp_free(&fp);
	argv_free(&a);

	memset(&fp, 0, sizeof(fp));
	hostfp_add(&fp, "cpuidle.states", "s", true, "POLL 0us, C1 2us, C6 133us (cpus 0-2);"
		   " POLL 0us, C1 2us, C6 disabled 133us (cpus 3)");
	hostfp_add(&fp, "pm_qos.cpu_dma_latency_us", "s", true, "2000000000");
	hostfp_add(&fp, "cpu.online", "s", true, "0-3");
	hostfp_add(&fp, "cpu.isolated", "s", true, "2-3");
	hostfp_add(&fp, "loadavg", "s", false, "3.10 2.00 1.00");
	assert_int_equal(hostadvice(&fp, &a), 2);
	assert_non_null(strstr(a.v[0], "idle state C6 (exit latency 133 us) is enabled"));
	assert_non_null(strstr(a.v[0], "host: {cpu_dma_latency_us: 0}"));
	assert_non_null(strstr(a.v[1], "load average 3.10 on 4 CPUs"));
	hostfp_free(&fp);
	argv_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server),
		cmocka_unit_test(test_bare),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_advice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
