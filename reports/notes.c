/* The notes under the tables (struct report_notes): what has no sample,
 * which NaN samples were left out and why adaptive iterations stopped, as
 * text lines or a markdown list. */
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
	n->n_host = 0;
}

/* "LOAD METRIC[, cell C][, run R], COLUMN op OP" of one group. */
static void group_name(struct buf *b, const struct summary_table *t, size_t op, size_t col)
{
	buf_printf(b, "%s %s", t->load, t->metric);
	if (t->variant)
		buf_printf(b, ", variant %s", t->variant);
	if (t->cell)
		buf_printf(b, ", cell %s", t->cell);
	if (t->run)
		buf_printf(b, ", run %s", t->run);
	buf_printf(b, ", %s", t->cols[col]);
	if (*t->ops[op])
		buf_printf(b, " op %s", t->ops[op]);
}

void report_notes_summary(struct report_notes *n, const struct summary *s)
{
	struct buf nan = {0}, none = {0};
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		for (size_t op = 0; op < t->n_ops; op++)
			for (size_t c = 0; c < t->n_cols; c++) {
				const struct summary_group *g = summary_group_at(t, op, c);
				if (g->n_nan) {
					buf_puts(&nan, nan.len ? "; " : "");
					group_name(&nan, t, op, c);
					buf_printf(&nan, ": %zu", g->n_nan);
				}
				if (!g->st.n) {
					buf_puts(&none, none.len ? "; " : "");
					group_name(&none, t, op, c);
				}
			}
	}
	if (nan.len)
		report_notes_add(n, xasprintf("NaN samples (left out of n and every statistic): %s",
					      buf_str(&nan)));
	if (none.len)
		report_notes_add(n, xasprintf("No samples: %s (its statistics are undefined: 0 in"
					      " the mmtests tables, as compare-mmtests.pl prints"
					      " them, NaN elsewhere)", buf_str(&none)));
	buf_free(&nan);
	buf_free(&none);
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
