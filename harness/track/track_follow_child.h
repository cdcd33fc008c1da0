/* track --follow's children and its stop: the schedrig commands a follow
 * runs (a step's run, a bisection, a mail) and the signal that stops it.
 * Below the other track_follow files, which all use it. */
#ifndef SCHEDRIG_TRACK_FOLLOW_CHILD_H
#define SCHEDRIG_TRACK_FOLLOW_CHILD_H

#include <stddef.h>

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

#endif
