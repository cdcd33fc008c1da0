/* A variant's host: settings (config.h struct cfg_host) where its kernel
 * runs: checked, applied with its knobs under one host-wide knob lock and
 * journal, read back, held for the variant's whole run, and restored.
 *
 *   governor            every cpufreq policy's scaling_governor (sysfs
 *                       devices/system/cpu/cpufreq/policyN/scaling_governor),
 *                       the governor among its scaling_available_governors
 *   boost               cpufreq/boost (1 on), else intel_pstate/no_turbo (1 off)
 *   smt                 devices/system/cpu/smt/control: on | off (siblings go
 *                       offline)
 *   thp                 kernel/mm/transparent_hugepage/enabled
 *   numa_balancing      sysctl kernel.numa_balancing: 1 | 0
 *   irq_affinity        every /proc/irq/N/smp_affinity_list (an IRQ the kernel
 *                       will not move is skipped and said; none moving is a
 *                       failure) and /proc/irq/default_smp_affinity, to the
 *                       list (or housekeeping_cpus)
 *   cpu_dma_latency_us  written to /dev/cpu_dma_latency and the file held open
 *                       until the restore: the kernel keeps the request while
 *                       it is open and drops it when it is closed, also when
 *                       the process dies (Documentation/power/pm_qos_interface.rst),
 *                       so a kill -9 leaves nothing to restore; read back: the
 *                       latency in force must be at most the request
 *   housekeeping_cpus   this process (the rig, or its agent, and with it its
 *                       monitors) pinned there (sched_setaffinity; its old
 *                       affinity back at the restore); hostset_load_cpus: the
 *                       other online CPUs, for loads without sched: cpus
 * The knob-backed ones (all but the last two) are journalled before each
 * change (knobs.h: kinds sysfs, irq, sysctl), so schedrig restore puts
 * them back after a kill -9. Order: the variant's knobs, then governor,
 * boost, smt, thp, numa_balancing, irq_affinity, then the latency request,
 * then the pinning. Nothing is half-applied: everything is checked first
 * (hostset_probe), and a failure on the way restores what was changed. */
#ifndef SCHEDRIG_HOSTSET_H
#define SCHEDRIG_HOSTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "knobs.h"
#include "util.h"

/* What hostset_apply changed and holds. */
struct hostset {
	struct knob_state *knobs;  /* the variant's knobs and the knob-backed settings */
	int dma_fd;                /* /dev/cpu_dma_latency held open; -1 none */
	bool pinned;               /* this process's affinity changed ... */
	void *old_affinity;        /* ... from this cpu_set_t (malloc'd) */
	char *load_cpus;           /* online CPUs minus housekeeping_cpus; NULL none */
	struct argv notes;         /* what was skipped, and why ("irq_affinity: IRQ 36: ...") */
};

/* Does v ask for knobs or host: settings (else hostset_apply changes
 * nothing)? */
bool hostset_any(const struct cfg_variant *v);

/* Check, changing nothing, that v's knobs (knobs_probe) and host: settings
 * can be applied on this machine: each setting's file exists and is
 * writable, the governor is available, SMT is controllable (not
 * notsupported), the CPU lists name online CPUs and housekeeping_cpus
 * leaves the loads some. One message per problem, naming the setting and
 * the file: "host: governor: /sys/devices/system/cpu/cpufreq/policy* is
 * missing: this machine has no cpufreq". Returns their number. */
int hostset_probe(const struct cfg_variant *v, struct argv *problems);

/* Apply v's knobs and host: settings (order above), journalling every
 * knob-backed change through journal (may be NULL). 0 with *out (restore
 * with hostset_restore, then hostset_free), or -1 with err after putting
 * back whatever it changed; *out is then NULL. */
int hostset_apply(const struct cfg_variant *v, const struct knob_journal_ops *journal,
		  struct hostset **out, char *err, size_t errsz);

/* The CPUs loads get when their sched: sets no cpus (housekeeping_cpus
 * set): a CPU list, or NULL. */
const char *hostset_load_cpus(const struct hostset *hs);

/* How many knob journal rows hs made: the seq of the next change
 * journalled after them (a trace instance, trace_knob.h). 0 when none, and
 * then hs holds no knob lock either. hs may be NULL. */
int hostset_journal_rows(const struct hostset *hs);

/* Undo hs newest first: this process's affinity, the latency request, the
 * knobs (knobs_restore, journalled). Goes on after a failure. 0, or -1
 * with the first failure in err. hs may be NULL. */
int hostset_restore(struct hostset *hs, const struct knob_journal_ops *journal, char *err,
		    size_t errsz);

void hostset_free(struct hostset *hs);

/* Tests: the CPU latency device (NULL: /dev/cpu_dma_latency). */
void hostset_set_dma_latency_path(const char *path);

#endif
