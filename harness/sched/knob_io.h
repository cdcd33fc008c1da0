/* Reading and writing a knob file (knob_io.c): one read of its value, one
 * write(2) of a new one, the read-back that verifies it. */
#ifndef SCHEDRIG_KNOB_IO_H
#define SCHEDRIG_KNOB_IO_H

#include <stddef.h>

/* Write value to the knob file path, read it back and compare (numbers
 * numerically, whitespace-separated fields one by one; for a sched_features
 * file: the token value must be listed). applied (may be NULL) receives the
 * read-back value. Used to restore a journal entry: knob_write_verify(path,
 * old_value). Returns 0 or -1 with err naming path and the reason. */
int knob_write_verify(const char *path, const char *value, char *applied, size_t appliedsz,
		      char *err, size_t errsz);

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
