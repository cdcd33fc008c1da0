/* The git-range provider of bisections (bisect_series.h), for kernels
 * built from two commits of one git repository (kernels: ... commit:):
 *
 *   kernels:
 *     good: {source: /src/linux, commit: v6.12-rc3, config: [tinyconfig, guest]}
 *     bad:  {base: good, commit: v6.12-rc4}
 *   variants:
 *     - {name: rc3, boot: qemu, kernel: {build: good}}
 *     - {name: rc4, boot: qemu, kernel: {build: bad}}
 *
 * schedrig bisect CONFIG --good rc3 --bad rc4: the series is
 * `git rev-list --first-parent GOOD..BAD`, oldest first (kgit_first_parent_range):
 * point 0 is the good variant, point k (0 < k < N) the good variant with
 * kernel: {build: GOOD-HASH12}, a build added to kernels: as {base: GOOD's
 * build, commit: HASH} (the full hash of the k-th commit), point N the bad
 * variant (BAD itself). The ends' commits are pinned to their full hashes
 * in their point configs too, so a branch that moves during a bisection
 * (or before --resume) does not change what a step builds. Each point's
 * label is "commit HASH SUBJECT", so the result names the first bad commit
 * by hash and subject.
 *
 * Both builds must be of the same source: (as written), each at a commit:
 * (the one set nearest along its base: chain by an entry that sets source:
 * or commit:, as kbuild_kernel.c takes it), with the same config:,
 * make_args: (nearest along the chain) and patches (the whole chain's),
 * and the two variants must differ only in name: and kernel:. good's
 * commit must be on bad's first-parent line (it is the first parent of the
 * oldest commit of the range): a good commit reached only through a merged
 * branch has no place in a first-parent series. git runs through
 * kbuild_git.h (spawn.h, no shell); the repository is only read. */
#ifndef SCHEDRIG_BISECT_GIT_H
#define SCHEDRIG_BISECT_GIT_H

#include <stddef.h>

#include "bisect_config.h"
#include "yamlnode.h"

/* The series good..bad of builds at two commits (above), the config tree
 * root read from path. 0; 1 when this is not a git range (a variant that
 * is not a kernel: {build: NAME} one, neither build at a commit:, or both
 * at the same commit: out untouched, no message: another provider
 * decides); -1 with err saying why a range cannot be bisected (one build
 * without commit:, different sources, a commit that does not resolve,
 * builds or variants that differ in more than the commit, good not on
 * bad's first-parent line, no commit between them). */
int bisect_git_series(const char *path, const struct ynode *root, const char *good,
		      const char *bad, struct bisect_series *out, char *err, size_t errsz);

/* For --resume of a git range: the bisection's config text (read from
 * path) with its kernels: replaced by those of good_config, the stored
 * config of the range's point 0, where both ends' commit: are pinned to
 * full hashes; bisect_series_build of it makes the series again as the
 * bisection began, however the refs moved since. The two kernels: must
 * have the same entries, differing in commit: values only: anything else
 * is an error (a stored point config not made from this config).
 * malloc'd YAML text, or NULL with err. */
char *bisect_git_pinned_config(const char *path, const char *text, const char *good_config,
			       char *err, size_t errsz);

#endif
