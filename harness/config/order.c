#include "order.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const names[] = {"blocked", "interleaved", "random"};

const char *run_order_name(enum run_order o)
{
	return name_at(names, ORDER_RANDOM + 1, (unsigned)o);
}

int run_order_parse(const char *s)
{
	return name_index(names, ORDER_RANDOM + 1, s);
}

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): the next value of state. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t order_visits(enum run_order o, uint64_t seed, size_t n_variants, size_t n_cells,
		    int iterations, struct visit **out)
{
	size_t per_round = n_variants * n_cells, n = per_round * (size_t)(iterations > 0 ? iterations : 0);
	struct visit *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t k = 0;
	if (o == ORDER_BLOCKED) {
		for (size_t a = 0; a < n_variants; a++)
			for (size_t c = 0; c < n_cells; c++)
				for (int it = 1; it <= iterations; it++)
					v[k++] = (struct visit){a, c, it};
		*out = v;
		return n;
	}
	for (int it = 1; it <= iterations; it++) {
		struct visit *round = v + k;
		for (size_t a = 0; a < n_variants; a++)
			for (size_t c = 0; c < n_cells; c++)
				v[k++] = (struct visit){a, c, it};
		if (o != ORDER_RANDOM)
			continue;
		uint64_t state = seed ^ ((uint64_t)it * 0xd1b54a32d192ed03ULL);
		for (size_t i = per_round; i > 1; i--) {
			size_t j = (size_t)(splitmix64(&state) % i);
			struct visit t = round[i - 1];
			round[i - 1] = round[j];
			round[j] = t;
		}
	}
	*out = v;
	return n;
}

char *order_describe(enum run_order o, uint64_t seed, const char *const *blocked, size_t n_blocked)
{
	struct buf b = {0};
	buf_puts(&b, run_order_name(o));
	if (o == ORDER_RANDOM)
		buf_printf(&b, ", seed %llu", (unsigned long long)seed);
	for (size_t i = 0; o != ORDER_BLOCKED && i < n_blocked; i++)
		buf_printf(&b, "%s%s", i ? ", " : "; blocked: ", blocked[i]);
	if (o != ORDER_BLOCKED && n_blocked)
		buf_puts(&b, " (they boot a kernel)");
	return b.data;
}

int order_parse_description(const char *text, enum run_order *o, uint64_t *seed)
{
	size_t len = strcspn(text, ",;");
	char name[16];
	if (len >= sizeof(name))
		return -1;
	snprintf(name, sizeof(name), "%.*s", (int)len, text);
	int k = run_order_parse(name);
	if (k < 0)
		return -1;
	*o = (enum run_order)k;
	*seed = 0;
	if (k != ORDER_RANDOM)
		return 0;
	char num[32];
	const char *p = text + len;
	if (strncmp(p, ", seed ", 7))
		return -1;
	p += 7;
	size_t digits = strspn(p, "0123456789");
	if (!digits || digits >= sizeof(num) || (p[digits] && p[digits] != ';'))
		return -1;
	snprintf(num, sizeof(num), "%.*s", (int)digits, p);
	errno = 0;
	unsigned long long u = strtoull(num, NULL, 10);
	if (errno)
		return -1;
	*seed = u;
	return 0;
}
