/* harness/cmd/: the commands. One thin file per command (cmd_NAME.c: parse
 * its options, call the engine, print) and cmdopts (the shared option
 * loop). What compare, report, mail and bisect share (choose runs, load
 * samples, notes, summary) is the report pipeline, reports/reportcmd.h; what
 * main hands each command, harness/store/cmdsetup.h. The command table is
 * harness/main.c.
 */

/* The subcommands of schedrig. Each takes the arguments after its own name
 * (argv[0] is the command name) and the set-up main made for it (struct
 * cmd_ctx), and returns the process exit status: 0 success, 1 a failed run
 * or operation, 2 bad usage or bad config. */
#ifndef SCHEDRIG_COMMANDS_H
#define SCHEDRIG_COMMANDS_H

#include "cmdsetup.h"

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
int cmd_track(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_export(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_import(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_reparse(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_check_config(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_load(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_loads(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_restore(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_build(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_cache(int argc, char **argv, struct cmd_ctx *ctx);
/* schedrig cache diff|verify|--clear-stale (cmd_cache_builds.c): the
 * results directory's kernel builds; called by cmd_cache for those forms,
 * its help (usage lines and text) printed by cmd_cache --help too. */
int cmd_cache_builds(int argc, char **argv);
const char *cmd_cache_builds_help(void);
int cmd_host(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_agent(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_version(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_lava_job(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_import_lava(int argc, char **argv, struct cmd_ctx *ctx);

#endif
