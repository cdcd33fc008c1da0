/* The boxed table of seed 002 (schbench percentiles, cyclictest Min/Avg/Max
 * per latency_nice), shared by the percentile and grid layouts:
 *
 *   -------------------------------------------
 *   |Op  |        vanilla        |  patched ...
 *   |    |-----------------------|---------
 *   |    |  90th |  95th |  99th |  90th ...
 *   |----|-------|-------|-------|---------
 *   |1   |  4264 |  6744 | 15664 |  ...
 *   -------------------------------------------
 *
 * Each sub-cell is " %*s " right-aligned to the widest sub-label or value
 * of the box; a group name is centred over its sub-columns (extra space
 * right); the sub-columns widen until every group name fits. */
#include "report.h"

#include <string.h>

static void dashes(struct buf *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_puts(out, "-");
}

void report_box(struct buf *out, const struct report_box *b)
{
	size_t ns = b->n_sub, sw = 0, ow = strlen(b->corner);
	for (size_t i = 0; i < ns; i++)
		if (strlen(b->sub[i]) > sw)
			sw = strlen(b->sub[i]);
	for (size_t r = 0; r < b->n_rows; r++) {
		if (strlen(b->rows[r]) > ow)
			ow = strlen(b->rows[r]);
		for (size_t k = 0; k < b->n_groups * ns; k++)
			if (strlen(b->cells[r * b->n_groups * ns + k]) > sw)
				sw = strlen(b->cells[r * b->n_groups * ns + k]);
	}
	for (size_t g = 0; g < b->n_groups; g++)
		while (ns * (sw + 2) + ns - 1 < strlen(b->groups[g]))
			sw++;
	size_t group = ns * (sw + 2) + ns - 1;
	size_t total = 1 + ow + 1 + b->n_groups * (group + 1);

	if (b->title)
		buf_printf(out, "%s\n", b->title);
	dashes(out, total);
	buf_printf(out, "\n|%-*s|", (int)ow, b->corner);
	for (size_t g = 0; g < b->n_groups; g++) {
		size_t len = strlen(b->groups[g]), left = (group - len) / 2;
		buf_printf(out, "%*s%s%*s|", (int)left, "", b->groups[g], (int)(group - len - left), "");
	}
	buf_printf(out, "\n|%*s|", (int)ow, "");
	for (size_t g = 0; g < b->n_groups; g++) {
		dashes(out, group);
		buf_puts(out, "|");
	}
	buf_printf(out, "\n|%*s|", (int)ow, "");
	for (size_t g = 0; g < b->n_groups; g++)
		for (size_t i = 0; i < ns; i++)
			buf_printf(out, " %*s |", (int)sw, b->sub[i]);
	buf_puts(out, "\n|");
	dashes(out, ow);
	buf_puts(out, "|");
	for (size_t g = 0; g < b->n_groups; g++)
		for (size_t i = 0; i < ns; i++) {
			dashes(out, sw + 2);
			buf_puts(out, "|");
		}
	buf_puts(out, "\n");
	for (size_t r = 0; r < b->n_rows; r++) {
		buf_printf(out, "|%-*s|", (int)ow, b->rows[r]);
		for (size_t k = 0; k < b->n_groups * ns; k++)
			buf_printf(out, " %*s |", (int)sw, b->cells[r * b->n_groups * ns + k]);
		buf_puts(out, "\n");
	}
	dashes(out, total);
	buf_puts(out, "\n");
}
