/* Figure "heatmap": a matrix experiment's two varying axes as a grid, one
 * figure per load, metric, op and fixed variant/run; each cell coloured by
 * the Amean of its samples and labelled with it. Cell names
 * "load.param=value,load.param=value" are split at commas (a piece without
 * '=' continues the previous value: a CPU list "0-3,5"); axes with a single
 * value are constant and ignored. The first varying axis (config order)
 * runs down, the second across. */
#include "plot_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellname.h"


/* Index of s in the list, appending it when new. */
static size_t intern(const char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = s;
	return (*n)++;
}

int plot_heatmap(struct plot_ctx *c, const struct summary *by_cell,
		 const struct summary_table *t, char *err, size_t errsz)
{
	struct cell_axes *cells = xcalloc(t->n_cols ? t->n_cols : 1, sizeof(*cells));
	const char **axes = NULL, **varying = NULL;
	size_t n_axes = 0, n_varying = 0;
	int rc = 0;

	(void)by_cell;
	for (size_t i = 0; i < t->n_cols; i++) {
		cell_axes_parse(t->cols[i], &cells[i]);
		for (size_t k = 0; k < cells[i].n; k++)
			intern(&axes, &n_axes, cells[i].kv[k].axis);
	}
	for (size_t a = 0; a < n_axes; a++) {
		const char **vals = NULL;
		size_t n_vals = 0;
		for (size_t i = 0; i < t->n_cols; i++) {
			const char *v = cell_axes_value(&cells[i], axes[a]);
			intern(&vals, &n_vals, v ? v : "");
		}
		if (n_vals > 1)
			intern(&varying, &n_varying, axes[a]);
		free(vals);
	}
	if (n_varying != 2) {
		if (n_varying > 2) {
			struct plot_fig f;
			plot_fig_begin(c, &f, t, NULL, "heatmap");
			plot_note(c, &f, "not drawn: a heat map needs exactly 2 varying matrix axes, "
				  "the cells have %zu", n_varying);
			rc = plot_fig_finish(c, &f, NULL, err, errsz);
		}
		goto out;
	}
	for (size_t i = 0; i < t->n_cols; i++) {
		if (!cell_axes_value(&cells[i], varying[0]) || !cell_axes_value(&cells[i], varying[1])) {
			struct plot_fig f;
			plot_fig_begin(c, &f, t, NULL, "heatmap");
			plot_note(c, &f, "not drawn: cell '%s' lacks axis %s or %s", t->cols[i],
				  varying[0], varying[1]);
			rc = plot_fig_finish(c, &f, NULL, err, errsz);
			goto out;
		}
	}
	const char **rows = NULL, **colv = NULL;
	size_t n_rows = 0, n_colv = 0;
	for (size_t i = 0; i < t->n_cols; i++) {
		intern(&rows, &n_rows, cell_axes_value(&cells[i], varying[0]));
		intern(&colv, &n_colv, cell_axes_value(&cells[i], varying[1]));
	}
	for (size_t op = 0; op < t->n_ops && !rc; op++) {
		struct plot_fig f;
		plot_fig_begin_op(c, &f, t, op, "heatmap");
		buf_puts(&f.title, ", Amean per cell");
		buf_puts(&f.setup, "set xtics noenhanced (");
		for (size_t i = 0; i < n_colv; i++) {
			buf_puts(&f.setup, i ? ", " : "");
			plot_quote(&f.setup, colv[i]);
			buf_printf(&f.setup, " %zu", i);
		}
		buf_puts(&f.setup, ")\nset ytics noenhanced (");
		for (size_t i = 0; i < n_rows; i++) {
			buf_puts(&f.setup, i ? ", " : "");
			plot_quote(&f.setup, rows[i]);
			buf_printf(&f.setup, " %zu", i);
		}
		buf_printf(&f.setup, ")\nset xrange [-0.5:%g]\nset yrange [%g:-0.5]\n",
			   (double)n_colv - 0.5, (double)n_rows - 0.5);
		buf_puts(&f.setup, "unset grid\nset border 15\nset palette defined "
			 "(0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')\n");
		plot_axis_labels(&f.setup, varying[1], varying[0]);
		buf_puts(&f.setup, "set cblabel ");
		char *cl = xasprintf("%s%s%s (Amean)", t->metric, *t->unit ? " " : "", t->unit);
		plot_quote(&f.setup, cl);
		free(cl);
		buf_puts(&f.setup, " noenhanced\n");
		size_t points = 0;
		for (size_t i = 0; i < t->n_cols; i++) {
			const struct summary_group *g = summary_group_at(t, op, i);
			if (!g->st.n || !isfinite(g->st.amean)) {
				plot_note(c, &f, "cell '%s' left out: no finite value", t->cols[i]);
				continue;
			}
			size_t x = intern(&colv, &n_colv, cell_axes_value(&cells[i], varying[1]));
			size_t y = intern(&rows, &n_rows, cell_axes_value(&cells[i], varying[0]));
			buf_printf(&f.data, "%zu %zu ", x, y);
			plot_num(&f.data, g->st.amean);
			buf_puts(&f.data, "\n");
			points++;
		}
		if (points) {
			buf_puts(&f.plot, "DATA index 0 using 1:2:(0.5):(0.5):3 with boxxyerror "
				 "fs solid 1.0 noborder fc palette notitle, \\\n     DATA index 0 using "
				 "1:2:(sprintf('%.4g', $3)) with labels tc rgb '#d62728' font ',12' "
				 "notitle");
			plot_series_end(&f);
		}
		rc = plot_fig_finish(c, &f, "no cell has a finite value", err, errsz);
	}
	free(rows);
	free(colv);
out:
	for (size_t i = 0; i < t->n_cols; i++)
		cell_axes_free(&cells[i]);
	free(cells);
	free(axes);
	free(varying);
	return rc;
}
