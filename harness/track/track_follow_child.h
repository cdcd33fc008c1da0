/* track --follow's children and its stop: the schedrig commands a follow
 * runs (a step's run, a bisection, a mail) and the signal that stops it.
 * Below the other track_follow files, which all use it. */
#ifndef SCHEDRIG_TRACK_FOLLOW_CHILD_H
#define SCHEDRIG_TRACK_FOLLOW_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Run argv (this binary's command) as a child with its output appended
 * to log (bisect_run_child). Its exit status (128+N for a signal), or -1
 * with err when it could not start. */
int track_follow_child(const struct argv *argv, const char *log, char *err, size_t errsz);

/* The SIGINT and SIGTERM handler of a follow: the first signal is kept
 * for track_follow_stopped. */
void track_follow_on_stop(int sig);

/* The signal that stopped the follow (its own or one a child got), 0 none. */
int track_follow_stopped(void);

/* The start of a child's argv: self (this binary), command, and when id
 * is not 0 flag and id ("run --resume RUN", "mail --bisection ID").
 * Returns whether id was added. */
bool track_follow_argv(const char *self, struct argv *a, const char *command,
		       const char *flag, int64_t id);

#endif
