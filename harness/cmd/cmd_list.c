/* schedrig list: the runs in a results database, newest last. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cmdopts.h"
#include "commands.h"
#include "provenance.h"
#include "store.h"
#include "store_list.h"

static const char usage_text[] =
	"usage: schedrig list [--db FILE]\n"
	"\n"
	"List the runs: id, name, start date, the kernels its variants ran (the rig's\n"
	"own when none came up), cells, iterations, status\n"
	"(abandoned: a run whose schedrig died, e.g. killed -9; finish it with\n"
	"schedrig run --resume ID).\n"
	"  --db FILE   results database (default " DEFAULT_DB ")\n";

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

/* One line: id, name, start, kernel, cells, iterations, status. */
static void print_row(const struct stored_run_row *r)
{
	char iters[24] = "-";
	if (r->iterations >= 0)
		snprintf(iters, sizeof(iters), "%" PRId64, r->iterations);
	printf("%-5" PRId64 " %-32s %-20s %-24s %5" PRId64 " %5s %s\n", r->id, or_dash(r->name),
	       or_dash(r->started_at), or_dash(r->kernel_release), r->n_cells, iters,
	       provenance_run_status(or_dash(r->status), or_dash(r->host), or_dash(r->boot_id),
				     r->rig_pid, r->rig_start_ticks));
}

int cmd_list(int argc, char **argv, struct cmd_ctx *ctx)
{
	const char *db = DEFAULT_DB;
	struct store *s;
	char err[512];
	int rc = cmd_db_options(argc, argv, usage_text, &db, 0, 0);

	if (rc >= 0)
		return rc;
	if (!(s = cmd_store(ctx, db)))
		return 1;
	struct stored_run_row *rows;
	size_t n;
	if (store_run_list(s, &rows, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig list: %s\n", err);
		return 1;
	}
	printf("%-5s %-32s %-20s %-24s %5s %5s %s\n", "id", "name", "started (UTC)", "kernel",
	       "cells", "iters", "status");
	for (size_t i = 0; i < n; i++)
		print_row(&rows[i]);
	store_run_rows_free(rows, n);
	return 0;
}
