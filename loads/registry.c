/* The list of load drivers. Add a driver: write loads/NAME.c with a
 * `const struct load_ops NAME_load` and add it here. */
#include <string.h>

#include "load.h"

extern const struct load_ops tcp_rr_load;
extern const struct load_ops wakeup_lat_load;

static const struct load_ops *const loads[] = {
	&tcp_rr_load,
	&wakeup_lat_load,
};

const struct load_ops *const *load_all(size_t *n)
{
	*n = sizeof(loads) / sizeof(loads[0]);
	return loads;
}

const struct load_ops *load_find(const char *name)
{
	size_t n;
	const struct load_ops *const *all = load_all(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

const struct param_def *load_param(const struct load_ops *ops, const char *name)
{
	for (size_t i = 0; i < ops->n_params; i++)
		if (!strcmp(ops->params[i].name, name))
			return &ops->params[i];
	return NULL;
}
