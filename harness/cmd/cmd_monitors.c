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
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *db = DEFAULT_DB;
	struct store *s = NULL;
	struct buf out = {0};
	char err[512];
	int64_t *ids = NULL;
	size_t n;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 'd') {
			db = optarg;
		} else {
			return cmd_help_or_usage(ch, usage_text);
		}
	}
	if (argc - optind > 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (cmd_select_runs(ctx, db, argv + optind, (size_t)(argc - optind), &ids, &n))
		return 1;
	s = ctx->st;
	int rc = monitor_report_run(s, ids[0], &out, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "schedrig monitors: %s\n", err);
	else if (rc > 0)
		fprintf(stderr,
			"schedrig monitors: run %lld has no monitor series (its config has no"
			" 'monitors:')\n", (long long)ids[0]);
	else
		fputs(buf_str(&out), stdout);
	buf_free(&out);
	free(ids);
	return rc ? 1 : 0;
}
