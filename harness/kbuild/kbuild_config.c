#include "kbuild_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_make.h"
#include "kbuild_run.h"

#define KCONFIG_MAX_BYTES (16 * 1024 * 1024)

static bool option_name(const char *p, size_t *len)
{
	if (strncmp(p, "CONFIG_", 7))
		return false;
	size_t n = 7;
	while ((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') ||
	       (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
		n++;
	*len = n;
	return n > 7;
}

bool kconfig_line(const char *line, char *name, size_t namesz, char *value, size_t valuesz)
{
	size_t len;
	const char *eol = line + strcspn(line, "\n");
	if (!strncmp(line, "# ", 2) && option_name(line + 2, &len) &&
	    !strncmp(line + 2 + len, " is not set", 11) && line + 2 + len + 11 == eol) {
		snprintf(name, namesz, "%.*s", (int)len, line + 2);
		snprintf(value, valuesz, "n");
		return true;
	}
	if (!option_name(line, &len) || line[len] != '=')
		return false;
	snprintf(name, namesz, "%.*s", (int)len, line);
	snprintf(value, valuesz, "%.*s", (int)(eol - line - len - 1), line + len + 1);
	return true;
}

static void want(struct kconfig_wants *w, const char *name, const char *value, const char *from)
{
	for (size_t i = 0; i < w->n; i++) {
		if (!strcmp(w->w[i].name, name)) {
			free(w->w[i].value);
			free(w->w[i].from);
			w->w[i].value = xstrdup(value);
			w->w[i].from = xstrdup(from);
			return;
		}
	}
	w->w = xrealloc(w->w, (w->n + 1) * sizeof(*w->w));
	w->w[w->n++] = (struct kconfig_want){xstrdup(name), xstrdup(value), xstrdup(from)};
}

/* Is name set by a line of fragment? */
static bool in_fragment(const char *fragment, const char *name)
{
	char n[256], v[8];
	for (const char *p = fragment; p && *p;) {
		if (kconfig_line(p, n, sizeof(n), v, sizeof(v)) && !strcmp(n, name))
			return true;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return false;
}

void kconfig_merge(struct buf *config, const char *fragment, const char *from,
		   struct kconfig_wants *wants)
{
	struct buf out = {0};
	char name[256], value[4096];
	const char *p = buf_str(config);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
		if (!kconfig_line(p, name, sizeof(name), value, sizeof(value)) ||
		    !in_fragment(fragment, name))
			buf_append(&out, p, len);
		p += len;
	}
	if (out.len && out.data[out.len - 1] != '\n')
		buf_puts(&out, "\n");
	for (p = fragment; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (kconfig_line(p, name, sizeof(name), value, sizeof(value))) {
			buf_append(&out, p, len);
			buf_puts(&out, "\n");
			want(wants, name, value, from);
		}
		p = eol ? eol + 1 : NULL;
	}
	buf_free(config);
	*config = out;
}

/* The line of name in a .config's text ("" when it has none) into dst. */
static void final_line(const char *final, const char *name, char *dst, size_t size,
		       char *value, size_t valuesz)
{
	char n[256];
	dst[0] = value[0] = '\0';
	for (const char *p = final; p && *p;) {
		if (kconfig_line(p, n, sizeof(n), value, valuesz) && !strcmp(n, name)) {
			snprintf(dst, size, "%.*s", (int)strcspn(p, "\n"), p);
			return;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	value[0] = '\0';
}

int kconfig_check(const char *final, const struct kconfig_wants *wants, char *err, size_t errsz)
{
	struct buf b = {0};
	for (size_t i = 0; i < wants->n; i++) {
		const struct kconfig_want *w = &wants->w[i];
		char line[4200], value[4096];
		final_line(final, w->name, line, sizeof(line), value, sizeof(value));
		bool off = !strcmp(w->value, "n");
		bool ok = off ? (!value[0] || !strcmp(value, "n")) : !strcmp(value, w->value);
		if (ok)
			continue;
		buf_printf(&b, "%s", b.len ? "; " : "");
		if (off)
			buf_printf(&b, "# %s is not set", w->name);
		else
			buf_printf(&b, "%s=%s", w->name, w->value);
		buf_printf(&b, " (from %s) is not in the final .config (%s%s%s)", w->from,
			   line[0] ? "it has '" : "it has no line for it: the option does not exist"
			   " in this tree or depends on one that is off", line, line[0] ? "'" : "");
	}
	if (b.len)
		snprintf(err, errsz, "requested config options are missing: %s", buf_str(&b));
	int rc = b.len ? -1 : 0;
	buf_free(&b);
	return rc;
}

void kconfig_wants_free(struct kconfig_wants *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->w[i].name);
		free(w->w[i].value);
		free(w->w[i].from);
	}
	free(w->w);
	w->w = NULL;
	w->n = 0;
}

static int read_text(const char *path, struct buf *b, char *err, size_t errsz)
{
	if (!buf_read_file(b, path, KCONFIG_MAX_BYTES))
		return 0;
	snprintf(err, errsz, "%s: %s", path, strerror(errno));
	return -1;
}

int kconfig_make(const struct kmake *m, const char *base, const char *base_text,
		 const struct kconfig_fragment *frags, size_t n_frags, char *err, size_t errsz)
{
	char *path = xasprintf("%s/.config", m->obj);
	struct buf config = {0};
	struct kconfig_wants wants = {0};
	int rc = -1;

	if (base_text)
		buf_puts(&config, base_text);
	else if ((rc = kmake_run(m, base, err, errsz)) ||
		 (rc = -1, read_text(path, &config, err, errsz)))
		goto out;
	for (size_t i = 0; i < n_frags; i++)
		kconfig_merge(&config, frags[i].text, frags[i].from, &wants);
	if (file_write(path, buf_str(&config), config.len, err, errsz) ||
	    (rc = kmake_run(m, "olddefconfig", err, errsz)))
		goto out;
	rc = -1;
	buf_free(&config);
	if (read_text(path, &config, err, errsz) ||
	    kconfig_check(buf_str(&config), &wants, err, errsz))
		goto out;
	rc = 0;
out:
	free(path);
	buf_free(&config);
	kconfig_wants_free(&wants);
	return rc;
}
