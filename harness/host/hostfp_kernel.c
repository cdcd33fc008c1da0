/* The kernel's fields of a fingerprint: release, build, command line and
 * the scheduler parameters on it, the config's hash, the clocksource. */
#include <errno.h>
/* OpenSSL's plain SHA-256 functions (deprecated in 3.0 for EVP, which
 * would link OpenSSL's providers into the static guest agent: 3.3 MB
 * more; these add a few kB). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "hostfp_impl.h"

/* Command-line parameters recorded whether or not they are given
 * ("none" when not): CPU isolation (Documentation/admin-guide/
 * kernel-parameters.txt). */
static const char *const cmdline_always[] = {"isolcpus", "nohz_full", "rcu_nocbs"};

/* Parameters recorded when given: they change what the scheduler, the
 * idle loop or the frequency do. */
static const char *const cmdline_when_given[] = {
	"irqaffinity", "nohz", "idle", "intel_idle.max_cstate", "processor.max_cstate",
	"intel_pstate", "amd_pstate", "cpufreq.default_governor", "mitigations", "nosmt",
	"preempt", "threadirqs", "transparent_hugepage", "numa_balancing", "noautogroup",
	"sched_verbose", "nowatchdog", "skew_tick", "clocksource", "tsc",
};

/* The value of parameter name on the command line (the last one given
 * counts, as the kernel parses it): "" for a flag, NULL when absent. */
static char *cmdline_param(const char *cmdline, const char *name)
{
	char *found = NULL;
	size_t n = strlen(name);
	for (const char *p = cmdline; *p;) {
		p += strspn(p, " ");
		size_t len = strcspn(p, " ");
		if (len >= n && !strncmp(p, name, n) && (p[n] == '=' || p[n] == ' ' || !p[n] ||
							 len == n)) {
			free(found);
			found = p[n] == '=' ? xasprintf("%.*s", (int)(len - n - 1), p + n + 1)
					    : xstrdup("");
		}
		p += len;
	}
	return found;
}

static void read_cmdline(const struct hf_ctx *c)
{
	char cmdline[HOSTFP_VALUE_MAX], why[64];
	int e = hf_read(c, "/proc/cmdline", cmdline, sizeof(cmdline));
	hostfp_add(c->fp, "kernel.cmdline", "/proc/cmdline", true, "%s",
		   e ? hf_why(e, why, sizeof(why)) : cmdline);
	if (e)
		return;
	for (size_t i = 0; i < sizeof(cmdline_always) / sizeof(cmdline_always[0]); i++) {
		char *field = xasprintf("cmdline.%s", cmdline_always[i]);
		char *v = cmdline_param(cmdline, cmdline_always[i]);
		hostfp_add(c->fp, field, "/proc/cmdline", true, "%s", v ? v : "none");
		free(v);
		free(field);
	}
	for (size_t i = 0; i < sizeof(cmdline_when_given) / sizeof(cmdline_when_given[0]); i++) {
		char *v = cmdline_param(cmdline, cmdline_when_given[i]);
		if (v) {
			char *field = xasprintf("cmdline.%s", cmdline_when_given[i]);
			hostfp_add(c->fp, field, "/proc/cmdline", true, "%s", *v ? v : "(given)");
			free(field);
		}
		free(v);
	}
}

/* SHA-256 of the (decompressed) config file rel into hex; gzread reads a
 * plain file as it is. 0, or the errno. */
static int config_sha256(const struct hf_ctx *c, const char *rel, char hex[65])
{
	char *path = hf_path(c, rel);
	gzFile z = gzopen(path, "rb");
	int e = z ? 0 : (errno ? errno : ENOMEM);
	free(path);
	if (!z)
		return e;
	SHA256_CTX md;
	SHA256_Init(&md);
	char chunk[16384];
	int n;
	while ((n = gzread(z, chunk, sizeof(chunk))) > 0)
		SHA256_Update(&md, chunk, (size_t)n);
	int zerr;
	gzerror(z, &zerr);
	e = n < 0 ? (zerr == Z_ERRNO ? errno : EILSEQ) : 0;
	gzclose(z);
	unsigned char sum[SHA256_DIGEST_LENGTH];
	SHA256_Final(sum, &md);
	for (unsigned i = 0; !e && i < SHA256_DIGEST_LENGTH; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
	return e;
}

/* The kernel config's hash: /proc/config.gz (CONFIG_IKCONFIG_PROC), else
 * /boot/config-RELEASE; the value says why neither could be read. */
static void read_config(const struct hf_ctx *c, const char *release)
{
	char hex[65], why[64];
	char *boot = xasprintf("/boot/config-%s", release);
	int e1 = config_sha256(c, "/proc/config.gz", hex), e2 = e1 ? config_sha256(c, boot, hex) : 0;
	if (!e1)
		hostfp_add(c->fp, "kernel.config_sha256", "/proc/config.gz", true, "%s", hex);
	else if (!e2)
		hostfp_add(c->fp, "kernel.config_sha256", boot, true, "%s", hex);
	else {
		/* Neither: absent when both are, else why the one there is not read. */
		char *source = xasprintf("/proc/config.gz, %s", boot);
		hostfp_add(c->fp, "kernel.config_sha256", source, true, "%s",
			   hf_why(e1 != ENOENT ? e1 : e2, why, sizeof(why)));
		free(source);
	}
	free(boot);
}

/* How long a live read waits for x86's boot-time clocksource tsc-early to
 * be replaced: the kernel switches to tsc once a delayed work has refined
 * the TSC calibration (arch/x86/kernel/tsc.c, tsc_refine_calibration_work,
 * about 1 s after boot; longer in a loaded TCG guest). */
#define CLOCKSOURCE_SETTLE_MS 15000

/* The running system's clocksource once it is no longer tsc-early (or
 * CLOCKSOURCE_SETTLE_MS have passed): a guest fingerprinted right after
 * boot then reads the clocksource its measurement runs on. */
static void settle_clocksource(const struct hf_ctx *c, const char *rel)
{
	char cs[64];
	for (int waited_ms = 0; c->live && waited_ms < CLOCKSOURCE_SETTLE_MS; waited_ms += 100) {
		if (hf_read(c, rel, cs, sizeof(cs)) || strcmp(cs, "tsc-early"))
			return;
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

void hf_read_kernel(const struct hf_ctx *c)
{
	const char *clocksource = "/sys/devices/system/clocksource/clocksource0/current_clocksource";
	char release[256];
	if (hf_file_field(c, "kernel.release", "/proc/sys/kernel/osrelease") ||
	    hf_read(c, "/proc/sys/kernel/osrelease", release, sizeof(release)))
		snprintf(release, sizeof(release), "unknown");
	hf_file_field(c, "kernel.version", "/proc/sys/kernel/version");
	read_cmdline(c);
	read_config(c, release);
	settle_clocksource(c, clocksource);
	hf_file_field(c, "clocksource", clocksource);
}
