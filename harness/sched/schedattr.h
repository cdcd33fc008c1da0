/* harness/sched/: the kernel's scheduling interfaces, without policy: a
 * task's attributes (schedattr, this header) and the knob files (knob_paths:
 * which files are knobs, their names; knob_io: read, write, read back).
 */

/* Scheduling attributes of a load instance: what the config requests, how it
 * is applied in the forked child before exec (so the tool, its threads and its
 * children inherit it), and what the kernel really applied, read back after
 * the tool started. Sources: struct sched_attr in
 * include/uapi/linux/sched/types.h and sched_setattr(2); the EEVDF custom
 * slice as sched_runtime of fair policies since 6.12 (Documentation/
 * scheduler/sched-eevdf.rst); latency_nice only in the out-of-tree series
 * (linux-kernel, 2022-2023, "[PATCH v12 0/8] Add latency priority for CFS
 * class", Vincent Guittot), never merged: mainline answers a non-zero
 * field at offset 56 with E2BIG (measured on 6.18). */
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
	/* cgroup v2 cpu controller files of the load's own cgroup (loadcg.h),
	 * written before the load enters it (config: sched: {cgroup: {...}}). */
	bool has_cg_weight;
	int cg_weight;         /* cpu.weight, 1..10000 (default 100) */
	bool has_cg_idle;
	int cg_idle;           /* cpu.idle, 0 or 1 */
	char cg_max[48];       /* cpu.max "QUOTA PERIOD" (us), QUOTA "max" for no
				* limit, PERIOD optional; "" unset */
};

/* Does r set any cgroup attribute (cg_*)? */
bool sched_req_has_cgroup(const struct sched_req *r);

/* The keys accepted under sched:, NULL-terminated. */
extern const char *const sched_keys[];

/* Set key to the text value, validating range and syntax (nice −20..19,
 * latency_nice −20..19, slice_us 100..100000, priority 1..99, policy
 * other|batch|idle|fifo|rr, cpus a list of CPU numbers and ranges below
 * CPU_SETSIZE; whether those CPUs exist where the loads run is config.c's
 * check; cgroup.weight 1..10000, cgroup.idle 0|1, cgroup.max "QUOTA
 * [PERIOD]" with QUOTA "max" or 1000.. us and PERIOD 1000..1000000 us,
 * the kernel's ranges: Documentation/admin-guide/cgroup-v2.rst "CPU").
 * Returns 0, or -1 with a message (without position) in err. */
int sched_req_set(struct sched_req *r, const char *key, const char *value, char *err, size_t errsz);
/* Cross-field checks: priority needs fifo|rr and fifo|rr need priority;
 * slice_us needs other|batch|idle; cgroup.idle 1 goes without
 * cgroup.weight (the kernel refuses cpu.weight on an idle group: EINVAL).
 * Returns 0 or -1 with err. */
int sched_req_check(const struct sched_req *r, char *err, size_t errsz);
/* "policy=other nice=5 slice_us=300 cpus=0-1 cgroup.weight=200" (set fields
 * only; "" when none). */
void sched_req_render(const struct sched_req *r, char *dst, size_t size);
/* Policy name for a SCHED_* number ("other", "fifo", ...), "?" when unknown. */
const char *sched_policy_name(int policy);

/* Apply r to the calling thread. Used in the forked child before exec.
 * One sched_setattr carries every field: what r leaves unset is the
 * thread's current value (sched_getattr), so a policy or slice keeps the
 * load's nice (a zeroed nice would reset it to 0) and an RT priority stays
 * with its policy; sched_runtime is 0 unless slice_us is set (sched_getattr
 * reads back the effective slice: writing that back would pin the default
 * slice as a custom one); latency_nice 0 on a kernel without latency_nice
 * is left unset (that kernel's behaviour: sched_applied_check). SCHED_IDLE ignores
 * sched_nice, so nice is then set with setpriority. Returns 0, or -1 with
 * errno set and *what naming the failed step ("sched_getattr",
 * "sched_setattr", "setpriority", "sched_setaffinity"; the last also with
 * EINVAL when the kernel applied fewer CPUs than cpus names, e.g. CPUs
 * this machine lacks). Async-signal-safe: no allocation. */
int sched_apply_self(const struct sched_req *r, const char **what);
/* sched_apply_self in the form of spawn's before_exec hook (spawn.h): arg
 * is the const struct sched_req to apply. */
int sched_apply_hook(const void *arg, const char **what);

/* Read the attributes the kernel applied to pid: sched_getattr (policy,
 * nice, priority, sched_runtime as slice_us, latency_nice where the kernel
 * has it), affinity, and se.slice from /proc/PID/sched when present. Writes
 * the same "key=value ..." form as sched_req_render. Returns 0 or -1 (the
 * process is gone). */
int sched_read_back(pid_t pid, char *dst, size_t size);

/* Did the kernel apply what was requested? requested is sched_req_render's
 * text, applied sched_read_back's. Each of policy, priority, nice,
 * latency_nice and slice_us that requested sets must be in applied with the
 * same value (a kernel without custom slices reads back slice_us=0, one
 * without latency_nice has no latency_nice: latency_nice 0 passes there,
 * the kernel's own behaviour, the series' default slice; any other value
 * fails). cpus are checked when applied
 * (sched_apply_self), cgroup files are not read back here. An empty or NULL
 * applied (the load was gone before the read-back) or requested checks
 * nothing. Returns 0, or -1 with why: "slice_us: requested 200, applied 0
 * (applied: policy=other nice=0 slice_us=0 ...)". */
int sched_applied_check(const char *requested, const char *applied, char *why, size_t size);

/* Does the running kernel support latency_nice (sched_getattr writes its
 * struct size into size: at least 60 bytes)? Returns true/false. */
bool sched_latency_nice_supported(void);

/* Why a kernel without latency_nice refuses a plan that sets it, into dst:
 * "this kernel (RELEASE) does not support latency_nice (it needs the
 * out-of-tree latency-nice series); use slice_us, the EEVDF custom slice of
 * mainline 6.12+, instead" (run says it for the running kernel, the agent
 * for the kernel a variant booted). */
void sched_latency_nice_refusal(char *dst, size_t size, const char *kernel_release);

#endif
