/* Preflight: before anything runs (check-config, run --dry-run, run and
 * run --resume), each (variant, load) pair of a config is checked against
 * what that variant will have, so that a run which would throw work away
 * does not start:
 *   - every backend checks its variants (variant_backend.preflight): the
 *     running kernel's latency_nice support, debugfs and sysctl knobs and
 *     the privileges of this process (boot: local); the tools and files a
 *     guest gets packed, and the kernel package's config and BTF for
 *     latency_nice, scheduler features and the modules the guest needs
 *     (boot: qemu, and boot: lava, which also refuses a load that needs a
 *     scratch disk or this machine's /usr); what can only be known there
 *     (boot: ssh);
 *   - the plan: a background load whose timeout_s ends before the
 *     measured loads start, and background loads that yield no samples
 *     when the stop cuts them.
 * A refusal means the config cannot work on that variant (exit 2, nothing
 * run); a warning, that something cannot be known before the variant runs;
 * a note, how a load will behave. Messages read "variant V, load L: ..."
 * (or "variant V: ..." for the variant's own knobs and kernel). This file
 * collects them and holds the checks backends share; running every check
 * is harness/run/preflight_check.h.
 *
 * Where the loads run, once the loads' cgroups exist (the rig for boot:
 * local, the agent in a guest or on a remote machine): preflight_refusals
 * refuses what would fail on every instance there (cgroup attributes, RT
 * loads under CONFIG_RT_GROUP_SCHED). */
#ifndef SCHEDRIG_PREFLIGHT_H
#define SCHEDRIG_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "plan.h"
#include "util.h"

struct preflight {
	const struct experiment *e;
	const struct plan *p;
	/* run: a backend may fetch what it checks (a kernel package, into
	 * the rig's cache: cache.h); check-config and --dry-run: never, and
	 * what is not fetched yet is a warning. */
	bool fetch;
	struct buf refusals, warnings, notes; /* one message a line */
	size_t n_refusals;
};

/* slice_us (the EEVDF custom slice, sched_runtime of fair policies since
 * Linux 6.12: Documentation/scheduler/sched-eevdf.rst) on variant v whose
 * kernel is release (uname -r form, e.g. "6.1.0-28-amd64"): every load that
 * requests it is refused when release is before 6.12 ("slice_us: kernel
 * 6.1.0-28-amd64 does not support slice_us (custom slices came in
 * 6.12)"), warned about when release is NULL, "" or not a version. */
void preflight_check_slice(struct preflight *pf, const struct cfg_variant *v,
			   const char *release);

/* A refusal, warning or note about variant (NULL: the plan as a whole)
 * and load (NULL: the variant itself); printf-style message. */
void preflight_refuse(struct preflight *pf, const char *variant, const char *load,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A refusal of variant's setting at the config's line and col (its key):
 * printed "CONFIG:LINE:COL: variant V: MESSAGE"; line 0: as
 * preflight_refuse. */
void preflight_refuse_at(struct preflight *pf, int line, int col, const char *variant,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void preflight_warn(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void preflight_note(struct preflight *pf, const char *variant, const char *load,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Print refusals as "CONFIG: MESSAGE" (at a position "CONFIG:LINE:COL:
 * MESSAGE"), then warnings as "CONFIG: warning:
 * MESSAGE", to problems; notes as "CONFIG: note: MESSAGE" to notes (NULL:
 * not printed). */
void preflight_print(const struct preflight *pf, FILE *problems, FILE *notes);

void preflight_free(struct preflight *pf);

/* Helpers for the backends' checks. */

/* Refuse, for a variant whose loads run as this process's children
 * (boot: local), each load requesting what needs CAP_SYS_NICE when the
 * process lacks it and its RLIMIT_NICE / RLIMIT_RTPRIO do not allow it
 * either (a nice below 20 - RLIMIT_NICE and below this process's own, a
 * real-time priority above RLIMIT_RTPRIO, given by policy or by a driver's
 * parameter: preflight_is_rt; a negative latency_nice); knobs when it is
 * not root; cgroup attributes without write access to the rig's cpu
 * cgroup. */
void preflight_privileges(struct preflight *pf, const struct cfg_variant *v);

/* For a variant whose loads run in this machine's cgroups (boot: local):
 * refuse each load that sets cgroup attributes when the cgroup v2 the rig
 * runs in offers no cpu controller (loadcg_cpu_controller), naming variant
 * and load. */
void preflight_cgroup_controller(struct preflight *pf, const struct cfg_variant *v);

/* Does pi run real-time: sched policy fifo or rr, or a driver that sets
 * SCHED_FIFO itself by a parameter (load_ops.rt_priority_param > 0,
 * cyclictest's priority)? */
bool preflight_is_rt(const struct plan_instance *pi);

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

/* When loads of one cell run at different nice values (unset: inherited,
 * counted as 0), the first such cell's loads and values, e.g. "cell
 * default: hackbench nice=19, cyclictest nice=0", into detail; false when
 * every cell's loads agree. Autogroup puts each session in a group of its
 * own, and nice only weighs tasks of one group. */
bool preflight_nice_differs(const struct plan *p, char *detail, size_t size);

#endif
