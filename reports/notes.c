/* The notes under the tables (struct report_notes): what has no sample and
 * why adaptive iterations stopped, as text lines or a markdown list. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

void report_notes_add(struct report_notes *n, char *note)
{
	n->v = xrealloc(n->v, (n->n + 1) * sizeof(*n->v));
	n->v[n->n++] = note;
}

void report_notes_free(struct report_notes *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

void report_notes_text(struct buf *out, const struct report_notes *n)
{
	if (n->n)
		buf_puts(out, "\n");
	for (size_t i = 0; i < n->n; i++)
		buf_printf(out, "%s\n", n->v[i]);
}

void report_notes_markdown(struct buf *out, const struct report_notes *n)
{
	if (n->n)
		buf_puts(out, "\n");
	for (size_t i = 0; i < n->n; i++) {
		buf_puts(out, "- ");
		for (const char *p = n->v[i]; *p; p++) {
			if (strchr("\\`*_[]<>|&~", *p))
				buf_puts(out, "\\");
			buf_append(out, p, 1);
		}
		buf_puts(out, "\n");
	}
}
