/* What hackbench (rt-tests) and its port perf bench sched messaging share:
 * groups of senders and receivers, their parameters mode (process|thread),
 * ipc (socket|pipe), groups and loops with the same meaning and the same
 * flags' order, and the result: one wall time of the whole message
 * exchange in seconds, printed once. */
#ifndef SCHEDRIG_MESSAGING_H
#define SCHEDRIG_MESSAGING_H

#include <stddef.h>

#include "load.h"
#include "scan.h"

/* Append the flags of mode, ipc, groups and loops in the order both tools
 * take them: process_flag or thread_flag for mode (NULL: no flag for that
 * mode), "-p" for ipc pipe, "-g" GROUPS and "-l" LOOPS. */
void messaging_argv(const struct params *p, struct argv *argv, const char *process_flag,
		    const char *thread_flag);

/* How one tool's output says its wall time: *time_s from the output o or
 * its stdout lines t; 0, or -1 with why. */
typedef int (*messaging_time_fn)(const struct load_output *o, const struct text_lines *t,
				 double *time_s, char *why, size_t whysz);

/* The parser of both tools: output_status (scan.h) for ops, then the one
 * time time_of finds, as the sample time (s, lower) with op = the groups
 * parameter. Returns 0, or -1 with why and no sample. */
int messaging_parse(const struct load_ops *ops, messaging_time_fn time_of,
		    const struct load_output *o, const struct params *p, struct sample_vec *samples,
		    char *why, size_t whysz);

#endif
