#include "cellname.h"

#include <stdbool.h>
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

void axis_labels_add(struct axis_labels *l, const char *axis, const char *label)
{
	if (axis_labels_get(l, axis))
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].axis = xstrdup(axis);
	l->v[l->n].label = xstrdup(label);
	l->n++;
}

void axis_labels_free(struct axis_labels *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].axis);
		free(l->v[i].label);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const char *axis_labels_get(const struct axis_labels *l, const char *axis)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (!strcmp(l->v[i].axis, axis))
			return l->v[i].label;
	return NULL;
}

/* The key of an axis: what follows its load's name and '.'. */
static const char *axis_key(const char *axis)
{
	const char *dot = strchr(axis, '.');
	return dot ? dot + 1 : axis;
}

void cell_names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char **cell_axis_names(const char *const *cells, size_t n, size_t *n_axes)
{
	char **axes = NULL;
	*n_axes = 0;
	for (size_t i = 0; i < n; i++) {
		struct cell_axes c;
		if (!strchr(cells[i], '='))
			continue;
		cell_axes_parse(cells[i], &c);
		for (size_t k = 0; k < c.n; k++) {
			size_t j = 0;
			while (j < *n_axes && strcmp(axes[j], c.kv[k].axis))
				j++;
			if (j == *n_axes) {
				axes = xrealloc(axes, (*n_axes + 1) * sizeof(*axes));
				axes[(*n_axes)++] = xstrdup(c.kv[k].axis);
			}
		}
		cell_axes_free(&c);
	}
	return axes;
}

char *axis_display(const char *axis, const struct axis_labels *labels, char *const *axes,
		   size_t n_axes)
{
	const char *label = axis_labels_get(labels, axis);
	if (label)
		return xstrdup(label);
	const char *key = axis_key(axis);
	for (size_t i = 0; i < n_axes; i++)
		if (strcmp(axes[i], axis) && !strcmp(axis_key(axes[i]), key))
			return xstrdup(axis);
	return xstrdup(key);
}

char **cell_display_parts(const char *name, const struct axis_labels *labels, char *const *axes,
			  size_t n_axes, size_t *n_parts)
{
	struct cell_axes c;
	cell_axes_parse(name, &c);
	char **parts = xcalloc(c.n ? c.n : 1, sizeof(*parts));
	for (size_t k = 0; k < c.n; k++) {
		char *shown = axis_display(c.kv[k].axis, labels, axes, n_axes);
		parts[k] = xasprintf("%s%s%s", shown, axis_labels_get(labels, c.kv[k].axis) ? ":" : "=",
				     c.kv[k].value);
		free(shown);
	}
	*n_parts = c.n;
	cell_axes_free(&c);
	return parts;
}

char **cell_display_all(const char *const *names, size_t n, const struct axis_labels *labels)
{
	size_t n_axes;
	char **axes = cell_axis_names(names, n, &n_axes);
	char **out = xcalloc(n ? n : 1, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (!strchr(names[i], '=')) {
			out[i] = xstrdup(names[i]);
			continue;
		}
		size_t n_parts;
		char **parts = cell_display_parts(names[i], labels, axes, n_axes, &n_parts);
		struct buf b = {0};
		for (size_t k = 0; k < n_parts; k++)
			buf_printf(&b, "%s%s", k ? "," : "", parts[k]);
		out[i] = b.data ? b.data : xstrdup("");
		cell_names_free(parts, n_parts);
	}
	cell_names_free(axes, n_axes);
	return out;
}
