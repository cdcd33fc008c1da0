/* The agent protocol (agent_proto.h): JSON via jansson, base64 for raw bytes. */
#include "agent_proto.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"

/* A JSON string for text that should be UTF-8 (kernel cmdline, reasons):
 * bytes jansson refuses become '?'. */
static json_t *jstr(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	char *copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80 || (unsigned char)*p < 0x20)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_string("");
}

static void emit(struct buf *out, json_t *o)
{
	char *text = json_dumps(o, JSON_COMPACT);
	buf_puts(out, text);
	buf_puts(out, "\n");
	free(text);
	json_decref(o);
}

char *agent_plan_encode(const struct agent_plan *plan)
{
	json_t *o = json_object(), *cells = json_array(), *mods = json_array(),
	       *run = json_array();

	json_object_set_new(o, "schedrig_agent", json_integer(AGENT_PROTO_VERSION));
	json_object_set_new(o, "config_name", jstr(plan->config_name));
	json_object_set_new(o, "config", jstr(plan->config));
	json_object_set_new(o, "variant", jstr(plan->variant));
	json_object_set_new(o, "iterations", json_integer(plan->iterations));
	for (size_t i = 0; i < plan->n_cells; i++)
		json_array_append_new(cells, jstr(plan->cells[i]));
	for (size_t i = 0; i < plan->n_modules; i++)
		json_array_append_new(mods, jstr(plan->modules[i]));
	for (size_t i = 0; i < plan->n_run; i++)
		json_array_append_new(run, json_pack("[II]", (json_int_t)plan->run[i].cell,
						     (json_int_t)plan->run[i].iteration));
	json_object_set_new(o, "cells", cells);
	json_object_set_new(o, "modules", mods);
	json_object_set_new(o, "run", run);
	json_object_set_new(o, "run_id", json_integer(plan->run_id));
	char *text = json_dumps(o, JSON_INDENT(1));
	json_decref(o);
	char *copy = xstrdup(text);
	free(text);
	return copy;
}

static int str_array(json_t *a, const char *key, char ***out, size_t *n, char *err,
		     size_t errsz)
{
	if (!json_is_array(a)) {
		snprintf(err, errsz, "plan file: '%s' must be a list", key);
		return -1;
	}
	*n = json_array_size(a);
	*out = xcalloc(*n ? *n : 1, sizeof(**out));
	for (size_t i = 0; i < *n; i++) {
		json_t *s = json_array_get(a, i);
		if (!json_is_string(s)) {
			snprintf(err, errsz, "plan file: '%s' item %zu must be a string", key, i);
			return -1;
		}
		(*out)[i] = xstrdup(json_string_value(s));
	}
	return 0;
}

int agent_plan_decode(const char *text, size_t len, struct agent_plan *plan, char *err,
		      size_t errsz)
{
	json_error_t je;
	json_t *o = json_loadb(text, len, 0, &je);
	json_int_t proto = 0, iterations = 0;
	const char *cname = NULL, *config = NULL, *variant = NULL;
	json_t *cells = NULL, *mods = NULL, *run = NULL;
	int rc = -1;

	memset(plan, 0, sizeof(*plan));
	if (!o) {
		snprintf(err, errsz, "plan file: line %d: %s", je.line, je.text);
		return -1;
	}
	if (json_unpack_ex(o, &je, 0, "{s:I}", "schedrig_agent", &proto)) {
		snprintf(err, errsz, "plan file: not a schedrig agent plan (%s)", je.text);
		goto out;
	}
	if (proto != AGENT_PROTO_VERSION) {
		snprintf(err, errsz, "plan file: protocol version %lld, this agent speaks %d",
			 (long long)proto, AGENT_PROTO_VERSION);
		goto out;
	}
	if (json_unpack_ex(o, &je, 0, "{s:s,s:s,s:s,s:I,s:o,s:o,s:o}", "config_name", &cname,
			   "config", &config, "variant", &variant, "iterations", &iterations,
			   "cells", &cells, "modules", &mods, "run", &run)) {
		snprintf(err, errsz, "plan file: %s", je.text);
		goto out;
	}
	plan->proto = (int)proto;
	plan->config_name = xstrdup(cname);
	plan->config = xstrdup(config);
	plan->variant = xstrdup(variant);
	plan->iterations = (int)iterations;
	if (str_array(cells, "cells", &plan->cells, &plan->n_cells, err, errsz) ||
	    str_array(mods, "modules", &plan->modules, &plan->n_modules, err, errsz))
		goto out;
	if (!json_is_array(run)) {
		snprintf(err, errsz, "plan file: 'run' must be a list");
		goto out;
	}
	plan->n_run = json_array_size(run);
	plan->run = xcalloc(plan->n_run ? plan->n_run : 1, sizeof(*plan->run));
	for (size_t i = 0; i < plan->n_run; i++) {
		json_int_t c, it;
		if (json_unpack(json_array_get(run, i), "[II]", &c, &it) || c < 0 || it < 1 ||
		    it > iterations) {
			snprintf(err, errsz, "plan file: 'run' item %zu must be [cell, iteration]", i);
			goto out;
		}
		plan->run[i] = (struct agent_step){(size_t)c, (int)it};
	}
	json_t *rid = json_object_get(o, "run_id");
	if (rid && (!json_is_integer(rid) || json_integer_value(rid) < 0)) {
		snprintf(err, errsz, "plan file: 'run_id' must be a whole number >= 0");
		goto out;
	}
	plan->run_id = rid ? (long long)json_integer_value(rid) : 0;
	rc = 0;
out:
	json_decref(o);
	if (rc)
		agent_plan_free(plan);
	return rc;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void agent_plan_free(struct agent_plan *plan)
{
	free(plan->config_name);
	free(plan->config);
	free(plan->variant);
	free_strv(plan->cells, plan->n_cells);
	free_strv(plan->modules, plan->n_modules);
	free(plan->run);
	memset(plan, 0, sizeof(*plan));
}

/* Each (key, string) pair of kv into o, in order (a NULL string: JSON null). */
static void set_strings(json_t *o, const char *const kv[][2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, kv[i][0], jstr(kv[i][1]));
}

void agent_encode_hello(struct buf *out, const char *release, const char *cmdline, int autogroup)
{
	const char *const kv[][2] = {{"type", "hello"}, {"release", release}, {"cmdline", cmdline}};
	json_t *o = json_object();
	set_strings(o, kv, 1);
	json_object_set_new(o, "proto", json_integer(AGENT_PROTO_VERSION));
	set_strings(o, kv + 1, 2);
	json_object_set_new(o, "autogroup", json_integer(autogroup));
	emit(out, o);
}

void agent_encode_knob(struct buf *out, const char *event, int seq, const char *kind,
		       const char *name, const char *path, const char *old_value,
		       const char *requested, const char *applied)
{
	const char *const kv[][2] = {
		{"type", "knob"},
		{"event", event},
		{"kind", kind},
		{"name", name},
		{"path", path},
		{"old", old_value ? old_value : ""},
		{"requested", requested ? requested : ""},
		{"applied", applied},
	};
	json_t *o = json_object();
	set_strings(o, kv, 2);
	json_object_set_new(o, "seq", json_integer(seq));
	set_strings(o, kv + 2, sizeof(kv) / sizeof(kv[0]) - 2);
	emit(out, o);
}

static json_t *b64(const struct buf *b)
{
	struct buf e = {0};
	base64_encode(&e, b->data, b->len);
	json_t *j = json_string(buf_str(&e));
	buf_free(&e);
	return j;
}

static json_int_t tv_us(const struct timeval *tv)
{
	return (json_int_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

void agent_encode_inst(struct buf *out, size_t cell, int iteration, size_t load,
		       const struct inst_result *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("inst"));
	json_object_set_new(o, "cell", json_integer((json_int_t)cell));
	json_object_set_new(o, "iteration", json_integer(iteration));
	json_object_set_new(o, "load", json_integer((json_int_t)load));
	json_object_set_new(o, "repetition", json_integer(r->repetition));
	json_object_set_new(o, "pid", json_integer(r->pid));
	json_object_set_new(o, "applied", jstr(r->applied));
	json_object_set_new(o, "state", json_string(inst_state_name(r->state)));
	json_object_set_new(o, "reason", jstr(r->reason));
	json_object_set_new(o, "exited", json_boolean(r->exited));
	json_object_set_new(o, "exit_code", json_integer(r->exit_code));
	json_object_set_new(o, "term_signal", json_integer(r->term_signal));
	json_object_set_new(o, "start_ns", json_integer(r->start_ns));
	json_object_set_new(o, "end_ns", json_integer(r->end_ns));
	json_object_set_new(o, "user_us", json_integer(tv_us(&r->ru.ru_utime)));
	json_object_set_new(o, "system_us", json_integer(tv_us(&r->ru.ru_stime)));
	json_object_set_new(o, "stdout", b64(&r->out));
	json_object_set_new(o, "stderr", b64(&r->err));
	if (r->window.valid || r->window_progress >= 0) {
		const struct schedwin_totals *w = &r->window;
		json_object_set_new(o, "window", json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			"run_ns", (json_int_t)w->v[SCHEDWIN_RUN_NS],
			"wait_ns", (json_int_t)w->v[SCHEDWIN_WAIT_NS],
			"timeslices", (json_int_t)w->v[SCHEDWIN_TIMESLICES],
			"voluntary", (json_int_t)w->v[SCHEDWIN_VOL_SWITCHES],
			"involuntary", (json_int_t)w->v[SCHEDWIN_INVOL_SWITCHES],
			"migrations", (json_int_t)w->v[SCHEDWIN_MIGRATIONS],
			"tasks", (json_int_t)w->tasks, "ns", (json_int_t)w->ns,
			"cgroup_cpu_us", (json_int_t)w->cgroup_cpu_us,
			"progress", (json_int_t)r->window_progress));
	}
	emit(out, o);
}

int agent_encode_trace(struct buf *out, size_t cell, int iteration, const struct trace_result *t,
		       void (*flush)(void *ctx, struct buf *out), void *ctx, char *err,
		       size_t errsz)
{
	FILE *f = fopen(t->path, "rb");
	if (!f)
		return err_printf(err, errsz, "%s: %s", t->path, strerror(errno));
	char *chunk = xmalloc(AGENT_TRACE_CHUNK);
	size_t n;
	uint64_t sent = 0;
	while ((n = fread(chunk, 1, AGENT_TRACE_CHUNK, f)) > 0) {
		struct buf raw = {.data = chunk, .len = n};
		json_t *o = json_object();
		json_object_set_new(o, "type", json_string("trace"));
		json_object_set_new(o, "cell", json_integer((json_int_t)cell));
		json_object_set_new(o, "iteration", json_integer(iteration));
		json_object_set_new(o, "data", b64(&raw));
		emit(out, o);
		flush(ctx, out);
		sent += n;
	}
	bool bad = ferror(f);
	fclose(f);
	free(chunk);
	if (bad)
		return err_printf(err, errsz, "%s: read failed", t->path);
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("trace_end"));
	json_object_set_new(o, "cell", json_integer((json_int_t)cell));
	json_object_set_new(o, "iteration", json_integer(iteration));
	json_object_set_new(o, "bytes", json_integer((json_int_t)sent));
	json_object_set_new(o, "lines", json_integer((json_int_t)t->lines));
	json_object_set_new(o, "lost", json_integer((json_int_t)t->lost));
	json_object_set_new(o, "window_start_ns", json_integer(t->window_start_ns));
	json_object_set_new(o, "window_end_ns", json_integer(t->window_end_ns));
	json_object_set_new(o, "warning", jstr(t->warning));
	emit(out, o);
	flush(ctx, out);
	return 0;
}

void agent_encode_iteration(struct buf *out, size_t cell, int iteration,
			    const struct iteration_result *res)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("iteration"));
	json_object_set_new(o, "cell", json_integer((json_int_t)cell));
	json_object_set_new(o, "iteration", json_integer(iteration));
	json_object_set_new(o, "n", json_integer((json_int_t)res->n));
	json_object_set_new(o, "interrupted", json_boolean(res->interrupted));
	json_object_set_new(o, "started_at", jstr(res->started_at));
	json_object_set_new(o, "ended_at", jstr(res->ended_at));
	emit(out, o);
}

void agent_encode_end(struct buf *out, bool ok, const char *message, const struct agent_cpu *cpu)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("end"));
	json_object_set_new(o, "status", json_string(ok ? "ok" : "failed"));
	json_object_set_new(o, "message", jstr(message ? message : ""));
	if (cpu)
		json_object_set_new(o, "agent_cpu",
				    json_pack("{s:I,s:I,s:I}", "user_us", (json_int_t)cpu->user_us,
					      "system_us", (json_int_t)cpu->system_us, "wall_us",
					      (json_int_t)cpu->wall_us));
	emit(out, o);
}

void agent_encode_host(struct buf *out, const struct host_fp *fp, const struct argv *notes)
{
	json_t *o = json_object(), *fields = json_array(), *ns = json_array();
	json_object_set_new(o, "type", json_string("host"));
	for (size_t i = 0; i < fp->n; i++)
		json_array_append_new(fields, json_pack("{s:o,s:o,s:o,s:b}", "field",
							jstr(fp->v[i].field), "value",
							jstr(fp->v[i].value), "source",
							jstr(fp->v[i].source), "stable",
							fp->v[i].stable));
	for (size_t i = 0; notes && i < notes->n; i++)
		json_array_append_new(ns, jstr(notes->v[i]));
	json_object_set_new(o, "fields", fields);
	json_object_set_new(o, "notes", ns);
	emit(out, o);
}

/* At most this many notes of a host line, each below this many bytes. */
#define HOST_NOTES_MAX 64
#define HOST_NOTE_BYTES 512

/* A text field of a host line: plain text below max bytes. */
static bool host_text(const char *s, size_t max)
{
	return s && plain_text(s) && strlen(s) < max;
}

static int decode_host(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_t *fields = json_object_get(o, "fields"), *notes = json_object_get(o, "notes");
	if (!json_is_array(fields) || !json_is_array(notes) ||
	    json_array_size(fields) > HOSTFP_FIELDS_MAX || json_array_size(notes) > HOST_NOTES_MAX) {
		snprintf(err, errsz, "agent host line: fields and notes must be lists of at most %d"
			 " and %d", HOSTFP_FIELDS_MAX, HOST_NOTES_MAX);
		return -1;
	}
	for (size_t i = 0; i < json_array_size(fields); i++) {
		json_error_t je;
		const char *field, *value, *source;
		int stable;
		if (json_unpack_ex(json_array_get(fields, i), &je, 0, "{s:s,s:s,s:s,s:b}", "field",
				   &field, "value", &value, "source", &source, "stable", &stable)) {
			snprintf(err, errsz, "agent host line: field %zu: %s", i, je.text);
			return -1;
		}
		if (!hostfp_valid_name(field) || !host_text(value, HOSTFP_VALUE_MAX) ||
		    !host_text(source, HOSTFP_SOURCE_MAX) || hostfp_get(&m->fp, field)) {
			snprintf(err, errsz, "agent host line: field %zu ('%.60s') is not a field name,"
				 " named twice, or its value or source is too long or not text", i,
				 field);
			return -1;
		}
		hostfp_add(&m->fp, field, source, stable, "%s", value);
	}
	for (size_t i = 0; i < json_array_size(notes); i++) {
		const char *note = json_string_value(json_array_get(notes, i));
		if (!host_text(note, HOST_NOTE_BYTES)) {
			snprintf(err, errsz, "agent host line: note %zu is not text below %d bytes", i,
				 HOST_NOTE_BYTES);
			return -1;
		}
		argv_add(&m->notes, note);
	}
	return 0;
}

void agent_encode_series(struct buf *out, size_t cell, int iteration,
			 const struct stored_series_set *set)
{
	if (!set || !set->n_series)
		return;
	/* The points of each series, in the set's order: bucket by series. */
	size_t *start = xcalloc(set->n_series + 1, sizeof(*start));
	size_t *order = xcalloc(set->n_points ? set->n_points : 1, sizeof(*order));
	for (size_t i = 0; i < set->n_points; i++)
		if (set->points[i].series < set->n_series)
			start[set->points[i].series + 1]++;
	for (size_t k = 0; k < set->n_series; k++)
		start[k + 1] += start[k];
	size_t *fill = xcalloc(set->n_series, sizeof(*fill));
	for (size_t i = 0; i < set->n_points; i++) {
		uint32_t k = set->points[i].series;
		if (k < set->n_series)
			order[start[k] + fill[k]++] = i;
	}
	for (size_t k = 0; k < set->n_series; k++) {
		const struct stored_series *sr = &set->series[k];
		json_t *o = json_object(), *t = json_array(), *v = json_array();
		json_object_set_new(o, "type", json_string("series"));
		json_object_set_new(o, "cell", json_integer((json_int_t)cell));
		json_object_set_new(o, "iteration", json_integer(iteration));
		json_object_set_new(o, "monitor", jstr(sr->monitor));
		json_object_set_new(o, "key", jstr(sr->key));
		json_object_set_new(o, "cpu", json_integer(sr->cpu));
		json_object_set_new(o, "pid", json_integer(sr->pid));
		json_object_set_new(o, "tgid", json_integer(sr->tgid));
		for (size_t j = start[k]; j < start[k + 1]; j++) {
			const struct stored_point *pt = &set->points[order[j]];
			json_array_append_new(t, isfinite(pt->t_ms) ? json_real(pt->t_ms)
								    : json_real(0));
			json_array_append_new(v, isfinite(pt->value) ? json_real(pt->value)
								     : json_null());
		}
		json_object_set_new(o, "t_ms", t);
		json_object_set_new(o, "value", v);
		emit(out, o);
	}
	free(start);
	free(order);
	free(fill);
}

static int decode_series(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t cell, it, cpu, pid, tgid;
	const char *mon, *key;
	json_t *t, *v;

	if (json_unpack_ex(o, &je, 0, "{s:I,s:I,s:s,s:s,s:I,s:I,s:I,s:o,s:o}", "cell", &cell,
			   "iteration", &it, "monitor", &mon, "key", &key, "cpu", &cpu, "pid",
			   &pid, "tgid", &tgid, "t_ms", &t, "value", &v)) {
		snprintf(err, errsz, "agent series line: %s", je.text);
		return -1;
	}
	if (cell < 0 || it < 1 || it > INT_MAX || cpu < -1 || cpu > INT_MAX || pid < 0 ||
	    pid > INT_MAX || tgid < 0 || tgid > INT_MAX) {
		snprintf(err, errsz, "agent series line: a number is out of range");
		return -1;
	}
	if (!*mon || strlen(mon) >= sizeof(m->monitor) || !*key || strlen(key) >= sizeof(m->key) ||
	    !plain_text(mon) || !plain_text(key)) {
		snprintf(err, errsz, "agent series line: monitor or key empty, too long or not text");
		return -1;
	}
	if (!json_is_array(t) || !json_is_array(v) || json_array_size(t) != json_array_size(v)) {
		snprintf(err, errsz, "agent series line: t_ms and value must be arrays of one length");
		return -1;
	}
	m->cell = (size_t)cell;
	m->iteration = (int)it;
	snprintf(m->monitor, sizeof(m->monitor), "%s", mon);
	snprintf(m->key, sizeof(m->key), "%s", key);
	m->cpu = (int)cpu;
	m->pid = (int)pid;
	m->tgid = (int)tgid;
	m->n_points = json_array_size(t);
	m->t_ms = xcalloc(m->n_points ? m->n_points : 1, sizeof(*m->t_ms));
	m->value = xcalloc(m->n_points ? m->n_points : 1, sizeof(*m->value));
	for (size_t i = 0; i < m->n_points; i++) {
		json_t *ti = json_array_get(t, i), *vi = json_array_get(v, i);
		if (!json_is_number(ti) || !(json_is_number(vi) || json_is_null(vi))) {
			snprintf(err, errsz, "agent series line: point %zu is not a number", i);
			return -1;
		}
		m->t_ms[i] = json_number_value(ti);
		m->value[i] = json_is_null(vi) ? NAN : json_number_value(vi);
		if (!(m->t_ms[i] >= 0) || isinf(m->t_ms[i]) || isinf(m->value[i])) {
			snprintf(err, errsz, "agent series line: point %zu is not a finite time >= 0"
				 " and a finite value (or null)", i);
			return -1;
		}
	}
	return 0;
}

static bool state_from_name(const char *s, enum inst_state *out)
{
	for (int k = INST_OK; k <= INST_WARMUP; k++) {
		if (!strcmp(s, inst_state_name((enum inst_state)k))) {
			*out = (enum inst_state)k;
			return true;
		}
	}
	return false;
}

static void set_tv(struct timeval *tv, json_int_t us)
{
	tv->tv_sec = (time_t)(us / 1000000);
	tv->tv_usec = (suseconds_t)(us % 1000000);
}

/* An inst line's "window" (absent: none) into r. */
static int decode_window(json_t *w, struct inst_result *r, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t v[SCHEDWIN_N], tasks, ns, cg, progress;
	r->window = (struct schedwin_totals){.cgroup_cpu_us = -1};
	r->window_progress = -1;
	if (!w)
		return 0;
	if (json_unpack_ex(w, &je, 0, "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			   "run_ns", &v[SCHEDWIN_RUN_NS], "wait_ns", &v[SCHEDWIN_WAIT_NS],
			   "timeslices", &v[SCHEDWIN_TIMESLICES], "voluntary", &v[SCHEDWIN_VOL_SWITCHES],
			   "involuntary", &v[SCHEDWIN_INVOL_SWITCHES], "migrations",
			   &v[SCHEDWIN_MIGRATIONS], "tasks", &tasks, "ns", &ns, "cgroup_cpu_us", &cg,
			   "progress", &progress)) {
		snprintf(err, errsz, "agent inst line: window: %s", je.text);
		return -1;
	}
	bool ok = tasks >= 0 && ns >= 0 && cg >= -1 && progress >= -1;
	for (int k = 0; k < SCHEDWIN_N; k++)
		ok &= v[k] >= 0;
	if (!ok) {
		snprintf(err, errsz, "agent inst line: window: a number is out of range");
		return -1;
	}
	for (int k = 0; k < SCHEDWIN_N; k++)
		r->window.v[k] = (uint64_t)v[k];
	r->window.tasks = (uint64_t)tasks;
	r->window.valid = tasks > 0;
	r->window.ns = ns;
	r->window.cgroup_cpu_us = cg;
	r->window_progress = progress;
	return 0;
}

static int decode_inst(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t cell, it, load, rep, pid, code, sig, start, end, user, sys;
	const char *applied, *state, *reason, *out, *errs;
	int exited;
	struct inst_result *r = &m->inst;

	if (json_unpack_ex(o, &je, 0,
			   "{s:I,s:I,s:I,s:I,s:I,s:s,s:s,s:s,s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:s,s:s}",
			   "cell", &cell, "iteration", &it, "load", &load, "repetition", &rep,
			   "pid", &pid, "applied", &applied, "state", &state, "reason", &reason,
			   "exited", &exited, "exit_code", &code, "term_signal", &sig, "start_ns",
			   &start, "end_ns", &end, "user_us", &user, "system_us", &sys, "stdout",
			   &out, "stderr", &errs)) {
		snprintf(err, errsz, "agent inst line: %s", je.text);
		return -1;
	}
	/* Every number within what the runner can produce (it is narrowed to
	 * int, pid_t, an exit status, a signal number below). */
	if (cell < 0 || it < 1 || it > INT_MAX || load < 0 || rep < 0 || rep > INT_MAX ||
	    pid < 0 || pid > INT_MAX || code < 0 || code > 255 || sig < 0 || sig > 64 ||
	    (exited && sig) || start < 0 || end < start || user < 0 || sys < 0 ||
	    user > INT64_MAX / 2 || sys > INT64_MAX / 2) {
		snprintf(err, errsz, "agent inst line: a number is out of range");
		return -1;
	}
	if (!state_from_name(state, &r->state)) {
		snprintf(err, errsz, "agent inst line: unknown state '%.40s'", state);
		return -1;
	}
	/* ok is an instance that ran and exited 0 (runner.c finish_slot). */
	if (r->state == INST_OK && (!pid || !exited || code)) {
		snprintf(err, errsz, "agent inst line: state ok without a process that exited 0");
		return -1;
	}
	if (!plain_text(applied) || !plain_text(reason) || strlen(applied) >= sizeof(r->applied) ||
	    strlen(reason) >= sizeof(r->reason)) {
		snprintf(err, errsz, "agent inst line: applied or reason is too long or not text");
		return -1;
	}
	m->cell = (size_t)cell;
	m->iteration = (int)it;
	m->load = (size_t)load;
	r->repetition = (int)rep;
	r->pid = (pid_t)pid;
	snprintf(r->applied, sizeof(r->applied), "%s", applied);
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	r->exited = exited;
	r->exit_code = (int)code;
	r->term_signal = (int)sig;
	r->start_ns = start;
	r->end_ns = end;
	set_tv(&r->ru.ru_utime, user);
	set_tv(&r->ru.ru_stime, sys);
	if (base64_decode(&r->out, out, strlen(out)) || base64_decode(&r->err, errs, strlen(errs))) {
		snprintf(err, errsz, "agent inst line: stdout or stderr is not base64");
		return -1;
	}
	return decode_window(json_object_get(o, "window"), r, err, errsz);
}

static int decode_trace(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t cell, it;
	const char *data;
	if (json_unpack_ex(o, &je, 0, "{s:I,s:I,s:s}", "cell", &cell, "iteration", &it, "data",
			   &data)) {
		snprintf(err, errsz, "agent trace line: %s", je.text);
		return -1;
	}
	if (cell < 0 || it < 1 || it > INT_MAX || strlen(data) > 4 * (AGENT_TRACE_CHUNK / 3 + 1)) {
		snprintf(err, errsz, "agent trace line: a number is out of range or the piece too long");
		return -1;
	}
	m->cell = (size_t)cell;
	m->iteration = (int)it;
	if (base64_decode(&m->trace_data, data, strlen(data))) {
		snprintf(err, errsz, "agent trace line: data is not base64");
		return -1;
	}
	return 0;
}

static int decode_trace_end(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t cell, it, bytes, lines, lost, start, end;
	const char *warning;
	if (json_unpack_ex(o, &je, 0, "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:s}", "cell", &cell,
			   "iteration", &it, "bytes", &bytes, "lines", &lines, "lost", &lost,
			   "window_start_ns", &start, "window_end_ns", &end, "warning", &warning)) {
		snprintf(err, errsz, "agent trace_end line: %s", je.text);
		return -1;
	}
	if (cell < 0 || it < 1 || it > INT_MAX || bytes < 0 || lines < 0 || lost < 0 || start < 0 ||
	    end < start || !plain_text(warning) || strlen(warning) >= sizeof(m->trace.warning)) {
		snprintf(err, errsz, "agent trace_end line: a number is out of range, or the warning"
			 " is not text");
		return -1;
	}
	m->cell = (size_t)cell;
	m->iteration = (int)it;
	m->trace = (struct trace_result){.captured = true, .window_start_ns = start,
					 .window_end_ns = end, .bytes = (uint64_t)bytes,
					 .lines = (uint64_t)lines, .lost = (uint64_t)lost};
	snprintf(m->trace.warning, sizeof(m->trace.warning), "%s", warning);
	return 0;
}

static int decode_hello(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t proto;
	const char *rel, *cmd;
	if (json_unpack_ex(o, &je, 0, "{s:I,s:s,s:s}", "proto", &proto, "release", &rel,
			   "cmdline", &cmd)) {
		snprintf(err, errsz, "agent hello line: %s", je.text);
		return -1;
	}
	if (proto < 0 || proto > INT_MAX || !plain_text(rel) || !plain_text(cmd) ||
	    strlen(rel) >= sizeof(m->release) || strlen(cmd) >= sizeof(m->cmdline)) {
		snprintf(err, errsz, "agent hello line: proto out of range, or release or"
			 " cmdline too long or not text");
		return -1;
	}
	json_t *ag = json_object_get(o, "autogroup");
	m->autogroup = -1;
	if (ag && (!json_is_integer(ag) || json_integer_value(ag) < -1 ||
		   json_integer_value(ag) > 1)) {
		snprintf(err, errsz, "agent hello line: autogroup is not -1, 0 or 1");
		return -1;
	}
	if (ag)
		m->autogroup = (int)json_integer_value(ag);
	m->proto = (int)proto;
	snprintf(m->release, sizeof(m->release), "%s", rel);
	snprintf(m->cmdline, sizeof(m->cmdline), "%s", cmd);
	return 0;
}

static int decode_knob(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t seq;
	const char *ev, *kind, *name, *path, *old, *req;
	json_t *applied;
	if (json_unpack_ex(o, &je, 0, "{s:s,s:I,s:s,s:s,s:s,s:s,s:s,s:o}", "event", &ev,
			   "seq", &seq, "kind", &kind, "name", &name, "path", &path, "old",
			   &old, "requested", &req, "applied", &applied)) {
		snprintf(err, errsz, "agent knob line: %s", je.text);
		return -1;
	}
	const char *text[] = {ev, kind, name, path, old, req,
			      json_is_string(applied) ? json_string_value(applied) : ""};
	const size_t room[] = {sizeof(m->event), sizeof(m->kind), sizeof(m->name),
			       sizeof(m->path), sizeof(m->old_value), sizeof(m->requested),
			       sizeof(m->applied)};
	bool ok = seq >= 0 && seq <= INT_MAX && (json_is_string(applied) || json_is_null(applied));
	for (size_t k = 0; ok && k < sizeof(text) / sizeof(text[0]); k++)
		ok = plain_text(text[k]) && strlen(text[k]) < room[k];
	if (!ok) {
		snprintf(err, errsz, "agent knob line: seq out of range, or a field too long or"
			 " not text");
		return -1;
	}
	m->seq = (int)seq;
	snprintf(m->event, sizeof(m->event), "%s", ev);
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->path, sizeof(m->path), "%s", path);
	snprintf(m->old_value, sizeof(m->old_value), "%s", old);
	snprintf(m->requested, sizeof(m->requested), "%s", req);
	m->has_applied = json_is_string(applied);
	if (m->has_applied)
		snprintf(m->applied, sizeof(m->applied), "%s", json_string_value(applied));
	return 0;
}

static int decode_iteration(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	json_int_t cell, it, n;
	int intr;
	const char *sa, *ea;
	if (json_unpack_ex(o, &je, 0, "{s:I,s:I,s:I,s:b,s:s,s:s}", "cell", &cell,
			   "iteration", &it, "n", &n, "interrupted", &intr, "started_at",
			   &sa, "ended_at", &ea)) {
		snprintf(err, errsz, "agent iteration line: %s", je.text);
		return -1;
	}
	if (cell < 0 || it < 1 || it > INT_MAX || n < 0 || !plain_text(sa) ||
	    !plain_text(ea) || strlen(sa) >= sizeof(m->started_at) ||
	    strlen(ea) >= sizeof(m->ended_at)) {
		snprintf(err, errsz, "agent iteration line: a number is out of range or a time"
			 " is not text");
		return -1;
	}
	m->cell = (size_t)cell;
	m->iteration = (int)it;
	m->n = (size_t)n;
	m->interrupted = intr;
	snprintf(m->started_at, sizeof(m->started_at), "%s", sa);
	snprintf(m->ended_at, sizeof(m->ended_at), "%s", ea);
	return 0;
}

static int decode_end(json_t *o, struct agent_msg *m, char *err, size_t errsz)
{
	json_error_t je;
	const char *status, *msg;
	if (json_unpack_ex(o, &je, 0, "{s:s,s:s}", "status", &status, "message", &msg)) {
		snprintf(err, errsz, "agent end line: %s", je.text);
		return -1;
	}
	if (strcmp(status, "ok") && strcmp(status, "failed")) {
		snprintf(err, errsz, "agent end line: status '%.20s' is not ok or failed", status);
		return -1;
	}
	m->ok = !strcmp(status, "ok");
	json_t *cpu = json_object_get(o, "agent_cpu");
	json_int_t user, sys, wall;
	if (cpu && (json_unpack(cpu, "{s:I,s:I,s:I}", "user_us", &user, "system_us", &sys,
				"wall_us", &wall) || user < 0 || sys < 0 || wall <= 0 ||
		    user > INT64_MAX / 2 || sys > INT64_MAX / 2)) {
		snprintf(err, errsz, "agent end line: agent_cpu must hold user_us and system_us >= 0"
			 " and wall_us > 0");
		return -1;
	}
	if (cpu) {
		m->has_cpu = true;
		m->cpu_user_us = user;
		m->cpu_system_us = sys;
		m->cpu_wall_us = wall;
	}
	/* Free text for messages: control characters become blanks. */
	snprintf(m->message, sizeof(m->message), "%s", msg);
	for (char *c = m->message; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = ' ';
	return 0;
}

/* The line types: the "type" of a line, its message type, its decoder. */
static const struct {
	const char *name;
	enum agent_msg_type type;
	int (*decode)(json_t *o, struct agent_msg *m, char *err, size_t errsz);
} msg_types[] = {
	{"hello", AGENT_MSG_HELLO, decode_hello},
	{"knob", AGENT_MSG_KNOB, decode_knob},
	{"inst", AGENT_MSG_INST, decode_inst},
	{"iteration", AGENT_MSG_ITERATION, decode_iteration},
	{"series", AGENT_MSG_SERIES, decode_series},
	{"trace", AGENT_MSG_TRACE, decode_trace},
	{"trace_end", AGENT_MSG_TRACE_END, decode_trace_end},
	{"host", AGENT_MSG_HOST, decode_host},
	{"end", AGENT_MSG_END, decode_end},
};

int agent_decode_line(const char *line, size_t len, struct agent_msg *m, char *err,
		      size_t errsz)
{
	json_error_t je;
	const char *type = NULL;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	json_t *o = json_loadb(line, len, 0, &je);
	if (!o || !json_is_object(o)) {
		snprintf(err, errsz, "agent line is not a JSON object: %s",
			 o ? "other JSON" : je.text);
		json_decref(o);
		return -1;
	}
	if (json_unpack_ex(o, &je, 0, "{s:s}", "type", &type)) {
		snprintf(err, errsz, "agent line: %s", je.text);
	} else {
		size_t k = 0, n = sizeof(msg_types) / sizeof(msg_types[0]);
		while (k < n && strcmp(type, msg_types[k].name))
			k++;
		if (k == n) {
			snprintf(err, errsz, "agent line of unknown type '%.40s'", type);
		} else {
			m->type = msg_types[k].type;
			rc = msg_types[k].decode(o, m, err, errsz);
		}
	}
	json_decref(o);
	if (rc)
		agent_msg_free(m);
	return rc;
}

void agent_msg_free(struct agent_msg *m)
{
	buf_free(&m->inst.out);
	buf_free(&m->inst.err);
	free(m->t_ms);
	free(m->value);
	buf_free(&m->trace_data);
	m->t_ms = m->value = NULL;
	m->n_points = 0;
	hostfp_free(&m->fp);
	argv_free(&m->notes);
}
