/* The patch-prefix provider of bisections (bisect_series.h), for kernels
 * built from a tree + a patch series (the kernels: of a config):
 *
 *   kernels:
 *     base:   {source: linux-source-6.12, config: [tinyconfig, guest]}
 *     series: {base: base, patches: [configs/patches/my-series/]}
 *   variants:
 *     - {name: v6.12,        boot: qemu, kernel: {build: base}}
 *     - {name: v6.12-series, boot: qemu, kernel: {build: series}}
 *
 * schedrig bisect CONFIG --good v6.12 --bad v6.12-series: the series beyond
 * good is the patches of the builds from good's build (exclusive) to bad's
 * (inclusive) along base:, or, for two builds that are not one another's
 * base, the rest of bad's full patch list after good's (same source: and
 * config:, good's full list a prefix of bad's). Point k (0 < k < N) is the
 * good variant with kernel: {build: GOOD-pK}, a build added to kernels: as
 * {base: GOOD's build, patches: [the first k patches]} (a chain of such
 * builds when the patches come from entries with different patch_fuzz:,
 * each run of one fuzz in a build of its own); points 0 and N are the two
 * variants as written. A build between good's and bad's that sets
 * source:, commit:, config: or make_args: of its own is refused: its
 * points would not be good's build plus patches. The builds themselves (and their cache) are
 * the kernel-build code's; this file only writes configs.
 *
 * The patch list entries (a file, a directory) are expanded by a
 * bisect_expand_fn: bisect_patch_files, the kernel builds' own expansion
 * (kbuild_series.h), with each patch in a file of its own. */
#ifndef SCHEDRIG_BISECT_PATCHES_H
#define SCHEDRIG_BISECT_PATCHES_H

#include <stddef.h>

#include "bisect_config.h"
#include "yamlnode.h"

/* One patch of an expanded series. */
struct bisect_patch {
	char *file;      /* a file holding this one patch, usable as a patches: entry */
	char *origin;    /* the entry it came from, as written (a file, DIR/NAME, MBOX#N) */
	char *subject;   /* its Subject: without "[PATCH n/m] ", or "" */
	int fuzz;        /* the patch_fuzz: of the kernels: entry that lists it */
};

struct bisect_patch_list {
	struct bisect_patch *p;
	size_t n;
};

void bisect_patch_list_add(struct bisect_patch_list *l, const char *file, const char *origin,
			   const char *subject);
void bisect_patch_list_free(struct bisect_patch_list *l);

/* Expand one patches: entry (node as written in the config at path) into
 * out, in application order. 0, or -1 with "path:line:col: message". */
typedef int (*bisect_expand_fn)(const char *path, const struct ynode *entry,
				struct bisect_patch_list *out, char *err, size_t errsz);

/* entry expanded as kernels: patches: expands it (kseries_add: a file, or
 * a directory's patch files in name order), each patch with its file and
 * its subject without "[PATCH n/m]". A file holding several patches (an
 * mbox) is an error: a point names its first k patches by file, so each
 * must be a file of its own; the message says how to split it. */
int bisect_patch_files(const char *path, const struct ynode *entry,
		       struct bisect_patch_list *out, char *err, size_t errsz);

/* The series good..bad of builds (above). 0; 1 when neither variant has
 * kernel: {build: NAME} (out untouched, no message); -1 with err when one
 * has and the other has not, or the builds are not one source with patch
 * lists a prefix of one another (the message says which condition
 * failed; good's the longer, the series the wrong way round: "the good
 * end must be the shorter patch list", with the order that works), or the
 * variants differ in more than name: and kernel:. */
int bisect_patch_series(const char *path, const struct ynode *root, const char *good,
			const char *bad, bisect_expand_fn expand, struct bisect_series *out,
			char *err, size_t errsz);

#endif
