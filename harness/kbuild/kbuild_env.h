/* The environment of every program a kernel build runs (kbuild_run.h):
 * scrubbed, written down, and keyed where it changes the output.
 *
 * Nothing of the rig's environment reaches make but what is listed here:
 *   keyed (kbuild_inputs.h: the env lines of key.txt):
 *     PATH=KBUILD_PATH, LC_ALL=C, TZ=UTC (fixed values: the toolchain found
 *     in that PATH is keyed too, kbuild_tools.h)
 *   derived from the key, so equal keys give equal images
 *   (Documentation/kbuild/reproducible-builds.rst): KBUILD_BUILD_TIMESTAMP,
 *   KBUILD_BUILD_USER, KBUILD_BUILD_HOST, KBUILD_BUILD_VERSION and
 *   SOURCE_DATE_EPOCH (kbuild_env_repro)
 *   passed, not keyed (where caches live; they do not change what is
 *   built): HOME, CCACHE_DIR, CCACHE_DISABLE; the rig's own CCACHE_BASEDIR,
 *   CCACHE_NOHASHDIR and CCACHE_SLOPPINESS (kbuild_make.h)
 * A variable of the rig's environment that kbuild reads (ARCH, CC, KCFLAGS,
 * LLVM, LOCALVERSION, KBUILD_*, KCONFIG_* and the rest of
 * Documentation/kbuild/kbuild.rst's list, kbuild_env_refused) is refused
 * before anything runs: what changes a kernel belongs in its kernels:
 * entry (make_args:), where the key and the provenance see it, not in a
 * shell's state that the next run may not have. Every other variable is
 * dropped (an enclosing make's MAKEFLAGS with its command-line variables
 * too). */
#ifndef SCHEDRIG_KBUILD_ENV_H
#define SCHEDRIG_KBUILD_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* The PATH of every program of a build. */
#define KBUILD_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* Is NAME a variable kbuild or its kconfig read from the environment? */
bool kbuild_env_refused(const char *name);

/* The first variable of the rig's environment that kbuild_env_refused
 * names: -1 with "environment variable KCFLAGS=-O3 is set: a kernel build
 * does not take it from the environment (the build key would not see it);
 * write it in the kernels: entry as make_args: [\"KCFLAGS=-O3\"], or
 * unset it" in err; 0 when there is none. */
int kbuild_env_check(char *err, size_t errsz);

/* The keyed variables (NAME=VALUE, in order) appended to keyed, those
 * passed but not keyed to passed. */
void kbuild_env_base(struct argv *keyed, struct argv *passed);

/* The reproducibility variables of the build with key (64 hex digits),
 * appended to out: KBUILD_BUILD_TIMESTAMP and SOURCE_DATE_EPOCH fixed
 * (2025-01-01 00:00:00 UTC), KBUILD_BUILD_USER=schedrig,
 * KBUILD_BUILD_HOST=k + the key's first 12 digits (so /proc/version of the
 * booted kernel names its build), KBUILD_BUILD_VERSION=1. */
void kbuild_env_repro(const char *key, struct argv *out);

#endif
