#include "cellname.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void cell_axes_parse(const char *name, struct cell_axes *out)
{
	char *copy = xstrdup(name), *p = copy;
	out->kv = NULL;
	out->n = 0;
	while (p) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		char *eq = strchr(p, '=');
		if (eq || !out->n) {
			out->kv = xrealloc(out->kv, (out->n + 1) * sizeof(*out->kv));
			if (eq)
				*eq = '\0';
			out->kv[out->n].axis = xstrdup(p);
			out->kv[out->n].value = xstrdup(eq ? eq + 1 : "");
			out->n++;
		} else {
			struct cell_axis *kv = &out->kv[out->n - 1];
			char *v = xasprintf("%s,%s", kv->value, p);
			free(kv->value);
			kv->value = v;
		}
		p = comma ? comma + 1 : NULL;
	}
	free(copy);
}

void cell_axes_free(struct cell_axes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->kv[i].axis);
		free(c->kv[i].value);
	}
	free(c->kv);
	c->kv = NULL;
	c->n = 0;
}

const char *cell_axes_value(const struct cell_axes *c, const char *axis)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->kv[i].axis, axis))
			return c->kv[i].value;
	return NULL;
}
