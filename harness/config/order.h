/* The order in which a run visits its (variant, cell, iteration) triples.
 * A shared machine drifts (thermal state, page cache, other tenants); run
 * as one block per variant, drift between blocks reads as a kernel
 * difference. Interleaved and random orders spread every variant and cell
 * over the whole run. */
#ifndef SCHEDRIG_ORDER_H
#define SCHEDRIG_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum run_order {
	ORDER_BLOCKED,      /* each variant's cells × iterations in one block */
	ORDER_INTERLEAVED,  /* rounds: iteration 1 of every variant and cell, then 2, ... */
	ORDER_RANDOM,       /* rounds, each (variant, cell) visit of a round in random order */
};

/* "blocked" | "interleaved" | "random"; parse returns -1 for anything else. */
const char *run_order_name(enum run_order o);
int run_order_parse(const char *s);

/* One visit: iteration `iteration` (1-based) of cell `cell` on variant
 * `variant` (indices into the variants and cells ordered). */
struct visit {
	size_t variant, cell;
	int iteration;
};

/* Every visit of n_variants × n_cells × iterations in order o, malloc'd
 * into *out; returns the count. blocked: variant, then cell, then
 * iteration (the classic order); interleaved: round r = 1..iterations,
 * in it each variant, in it each cell (variant A iteration 1, B 1, A 2, B
 * 2, ...); random: the same rounds, the n_variants · n_cells visits of
 * each round in an order drawn from seed (a Fisher-Yates shuffle driven by
 * splitmix64, Steele et al. 2014, seeded with seed and the round), so a
 * seed gives the same order on every machine and on run --resume. */
size_t order_visits(enum run_order o, uint64_t seed, size_t n_variants, size_t n_cells,
		    int iterations, struct visit **out);

/* The line every record of a run's order holds (store event "order",
 * shown by schedrig show and under the report tables): "interleaved",
 * "blocked", "random, seed 1234", then, when some variants boot their own
 * kernel and stay blocked, "; blocked: NAME, NAME (they boot a kernel)". */
char *order_describe(enum run_order o, uint64_t seed, const char *const *blocked, size_t n_blocked);

/* Read back order_describe's text: 0 with *o and *seed, or -1 when text
 * is not such a line (a database is not trusted). */
int order_parse_description(const char *text, enum run_order *o, uint64_t *seed);

#endif
