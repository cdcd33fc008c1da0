/* The subcommands of schedrig. Each takes the arguments after its own name
 * (argv[0] is the command name) and returns the process exit status:
 * 0 success, 1 a failed run or operation, 2 bad usage or bad config. */
#ifndef SCHEDRIG_COMMANDS_H
#define SCHEDRIG_COMMANDS_H

#define EXIT_USAGE 2

/* The results database of every command that takes --db FILE, when none
 * is given (relative to the working directory). */
#define DEFAULT_DB "results/schedrig.db"

int cmd_run(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_monitors(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_mail(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_reparse(int argc, char **argv);
int cmd_check_config(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_loads(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
