/* CPU lists and masks (cpulist.h). */
#include "cpulist.h"

#include <stdlib.h>

void cpulist_text(const int *v, size_t n, struct buf *out)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		buf_printf(out, "%s%d", i ? "," : "", v[i]);
		if (j > i)
			buf_printf(out, "-%d", v[j]);
		i = j + 1;
	}
}

int *cpulist_parse(const char *text, size_t *n, bool *ok)
{
	int *v = NULL;
	size_t cap = 0;
	*n = 0;
	*ok = true;
	for (const char *p = text; *p && *p != '\n';) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0 || a > 65535 || (*n && a <= v[*n - 1]))
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b > 65535)
				goto bad;
			p = end;
		}
		for (long k = a; k <= b; k++) {
			if (*n == cap)
				v = xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
			v[(*n)++] = (int)k;
		}
		if (*p == ',' && p[1] && p[1] != '\n')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	return v;
bad:
	free(v);
	*n = 0;
	*ok = false;
	return NULL;
}

void cpulist_mask(const int *v, size_t n, struct buf *out)
{
	int words = n ? v[n - 1] / 32 + 1 : 1;
	for (int w = words - 1; w >= 0; w--) {
		unsigned long bits = 0;
		for (size_t i = 0; i < n; i++)
			if (v[i] / 32 == w)
				bits |= 1UL << (v[i] % 32);
		buf_printf(out, w == words - 1 ? "%lx" : ",%08lx", bits);
	}
}
