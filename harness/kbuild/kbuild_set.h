/* The kernels a set of variants needs built (kernel: {build: NAME}), each
 * built once however many variants name it, with progress on a terminal:
 * one status line redrawn in place ("\r" + text + ESC[K):
 *   building KERNEL: STEP | LAST LOG LINE | 1:23 | log PATH
 * Not a terminal: one line per step. quiet: nothing. */
#ifndef SCHEDRIG_KBUILD_SET_H
#define SCHEDRIG_KBUILD_SET_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "kbuild.h"

struct kbuild_one {
	struct kbuild b;
	int rc;          /* 0 built or cached, -1 failed (err), KB_INTERRUPTED */
	char *err;       /* why it failed ("" otherwise) */
	char *log;       /* LOG_DIR/build-NAME.log */
};

struct kbuild_set {
	struct kbuild_one *k;
	size_t n;
};

/* Build the kernels of e's variants named in only (all variants when
 * n_only is 0) into CACHE (kbuild.h), logs in log_dir, progress on f.
 * Stops at an interruption. Returns 0 when each kernel was built or found
 * cached, 1 when one failed (the others are still built), KB_INTERRUPTED
 * when interrupted. */
int kbuild_set_make(const struct experiment *e, char *const *only, size_t n_only,
		    const char *cache, const char *log_dir, FILE *f, bool quiet,
		    struct kbuild_set *set);

/* The kernel named name in set, or NULL. */
const struct kbuild_one *kbuild_set_find(const struct kbuild_set *set, const char *name);

void kbuild_set_free(struct kbuild_set *set);

#endif
