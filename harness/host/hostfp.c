/* The fingerprint itself (hostfp.h): its fields and the read helpers every
 * group of fields uses (hostfp_impl.h); hostfp_read.c reads the groups. */
#include "hostfp.h"
#include "hostfp_impl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"

void hostfp_add(struct host_fp *fp, const char *field, const char *source, bool stable,
		const char *fmt, ...)
{
	char value[HOSTFP_VALUE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	for (char *p = value; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	fp->v = xrealloc(fp->v, (fp->n + 1) * sizeof(*fp->v));
	fp->v[fp->n++] = (struct host_field){xstrdup(field), xstrdup(value), xstrdup(source), stable};
}

void hostfp_free(struct host_fp *fp)
{
	for (size_t i = 0; i < fp->n; i++) {
		free(fp->v[i].field);
		free(fp->v[i].value);
		free(fp->v[i].source);
	}
	free(fp->v);
	fp->v = NULL;
	fp->n = 0;
}

const struct host_field *hostfp_get(const struct host_fp *fp, const char *field)
{
	for (size_t i = 0; i < fp->n; i++)
		if (!strcmp(fp->v[i].field, field))
			return &fp->v[i];
	return NULL;
}

bool hostfp_valid_name(const char *name)
{
	size_t n = strlen(name);
	if (!n || n >= HOSTFP_FIELD_MAX || !islower((unsigned char)name[0]) || strstr(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			return false;
	return true;
}

bool hostfp_same(const char *field, const char *a, const char *b)
{
	long long x, y;
	if (!strcmp(a, b))
		return true;
	if (strcmp(field, "mem.total_kb") || !parse_ll(a, &x) || !parse_ll(b, &y) || x <= 0 || y <= 0)
		return false;
	return fabs((double)x - (double)y) <= 0.02 * (double)(x > y ? x : y);
}

char *hf_path(const struct hf_ctx *c, const char *rel)
{
	return xasprintf("%s%s", c->root, rel);
}

int hf_read(const struct hf_ctx *c, const char *rel, char *buf, size_t size)
{
	char *path = hf_path(c, rel);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int e = fd < 0 ? errno : 0;
	free(path);
	buf[0] = '\0';
	if (fd < 0)
		return e;
	ssize_t len = read(fd, buf, size - 1);
	e = len < 0 ? errno : 0;
	close(fd);
	if (len < 0)
		return e;
	buf[len] = '\0';
	while (len > 0 && strchr(" \t\n", buf[len - 1]))
		buf[--len] = '\0';
	return 0;
}

const char *hf_why(int e, char *buf, size_t size)
{
	if (e == ENOENT || e == ENOTDIR)
		return "absent";
	const char *name = strerrorname_np(e);
	snprintf(buf, size, "unreadable: %s", name ? name : "?");
	return buf;
}

int hf_file_field(const struct hf_ctx *c, const char *field, const char *rel)
{
	char text[HOSTFP_VALUE_MAX], why[64];
	int e = hf_read(c, rel, text, sizeof(text));
	text[strcspn(text, "\n")] = '\0';
	hostfp_add(c->fp, field, rel, true, "%s", e ? hf_why(e, why, sizeof(why)) : *text ? text : "none");
	return e;
}

void hf_bracketed(const char *text, char *buf, size_t size)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(buf, size, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(buf, size, "%s", text);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int *hf_online_cpus(const struct hf_ctx *c, size_t *n)
{
	char text[4096];
	bool ok;
	int *v = NULL;
	if (!hf_read(c, "/sys/devices/system/cpu/online", text, sizeof(text)) &&
	    (v = cpulist_parse(text, n, &ok)) && ok)
		return v;
	free(v);
	*n = 0;
	char *dir = hf_path(c, "/sys/devices/system/cpu");
	DIR *d = opendir(dir);
	free(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		long long cpu;
		if (strncmp(de->d_name, "cpu", 3) || !parse_ll(de->d_name + 3, &cpu) || cpu < 0)
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = (int)cpu;
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_int);
	return v;
}

void hf_cpu_summary(const int *cpu, char *const *value, size_t n, struct buf *out)
{
	bool all_same = true;
	for (size_t i = 1; i < n && all_same; i++)
		all_same = !strcmp(value[i], value[0]);
	if (all_same) {
		buf_puts(out, n ? value[0] : "");
		return;
	}
	bool *done = xcalloc(n, sizeof(*done));
	int *cpus = xcalloc(n, sizeof(*cpus));
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		size_t k = 0;
		for (size_t j = i; j < n; j++)
			if (!done[j] && !strcmp(value[j], value[i])) {
				done[j] = true;
				cpus[k++] = cpu[j];
			}
		buf_printf(out, "%s%s (cpus ", out->len ? "; " : "", value[i]);
		cpulist_text(cpus, k, out);
		buf_puts(out, ")");
	}
	free(done);
	free(cpus);
}
