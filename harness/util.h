/* Small helpers shared by every module: checked allocation, a growable byte
 * buffer, a growable argv, and C-locale number parsing. */
#ifndef SCHEDRIG_UTIL_H
#define SCHEDRIG_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* malloc/calloc/realloc/strdup that abort with a message on exhaustion.
 * Never return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* printf into a freshly allocated string (C locale is the process locale). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable byte buffer, always NUL-terminated once anything was appended.
 * len excludes the terminator. */
struct buf {
	char *data;
	size_t len, cap;
};
void buf_append(struct buf *b, const void *data, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Return the contents (never NULL: "" when empty). */
const char *buf_str(const struct buf *b);
void buf_free(struct buf *b);

/* A NULL-terminated argument vector under construction; argv.v[argv.n] == NULL. */
struct argv {
	char **v;
	size_t n, cap;
};
void argv_add(struct argv *a, const char *arg);
void argv_addf(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(struct argv *a);
/* Render for humans (plan output, database): arguments separated by one
 * space, each quoted with '...' when it holds anything but [A-Za-z0-9_./:=,+-]. */
char *argv_render(const struct argv *a);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t mono_ns(void);

/* The newest (mtime) file in dir whose name starts with prefix and ends
 * with suffix: its path "DIR/NAME" into out. Returns 0 when found, -1 when
 * there is none (or dir cannot be read). */
int newest_file(const char *dir, const char *prefix, const char *suffix, char *out, size_t size);

/* Append the bytes of the file at path to b (b->data stays NUL-terminated
 * through buf_str), at most max bytes. Returns 0, or -1 with errno set
 * (EFBIG: larger than max; what was read stays appended). */
int buf_read_file(struct buf *b, const char *path, size_t max);

/* Create or truncate the file at path and write len bytes of data.
 * Returns 0, or -1 with "write PATH: reason" in err. */
int file_write(const char *path, const void *data, size_t len, char *err, size_t errsz);

/* mkdir -p dir (mode 0755 for what it creates). Returns 0, or -1 with the
 * component that could not be created and why in err. */
int mkdir_p(const char *dir, char *err, size_t errsz);

/* Parse a whole string as a base-10 integer (leading zeros allowed: cyclictest
 * zero-pads). Returns false on empty input, trailing junk or overflow. */
bool parse_ll(const char *s, long long *out);
/* true when s[0..len) is valid UTF-8 (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF). */
bool utf8_valid(const char *s, size_t len);
/* true when s is UTF-8 without control characters (C0, DEL, C1): text fit
 * for a name in a table or a terminal. */
bool plain_text(const char *s);
/* Parse a whole string as a double in the C locale; "nan" accepted.
 * Returns false on empty input or trailing junk. */
bool parse_double(const char *s, double *out);

/* Format a double with "%.*f" in the C locale, "NaN" for NaN, "inf"/"-inf". */
void fmt_double(char *dst, size_t size, double v, int decimals);

#endif
