/* schedrig monitors [RUN]: the monitor table of a run (monitor_report.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmdopts.h"
#include "commands.h"
#include "monitor_report.h"
#include "store.h"

static const char usage_text[] =
	"usage: schedrig monitors [RUN] [--db FILE]\n"
	"\n"
	"Print what the monitors saw during a run (an id, a name for its newest\n"
	"run, or 'latest', the default): CPU utilisation, context switches/s,\n"
	"PSI cpu stall, and per load migrations/s, involuntary switches per CPU\n"
	"second and durations; one column per variant, mmtests monitor style.\n"
	"The run's config needs 'monitors:' for there to be anything to show.\n"
	"\n"
	"  --db FILE   results database (default " DEFAULT_DB ")\n";

int cmd_monitors(int argc, char **argv, struct cmd_ctx *ctx)
{
	const char *db = DEFAULT_DB;
	struct buf out = {0};
	char err[512];
	int64_t id;
	int rc = cmd_db_options(argc, argv, usage_text, &db, 0, 1);

	if (rc >= 0)
		return rc;
	if ((rc = cmd_one_run(ctx, db, argc, argv, usage_text, &id)))
		return rc;
	rc = monitor_report_run(ctx->st, id, &out, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "schedrig monitors: %s\n", err);
	else if (rc > 0)
		fprintf(stderr,
			"schedrig monitors: run %lld has no monitor series (its config has no"
			" 'monitors:')\n", (long long)id);
	else
		fputs(buf_str(&out), stdout);
	buf_free(&out);
	return rc ? 1 : 0;
}
