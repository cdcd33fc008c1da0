/* The revision of each variant's kernel, recorded when a run begins
 * (store_revision.h): what schedrig track orders a config's history by.
 * A kernel built from a git tree has its revision recorded by the build
 * (runbuild.h: commit and git describe); here the others: a kernel: that
 * is a Debian package (a package name or a linux-image .deb: the
 * package's name and version, guest_kernel_package) and, for every other
 * variant, the run's --revision label when it was given. */
#ifndef SCHEDRIG_REVISIONS_H
#define SCHEDRIG_REVISIONS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "store.h"

/* The longest --revision label, in bytes. */
#define REVISION_LABEL_MAX 128

/* Is text a --revision label: 1..REVISION_LABEL_MAX bytes of valid UTF-8
 * without control characters (no newline)? */
int revision_label_ok(const char *text);

/* Record the revisions of e's variants (only when NULL, else only that
 * one) in run run_id that have none yet: package kernels their package's
 * version (none when its .deb cannot be read: booting it fails and says
 * why), the others label (NULL: none). 0, or -1 with err (the database). */
int revisions_record(struct store *st, int64_t run_id, const struct experiment *e,
		     const char *only, const char *label, char *err, size_t errsz);

#endif
