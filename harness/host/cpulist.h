/* CPU lists as the kernel prints and takes them ("0-3,8": ascending
 * numbers and ranges, comma-separated; Documentation/admin-guide/
 * cputopology.rst), and the hex masks of /proc/irq (core-api/printk-formats
 * "%*pb": 32-bit words, commas between). */
#ifndef SCHEDRIG_CPULIST_H
#define SCHEDRIG_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Parse a CPU list ("0-3,8"; "" or a newline ends it) into a malloc'd
 * ascending array of *n numbers (0..65535). NULL with *n 0 for an empty
 * list (*ok true) or a malformed one (*ok false). */
int *cpulist_parse(const char *text, size_t *n, bool *ok);

/* The n ascending numbers of v as a CPU list ("0-3,8"), appended to out. */
void cpulist_text(const int *v, size_t n, struct buf *out);

/* The n ascending numbers of v as a hex mask ("3", "1,00000000"),
 * appended to out. */
void cpulist_mask(const int *v, size_t n, struct buf *out);

#endif
