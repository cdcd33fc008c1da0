/* A hash map from keys of four 64-bit integers to two 64-bit values: the
 * rows an import made (an iteration by variant, cell and number; a load
 * instance by iteration, load and repetition, with its next sample seq),
 * and the identity of a CSV row already seen, without formatting a string
 * key per row (formatting and copying one cost a quarter of an import of
 * 500 000 rows, bench/import.sh). Interned strings (strmap.h) take part as
 * their addresses: equal strings are one pointer. */
#ifndef SCHEDRIG_IDMAP_H
#define SCHEDRIG_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idmap_slot {
	int64_t key[4];
	int64_t val[2];
	bool used;
};

/* Open addressing with linear probing, FNV-1a over the key's four
 * integers, at most half full. Zero-initialise to get an empty map. */
struct idmap {
	struct idmap_slot *slots;
	size_t cap, n;
};

/* The two values stored for key (4 integers), or NULL when it is absent.
 * Valid until the next idmap_put. */
int64_t *idmap_get(const struct idmap *m, const int64_t key[4]);

/* The two values of key, added as {0, 0} when absent (*added true then).
 * Valid until the next idmap_put. Aborts when out of memory (xmalloc). */
int64_t *idmap_put(struct idmap *m, const int64_t key[4], bool *added);

/* Free the table; m is left empty and usable. */
void idmap_free(struct idmap *m);

#endif
