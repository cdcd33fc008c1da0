/* schedrig export --format kcidb (kcidb.h). */
#include "kcidb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kbuild_key.h"
#include "samples.h"
#include "store_kbuild.h"
#include "store_revision.h"
#include "store_runs.h"

bool kcidb_origin_ok(const char *origin)
{
	if (!*origin)
		return false;
	for (const char *p = origin; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", *p))
			return false;
	return true;
}

/* One run's rows, read once. */
struct run_rows {
	struct stored_run run;
	struct stored_variant *v;
	size_t n_v;
	struct stored_revision *rev;
	size_t n_rev;
	struct stored_kernel_build *kb;
	size_t n_kb;
	struct sample_table t;
	char key[17];  /* run_key: the run's identity, 16 hex digits */
};

/* The run's identity as 16 hex digits: the first of SHA-256 over
 * "host\nboot_id\nstarted_at\nrig_pid\nrig_start_ticks\n" (NULL as "").
 * The run's own id is a row number that every database starts at 1; these
 * fields are what the run recorded of the schedrig that made it, so two
 * databases' runs differ in them, and one run, exported again, copied or
 * imported elsewhere (they are kept), has the same. */
static void run_key(const struct stored_run *r, char out[17])
{
	char *text = xasprintf("%s\n%s\n%s\n%lld\n%lld\n", r->host ? r->host : "",
			       r->boot_id ? r->boot_id : "", r->started_at ? r->started_at : "",
			       (long long)r->rig_pid, (long long)r->rig_start_ticks);
	char hex[65];
	kb_sha256_hex(text, strlen(text), hex);
	free(text);
	memcpy(out, hex, 16);
	out[16] = '\0';
}

static int run_rows_read(struct store *st, int64_t id, struct run_rows *r, char *err,
			 size_t errsz)
{
	memset(r, 0, sizeof(*r));
	sample_table_init(&r->t);
	if (store_run_read(st, id, &r->run, err, errsz))
		return -1;
	run_key(&r->run, r->key);
	return store_variant_list(st, id, &r->v, &r->n_v, err, errsz) ||
	       store_revision_list(st, id, &r->rev, &r->n_rev, err, errsz) ||
	       store_kernel_builds(st, id, &r->kb, &r->n_kb, err, errsz) ||
	       store_load_rows(st, &id, 1, &r->t, err, errsz) ? -1 : 0;
}

static void run_rows_free(struct run_rows *r)
{
	store_run_free(&r->run);
	store_variant_rows_free(r->v, r->n_v);
	store_revision_rows_free(r->rev, r->n_rev);
	stored_kernel_builds_free(r->kb, r->n_kb);
	sample_table_free(&r->t);
}

/* s with every character outside [A-Za-z0-9_-] as '_' ("_" for ""). */
static void path_part(struct buf *b, const char *s)
{
	if (!*s)
		buf_puts(b, "_");
	for (; *s; s++)
		buf_printf(b, "%c", (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
				    (*s >= '0' && *s <= '9') || *s == '-' ? *s : '_');
}

static char *object_id(const char *origin, const struct run_rows *r, const char *variant,
		       const char *suffix)
{
	return xasprintf("%s:%s-run%lld-%s%s", origin, r->key, (long long)r->run.id, variant, suffix);
}

/* The value of the provenance line "name value" of text, malloc'd, or NULL. */
static char *prov_field(const char *text, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n'))
		if (!strncmp(p, name, len) && p[len] == ' ')
			return xasprintf("%.*s", (int)strcspn(p + len + 1, "\n"), p + len + 1);
	return NULL;
}

/* The compiler's version from the provenance line "tool cc PATH (VERSION)"
 * (kbuild_provenance.c; VERSION may hold parentheses itself), malloc'd, or
 * NULL when the build names no compiler. */
static char *compiler_of(const char *prov)
{
	char *line = prov_field(prov, "tool cc");
	char *open = line ? strstr(line, " (") : NULL, *out = NULL;
	if (open) {
		int depth = 0;
		const char *p = open + 1;
		for (; *p; p++) {
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (!depth)
				break;
		}
		if (*p && p - open > 2)
			out = xasprintf("%.*s", (int)(p - open - 2), open + 2);
	}
	free(line);
	return out;
}

/* kcidb's patchset_hash of a provenance's "patch SHA256 FILE SUBJECT"
 * lines: sha256 of the newline-terminated sha256s in order; "" without. */
static void patchset_hash(const char *prov, char out[65])
{
	struct buf shas = {0};
	for (const char *p = prov; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n'))
		if (!strncmp(p, "patch ", 6))
			buf_printf(&shas, "%.64s\n", p + 6);
	if (shas.len)
		kb_sha256_hex(shas.data, shas.len, out);
	else
		out[0] = '\0';
	buf_free(&shas);
}

static const struct stored_revision *revision_of(const struct run_rows *r, const char *variant)
{
	for (size_t i = 0; i < r->n_rev; i++)
		if (!strcmp(r->rev[i].variant, variant))
			return &r->rev[i];
	return NULL;
}

static const struct stored_kernel_build *build_of(const struct run_rows *r, const char *variant)
{
	for (size_t i = 0; i < r->n_kb; i++)
		if (!strcmp(r->kb[i].variant, variant))
			return &r->kb[i];
	return NULL;
}

static void set_str(json_t *o, const char *key, const char *s)
{
	if (s)
		json_object_set_new(o, key, json_string(s));
}

static json_t *checkout(const char *origin, const struct run_rows *r, const struct stored_variant *v)
{
	json_t *c = json_object(), *misc = json_object();
	const struct stored_revision *rev = revision_of(r, v->name);
	const struct stored_kernel_build *kb = build_of(r, v->name);
	char *id = object_id(origin, r, v->name, "");
	set_str(c, "id", id);
	set_str(c, "origin", origin);
	if (rev && rev->kind == REVISION_GIT) {
		set_str(c, "git_commit_hash", rev->commit_hash);
		set_str(c, "git_commit_name", rev->revision);
		set_str(misc, "source_dir", rev->source);
	} else if (rev) {
		set_str(misc, rev->kind == REVISION_PACKAGE ? "package" : "label",
			rev->kind == REVISION_PACKAGE ? rev->source : rev->revision);
		if (rev->kind == REVISION_PACKAGE)
			set_str(misc, "package_version", rev->revision);
	}
	if (kb) {
		char ph[65];
		patchset_hash(kb->provenance, ph);
		set_str(c, "patchset_hash", ph);
	}
	set_str(c, "start_time", r->run.started_at);
	json_object_set_new(c, "valid", json_boolean(!kb || strcmp(kb->status, "failed")));
	json_object_set_new(misc, "run", json_integer(r->run.id));
	set_str(misc, "config", r->run.name);
	set_str(misc, "variant", v->name);
	json_object_set_new(c, "misc", misc);
	free(id);
	return c;
}

static json_t *build(const char *origin, const struct run_rows *r, const struct stored_variant *v)
{
	json_t *b = json_object(), *misc = json_object();
	const struct stored_kernel_build *kb = build_of(r, v->name);
	char *id = object_id(origin, r, v->name, "-build");
	char *checkout_id = object_id(origin, r, v->name, "");
	set_str(b, "id", id);
	set_str(b, "origin", origin);
	set_str(b, "checkout_id", checkout_id);
	set_str(b, "start_time", r->run.started_at);
	set_str(b, "architecture", "x86_64");
	set_str(b, "status", kb && !strcmp(kb->status, "failed") ? "FAIL" : "PASS");
	if (kb) {
		char *compiler = compiler_of(kb->provenance);
		char *config = prov_field(kb->provenance, "config");
		char *secs = prov_field(kb->provenance, "build_s");
		double d;
		set_str(b, "compiler", compiler);
		set_str(b, "config_name", config);
		if (secs && parse_double(secs, &d) && d >= 0)
			json_object_set_new(b, "duration", json_real(d));
		set_str(misc, "kernels_entry", kb->kernel);
		set_str(misc, "build_key", kb->build_key);
		set_str(misc, "build", kb->status);
		if (*kb->message)
			set_str(misc, "message", kb->message);
		free(compiler);
		free(config);
		free(secs);
	} else {
		set_str(misc, "kernel", v->boot && !strcmp(v->boot, "local") ? "the running kernel"
										  : "not built by schedrig");
	}
	set_str(misc, "kernel_release", v->kernel_release);
	set_str(misc, "boot", v->boot);
	json_object_set_new(b, "misc", misc);
	free(id);
	free(checkout_id);
	return b;
}

static json_t *test(const char *origin, const struct run_rows *r, const struct sample_row *s,
		    size_t k)
{
	json_t *t = json_object(), *num = json_object(), *env = json_object(),
	       *misc = json_object();
	char suffix[32];
	snprintf(suffix, sizeof(suffix), "-%zu", k);
	char *id = object_id(origin, r, s->variant, suffix);
	char *build_id = object_id(origin, r, s->variant, "-build");
	struct buf path = {0};
	buf_puts(&path, "schedrig.");
	path_part(&path, s->load);
	buf_puts(&path, ".");
	path_part(&path, s->metric);
	if (*s->op) {
		buf_puts(&path, ".");
		path_part(&path, s->op);
	}
	set_str(t, "id", id);
	set_str(t, "origin", origin);
	set_str(t, "build_id", build_id);
	set_str(t, "path", buf_str(&path));
	set_str(t, "status", "DONE");
	set_str(t, "start_time", r->run.started_at);
	json_object_set_new(num, "value", json_real(s->value));
	if (*s->unit)
		set_str(num, "unit", s->unit);
	json_object_set_new(t, "number", num);
	char *comment = xasprintf("host %s, %s x %lld", r->run.host ? r->run.host : "?",
				  r->run.cpu_model ? r->run.cpu_model : "?",
				  (long long)r->run.cpu_count);
	set_str(env, "comment", comment);
	free(comment);
	json_object_set_new(t, "environment", env);
	set_str(misc, "variant", s->variant);
	set_str(misc, "cell", s->cell);
	set_str(misc, "load", s->load);
	set_str(misc, "metric", s->metric);
	set_str(misc, "op", s->op);
	set_str(misc, "better", better_name(s->better));
	json_object_set_new(misc, "iteration", json_integer(s->iteration));
	json_object_set_new(misc, "repetition", json_integer(s->repetition));
	json_object_set_new(t, "misc", misc);
	buf_free(&path);
	free(id);
	free(build_id);
	return t;
}

/* Add run r to the three lists. */
static void add_run(const char *origin, const struct run_rows *r, json_t *checkouts,
		    json_t *builds, json_t *tests)
{
	for (size_t i = 0; i < r->n_v; i++) {
		json_array_append_new(checkouts, checkout(origin, r, &r->v[i]));
		json_array_append_new(builds, build(origin, r, &r->v[i]));
	}
	for (size_t k = 0; k < r->t.n; k++)
		if (isfinite(r->t.rows[k].value))
			json_array_append_new(tests, test(origin, r, &r->t.rows[k], k));
}

int kcidb_export(struct store *st, const int64_t *ids, size_t n_ids, const char *origin,
		 struct buf *out, char *err, size_t errsz)
{
	json_t *doc = json_object(), *version = json_object(), *checkouts = json_array(),
	       *builds = json_array(), *tests = json_array();
	int rc = 0;
	for (size_t i = 0; i < n_ids && !rc; i++) {
		struct run_rows r;
		rc = run_rows_read(st, ids[i], &r, err, errsz);
		if (!rc)
			add_run(origin, &r, checkouts, builds, tests);
		run_rows_free(&r);
	}
	json_object_set_new(version, "major", json_integer(KCIDB_MAJOR));
	json_object_set_new(version, "minor", json_integer(KCIDB_MINOR));
	json_object_set_new(doc, "version", version);
	json_object_set_new(doc, "checkouts", checkouts);
	json_object_set_new(doc, "builds", builds);
	json_object_set_new(doc, "tests", tests);
	if (!rc) {
		char *text = json_dumps(doc, JSON_INDENT(1));
		buf_puts(out, text);
		buf_puts(out, "\n");
		free(text);
	}
	json_decref(doc);
	return rc;
}
