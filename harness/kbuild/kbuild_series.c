#include "kbuild_series.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild_key.h"
#include "kbuild_run.h"
#include "util.h"

#define KSERIES_MAX_FILE (64 * 1024 * 1024)

static const char *const patch_suffixes[] = {".patch", ".diff", ".mbox", ".mbx", NULL};

static bool has_patch_suffix(const char *name)
{
	size_t len = strlen(name);
	for (const char *const *s = patch_suffixes; *s; s++) {
		size_t ls = strlen(*s);
		if (len > ls && !strcmp(name + len - ls, *s))
			return true;
	}
	return false;
}

static int read_all(const char *path, struct buf *b, char *err, size_t errsz)
{
	if (!buf_read_file(b, path, KSERIES_MAX_FILE))
		return 0;
	snprintf(err, errsz, "%s: %s", path, errno == EFBIG ? "larger than 64 MiB" : strerror(errno));
	return -1;
}

/* Is the line at p (a line's start) one of the separators `git
 * format-patch` ("From <40 hex> Mon Sep 17 00:00:00 2001"; 64 hex digits
 * in a SHA-256 repository) and b4 ("From
 * git@z Thu Jan  1 00:00:00 1970") write before each message? A "From "
 * in a message's body is not. */
static bool message_start(const char *p, const char *end)
{
	static const char *const b4 = "From git@z Thu Jan  1 00:00:00 1970";
	static const char *const fp_date = " Mon Sep 17 00:00:00 2001";
	size_t len = (size_t)(end - p), n = 0;
	if (len >= strlen(b4) && !strncmp(p, b4, strlen(b4)) &&
	    (len == strlen(b4) || p[strlen(b4)] == '\n'))
		return true;
	if (len < 5 + 40 + strlen(fp_date) || strncmp(p, "From ", 5))
		return false;
	while (n < 64 && n + 5 < len && strchr("0123456789abcdef", p[5 + n]) && p[5 + n])
		n++;
	size_t end_at = 5 + n + strlen(fp_date);
	return (n == 40 || n == 64) && len >= end_at && !strncmp(p + 5 + n, fp_date, strlen(fp_date)) &&
	       (len == end_at || p[end_at] == '\n');
}

/* The Subject: header of a message (continuation lines joined), without
 * leading "[...]" tags, into a new string; NULL when it has none. */
static char *subject_of(const char *msg, size_t len)
{
	const char *end = msg + len, *p = msg;
	while (p < end && *p != '\n') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (!strncasecmp(p, "Subject:", 8)) {
			struct buf s = {0};
			buf_append(&s, p + 8, (size_t)(eol - p - 8));
			while (eol + 1 < end && (eol[1] == ' ' || eol[1] == '\t')) {
				const char *next = memchr(eol + 1, '\n', (size_t)(end - eol - 1));
				if (!next)
					next = end;
				buf_append(&s, eol + 1, (size_t)(next - eol - 1));
				eol = next;
			}
			char *t = xstrdup(buf_str(&s)), *q = t;
			buf_free(&s);
			for (;;) {
				while (*q == ' ' || *q == '\t')
					q++;
				char *close = *q == '[' ? strchr(q, ']') : NULL;
				if (!close)
					break;
				q = close + 1;
			}
			char *r = xstrdup(q);
			free(t);
			for (char *c = r; *c; c++)
				if (*c == '\t')
					*c = ' ';
			return r;
		}
		p = eol + 1;
	}
	return NULL;
}

static bool has_diff(const char *msg, size_t len)
{
	for (const char *p = msg; p && p < msg + len; p = memchr(p, '\n', (size_t)(msg + len - p))) {
		if (*p == '\n')
			p++;
		if ((size_t)(msg + len - p) >= 4 && (!strncmp(p, "--- ", 4) ||
						    !strncmp(p, "diff", 4)))
			return true;
	}
	return false;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

static void add_patch(struct kseries *s, const char *file, int message, const char *data,
		      size_t len, int fuzz)
{
	s->p = xrealloc(s->p, (s->n + 1) * sizeof(*s->p));
	struct kpatch *k = &s->p[s->n++];
	memset(k, 0, sizeof(*k));
	k->file = xstrdup(file);
	k->message = message;
	k->fuzz = fuzz;
	k->data = xmalloc(len + 1);
	memcpy(k->data, data, len);
	k->data[len] = '\0';
	k->len = len;
	k->subject = subject_of(data, len);
	if (!k->subject)
		k->subject = xstrdup(base_name(file));
	kb_sha256_hex(data, len, k->sha256);
}

/* The start of the next line after p (end when none). */
static const char *next_line(const char *p, const char *end)
{
	const char *eol = memchr(p, '\n', (size_t)(end - p));
	return eol ? eol + 1 : end;
}

size_t kseries_split(struct kseries *s, const char *file, const char *text, size_t len,
		     int fuzz)
{
	size_t before = s->n;
	const char *end = text + len;
	if (!message_start(text, end)) {
		if (has_diff(text, len))
			add_patch(s, file, 0, text, len, fuzz);
		return s->n - before;
	}
	int number = 0;
	for (const char *start = text; start < end;) {
		const char *next = next_line(start, end);
		while (next < end && !message_start(next, end))
			next = next_line(next, end);
		number++;
		size_t n = (size_t)(next - start);
		/* mboxo's empty line before the next separator is not the message's. */
		if (next < end && n >= 2 && start[n - 1] == '\n' && start[n - 2] == '\n')
			n--;
		if (has_diff(start, n))
			add_patch(s, file, number, start, n, fuzz);
		start = next;
	}
	/* One message in a file: the file is the patch (format-patch's own
	 * single files), numbered 0 like a plain diff. */
	if (number == 1 && s->n == before + 1)
		s->p[before].message = 0;
	return s->n - before;
}

static int add_file(struct kseries *s, const char *path, int fuzz, char *err, size_t errsz)
{
	struct buf b = {0};
	if (read_all(path, &b, err, errsz))
		return -1;
	size_t added = kseries_split(s, path, buf_str(&b), b.len, fuzz);
	buf_free(&b);
	if (!added) {
		snprintf(err, errsz, "%s: holds no patch (no line starting a diff: '--- ' or"
			 " 'diff')", path);
		return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(struct kseries *s, const char *path, int fuzz, char *err, size_t errsz)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;
	if (!d) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && has_patch_suffix(de->d_name)) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
	closedir(d);
	if (!n) {
		snprintf(err, errsz, "%s: a directory with no *.patch, *.diff, *.mbox or *.mbx"
			 " file", path);
		return -1;
	}
	qsort(names, n, sizeof(*names), by_name);
	size_t len = strlen(path);
	for (size_t i = 0; i < n; i++) {
		char *full = xasprintf("%.*s/%s", (int)(len && path[len - 1] == '/' ? len - 1 : len),
				       path, names[i]);
		if (!rc)
			rc = add_file(s, full, fuzz, err, errsz);
		free(full);
		free(names[i]);
	}
	free(names);
	return rc;
}

int kseries_add(struct kseries *s, const char *path, int fuzz, char *err, size_t errsz)
{
	struct stat st;
	if (stat(path, &st)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	return S_ISDIR(st.st_mode) ? add_dir(s, path, fuzz, err, errsz)
				   : add_file(s, path, fuzz, err, errsz);
}

void kseries_first_hunk(const char *rej, unsigned max_lines, char *dst, size_t size)
{
	struct buf b = {0};
	const char *p = rej;
	while (p && strncmp(p, "@@", 2)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	for (unsigned n = 0; p && *p && n < max_lines; n++) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (n > 0 && (!strncmp(p, "@@", 2) || !strncmp(p, "--- ", 4) ||
			      !strncmp(p, "*** ", 4)))
			break;
		buf_append(&b, p, len);
		buf_puts(&b, "\n");
		p = eol ? eol + 1 : NULL;
	}
	snprintf(dst, size, "%s", buf_str(&b));
	buf_free(&b);
}

/* "FILE: Hunk #N FAILED at L." lines of patch's output, joined, into dst. */
static void failed_hunks(const char *log, char *dst, size_t size)
{
	struct buf out = {0}, b = {0};
	char err[256], file[512] = "";
	dst[0] = '\0';
	if (read_all(log, &b, err, sizeof(err)))
		return;
	char *save = NULL, *text = xstrdup(buf_str(&b));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "patching file ", 14))
			snprintf(file, sizeof(file), "%s", l + 14);
		else if (strstr(l, "FAILED") || strstr(l, "can't find file") ||
			 strstr(l, "No file to patch") || strstr(l, "malformed"))
			buf_printf(&out, "%s%s%s%s", out.len ? "; " : "", file, file[0] ? ": " : "", l);
	}
	snprintf(dst, size, "%s", out.len ? buf_str(&out) : "patch failed (see its log)");
	free(text);
	buf_free(&b);
	buf_free(&out);
}

static void describe(const struct kseries *s, size_t i, struct buf *b)
{
	const struct kpatch *k = &s->p[i];
	buf_printf(b, "patch %zu of %zu, %s", i + 1, s->n, k->file);
	if (k->message)
		buf_printf(b, " (message %d)", k->message);
	buf_printf(b, ": '%s'", k->subject);
}

/* path (a line's rest of len bytes: up to a tab, CR or the end) into out unless it is
 * /dev/null, absolute, holds a ".." component, or is there already; with
 * strip, its first component dropped (patch -p1) and nothing added when
 * it has none. */
static void add_touched(const char *path, size_t len, bool strip, struct argv *out)
{
	size_t n = strcspn(path, "\t\r\n");
	char *p = xasprintf("%.*s", (int)(n < len ? n : len), path);
	const char *rel = p;
	if (strip)
		rel = strchr(p, '/') ? strchr(p, '/') + 1 : "";
	char *dots = xasprintf("/%s/", rel);
	bool ok = *rel && strcmp(p, "/dev/null") && rel[0] != '/' && !strstr(dots, "/../");
	for (size_t i = 0; ok && i < out->n; i++)
		ok = strcmp(out->v[i], rel) != 0;
	if (ok)
		argv_add(out, rel);
	free(dots);
	free(p);
}

void kseries_touched(const struct kpatch *p, struct argv *out)
{
	static const char *const stripped[] = {"--- ", "+++ "};
	static const char *const git[] = {"rename from ", "rename to ", "copy from ", "copy to "};
	for (const char *l = p->data; l && *l;) {
		size_t len = strcspn(l, "\n");
		for (size_t i = 0; i < 2; i++)
			if (!strncmp(l, stripped[i], 4))
				add_touched(l + 4, len - 4, true, out);
		for (size_t i = 0; i < 4; i++)
			if (!strncmp(l, git[i], strlen(git[i])))
				add_touched(l + strlen(git[i]), len - strlen(git[i]), false, out);
		l = l[len] ? l + len + 1 : NULL;
	}
}

/* The directory of dir/rel opened without following a symbolic link at
 * any component (O_NOFOLLOW each step), its last component's name in
 * *name. -1 (errno ELOOP for a link) when a component is not a directory. */
static int open_parent(const char *dir, const char *rel, char **name)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *copy = xstrdup(rel), *p = copy, *slash;
	struct stat st;
	while (fd >= 0 && (slash = strchr(p, '/'))) {
		*slash = '\0';
		int next = fd;
		if (*p && !fstatat(fd, p, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode)) {
			next = -1;
			errno = ELOOP;
		} else if (*p) {
			next = openat(fd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next != fd) {
			int e = errno;
			close(fd);
			errno = e;
		}
		fd = next;
		p = slash + 1;
	}
	*name = xstrdup(p);
	free(copy);
	return fd;
}

/* Copy the file name (stat st) of directory fd to a new inode renamed over
 * it: bytes, mode and times. 0 or -1 (errno). */
static int copy_over(int fd, const char *name, const struct stat *st)
{
	char *tmp = xasprintf("%s.schedrig-unshare", name);
	struct buf b = {0};
	int in = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), out = -1, rc = -1;
	char chunk[65536];
	ssize_t n;
	while (in >= 0 && (n = read(in, chunk, sizeof(chunk))) > 0)
		buf_append(&b, chunk, (size_t)n);
	if (in >= 0 && n == 0 &&
	    (out = openat(fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  st->st_mode & 07777)) >= 0 &&
	    write(out, b.data ? b.data : "", b.len) == (ssize_t)b.len &&
	    !futimens(out, (struct timespec[]){st->st_atim, st->st_mtim}) && !close(out) &&
	    (out = -1, !renameat(fd, tmp, fd, name)))
		rc = 0;
	int e = errno;
	if (out >= 0)
		close(out);
	if (rc)
		unlinkat(fd, tmp, 0);
	if (in >= 0)
		close(in);
	buf_free(&b);
	free(tmp);
	errno = e;
	return rc;
}

/* dir/rel as a file of its own when it is a regular file with other hard
 * links. A path through a symbolic link (a directory of the tree that
 * links elsewhere) is refused: the file patched would not be the tree's.
 * 0, or -1 with err. */
static int unshare(const char *dir, const char *rel, char *err, size_t errsz)
{
	char *name = NULL;
	struct stat st;
	int fd = open_parent(dir, rel, &name), rc = 0;
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		rc = 0; /* a file the patch creates, or patch's own error */
	} else if (fd < 0) {
		rc = err_printf(err, errsz, "%s/%s: a directory on its path is a symbolic link or"
				" cannot be opened (%s): the rig does not patch through links",
				dir, rel, strerror(errno));
	} else if (!fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode)) {
		rc = err_printf(err, errsz, "%s/%s is a symbolic link: the rig does not patch"
				" through links", dir, rel);
	} else if (!fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		   st.st_nlink > 1 && copy_over(fd, name, &st)) {
		rc = err_printf(err, errsz, "unsharing %s/%s before patching it: %s", dir, rel,
				strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	free(name);
	return rc;
}

/* The hunks patch's output (log) says it placed with an offset or fuzz,
 * each as "patch I of N, FILE: 'SUBJECT': PATH: Hunk #H succeeded at L
 * (offset K lines)." into applied. */
static void note_placed(const struct kseries *s, size_t i, const char *log,
			struct argv *applied)
{
	struct buf b = {0}, who = {0};
	char err[256], file[512] = "";
	if (!applied || read_all(log, &b, err, sizeof(err)))
		return;
	describe(s, i, &who);
	char *save = NULL, *text = xstrdup(buf_str(&b));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "patching file ", 14))
			snprintf(file, sizeof(file), "%s", l + 14);
		else if (strstr(l, " succeeded at ") && (strstr(l, "offset") || strstr(l, "fuzz")))
			argv_addf(applied, "%s: %s: %s", buf_str(&who), file, l);
	}
	free(text);
	buf_free(&b);
	buf_free(&who);
}

/* The least fuzz (up to 3) with which patch i would apply to dir, tried
 * with --dry-run; -1 when none does. */
static int fuzz_needed(const char *dir, const char *file, const char *log, int from)
{
	for (int f = from + 1; f <= 3; f++) {
		char fuzz[32];
		snprintf(fuzz, sizeof(fuzz), "--fuzz=%d", f);
		char *argv[] = {"patch", "-p1", "--forward", "--batch", "--dry-run", fuzz, "-i",
				(char *)file, NULL};
		struct kb_cmd c = {.argv = argv, .dir = dir, .log = log};
		char why[256];
		if (!kb_run(&c, why, sizeof(why)))
			return f;
	}
	return -1;
}

/* Patch i of s failed (rc from kb_run; why its reason): the message. */
static void apply_failed(const struct kseries *s, size_t i, int rc, const char *why,
			 const char *dir, const char *file, const char *log, const char *rej,
			 char *err, size_t errsz)
{
	char hunks[1024], hunk[2048] = "", e[256];
	struct buf b = {0}, r = {0};
	failed_hunks(log, hunks, sizeof(hunks));
	if (read_all(rej, &r, e, sizeof(e)) == 0)
		kseries_first_hunk(buf_str(&r), 12, hunk, sizeof(hunk));
	describe(s, i, &b);
	buf_printf(&b, " does not apply: %s", rc == -1 ? why : hunks);
	char *dry = xasprintf("%s.fuzz", log);
	int need = rc == 1 ? fuzz_needed(dir, file, dry, s->p[i].fuzz) : -1;
	unlink(dry);
	free(dry);
	if (need > 0)
		buf_printf(&b, " (it applies with fuzz %d, which moves a hunk where its context"
			   " does not fully match: refresh the patch, or accept that with"
			   " patch_fuzz: %d in its kernels: entry)", need, need);
	if (hunk[0])
		buf_printf(&b, "; first rejected hunk:\n%s", hunk);
	snprintf(err, errsz, "%s", buf_str(&b));
	buf_free(&b);
	buf_free(&r);
}

int kseries_apply(const struct kseries *s, const char *dir, const char *work_dir,
		  struct argv *applied, char *err, size_t errsz)
{
	/* patch runs in dir: its patch and reject files by absolute paths. */
	char *work = realpath(work_dir, NULL);
	if (!work) {
		snprintf(err, errsz, "%s: %s", work_dir, strerror(errno));
		return -1;
	}
	int ret = 0;
	for (size_t i = 0; i < s->n && !ret; i++) {
		char *file = xasprintf("%s/%04zu.patch", work, i + 1);
		char *log = xasprintf("%s/%04zu.log", work, i + 1);
		char *rej = xasprintf("%s/%04zu.rej", work, i + 1);
		char *fuzz = xasprintf("--fuzz=%d", s->p[i].fuzz);
		char *argv[] = {"patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch",
				fuzz, "-r", rej, "-i", file, NULL};
		struct kb_cmd c = {.argv = argv, .dir = dir, .log = log};
		char why[512] = "";
		struct argv touched = {0};
		kseries_touched(&s->p[i], &touched);
		int rc = 0;
		for (size_t t = 0; !rc && t < touched.n; t++)
			rc = unshare(dir, touched.v[t], why, sizeof(why));
		argv_free(&touched);
		if (!rc)
			rc = file_write(file, s->p[i].data, s->p[i].len, why, sizeof(why)) ? -1 :
			     kb_run(&c, why, sizeof(why));
		if (rc > 0 || rc == -1)
			apply_failed(s, i, rc, why, dir, file, log, rej, err, errsz);
		else if (rc == KB_INTERRUPTED)
			snprintf(err, errsz, "%s", why);
		else
			note_placed(s, i, log, applied);
		free(file);
		free(log);
		free(rej);
		free(fuzz);
		ret = rc == KB_INTERRUPTED ? rc : rc ? -1 : 0;
	}
	free(work);
	return ret;
}

void kseries_free(struct kseries *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->p[i].file);
		free(s->p[i].subject);
		free(s->p[i].data);
	}
	free(s->p);
	s->p = NULL;
	s->n = 0;
}
