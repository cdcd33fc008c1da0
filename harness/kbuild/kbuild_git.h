/* What the rig asks of a git repository that a kernels: entry names with
 * commit: (and a bisection over a git range, bisect_git.h): a commit
 * resolved to its full hash, described, and the first-parent range
 * between two commits. Only read-only git commands run (rev-parse,
 * describe, rev-list; `git archive` for the tree is kbuild_source.c's),
 * each as `git -C DIR ...` from an argv through spawn.h (no shell), with
 * LC_ALL=C and GIT_TERMINAL_PROMPT=0: the user's repository, work tree
 * and index are never written. */
#ifndef SCHEDRIG_KBUILD_GIT_H
#define SCHEDRIG_KBUILD_GIT_H

#include <stddef.h>

/* A commit of a range: its full hash, its first parent's ("" for a root
 * commit) and its subject line. */
struct kgit_commit {
	char hash[41];
	char parent[41];
	char *subject;
};

struct kgit_range {
	struct kgit_commit *c;
	size_t n;
};

/* commit (a hash, tag, branch or any revision `git rev-parse` takes, not
 * beginning with '-') of the repository at dir as its full 40-hex hash
 * (`git rev-parse --verify --quiet COMMIT^{commit}`) into hash. 0, or -1
 * with "'COMMIT' is not a commit of DIR (WHY)" in err, WHY git's first
 * line of stderr or, when it said nothing, "no such revision". */
int kgit_resolve(const char *dir, const char *commit, char hash[41], char *err, size_t errsz);

/* `git describe --tags --always HASH` of dir: e.g. "v6.12-rc4-12-g1a2b3c4d"
 * (the nearest tag, the commits since, the abbreviated hash), or the
 * abbreviated hash when no tag is reachable. malloc'd; "" when git fails. */
char *kgit_describe(const char *dir, const char *hash);

/* The subject line of commit hash of dir (`git log -1 --format=%s`),
 * malloc'd; "" when git fails. */
char *kgit_subject(const char *dir, const char *hash);

/* `git rev-list --first-parent --reverse GOOD..BAD` of dir (good and bad
 * full hashes) into out, oldest first, each with its first parent and
 * subject: the commits of bad's first-parent line that good does not
 * reach, bad last. 0 (out->n may be 0), or -1 with err (git failed, or
 * printed a line that is not "HASH PARENT... SUBJECT"). Free with
 * kgit_range_free. */
int kgit_first_parent_range(const char *dir, const char *good, const char *bad,
			    struct kgit_range *out, char *err, size_t errsz);

void kgit_range_free(struct kgit_range *r);

/* The git order of commits hash[0..n) (full hashes, repeats allowed) of
 * the repository at dir: pos[i] the place of hash[i] in `git rev-list
 * --topo-order --reverse ^BASE HASH...` with BASE their merge base (`git
 * merge-base --octopus`) first, so an ancestor comes before its
 * descendants and the commits of one first-parent line are in their
 * order; equal hashes get equal places. 0, or -1 with err (a commit dir
 * lacks, commits without a common ancestor, git failing). */
int kgit_topo_order(const char *dir, char (*const hash)[41], size_t n, size_t *pos, char *err,
		    size_t errsz);

#endif
