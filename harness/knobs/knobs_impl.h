/* What the knob files (knobs.c, knob_paths.c, knob_io.c) share and
 * nothing else uses: the file of a knob, sched_features tokens, and the
 * reads and writes knobs_apply and knob_write_verify are made of. */
#ifndef SCHEDRIG_KNOBS_IMPL_H
#define SCHEDRIG_KNOBS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

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

/* The running kernel's release (uname -r), "unknown" when uname fails. */
const char *knob_kernel_release(void);

/* Read a knob file (at most 64 KiB), trailing whitespace trimmed. Returns
 * a malloc'd string, or NULL with err and errno (ENOENT: no such file). */
char *knob_read(const char *path, char *err, size_t errsz);

/* knob_read, but a sysfs knob's file that lists its choices with the
 * current one in brackets ("always [madvise] never") reads as that one
 * ("madvise"). */
char *knob_read_value(const char *path, char *err, size_t errsz);

/* The token (NAME or NO_NAME) of feature name in the features file at
 * path, malloc'd, or NULL with err (also: this kernel has no such
 * feature). */
char *knob_read_feature(const char *path, const char *name, char *err, size_t errsz);

/* One write(2) of the whole value at offset 0, as sysctl(8) and echo(1) do
 * (O_TRUNC: proc and debugfs files ignore it), to a knob file only
 * (knob_path_check), never through a symbolic link. 0, or -1 with err. */
int knob_write(const char *path, const char *value, char *err, size_t errsz);

/* Read path back after value was written and compare (knob_write_verify's
 * rules). *back receives the read-back value (malloc'd) whenever it could
 * be read. 0 when equal, or -1 with err. */
int knob_read_back(const char *path, const char *value, char **back, char *err, size_t errsz);

#endif
