/* Progress of schedrig run. On a terminal (isatty of the stream, no
 * --quiet) each finished iteration prints its log line and one live status
 * line is kept at the bottom, redrawn every second ("\r" + text + ESC[K,
 * cut to the terminal width):
 *   [VARIANT] cell k/K iteration i/N | last: LOAD STATE; ... | elapsed 1:02 ETA 3:10
 * where ETA = elapsed / completed iterations × iterations left (none before
 * the first one completes). Not a terminal: the log lines only, plain text
 * without any control character. --quiet: nothing.
 * One status line per process: the functions use a module-level state
 * guarded by a mutex (the redraw runs in a thread of its own). */
#ifndef SCHEDRIG_PROGRESS_H
#define SCHEDRIG_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Start: total = variants × cells × iterations of the run. */
void progress_begin(FILE *f, bool quiet, size_t n_variants, size_t n_cells, int iterations);

/* The variant whose iterations come next. */
void progress_variant(const char *variant);

/* Iteration it (1-based) of cell c (0-based) of the current variant
 * finished; states is "LOAD STATE (N samples) [REASON]; ..." as logged.
 * Prints "[VARIANT] cell c+1/K CELL iteration it/N: STATES" (control
 * characters in names replaced by '?') and updates the status line. */
void progress_iteration(size_t c, const char *cell_name, int it, const char *states);

/* Remove the status line (the terminal is left at the start of an empty
 * line) and stop the redraw thread. Safe to call when not begun. */
void progress_end(void);

/* Format seconds as "M:SS" or "H:MM:SS" into dst. */
void progress_format_duration(char *dst, size_t size, double seconds);

#endif
