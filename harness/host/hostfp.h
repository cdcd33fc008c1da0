/* harness/host/: the state of the machine a variant's kernel runs on, the
 * state that moves scheduler numbers more than many patches do: its
 * fingerprint (hostfp: every field with where it was read, or why it is
 * unreadable; hostfp_cpu, hostfp_kernel, hostfp_irq read the groups), the
 * config's host: settings applied, held and restored (hostset), what a
 * config declares about each field (hostdecl, for compare's notes) and
 * the advice of schedrig host (hostadvice). This folder runs where the
 * kernel under test runs, in a qemu guest or on an ssh machine inside the
 * agent too: it uses libc, harness/lib, zlib and libcrypto, the config
 * types and the knobs (harness/knobs), never the store.
 */

/* A fingerprint: one machine's state as a list of fields, each
 *   field   a dotted name: "thp.enabled", "cpufreq.governor",
 *           "sysctl.kernel.sched_autogroup_enabled", "debugfs.sched.base_slice_ns"
 *   value   as read, one line ("never", "performance", "1"); a per-CPU file
 *           summarised over the online CPUs ("performance" when every CPU
 *           reads alike, else "performance (cpus 0-3); powersave (cpus 4-7)");
 *           "absent" when the file does not exist on this kernel or machine
 *           (no cpufreq, no THP), "unreadable: EPERM" (the errno's name)
 *           when it exists and cannot be read
 *   source  where it was read: the file ("/sys/kernel/mm/transparent_hugepage/
 *           enabled"), a pattern ("/sys/devices/system/cpu/cpu*\/cpufreq/
 *           scaling_governor") or a call ("sched_getaffinity")
 *   stable  false for the few fields that change from run to run by
 *           themselves (fingerprint.read_at, loadavg): digests and compare
 *           leave them out
 * in the order they were read. Every path is read below a root directory:
 * "/" is the running system; a directory holding the same tree (sys/,
 * proc/, dev/, boot/) is read the same way (the unit tests' fixtures). */
#ifndef SCHEDRIG_HOSTFP_H
#define SCHEDRIG_HOSTFP_H

#include <stdbool.h>
#include <stddef.h>

struct host_field {
	char *field, *value, *source;
	bool stable;
};

struct host_fp {
	struct host_field *v;
	size_t n;
};

/* The longest field name, value and source a fingerprint holds (a longer
 * value is cut to this many bytes), and the most fields: what the agent
 * protocol accepts from a guest (agent_proto.h). */
#define HOSTFP_FIELD_MAX 128
#define HOSTFP_VALUE_MAX 1024
#define HOSTFP_SOURCE_MAX 256
#define HOSTFP_FIELDS_MAX 1024

/* Read the fingerprint of the system under root ("/" or a directory
 * holding its tree) into fp (zeroed here; free with hostfp_free). Never
 * fails: what cannot be read is a field saying why. Reading "/" mounts
 * debugfs for its scheduler files when it is not mounted (knobs.h
 * knobs_debugfs_mount) and unmounts it again. */
void hostfp_read(const char *root, struct host_fp *fp);

void hostfp_free(struct host_fp *fp);

/* Append a field (value printf-formatted, cut to HOSTFP_VALUE_MAX bytes,
 * newlines and control characters as blanks). */
void hostfp_add(struct host_fp *fp, const char *field, const char *source, bool stable,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The field named field, or NULL. */
const struct host_field *hostfp_get(const struct host_fp *fp, const char *field);

/* Is name a field name a fingerprint may hold: 1..HOSTFP_FIELD_MAX-1 bytes
 * of [a-z0-9_.-] (sysctl and debugfs file names keep their case:
 * [A-Za-z] too), starting with a letter, no ".." ? */
bool hostfp_valid_name(const char *name);

/* Do two values of field read as the same state? Equal text, except
 * mem.total_kb: within 2 % (kernels reserve different amounts of one
 * machine's memory). */
bool hostfp_same(const char *field, const char *a, const char *b);

#endif
