/* Reading a config's YAML values with their positions: errors at
 * file:line:col, unknown keys with a likely one named, scalars as strings,
 * integers, seconds, booleans and names (config_impl.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_impl.h"
#include "schedattr.h"

int cfg_err_at(struct cfg_ctx *c, int line, int col, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errsz, "%s:%d:%d: %s", c->file, line, col, msg);
	return -1;
}

/* Levenshtein distance, for "did you mean" suggestions (99 past 64 characters). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t prev[65], cur[65];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(prev));
	}
	return prev[lb];
}

const char *cfg_nearest(const char *key, const char *const *known, size_t n_known)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < n_known && known[i]; i++) {
		size_t d = edit_distance(key, known[i]);
		if (d < best_d) {
			best_d = d;
			best = known[i];
		}
	}
	return best;
}

int cfg_unknown_key(struct cfg_ctx *c, const struct ypair *p, const char *where,
		       const char *const *known, size_t n_known)
{
	const char *near = cfg_nearest(p->key, known, n_known);
	if (near)
		return cfg_err_at(c, p->key_line, p->key_col, "unknown key '%s' in %s (did you mean '%s'?)",
			      p->key, where, near);
	return cfg_err_at(c, p->key_line, p->key_col, "unknown key '%s' in %s", p->key, where);
}

int cfg_check_keys(struct cfg_ctx *c, const struct ynode *m, const char *const *known,
		      const char *where)
{
	size_t n = 0;
	while (known[n])
		n++;
	for (size_t i = 0; i < m->n; i++) {
		bool ok = false;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(m->pairs[i].key, known[j]))
				ok = true;
		if (!ok)
			return cfg_unknown_key(c, &m->pairs[i], where, known, n);
	}
	return 0;
}

int cfg_want_kind(struct cfg_ctx *c, const struct ynode *n, enum ynode_kind k, const char *what)
{
	if (n->kind == k)
		return 0;
	if (n->kind == YNODE_SCALAR && !n->quoted && !*n->text)
		return cfg_err_at(c, n->line, n->col, "%s must be %s, not empty", what,
			      ynode_kind_name(k));
	return cfg_err_at(c, n->line, n->col, "%s must be %s, not %s", what, ynode_kind_name(k),
		      ynode_kind_name(n->kind));
}

int cfg_get_string(struct cfg_ctx *c, const struct ynode *n, const char *what, char **out)
{
	if (cfg_want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	*out = xstrdup(n->text);
	return 0;
}

int cfg_get_int(struct cfg_ctx *c, const struct ynode *n, const char *what, long long min,
		   long long max, long long *out)
{
	if (cfg_want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	if (!parse_ll(n->text, out))
		return cfg_err_at(c, n->line, n->col, "%s must be a whole number, not '%s'", what, n->text);
	if (*out < min || *out > max)
		return cfg_err_at(c, n->line, n->col, "%s must be between %lld and %lld, not %lld", what,
			      min, max, *out);
	return 0;
}

int cfg_get_seconds(struct cfg_ctx *c, const struct ynode *n, const char *what, double max,
		       double *out)
{
	if (cfg_want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	if (!parse_double(n->text, out) || !isfinite(*out))
		return cfg_err_at(c, n->line, n->col, "%s must be a number of seconds, not '%s'", what,
			      n->text);
	if (*out < 0 || *out > max)
		return cfg_err_at(c, n->line, n->col, "%s must be between 0 and %g, not %s", what, max,
			      n->text);
	return 0;
}

int cfg_get_bool(struct cfg_ctx *c, const struct ynode *n, const char *what, bool *out)
{
	if (cfg_want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	if (!strcmp(n->text, "true"))
		*out = true;
	else if (!strcmp(n->text, "false"))
		*out = false;
	else
		return cfg_err_at(c, n->line, n->col, "%s must be true or false, not '%s'", what, n->text);
	return 0;
}

bool cfg_valid_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return false;
	return true;
}

bool cfg_same_value(const char *a, const char *b)
{
	double x, y;
	return !strcmp(a, b) || (parse_double(a, &x) && parse_double(b, &y) && x == y);
}

int cfg_check_name(struct cfg_ctx *c, const char *name, int line, int col, const char *what)
{
	if (cfg_valid_name(name))
		return 0;
	return cfg_err_at(c, line, col,
			  "%s '%s' must be 1-64 characters of letters, digits, '.', '_', '-'",
			  what, name);
}

int cfg_get_name(struct cfg_ctx *c, const struct ynode *n, const char *what, char **out)
{
	if (cfg_get_string(c, n, what, out))
		return -1;
	return cfg_check_name(c, *out, n->line, n->col, what);
}

int cfg_opt_string(struct cfg_ctx *c, const struct ynode *m, const char *key, char **out)
{
	const struct ynode *v = ynode_get(m, key);
	return v ? cfg_get_string(c, v, key, out) : 0;
}

int cfg_opt_int(struct cfg_ctx *c, const struct ynode *m, const char *key, const char *what,
		long long min, long long max, int *out)
{
	const struct ynode *v = ynode_get(m, key);
	long long n;
	if (!v)
		return 0;
	if (cfg_get_int(c, v, what, min, max, &n))
		return -1;
	*out = (int)n;
	return 0;
}

int cfg_read_values(struct cfg_ctx *c, const struct ynode *v, const char *what,
		       struct cfg_value **out, size_t *n)
{
	size_t count = v->kind == YNODE_SEQUENCE ? v->n : 1;
	if (v->kind == YNODE_MAPPING)
		return cfg_want_kind(c, v, YNODE_SEQUENCE, what);
	*out = xcalloc(count ? count : 1, sizeof(**out));
	for (size_t i = 0; i < count; i++) {
		const struct ynode *it = v->kind == YNODE_SEQUENCE ? v->items[i] : v;
		if (cfg_want_kind(c, it, YNODE_SCALAR, what))
			return -1;
		if (!*it->text)
			return cfg_err_at(c, it->line, it->col, "%s: an item is empty", what);
		(*out)[(*n)++] = (struct cfg_value){xstrdup(it->text), it->line, it->col};
	}
	return 0;
}

int cfg_read_value(struct cfg_ctx *c, const struct ynode *v, const char *what,
		      struct cfg_value *out)
{
	if (cfg_want_kind(c, v, YNODE_SCALAR, what))
		return -1;
	if (!*v->text)
		return cfg_err_at(c, v->line, v->col, "%s must not be empty", what);
	*out = (struct cfg_value){xstrdup(v->text), v->line, v->col};
	return 0;
}

void cfg_free_values(struct cfg_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}
