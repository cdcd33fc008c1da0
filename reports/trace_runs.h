/* The stored traces of runs, read and analysed (trace_analysis.h): what
 * schedrig trace and schedrig plot read. A trace is checked against its
 * run: every load its task lines name must be one of the run's config. */
#ifndef SCHEDRIG_TRACE_RUNS_H
#define SCHEDRIG_TRACE_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_trace.h"
#include "trace_analysis.h"
#include "util.h"

/* Which traces (NULL / 0: any). */
struct trace_filter {
	const char *variant, *cell;
	int iteration;
};

/* One stored trace. */
struct trace_item {
	int64_t run_id;
	struct stored_trace row;      /* its row (strings owned) */
	bool complete;                /* of a complete iteration */
	struct buf text;              /* its text (only with keep_text) */
	struct trace_analysis a;
	char *title;                  /* "run R variant V cell C iteration I" */
};

struct trace_items {
	struct trace_item *v;
	size_t n;
};

/* The traces of runs ids (in order, each in config order) of the database
 * at db (their files are relative to its directory) that f selects, read
 * and analysed into items (free with trace_items_free); keep_text keeps
 * each text. 0, or -1 with err (a row that is not the rig's, a file that
 * is missing or not a whole gzip, a trace that is no trace, a load the
 * run has not). */
int trace_items_load(struct store *st, const char *db, const int64_t *ids, size_t n_ids,
		     const struct trace_filter *f, bool keep_text, struct trace_items *items,
		     char *err, size_t errsz);
void trace_items_free(struct trace_items *items);

/* Read a trace file: gzip (the rig's) or plain text, appended to b. 0, or
 * -1 with err. */
int trace_file_read(const char *path, struct buf *b, char *err, size_t errsz);

#endif
