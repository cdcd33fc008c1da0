/* The sample export format, one row per stored sample:
 *   run,variant,cell,load,metric,unit,better,op,iteration,value,tool,repetition
 * CSV as in RFC 4180: a header row with exactly these names, comma
 * separated, a field quoted with "..." when it holds a comma, a quote, CR or
 * LF (quotes inside doubled); lines end in "\n" (a "\r\n" is accepted on
 * input). better is "lower" or "higher"; iteration a base-10 integer >= 1;
 * value a C-locale double, "NaN" for a missing value, written in the
 * shortest form that reads back to the same double; tool the load's driver
 * as stored ("cyclictest" for a load named ct, "imported" for samples
 * imported without one), which sets the tables' decimals; repetition a
 * base-10 integer >= 0, the run of a repeating background load within its
 * iteration (0 first; 0 for every other load; empty on input: 0). A CSV with the header of the
 * first ten names only (CSV_SAMPLE_HEADER_NO_TOOL, written before the tool
 * column) reads as one whose tools are all empty, and one of the first
 * eleven (CSV_SAMPLE_HEADER_NO_REPETITION) as one whose repetitions are all
 * 0. On input a UTF-8 byte order mark before the header is skipped, and two
 * rows of one sample (the same variant, cell, load, metric, op, iteration
 * and repetition; the run is left out: import stores one file as one run)
 * are an error. */
#ifndef SCHEDRIG_CSVIO_H
#define SCHEDRIG_CSVIO_H

#include <stdio.h>

#include "samples.h"
#include "util.h"

/* The header line, without the newline. */
#define CSV_SAMPLE_HEADER_NO_TOOL "run,variant,cell,load,metric,unit,better,op,iteration,value"
#define CSV_SAMPLE_HEADER_NO_REPETITION CSV_SAMPLE_HEADER_NO_TOOL ",tool"
#define CSV_SAMPLE_HEADER CSV_SAMPLE_HEADER_NO_REPETITION ",repetition"

/* Read the sample CSV from f (name is used in messages) and append each row
 * to t. A row with an empty run field gets default_run (NULL: stays empty).
 * variant, load, metric must be non-empty; cell, unit, op may be empty; an
 * empty or absent tool gives sample_row.tool NULL.
 * Returns the number of rows read (>= 0), or -1 with "NAME:LINE: what" in
 * err for the first bad row (LINE is the 1-based line the record starts
 * on); on error t may hold the rows before the bad one, and the caller
 * should discard it. A file whose last line has no newline is refused as
 * truncated (-1, "NAME:LINE: ... truncated ..."), every row discarded. */
long csv_read_samples(FILE *f, const char *name, const char *default_run,
		      struct sample_table *t, char *err, size_t errsz);

/* The same from a string (tests). */
long csv_read_samples_str(const char *text, const char *name, const char *default_run,
			  struct sample_table *t, char *err, size_t errsz);

/* Append the header line and one line per row of t to out. */
void csv_write_samples(struct buf *out, const struct sample_table *t);

/* Append one field to out, quoted when it holds , " CR or LF. */
void csv_put_field(struct buf *out, const char *s);

/* Format v in the shortest "%.*g" that parses back to exactly v (tries
 * precision 15, 16, 17; %.15g already is the shortest form for any double
 * whose shortest form has at most 15 digits); "NaN" for NaN, "inf"/"-inf" for infinities. dst should hold
 * at least 32 bytes. */
void csv_format_double(char *dst, size_t size, double v);

#endif
