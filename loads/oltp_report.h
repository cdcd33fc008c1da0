/* The oltp built-in's reading of the report sysbench 1.0.20 prints at the
 * end of oltp_read_write ... run (a captured one:
 * tests/fixtures/tool-output/sysbench-oltp-run.txt):
 *     transactions:                        1126   (369.33 per sec.)
 *     queries:                             22553  (7397.48 per sec.)
 *     ignored errors:                      2      (0.66 per sec.)
 *     reconnects:                          0      (0.00 per sec.)
 * and, under "Latency (ms):",
 *          95th percentile:                       15.00
 * Counts are base-10 integers, rates and the percentile finite decimals
 * (parse_ll, parse_double): "inf", "nan" or a hexadecimal float is no
 * value, and a report without one of them is a failure. */
#ifndef SCHEDRIG_OLTP_REPORT_H
#define SCHEDRIG_OLTP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

struct oltp_report {
	unsigned long long transactions, queries, errors, reconnects;
	double tps, qps, p95; /* per second, per second, ms */
};

/* Read the report from f. 0 with every field set; -1 with why: sysbench's
 * own FATAL line ("sysbench: ..."), or which line is missing or holds no
 * valid number (where names the file for the message). */
int oltp_report_scan(FILE *f, const char *where, struct oltp_report *r, char *why, size_t whysz);

#endif
