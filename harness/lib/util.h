/* harness/lib/: what every subsystem uses: util (allocation, buffers, argv,
 * C-locale numbers, files), strmap, spawn (the one way to start a program),
 * base64, netrc, cache (the rig's cache directory) and progress (the
 * progress line).
 */

/* Small helpers shared by every module: checked allocation, a growable byte
 * buffer, a growable argv, and C-locale number parsing. */
#ifndef SCHEDRIG_UTIL_H
#define SCHEDRIG_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* malloc/calloc/realloc/strdup that abort with a message on exhaustion.
 * Never return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* The array v of *cap elements of elem bytes, of which n are used, with
 * room for one more: when n == *cap, *cap doubles (first when 0) and v is
 * reallocated (xrealloc); else v as it is. The growth of every appendable
 * array: "v = xgrow(v, &cap, n, 16, sizeof(*v))". */
void *xgrow(void *v, size_t *cap, size_t n, size_t first, size_t elem);
char *xstrdup(const char *s);
/* printf into a freshly allocated string (C locale is the process locale). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* xasprintf with a va_list (ap is used up, as by vasprintf). */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

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
/* argv_add of each word of the NULL-terminated list after a, in order
 * ("-device", "pvpanic-pci", NULL). */
void argv_addl(struct argv *a, ...) __attribute__((sentinel));
void argv_free(struct argv *a);

/* Free each of the n strings of v (NULLs are fine), then v. */
void strv_free(char **v, size_t n);
/* Append word to b in single quotes for a POSIX shell, an embedded single
 * quote written '\'' (POSIX XCU 2.2.2: within single quotes every character
 * is literal except the closing quote); '' for the empty word. Every byte is
 * kept, line breaks too: a caller that hands the text to a shell refuses
 * those first (sshargv.h sh_quote_word). */
void buf_sh_quote(struct buf *b, const char *word);
/* Render for humans (plan output, database): arguments separated by one
 * space, each quoted with buf_sh_quote when it holds anything but
 * [A-Za-z0-9_./:=,+-]. */
char *argv_render(const struct argv *a);

/* FNV-1a 64 (Fowler, Noll, Vo; draft-eastlake-fnv, offset basis
 * 14695981039346656037, prime 1099511628211): hashes for in-memory tables
 * and cache file names. Start from FNV1A_OFFSET_BASIS. fnv1a_step mixes one
 * value in (h xor v, times the prime); fnv1a_bytes one step per byte of
 * data[0..n). */
#define FNV1A_OFFSET_BASIS 0xcbf29ce484222325ULL
uint64_t fnv1a_step(uint64_t h, uint64_t v);
uint64_t fnv1a_bytes(uint64_t h, const void *data, size_t n);

/* The first line of the lock file open at fd, where its holder wrote who
 * it is, into dst (size > 1); "?" when it is empty. */
void lock_file_holder(int fd, char *dst, size_t size);

/* Open (creating it 0600 when absent) the lock file path for flock. Refuses
 * a symbolic link (O_NOFOLLOW), anything but a regular file with one link,
 * and a file owned by another user: lock files live in world-writable
 * directories (/run/lock, /tmp), where another user could plant a link to a
 * file that root would then truncate. Mode 0600: another user who could
 * open the file could hold its flock and stall every run; an existing one
 * of this user with more bits (made by an older rig) is narrowed to 0600
 * (who opened it before keeps that descriptor: flock has no revoke).
 * Root, finding such a file or link in a sticky directory (/run/lock, /tmp:
 * another user planted it), removes it and creates its own (saying so on
 * stderr), so no user can stop root's runs; another user's planted file
 * stops a non-root rig (it may not remove it). Returns the fd
 * (close-on-exec), or -1 with the path and the reason in err. */
int lock_file_open(const char *path, char *err, size_t errsz);

/* May this process trust what st describes as written only by itself or
 * root: owned by the effective uid or by root, and not writable by group
 * or others? */
bool stat_trusted(const struct stat *st);

/* Is path a regular file that only this effective uid or root can have
 * written or put there (a file read with root's privileges, e.g. the
 * results database of schedrig restore)? The file, links resolved, must be
 * stat_trusted, and so must every directory above it, or be sticky (/tmp),
 * so no other user can swap it after the check. 0 with the resolved path in
 * real (size PATH_MAX: open that), or -1 with err naming the file or
 * directory, its owner and mode, e.g. "/tmp/x/a.db is owned by uid 65534
 * (mode 0644), not trusted". */
int path_trusted(const char *path, char *real, size_t realsz, char *err, size_t errsz);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t mono_ns(void);

/* Now in UTC as ISO 8601, "2026-12-07T10:00:01Z", into dst (at least 21
 * bytes): the form every time the rig stores or prints has. */
void utc_now(char *dst, size_t size);

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

/* Replace the file at path with len bytes of data all at once: written to a
 * new file PATH.PID (O_EXCL, O_NOFOLLOW: never through a link another user
 * planted; mode 0644) and renamed over path, so a reader sees the old file
 * or the new one, never a part. Returns 0, or -1 with "FILE: reason" in err
 * (the new file removed). */
int file_replace(const char *path, const void *data, size_t len, char *err, size_t errsz);

/* mkdir -p dir (mode 0755 for what it creates). Returns 0, or -1 with the
 * component that could not be created and why in err. */
int mkdir_p(const char *dir, char *err, size_t errsz);

/* Append the whole file at path to b. Returns 0 with b->data a
 * NUL-terminated string (also for an empty file), or -1 with
 * "PATH: strerror" in err (b may hold part of it). */
int file_read(const char *path, struct buf *b, char *err, size_t errsz);
/* Copy the file src to dst (created with mode 0644 less the umask, or
 * truncated; with append, added to its end). Returns 0, or -1 with err. */
int file_copy(const char *src, const char *dst, bool append, char *err, size_t errsz);

/* Parse a whole string as a base-10 integer, [-]digits, the one integer
 * form of tool output, configs and command-line options (leading zeros
 * allowed: cyclictest zero-pads). Returns false on empty input, a leading
 * '+' or blank, trailing junk or overflow. */
bool parse_ll(const char *s, long long *out);
/* true when s[0..len) is valid UTF-8 (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF). */
bool utf8_valid(const char *s, size_t len);
/* true when s is UTF-8 without control characters (C0, DEL, C1): text fit
 * for a name in a table or a terminal. */
bool plain_text(const char *s);
/* The name of enum value i in names (n names, indexed by value), or "?"
 * when i is not below n: the *_name functions of enums. */
const char *name_at(const char *const *names, size_t n, unsigned i);
/* The index (enum value) of s among names[0..n), or -1: the *_parse
 * functions of enums. */
int name_index(const char *const *names, size_t n, const char *s);
/* Parse a whole string as a finite decimal number in the C locale, the
 * only form tool output, configs and options carry:
 * [-]digits[.digits][(e|E)[+|-]digits]. Returns false for anything else
 * (empty, blanks, '+', "inf", "nan", hexadecimal such as "0x1p4", a bare
 * "." or "5.") and for a value beyond a double (1e309) or below its
 * smallest normal magnitude (1e-999 would be read as 0). */
bool parse_double(const char *s, double *out);

/* printf's fmt into err (errsz bytes, cut to fit); returns -1, so that
 * "return err_printf(err, errsz, ...)" reports a failure. */
int err_printf(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The first line of the text file at path, its "\n" cut off, cut to fit
 * dst (size > 0 bytes): a /proc or /sys value ("boot_id"). "" when the
 * file cannot be read or is empty. */
void file_first_line(const char *path, char *dst, size_t size);
/* The last line of the text file at path that is not empty (its "\r\n"
 * cut off), cut to fit dst (size > 0 bytes), for a message about a log:
 * "" when the file has none or cannot be read. A line longer than 1023
 * bytes counts as lines of 1023. */
void file_last_line(const char *path, char *dst, size_t size);

/* Format a double with "%.*f" in the C locale, "NaN" for NaN, "inf"/"-inf". */
void fmt_double(char *dst, size_t size, double v, int decimals);

#endif
