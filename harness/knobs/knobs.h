/* harness/knobs/: scheduler knobs (sysctl, debugfs, sched_features,
 * autogroup) applied with a crash-safe journal: knobs (apply, restore,
 * probe, the host-wide lock), knob_journal (the journal's rows),
 * knob_pending (the record a killed run leaves for restore). Which files
 * are knobs and how one is read and written is below, in harness/sched/
 * (knob_paths.h, knob_io.h).
 */

/* Scheduler knobs of a variant: sysctl (/proc/sys), debugfs sched/ tunables,
 * sched_features and autogroup, applied with a crash-safe restore journal.
 *
 * Every change goes: read the OLD value -> journal it (callback) -> write the
 * requested value -> READ BACK -> journal the applied value. Restoring writes
 * the old values back in reverse order. The journal is a set of callbacks so
 * the host can journal to SQLite (store_knob_*) and a guest agent to memory or
 * stdout; what a journal entry needs to be restored later is only (path,
 * old_value): write old_value to path (knob_write_verify).
 *
 * Order of application: autogroup (= sysctl kernel.sched_autogroup_enabled),
 * sysctl in config order, debugfs in config order, sched_features in config
 * order (each feature is one write to sched/features).
 *
 * Files:
 *   sysctl kernel.sched_autogroup_enabled (dotted) or kernel/sched_autogroup_enabled
 *     (slashed) -> /proc/sys/kernel/sched_autogroup_enabled, read as sysctl(8)
 *     reads a key (procps slashdot): the first separator separates, and in a
 *     dotted key a '/' stands for a dot inside a name
 *     (net.ipv4.conf.eth0/100.rp_filter = net/ipv4/conf/eth0.100/rp_filter)
 *   debugfs base_slice_ns (or sched/base_slice_ns) -> /sys/kernel/debug/sched/base_slice_ns
 *   sched_features NO_PLACE_LAG -> "NO_PLACE_LAG" written to /sys/kernel/debug/sched/features;
 *     the current state is read from the same file, where each feature is listed
 *     as NAME (on) or NO_NAME (off). The journalled old value is that token.
 *   sysfs kernel/mm/transparent_hugepage/enabled -> /sys/kernel/mm/transparent_hugepage/enabled
 *     (host: settings, harness/host/hostset.h: THP enabled and defrag, SMT control,
 *     cpufreq boost, intel_pstate no_turbo, a cpufreq policy's scaling_governor; no
 *     other file): a file that lists its choices with the current one in brackets
 *     ("always [madvise] never") reads as that one
 *   irq 24 -> /proc/irq/24/smp_affinity_list (a CPU list); irq default ->
 *     /proc/irq/default_smp_affinity (a hex mask, compared as a number)
 * debugfs is mounted (mount -t debugfs none /sys/kernel/debug) when a debugfs
 * knob needs it and is not mounted; knobs_restore unmounts it again only if
 * this process mounted it.
 */
#ifndef SCHEDRIG_KNOBS_H
#define SCHEDRIG_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "knob_io.h"
#include "knob_paths.h"
#include "knob_pending.h"

/* One knob change. Strings are owned by the knob_state (or, in callbacks,
 * valid only during the call). */
struct knob_entry {
	int seq;               /* 0-based order of application */
	const char *kind;      /* "sysctl" | "debugfs" | "sched_features" | "sysfs" | "irq" */
	char *name;            /* as in the config: kernel.sched_autogroup_enabled,
				* base_slice_ns, NO_PLACE_LAG */
	char *path;            /* absolute file written */
	char *old_value;       /* read before writing (trimmed); a feature: NAME or NO_NAME */
	char *requested_value; /* written */
	char *applied_value;   /* read back after writing; NULL until then */
	bool changed;          /* the write succeeded: restore must write old_value */
	bool restored;
	const char *host;      /* NULL: this machine. Else the machine the knob lives
				* on as the journal records it, e.g. "guest:v61"
				* (KNOB_HOST_GUEST_PREFIX, knob_journal.h) for a knob
				* a qemu guest's agent changed: never written here */
};

/* Where changes are journalled. Each callback returns 0, or -1 with a message
 * in err; NULL callbacks are skipped.
 *   record:   before the knob is written (old, requested known, applied NULL).
 *             A failure here means nothing is written: apply stops and restores.
 *   applied:  after the write, with applied_value as read back (also when it
 *             differs from requested: the knob changed and will be restored).
 *   restored: after old_value was written back and read back equal, or when
 *             the write had failed so nothing changed. */
struct knob_journal_ops {
	int (*record)(void *ctx, const struct knob_entry *e, char *err, size_t errsz);
	int (*applied)(void *ctx, const struct knob_entry *e, char *err, size_t errsz);
	int (*restored)(void *ctx, const struct knob_entry *e, char *err, size_t errsz);
	void *ctx;
};

/* The changes knobs_apply made, in order of application. */
struct knob_state {
	struct knob_entry *entries;
	size_t n;
	struct argv skipped;   /* optional requests the kernel refused (knob_request) */
	bool mounted_debugfs;  /* this process mounted debugfs: unmount on restore */
	int lock_fd;           /* the host-wide knob lock, held until restored; -1 none */
};

/* Number of knob changes v asks for (0: knobs_apply changes nothing). */
size_t knobs_count(const struct cfg_variant *v);

/* One knob change asked for: kind and name as knob_name_check takes them,
 * the value to write. optional: a write the kernel refuses (an IRQ it will
 * not move: EIO) is no failure; the change is skipped and said in
 * knob_state.skipped. Strings borrowed. */
struct knob_request {
	const char *kind, *name, *value;
	bool optional;
};

/* The knob requests of v in order of application (above), into req (room
 * for knobs_count(v)); returns their number. */
size_t knobs_requests(const struct cfg_variant *v, struct knob_request *req);

/* knobs_apply for a list of requests (v's, then host: settings'). */
int knobs_apply_requests(const struct knob_request *req, size_t n,
			 const struct knob_journal_ops *journal, struct knob_state **out, char *err,
			 size_t errsz);

/* knobs_probe for a list of requests. */
int knobs_probe_requests(const struct knob_request *req, size_t n, struct argv *problems);

/* Apply every knob of v (order above), journalling through journal (may be
 * NULL). Returns 0 with *out (free with knobs_restore, then knobs_free), or -1
 * with err after restoring whatever it had changed; *out is then NULL.
 * Errors name the file and the reason, e.g.
 *   "/sys/kernel/debug/sched/features: Operation not permitted (the kernel is locked down?)"
 *   "this kernel (6.1.0) has no sched_feature PLACE_LAG"
 *   "/proc/sys/kernel/x: wrote '0', read back '1'" */
/* knobs_apply takes the host-wide knob lock (knobs_lock) before changing
 * anything and knobs_restore releases it: two runs changing knobs at once
 * would each journal the other's value as "old" and leave it behind. A held
 * lock is an error naming the holder's pid, and so is a host-wide record of
 * changes a killed rig left (knob_pending_check, knob_pending.h). */
int knobs_apply(const struct cfg_variant *v, const struct knob_journal_ops *journal,
		struct knob_state **out, char *err, size_t errsz);

/* Restore every changed knob of st, newest first, journalling each through
 * journal->restored; goes on after a failure. Unmounts debugfs if
 * knobs_apply mounted it. Returns 0 when all are restored, or -1 with the
 * first failure in err. st may be NULL (nothing to do). */
int knobs_restore(struct knob_state *st, const struct knob_journal_ops *journal, char *err,
		  size_t errsz);

/* Check, changing nothing, that every knob of v could be applied here:
 * its file exists and reads (for a feature: this kernel has it) and is
 * writable; debugfs is mounted for the check when it is not, and unmounted
 * again. Appends one message per knob that could not (the knobs_apply
 * wording: "/sys/kernel/debug/sched/features: Operation not permitted (the
 * kernel is locked down?)") to problems; returns their number. */
int knobs_probe(const struct cfg_variant *v, struct argv *problems);

/* Free st (does not restore). NULL is fine. */
void knobs_free(struct knob_state *st);

/* Free the strings of the n entries of v, then v itself (knob changes kept
 * outside a knob_state, e.g. those an agent reported). */
void knob_entries_free(struct knob_entry *v, size_t n);

/* Take the host-wide knob lock (flock LOCK_EX on knobs_lock_dir()/
 * schedrig-knobs.lock; this pid is written into the file). A moment's shared
 * hold (knobs_host_clean) is waited out, up to half a second. Returns the
 * fd (close it to release), or -1 with err naming the holder's pid. */
int knobs_lock(char *err, size_t errsz);

/* May a run measure, or change knobs, on this machine now? 0 when no rig has
 * knobs changed; else -1 with err: a rig holds the knob lock (it is changing
 * knobs now: its pid), or the pending record names a run that left changes
 * behind (knob_pending_check: its database and the restore command). */
int knobs_host_clean(char *err, size_t errsz);

#endif
