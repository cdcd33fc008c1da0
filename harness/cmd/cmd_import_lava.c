/* schedrig import-lava JOBLOG CONFIG VARIANT: store the results of a LAVA
 * job someone submitted (schedrig lava-job's definition) as a run of
 * CONFIG with only VARIANT: `schedrig run CONFIG --variant VARIANT
 * --lava-log JOBLOG`, so the agent's lines are checked against the plan and
 * stored exactly as a boot: lava variant's (variants/lava.c). */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const char usage_text[] =
	"usage: schedrig import-lava JOBLOG CONFIG VARIANT [--db FILE] [--quiet]\n"
	"\n"
	"Store the agent's results in the LAVA job log JOBLOG (as lava-server serves\n"
	"it: GET /api/v0.2/jobs/N/logs/, or lava-run's output) as a new run of CONFIG\n"
	"holding the boot: lava variant VARIANT, whose job definition schedrig lava-job\n"
	"wrote. Every agent line is checked against the plan of CONFIG: the log is\n"
	"not trusted. Exit status as schedrig run's.\n";

int cmd_import_lava(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc < 4 || argv[1][0] == '-' || argv[2][0] == '-' || argv[3][0] == '-') {
		fprintf(stderr, "schedrig import-lava: needs JOBLOG, CONFIG and VARIANT\n%s",
			usage_text);
		return EXIT_USAGE;
	}
	char *rargv[16] = {"run", argv[2], "--variant", argv[3], "--lava-log", argv[1]};
	int n = 6;
	for (int i = 4; i < argc && n < 15; i++)
		rargv[n++] = argv[i];
	if (argc - 4 > 15 - 6) {
		fprintf(stderr, "schedrig import-lava: too many options\n%s", usage_text);
		return EXIT_USAGE;
	}
	rargv[n] = NULL;
	/* Its table entry writes the database, as run's does. */
	return cmd_run(n, rargv, ctx);
}
