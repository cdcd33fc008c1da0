#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void)
{
	fputs("schedrig: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xgrow(void *v, size_t *cap, size_t n, size_t first, size_t elem)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : first;
	return xrealloc(v, *cap * elem);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		out_of_memory();
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void buf_reserve(struct buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void buf_append(struct buf *b, const void *data, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *buf_str(const struct buf *b)
{
	return b->data ? b->data : "";
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void argv_add(struct argv *a, const char *arg)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 8;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = xstrdup(arg);
	a->v[a->n] = NULL;
}

void argv_addf(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	argv_add(a, s);
	free(s);
}

void argv_addl(struct argv *a, ...)
{
	va_list ap;
	va_start(ap, a);
	for (const char *w; (w = va_arg(ap, const char *));)
		argv_add(a, w);
	va_end(ap);
}

void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void argv_free(struct argv *a)
{
	strv_free(a->v, a->n);
	a->v = NULL;
	a->n = a->cap = 0;
}

static bool plain_arg(const char *s)
{
	return *s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+-")];
}

void buf_sh_quote(struct buf *b, const char *word)
{
	buf_append(b, "'", 1);
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			buf_puts(b, "'\\''");
		else
			buf_append(b, p, 1);
	}
	buf_append(b, "'", 1);
}

char *argv_render(const struct argv *a)
{
	struct buf b = {0};

	for (size_t i = 0; i < a->n; i++) {
		if (i)
			buf_puts(&b, " ");
		if (plain_arg(a->v[i]))
			buf_puts(&b, a->v[i]);
		else
			buf_sh_quote(&b, a->v[i]);
	}
	if (!b.data)
		return xstrdup("");
	return b.data;
}

uint64_t fnv1a_step(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ULL;
}

uint64_t fnv1a_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++)
		h = fnv1a_step(h, p[i]);
	return h;
}

void lock_file_holder(int fd, char *dst, size_t size)
{
	ssize_t n = pread(fd, dst, size - 1, 0);
	dst[n > 0 ? n : 0] = '\0';
	dst[strcspn(dst, "\n")] = '\0';
	if (!dst[0])
		snprintf(dst, size, "?");
}

/* lock_file_open's one attempt (flags: O_CREAT, or O_CREAT | O_EXCL).
 * Returns the fd, -1 with err, or -2 with err when path is another user's
 * file, a link or not a regular file (what someone else may have planted). */
static int lock_file_try(const char *path, int flags, char *err, size_t errsz)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | flags, 0600);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errsz, "lock file %s: %s%s", path, strerror(e),
			 e == ELOOP ? " (a symbolic link: remove it)" : "");
		/* EACCES for root: fs.protected_symlinks or _regular refused a planted one */
		return e == ELOOP || e == EACCES ? -2 : -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		snprintf(err, errsz, "lock file %s is not a regular file of uid %d with one link"
			 " (another user's file or a hard link?): remove it", path, (int)geteuid());
		close(fd);
		return -2;
	}
	/* One an older rig made 0644: nobody else may open it from now on. */
	if ((st.st_mode & 077) && fchmod(fd, 0600)) {
		snprintf(err, errsz, "lock file %s: cannot make it mode 0600: %s", path,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Is path's directory sticky (/run/lock, /tmp: anyone may plant a file)? */
static bool in_sticky_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
	struct stat st;
	bool sticky = !stat(*dir ? dir : "/", &st) && (st.st_mode & S_ISVTX);
	free(dir);
	return sticky;
}

int lock_file_open(const char *path, char *err, size_t errsz)
{
	int fd = lock_file_try(path, O_CREAT, err, errsz);
	/* Root replaces what another user planted in a sticky directory (it may
	 * unlink there; unlink never touches what a link points to). */
	if (fd == -2 && geteuid() == 0 && in_sticky_dir(path) && !unlink(path)) {
		fprintf(stderr, "schedrig: lock file %s was not root's own: replaced it\n", path);
		fd = lock_file_try(path, O_CREAT | O_EXCL, err, errsz);
	}
	return fd < 0 ? -1 : fd;
}

bool stat_trusted(const struct stat *st)
{
	return (st->st_uid == geteuid() || st->st_uid == 0) && !(st->st_mode & 022);
}

/* Every directory above real (resolved, absolute) is stat_trusted or sticky. */
static int dirs_trusted(const char *real, char *err, size_t errsz)
{
	char dir[PATH_MAX];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", real);
	for (char *slash; (slash = strrchr(dir, '/'));) {
		if (slash == dir)
			slash[1] = '\0'; /* the root */
		else
			*slash = '\0';
		if (lstat(dir, &st) || !S_ISDIR(st.st_mode) ||
		    !(stat_trusted(&st) || ((st.st_mode & S_ISVTX) && (st.st_uid == geteuid() ||
								       st.st_uid == 0)))) {
			snprintf(err, errsz, "directory %s above %s is owned by uid %d (mode %04o):"
				 " another user could replace the file, not trusted", dir, real,
				 (int)st.st_uid, (unsigned)(st.st_mode & 07777));
			return -1;
		}
		if (slash == dir)
			break;
	}
	return 0;
}

int path_trusted(const char *path, char *real, size_t realsz, char *err, size_t errsz)
{
	char r[PATH_MAX];
	struct stat st;
	if (!realpath(path, r)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	int fd = open(r, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errsz, "%s: %s", r, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (!S_ISREG(st.st_mode) || !stat_trusted(&st)) {
		snprintf(err, errsz, "%s is %sowned by uid %d (mode %04o), not trusted", r,
			 S_ISREG(st.st_mode) ? "" : "not a regular file, ", (int)st.st_uid,
			 (unsigned)(st.st_mode & 07777));
		return -1;
	}
	if (dirs_trusted(r, err, errsz))
		return -1;
	snprintf(real, realsz, "%s", r);
	return 0;
}

int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void utc_now(char *dst, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(dst, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int mkdir_p(const char *dir, char *err, size_t errsz)
{
	char partial[PATH_MAX];
	size_t len = strlen(dir);

	if (len >= sizeof(partial)) {
		snprintf(err, errsz, "%.400s: path too long", dir);
		return -1;
	}
	for (size_t i = 1; i <= len; i++) {
		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		snprintf(partial, sizeof(partial), "%.*s", (int)i, dir);
		if (mkdir(partial, 0755) && errno != EEXIST) {
			snprintf(err, errsz, "cannot create %.400s: %s", partial, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Length of the run of decimal digits at s. */
static size_t digits_at(const char *s)
{
	return strspn(s, "0123456789");
}

bool parse_ll(const char *s, long long *out)
{
	char *end;

	/* [-]digits, checked before strtoll, which would also take leading
	 * blanks and a '+'. */
	if (!s || !digits_at(s + (*s == '-')))
		return false;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || end == s)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double *out)
{
	char *end;

	if (!s)
		return false;
	/* [-]digits[.digits][(e|E)[+|-]digits], checked before strtod, which
	 * would also take blanks, '+', "inf", "nan" and hexadecimal. */
	const char *p = s + (*s == '-');
	size_t n = digits_at(p);
	if (!n)
		return false;
	p += n;
	if (*p == '.') {
		if (!(n = digits_at(p + 1)))
			return false;
		p += 1 + n;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		p += *p == '+' || *p == '-';
		if (!(n = digits_at(p)))
			return false;
		p += n;
	}
	if (*p)
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (end != p || !isfinite(v) || errno == ERANGE)
		return false;
	*out = v;
	return true;
}

void fmt_double(char *dst, size_t size, double v, int decimals)
{
	if (isnan(v))
		snprintf(dst, size, "NaN");
	else if (isinf(v))
		snprintf(dst, size, v > 0 ? "inf" : "-inf");
	else
		snprintf(dst, size, "%.*f", decimals, v);
}

bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		unsigned char c = *p;
		size_t n;
		uint32_t cp;
		if (c < 0x80) {
			p++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		if ((size_t)(end - p) <= n)
			return false;
		for (size_t i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		p += n + 1;
	}
	return true;
}

const char *name_at(const char *const *names, size_t n, unsigned i)
{
	return i < n ? names[i] : "?";
}

int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

bool plain_text(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return false;
	return utf8_valid(s, strlen(s));
}

int file_read(const char *path, struct buf *b, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(b, chunk, n);
	int bad = ferror(f), read_errno = errno;
	fclose(f);
	if (bad)
		return err_printf(err, errsz, "%s: %s", path, strerror(read_errno));
	buf_append(b, "", 0);
	return 0;
}

int file_copy(const char *src, const char *dst, bool append, char *err, size_t errsz)
{
	FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, append ? "ab" : "wb") : NULL;
	char chunk[65536];
	size_t n;
	bool ok = in && out;

	while (ok && (n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		ok = fwrite(chunk, 1, n, out) == n;
	ok = ok && !ferror(in);
	if (in)
		fclose(in);
	if (out && fclose(out))
		ok = false;
	if (!ok)
		snprintf(err, errsz, "copying %s to %s: %s", src, dst, strerror(errno));
	return ok ? 0 : -1;
}

void file_first_line(const char *path, char *dst, size_t size)
{
	FILE *f = fopen(path, "re");
	dst[0] = '\0';
	if (!f)
		return;
	if (fgets(dst, (int)size, f))
		dst[strcspn(dst, "\n")] = '\0';
	fclose(f);
}

void file_last_line(const char *path, char *dst, size_t size)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	dst[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			snprintf(dst, size, "%s", line);
	}
	if (f)
		fclose(f);
}

int err_printf(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -1;
}

int newest_file(const char *dir, const char *prefix, const char *suffix, char *out,
		size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	time_t best = 0;
	int rc = -1;
	size_t lp = strlen(prefix), ls = strlen(suffix);

	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		if (len < lp + ls || strncmp(de->d_name, prefix, lp) ||
		    strcmp(de->d_name + len - ls, suffix))
			continue;
		char *full = xasprintf("%s/%s", dir, de->d_name);
		if (stat(full, &st) == 0 && (rc || st.st_mtime >= best)) {
			best = st.st_mtime;
			snprintf(out, size, "%s", full);
			rc = 0;
		}
		free(full);
	}
	if (d)
		closedir(d);
	return rc;
}

int buf_read_file(struct buf *b, const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n, start = b->len;
	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && b->len - start <= max)
		buf_append(b, chunk, n);
	int e = ferror(f) ? errno : b->len - start > max ? EFBIG : 0;
	fclose(f);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

int file_write(const char *path, const void *data, size_t len, char *err, size_t errsz)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(data, 1, len, f) == len;
	if (f && fclose(f))
		ok = false;
	if (!ok)
		snprintf(err, errsz, "write %s: %s", path, strerror(errno));
	return ok ? 0 : -1;
}

int file_replace(const char *path, const void *data, size_t len, char *err, size_t errsz)
{
	char *tmp = xasprintf("%s.%ld", path, (long)getpid());
	int rc = -1;
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	ssize_t n = write(fd, data, len);
	if (n != (ssize_t)len) {
		snprintf(err, errsz, "%s: %s", tmp, n < 0 ? strerror(errno) : "short write");
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) || rename(tmp, path)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	return rc;
}
