/* The kernels: of a config as the bisect providers of built kernels read
 * them (bisect_patches.c: a patch series, bisect_git.c: a git range): a
 * variant's build, an entry, its chain of base:, and whether two variants
 * differ in more than their build. Read from the YAML tree as written (the
 * config itself was checked by config_parse). */
#ifndef SCHEDRIG_BISECT_BUILDS_H
#define SCHEDRIG_BISECT_BUILDS_H

#include <stdbool.h>
#include <stddef.h>

#include "yamlnode.h"

struct ytree;

/* The longest chain of base: followed. */
#define BISECT_MAX_CHAIN 64

/* The kernels: entry named name (a mapping), or NULL. */
const struct ynode *bisect_build_node(const struct ynode *root, const char *name);

/* The build name of variant v's kernel: {build: NAME}, or NULL (v NULL
 * too). */
const char *bisect_variant_build(const struct ynode *v);

/* The chain of builds from the root build (the one without base:) to name,
 * root first, through base:, into chain (BISECT_MAX_CHAIN entries).
 * Returns its length, or 0 with "PATH: kernels: has no build 'X'" or a
 * chain too long (a loop) in err. */
size_t bisect_build_chain(const char *path, const struct ynode *root, const char *name,
			  const char **chain, char *err, size_t errsz);

/* YAML text of node n (ytree_emit), or "" for NULL: two nodes written
 * alike give the same text. malloc'd. */
char *bisect_node_text(const struct ynode *n);

/* The texts of key of every entry of chain[0..n) concatenated, root first
 * (a key an entry does not set adds ""). malloc'd. */
char *bisect_chain_text(const struct ynode *root, const char *const *chain, size_t n,
			const char *key);

/* Do variants g and b differ only in name: and kernel:? (t holds the
 * copies made to compare them.) */
bool bisect_variants_alike(struct ytree *t, const struct ynode *g, const struct ynode *b);

#endif
