/* Integer-keyed hash map (idmap.h). */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The slot of key, or of the empty slot where it would go. */
static size_t slot_of(const struct idmap *m, const int64_t key[4])
{
	uint64_t h = FNV1A_OFFSET_BASIS;
	for (int i = 0; i < 4; i++)
		h = fnv1a_step(h, (uint64_t)key[i]);
	/* A product's low bits depend only on its factors' low bits: fold
	 * the high half in, as keys may differ only above bit 4 (pointers). */
	h ^= h >> 32;
	size_t j = (size_t)h & (m->cap - 1);
	while (m->slots[j].used && memcmp(m->slots[j].key, key, sizeof(m->slots[j].key)))
		j = (j + 1) & (m->cap - 1);
	return j;
}

static void grow(struct idmap *m)
{
	struct idmap bigger = {.cap = m->cap ? m->cap * 2 : 64, .n = m->n};
	bigger.slots = xcalloc(bigger.cap, sizeof(*bigger.slots));
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].used)
			bigger.slots[slot_of(&bigger, m->slots[i].key)] = m->slots[i];
	free(m->slots);
	*m = bigger;
}

int64_t *idmap_get(const struct idmap *m, const int64_t key[4])
{
	if (!m->cap)
		return NULL;
	struct idmap_slot *s = &m->slots[slot_of(m, key)];
	return s->used ? s->val : NULL;
}

int64_t *idmap_put(struct idmap *m, const int64_t key[4], bool *added)
{
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	struct idmap_slot *s = &m->slots[slot_of(m, key)];
	*added = !s->used;
	if (!s->used) {
		memcpy(s->key, key, sizeof(s->key));
		s->used = true;
		m->n++;
	}
	return s->val;
}

void idmap_free(struct idmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
