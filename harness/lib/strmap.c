/* String-keyed hash map (strmap.h). */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The slot of key, or of the empty slot where it would go. */
static size_t slot_of(const struct strmap *m, const char *key)
{
	size_t j = fnv1a_bytes(FNV1A_OFFSET_BASIS, key, strlen(key)) & (m->cap - 1);
	while (m->keys[j] && strcmp(m->keys[j], key))
		j = (j + 1) & (m->cap - 1);
	return j;
}

static void grow(struct strmap *m)
{
	struct strmap bigger = {.cap = m->cap ? m->cap * 2 : 64};
	bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = xcalloc(bigger.cap, sizeof(*bigger.vals));
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = slot_of(&bigger, m->keys[i]);
		bigger.keys[j] = m->keys[i];
		bigger.vals[j] = m->vals[i];
	}
	bigger.n = m->n;
	free(m->keys);
	free(m->vals);
	*m = bigger;
}

int64_t *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t j = slot_of(m, key);
	return m->keys[j] ? &m->vals[j] : NULL;
}

const char *strmap_add(struct strmap *m, const char *key, int64_t val)
{
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	size_t j = slot_of(m, key);
	if (!m->keys[j]) {
		m->keys[j] = xstrdup(key);
		m->vals[j] = val;
		m->n++;
	}
	return m->keys[j];
}

void strmap_free(struct strmap *m)
{
	strv_free(m->keys, m->cap);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
