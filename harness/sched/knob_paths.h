/* Which files are scheduler knobs (knob_paths.c): the roots (/proc/sys,
 * debugfs), the names a config may give a knob and their canonical
 * spellings, the file each knob is, the rules a path read from a database
 * must pass before the rig writes it, and mounting debugfs. Setting a
 * variant's knobs, with their journal, is harness/knobs/knobs.h. */
#ifndef SCHEDRIG_KNOB_PATHS_H
#define SCHEDRIG_KNOB_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#define KNOBS_PROC_SYS "/proc/sys"
#define KNOBS_DEBUGFS "/sys/kernel/debug"
#define KNOBS_SYSFS "/sys"
#define KNOBS_PROC_IRQ "/proc/irq"

/* Is path a knob the rig sets, once symbolic links are resolved: a sysctl
 * file under /proc/sys (except those naming a program the kernel runs:
 * kernel.core_pattern, kernel.modprobe, kernel.poweroff_cmd,
 * kernel.hotplug, kernel.usermodehelper.*, fs.binfmt_misc.*), a debugfs
 * file under sched/, or the older debugfs sched_features (the roots of
 * knobs_set_roots)? Every knob write checks this (knobs_apply,
 * knob_write_verify, so schedrig restore): a path read from a database is
 * never trusted. 0 with the resolved path in real, or -1 with err naming
 * path and where it leads. */
int knob_path_check(const char *path, char *real, size_t realsz, char *err, size_t errsz);

/* Is name one a config may give a knob of kind ("sysctl", "debugfs",
 * "sched_features"), so one the rig would write? sysctl: names of
 * [A-Za-z0-9_-] separated by '.', or by '/' with dots allowed inside a
 * name (a VLAN's eth0.100), each name non-empty and no "." or ".." (so no
 * kernel//core_pattern, kernel..core_pattern, trailing separator, ./ or
 * ../), and, once normalised to its path below /proc/sys, not one that
 * names a program (knob_path_check's list: kernel/core_pattern is
 * kernel.core_pattern). debugfs: [sched/]NAME[/NAME...] of [A-Za-z0-9_-],
 * not features (sched_features: sets it) nor preempt (reads back a list,
 * the mode in parentheses): a debugfs knob's file reads back what was
 * written. sched_features: [A-Z0-9_]+ (NAME or NO_NAME). 0, or -1 with err
 * saying why, e.g. "sysctl: kernel.core_pattern names a program the kernel runs
 * as root, not a scheduler knob: schedrig never writes it". */
int knob_name_check(const char *kind, const char *name, char *err, size_t errsz);

/* The knob a name of kind stands for, the same for each of its spellings
 * (call after knob_name_check accepted it), malloc'd: sysctl: its path
 * below /proc/sys (kernel.sched_autogroup_enabled and
 * kernel/sched_autogroup_enabled: kernel/sched_autogroup_enabled);
 * debugfs: below sched/ (sched/base_slice_ns: base_slice_ns);
 * sched_features: the feature (NO_PLACE_LAG: PLACE_LAG). */
char *knob_canonical(const char *kind, const char *name);

/* May schedrig restore write value to path for a journal row of kind and
 * name (a database is not trusted)? Only when name passes knob_name_check
 * and path resolves (symbolic links followed) to exactly the file the rig
 * itself derives from kind and name (sysctl: /proc/sys/..., debugfs:
 * DEBUGFS/sched/..., sched_features: the features file), and, for a
 * sched_feature, value is that feature's NAME or NO_NAME (a file this
 * kernel lacks: path must be it, as the rig spells it). 0 with that derived
 * file in derived (the caller writes there, never to path: a symbolic link
 * swapped in after the check redirects nothing; the write still checks
 * knob_path_check), or -1 with err saying why, ending in "refused". */
int knob_row_check(const char *kind, const char *name, const char *path, const char *value,
		   char *derived, size_t derivedsz, char *err, size_t errsz);

/* true when path lies under the debugfs root (it needs debugfs mounted). */
bool knob_path_is_debugfs(const char *path);

/* true when path lies under the sysfs root (a host setting's file). */
bool knob_path_is_sysfs(const char *path);

/* true when path is the IRQ root's default_smp_affinity (a hex mask). */
bool knob_path_is_irq_mask(const char *path);

/* Mount debugfs at its root unless it is mounted; *mounted tells whether
 * this call mounted it. Returns 0 or -1 with err. */
int knobs_debugfs_mount(bool *mounted, char *err, size_t errsz);

/* Unmount debugfs (only call when knobs_debugfs_mount mounted it). */
void knobs_debugfs_unmount(void);

/* Tests: use these directories instead of /proc/sys and /sys/kernel/debug
 * (NULL: the real one). With a debugfs override nothing is mounted. */
void knobs_set_roots(const char *proc_sys, const char *debugfs);

/* Tests: use these directories instead of /sys and /proc/irq (NULL: the
 * real one), and what they are now. */
void knobs_set_host_roots(const char *sys, const char *irq);
const char *knobs_sysfs_root(void);
const char *knobs_irq_root(void);

/* fmt (printf) into err. */
void knob_errorf(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The file the rig writes for the knob of kind ("sysctl", "debugfs",
 * "sched_features") called name (malloc'd): under the roots of
 * knobs_set_roots; the features file is sched/features (5.13+), or the
 * older top-level sched_features where only that exists. */
char *knob_file(const char *kind, const char *name);

/* A sched_features file: DEBUGFS/sched/features (5.13+) or DEBUGFS/sched_features. */
bool knob_is_features_file(const char *path);

/* A sched_feature as a config names it: NAME or NO_NAME, [A-Z0-9_]. */
bool knob_valid_feature(const char *s);

/* The feature's name without NO_ (points into token). */
const char *knob_feature_name(const char *token);

#endif
