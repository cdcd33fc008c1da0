/* A YAML document loaded with libyaml's document API, with the checks YAML
 * itself leaves to the application: duplicate mapping keys are errors, `<<`
 * merge keys are expanded (an explicit key overrides a merged one), nesting
 * depth is bounded. Every node keeps its source position for
 * `file:line:col: message` errors. */
#ifndef SCHEDRIG_YAMLNODE_H
#define SCHEDRIG_YAMLNODE_H

#include <stddef.h>

enum ynode_kind { YNODE_SCALAR, YNODE_SEQUENCE, YNODE_MAPPING };

struct ynode;

/* A mapping entry: key text and the value node, in document order. */
struct ypair {
	const char *key;
	int key_line, key_col;
	const struct ynode *value;
};

struct ynode {
	enum ynode_kind kind;
	int line, col;            /* 1-based start of the node */
	const char *text;         /* SCALAR: the value exactly as written (plain,
				     quoted or block), never converted */
	int quoted;               /* SCALAR: 1 when written in quotes or as a block */
	size_t n;                 /* SEQUENCE: items; MAPPING: pairs */
	const struct ynode **items;
	struct ypair *pairs;
};

struct ydoc;

/* Parse len bytes of YAML text. name is used in messages (a file path).
 * Returns the document, or NULL with "name:line:col: message" in err. An empty
 * document, or one holding no mapping at the top, is an error. */
struct ydoc *ydoc_parse(const char *name, const char *text, size_t len, char *err, size_t errsz);
/* The top-level node (a mapping). */
const struct ynode *ydoc_root(const struct ydoc *d);
void ydoc_free(struct ydoc *d);

/* The value of key in mapping m, or NULL. */
const struct ynode *ynode_get(const struct ynode *m, const char *key);
/* Human name of a node kind: "a scalar", "a list", "a mapping". */
const char *ynode_kind_name(enum ynode_kind k);

#endif
