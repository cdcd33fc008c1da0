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

/* Short names the config gave matrix axes ({values: [...], label: LN}),
 * keyed by axis ("hackbench.latency_nice"). */
struct axis_label {
	char *axis;
	char *label;
};
struct axis_labels {
	struct axis_label *v;
	size_t n;
};
/* Add axis → label unless axis has one already (copies both). */
void axis_labels_add(struct axis_labels *l, const char *axis, const char *label);
void axis_labels_free(struct axis_labels *l);
/* The label of axis, or NULL (l may be NULL). */
const char *axis_labels_get(const struct axis_labels *l, const char *axis);

/* The distinct axes of n cell names, in first appearance (malloc'd
 * strings in a malloc'd array; free with cell_names_free). */
char **cell_axis_names(const char *const *cells, size_t n, size_t *n_axes);
/* Free n strings of v and v. */
void cell_names_free(char **v, size_t n);

/* The name an axis has in table headers, among the distinct axes of a
 * table (malloc'd): its label; else the shortest unambiguous form, the key
 * without its load ("latency_nice") unless another of the axes has that
 * key too, then the whole axis ("hackbench.latency_nice"). */
char *axis_display(const char *axis, const struct axis_labels *labels, char *const *axes,
		   size_t n_axes);
/* The parts a cell name shows as in table headers, one per axis, "LN:-20"
 * (LABEL:VALUE) or "nice=0" (SHORT=VALUE with the axis_display form among
 * axes); malloc'd, *n_parts of them (cell_names_free). */
char **cell_display_parts(const char *name, const struct axis_labels *labels, char *const *axes,
			  size_t n_axes, size_t *n_parts);
/* The names n columns have in table headers (malloc'd, cell_names_free):
 * a cell's axes each as LABEL:VALUE, or SHORT=VALUE with the axis_display
 * form, joined by ',' ("LN:-20,CT-LN:19", "nice=0,slice_us=100"); a name
 * without '=' (a variant, a run, "default") unchanged. */
char **cell_display_all(const char *const *names, size_t n, const struct axis_labels *labels);

#endif
