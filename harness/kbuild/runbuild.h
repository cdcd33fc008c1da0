/* schedrig run's kernel builds: before the first variant runs, every
 * kernel the variants name (kernel: {build: NAME}, kexec: {kernel: {build:
 * NAME}}) is built or found in the cache (kbuild_set.h) and recorded in
 * kernel_build (store_kbuild.h); each variant then boots its bzImage. */
#ifndef SCHEDRIG_RUNBUILD_H
#define SCHEDRIG_RUNBUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "store.h"

/* Build what e's variants need; logs in run_dir (build-NAME.log), cache in
 * RUN_ROOT/cache. A built variant gets kernel (boot: qemu) or kexec_kernel
 * (boot: ssh) set to its bzImage. A variant whose build failed gets
 * why[v] (the failure with the log's last lines and the log's path;
 * NULL for the others, free with free()); the caller records it as the
 * variant's failure. Returns 0, or -1 when interrupted (runner_
 * interrupt_signal() says by what) or when the database refused a write
 * (err). */
int runbuild_kernels(struct experiment *e, struct store *st, int64_t run_id,
		     const char *run_root, const char *run_dir, bool quiet, char **why,
		     char *err, size_t errsz);

#endif
