/* The list of report layouts (report.h). Add a layout: write reports/NAME.c
 * with a `const struct report_layout NAME_layout` and add it here; its
 * position is its place in compare --help and in schedrig report. */
#include <string.h>

#include "report.h"

extern const struct report_layout mmtests_layout;
extern const struct report_layout mmtests_wide_layout;
extern const struct report_layout grid_layout;
extern const struct report_layout percentiles_layout;
extern const struct report_layout latency_layout;

static const struct report_layout *const layouts[] = {
	&mmtests_layout,
	&mmtests_wide_layout,
	&grid_layout,
	&percentiles_layout,
	&latency_layout,
};

const struct report_layout *const *report_layout_all(size_t *n)
{
	*n = sizeof(layouts) / sizeof(layouts[0]);
	return layouts;
}

const struct report_layout *report_layout_find(const char *name)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (!strcmp(layouts[i]->name, name))
			return layouts[i];
	return NULL;
}
