#include "bisect_points.h"

#include <stdlib.h>

#include "util.h"

void bisect_series_add(struct bisect_series *s, const char *name, const char *label,
		       const char *config)
{
	s->p = xrealloc(s->p, (s->n + 1) * sizeof(*s->p));
	s->p[s->n++] = (struct bisect_point){xstrdup(name), xstrdup(label), xstrdup(config)};
}

void bisect_series_free(struct bisect_series *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->p[i].name);
		free(s->p[i].label);
		free(s->p[i].config);
	}
	free(s->p);
	*s = (struct bisect_series){0};
}
