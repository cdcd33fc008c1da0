/* Scanning helpers shared by the /proc parsers (procstat.c, procpsi.c,
 * procsched.c): walk a NUL-terminated text line by line and read base-10
 * numbers in place, without copying or allocating. Internal to the parsers. */
#ifndef SCHEDRIG_PROCSCAN_H
#define SCHEDRIG_PROCSCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Skip spaces and tabs (not newlines). */
static inline const char *scan_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The start of the next line, or the terminating NUL. */
static inline const char *scan_next_line(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl + 1 : p + strlen(p);
}

/* Read an unsigned base-10 integer after optional blanks. On success *p moves
 * past it. False when no digit follows or the value overflows 64 bits. */
static inline bool scan_u64(const char **p, uint64_t *out)
{
	const char *s = scan_blank(*p);
	uint64_t v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*p = s;
	*out = v;
	return true;
}

/* A signed base-10 integer. */
static inline bool scan_i64(const char **p, int64_t *out)
{
	const char *s = scan_blank(*p);
	bool neg = *s == '-';
	uint64_t v;
	if (neg)
		s++;
	if (!scan_u64(&s, &v) || v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*p = s;
	return true;
}

/* A decimal "123.456789" or "-1.5" or "42" (the forms /proc prints), read
 * exactly as integer and fraction so the process locale never matters. */
static inline bool scan_decimal(const char **p, double *out)
{
	const char *s = scan_blank(*p);
	bool neg = *s == '-';
	uint64_t ip, fp = 0;
	double scale = 1;
	if (neg)
		s++;
	if (!scan_u64(&s, &ip))
		return false;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return false;
		for (; *s >= '0' && *s <= '9'; s++) {
			if (scale < 1e18) {
				fp = fp * 10 + (uint64_t)(*s - '0');
				scale *= 10;
			}
		}
	}
	double v = (double)ip + (double)fp / scale;
	*out = neg ? -v : v;
	*p = s;
	return true;
}

/* Does the line at p start with word followed by a blank? */
static inline bool scan_word(const char *p, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(p, word, n) && (p[n] == ' ' || p[n] == '\t');
}

#endif
