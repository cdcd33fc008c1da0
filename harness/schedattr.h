/* Scheduling attributes of a load instance: what the config requests, how it
 * is applied in the forked child before exec (so the tool, its threads and its
 * children inherit it), and what the kernel really applied, read back after
 * the tool started. Facts: shared/SCHED-ABI.md (struct sched_attr layout,
 * EEVDF slice via sched_runtime since 6.12, latency_nice only out of tree). */
#ifndef SCHEDRIG_SCHEDATTR_H
#define SCHEDRIG_SCHEDATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Requested attributes; a field is unset unless its has_ flag is true. */
struct sched_req {
	bool has_policy;
	int policy;            /* SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR */
	bool has_priority;
	int priority;          /* 1..99, FIFO/RR only */
	bool has_nice;
	int nice;              /* -20..19 */
	bool has_latency_nice;
	int latency_nice;      /* -20..19, needs the out-of-tree latency-nice series */
	bool has_slice_us;
	long long slice_us;    /* 100..100000 us: EEVDF custom slice (sched_runtime) */
	char cpus[128];        /* affinity list as written, e.g. "0-1,3"; "" unset */
};

/* The keys accepted under sched:, NULL-terminated. */
extern const char *const sched_keys[];

/* Set key to the text value, validating range and syntax (nice −20..19,
 * latency_nice −20..19, slice_us 100..100000, priority 1..99, policy
 * other|batch|idle|fifo|rr, cpus a list of CPU numbers and ranges below
 * CPU_SETSIZE; whether those CPUs exist where the loads run is config.c's
 * check). Returns 0, or -1 with a message (without position) in err. */
int sched_req_set(struct sched_req *r, const char *key, const char *value, char *err, size_t errsz);
/* Cross-field checks: priority needs fifo|rr and fifo|rr need priority;
 * slice_us needs other|batch|idle. Returns 0 or -1 with err. */
int sched_req_check(const struct sched_req *r, char *err, size_t errsz);
/* "policy=other nice=5 slice_us=300 cpus=0-1" (set fields only; "" when none). */
void sched_req_render(const struct sched_req *r, char *dst, size_t size);
/* Policy name for a SCHED_* number ("other", "fifo", ...), "?" when unknown. */
const char *sched_policy_name(int policy);

/* Apply r to the calling thread. Used in the forked child before exec.
 * Returns 0, or -1 with errno set and *what naming the failed step
 * ("sched_setattr", "setpriority", "sched_setaffinity"; the last also with
 * EINVAL when the kernel applied fewer CPUs than cpus names, e.g. CPUs this
 * machine lacks). Async-signal-safe: no allocation. */
int sched_apply_self(const struct sched_req *r, const char **what);

/* Read the attributes the kernel applied to pid: sched_getattr (policy,
 * nice, priority, sched_runtime as slice_us, latency_nice where the kernel
 * has it), affinity, and se.slice from /proc/PID/sched when present. Writes
 * the same "key=value ..." form as sched_req_render. Returns 0 or -1 (the
 * process is gone). */
int sched_read_back(pid_t pid, char *dst, size_t size);

/* Does the running kernel support latency_nice (struct sched_attr of at
 * least 60 bytes, SCHED-ABI.md)? Returns true/false. */
bool sched_latency_nice_supported(void);

/* Why a kernel without latency_nice refuses a plan that sets it, into dst:
 * "this kernel (RELEASE) does not support latency_nice (it needs the
 * out-of-tree latency-nice series); use slice_us, the EEVDF custom slice of
 * mainline 6.12+, instead" (run says it for the running kernel, the agent
 * for the kernel a variant booted). */
void sched_latency_nice_refusal(char *dst, size_t size, const char *kernel_release);

#endif
