/* The kernel each column of a table ran (report.h, struct report_kernels):
 * read from the selected runs' variant rows (uname -r where each variant's
 * kernel came up, and how it was booted), printed as one line per column
 * under the text tables. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "store_runs.h"

static void add(struct report_kernels *k, const char *run, const struct stored_variant *v)
{
	k->v = xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
	k->v[k->n++] = (struct report_kernel){
		.run = xstrdup(run), .variant = xstrdup(v->name),
		.release = v->kernel_release ? xstrdup(v->kernel_release) : NULL,
		.boot = xstrdup(v->boot ? v->boot : ""),
	};
}

int report_kernels_load(struct store *st, const int64_t *ids, size_t n,
			struct report_kernels *out, char *err, size_t errsz)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		struct stored_run r;
		struct stored_variant *v;
		size_t n_v;
		if (store_run_read(st, ids[i], &r, err, errsz))
			goto fail;
		if (store_variant_list(st, ids[i], &v, &n_v, err, errsz)) {
			store_run_free(&r);
			goto fail;
		}
		for (size_t k = 0; k < n_v; k++)
			add(out, r.name ? r.name : "", &v[k]);
		store_variant_rows_free(v, n_v);
		store_run_free(&r);
	}
	return 0;
fail:
	report_kernels_free(out);
	return -1;
}

void report_kernels_free(struct report_kernels *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].run);
		free(k->v[i].variant);
		free(k->v[i].release);
		free(k->v[i].boot);
	}
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* The kernel of variant in run: that run's row, else (the runs of a
 * bisection read as one, their variants told apart by name) the first
 * variant of that name; NULL when none. */
static const struct report_kernel *find(const struct report_kernels *k, const char *run,
					const char *variant)
{
	const struct report_kernel *any = NULL;
	for (size_t i = 0; i < k->n; i++) {
		if (strcmp(k->v[i].variant, variant))
			continue;
		if (run && !strcmp(k->v[i].run, run))
			return &k->v[i];
		any = any ? any : &k->v[i];
	}
	return any;
}

void report_kernel_lines(struct buf *out, const struct summary *s, const struct summary_table *t,
			 const struct report_opts *o)
{
	if (!o->kernels || !t->n_cols)
		return;
	bool per_column = s->columns != AXIS_CELL;
	size_t n = per_column ? t->n_cols : 1;
	const struct report_kernel **of = xcalloc(n, sizeof(*of));
	bool known = false;
	for (size_t c = 0; c < n; c++) {
		const char *run = s->columns == AXIS_RUN ? t->cols[c] : t->run;
		const char *variant = s->columns == AXIS_VARIANT ? t->cols[c] : t->variant;
		of[c] = variant ? find(o->kernels, run, variant) : NULL;
		known = known || (of[c] && of[c]->release);
	}
	if (known) {
		struct report_cols rc;
		report_cols_init(&rc, t, o);
		for (size_t c = 0; c < n; c++)
			buf_printf(out, "Kernel %s: %s (%s)\n",
				   per_column ? rc.name[c] : t->variant,
				   of[c] && of[c]->release ? of[c]->release : "not recorded",
				   of[c] ? of[c]->boot : "no variant row");
		report_cols_free(&rc);
	}
	free(of);
}
