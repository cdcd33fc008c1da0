/* The option loop the commands share (getopt_long), and the checks of
 * their operands. */
#ifndef SCHEDRIG_CMDOPTS_H
#define SCHEDRIG_CMDOPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cmd_ctx;
struct reportcmd;

/* How one command reads its options (cmd_parse). */
struct cmd_optspec {
	const char *cmd;               /* "plot": messages start "schedrig plot: " */
	const char *shortopts;         /* getopt's: "", or "h" (-h is --help) and more */
	const struct option *longopts; /* NULL-terminated; val 'h' is --help */
	const char *usage;             /* --help's text on stdout */
	void (*help)(void *ctx);       /* or NULL: prints --help's text itself */
	const char *help_tail;         /* NULL, or printed after usage for --help */
	/* A refused option (unknown, or its value missing): NULL prints usage
	 * on stderr; else "schedrig CMD: bad option 'ARG'" with this after it
	 * ("" or " (missing value?)") and "Try 'schedrig CMD --help'.". An
	 * unknown short option is "schedrig CMD: unknown option '-C'" then. */
	const char *bad_hint;
	/* With usage_lines set instead, a refused option is the usage error
	 * (cmd_usage_error) "ARG needs a value" when its val is one of the
	 * bytes of with_value, else "unknown option 'ARG'". */
	const char *usage_lines;
	const char *with_value;
	int report_getopt;             /* getopt's own message too (opterr 1) */
	/* Every other option: on(val, arg, ctx) returns 0 to go on or the
	 * command's exit status after saying why. */
	int (*on)(int val, const char *arg, void *ctx);
	void *ctx;
	/* cmd_report_parse: the report options (reportcmd.h) the command
	 * takes besides longopts, their vals ended by 0; NULL: all of them. */
	const int *shared;
};

/* Parse argv's options as spec says. Returns -1 when every option was
 * taken (optind at the first operand), else the exit status to return: 0
 * after --help, EXIT_USAGE after a refused option, or what on returned. */
int cmd_parse(int argc, char **argv, const struct cmd_optspec *spec);

/* Parse argv's options with longopts (NULL-terminated, no short options):
 * an option of val 'h' prints usage on stdout; any other is handed to
 * on(val, optarg, ctx), which returns 0 to go on or the command's exit
 * status (it says why itself); an unknown option or a missing value prints
 * usage on stderr (EXIT_USAGE). Returns -1 when every option was taken
 * (optind at the first operand), else the exit status to return. */
int cmd_options(int argc, char **argv, const struct option *longopts, const char *usage,
		int (*on)(int val, const char *arg, void *ctx), void *ctx);

/* The options of a command with one option of a value and one flag
 * (show: --db FILE, --config; build: --db FILE, --quiet; host: --root
 * DIR, --advice), for cmd_parse's on with ctx a struct cmd_value_flag:
 * an option with a value (arg not NULL) sets value, the other flag.
 * Returns 0. */
struct cmd_value_flag {
	const char *value;
	bool flag;
};
int cmd_value_flag_option(int val, const char *arg, void *ctx);

/* The options of a command that takes only --db FILE (into *db) and
 * --help, as cmd_parse with report_getopt: glibc's message, then usage on
 * stderr for anything else; then min..max operands (cmd_operands). -1 to
 * go on, else the exit status. */
int cmd_db_options(int argc, char **argv, const char *usage, const char **db, int min, int max);

/* The operands after the options (argv from optind on) must be between
 * min and max of them: 0, or EXIT_USAGE after usage on stderr. */
int cmd_operands(int argc, int min, int max, const char *usage);

/* At most one RUN operand (an id, a name or 'latest', the default), its
 * run id into *id through cmd_select_runs with database db. 0, EXIT_USAGE
 * after usage on stderr, or 1 after cmd_select_runs' message. */
int cmd_one_run(struct cmd_ctx *ctx, const char *db, int argc, char **argv, const char *usage,
		int64_t *id);

/* A report command's options (compare, report, trace, mail, plot):
 * cmd_parse with spec, its longopts and the report options spec->shared
 * names (reportcmd_long_options), where spec->on returns -1 for an option
 * that is not the command's own, which then goes to reportcmd_option(c);
 * the operands are c's RUN selectors (c->runs, c->n_runs). -1 to go on,
 * else the exit status. */
int cmd_report_parse(int argc, char **argv, struct reportcmd *c, const struct cmd_optspec *spec);

/* A usage error of command cmd ("run", "bisect"): "schedrig CMD: " and
 * the message (printf's fmt) on stderr, then the command's usage lines and
 * "see schedrig CMD --help". Returns EXIT_USAGE. */
int cmd_usage_error(const char *cmd, const char *usage_lines, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
