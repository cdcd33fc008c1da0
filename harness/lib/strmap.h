/* A hash map from strings to 64-bit integers: interning names while a
 * million sample rows are read, and sample_key ids while they are stored. */
#ifndef SCHEDRIG_STRMAP_H
#define SCHEDRIG_STRMAP_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing with linear probing, FNV-1a hashes, at most half full.
 * Zero-initialise to get an empty map; keys are copies owned by the map. */
struct strmap {
	char **keys;
	int64_t *vals;
	size_t cap, n;
};

/* The value stored for key, or NULL when key is absent. The pointer stays
 * valid until the next strmap_add. */
int64_t *strmap_get(const struct strmap *m, const char *key);

/* Add key with value val unless it is present (then its value is kept).
 * Returns the map's copy of key, which lives until strmap_free: equal
 * strings give the same pointer. Aborts when out of memory (util.h xmalloc). */
const char *strmap_add(struct strmap *m, const char *key, int64_t val);

/* Free every key and the table; m is left empty and usable. */
void strmap_free(struct strmap *m);

#endif
