/* Text scanning shared by the load drivers' parsers: complete lines of a
 * tool's output, whitespace fields of one line, the common exit-status rule,
 * and the percentile op label ("p99", "p99.9"). Numbers go through parse_ll
 * and parse_double (util.h): base 10, C locale. */
#ifndef SCHEDRIG_SCAN_H
#define SCHEDRIG_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "load.h"

/* The complete lines of a text, in order. A last line without its newline
 * is the tail of truncated output and is left out (every tool this rig
 * drives ends its output with a newline). Lines keep no '\n' and no trailing
 * '\r'; NUL bytes inside the text end a line's visible content. */
struct text_lines {
	char *buf;
	char **line;
	size_t n;
};
/* Split len bytes of text into t (copied); free with text_lines_free. */
void text_lines_split(struct text_lines *t, const char *text, size_t len);
void text_lines_free(struct text_lines *t);

/* The whitespace-separated fields of one line (a private copy), at most
 * FIELDS_MAX (enough for cyclictest -h rows of 1024 threads); fields past
 * that are dropped and n stays FIELDS_MAX. */
#define FIELDS_MAX 1040
struct fields {
	char *copy;
	char *f[FIELDS_MAX];
	size_t n;
};
/* Split line at runs of blanks into fs (copied); free with fields_free. */
void fields_split(struct fields *fs, const char *line);
void fields_free(struct fields *fs);

/* The text after prefix when line, with leading blanks skipped, starts with
 * prefix; NULL otherwise. */
const char *after_prefix(const char *line, const char *prefix);
/* true when s is empty or only blanks. */
bool blank(const char *s);

/* The value text holds: a finite decimal >= 0 (parse_double) between
 * blanks and nothing else, or followed by the one field unit when unit is
 * not NULL ("1.817 [sec]"). false for anything else. */
bool scan_value(const char *text, const char *unit, double *v);
/* The value after prefix on line (scan_value of the rest, see after_prefix):
 * 1 with *v, 0 when line does not start with prefix, -1 when it does but no
 * valid value follows (sysbench's "avg:   0.39", hackbench's "Time: 1.853"). */
int scan_labelled(const char *line, const char *prefix, const char *unit, double *v);
/* The value of the one line of t that starts with prefix (scan_labelled):
 * 1 with *v, 0 when no line does, or -1 with why: "unparsable NAME line:
 * \"LINE\"" or "more than one NAME line", NAME being prefix without its
 * trailing ':' (hackbench's "Time:", perf bench's "Total time:"). */
int scan_one_labelled(const struct text_lines *t, const char *prefix, const char *unit, double *v,
		      char *why, size_t whysz);

/* Parse the number that follows key in line ("Max:" in cyclictest's
 * "... Max:     257"): blanks after key are skipped and the number must
 * end at a blank or the end of the line. false when key is absent or no
 * number follows. */
bool key_ll(const char *line, const char *key, long long *out);
bool key_double(const char *line, const char *key, double *out);

/* The exit-status rule every driver applies before parsing (HACKING.md: a
 * tool that crashes yields a failure). Returns 0 when the output may be
 * parsed: exit code 0 of a run that was not stopped; or a run the rig
 * stopped (o->stopped) of a driver that summarizes_on_stop, whatever its
 * exit code, or killed by ops->stop_signal itself (the parser then still
 * needs its summary). A stopped run of a driver that does not summarize is
 * a failure even with exit code 0 and a result line (hackbench prints a
 * partial "Time:" on SIGTERM). Otherwise -1 with "killed by signal N
 * (SIGNAME)", "exit code N" or "stopped ..." in why. */
int output_status(const struct load_output *o, const struct load_ops *ops,
		  char *why, size_t whysz);

/* Format a percentile in percent as an op label: "p" followed by the number
 * with trailing zeros and a trailing '.' removed: 99.000 -> "p99",
 * 99.900 -> "p99.9", 99.990 -> "p99.99", 50.0 -> "p50". text is the number
 * as the tool printed it (a '*' marker or a "th"/"%" suffix must already be
 * stripped). Returns false when text is not a number in [0, 100]. */
bool percentile_op(const char *text, char *op, size_t opsz);

/* The first line of text (len bytes) holding one of the NULL-terminated
 * patterns, blanks around it and its line break removed, cut to fit size
 * (size > 0): a failure in the tool's own words (load_ops.failure_lines).
 * false when no line does (or patterns is NULL). */
bool text_find_line(const char *text, size_t len, const char *const *patterns, char *line,
		    size_t size);

/* One order statistic of a tool's summary, named as the tool names it
 * ("Min", "Avg", "p99", "<MAX> observation"). */
struct order_stat {
	const char *name;
	double value;
};
/* A summary whose order statistics contradict each other is garbage, a
 * failure and no sample (HACKING.md): s[0..n), listed from the smallest
 * up (min, avg, max; p50, p90, p99, max), must never decrease, and none may
 * be negative (latencies, counts and rates all). Returns 0, or -1 with why
 * naming what (the tool's line or block) and the pair, e.g.
 *   "T: line of thread 0: Min 30 is above Max 20"
 *   "Latency (ms): min -1 is negative". */
int order_check(const char *what, const struct order_stat *s, size_t n, char *why,
		size_t whysz);

/* snprintf into why and return -1: the one-line failure helper of parsers. */
int parse_fail(char *why, size_t whysz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
