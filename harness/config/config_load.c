/* loads: of a config: each load's tool, role, params (matrix axes checked
 * against its driver), sched: attributes and cgroup settings, cpus. */
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

static const char *const load_keys[] = {"name", "tool", "role", "params", "sched",
					"timeout_s", "repeat", "primary_metric", "trace", NULL};

const char *load_role_name(enum load_role r)
{
	return r == ROLE_BACKGROUND ? "background" : "measured";
}

/* A params value for a driver parameter: type and range per param_def. */
static int check_param_value(struct cfg_ctx *c, const struct param_def *d, const struct cfg_value *v)
{
	long long n;
	switch (d->type) {
	case PARAM_INT:
	case PARAM_UINT:
		if (!parse_ll(v->text, &n))
			return cfg_err_at(c, v->line, v->col, "%s must be a whole number, not '%s'", d->name,
				      v->text);
		if (d->type == PARAM_UINT && n < 0)
			return cfg_err_at(c, v->line, v->col, "%s must not be negative", d->name);
		if (d->min <= d->max && (n < d->min || n > d->max))
			return cfg_err_at(c, v->line, v->col, "%s must be between %lld and %lld, not %lld",
				      d->name, d->min, d->max, n);
		return 0;
	case PARAM_BOOL:
		if (strcmp(v->text, "true") && strcmp(v->text, "false"))
			return cfg_err_at(c, v->line, v->col, "%s must be true or false, not '%s'", d->name,
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
		return cfg_err_at(c, v->line, v->col, "%s must be one of %s, not '%s'", d->name,
			      d->choices, v->text);
	}
	case PARAM_STRING:
		return 0;
	}
	return 0;
}

/* Read one params:/sched: mapping entry: a scalar, a list (an axis), or an
 * axis with a label: {values: [...], label: LN}. */
static int read_setting(struct cfg_ctx *c, const struct ypair *p, struct cfg_setting *s)
{
	const struct ynode *v = p->value;
	s->key = xstrdup(p->key);
	s->line = p->key_line;
	s->col = p->key_col;
	if (v->kind == YNODE_MAPPING) {
		const struct ynode *label = ynode_get(v, "label");
		for (size_t i = 0; i < v->n; i++)
			if (strcmp(v->pairs[i].key, "values") && strcmp(v->pairs[i].key, "label"))
				return cfg_err_at(c, v->line, v->col, "%s must be a value, a list of values or"
					      " {values: [...], label: NAME}, not a mapping with '%s'",
					      p->key, v->pairs[i].key);
		if (label && cfg_get_name(c, label, "label", &s->label))
			return -1;
		if (!(v = ynode_get(v, "values")))
			return cfg_err_at(c, p->value->line, p->value->col,
				      "%s: an axis written as a mapping needs values: [...]", p->key);
		if (cfg_want_kind(c, v, YNODE_SEQUENCE, "values"))
			return -1;
	}
	if (v->kind == YNODE_SCALAR) {
		s->values = xcalloc(1, sizeof(*s->values));
		s->values[0] = (struct cfg_value){xstrdup(v->text), v->line, v->col};
		s->n = 1;
		return 0;
	}
	if (v->n == 0)
		return cfg_err_at(c, v->line, v->col, "%s: an empty list gives no matrix values", p->key);
	s->is_axis = true;
	s->values = xcalloc(v->n, sizeof(*s->values));
	for (size_t i = 0; i < v->n; i++) {
		const struct ynode *it = v->items[i];
		if (it->kind != YNODE_SCALAR)
			return cfg_err_at(c, it->line, it->col, "%s: list items must be plain values",
				      p->key);
		for (size_t j = 0; j < s->n; j++) {
			const char *before = s->values[j].text;
			if (!strcmp(before, it->text))
				return cfg_err_at(c, it->line, it->col, "%s: value '%s' is listed twice",
					      p->key, it->text);
			if (cfg_same_value(before, it->text))
				return cfg_err_at(c, it->line, it->col, "%s: value '%s' is '%s' again",
					      p->key, it->text, before);
		}
		s->values[s->n++] = (struct cfg_value){xstrdup(it->text), it->line, it->col};
	}
	return 0;
}

static int read_params(struct cfg_ctx *c, const struct ynode *m, struct cfg_load *l)
{
	if (cfg_want_kind(c, m, YNODE_MAPPING, "params"))
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
			int rc = cfg_unknown_key(c, p, where, names, l->ops->n_params);
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
static int read_sched_setting(struct cfg_ctx *c, const struct ypair *p, const char *key,
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
			return cfg_err_at(c, s->values[k].line, s->values[k].col, "%s", msg);
	}
	return 0;
}

/* sched: {cgroup: {weight: W, idle: 0|1, max: "QUOTA PERIOD"}}: settings
 * cgroup.weight, cgroup.idle, cgroup.max (each a value or an axis). */
static int read_sched_cgroup(struct cfg_ctx *c, const struct ynode *m, struct cfg_load *l,
			     size_t *cap)
{
	static const char *const keys[] = {"weight", "idle", "max"};
	if (cfg_want_kind(c, m, YNODE_MAPPING, "sched: cgroup"))
		return -1;
	*cap += m->n;
	l->sched = xrealloc(l->sched, *cap * sizeof(*l->sched));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		size_t k = 0;
		while (k < 3 && strcmp(p->key, keys[k]))
			k++;
		if (k == 3)
			return cfg_unknown_key(c, p, "sched: cgroup", keys, 3);
		char key[32];
		snprintf(key, sizeof(key), "cgroup.%s", keys[k]);
		if (read_sched_setting(c, p, key, l))
			return -1;
	}
	return 0;
}

static int read_sched(struct cfg_ctx *c, const struct ynode *m, struct cfg_load *l)
{
	size_t n_keys = 0, cap;
	while (sched_keys[n_keys])
		n_keys++;
	if (cfg_want_kind(c, m, YNODE_MAPPING, "sched"))
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
			return cfg_unknown_key(c, p, "sched", sched_keys, n_keys);
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
static int check_cpus(struct cfg_ctx *c, const struct experiment *e, const struct cfg_value *val)
{
	long host_cpus = sysconf(_SC_NPROCESSORS_CONF);
	long long hi = cpus_highest(val->text);

	for (size_t v = 0; v < e->n_variants; v++) {
		const struct cfg_variant *var = &e->variants[v];
		if (var->boot == BOOT_LOCAL && hi >= host_cpus)
			return cfg_err_at(c, val->line, val->col,
				      "cpus '%s' names CPU %lld, but this machine has CPUs 0-%ld",
				      val->text, hi, host_cpus - 1);
		if (var->boot == BOOT_QEMU && hi >= var->cpus)
			return cfg_err_at(c, val->line, val->col,
				      "cpus '%s' names CPU %lld, but variant %s (boot: qemu) has"
				      " cpus: %d, CPUs 0-%d", val->text, hi, var->name, var->cpus,
				      var->cpus - 1);
	}
	return 0;
}

int cfg_check_all_cpus(struct cfg_ctx *c, const struct experiment *e)
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

int cfg_read_load(struct cfg_ctx *c, const struct ynode *m, struct cfg_load *l)
{
	const struct ynode *v;
	l->line = m->line;
	l->col = m->col;
	l->timeout_s = 600;
	if (cfg_want_kind(c, m, YNODE_MAPPING, "a load") || cfg_check_keys(c, m, load_keys, "a load"))
		return -1;
	v = ynode_get(m, "tool");
	if (!v)
		return cfg_err_at(c, m->line, m->col, "a load needs 'tool:' (see schedrig loads)");
	if (cfg_want_kind(c, v, YNODE_SCALAR, "tool"))
		return -1;
	l->ops = load_find(v->text);
	if (!l->ops) {
		size_t n;
		const struct load_ops *const *all = load_all(&n);
		const char **names = xcalloc(n + 1, sizeof(*names));
		for (size_t i = 0; i < n; i++)
			names[i] = all[i]->name;
		const char *near = cfg_nearest(v->text, names, n);
		free(names);
		if (near)
			return cfg_err_at(c, v->line, v->col, "unknown tool '%s' (did you mean '%s'?)",
				      v->text, near);
		return cfg_err_at(c, v->line, v->col, "unknown tool '%s' (see schedrig loads)", v->text);
	}
	if ((v = ynode_get(m, "name"))) {
		if (cfg_get_name(c, v, "load name", &l->name))
			return -1;
	} else {
		l->name = xstrdup(l->ops->name);
	}
	if ((v = ynode_get(m, "role"))) {
		if (cfg_want_kind(c, v, YNODE_SCALAR, "role"))
			return -1;
		if (!strcmp(v->text, "measured"))
			l->role = ROLE_MEASURED;
		else if (!strcmp(v->text, "background"))
			l->role = ROLE_BACKGROUND;
		else
			return cfg_err_at(c, v->line, v->col, "role must be measured or background, not '%s'",
				      v->text);
	}
	if ((v = ynode_get(m, "timeout_s")) && cfg_get_seconds(c, v, "timeout_s", 86400, &l->timeout_s))
		return -1;
	if (l->timeout_s <= 0 && v)
		return cfg_err_at(c, v->line, v->col, "timeout_s must be more than 0");
	if ((v = ynode_get(m, "repeat"))) {
		if (cfg_get_bool(c, v, "repeat", &l->repeat))
			return -1;
		if (l->repeat && l->role != ROLE_BACKGROUND)
			return cfg_err_at(c, v->line, v->col, "repeat: true is for background loads only");
	}
	if ((v = ynode_get(m, "params")) && read_params(c, v, l))
		return -1;
	if ((v = ynode_get(m, "primary_metric"))) {
		if (cfg_want_kind(c, v, YNODE_SCALAR, "primary_metric"))
			return -1;
		for (size_t i = 0; i < l->ops->n_metrics && !l->primary_metric; i++)
			if (!strcmp(l->ops->metrics[i].name, v->text))
				l->primary_metric = l->ops->metrics[i].name;
		if (!l->primary_metric)
			return cfg_err_at(c, v->line, v->col, "%s has no metric '%s' (see schedrig loads %s)",
				      l->ops->name, v->text, l->ops->name);
	}
	if ((v = ynode_get(m, "trace")) && cfg_read_trace(c, v, &l->trace))
		return -1;
	if ((v = ynode_get(m, "sched")) && read_sched(c, v, l))
		return -1;
	return 0;
}

/* Setting k of load l: its params, then its sched entries. */
static const struct cfg_setting *setting_at(const struct cfg_load *l, size_t k)
{
	return k < l->n_params ? &l->params[k] : &l->sched[k - l->n_params];
}

int cfg_check_labels(struct cfg_ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_loads; i++)
		for (size_t k = 0; k < e->loads[i].n_params + e->loads[i].n_sched; k++) {
			const struct cfg_setting *s = setting_at(&e->loads[i], k);
			for (size_t j = 0; s->label && j <= i; j++)
				for (size_t m = 0; m < (j < i ? e->loads[j].n_params + e->loads[j].n_sched : k); m++) {
					const struct cfg_setting *o = setting_at(&e->loads[j], m);
					if (o->label && !strcmp(o->label, s->label))
						return cfg_err_at(c, s->line, s->col,
							      "label '%s' is given to two axes (line %d too)",
							      s->label, o->line);
				}
		}
	return 0;
}

void cfg_free_settings(struct cfg_setting *s, size_t n)
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
