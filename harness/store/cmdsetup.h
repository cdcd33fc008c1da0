/* A command's set-up: what main's command table hands each command
 * (harness/cmd/commands.h) and the results database it opens through it,
 * once, in the mode the command's entry names. Below the commands, so the
 * report pipeline (reports/reportcmd.h) and bisect open the database the
 * way the commands do. */
#ifndef SCHEDRIG_CMDSETUP_H
#define SCHEDRIG_CMDSETUP_H

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

#endif
