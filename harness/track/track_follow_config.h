/* The configs of track --follow (track_follow.h), made from the followed
 * config's YAML tree as written (the bisect providers' way: bisect_builds.h,
 * ytree.h): which build a step sets to a commit, a step's config, and the
 * config of the bisection of a git range between two of its commits. */
#ifndef SCHEDRIG_TRACK_FOLLOW_CONFIG_H
#define SCHEDRIG_TRACK_FOLLOW_CONFIG_H

#include <stddef.h>

/* What a followed config builds: its one variant, the build that variant
 * boots (kernel: {build: NAME}), and the entry of that build's base:
 * chain that decides its commit (the nearest, from NAME up, that sets
 * source: or commit:, as kbuild_spec.c takes it), with the chain's
 * source: as written. malloc'd strings. */
struct track_target {
	char *variant, *build, *entry, *source;
};
void track_target_free(struct track_target *t);

/* The target of the config text (path for messages), whose source must be
 * the git repository tree (the same directory, by realpath). 0, or -1
 * with err saying why the config cannot be followed (not one variant, no
 * kernel: {build: NAME}, a build of another source). */
int track_target_read(const char *path, const char *text, const char *tree,
		      struct track_target *t, char *err, size_t errsz);

/* A step's config: text with kernels: ENTRY's commit: set to hash (the
 * full hash: what the step builds does not move with a branch). malloc'd
 * YAML, or NULL with err. */
char *track_step_config(const char *path, const char *text, const struct track_target *t,
			const char *hash, char *err, size_t errsz);

/* The config of the bisection of good..bad (full hashes): text with its
 * variant replaced by two copies named VARIANT-GOOD12 and VARIANT-BAD12
 * (returned in *good_name and *bad_name, malloc'd), each booting a build
 * {base: BUILD, commit: HASH} (kernels: track-GOOD12, track-BAD12), so the
 * two builds differ in their commit only, as a git-range bisection wants
 * (bisect_git.h). malloc'd YAML, or NULL with err. */
char *track_bisect_config(const char *path, const char *text, const struct track_target *t,
			  const char *good, const char *bad, char **good_name, char **bad_name,
			  char *err, size_t errsz);

#endif
