/* Cell names as the planner writes them: "load.key=value" per matrix axis,
 * joined by ',' in axis order ("hb.nice=19,ct.slice_us=100"; "default"
 * without axes). A value may itself hold commas (a CPU list "0-3,5"): a
 * piece without '=' continues the previous value. */
#ifndef SCHEDRIG_CELLNAME_H
#define SCHEDRIG_CELLNAME_H

#include <stddef.h>

struct cell_axis {
	char *axis;  /* "hb.nice" */
	char *value; /* "19" */
};

struct cell_axes {
	struct cell_axis *kv;
	size_t n;
};

/* Split name into its axes (a name without '=' gives one axis with value ""). */
void cell_axes_parse(const char *name, struct cell_axes *out);
void cell_axes_free(struct cell_axes *c);
/* The value of axis in c, or NULL when the cell has no such axis. */
const char *cell_axes_value(const struct cell_axes *c, const char *axis);

#endif
