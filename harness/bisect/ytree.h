/* Building YAML trees from parsed ones, and writing a tree back as YAML
 * text. A bisection turns each point into an ordinary config (the user's
 * config with its variants: replaced by the point's variant, say): it
 * copies the parsed tree, changes a few keys, and emits the result with
 * libyaml's emitter, so the text parses back (yamlnode.h) to the same
 * values. Nodes made here live in a struct ytree and point into the parsed
 * document they were copied from, which must outlive them. */
#ifndef SCHEDRIG_YTREE_H
#define SCHEDRIG_YTREE_H

#include <stddef.h>

#include "yamlnode.h"

struct ytree;

/* An empty tree arena; free with ytree_free (frees every node made in it). */
struct ytree *ytree_new(void);
void ytree_free(struct ytree *t);

/* A new scalar holding text (copied), written plain where YAML allows it. */
struct ynode *ytree_scalar(struct ytree *t, const char *text);
/* A new, empty list or mapping. */
struct ynode *ytree_sequence(struct ytree *t);
struct ynode *ytree_mapping(struct ytree *t);
/* A shallow copy of mapping or list m: its own pairs/items, the same values
 * (change the copy's keys without touching m). */
struct ynode *ytree_copy(struct ytree *t, const struct ynode *m);
/* Append item to list l (made in t). */
void ytree_append(struct ytree *t, struct ynode *l, const struct ynode *item);
/* Set key of mapping m (made in t) to value: replaced in place when m has
 * the key, else appended; value NULL removes the key. key is copied. */
void ytree_set(struct ytree *t, struct ynode *m, const char *key, const struct ynode *value);

/* The tree under root as one YAML document in block style (flow style
 * never, so plain scalars written in a flow mapping stay plain), through
 * libyaml's emitter. Returns the malloc'd text, or NULL with a message in
 * err (a scalar holding a NUL or invalid UTF-8). */
char *ytree_emit(const struct ynode *root, char *err, size_t errsz);

#endif
