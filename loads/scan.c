/* Text scanning helpers of the load drivers: see scan.h. */
#include "scan.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void text_lines_split(struct text_lines *t, const char *text, size_t len)
{
	size_t cap = 16;

	t->buf = xmalloc(len + 1);
	memcpy(t->buf, text ? text : "", len);
	t->buf[len] = '\0';
	t->line = xmalloc(cap * sizeof(*t->line));
	t->n = 0;

	char *p = t->buf, *end = t->buf + len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break; /* truncated last line */
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (t->n == cap) {
			cap *= 2;
			t->line = xrealloc(t->line, cap * sizeof(*t->line));
		}
		t->line[t->n++] = p;
		p = nl + 1;
	}
}

void text_lines_free(struct text_lines *t)
{
	free(t->buf);
	free(t->line);
	memset(t, 0, sizeof(*t));
}

static bool is_blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

void fields_split(struct fields *fs, const char *line)
{
	fs->copy = xstrdup(line);
	fs->n = 0;
	char *p = fs->copy;
	while (*p && fs->n < FIELDS_MAX) {
		while (is_blank_char(*p))
			p++;
		if (!*p)
			break;
		fs->f[fs->n++] = p;
		while (*p && !is_blank_char(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

void fields_free(struct fields *fs)
{
	free(fs->copy);
	memset(fs, 0, sizeof(*fs));
}

const char *after_prefix(const char *line, const char *prefix)
{
	while (is_blank_char(*line))
		line++;
	size_t n = strlen(prefix);
	return strncmp(line, prefix, n) ? NULL : line + n;
}

bool blank(const char *s)
{
	for (; *s; s++)
		if (!is_blank_char(*s))
			return false;
	return true;
}

bool scan_value(const char *text, const char *unit, double *v)
{
	struct fields fs;
	fields_split(&fs, text);
	bool ok = fs.n == (unit ? 2u : 1u) && (!unit || !strcmp(fs.f[1], unit)) &&
		  parse_double(fs.f[0], v) && *v >= 0;
	fields_free(&fs);
	return ok;
}

int scan_labelled(const char *line, const char *prefix, const char *unit, double *v)
{
	const char *rest = after_prefix(line, prefix);
	if (!rest)
		return 0;
	return scan_value(rest, unit, v) ? 1 : -1;
}

int scan_one_labelled(const struct text_lines *t, const char *prefix, const char *unit, double *v,
		      char *why, size_t whysz)
{
	int name_len = (int)strcspn(prefix, ":"), found = 0;
	for (size_t i = 0; i < t->n; i++) {
		int r = scan_labelled(t->line[i], prefix, unit, v);
		if (r < 0)
			return parse_fail(why, whysz, "unparsable %.*s line: \"%.60s\"", name_len, prefix,
					  t->line[i]);
		if (r && found++)
			return parse_fail(why, whysz, "more than one %.*s line", name_len, prefix);
	}
	return found;
}

/* The number token following key (key at the line start or after a blank),
 * copied into tok. */
static bool key_token(const char *line, const char *key, char *tok, size_t toksz)
{
	size_t klen = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if (p == line || is_blank_char(p[-1]))
			break;
		p += klen;
	}
	if (!p)
		return false;
	p += klen;
	while (is_blank_char(*p))
		p++;
	size_t n = 0;
	while (p[n] && !is_blank_char(p[n]))
		n++;
	if (!n || n >= toksz)
		return false;
	memcpy(tok, p, n);
	tok[n] = '\0';
	return true;
}

bool key_ll(const char *line, const char *key, long long *out)
{
	char tok[64];
	return key_token(line, key, tok, sizeof(tok)) && parse_ll(tok, out);
}

bool key_double(const char *line, const char *key, double *out)
{
	char tok[64];
	return key_token(line, key, tok, sizeof(tok)) && parse_double(tok, out);
}

int output_status(const struct load_output *o, const struct load_ops *ops,
		  char *why, size_t whysz)
{
	bool stopped_ok = o->stopped && ops->summarizes_on_stop;

	/* A stopped tool that does not summarize may still print a partial
	 * result: hackbench 2.4 prints "Time: 0.172" and exits 0 on SIGTERM. */
	if (o->stopped && !ops->summarizes_on_stop)
		return parse_fail(why, whysz, "stopped (SIG%s) before it finished; its output is partial",
				  sigabbrev_np(ops->stop_signal) ? sigabbrev_np(ops->stop_signal) : "?");
	if (o->signaled) {
		if (stopped_ok && o->term_signal == ops->stop_signal)
			return 0;
		const char *name = sigabbrev_np(o->term_signal);
		return parse_fail(why, whysz, "killed by signal %d (SIG%s)",
				  o->term_signal, name ? name : "?");
	}
	if (o->exit_code != 0 && !stopped_ok)
		return parse_fail(why, whysz, "exit code %d", o->exit_code);
	return 0;
}

bool percentile_op(const char *text, char *op, size_t opsz)
{
	double v;
	char num[32];

	if (!parse_double(text, &v) || !(v >= 0 && v <= 100))
		return false;
	size_t n = strlen(text);
	if (n >= sizeof(num))
		return false;
	memcpy(num, text, n + 1);
	if (strchr(num, '.')) {
		while (n > 0 && num[n - 1] == '0')
			num[--n] = '\0';
		if (n > 0 && num[n - 1] == '.')
			num[--n] = '\0';
	}
	/* Leading zeros ("050.0") would make "p050": drop them. */
	const char *s = num;
	while (s[0] == '0' && s[1] && s[1] != '.')
		s++;
	snprintf(op, opsz, "p%s", s);
	return true;
}

int parse_fail(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	if (why && whysz) {
		va_start(ap, fmt);
		vsnprintf(why, whysz, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int order_check(const char *what, const struct order_stat *s, size_t n, char *why,
		size_t whysz)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i].value < 0)
			return parse_fail(why, whysz, "%s: %s %.10g is negative", what, s[i].name,
					  s[i].value);
		if (i && s[i].value < s[i - 1].value)
			return parse_fail(why, whysz, "%s: %s %.10g is above %s %.10g", what, s[i - 1].name,
					  s[i - 1].value, s[i].name, s[i].value);
	}
	return 0;
}

bool text_find_line(const char *text, size_t len, const char *const *patterns, char *line,
		    size_t size)
{
	for (const char *p = text, *end = text + len; patterns && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		for (const char *const *pat = patterns; *pat; pat++) {
			if (!memmem(p, n, *pat, strlen(*pat)))
				continue;
			while (n && is_blank_char(p[n - 1]))
				n--;
			while (n && is_blank_char(*p)) {
				p++;
				n--;
			}
			snprintf(line, size, "%.*s", (int)(n < size ? n : size - 1), p);
			return true;
		}
		p += n + 1;
	}
	return false;
}
