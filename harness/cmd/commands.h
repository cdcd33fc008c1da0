/* harness/cmd/: the commands. One thin file per command (cmd_NAME.c: parse
 * its options, call the engine, print); cmdopts (the shared option loop) and
 * reportcmd (what compare, report and mail share: choose runs, load samples,
 * notes, summary). The command table is harness/main.c.
 */

/* The subcommands of schedrig. Each takes the arguments after its own name
 * (argv[0] is the command name) and the set-up main made for it (struct
 * cmd_ctx), and returns the process exit status: 0 success, 1 a failed run
 * or operation, 2 bad usage or bad config. */
#ifndef SCHEDRIG_COMMANDS_H
#define SCHEDRIG_COMMANDS_H

#include <stddef.h>
#include <stdint.h>

#define EXIT_USAGE 2

/* The results database of every command that takes --db FILE, when none
 * is given (relative to the working directory). */
#define DEFAULT_DB "results/schedrig.db"

struct store;

/* What a command's entry in main's table says it does with the results
 * database. */
enum cmd_setup {
	CMD_NO_STORE,     /* no database */
	CMD_STORE_READ,   /* reads it: opened read-only; a missing one is an error */
	CMD_STORE_WRITE,  /* writes it: opened for writing, created when missing */
};

/* What main hands a command. The database is opened when the command asks
 * (cmd_store), after it parsed its options: --help and a usage error need
 * no database, and run opens it only once its config passed preflight (a
 * refused config creates nothing). main closes it after the command. */
struct cmd_ctx {
	const char *name;      /* the command's name, for messages */
	enum cmd_setup setup;  /* from its table entry */
	struct store *st;      /* once cmd_store opened it, else NULL */
};

/* The command's results database db (its --db FILE, or DEFAULT_DB),
 * opened once in the mode its table entry names (read-only or writing);
 * a later call returns the same store. NULL after "schedrig NAME: why" on
 * stderr (a missing database of a reading command, not a schedrig
 * database, a newer schema, ...), or for a command of CMD_NO_STORE. */
struct store *cmd_store(struct cmd_ctx *ctx, const char *db);

/* The runs that sel[0..n) select in the command's database db (cmd_store;
 * store_select_runs: an id, a run name, "latest"; none given: the newest
 * run), into *ids (malloc'd, *n_ids of them). 0, or 1 after
 * "schedrig NAME: why" on stderr. */
int cmd_select_runs(struct cmd_ctx *ctx, const char *db, char *const *sel, size_t n, int64_t **ids,
		    size_t *n_ids);

int cmd_run(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_list(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_show(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_monitors(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_trace(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_report(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_plot(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_mail(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_bisect(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_export(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_import(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_reparse(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_check_config(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_load(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_loads(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_restore(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_build(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_cache(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_agent(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_version(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_lava_job(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_import_lava(int argc, char **argv, struct cmd_ctx *ctx);

#endif
