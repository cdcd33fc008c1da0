#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

const struct param_def *load_param(const struct load_ops *ops, const char *name)
{
	for (size_t i = 0; i < ops->n_params; i++)
		if (!strcmp(ops->params[i].name, name))
			return &ops->params[i];
	return NULL;
}

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

void params_argv_int(const struct params *p, struct argv *argv, const char *flag,
		     const char *name)
{
	long long v;
	if (!parse_ll(params_get(p, name), &v))
		return;
	argv_add(argv, flag);
	argv_addf(argv, "%lld", v);
}

int params_check_ends(const struct params *p, const char *name, bool background, char *err,
		      size_t errsz)
{
	if (background || params_int(p, name, 1) != 0)
		return 0;
	snprintf(err, errsz, "%s: 0 runs until stopped, which only a background load is; a"
		 " measured load needs a duration", name);
	return -1;
}
