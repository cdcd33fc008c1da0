/* Helpers shared by the built-in loads (tcp-rr, wakeup-lat), the programs
 * behind `schedrig load NAME --param value ...`: their argv on both sides
 * (build_argv in the rig, argument parsing in the subprocess), the
 * stop-signal wait, and reading back their plain-text result lines.
 *
 * Result format common to every built-in load (each driver documents its
 * metrics and ops in its header comment): plain text on stdout, one record
 * per line, fields separated by single spaces, numbers in the C locale.
 *   line 1:  "schedrig-NAME 1 key=value ..."  (tool and format version, then
 *            the parameters the run used)
 *   then:    "METRIC OP VALUE"                 (one line per sample)
 *   last:    "end key=value ..."               (written after every sample;
 *            a missing end line means the output is truncated) */
#ifndef SCHEDRIG_BUILTIN_H
#define SCHEDRIG_BUILTIN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load.h"

/* Exit status of a built-in load for bad arguments (as EXIT_USAGE). */
#define BUILTIN_EXIT_USAGE 2

/* build_argv of every built-in load: "schedrig" "load" ops->name, then
 * "--NAME" "VALUE" for each parameter of ops (in table order) that has a
 * value in p. Returns 0 (it cannot fail; err is untouched). */
int builtin_build_argv(const struct load_ops *ops, const struct params *p,
		       struct argv *argv, char *err, size_t errsz);

/* Parse the arguments of `schedrig load NAME` (argv[0] = NAME, then
 * "--PARAM VALUE" pairs) against ops->params, checking each value like the
 * config loader does (type, range, choices; a parameter at most once).
 * vals[i] receives the value of ops->params[i] (an argv string or the
 * default). Returns 0; 1 after printing usage for --help/-h; -1 after printing
 * the error to stderr (the caller then exits BUILTIN_EXIT_USAGE). */
int builtin_parse_args(const struct load_ops *ops, int argc, char **argv, const char **vals);

/* The integer value of parameter name in vals as filled by
 * builtin_parse_args (already validated); 0 when absent. */
long long builtin_val_ll(const struct load_ops *ops, const char *const *vals, const char *name);
/* The text value of parameter name in vals, or NULL. */
const char *builtin_val(const struct load_ops *ops, const char *const *vals, const char *name);

/* The most parameters a built-in load has (builtin_begin). */
#define BUILTIN_MAX_PARAMS 16

/* What builtin_begin set up for a builtin_main: the load's parameter
 * values (vals[i] of ops->params[i]) and the signals it blocked. */
struct builtin_args {
	const struct load_ops *ops;
	const char *vals[BUILTIN_MAX_PARAMS];
	sigset_t sigs;
	int exit_status; /* what builtin_main returns when builtin_begin is not 0 */
};
/* The start every builtin_main that waits for its stop signal shares:
 * builtin_block_signals into a->sigs, then builtin_parse_args of argv for
 * ops into a->vals. Returns 0 to run the load, or -1 with a->exit_status
 * what builtin_main returns at once (0 after --help, BUILTIN_EXIT_USAGE
 * after an error on stderr, also for a table of more than
 * BUILTIN_MAX_PARAMS). */
int builtin_begin(struct builtin_args *a, const struct load_ops *ops, int argc, char **argv);
/* The value of parameter name (builtin_val), as text or as an integer
 * (builtin_val_ll); is_value: whether it is value ("thread", "true"). */
const char *builtin_arg(const struct builtin_args *a, const char *name);
long long builtin_arg_ll(const struct builtin_args *a, const char *name);
bool builtin_arg_is(const struct builtin_args *a, const char *name, const char *value);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t builtin_now_ns(void);

/* Block SIGINT, SIGTERM and SIGCHLD in the calling thread (threads and
 * children created afterwards inherit the mask), so that builtin_wait_signal
 * receives them synchronously. set receives the blocked set. Call first
 * thing in builtin_main. */
void builtin_block_signals(sigset_t *set);
/* Wait for one signal of set until CLOCK_MONOTONIC reaches deadline_ns
 * (UINT64_MAX: forever). Returns the signal number, or 0 at the deadline. */
int builtin_wait_signal(const sigset_t *set, uint64_t deadline_ns);

/* Checks every parser does first: the instance ran to a normal exit with
 * status 0 (a stopped built-in load handles stop_signal and exits 0 too).
 * Returns 0, or -1 with the reason (status and first stderr line) in why. */
int builtin_check_exit(const struct load_output *o, char *why, size_t whysz);

/* Result lines, read one at a time. */
struct builtin_reader {
	const char *pos, *end;
	unsigned lineno;
	char line[512];
	char *field[8];
	size_t n_fields;
};
/* Start reading text (len bytes; need not be NUL-terminated). */
void builtin_reader_init(struct builtin_reader *r, const char *text, size_t len);
/* Read the next non-empty line into r->line and split it at spaces into
 * r->field[0..n_fields). Returns 1 for a line, 0 at the end of the text, -1
 * for a line longer than r->line or with more than 8 fields (garbage). */
int builtin_reader_next(struct builtin_reader *r);
/* Check that r->field[0..] is the header "schedrig-NAME 1 ..." of tool name.
 * Returns 0 or -1 with the reason in why. */
int builtin_check_header(const struct builtin_reader *r, const char *name, char *why, size_t whysz);
/* The value of "key=VALUE" among the header or end fields (from field 1 on),
 * or NULL. */
const char *builtin_field_kv(const struct builtin_reader *r, const char *key);
/* The start every built-in parser shares: builtin_check_exit, then the
 * first line must be the header of tool name. Returns 0 with r positioned
 * after the header, or -1 with the reason in why ("no output", garbage,
 * wrong tool or version). */
int builtin_parse_begin(const struct load_output *o, const char *name, struct builtin_reader *r,
			char *why, size_t whysz);

/* The integer header field key=N of r, checked to be a plain base-10 number
 * within [min, max]. Returns 0, or -1 with "line L: header has no valid
 * KEY=" in why. */
int builtin_header_int(const struct builtin_reader *r, const char *key, long long min,
		       long long max, long long *out, char *why, size_t whysz);

/* Read the next result line after the header. Returns 1 for a sample line
 * "METRIC OP VALUE" (metric r->field[0], op r->field[1], the number in
 * *value); 0 for the end line when nothing follows it; -1 with the reason in
 * why for garbage, text after the end line, or no end line (truncated). */
int builtin_next_sample(struct builtin_reader *r, double *value, char *why, size_t whysz);

/* The whole parse of a built-in load whose output holds every metric of ops
 * exactly once, each with op = the header's key=N (1..max): kernbench
 * (jobs), oltp (clients). A run the rig stopped is a failure ("stopped
 * before NAME finished": the tool ends by itself). The parameter key of p
 * (p may be NULL), when not 0, must equal N. The end line must be complete
 * (newline-terminated). Returns 0 with the samples appended, or -1 with the
 * reason in why and nothing appended. */
int builtin_parse_once_each(const struct load_ops *ops, const struct load_output *o,
			    const struct params *p, const char *key, long long max,
			    struct sample_vec *samples, char *why, size_t whysz);

/* Parse a sample value: a finite number >= 0 in the C locale. */
bool builtin_parse_value(const char *s, double *out);

#endif
