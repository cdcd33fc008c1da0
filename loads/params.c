#include <stdlib.h>
#include <string.h>

#include "load.h"

const char *params_get(const struct params *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return p->v[i].value;
	return NULL;
}

long long params_int(const struct params *p, const char *name, long long fallback)
{
	long long v;
	if (parse_ll(params_get(p, name), &v))
		return v;
	return fallback;
}

bool params_bool(const struct params *p, const char *name)
{
	const char *v = params_get(p, name);
	return v && !strcmp(v, "true");
}
