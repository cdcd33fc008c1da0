/* What is checked where the loads of a plan will run, before a run records
 * anything (the rig for boot: local variants; the agent in the guest or on
 * the remote machine for the others): refusals of a plan that cannot work
 * there, and warnings of what will fail or mislead. */
#ifndef SCHEDRIG_PREFLIGHT_H
#define SCHEDRIG_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plan.h"

/* Does pi run real-time: sched policy fifo or rr, or a driver that sets
 * SCHED_FIFO itself by a parameter (load_ops.rt_priority_param > 0,
 * cyclictest's priority)? */
bool preflight_is_rt(const struct plan_instance *pi);

/* Does any instance of p set cgroup attributes? */
bool preflight_uses_cgroup(const struct plan *p);

/* Refuse p where it would fail on every instance (after runner_init, which
 * creates the loads' cgroups):
 *   - cgroup attributes: the cpu controller cannot be enabled for the
 *     loads' cgroups (loadcg_enable_cpu says where and why);
 *   - RT loads under CONFIG_RT_GROUP_SCHED (the cpu cgroup the loads run
 *     in has cpu.rt_runtime_us): a budget of 0 there makes every
 *     sched_setscheduler to FIFO/RR fail with EPERM; and RT loads with
 *     cgroup attributes, whose own cpu-controlled groups have no RT budget.
 * Returns 0, or -1 with err saying what to do. */
int preflight_refusals(const struct plan *p, char *err, size_t errsz);

/* Print to out, one "schedrig: warning: ..." line each, what will fail for
 * lack of privilege here (without CAP_SYS_NICE: a nice below what
 * RLIMIT_NICE allows, an RT priority above RLIMIT_RTPRIO; without
 * CAP_DAC_OVERRIDE: the knobs of boot: local variants; cgroup attributes
 * without write access to the rig's cgroup). Returns how many. */
size_t preflight_privilege_warnings(const struct experiment *e, const struct plan *p, FILE *out);

/* When loads of one cell run at different nice values (unset: inherited,
 * counted as 0), the first such cell's loads and values, e.g. "cell
 * default: hackbench nice=19, cyclictest nice=0", into detail; false when
 * every cell's loads agree. Autogroup puts each session in a group of its
 * own, and nice only weighs tasks of one group. */
bool preflight_nice_differs(const struct plan *p, char *detail, size_t size);

#endif
