/* Experiment config: YAML (libyaml, via yamlnode) → struct experiment. */
#include "config.h"

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

#include "knobs.h"
#include "schedattr.h"
#include "yamlnode.h"

#define MAX_CONFIG_BYTES (1024 * 1024)

static const char *const top_keys[] = {"name", "description", "iterations", "warmup_s",
				       "variants", "loads", "monitors", "order", "seed", "labs",
				       "bisect", "kernels", NULL};
static const char *const kernel_keys[] = {"source", "config", "base", "patches", "make_args",
					  NULL};
static const char *const load_keys[] = {"name", "tool", "role", "params", "sched",
					"timeout_s", "repeat", "primary_metric", NULL};
static const char *const iteration_keys[] = {"min", "max", "ci_pct", "max_time_s", NULL};
static const char *const variant_keys[] = {
	"name", "boot", "sysctl", "sched_features", "debugfs", "autogroup",
	"kernel", "initrd", "append", "cpus", "memory_mb", "accel", "timeout_s",
	"host", "port", "user", "identity", "workdir", "strict_host_key", "kexec",
	"lab", "device_type", "boot_method", "tags", NULL};
/* The keys of one boot kind (or two), and the kinds they are for. */
struct boot_keys {
	const char *const *keys;
	unsigned boots;  /* bit (1 << boot_kind) */
	const char *what;
};
static const char *const booted_keys[] = {"kernel", "initrd", "append", NULL};
static const char *const qemu_keys[] = {"cpus", "memory_mb", "accel", NULL};
static const char *const ssh_keys[] = {"host", "port", "user", "identity", "workdir",
				       "strict_host_key", "kexec", NULL};
static const char *const lava_keys[] = {"lab", "device_type", "boot_method", "tags", NULL};
static const struct boot_keys boot_keys[] = {
	{booted_keys, 1u << BOOT_QEMU | 1u << BOOT_LAVA, "boot: qemu or boot: lava"},
	{qemu_keys, 1u << BOOT_QEMU, "boot: qemu"},
	{ssh_keys, 1u << BOOT_SSH, "boot: ssh"},
	{lava_keys, 1u << BOOT_LAVA, "boot: lava"},
};
static const char *const lab_keys[] = {"url", "token_env", "artifacts", NULL};
static const char *const artifacts_keys[] = {"dir", "url", NULL};
static const char *const kexec_keys[] = {"kernel", "initrd", "append", NULL};

struct ctx {
	const char *file;
	char *err;
	size_t errsz;
};

static int err_at(struct ctx *c, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int err_at(struct ctx *c, int line, int col, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errsz, "%s:%d:%d: %s", c->file, line, col, msg);
	return -1;
}

const char *load_role_name(enum load_role r)
{
	return r == ROLE_BACKGROUND ? "background" : "measured";
}

/* Levenshtein distance, for "did you mean" suggestions. */
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

static const char *nearest(const char *key, const char *const *known, size_t n_known)
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

static int unknown_key(struct ctx *c, const struct ypair *p, const char *where,
		       const char *const *known, size_t n_known)
{
	const char *near = nearest(p->key, known, n_known);
	if (near)
		return err_at(c, p->key_line, p->key_col, "unknown key '%s' in %s (did you mean '%s'?)",
			      p->key, where, near);
	return err_at(c, p->key_line, p->key_col, "unknown key '%s' in %s", p->key, where);
}

static int check_keys(struct ctx *c, const struct ynode *m, const char *const *known,
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
			return unknown_key(c, &m->pairs[i], where, known, n);
	}
	return 0;
}

static int want_kind(struct ctx *c, const struct ynode *n, enum ynode_kind k, const char *what)
{
	if (n->kind == k)
		return 0;
	if (n->kind == YNODE_SCALAR && !n->quoted && !*n->text)
		return err_at(c, n->line, n->col, "%s must be %s, not empty", what,
			      ynode_kind_name(k));
	return err_at(c, n->line, n->col, "%s must be %s, not %s", what, ynode_kind_name(k),
		      ynode_kind_name(n->kind));
}

static int get_string(struct ctx *c, const struct ynode *n, const char *what, char **out)
{
	if (want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	*out = xstrdup(n->text);
	return 0;
}

static int get_int(struct ctx *c, const struct ynode *n, const char *what, long long min,
		   long long max, long long *out)
{
	if (want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	if (!parse_ll(n->text, out))
		return err_at(c, n->line, n->col, "%s must be a whole number, not '%s'", what, n->text);
	if (*out < min || *out > max)
		return err_at(c, n->line, n->col, "%s must be between %lld and %lld, not %lld", what,
			      min, max, *out);
	return 0;
}

static int get_seconds(struct ctx *c, const struct ynode *n, const char *what, double max,
		       double *out)
{
	if (want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	if (!parse_double(n->text, out) || !isfinite(*out))
		return err_at(c, n->line, n->col, "%s must be a number of seconds, not '%s'", what,
			      n->text);
	if (*out < 0 || *out > max)
		return err_at(c, n->line, n->col, "%s must be between 0 and %g, not %s", what, max,
			      n->text);
	return 0;
}

static int get_bool(struct ctx *c, const struct ynode *n, const char *what, bool *out)
{
	if (want_kind(c, n, YNODE_SCALAR, what))
		return -1;
	if (!strcmp(n->text, "true"))
		*out = true;
	else if (!strcmp(n->text, "false"))
		*out = false;
	else
		return err_at(c, n->line, n->col, "%s must be true or false, not '%s'", what, n->text);
	return 0;
}

static bool valid_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return false;
	return true;
}

/* Two values of one matrix axis are the same cell: equal text, or equal
 * numbers however written (1, 01, 1.0). */
static bool same_value(const char *a, const char *b)
{
	double x, y;
	return !strcmp(a, b) || (parse_double(a, &x) && parse_double(b, &y) && x == y);
}

static int get_name(struct ctx *c, const struct ynode *n, const char *what, char **out)
{
	if (get_string(c, n, what, out))
		return -1;
	if (!valid_name(*out))
		return err_at(c, n->line, n->col,
			      "%s '%s' must be 1-64 characters of letters, digits, '.', '_', '-'",
			      what, *out);
	return 0;
}

/* A params value for a driver parameter: type and range per param_def. */
static int check_param_value(struct ctx *c, const struct param_def *d, const struct cfg_value *v)
{
	long long n;
	switch (d->type) {
	case PARAM_INT:
	case PARAM_UINT:
		if (!parse_ll(v->text, &n))
			return err_at(c, v->line, v->col, "%s must be a whole number, not '%s'", d->name,
				      v->text);
		if (d->type == PARAM_UINT && n < 0)
			return err_at(c, v->line, v->col, "%s must not be negative", d->name);
		if (d->min <= d->max && (n < d->min || n > d->max))
			return err_at(c, v->line, v->col, "%s must be between %lld and %lld, not %lld",
				      d->name, d->min, d->max, n);
		return 0;
	case PARAM_BOOL:
		if (strcmp(v->text, "true") && strcmp(v->text, "false"))
			return err_at(c, v->line, v->col, "%s must be true or false, not '%s'", d->name,
				      v->text);
		return 0;
	case PARAM_ENUM: {
		size_t len = strlen(v->text);
		for (const char *p = d->choices; p && *p;) {
			const char *bar = strchr(p, '|');
			size_t plen = bar ? (size_t)(bar - p) : strlen(p);
			if (plen == len && !strncmp(p, v->text, len))
				return 0;
			p = bar ? bar + 1 : p + plen;
		}
		return err_at(c, v->line, v->col, "%s must be one of %s, not '%s'", d->name,
			      d->choices, v->text);
	}
	case PARAM_STRING:
		return 0;
	}
	return 0;
}

/* Read one params:/sched: mapping entry: a scalar, a list (an axis), or an
 * axis with a label: {values: [...], label: LN}. */
static int read_setting(struct ctx *c, const struct ypair *p, struct cfg_setting *s)
{
	const struct ynode *v = p->value;
	s->key = xstrdup(p->key);
	s->line = p->key_line;
	s->col = p->key_col;
	if (v->kind == YNODE_MAPPING) {
		const struct ynode *label = ynode_get(v, "label");
		for (size_t i = 0; i < v->n; i++)
			if (strcmp(v->pairs[i].key, "values") && strcmp(v->pairs[i].key, "label"))
				return err_at(c, v->line, v->col, "%s must be a value, a list of values or"
					      " {values: [...], label: NAME}, not a mapping with '%s'",
					      p->key, v->pairs[i].key);
		if (label && get_name(c, label, "label", &s->label))
			return -1;
		if (!(v = ynode_get(v, "values")))
			return err_at(c, p->value->line, p->value->col,
				      "%s: an axis written as a mapping needs values: [...]", p->key);
		if (want_kind(c, v, YNODE_SEQUENCE, "values"))
			return -1;
	}
	if (v->kind == YNODE_SCALAR) {
		s->values = xcalloc(1, sizeof(*s->values));
		s->values[0] = (struct cfg_value){xstrdup(v->text), v->line, v->col};
		s->n = 1;
		return 0;
	}
	if (v->n == 0)
		return err_at(c, v->line, v->col, "%s: an empty list gives no matrix values", p->key);
	s->is_axis = true;
	s->values = xcalloc(v->n, sizeof(*s->values));
	for (size_t i = 0; i < v->n; i++) {
		const struct ynode *it = v->items[i];
		if (it->kind != YNODE_SCALAR)
			return err_at(c, it->line, it->col, "%s: list items must be plain values",
				      p->key);
		for (size_t j = 0; j < s->n; j++) {
			const char *before = s->values[j].text;
			if (!strcmp(before, it->text))
				return err_at(c, it->line, it->col, "%s: value '%s' is listed twice",
					      p->key, it->text);
			if (same_value(before, it->text))
				return err_at(c, it->line, it->col, "%s: value '%s' is '%s' again",
					      p->key, it->text, before);
		}
		s->values[s->n++] = (struct cfg_value){xstrdup(it->text), it->line, it->col};
	}
	return 0;
}

static int read_params(struct ctx *c, const struct ynode *m, struct cfg_load *l)
{
	if (want_kind(c, m, YNODE_MAPPING, "params"))
		return -1;
	l->params = xcalloc(m->n, sizeof(*l->params));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		const struct param_def *d = load_param(l->ops, p->key);
		if (!d) {
			const char **names = xcalloc(l->ops->n_params + 1, sizeof(*names));
			for (size_t k = 0; k < l->ops->n_params; k++)
				names[k] = l->ops->params[k].name;
			char where[128];
			snprintf(where, sizeof(where), "params of %s", l->ops->name);
			int rc = unknown_key(c, p, where, names, l->ops->n_params);
			free(names);
			return rc;
		}
		struct cfg_setting *s = &l->params[l->n_params++];
		if (read_setting(c, p, s))
			return -1;
		for (size_t k = 0; k < s->n; k++)
			if (check_param_value(c, d, &s->values[k]))
				return -1;
	}
	return 0;
}

/* One sched: setting (key as in sched_req_set), each value checked. */
static int read_sched_setting(struct ctx *c, const struct ypair *p, const char *key,
			      struct cfg_load *l)
{
	struct cfg_setting *s = &l->sched[l->n_sched++];
	memset(s, 0, sizeof(*s)); /* read_sched_cgroup grows the array */
	if (read_setting(c, p, s))
		return -1;
	free(s->key);
	s->key = xstrdup(key);
	for (size_t k = 0; k < s->n; k++) {
		struct sched_req r = {0};
		char msg[256];
		if (sched_req_set(&r, s->key, s->values[k].text, msg, sizeof(msg)))
			return err_at(c, s->values[k].line, s->values[k].col, "%s", msg);
	}
	return 0;
}

/* sched: {cgroup: {weight: W, idle: 0|1, max: "QUOTA PERIOD"}}: settings
 * cgroup.weight, cgroup.idle, cgroup.max (each a value or an axis). */
static int read_sched_cgroup(struct ctx *c, const struct ynode *m, struct cfg_load *l,
			     size_t *cap)
{
	static const char *const keys[] = {"weight", "idle", "max"};
	if (want_kind(c, m, YNODE_MAPPING, "sched: cgroup"))
		return -1;
	*cap += m->n;
	l->sched = xrealloc(l->sched, *cap * sizeof(*l->sched));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		size_t k = 0;
		while (k < 3 && strcmp(p->key, keys[k]))
			k++;
		if (k == 3)
			return unknown_key(c, p, "sched: cgroup", keys, 3);
		char key[32];
		snprintf(key, sizeof(key), "cgroup.%s", keys[k]);
		if (read_sched_setting(c, p, key, l))
			return -1;
	}
	return 0;
}

static int read_sched(struct ctx *c, const struct ynode *m, struct cfg_load *l)
{
	size_t n_keys = 0, cap;
	while (sched_keys[n_keys])
		n_keys++;
	if (want_kind(c, m, YNODE_MAPPING, "sched"))
		return -1;
	cap = m->n;
	l->sched = xcalloc(cap ? cap : 1, sizeof(*l->sched));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		bool known = false;
		for (size_t k = 0; k < n_keys; k++)
			if (!strcmp(p->key, sched_keys[k]))
				known = true;
		if (!known)
			return unknown_key(c, p, "sched", sched_keys, n_keys);
		if (!strcmp(p->key, "cgroup") ? read_sched_cgroup(c, p->value, l, &cap)
					       : read_sched_setting(c, p, p->key, l))
			return -1;
	}
	return 0;
}

/* The highest CPU of a cpus: list that sched_req_set accepted ("0-1,3"). */
static long long cpus_highest(const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	long long hi = -1, v;
	for (char *tok = strtok_r(copy, ",-", &save); tok; tok = strtok_r(NULL, ",-", &save))
		if (parse_ll(tok, &v) && v > hi)
			hi = v;
	free(copy);
	return hi;
}

/* Every CPU the cpus: list val names must exist where its loads run: on
 * this machine for a boot: local variant, among the guest's cpus: for a
 * boot: qemu one. A boot: ssh machine's CPUs are not known here: there, a
 * list naming a CPU it lacks fails the load (sched_setaffinity). */
static int check_cpus(struct ctx *c, const struct experiment *e, const struct cfg_value *val)
{
	long host_cpus = sysconf(_SC_NPROCESSORS_CONF);
	long long hi = cpus_highest(val->text);

	for (size_t v = 0; v < e->n_variants; v++) {
		const struct cfg_variant *var = &e->variants[v];
		if (var->boot == BOOT_LOCAL && hi >= host_cpus)
			return err_at(c, val->line, val->col,
				      "cpus '%s' names CPU %lld, but this machine has CPUs 0-%ld",
				      val->text, hi, host_cpus - 1);
		if (var->boot == BOOT_QEMU && hi >= var->cpus)
			return err_at(c, val->line, val->col,
				      "cpus '%s' names CPU %lld, but variant %s (boot: qemu) has"
				      " cpus: %d, CPUs 0-%d", val->text, hi, var->name, var->cpus,
				      var->cpus - 1);
	}
	return 0;
}

/* check_cpus for every value of every load's sched: cpus:. */
static int check_all_cpus(struct ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_loads; i++) {
		const struct cfg_load *l = &e->loads[i];
		for (size_t k = 0; k < l->n_sched; k++) {
			if (strcmp(l->sched[k].key, "cpus"))
				continue;
			for (size_t j = 0; j < l->sched[k].n; j++)
				if (check_cpus(c, e, &l->sched[k].values[j]))
					return -1;
		}
	}
	return 0;
}

static int read_load(struct ctx *c, const struct ynode *m, struct cfg_load *l)
{
	const struct ynode *v;
	l->line = m->line;
	l->col = m->col;
	l->timeout_s = 600;
	if (want_kind(c, m, YNODE_MAPPING, "a load") || check_keys(c, m, load_keys, "a load"))
		return -1;
	v = ynode_get(m, "tool");
	if (!v)
		return err_at(c, m->line, m->col, "a load needs 'tool:' (see schedrig loads)");
	if (want_kind(c, v, YNODE_SCALAR, "tool"))
		return -1;
	l->ops = load_find(v->text);
	if (!l->ops) {
		size_t n;
		const struct load_ops *const *all = load_all(&n);
		const char **names = xcalloc(n + 1, sizeof(*names));
		for (size_t i = 0; i < n; i++)
			names[i] = all[i]->name;
		const char *near = nearest(v->text, names, n);
		free(names);
		if (near)
			return err_at(c, v->line, v->col, "unknown tool '%s' (did you mean '%s'?)",
				      v->text, near);
		return err_at(c, v->line, v->col, "unknown tool '%s' (see schedrig loads)", v->text);
	}
	if ((v = ynode_get(m, "name"))) {
		if (get_name(c, v, "load name", &l->name))
			return -1;
	} else {
		l->name = xstrdup(l->ops->name);
	}
	if ((v = ynode_get(m, "role"))) {
		if (want_kind(c, v, YNODE_SCALAR, "role"))
			return -1;
		if (!strcmp(v->text, "measured"))
			l->role = ROLE_MEASURED;
		else if (!strcmp(v->text, "background"))
			l->role = ROLE_BACKGROUND;
		else
			return err_at(c, v->line, v->col, "role must be measured or background, not '%s'",
				      v->text);
	}
	if ((v = ynode_get(m, "timeout_s")) && get_seconds(c, v, "timeout_s", 86400, &l->timeout_s))
		return -1;
	if (l->timeout_s <= 0 && v)
		return err_at(c, v->line, v->col, "timeout_s must be more than 0");
	if ((v = ynode_get(m, "repeat"))) {
		if (get_bool(c, v, "repeat", &l->repeat))
			return -1;
		if (l->repeat && l->role != ROLE_BACKGROUND)
			return err_at(c, v->line, v->col, "repeat: true is for background loads only");
	}
	if ((v = ynode_get(m, "params")) && read_params(c, v, l))
		return -1;
	if ((v = ynode_get(m, "primary_metric"))) {
		if (want_kind(c, v, YNODE_SCALAR, "primary_metric"))
			return -1;
		for (size_t i = 0; i < l->ops->n_metrics && !l->primary_metric; i++)
			if (!strcmp(l->ops->metrics[i].name, v->text))
				l->primary_metric = l->ops->metrics[i].name;
		if (!l->primary_metric)
			return err_at(c, v->line, v->col, "%s has no metric '%s' (see schedrig loads %s)",
				      l->ops->name, v->text, l->ops->name);
	}
	if ((v = ynode_get(m, "sched")) && read_sched(c, v, l))
		return -1;
	return 0;
}

/* The knob among k[0..n) that name of kind is another spelling of
 * (knob_canonical), or NULL. */
static const struct cfg_knob *knob_twin(const char *kind, const struct cfg_knob *k, size_t n,
					const char *name)
{
	char *want = knob_canonical(kind, name);
	const struct cfg_knob *twin = NULL;
	for (size_t i = 0; i < n && !twin; i++) {
		char *have = knob_canonical(kind, k[i].key);
		if (!strcmp(have, want))
			twin = &k[i];
		free(have);
	}
	free(want);
	return twin;
}

/* name (at line, col) sets a knob that one of k[0..n) of kind sets already: an error. */
static int knob_unique(struct ctx *c, const char *kind, const struct cfg_knob *k, size_t n,
		       const char *name, int line, int col)
{
	const struct cfg_knob *twin = knob_twin(kind, k, n, name);
	if (!twin)
		return 0;
	return err_at(c, line, col, "%s: %s is the knob %s (line %d) sets already: one knob, one"
		      " value", kind, name, twin->key, twin->line);
}

/* A map of knob keys to scalar values (sysctl:, debugfs:). */
static int read_knob_map(struct ctx *c, const struct ynode *m, const char *what,
			 struct cfg_knob **out, size_t *n)
{
	if (want_kind(c, m, YNODE_MAPPING, what))
		return -1;
	*out = xcalloc(m->n ? m->n : 1, sizeof(**out));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		if (p->value->kind != YNODE_SCALAR)
			return err_at(c, p->value->line, p->value->col, "%s: %s must be a single value",
				      what, p->key);
		char why[512];
		if (knob_name_check(what, p->key, why, sizeof(why)))
			return err_at(c, p->key_line, p->key_col, "%s", why);
		if (knob_unique(c, what, *out, *n, p->key, p->key_line, p->key_col))
			return -1;
		(*out)[(*n)++] = (struct cfg_knob){xstrdup(p->key), xstrdup(p->value->text),
						   p->key_line, p->key_col};
	}
	return 0;
}

static int read_features(struct ctx *c, const struct ynode *v, struct cfg_variant *var)
{
	if (want_kind(c, v, YNODE_SEQUENCE, "sched_features"))
		return -1;
	var->sched_features = xcalloc(v->n ? v->n : 1, sizeof(*var->sched_features));
	for (size_t i = 0; i < v->n; i++) {
		const struct ynode *it = v->items[i];
		char why[512];
		if (knob_name_check("sched_features", it->kind == YNODE_SCALAR ? it->text : "", why,
				    sizeof(why)))
			return err_at(c, it->line, it->col, "%s", why);
		if (knob_unique(c, "sched_features", var->sched_features, var->n_sched_features,
				it->text, it->line, it->col))
			return -1;
		var->sched_features[var->n_sched_features++] =
			(struct cfg_knob){xstrdup(it->text), NULL, it->line, it->col};
	}
	return 0;
}

/* Keys that belong to another boot kind are errors, not silently ignored. */
static int check_boot_keys(struct ctx *c, const struct ynode *m, const struct cfg_variant *var,
			   const char *boot)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		for (size_t g = 0; g < sizeof(boot_keys) / sizeof(boot_keys[0]); g++)
			for (size_t k = 0; boot_keys[g].keys[k]; k++)
				if (!strcmp(p->key, boot_keys[g].keys[k]) &&
				    !(boot_keys[g].boots & 1u << var->boot))
					return err_at(c, p->key_line, p->key_col,
						      "'%s' is for %s, not boot: %s", p->key,
						      boot_keys[g].what, boot);
		/* How long a kernel may take to come up (a qemu boot, an ssh
		 * machine after kexec): nothing boots for boot: local. */
		if (!strcmp(p->key, "timeout_s") && var->boot == BOOT_LOCAL)
			return err_at(c, p->key_line, p->key_col,
				      "'timeout_s' is for boot: qemu, ssh or lava, not boot: local");
	}
	return 0;
}

static int opt_string(struct ctx *c, const struct ynode *m, const char *key, char **out)
{
	const struct ynode *v = ynode_get(m, key);
	return v ? get_string(c, v, key, out) : 0;
}

/* kernel: {build: NAME}: a kernel the rig builds (kernels:). */
static int read_build_ref(struct ctx *c, const struct ynode *m, struct cfg_variant *var)
{
	static const char *const keys[] = {"build", NULL};
	const struct ynode *b = ynode_get(m, "build");
	if (check_keys(c, m, keys, "kernel"))
		return -1;
	if (!b)
		return err_at(c, m->line, m->col, "kernel: as a mapping needs 'build:' (a name"
			      " under kernels:)");
	var->build_line = b->line;
	var->build_col = b->col;
	return get_name(c, b, "kernel build", &var->build);
}

static int read_kexec(struct ctx *c, const struct ynode *m, struct cfg_variant *var)
{
	if (want_kind(c, m, YNODE_MAPPING, "kexec") || check_keys(c, m, kexec_keys, "kexec"))
		return -1;
	const struct ynode *k = ynode_get(m, "kernel");
	if (!k)
		return err_at(c, m->line, m->col, "kexec needs 'kernel:'");
	if (k->kind == YNODE_MAPPING ? read_build_ref(c, k, var) :
				       opt_string(c, m, "kernel", &var->kexec_kernel))
		return -1;
	return opt_string(c, m, "initrd", &var->kexec_initrd) ||
	       opt_string(c, m, "initrd", &var->kexec_initrd) ||
	       opt_string(c, m, "append", &var->kexec_append);
}

/* tags: a list of LAVA device tag names. */
static int read_tags(struct ctx *c, const struct ynode *v, struct cfg_variant *var)
{
	if (want_kind(c, v, YNODE_SEQUENCE, "tags"))
		return -1;
	var->tags = xcalloc(v->n ? v->n : 1, sizeof(*var->tags));
	for (size_t i = 0; i < v->n; i++)
		if (get_name(c, v->items[i], "tag", &var->tags[var->n_tags++]))
			return -1;
	return 0;
}

/* The lava group of a variant: lab (one of e's labs), device_type,
 * boot_method, tags; an append: LAVA can pass on. */
static int read_lava(struct ctx *c, const struct ynode *m, const struct experiment *e,
		     struct cfg_variant *var)
{
	const struct ynode *v;
	char *lab = NULL;

	if (!(v = ynode_get(m, "lab")))
		return err_at(c, m->line, m->col, "boot: lava needs 'lab:' (a name under labs:)");
	if (get_string(c, v, "lab", &lab))
		return -1;
	for (size_t i = 0; i < e->n_labs && !var->lab; i++)
		if (!strcmp(e->labs[i].name, lab))
			var->lab = &e->labs[i];
	free(lab);
	if (!var->lab)
		return err_at(c, v->line, v->col, "lab '%s' is not under labs:", v->text);
	if (!(v = ynode_get(m, "device_type")))
		return err_at(c, m->line, m->col, "boot: lava needs 'device_type:' (the lab's"
			      " device type, e.g. qemu)");
	if (get_name(c, v, "device_type", &var->device_type))
		return -1;
	if ((v = ynode_get(m, "boot_method")) && get_name(c, v, "boot_method", &var->boot_method))
		return -1;
	if (!var->boot_method && strcmp(var->device_type, "qemu"))
		return err_at(c, m->line, m->col, "device_type %s needs 'boot_method:' (how its"
			      " devices boot a kernel in LAVA: grub, ipxe, u-boot, ...)",
			      var->device_type);
	if (!var->boot_method)
		var->boot_method = xstrdup("qemu");
	if ((v = ynode_get(m, "tags")) && read_tags(c, v, var))
		return -1;
	if (!var->kernel)
		return err_at(c, m->line, m->col, "boot: lava needs 'kernel:' (a bzImage or a"
			      " linux-image .deb or package name)");
	for (const char *p = var->append ? var->append : ""; *p; p++)
		if (strchr("\"\\{}", *p) || (unsigned char)*p < 0x20 || *p == 0x7f) {
			v = ynode_get(m, "append");
			return err_at(c, v->line, v->col, "append of a boot: lava variant may not"
				      " hold quotes, backslashes, braces or control characters"
				      " (LAVA splits the qemu command line itself)");
		}
	return 0;
}

static int read_variant(struct ctx *c, const struct ynode *m, const struct experiment *e,
			struct cfg_variant *var)
{
	const struct ynode *v;
	long long n;
	const char *boot = "local";

	var->line = m->line;
	var->col = m->col;
	var->autogroup = -1;
	var->cpus = 2;
	var->memory_mb = 2048;
	var->boot_timeout_s = 600;
	var->port = 22;
	var->strict_host_key = true;
	if (want_kind(c, m, YNODE_MAPPING, "a variant") ||
	    check_keys(c, m, variant_keys, "a variant"))
		return -1;
	if (!(v = ynode_get(m, "name")))
		return err_at(c, m->line, m->col, "a variant needs 'name:'");
	if (get_name(c, v, "variant name", &var->name))
		return -1;
	if ((v = ynode_get(m, "boot"))) {
		if (want_kind(c, v, YNODE_SCALAR, "boot"))
			return -1;
		boot = v->text;
		if (!strcmp(boot, "local"))
			var->boot = BOOT_LOCAL;
		else if (!strcmp(boot, "qemu"))
			var->boot = BOOT_QEMU;
		else if (!strcmp(boot, "ssh"))
			var->boot = BOOT_SSH;
		else if (!strcmp(boot, "lava"))
			var->boot = BOOT_LAVA;
		else
			return err_at(c, v->line, v->col,
				      "boot must be local, qemu, ssh or lava, not '%s'", boot);
	}
	if (check_boot_keys(c, m, var, boot))
		return -1;
	if ((v = ynode_get(m, "sysctl")) &&
	    read_knob_map(c, v, "sysctl", &var->sysctl, &var->n_sysctl))
		return -1;
	if ((v = ynode_get(m, "debugfs")) &&
	    read_knob_map(c, v, "debugfs", &var->debugfs, &var->n_debugfs))
		return -1;
	if ((v = ynode_get(m, "sched_features")) && read_features(c, v, var))
		return -1;
	if ((v = ynode_get(m, "autogroup"))) {
		if (want_kind(c, v, YNODE_SCALAR, "autogroup"))
			return -1;
		if (!strcmp(v->text, "on"))
			var->autogroup = 1;
		else if (!strcmp(v->text, "off"))
			var->autogroup = 0;
		else
			return err_at(c, v->line, v->col, "autogroup must be on or off, not '%s'",
				      v->text);
		const struct cfg_knob *twin = knob_twin("sysctl", var->sysctl, var->n_sysctl,
							"kernel.sched_autogroup_enabled");
		if (twin)
			return err_at(c, v->line, v->col, "autogroup is the knob sysctl %s (line %d)"
				      " sets already: one knob, one value", twin->key, twin->line);
	}
	if ((v = ynode_get(m, "kernel")) && v->kind == YNODE_MAPPING) {
		if (read_build_ref(c, v, var))
			return -1;
	} else if (opt_string(c, m, "kernel", &var->kernel)) {
		return -1;
	}
	if (opt_string(c, m, "initrd", &var->initrd) ||
	    opt_string(c, m, "append", &var->append) || opt_string(c, m, "accel", &var->accel) ||
	    opt_string(c, m, "host", &var->host) || opt_string(c, m, "user", &var->user) ||
	    opt_string(c, m, "identity", &var->identity) ||
	    opt_string(c, m, "workdir", &var->workdir))
		return -1;
	if ((v = ynode_get(m, "cpus"))) {
		if (get_int(c, v, "cpus", 1, 64, &n))
			return -1;
		var->cpus = (int)n;
	}
	if ((v = ynode_get(m, "memory_mb"))) {
		if (get_int(c, v, "memory_mb", 128, 65536, &n))
			return -1;
		var->memory_mb = (int)n;
	}
	if ((v = ynode_get(m, "port"))) {
		if (get_int(c, v, "port", 1, 65535, &n))
			return -1;
		var->port = (int)n;
	}
	if ((v = ynode_get(m, "timeout_s")) &&
	    get_seconds(c, v, "timeout_s", 86400, &var->boot_timeout_s))
		return -1;
	if ((v = ynode_get(m, "strict_host_key")) &&
	    get_bool(c, v, "strict_host_key", &var->strict_host_key))
		return -1;
	if ((v = ynode_get(m, "kexec")) && read_kexec(c, v, var))
		return -1;
	if (var->accel && strcmp(var->accel, "auto") && strcmp(var->accel, "kvm") &&
	    strcmp(var->accel, "tcg")) {
		v = ynode_get(m, "accel");
		return err_at(c, v->line, v->col, "accel must be auto, kvm or tcg, not '%s'",
			      var->accel);
	}
	if (var->boot == BOOT_QEMU && !var->kernel && !var->build)
		return err_at(c, m->line, m->col, "boot: qemu needs 'kernel:' (a bzImage, a"
			      " linux-image .deb, or a Debian package name)");
	if (var->boot == BOOT_SSH && !var->host)
		return err_at(c, m->line, m->col, "boot: ssh needs 'host:'");
	if (var->boot == BOOT_LAVA)
		return read_lava(c, m, e, var);
	return 0;
}

/* artifacts: {dir: /abs/dir, url: file:///...|http(s)://...} of a lab. */
static int read_artifacts(struct ctx *c, const struct ynode *m, struct cfg_lab *lab)
{
	const struct ynode *v;
	if (want_kind(c, m, YNODE_MAPPING, "artifacts"))
		return -1;
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->pairs[i].key, "upload"))
			return err_at(c, m->pairs[i].key_line, m->pairs[i].key_col, "artifacts: upload"
				      " is not supported; give dir: (a directory the lab's dispatchers"
				      " reach through url:, e.g. one a web server publishes)");
	if (check_keys(c, m, artifacts_keys, "artifacts"))
		return -1;
	if (!(v = ynode_get(m, "dir")))
		return err_at(c, m->line, m->col, "artifacts needs 'dir:' (where the rig writes"
			      " each job's kernel and initramfs)");
	if (get_string(c, v, "dir", &lab->artifacts_dir))
		return -1;
	if (lab->artifacts_dir[0] != '/')
		return err_at(c, v->line, v->col, "artifacts dir must be an absolute path, not '%s'",
			      v->text);
	if (!(v = ynode_get(m, "url")))
		return err_at(c, m->line, m->col, "artifacts needs 'url:' (dir as the lab's"
			      " dispatchers fetch it: file://, http:// or https://)");
	if (get_string(c, v, "url", &lab->artifacts_url))
		return -1;
	if (strncmp(v->text, "file:///", 8) && strncmp(v->text, "http://", 7) &&
	    strncmp(v->text, "https://", 8))
		return err_at(c, v->line, v->col, "artifacts url must start with file:///, http://"
			      " or https://, not '%s'", v->text);
	size_t len = strlen(lab->artifacts_url);
	while (len > 8 && lab->artifacts_url[len - 1] == '/')
		lab->artifacts_url[--len] = '\0';
	return 0;
}

/* labs: {NAME: {url, token_env, artifacts}} (struct cfg_lab). */
static int read_labs(struct ctx *c, const struct ynode *m, struct experiment *e)
{
	if (want_kind(c, m, YNODE_MAPPING, "labs"))
		return -1;
	e->labs = xcalloc(m->n ? m->n : 1, sizeof(*e->labs));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		const struct ynode *l = p->value, *v;
		struct cfg_lab *lab = &e->labs[e->n_labs++];
		lab->line = p->key_line;
		lab->col = p->key_col;
		lab->name = xstrdup(p->key);
		if (!valid_name(p->key))
			return err_at(c, p->key_line, p->key_col, "lab name '%s' must be 1-64"
				      " characters of letters, digits, '.', '_', '-'", p->key);
		if (want_kind(c, l, YNODE_MAPPING, "a lab") || check_keys(c, l, lab_keys, "a lab"))
			return -1;
		if (!(v = ynode_get(l, "url")))
			return err_at(c, l->line, l->col, "a lab needs 'url:' (its LAVA server)");
		if (get_string(c, v, "url", &lab->url))
			return -1;
		if ((strncmp(v->text, "http://", 7) && strncmp(v->text, "https://", 8)) ||
		    strpbrk(v->text, " \t\r\n?#"))
			return err_at(c, v->line, v->col, "a lab's url must be http:// or https://"
				      " without spaces, query or fragment, not '%s'", v->text);
		size_t len = strlen(lab->url);
		while (len > 8 && lab->url[len - 1] == '/')
			lab->url[--len] = '\0';
		if ((v = ynode_get(l, "token_env"))) {
			if (get_string(c, v, "token_env", &lab->token_env))
				return -1;
			bool ok = *v->text && !isdigit((unsigned char)v->text[0]);
			for (const char *q = v->text; *q; q++)
				ok &= isalnum((unsigned char)*q) || *q == '_';
			if (!ok)
				return err_at(c, v->line, v->col, "token_env must name an environment"
					      " variable ([A-Za-z_][A-Za-z0-9_]*), not '%s'", v->text);
		}
		if (!(v = ynode_get(l, "artifacts")))
			return err_at(c, l->line, l->col, "a lab needs 'artifacts: {dir, url}'");
		if (read_artifacts(c, v, lab))
			return -1;
	}
	return 0;
}

/* A list of scalars (or one scalar) with positions, into *out. */
static int read_values(struct ctx *c, const struct ynode *v, const char *what,
		       struct cfg_value **out, size_t *n)
{
	size_t count = v->kind == YNODE_SEQUENCE ? v->n : 1;
	if (v->kind == YNODE_MAPPING)
		return want_kind(c, v, YNODE_SEQUENCE, what);
	*out = xcalloc(count ? count : 1, sizeof(**out));
	for (size_t i = 0; i < count; i++) {
		const struct ynode *it = v->kind == YNODE_SEQUENCE ? v->items[i] : v;
		if (want_kind(c, it, YNODE_SCALAR, what))
			return -1;
		if (!*it->text)
			return err_at(c, it->line, it->col, "%s: an item is empty", what);
		(*out)[(*n)++] = (struct cfg_value){xstrdup(it->text), it->line, it->col};
	}
	return 0;
}

static int read_value(struct ctx *c, const struct ynode *v, const char *what,
		      struct cfg_value *out)
{
	if (want_kind(c, v, YNODE_SCALAR, what))
		return -1;
	if (!*v->text)
		return err_at(c, v->line, v->col, "%s must not be empty", what);
	*out = (struct cfg_value){xstrdup(v->text), v->line, v->col};
	return 0;
}

/* An inline config option: CONFIG_NAME=value. */
static bool inline_option(const char *s)
{
	if (strncmp(s, "CONFIG_", 7))
		return false;
	const char *p = s + 7;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	return p > s + 7 && *p == '=';
}

/* config: the first item is the base config (tinyconfig, defconfig,
 * package or a file), the rest fragments (guest, a file, CONFIG_X=v). */
static int check_kernel_config(struct ctx *c, const struct cfg_kernel *k)
{
	for (size_t i = 0; i < k->n_config; i++) {
		const struct cfg_value *v = &k->config[i];
		bool base = !strcmp(v->text, "tinyconfig") || !strcmp(v->text, "defconfig") ||
			    !strcmp(v->text, "package");
		if (i == 0 && (inline_option(v->text) || !strcmp(v->text, "guest")))
			return err_at(c, v->line, v->col, "config: the first item is the base"
				      " config (tinyconfig, defconfig, package or a .config file),"
				      " not the fragment '%s'", v->text);
		if (i > 0 && base)
			return err_at(c, v->line, v->col, "config: '%s' is a base config; only the"
				      " first item may be one", v->text);
		if (!strncmp(v->text, "CONFIG_", 7) && !inline_option(v->text))
			return err_at(c, v->line, v->col, "config: '%s' is not CONFIG_NAME=value",
				      v->text);
	}
	return 0;
}

static int read_kernel(struct ctx *c, const struct ypair *p, struct cfg_kernel *k)
{
	const struct ynode *m = p->value, *v;
	k->line = p->key_line;
	k->col = p->key_col;
	k->name = xstrdup(p->key);
	if (!valid_name(k->name))
		return err_at(c, k->line, k->col, "kernel name '%s' must be 1-64 characters of"
			      " letters, digits, '.', '_', '-'", k->name);
	if (want_kind(c, m, YNODE_MAPPING, "a kernel") || check_keys(c, m, kernel_keys, "a kernel"))
		return -1;
	if ((v = ynode_get(m, "source")) && read_value(c, v, "source", &k->source))
		return -1;
	if ((v = ynode_get(m, "base")) && read_value(c, v, "base", &k->base))
		return -1;
	if ((v = ynode_get(m, "config")) &&
	    (read_values(c, v, "config", &k->config, &k->n_config) || check_kernel_config(c, k)))
		return -1;
	if ((v = ynode_get(m, "patches")) &&
	    read_values(c, v, "patches", &k->patches, &k->n_patches))
		return -1;
	if ((v = ynode_get(m, "make_args"))) {
		k->make_args_given = true;
		if (read_values(c, v, "make_args", &k->make_args, &k->n_make_args))
			return -1;
	}
	if (!k->base.text && !k->source.text)
		return err_at(c, k->line, k->col, "kernel '%s' needs 'source:' (or 'base:')", k->name);
	if (!k->base.text && !k->n_config)
		return err_at(c, k->line, k->col, "kernel '%s' needs 'config:' (or 'base:'), e.g."
			      " [tinyconfig, guest]", k->name);
	return 0;
}

const struct cfg_kernel *config_kernel(const struct experiment *e, const char *name)
{
	for (size_t i = 0; i < e->n_kernels; i++)
		if (!strcmp(e->kernels[i].name, name))
			return &e->kernels[i];
	return NULL;
}

/* Every base: names a kernel, and no chain of base: comes back to itself. */
static int check_kernel_bases(struct ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_kernels; i++) {
		const struct cfg_kernel *k = &e->kernels[i];
		size_t steps = 0;
		while (k->base.text) {
			const struct cfg_kernel *b = config_kernel(e, k->base.text);
			if (!b)
				return err_at(c, k->base.line, k->base.col,
					      "base: no kernel named '%s' under kernels:", k->base.text);
			if (++steps > e->n_kernels)
				return err_at(c, e->kernels[i].line, e->kernels[i].col,
					      "kernel '%s': its chain of base: is a cycle",
					      e->kernels[i].name);
			k = b;
		}
	}
	return 0;
}

static int read_kernels(struct ctx *c, const struct ynode *v, struct experiment *e)
{
	if (want_kind(c, v, YNODE_MAPPING, "kernels"))
		return -1;
	e->kernels = xcalloc(v->n ? v->n : 1, sizeof(*e->kernels));
	for (size_t i = 0; i < v->n; i++)
		if (read_kernel(c, &v->pairs[i], &e->kernels[e->n_kernels++]))
			return -1;
	return check_kernel_bases(c, e);
}

/* Every kernel: {build: NAME} names a kernel under kernels:. */
static int check_builds(struct ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_variants; i++) {
		const struct cfg_variant *var = &e->variants[i];
		if (var->build && !config_kernel(e, var->build))
			return err_at(c, var->build_line, var->build_col,
				      "build: no kernel named '%s' under kernels:%s", var->build,
				      e->n_kernels ? "" : " (the config has no kernels:)");
	}
	return 0;
}

/* monitors: true | false | {interval_ms: N, perf: false} (harness/monitor/monitor.h). */
static const char *const monitor_keys[] = {"interval_ms", "perf", NULL};

static int read_monitors(struct ctx *c, const struct ynode *v, struct cfg_monitors *mon)
{
	const struct ynode *x;
	long long n;

	mon->line = v->line;
	mon->col = v->col;
	mon->interval_ms = 1000;
	if (v->kind == YNODE_SCALAR) {
		if (strcmp(v->text, "true") && strcmp(v->text, "false"))
			return err_at(c, v->line, v->col,
				      "monitors must be true, false or {interval_ms: N, perf: false},"
				      " not '%s'", v->text);
		mon->enabled = !strcmp(v->text, "true");
		return 0;
	}
	if (want_kind(c, v, YNODE_MAPPING, "monitors") || check_keys(c, v, monitor_keys, "monitors"))
		return -1;
	mon->enabled = true;
	if ((x = ynode_get(v, "interval_ms"))) {
		if (get_int(c, x, "interval_ms", 10, 3600000, &n))
			return -1;
		mon->interval_ms = (int)n;
	}
	if ((x = ynode_get(v, "perf"))) {
		if (get_bool(c, x, "perf", &mon->perf))
			return -1;
		if (mon->perf)
			return err_at(c, x->line, x->col,
				      "monitors: perf: true is not supported by this schedrig yet"
				      " (context switches come from /proc/stat); use perf: false");
	}
	return 0;
}

/* iterations: N, or {min, max, ci_pct, max_time_s} (adaptive). */
static int read_iterations(struct ctx *c, const struct ynode *v, struct experiment *e)
{
	const struct ynode *k;
	long long n;

	if (v->kind != YNODE_MAPPING) {
		if (get_int(c, v, "iterations", 1, 10000, &n))
			return -1;
		e->iterations = (int)n;
		return 0;
	}
	if (check_keys(c, v, iteration_keys, "iterations"))
		return -1;
	e->min_iterations = 3;
	e->iterations = 30;
	if ((k = ynode_get(v, "min"))) {
		if (get_int(c, k, "iterations min", 2, 10000, &n))
			return -1;
		e->min_iterations = (int)n;
	}
	if ((k = ynode_get(v, "max"))) {
		if (get_int(c, k, "iterations max", 2, 10000, &n))
			return -1;
		e->iterations = (int)n;
	}
	if (e->iterations < e->min_iterations)
		return err_at(c, v->line, v->col, "iterations: max (%d) is below min (%d)",
			      e->iterations, e->min_iterations);
	if ((k = ynode_get(v, "ci_pct"))) {
		if (want_kind(c, k, YNODE_SCALAR, "ci_pct"))
			return -1;
		if (!parse_double(k->text, &e->ci_pct) || !(e->ci_pct > 0 && e->ci_pct <= 100))
			return err_at(c, k->line, k->col,
				      "ci_pct must be a percentage above 0 and at most 100, not '%s'",
				      k->text);
	}
	if ((k = ynode_get(v, "max_time_s")) &&
	    get_seconds(c, k, "max_time_s", 7 * 86400, &e->max_time_s))
		return -1;
	if (e->ci_pct <= 0 && e->max_time_s <= 0)
		return err_at(c, v->line, v->col,
			      "adaptive iterations need ci_pct or max_time_s (else write iterations: N)");
	return 0;
}

/* Setting k of load l: its params, then its sched entries. */
static const struct cfg_setting *setting_at(const struct cfg_load *l, size_t k)
{
	return k < l->n_params ? &l->params[k] : &l->sched[k - l->n_params];
}

/* Axis labels name one axis each: a label used twice would make two
 * columns read alike. */
static int check_labels(struct ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_loads; i++)
		for (size_t k = 0; k < e->loads[i].n_params + e->loads[i].n_sched; k++) {
			const struct cfg_setting *s = setting_at(&e->loads[i], k);
			for (size_t j = 0; s->label && j <= i; j++)
				for (size_t m = 0; m < (j < i ? e->loads[j].n_params + e->loads[j].n_sched : k); m++) {
					const struct cfg_setting *o = setting_at(&e->loads[j], m);
					if (o->label && !strcmp(o->label, s->label))
						return err_at(c, s->line, s->col,
							      "label '%s' is given to two axes (line %d too)",
							      s->label, o->line);
				}
		}
	return 0;
}

/* order: blocked|interleaved|random (default interleaved), seed: N with
 * random only. */
static int read_order(struct ctx *c, const struct ynode *root, struct experiment *e)
{
	const struct ynode *v = ynode_get(root, "order"), *s = ynode_get(root, "seed");
	long long n;
	e->order = ORDER_INTERLEAVED;
	e->order_given = v != NULL;
	if (v) {
		if (want_kind(c, v, YNODE_SCALAR, "order"))
			return -1;
		int o = run_order_parse(v->text);
		if (o < 0)
			return err_at(c, v->line, v->col,
				      "order must be blocked, interleaved or random, not '%s'", v->text);
		e->order = (enum run_order)o;
	}
	if (!s)
		return 0;
	if (e->order != ORDER_RANDOM)
		return err_at(c, s->line, s->col, "seed: only with order: random");
	if (get_int(c, s, "seed", 0, LLONG_MAX, &n))
		return -1;
	e->seed = (uint64_t)n;
	e->seed_given = true;
	return 0;
}

static int read_experiment(struct ctx *c, const struct ynode *root, struct experiment *e)
{
	const struct ynode *v;

	if (check_keys(c, root, top_keys, "the config"))
		return -1;
	if (!(v = ynode_get(root, "name")))
		return err_at(c, root->line, root->col, "the config needs 'name:'");
	if (get_name(c, v, "name", &e->name))
		return -1;
	if ((v = ynode_get(root, "description")) && get_string(c, v, "description", &e->description))
		return -1;
	e->iterations = 3;
	if ((v = ynode_get(root, "iterations")) && read_iterations(c, v, e))
		return -1;
	e->min_iterations = e->min_iterations ? e->min_iterations : e->iterations;
	if ((v = ynode_get(root, "warmup_s")) && get_seconds(c, v, "warmup_s", 3600, &e->warmup_s))
		return -1;
	if ((v = ynode_get(root, "monitors")) && read_monitors(c, v, &e->monitors))
		return -1;
	if (read_order(c, root, e))
		return -1;
	if ((v = ynode_get(root, "labs")) && read_labs(c, v, e))
		return -1;
	/* bisect: is schedrig bisect's (harness/bisect/bisect_list.h checks it). */
	if ((v = ynode_get(root, "bisect")) && want_kind(c, v, YNODE_MAPPING, "bisect"))
		return -1;
	if ((v = ynode_get(root, "kernels")) && read_kernels(c, v, e))
		return -1;

	if ((v = ynode_get(root, "variants"))) {
		if (want_kind(c, v, YNODE_SEQUENCE, "variants"))
			return -1;
		if (v->n == 0)
			return err_at(c, v->line, v->col, "variants: the list is empty");
		e->variants = xcalloc(v->n, sizeof(*e->variants));
		for (size_t i = 0; i < v->n; i++) {
			struct cfg_variant *var = &e->variants[e->n_variants++];
			if (read_variant(c, v->items[i], e, var))
				return -1;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(e->variants[j].name, var->name))
					return err_at(c, var->line, var->col,
						      "variant name '%s' is used twice", var->name);
		}
		if (check_builds(c, e))
			return -1;
	} else {
		e->variants = xcalloc(1, sizeof(*e->variants));
		e->variants[0] = (struct cfg_variant){.name = xstrdup("running"), .boot = BOOT_LOCAL,
						      .line = root->line, .col = root->col,
						      .autogroup = -1};
		e->n_variants = 1;
	}

	if (!(v = ynode_get(root, "loads")))
		return err_at(c, root->line, root->col, "the config needs 'loads:'");
	if (want_kind(c, v, YNODE_SEQUENCE, "loads"))
		return -1;
	if (v->n == 0)
		return err_at(c, v->line, v->col, "loads: the list is empty");
	e->loads = xcalloc(v->n, sizeof(*e->loads));
	bool measured = false;
	for (size_t i = 0; i < v->n; i++) {
		struct cfg_load *l = &e->loads[e->n_loads++];
		if (read_load(c, v->items[i], l))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->loads[j].name, l->name))
				return err_at(c, l->line, l->col,
					      "load name '%s' is used twice; give each load a name:",
					      l->name);
		measured |= l->role == ROLE_MEASURED;
	}
	if (!measured)
		return err_at(c, v->line, v->col,
			      "no load has role: measured, so nothing would end an iteration");
	if (check_labels(c, e))
		return -1;
	return check_all_cpus(c, e);
}

/* Messages quote values: keep them on one line ("\n", "\t", "\xNN"). */
static void escape_controls(char *err, size_t errsz)
{
	struct buf b = {0};
	for (const unsigned char *p = (const unsigned char *)err; *p; p++) {
		if (*p == '\n')
			buf_puts(&b, "\\n");
		else if (*p == '\t')
			buf_puts(&b, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(&b, "\\x%02x", *p);
		else
			buf_append(&b, p, 1);
	}
	snprintf(err, errsz, "%s", buf_str(&b));
	buf_free(&b);
}

struct experiment *config_parse(const char *name, const char *text, size_t len,
				char *err, size_t errsz)
{
	struct ctx c = {name, err, errsz};
	struct experiment *e;

	if (len > MAX_CONFIG_BYTES) {
		err_at(&c, 1, 1, "config is larger than 1 MiB (%zu bytes)", len);
		return NULL;
	}
	struct ydoc *d = ydoc_parse(name, text, len, err, errsz);
	if (!d) {
		escape_controls(err, errsz);
		return NULL;
	}
	e = xcalloc(1, sizeof(*e));
	e->path = xstrdup(name);
	e->text = xmalloc(len + 1);
	memcpy(e->text, text, len);
	e->text[len] = '\0';
	if (read_experiment(&c, ydoc_root(d), e)) {
		escape_controls(err, errsz);
		experiment_free(e);
		e = NULL;
	}
	ydoc_free(d);
	return e;
}

struct experiment *config_load(const char *path, char *err, size_t errsz)
{
	struct buf b = {0};
	char chunk[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf_append(&b, chunk, n);
		if (b.len > MAX_CONFIG_BYTES)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		fclose(f);
		buf_free(&b);
		return NULL;
	}
	/* Reading stopped past the limit: report the file's real size. */
	struct stat st;
	if (b.len > MAX_CONFIG_BYTES && !fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size > b.len)
		b.len = (size_t)st.st_size;
	fclose(f);
	struct experiment *e = config_parse(path, buf_str(&b), b.len, err, errsz);
	buf_free(&b);
	return e;
}

static void free_settings(struct cfg_setting *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < s[i].n; j++)
			free(s[i].values[j].text);
		free(s[i].values);
		free(s[i].key);
		free(s[i].label);
	}
	free(s);
}

static void free_knobs(struct cfg_knob *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].key);
		free(k[i].value);
	}
	free(k);
}

static void free_variant(struct cfg_variant *v)
{
	free(v->name);
	free_knobs(v->sysctl, v->n_sysctl);
	free_knobs(v->sched_features, v->n_sched_features);
	free_knobs(v->debugfs, v->n_debugfs);
	free(v->kernel);
	free(v->initrd);
	free(v->append);
	free(v->accel);
	free(v->host);
	free(v->user);
	free(v->identity);
	free(v->workdir);
	free(v->kexec_kernel);
	free(v->kexec_initrd);
	free(v->kexec_append);
	free(v->device_type);
	free(v->boot_method);
	for (size_t i = 0; i < v->n_tags; i++)
		free(v->tags[i]);
	free(v->tags);
	free(v->build);
}

static void free_values(struct cfg_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

static void free_kernel(struct cfg_kernel *k)
{
	free(k->name);
	free(k->source.text);
	free(k->base.text);
	free_values(k->config, k->n_config);
	free_values(k->patches, k->n_patches);
	free_values(k->make_args, k->n_make_args);
}

void experiment_free(struct experiment *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n_loads; i++) {
		free(e->loads[i].name);
		free_settings(e->loads[i].params, e->loads[i].n_params);
		free_settings(e->loads[i].sched, e->loads[i].n_sched);
	}
	free(e->loads);
	for (size_t i = 0; i < e->n_variants; i++)
		free_variant(&e->variants[i]);
	free(e->variants);
	for (size_t i = 0; i < e->n_labs; i++) {
		free(e->labs[i].name);
		free(e->labs[i].url);
		free(e->labs[i].token_env);
		free(e->labs[i].artifacts_dir);
		free(e->labs[i].artifacts_url);
	}
	free(e->labs);
	for (size_t i = 0; i < e->n_kernels; i++)
		free_kernel(&e->kernels[i]);
	free(e->kernels);
	free(e->name);
	free(e->description);
	free(e->path);
	free(e->text);
	free(e);
}
