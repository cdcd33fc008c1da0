/* What the files of harness/config/ that read a config share: the parse
 * context (the file's name for messages, the error buffer) and the readers
 * of YAML values with positions (config_read.c), the loads: (config_load.c),
 * variants: and labs: (config_variant.c) and kernels: (config_kernels.c)
 * readers config.c calls. Private to harness/config/config*.c. */
#ifndef SCHEDRIG_CONFIG_IMPL_H
#define SCHEDRIG_CONFIG_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "yamlnode.h"

struct cfg_ctx {
	const char *file;
	char *err;
	size_t errsz;
};

/* "FILE:LINE:COL: message" (printf) into c->err; returns -1. */
int cfg_err_at(struct cfg_ctx *c, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The known key (of the first n_known) nearest to key by Levenshtein
 * distance, when that is at most 2 (a likely typo); else NULL. */
const char *cfg_nearest(const char *key, const char *const *known, size_t n_known);

/* "unknown key K in WHERE" at p's position, with "did you mean" when a
 * known key is near (cfg_nearest); returns -1. */
int cfg_unknown_key(struct cfg_ctx *c, const struct ypair *p, const char *where,
		       const char *const *known, size_t n_known);

/* Every key of mapping m is one of known (NULL-terminated); else the
 * unknown-key error for the first that is not. 0 or -1. */
int cfg_check_keys(struct cfg_ctx *c, const struct ynode *m, const char *const *known,
		      const char *where);

/* n is of kind k; else "WHAT must be a mapping/list/scalar" at n. 0 or -1. */
int cfg_want_kind(struct cfg_ctx *c, const struct ynode *n, enum ynode_kind k, const char *what);

/* Scalar n as a malloc'd string into *out; else an error naming what. 0 or -1. */
int cfg_get_string(struct cfg_ctx *c, const struct ynode *n, const char *what, char **out);

/* Scalar n as a base-10 integer in min..max into *out; else an error
 * naming what and the range. 0 or -1. */
int cfg_get_int(struct cfg_ctx *c, const struct ynode *n, const char *what, long long min,
		   long long max, long long *out);

/* Scalar n as a finite number of seconds in 0..max into *out; else an
 * error naming what and the range. 0 or -1. */
int cfg_get_seconds(struct cfg_ctx *c, const struct ynode *n, const char *what, double max,
		       double *out);

/* Scalar n as true or false into *out; else an error naming what. 0 or -1. */
int cfg_get_bool(struct cfg_ctx *c, const struct ynode *n, const char *what, bool *out);

/* s is a name the rig accepts: 1 to 64 of [A-Za-z0-9._-]. */
bool cfg_valid_name(const char *s);

/* Two values of one matrix axis are the same cell: equal text, or equal
 * numbers however written (1, 01, 1.0). */
bool cfg_same_value(const char *a, const char *b);

/* name is a valid name (cfg_valid_name); else the error "WHAT 'NAME' must
 * be 1-64 characters of ..." at line:col. 0 or -1. */
int cfg_check_name(struct cfg_ctx *c, const char *name, int line, int col, const char *what);

/* Scalar n as a valid name (cfg_valid_name), malloc'd into *out; else an
 * error naming what. 0 or -1. */
int cfg_get_name(struct cfg_ctx *c, const struct ynode *n, const char *what, char **out);

/* check_cpus for every value of every load's sched: cpus:. */
int cfg_check_all_cpus(struct cfg_ctx *c, const struct experiment *e);

/* One item of loads: into l (tool, role, params, sched, timeout_s,
 * repeat, primary_metric), every error at its position. 0 or -1. */
int cfg_read_load(struct cfg_ctx *c, const struct ynode *m, struct cfg_load *l);

/* The string under key of mapping m into *out when present (NULL when
 * absent). 0 or -1. */
int cfg_opt_string(struct cfg_ctx *c, const struct ynode *m, const char *key, char **out);

/* A variant's cells: {AXIS: VALUE or [VALUES], ...} into var->cells (the
 * axes and values as written; plan_build checks them). 0 or -1. */
int cfg_read_cells(struct cfg_ctx *c, const struct ynode *m, struct cfg_variant *var);

/* The whole number under key of mapping m, min..max (cfg_get_int; errors
 * name what), into *out when present (unchanged when absent). 0 or -1. */
int cfg_opt_int(struct cfg_ctx *c, const struct ynode *m, const char *key, const char *what,
		long long min, long long max, int *out);

/* One item of variants: into var, checked against e's labs and kernels
 * and against the keys of its boot kind. 0 or -1. */
int cfg_read_variant(struct cfg_ctx *c, const struct ynode *m, const struct experiment *e,
			struct cfg_variant *var);

/* host: (the config's) or host_settings: (a variant's), named key in
 * messages: {governor, boost, smt, cpu_dma_latency_us, thp,
 * numa_balancing, irq_affinity, housekeeping_cpus} (struct cfg_host,
 * config_host.c) into *h, each value checked at its position. 0 or -1. */
int cfg_read_host(struct cfg_ctx *c, const struct ynode *m, const char *key, struct cfg_host *h);

/* Every setting unset (-1, NULL). */
void cfg_host_init(struct cfg_host *h);

/* The knob among k[0..n) that name of kind is another spelling of
 * (knob_canonical: "kernel/x" is "kernel.x"), or NULL. */
const struct cfg_knob *cfg_knob_twin(const char *kind, const struct cfg_knob *k, size_t n,
				     const char *name);

/* var->host completed with top's settings it leaves unset, then checked
 * against var (irq_affinity: housekeeping needs housekeeping_cpus; a
 * guest's housekeeping CPUs among its cpus:, leaving the loads some). 0
 * or -1. */
int cfg_merge_host(struct cfg_ctx *c, const struct cfg_host *top, struct cfg_variant *var);

/* Free what h owns and unset it. */
void cfg_free_host(struct cfg_host *h);

/* labs: {NAME: {url, token_env, artifacts, log_max_mb, stall_s, api_grace_s}}
 * (struct cfg_lab). */
int cfg_read_labs(struct cfg_ctx *c, const struct ynode *m, struct experiment *e);

/* A list of scalars (or one scalar) with positions, into *out. */
int cfg_read_values(struct cfg_ctx *c, const struct ynode *v, const char *what,
		       struct cfg_value **out, size_t *n);

/* One scalar with its position into *out; else an error naming what. 0 or -1. */
int cfg_read_value(struct cfg_ctx *c, const struct ynode *v, const char *what,
		      struct cfg_value *out);

/* kernels: {NAME: {source, commit, base, config, patches, make_args}} into e. 0 or -1. */
int cfg_read_kernels(struct cfg_ctx *c, const struct ynode *v, struct experiment *e);

/* Every kernel: {build: NAME} names a kernel under kernels:. */
int cfg_check_builds(struct cfg_ctx *c, const struct experiment *e);

/* Axis labels name one axis each: a label used twice would make two
 * columns read alike. */
int cfg_check_labels(struct cfg_ctx *c, const struct experiment *e);

/* trace: sched or {events, buffer_kb, iterations} into t (config.h
 * struct cfg_trace), every error at its position. 0 or -1. */
int cfg_read_trace(struct cfg_ctx *c, const struct ynode *v, struct cfg_trace *t);

/* Every trace: names iterations the run has; e->trace_all made from the
 * top trace: and every load's. 0 or -1. */
int cfg_check_traces(struct cfg_ctx *c, struct experiment *e);

/* Free what a cfg_trace owns; t is left empty. */
void cfg_free_trace(struct cfg_trace *t);

/* Free n settings (cfg_setting) and the array. */
void cfg_free_settings(struct cfg_setting *s, size_t n);

/* Free what a variant owns (not the struct itself). */
void cfg_free_variant(struct cfg_variant *v);

/* Free n values (cfg_value) and the array. */
void cfg_free_values(struct cfg_value *v, size_t n);

/* Free what a kernels: entry owns (not the struct itself). */
void cfg_free_kernel(struct cfg_kernel *k);

#endif
