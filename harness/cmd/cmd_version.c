/* schedrig version (also schedrig --version): the version of this binary,
 * the string every run stores as its schedrig_version (SCHEDRIG_VERSION,
 * set from VERSION in the Makefile). */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const char usage_text[] =
	"usage: schedrig version   (or schedrig --version)\n"
	"\n"
	"Print 'schedrig VERSION': the version every run stores (schedrig show).\n";

int cmd_version(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no set-up: CMD_NO_STORE */
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc > 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	printf("schedrig %s\n", SCHEDRIG_VERSION);
	return 0;
}
