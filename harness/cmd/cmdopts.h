/* The option loop the commands share (getopt_long, long options only). */
#ifndef SCHEDRIG_CMDOPTS_H
#define SCHEDRIG_CMDOPTS_H

#include <getopt.h>

/* Parse argv's options with longopts (NULL-terminated, no short options):
 * an option of val 'h' prints usage on stdout; any other is handed to
 * on(val, optarg, ctx), which returns 0 to go on or the command's exit
 * status (it says why itself); an unknown option or a missing value prints
 * usage on stderr (EXIT_USAGE). Returns -1 when every option was taken
 * (optind at the first operand), else the exit status to return. */
int cmd_options(int argc, char **argv, const struct option *longopts, const char *usage,
		int (*on)(int val, const char *arg, void *ctx), void *ctx);

/* The end of a command's own option loop at val, an option it does not
 * take itself: --help (val 'h') prints usage on stdout and returns 0;
 * anything else (an unknown option, a missing value) prints usage on
 * stderr and returns EXIT_USAGE. */
int cmd_help_or_usage(int val, const char *usage);

/* A usage error of command cmd ("run", "bisect"): "schedrig CMD: " and
 * the message (printf's fmt) on stderr, then the command's usage lines and
 * "see schedrig CMD --help". Returns EXIT_USAGE. */
int cmd_usage_error(const char *cmd, const char *usage_lines, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
