#include "yamlnode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

#define MAX_DEPTH 64

struct ydoc {
	yaml_document_t doc;
	struct ynode *nodes;      /* one per libyaml node, index = libyaml id - 1 */
	size_t n_nodes;
	const struct ynode *root;
};

const char *ynode_kind_name(enum ynode_kind k)
{
	switch (k) {
	case YNODE_SCALAR:
		return "a scalar";
	case YNODE_SEQUENCE:
		return "a list";
	case YNODE_MAPPING:
		return "a mapping";
	}
	return "?";
}

static void node_error(char *err, size_t errsz, const char *name, int line, int col,
		       const char *msg)
{
	snprintf(err, errsz, "%s:%d:%d: %s", name, line, col, msg);
}

static void parser_error(yaml_parser_t *p, const char *name, const char *text, size_t len,
			 char *err, size_t errsz)
{
	yaml_mark_t m = p->problem_mark;
	const char *problem = p->problem ? p->problem : "invalid YAML";
	char msg[512];

	if (p->error == YAML_READER_ERROR) {
		/* A reader error has a byte offset, not a mark: count lines and
		 * characters (UTF-8 lead bytes) up to it. */
		int line = 1, col = 1;
		size_t at = p->problem_offset < len ? p->problem_offset : len;
		if (strstr(problem, "control")) {
			snprintf(msg, sizeof(msg), "control character U+%04X is not allowed",
				 (unsigned)p->problem_value);
		} else {
			/* At a bad continuation byte: back up to its lead byte. */
			if (strstr(problem, "trailing"))
				do
					at--;
				while (at > 0 && ((unsigned char)text[at] & 0xc0) == 0x80);
			snprintf(msg, sizeof(msg), "invalid UTF-8 (byte 0x%02x); a config is UTF-8 text",
				 at < len ? (unsigned char)text[at] : 0);
		}
		for (size_t i = 0; i < at; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
				col++;
			}
		}
		node_error(err, errsz, name, line, col, msg);
		return;
	}
	if (m.index < len && text[m.index] == '\t')
		snprintf(msg, sizeof(msg), "tab character where YAML needs spaces (%s)", problem);
	else if (p->context)
		snprintf(msg, sizeof(msg), "%s %s", problem, p->context);
	else
		snprintf(msg, sizeof(msg), "%s", problem);
	node_error(err, errsz, name, (int)m.line + 1, (int)m.column + 1, msg);
}

/* Fill d->nodes[i] from libyaml node i+1; mappings are built after all
 * nodes exist so merge keys can refer to any node. */
static int build(struct ydoc *d, const char *name, size_t idx, int depth, char *err, size_t errsz);

static int merge_into(struct ydoc *d, struct ynode *m, const struct ynode *src, int line, int col,
		      const char *name, char *err, size_t errsz)
{
	if (src->kind != YNODE_MAPPING) {
		node_error(err, errsz, name, line, col, "'<<' merges a mapping, or a list of mappings");
		return -1;
	}
	(void)d;
	for (size_t i = 0; i < src->n; i++) {
		bool present = false;
		for (size_t j = 0; j < m->n; j++)
			if (!strcmp(m->pairs[j].key, src->pairs[i].key))
				present = true;
		if (present)
			continue;
		m->pairs = xrealloc(m->pairs, (m->n + 1) * sizeof(*m->pairs));
		m->pairs[m->n++] = src->pairs[i];
	}
	return 0;
}

static int build_mapping(struct ydoc *d, const char *name, yaml_node_t *yn, struct ynode *m,
			 int depth, char *err, size_t errsz)
{
	yaml_node_pair_t *p;

	/* Explicit keys first, then merges, so an explicit key wins. */
	for (p = yn->data.mapping.pairs.start; p < yn->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&d->doc, p->key);
		int kl = (int)k->start_mark.line + 1, kc = (int)k->start_mark.column + 1;
		if (k->type != YAML_SCALAR_NODE) {
			node_error(err, errsz, name, kl, kc, "a mapping key must be a plain name");
			return -1;
		}
		const char *key = (const char *)k->data.scalar.value;
		if (!strcmp(key, "<<"))
			continue;
		for (size_t j = 0; j < m->n; j++) {
			if (strcmp(m->pairs[j].key, key))
				continue;
			char msg[512];
			snprintf(msg, sizeof(msg), "duplicate key '%.200s' (first at line %d)", key,
				 m->pairs[j].key_line);
			node_error(err, errsz, name, kl, kc, msg);
			return -1;
		}
		if (build(d, name, (size_t)p->value - 1, depth + 1, err, errsz))
			return -1;
		m->pairs = xrealloc(m->pairs, (m->n + 1) * sizeof(*m->pairs));
		m->pairs[m->n++] = (struct ypair){key, kl, kc, &d->nodes[p->value - 1]};
	}
	for (p = yn->data.mapping.pairs.start; p < yn->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&d->doc, p->key);
		if (strcmp((const char *)k->data.scalar.value, "<<"))
			continue;
		int kl = (int)k->start_mark.line + 1, kc = (int)k->start_mark.column + 1;
		if (build(d, name, (size_t)p->value - 1, depth + 1, err, errsz))
			return -1;
		const struct ynode *v = &d->nodes[p->value - 1];
		if (v->kind == YNODE_SEQUENCE) {
			for (size_t i = 0; i < v->n; i++)
				if (merge_into(d, m, v->items[i], kl, kc, name, err, errsz))
					return -1;
		} else if (merge_into(d, m, v, kl, kc, name, err, errsz)) {
			return -1;
		}
	}
	return 0;
}

static int build(struct ydoc *d, const char *name, size_t idx, int depth, char *err, size_t errsz)
{
	yaml_node_t *yn = yaml_document_get_node(&d->doc, (int)idx + 1);
	struct ynode *n = &d->nodes[idx];

	if (n->line)
		return 0; /* built already (an alias) */
	n->line = (int)yn->start_mark.line + 1;
	n->col = (int)yn->start_mark.column + 1;
	if (depth > MAX_DEPTH) {
		node_error(err, errsz, name, n->line, n->col, "nesting deeper than 64 levels");
		return -1;
	}
	switch (yn->type) {
	case YAML_SCALAR_NODE:
		n->kind = YNODE_SCALAR;
		n->text = (const char *)yn->data.scalar.value;
		n->quoted = yn->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		if (strlen(n->text) != yn->data.scalar.length) {
			node_error(err, errsz, name, n->line, n->col, "NUL byte in a value");
			return -1;
		}
		return 0;
	case YAML_SEQUENCE_NODE:
		n->kind = YNODE_SEQUENCE;
		for (yaml_node_item_t *it = yn->data.sequence.items.start;
		     it < yn->data.sequence.items.top; it++) {
			if (build(d, name, (size_t)*it - 1, depth + 1, err, errsz))
				return -1;
			n->items = xrealloc(n->items, (n->n + 1) * sizeof(*n->items));
			n->items[n->n++] = &d->nodes[*it - 1];
		}
		return 0;
	case YAML_MAPPING_NODE:
		n->kind = YNODE_MAPPING;
		return build_mapping(d, name, yn, n, depth, err, errsz);
	default:
		node_error(err, errsz, name, n->line, n->col, "empty YAML node");
		return -1;
	}
}

/* Refuse nesting deeper than MAX_DEPTH from libyaml's events, before the
 * document is loaded: libyaml's scanner needs time quadratic in the depth
 * of one line (each open flow collection is a pending simple key), about
 * 14 s for 50 000 '[' here, and stopping at the first node too deep reads
 * no further. A node's depth is the number of collections around it, as in
 * build(), which checks values and items (a mapping's keys are checked as
 * keys). Returns 0 (also on a syntax error: the load reports it), or -1
 * with err. */
static int check_depth(const char *name, const char *text, size_t len, char *err, size_t errsz)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int open = 0, rc = 0;
	/* Per open collection: a mapping's count of nodes so far (even: a
	 * key comes next), -1 for a sequence. */
	long nodes[MAX_DEPTH + 2];

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!rc && yaml_parser_parse(&parser, &ev)) {
		yaml_event_type_t t = ev.type;
		bool node = t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT ||
			    t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT;
		bool key = node && open > 0 && open <= MAX_DEPTH + 1 && nodes[open - 1] >= 0 &&
			   nodes[open - 1]++ % 2 == 0;
		if (node && (open > MAX_DEPTH + 1 || (!key && open > MAX_DEPTH))) {
			node_error(err, errsz, name, (int)ev.start_mark.line + 1,
				   (int)ev.start_mark.column + 1, "nesting deeper than 64 levels");
			rc = -1;
		} else if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
			nodes[open++] = t == YAML_MAPPING_START_EVENT ? 0 : -1; /* open <= MAX_DEPTH + 1 */
		}
		open -= t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT;
		yaml_event_delete(&ev);
		if (t == YAML_DOCUMENT_END_EVENT || t == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&parser);
	return rc;
}

struct ydoc *ydoc_parse(const char *name, const char *text, size_t len, char *err, size_t errsz)
{
	yaml_parser_t parser;
	struct ydoc *d;

	if (check_depth(name, text, len, err, errsz))
		return NULL;
	d = xcalloc(1, sizeof(*d));
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &d->doc)) {
		parser_error(&parser, name, text, len, err, errsz);
		yaml_parser_delete(&parser);
		free(d);
		return NULL;
	}
	if (parser.encoding != YAML_UTF8_ENCODING) {
		node_error(err, errsz, name, 1, 1, "the config is UTF-16 text; write it as UTF-8");
		yaml_parser_delete(&parser);
		yaml_document_delete(&d->doc);
		free(d);
		return NULL;
	}
	/* A second document would be silently ignored: it is an error. */
	if (yaml_document_get_root_node(&d->doc)) {
		yaml_document_t next;
		if (!yaml_parser_load(&parser, &next)) {
			parser_error(&parser, name, text, len, err, errsz);
			yaml_parser_delete(&parser);
			yaml_document_delete(&d->doc);
			free(d);
			return NULL;
		}
		bool more = yaml_document_get_root_node(&next) != NULL;
		yaml_mark_t at = next.start_mark;
		yaml_document_delete(&next);
		if (more) {
			node_error(err, errsz, name, (int)at.line + 1, (int)at.column + 1,
				   "a second YAML document; a config is one document");
			yaml_parser_delete(&parser);
			yaml_document_delete(&d->doc);
			free(d);
			return NULL;
		}
	}
	yaml_parser_delete(&parser);

	yaml_node_t *root = yaml_document_get_root_node(&d->doc);
	if (!root) {
		node_error(err, errsz, name, 1, 1, "empty config");
		goto out_fail;
	}
	d->n_nodes = (size_t)(d->doc.nodes.top - d->doc.nodes.start);
	d->nodes = xcalloc(d->n_nodes, sizeof(*d->nodes));
	if (build(d, name, 0, 0, err, errsz))
		goto out_fail;
	if (d->nodes[0].kind == YNODE_SCALAR && !d->nodes[0].quoted && !*d->nodes[0].text) {
		node_error(err, errsz, name, 1, 1, "empty config");
		goto out_fail;
	}
	if (d->nodes[0].kind != YNODE_MAPPING) {
		node_error(err, errsz, name, d->nodes[0].line, d->nodes[0].col,
			   "the config must be a mapping of keys (name:, loads:, ...)");
		goto out_fail;
	}
	d->root = &d->nodes[0];
	return d;

out_fail:
	ydoc_free(d);
	return NULL;
}

const struct ynode *ydoc_root(const struct ydoc *d)
{
	return d->root;
}

void ydoc_free(struct ydoc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n_nodes; i++) {
		free(d->nodes[i].items);
		free(d->nodes[i].pairs);
	}
	free(d->nodes);
	yaml_document_delete(&d->doc);
	free(d);
}

const struct ynode *ynode_get(const struct ynode *m, const char *key)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->pairs[i].key, key))
			return m->pairs[i].value;
	return NULL;
}
