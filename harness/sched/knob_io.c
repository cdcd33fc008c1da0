/* Reading and writing a knob file: one read of its value, one write(2) of
 * a new one, the read-back that verifies it (numbers compared as numbers,
 * a sched_feature by its token), with errors that name the file and the
 * likely reason. */
#include "knob_io.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "knob_paths.h"
#include "util.h"

#define KNOB_VALUE_MAX 65536

const char *knob_kernel_release(void)
{
	static struct utsname u;
	if (!u.release[0] && uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	return u.release;
}

/* "PATH: strerror (hint)" for an errno from opening, reading or writing a knob. */
static void errno_fail(char *err, size_t errsz, const char *path, int e, const char *what,
		       const char *value)
{
	const char *hint = "";
	if (e == EPERM)
		hint = knob_path_is_debugfs(path) ? " (the kernel is locked down?)" :
						    " (no privilege: not root, or in a container?)";
	else if (e == EACCES)
		hint = " (not root?)";
	else if (e == ENOENT)
		hint = knob_path_is_debugfs(path) ? " (this kernel has no such debugfs file)" :
		       knob_path_is_sysfs(path) ? " (this machine or kernel has no such file)" :
						    " (this kernel has no such sysctl)";
	else if (e == EIO && !strncmp(path, knobs_irq_root(), strlen(knobs_irq_root())))
		hint = " (the kernel does not move this IRQ: a per-CPU or managed interrupt)";
	if (value)
		knob_errorf(err, errsz, "%s: cannot %s '%.200s': %s%s", path, what, value, strerror(e), hint);
	else
		knob_errorf(err, errsz, "%s: %s%s", path, strerror(e), hint);
}

char *knob_read(const char *path, char *err, size_t errsz)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		errno_fail(err, errsz, path, e, "read", NULL);
		errno = e;
		return NULL;
	}
	char *buf = xmalloc(KNOB_VALUE_MAX + 1);
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, buf + len, KNOB_VALUE_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			errno_fail(err, errsz, path, e, "read", NULL);
			close(fd);
			free(buf);
			errno = e;
			return NULL;
		}
		if (n == 0 || (len += (size_t)n) == KNOB_VALUE_MAX)
			break;
	}
	close(fd);
	while (len && strchr(" \t\n", buf[len - 1]))
		len--;
	buf[len] = '\0';
	return buf;
}

int knob_write(const char *path, const char *value, char *err, size_t errsz)
{
	char real[PATH_MAX];
	if (!realpath(path, real)) {
		errno_fail(err, errsz, path, errno, "write", value);
		return -1;
	}
	if (knob_path_check(path, real, sizeof(real), err, errsz))
		return -1;
	int fd = open(real, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		errno_fail(err, errsz, path, errno, "write", value);
		return -1;
	}
	size_t len = strlen(value);
	ssize_t n;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	int e = errno;
	if (close(fd) && n >= 0) {
		n = -1;
		e = errno;
	}
	if (n < 0) {
		errno_fail(err, errsz, path, e, "write", value);
		return -1;
	}
	if ((size_t)n != len) {
		knob_errorf(err, errsz, "%s: short write of '%.200s' (%zd of %zu bytes)", path, value, n, len);
		return -1;
	}
	return 0;
}

/* Whitespace-separated fields equal one by one; integers compare as numbers. */
static bool values_equal(const char *a, const char *b)
{
	for (;;) {
		a += strspn(a, " \t\n");
		b += strspn(b, " \t\n");
		size_t la = strcspn(a, " \t\n"), lb = strcspn(b, " \t\n");
		if (!la || !lb)
			return !la && !lb;
		if (la != lb || strncmp(a, b, la)) {
			char fa[64], fb[64];
			long long na, nb;
			if (la >= sizeof(fa) || lb >= sizeof(fb))
				return false;
			snprintf(fa, sizeof(fa), "%.*s", (int)la, a);
			snprintf(fb, sizeof(fb), "%.*s", (int)lb, b);
			if (!parse_ll(fa, &na) || !parse_ll(fb, &nb) || na != nb)
				return false;
		}
		a += la;
		b += lb;
	}
}

/* The token (NAME or NO_NAME) listing feature name in a features file's
 * text, malloc'd, or NULL when the kernel has no such feature. */
static char *feature_state(const char *text, const char *name)
{
	size_t ln = strlen(name);
	for (const char *p = text;;) {
		p += strspn(p, " \t\n");
		size_t l = strcspn(p, " \t\n");
		if (!l)
			return NULL;
		const char *n = p;
		size_t nl = l;
		if (l > 3 && !strncmp(p, "NO_", 3)) {
			n += 3;
			nl -= 3;
		}
		if (nl == ln && !strncmp(n, name, ln))
			return xasprintf("%.*s", (int)l, p);
		p += l;
	}
}

char *knob_read_value(const char *path, char *err, size_t errsz)
{
	char *text = knob_read(path, err, errsz);
	const char *open = text && knob_path_is_sysfs(path) ? strchr(text, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;
	if (!close)
		return text;
	char *mode = xasprintf("%.*s", (int)(close - open - 1), open + 1);
	free(text);
	return mode;
}

/* Two hex masks as /proc/irq/default_smp_affinity prints them ("3",
 * "00,00000003": 32-bit words, commas between) are the same number. */
static bool masks_equal(const char *a, const char *b)
{
	char x[512], y[512];
	size_t n = 0, m = 0;
	for (; *a && n + 1 < sizeof(x); a++)
		if (*a != ',' && (n || *a != '0'))
			x[n++] = (char)tolower((unsigned char)*a);
	for (; *b && m + 1 < sizeof(y); b++)
		if (*b != ',' && (m || *b != '0'))
			y[m++] = (char)tolower((unsigned char)*b);
	x[n] = y[m] = '\0';
	return !strcmp(x, y);
}

char *knob_read_feature(const char *path, const char *name, char *err, size_t errsz)
{
	char *text = knob_read(path, err, errsz);
	if (!text)
		return NULL;
	char *tok = feature_state(text, name);
	free(text);
	if (!tok)
		knob_errorf(err, errsz, "this kernel (%s) has no sched_feature %s", knob_kernel_release(), name);
	return tok;
}

int knob_read_back(const char *path, const char *value, char **back, char *err, size_t errsz)
{
	bool features = knob_is_features_file(path), mask = knob_path_is_irq_mask(path);
	*back = features ? knob_read_feature(path, knob_feature_name(value), err, errsz) :
			   knob_read_value(path, err, errsz);
	if (!*back)
		return -1;
	if (features ? strcmp(*back, value) : mask ? !masks_equal(*back, value) :
	    !values_equal(*back, value)) {
		knob_errorf(err, errsz, "%s: wrote '%.200s', read back '%.200s'", path, value, *back);
		return -1;
	}
	return 0;
}

int knob_write_verify(const char *path, const char *value, char *applied, size_t appliedsz,
		      char *err, size_t errsz)
{
	char *back = NULL;
	if (knob_write(path, value, err, errsz))
		return -1;
	int rc = knob_read_back(path, value, &back, err, errsz);
	if (applied && appliedsz)
		snprintf(applied, appliedsz, "%s", back ? back : "");
	free(back);
	return rc;
}
