/* A LAVA job log as LAVA 2023.01 stores and serves it (output.yaml, GET
 * /api/v0.2/jobs/N/logs/, lava-run's stdout): a YAML sequence of flow
 * mappings, one a line, {dt, lvl, msg[, ns]} (lava_common/log.py dump());
 * lava-run writes the same lines to stderr without the "- ".
 * Console lines have lvl "target" and msg a string in which LAVA's
 * ShellLogger has replaced every '"' with '\"' and dropped '\r' and ESC
 * (lava_dispatcher/shell.py ShellLogger.write); results have lvl "results"
 * and msg a mapping (definition, case, result, error_type, error_msg, ...). */
#ifndef SCHEDRIG_LAVA_LOG_H
#define SCHEDRIG_LAVA_LOG_H

#include <stddef.h>
#include <stdio.h>

/* What the log says about the job besides its console lines. */
struct lava_log_facts {
	size_t entries;          /* log entries read */
	size_t target_lines;     /* console lines handed over */
	char job_result[16];     /* result of case "job" (pass, fail), "" none */
	char error_type[64];     /* of the first results entry with error_type */
	char error_msg[1024];    /* its error_msg, else the first "error" entry */
	char panic[512];         /* the first console line holding "Kernel panic" */
};

/* Called with each console line, as the device printed it (LAVA's '\"'
 * turned back into '"'), NUL-terminated, without the line break. */
typedef void (*lava_console_fn)(void *ctx, const char *line, size_t len);

/* Read the job log from f (a sequence, or lava-run's lines) to its end,
 * in chunks (memory bounded by its longest entry, not by its size),
 * calling fn for every console line in order, and fill facts. Returns 0,
 * or -1 with err ("LINE:COL: ..." of a YAML error, a read error, or a top
 * level that is not a sequence). */
int lava_log_read(FILE *f, lava_console_fn fn, void *ctx, struct lava_log_facts *facts,
		  char *err, size_t errsz);

/* line (len bytes) with the backslash LAVA put before every '"' removed,
 * into out (which gets len + 1 bytes at most). ShellLogger inserts '\'
 * before each '"' and changes nothing else that way, so this is exact. */
void lava_log_unescape(const char *line, size_t len, char *out);

#endif
