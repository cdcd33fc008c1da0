/* The option loop the commands share: see cmdopts.h. */
#include "cmdopts.h"

#include <stdarg.h>
#include <stdio.h>

#include "commands.h"

int cmd_options(int argc, char **argv, const struct option *longopts, const char *usage,
		int (*on)(int val, const char *arg, void *ctx), void *ctx)
{
	int ch, rc;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return 0;
		}
		if (ch == '?' || ch == ':') {
			fputs(usage, stderr);
			return EXIT_USAGE;
		}
		if ((rc = on(ch, optarg, ctx)))
			return rc;
	}
	return -1;
}

int cmd_help_or_usage(int val, const char *usage)
{
	fputs(usage, val == 'h' ? stdout : stderr);
	return val == 'h' ? 0 : EXIT_USAGE;
}

int cmd_usage_error(const char *cmd, const char *usage_lines, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "schedrig %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%ssee schedrig %s --help\n", usage_lines, cmd);
	return EXIT_USAGE;
}
