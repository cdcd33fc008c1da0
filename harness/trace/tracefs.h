/* harness/trace/: scheduler traces. Capture (low: libc and harness/lib
 * only, so the agent runs it where a variant's kernel runs): tracefs (the
 * file system and its instances), trace_capture (one instance over the
 * measured window of an iteration), schedwin (the always-on schedstat
 * deltas of each load instance over that window). Analysis (above the
 * store, beside reports): trace_text (the text of a trace), trace_analysis
 * (per-load distributions), trace_perfetto (Chrome trace-event JSON),
 * trace_report (stored traces of runs into tables).
 */

/* tracefs: where it is mounted (or mounting it), the rig's instances
 * (instances/schedrig-RUN-PID: a ring buffer and event switches of their own,
 * so the rig never touches the top-level trace or another tool's), event
 * files, per-CPU buffer statistics. Source for the files:
 * Documentation/trace/ftrace.rst ("The File System", "Instances") and
 * Documentation/trace/events.rst. */
#ifndef SCHEDRIG_TRACEFS_H
#define SCHEDRIG_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every instance the rig makes is named TRACEFS_INSTANCE_PREFIX + the run's
 * id, '-' and the rig's pid (trace_variant.c). */
#define TRACEFS_INSTANCE_PREFIX "schedrig-"
/* Where tracefs is mounted when it is not mounted anywhere. */
#define TRACEFS_MOUNT_POINT "/sys/kernel/tracing"

/* The directory tracefs is mounted on (the first tracefs line of
 * /proc/self/mounts: /sys/kernel/tracing, or debugfs' tracing/), into
 * root. When none is mounted and mount_it: mount tracefs on
 * TRACEFS_MOUNT_POINT (*mounted true: unmount it with tracefs_unmount
 * when done). 0, or -1 with err: "tracefs is not mounted and cannot be:
 * mount -t tracefs nodev /sys/kernel/tracing: Operation not permitted". */
int tracefs_root(char *root, size_t rootsz, bool mount_it, bool *mounted, char *err,
		 size_t errsz);

/* Unmount what tracefs_root mounted (lazily when busy). */
void tracefs_unmount(const char *root);

/* Is name one of the rig's instance names: TRACEFS_INSTANCE_PREFIX and
 * 1 to 55 of [A-Za-z0-9._-], not "." or ".."? */
bool tracefs_instance_name_ok(const char *name);

/* event "group:name" as its directory below root (events/group/name, or
 * in an instance instances/I/events/group/name), malloc'd. */
char *tracefs_event_dir(const char *dir, const char *event);

/* Does the kernel have event "group:name" (its directory under root's
 * events/)? 0, or -1 with err naming the missing directory, e.g.
 * "this kernel has no trace event sched:sched_foo (/sys/kernel/tracing/
 * events/sched/sched_foo is absent)". */
int tracefs_event_check(const char *root, const char *event, char *err, size_t errsz);

/* Write value to dir/file (one write, O_WRONLY|O_TRUNC). 0, or -1 with
 * err naming the file and errno. */
int tracefs_write(const char *dir, const char *file, const char *value, char *err,
		  size_t errsz);

/* Make instance name (tracefs_instance_name_ok) under root: mkdir
 * root/instances/name into path. An instance of that name that exists
 * already is an error (another rig's, or one a killed run left: schedrig
 * restore removes it). 0, or -1 with err. */
int tracefs_instance_create(const char *root, const char *name, char *path, size_t pathsz,
			    char *err, size_t errsz);

/* Take instance path down: tracing off, every event off, rmdir. An
 * instance that does not exist is fine (*existed false). 0, or -1 with
 * err (rmdir: EBUSY while a file of it is open). */
int tracefs_instance_remove(const char *path, bool *existed, char *err, size_t errsz);

/* A knob journal row of kind "trace_instance" (name, path as recorded):
 * may schedrig restore remove it? Only when name is one of the rig's
 * instance names and path is ROOT/instances/NAME for a tracefs ROOT
 * mounted now or the one the rig mounts (tracefs_root); the instance to
 * remove is then the one under the tracefs mounted now, into derived
 * (mounting tracefs if needed: *mounted). 0, or -1 with err ending in
 * "refused". */
int tracefs_row_check(const char *name, const char *path, char *derived, size_t derivedsz,
		      bool *mounted, char *err, size_t errsz);

/* Per-CPU ring buffer statistics of an instance, summed over its CPUs
 * (per_cpu/cpuN/stats): events in the buffer, overwritten before they
 * were read (overrun; overwrite mode), dropped because the buffer was
 * full (dropped events; no overwrite), read. */
struct tracefs_stats {
	uint64_t entries, overrun, dropped, read;
	int n_cpus;
};

/* Read them. 0, or -1 with err when no per_cpu/cpu0/stats reads. */
int tracefs_stats_read(const char *instance, struct tracefs_stats *st, char *err, size_t errsz);

#endif
