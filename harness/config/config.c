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

#include "config_impl.h"
#include "schedattr.h"
#include "yamlnode.h"

#define MAX_CONFIG_BYTES (1024 * 1024)

static const char *const top_keys[] = {"name", "description", "iterations", "warmup_s",
				       "variants", "loads", "monitors", "order", "seed", "labs",
				       "bisect", "kernels", "trace", "host", NULL};

static const char *const iteration_keys[] = {"min", "max", "ci_pct", "max_time_s", NULL};

/* monitors: true | false | {interval_ms: N, perf: false} (harness/monitor/monitor.h). */
static const char *const monitor_keys[] = {"interval_ms", "perf", NULL};

static int read_monitors(struct cfg_ctx *c, const struct ynode *v, struct cfg_monitors *mon)
{
	const struct ynode *x;

	mon->line = v->line;
	mon->col = v->col;
	mon->interval_ms = 1000;
	if (v->kind == YNODE_SCALAR) {
		if (strcmp(v->text, "true") && strcmp(v->text, "false"))
			return cfg_err_at(c, v->line, v->col,
				      "monitors must be true, false or {interval_ms: N, perf: false},"
				      " not '%s'", v->text);
		mon->enabled = !strcmp(v->text, "true");
		return 0;
	}
	if (cfg_want_kind(c, v, YNODE_MAPPING, "monitors") || cfg_check_keys(c, v, monitor_keys, "monitors"))
		return -1;
	mon->enabled = true;
	if (cfg_opt_int(c, v, "interval_ms", "interval_ms", 10, 3600000, &mon->interval_ms))
		return -1;
	if ((x = ynode_get(v, "perf"))) {
		if (cfg_get_bool(c, x, "perf", &mon->perf))
			return -1;
		if (mon->perf)
			return cfg_err_at(c, x->line, x->col,
				      "monitors: perf: true is not supported by this schedrig yet"
				      " (context switches come from /proc/stat); use perf: false");
	}
	return 0;
}

/* iterations: N, or {min, max, ci_pct, max_time_s} (adaptive). */
static int read_iterations(struct cfg_ctx *c, const struct ynode *v, struct experiment *e)
{
	const struct ynode *k;
	long long n;

	if (v->kind != YNODE_MAPPING) {
		if (cfg_get_int(c, v, "iterations", 1, 10000, &n))
			return -1;
		e->iterations = (int)n;
		return 0;
	}
	if (cfg_check_keys(c, v, iteration_keys, "iterations"))
		return -1;
	e->min_iterations = 3;
	e->iterations = 30;
	if (cfg_opt_int(c, v, "min", "iterations min", 2, 10000, &e->min_iterations) ||
	    cfg_opt_int(c, v, "max", "iterations max", 2, 10000, &e->iterations))
		return -1;
	if (e->iterations < e->min_iterations)
		return cfg_err_at(c, v->line, v->col, "iterations: max (%d) is below min (%d)",
			      e->iterations, e->min_iterations);
	if ((k = ynode_get(v, "ci_pct"))) {
		if (cfg_want_kind(c, k, YNODE_SCALAR, "ci_pct"))
			return -1;
		if (!parse_double(k->text, &e->ci_pct) || !(e->ci_pct > 0 && e->ci_pct <= 100))
			return cfg_err_at(c, k->line, k->col,
				      "ci_pct must be a percentage above 0 and at most 100, not '%s'",
				      k->text);
	}
	if ((k = ynode_get(v, "max_time_s")) &&
	    cfg_get_seconds(c, k, "max_time_s", 7 * 86400, &e->max_time_s))
		return -1;
	if (e->ci_pct <= 0 && e->max_time_s <= 0)
		return cfg_err_at(c, v->line, v->col,
			      "adaptive iterations need ci_pct or max_time_s (else write iterations: N)");
	return 0;
}

/* order: blocked|interleaved|random (default interleaved), seed: N with
 * random only. */
static int read_order(struct cfg_ctx *c, const struct ynode *root, struct experiment *e)
{
	const struct ynode *v = ynode_get(root, "order"), *s = ynode_get(root, "seed");
	long long n;
	e->order = ORDER_INTERLEAVED;
	e->order_given = v != NULL;
	if (v) {
		if (cfg_want_kind(c, v, YNODE_SCALAR, "order"))
			return -1;
		int o = run_order_parse(v->text);
		if (o < 0)
			return cfg_err_at(c, v->line, v->col,
				      "order must be blocked, interleaved or random, not '%s'", v->text);
		e->order = (enum run_order)o;
	}
	if (!s)
		return 0;
	if (e->order != ORDER_RANDOM)
		return cfg_err_at(c, s->line, s->col, "seed: only with order: random");
	if (cfg_get_int(c, s, "seed", 0, LLONG_MAX, &n))
		return -1;
	e->seed = (uint64_t)n;
	e->seed_given = true;
	return 0;
}

/* host: numa_balancing (the config's or var's) is the knob sysctl
 * kernel.numa_balancing: var may not set both (one knob, one value). */
static int numa_once(struct cfg_ctx *c, const struct cfg_variant *var)
{
	const struct cfg_knob *twin = cfg_knob_twin("sysctl", var->sysctl, var->n_sysctl,
						    "kernel.numa_balancing");
	int line, col;
	if (!twin || !cfg_host_key_at(&var->host_set, "numa_balancing", &line, &col))
		return 0;
	return cfg_err_at(c, twin->line, twin->col, "variant %s: sysctl %s is the knob host:"
			  " numa_balancing (line %d) sets already: one knob, one value", var->name,
			  twin->key, line);
}

/* variants: (default: one boot: local variant "running"), each with the
 * config's host: settings under its own (cfg_merge_host). */
static int read_variants(struct cfg_ctx *c, const struct ynode *root, struct experiment *e,
			 const struct cfg_host *top)
{
	const struct ynode *v;
	if ((v = ynode_get(root, "variants"))) {
		if (cfg_want_kind(c, v, YNODE_SEQUENCE, "variants"))
			return -1;
		if (v->n == 0)
			return cfg_err_at(c, v->line, v->col, "variants: the list is empty");
		e->variants = xcalloc(v->n, sizeof(*e->variants));
		for (size_t i = 0; i < v->n; i++) {
			struct cfg_variant *var = &e->variants[e->n_variants++];
			if (cfg_read_variant(c, v->items[i], e, var))
				return -1;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(e->variants[j].name, var->name))
					return cfg_err_at(c, var->line, var->col,
						      "variant name '%s' is used twice", var->name);
		}
		if (cfg_check_builds(c, e))
			return -1;
	} else {
		e->variants = xcalloc(1, sizeof(*e->variants));
		e->variants[0] = (struct cfg_variant){.name = xstrdup("running"), .boot = BOOT_LOCAL,
						      .line = root->line, .col = root->col,
						      .autogroup = -1, .threads = 1};
		cfg_host_init(&e->variants[0].host_set);
		e->n_variants = 1;
	}

	for (size_t i = 0; i < e->n_variants; i++)
		if (cfg_merge_host(c, top, &e->variants[i]) || numa_once(c, &e->variants[i]))
			return -1;
	return 0;
}

static int read_experiment(struct cfg_ctx *c, const struct ynode *root, struct experiment *e)
{
	const struct ynode *v;

	if (cfg_check_keys(c, root, top_keys, "the config"))
		return -1;
	if (!(v = ynode_get(root, "name")))
		return cfg_err_at(c, root->line, root->col, "the config needs 'name:'");
	if (cfg_get_name(c, v, "name", &e->name))
		return -1;
	if ((v = ynode_get(root, "description")) && cfg_get_string(c, v, "description", &e->description))
		return -1;
	e->iterations = 3;
	if ((v = ynode_get(root, "iterations")) && read_iterations(c, v, e))
		return -1;
	e->min_iterations = e->min_iterations ? e->min_iterations : e->iterations;
	if ((v = ynode_get(root, "warmup_s")) && cfg_get_seconds(c, v, "warmup_s", 3600, &e->warmup_s))
		return -1;
	if ((v = ynode_get(root, "monitors")) && read_monitors(c, v, &e->monitors))
		return -1;
	if ((v = ynode_get(root, "trace")) && cfg_read_trace(c, v, &e->trace))
		return -1;
	if (read_order(c, root, e))
		return -1;
	if ((v = ynode_get(root, "labs")) && cfg_read_labs(c, v, e))
		return -1;
	/* bisect: is schedrig bisect's (harness/bisect/bisect_list.h checks it). */
	if ((v = ynode_get(root, "bisect")) && cfg_want_kind(c, v, YNODE_MAPPING, "bisect"))
		return -1;
	if ((v = ynode_get(root, "kernels")) && cfg_read_kernels(c, v, e))
		return -1;
	struct cfg_host top;
	cfg_host_init(&top);
	if ((v = ynode_get(root, "host")) && cfg_read_host(c, v, "host", &top)) {
		cfg_free_host(&top);
		return -1;
	}
	int rc = read_variants(c, root, e, &top);
	cfg_free_host(&top);
	if (rc)
		return -1;

	if (!(v = ynode_get(root, "loads")))
		return cfg_err_at(c, root->line, root->col, "the config needs 'loads:'");
	if (cfg_want_kind(c, v, YNODE_SEQUENCE, "loads"))
		return -1;
	if (v->n == 0)
		return cfg_err_at(c, v->line, v->col, "loads: the list is empty");
	e->loads = xcalloc(v->n, sizeof(*e->loads));
	bool measured = false;
	for (size_t i = 0; i < v->n; i++) {
		struct cfg_load *l = &e->loads[e->n_loads++];
		if (cfg_read_load(c, v->items[i], l))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->loads[j].name, l->name))
				return cfg_err_at(c, l->line, l->col,
					      "load name '%s' is used twice; give each load a name:",
					      l->name);
		measured |= l->role == ROLE_MEASURED;
	}
	if (!measured)
		return cfg_err_at(c, v->line, v->col,
			      "no load has role: measured, so nothing would end an iteration");
	if (cfg_check_labels(c, e) || cfg_check_traces(c, e))
		return -1;
	return cfg_check_all_cpus(c, e);
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
	struct cfg_ctx c = {name, err, errsz};
	struct experiment *e;

	if (len > MAX_CONFIG_BYTES) {
		cfg_err_at(&c, 1, 1, "config is larger than 1 MiB (%zu bytes)", len);
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

void experiment_free(struct experiment *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n_loads; i++) {
		free(e->loads[i].name);
		cfg_free_settings(e->loads[i].params, e->loads[i].n_params);
		cfg_free_settings(e->loads[i].sched, e->loads[i].n_sched);
		cfg_free_trace(&e->loads[i].trace);
	}
	cfg_free_trace(&e->trace);
	cfg_free_trace(&e->trace_all);
	free(e->loads);
	for (size_t i = 0; i < e->n_variants; i++)
		cfg_free_variant(&e->variants[i]);
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
		cfg_free_kernel(&e->kernels[i]);
	free(e->kernels);
	free(e->name);
	free(e->description);
	free(e->path);
	free(e->text);
	free(e);
}
