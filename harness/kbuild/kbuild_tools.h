/* The toolchain a kernel build uses, as the build key sees it: each
 * program make will run to compile, assemble and link (cc, hostcc, as, ld,
 * pahole, make itself), found as make finds it (make_args CC=, HOSTCC=,
 * LD=, AS=, PAHOLE=, CROSS_COMPILE=, LLVM=1 as the top Makefile reads
 * them, else gcc, as, ld, pahole in KBUILD_PATH), a ccache in front
 * ("ccache gcc", or a masquerading /usr/lib/ccache/gcc) resolved to the
 * real compiler behind it, and identified by its real path, the sha256 of
 * its bytes and of its whole version output (`-v` for a compiler: target,
 * configure options, version; `--version` for the rest). gcc's cc1 (the
 * compiler proper, `-print-prog-name=cc1`) is hashed with it.
 *
 * Not keyed: bc, flex, bison, perl, openssl (they build host tools and
 * generated headers whose content does not depend on their version), and
 * ccache's own version (it returns what the compiler gives). */
#ifndef SCHEDRIG_KBUILD_TOOLS_H
#define SCHEDRIG_KBUILD_TOOLS_H

#include <stddef.h>

/* One program of the toolchain. */
struct ktool {
	char *role;       /* "cc", "hostcc", "as", "ld", "pahole", "make" */
	char *path;       /* the real program; "" when it is not there */
	char *version;    /* its version line ("gcc version 12.2.0 (Debian
			   * 12.2.0-14)"), "" when it is not there */
	char *wrapper;    /* "ccache" when one stood in front of it, else "" */
	char sha256[65];  /* of its bytes, its version output (and cc1's
			   * bytes): what the key holds */
};

struct ktools {
	struct ktool *t;
	size_t n;
};

/* Find and identify the toolchain of a build with these make_args. log is
 * a path the version outputs are written to while they are read (removed
 * after). Never fails: a program that is not there is keyed as absent.
 * Asked again with the same make_args, the process answers what it found
 * the first time (one command, one toolchain). */
void ktools_probe(char *const *make_args, size_t n_make_args, const char *log,
		  struct ktools *out);

/* The command a make variable's value names, after a ccache wrapper
 * ("ccache gcc" gives gcc; /usr/lib/ccache/gcc, a link to ccache, gives
 * the next gcc in KBUILD_PATH) found in KBUILD_PATH and resolved
 * (realpath) into dst; wrapper set to "ccache" when there was one. 0, or
 * -1 when nothing is found. */
int ktools_resolve(const char *value, char *dst, size_t size, const char **wrapper);

void ktools_free(struct ktools *t);

#endif
