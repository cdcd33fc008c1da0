#include "ytree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

/* Every node and string made in a tree, freed together. */
struct ytree {
	void **blocks;
	size_t n, cap;
};

struct ytree *ytree_new(void)
{
	return xcalloc(1, sizeof(struct ytree));
}

static void *keep(struct ytree *t, void *p)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->blocks = xrealloc(t->blocks, t->cap * sizeof(*t->blocks));
	}
	t->blocks[t->n++] = p;
	return p;
}

void ytree_free(struct ytree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t);
}

static struct ynode *node(struct ytree *t, enum ynode_kind kind)
{
	struct ynode *n = keep(t, xcalloc(1, sizeof(*n)));
	n->kind = kind;
	n->line = n->col = 1;
	return n;
}

struct ynode *ytree_scalar(struct ytree *t, const char *text)
{
	struct ynode *n = node(t, YNODE_SCALAR);
	n->text = keep(t, xstrdup(text));
	return n;
}

struct ynode *ytree_sequence(struct ytree *t)
{
	return node(t, YNODE_SEQUENCE);
}

struct ynode *ytree_mapping(struct ytree *t)
{
	return node(t, YNODE_MAPPING);
}

struct ynode *ytree_copy(struct ytree *t, const struct ynode *m)
{
	struct ynode *n = node(t, m->kind);
	*n = *m;
	n->items = NULL;
	n->pairs = NULL;
	n->n = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->kind == YNODE_SEQUENCE)
			ytree_append(t, n, m->items[i]);
		else if (m->kind == YNODE_MAPPING)
			ytree_set(t, n, m->pairs[i].key, m->pairs[i].value);
	}
	if (m->kind == YNODE_SCALAR)
		n->text = m->text;
	return n;
}

/* A copy of the array arr of n elements of size sz with room for one more,
 * kept by the arena (the old array stays there until the tree is freed:
 * trees here are small). */
static void *grow(struct ytree *t, const void *arr, size_t n, size_t sz)
{
	void *p = keep(t, xcalloc(n + 1, sz));
	if (n)
		memcpy(p, arr, n * sz);
	return p;
}

void ytree_append(struct ytree *t, struct ynode *l, const struct ynode *item)
{
	const struct ynode **items = grow(t, l->items, l->n, sizeof(*items));
	items[l->n++] = item;
	l->items = items;
}

void ytree_set(struct ytree *t, struct ynode *m, const char *key, const struct ynode *value)
{
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->pairs[i].key, key))
			continue;
		if (value) {
			m->pairs[i].value = value;
		} else {
			memmove(&m->pairs[i], &m->pairs[i + 1], (m->n - i - 1) * sizeof(*m->pairs));
			m->n--;
		}
		return;
	}
	if (!value)
		return;
	struct ypair *pairs = grow(t, m->pairs, m->n, sizeof(*pairs));
	pairs[m->n] = (struct ypair){.key = keep(t, xstrdup(key)), .key_line = 1, .key_col = 1,
				     .value = value};
	m->pairs = pairs;
	m->n++;
}

static int emit_scalar(yaml_emitter_t *em, const char *text)
{
	yaml_event_t ev;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text),
					  1, 1, YAML_ANY_SCALAR_STYLE))
		return -1;
	return yaml_emitter_emit(em, &ev) ? 0 : -1;
}

static int emit_node(yaml_emitter_t *em, const struct ynode *n)
{
	yaml_event_t ev;
	switch (n->kind) {
	case YNODE_SCALAR:
		return emit_scalar(em, n->text);
	case YNODE_SEQUENCE:
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		for (size_t i = 0; i < n->n; i++)
			if (emit_node(em, n->items[i]))
				return -1;
		return yaml_sequence_end_event_initialize(&ev) && yaml_emitter_emit(em, &ev) ? 0 : -1;
	case YNODE_MAPPING:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		for (size_t i = 0; i < n->n; i++)
			if (emit_scalar(em, n->pairs[i].key) || emit_node(em, n->pairs[i].value))
				return -1;
		return yaml_mapping_end_event_initialize(&ev) && yaml_emitter_emit(em, &ev) ? 0 : -1;
	}
	return -1;
}

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
	buf_append(data, buffer, size);
	return 1;
}

char *ytree_emit(const struct ynode *root, char *err, size_t errsz)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	struct buf out = {0};
	int ok;

	if (!yaml_emitter_initialize(&em)) {
		snprintf(err, errsz, "cannot start the YAML emitter");
		return NULL;
	}
	yaml_emitter_set_output(&em, write_handler, &out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	     yaml_emitter_emit(&em, &ev) &&
	     yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
	     yaml_emitter_emit(&em, &ev) && emit_node(&em, root) == 0 &&
	     yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&em, &ev) &&
	     yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&em, &ev) &&
	     yaml_emitter_flush(&em);
	if (!ok) {
		snprintf(err, errsz, "cannot write YAML: %s",
			 em.problem ? em.problem : "a value YAML cannot hold");
		yaml_emitter_delete(&em);
		buf_free(&out);
		return NULL;
	}
	yaml_emitter_delete(&em);
	char *text = xstrdup(buf_str(&out));
	buf_free(&out);
	return text;
}
