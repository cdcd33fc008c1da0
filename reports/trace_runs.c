/* Stored traces of runs, read and analysed (trace_runs.h). */
#include "trace_runs.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "trace_gz.h"

/* The largest trace text read (uncompressed). */
#define TRACE_READ_MAX ((size_t)4 << 30)

int trace_file_read(const char *path, struct buf *b, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_printf(err, errsz, "%s: %s", path, strerror(errno));
	int c1 = fgetc(f), c2 = fgetc(f);
	fclose(f);
	if (c1 == 0x1f && c2 == 0x8b)
		return trace_gz_read(path, b, TRACE_READ_MAX, err, errsz);
	return file_read(path, b, err, errsz);
}

/* The names of the loads of run id's config into names. */
static int run_loads(struct store *st, int64_t id, struct argv *names, char *err, size_t errsz)
{
	char *path = NULL, *text = NULL;
	int iterations;
	if (store_run_config(st, id, &path, &text, &iterations, err, errsz))
		return -1;
	struct experiment *e = text ? config_parse(path ? path : "config", text, strlen(text), err,
						   errsz) : NULL;
	for (size_t i = 0; e && i < e->n_loads; i++)
		argv_add(names, e->loads[i].name);
	int rc = e ? 0 : err_printf(err, errsz, "run %lld: its stored config does not parse",
				    (long long)id);
	experiment_free(e);
	free(path);
	free(text);
	return rc;
}

static bool selected(const struct trace_filter *f, const struct stored_trace *t)
{
	return (!f->variant || !strcmp(f->variant, t->variant)) &&
	       (!f->cell || !strcmp(f->cell, t->cell)) && (!f->iteration || f->iteration == t->iteration);
}

/* Read and analyse item's trace (its row set); every load its task lines
 * name must be one of loads. 0, or -1 with err. */
static int item_load(const char *db, struct trace_item *it, const struct argv *loads,
		     bool keep_text, char *err, size_t errsz)
{
	char *dbcopy = xstrdup(db);
	char *path = xasprintf("%s/%s", dirname(dbcopy), it->row.path);
	free(dbcopy);
	it->title = xasprintf("run %lld variant %s cell %s iteration %d", (long long)it->run_id,
			      it->row.variant, it->row.cell, it->row.iteration);
	int rc = trace_gz_read(path, &it->text, TRACE_READ_MAX, err, errsz);
	/* The file must be the one the rig wrote: a damaged or cut file, or
	 * another database's run of the same number beside this one, is not */
	if (!rc && it->row.bytes > 0 && (int64_t)it->text.len != it->row.bytes)
		rc = err_printf(err, errsz, "%s holds %zu bytes of trace text, the run's row says %lld:"
				" not the trace this run captured (cut or damaged, or written by"
				" another database's run %lld in the same directory)", path,
				it->text.len, (long long)it->row.bytes, (long long)it->run_id);
	if (!rc)
		rc = trace_analyze(buf_str(&it->text), it->text.len, TRACE_BY_TASK_LINES, &it->a, err,
				   errsz);
	for (size_t i = 0; !rc && i < it->a.n_loads; i++) {
		bool known = !strcmp(it->a.loads[i].name, TRACE_ALL_TASKS);
		for (size_t k = 0; k < loads->n && !known; k++)
			known = !strcmp(loads->v[k], it->a.loads[i].name);
		if (!known)
			rc = err_printf(err, errsz, "%s names a load '%s' that run %lld has not", path,
					it->a.loads[i].name, (long long)it->run_id);
	}
	if (!rc && !it->a.n_task_lines)
		rc = err_printf(err, errsz, "%s has no task lines: not a trace the rig captured", path);
	if (rc) {
		size_t len = strlen(err);
		snprintf(err + len, errsz - len, " (the trace of %s)", it->title);
	}
	if (!keep_text)
		buf_free(&it->text);
	free(path);
	return rc;
}

int trace_items_load(struct store *st, const char *db, const int64_t *ids, size_t n_ids,
		     const struct trace_filter *f, bool keep_text, struct trace_items *items,
		     char *err, size_t errsz)
{
	memset(items, 0, sizeof(*items));
	for (size_t k = 0; k < n_ids; k++) {
		struct stored_trace *rows;
		size_t n;
		struct argv loads = {0};
		if (store_trace_list(st, ids[k], &rows, &n, err, errsz))
			return -1;
		if (n && run_loads(st, ids[k], &loads, err, errsz)) {
			store_trace_rows_free(rows, n);
			return -1;
		}
		int rc = 0;
		for (size_t i = 0; i < n; i++) {
			if (rc || !selected(f, &rows[i])) {
				store_trace_row_clear(&rows[i]);
				continue;
			}
			items->v = xrealloc(items->v, (items->n + 1) * sizeof(*items->v));
			struct trace_item *it = &items->v[items->n++];
			memset(it, 0, sizeof(*it));
			it->run_id = ids[k];
			it->row = rows[i];
			it->complete = !strcmp(rows[i].status, "complete");
			rc = item_load(db, it, &loads, keep_text, err, errsz);
		}
		free(rows);
		argv_free(&loads);
		if (rc)
			return -1;
	}
	return 0;
}

void trace_items_free(struct trace_items *items)
{
	for (size_t i = 0; i < items->n; i++) {
		struct trace_item *it = &items->v[i];
		store_trace_row_clear(&it->row);
		buf_free(&it->text);
		trace_analysis_free(&it->a);
		free(it->title);
	}
	free(items->v);
	memset(items, 0, sizeof(*items));
}
