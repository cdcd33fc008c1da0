/* The one way the rig runs the kernel's make (kconfig targets and the
 * build alike): `make [-jN] O=OBJ MAKE_ARGS [CC=... HOSTCC=...] TARGET` in
 * the private copy of the tree, every path absolute, in the scrubbed
 * environment of kbuild_env.h through kb_run.
 *
 * ccache: when ccache is in KBUILD_PATH and make_args set neither CC=,
 * HOSTCC= (for HOSTCC), LLVM= nor CROSS_COMPILE=, the rig adds
 * CC="ccache gcc" and HOSTCC="ccache gcc", with CCACHE_BASEDIR at the
 * build's directory (absolute: ccache refuses a relative one),
 * CCACHE_NOHASHDIR=1 (a build elsewhere hits the same entries) and
 * CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime (a hard-linked
 * tree's files have a new ctime). ccache returns what the compiler would
 * give, so whether it is used is not keyed (kbuild_tools.h keys the real
 * compiler behind it). */
#ifndef SCHEDRIG_KBUILD_MAKE_H
#define SCHEDRIG_KBUILD_MAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct kmake {
	const char *tree;        /* absolute: the private copy of the source */
	const char *obj;         /* absolute: TREE/KBUILD_OBJ_DIR (make O=); NULL:
				  * make in the tree itself (mrproper) */
	const struct argv *make_args; /* the kernels: entry's make_args */
	const char *basedir;     /* absolute: CCACHE_BASEDIR, the build's directory */
	const struct argv *env;  /* more NAME=VALUE (the reproducibility
				  * variables); NULL: none */
	bool jobs;               /* -jN, N the online CPUs */
	bool debug_prefix_map;   /* KCFLAGS gets -fdebug-prefix-map=OBJ=. first
				  * (Documentation/kbuild/reproducible-builds.rst:
				  * debug info names the object directory) */
	bool no_ccache;          /* leave ccache out (a cold build to verify) */
	const char *log;         /* make's output, appended; its command line first */
	void (*tick)(void *ctx);
	void *ctx;
};

/* make_args and what the rig adds to them (CC, HOSTCC with ccache; see
 * above) into out: the variables make gets, as kbuild_tools.h probes
 * them. */
void kmake_tool_args(const struct argv *make_args, bool no_ccache, struct argv *out);

/* Run make TARGET. Returns 0; -1 with "make TARGET failed (make: exit
 * status 2); the log's last lines (LOG):\n  ..." (15 lines) or "make:
 * TREE is not an absolute path" in err; KB_INTERRUPTED with
 * "interrupted by ...". */
int kmake_run(const struct kmake *m, const char *target, char *err, size_t errsz);

#endif
