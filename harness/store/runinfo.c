#include "runinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provenance.h"
#include "store.h"
#include "store_host.h"
#include "store_kbuild.h"
#include "store_runs.h"

/* Take the strings of r (which keeps none) into ri, with the status as
 * readers see it. */
static void take_run(struct runinfo *ri, struct stored_run *r)
{
	*ri = (struct runinfo){
		.id = r->id, .name = r->name, .status = r->status, .started_at = r->started_at,
		.ended_at = r->ended_at, .host = r->host, .kernel_release = r->kernel_release,
		.kernel_cmdline = r->kernel_cmdline, .cpu_model = r->cpu_model,
		.schedrig_version = r->schedrig_version, .config_path = r->config_path,
		.config_text = r->config_text,
		.cpu_count = r->cpu_count < 0 ? 0 : (int)r->cpu_count,
		.iterations = r->iterations < 0 ? 0 : (int)r->iterations,
		.complete_iterations = (int)r->complete_iterations,
	};
	if (ri->status) {
		const char *seen = provenance_run_status(ri->status, ri->host, r->boot_id, r->rig_pid,
							 r->rig_start_ticks);
		if (seen != ri->status) {
			free(ri->status);
			ri->status = xstrdup(seen);
		}
	}
	free(r->boot_id);
}

/* The provenance of the kernels built for ri's variants (store_kbuild.h)
 * into their build fields. 0, or -1 with err. */
static int take_builds(struct store *st, int64_t id, struct runinfo *ri, char *err, size_t errsz)
{
	struct stored_kernel_build *kb;
	size_t n;
	if (store_kernel_builds(st, id, &kb, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < ri->n_variants; v++)
			/* One row per (run, variant): UNIQUE in schema.sql. */
			if (ri->variants[v].name && !strcmp(ri->variants[v].name, kb[i].variant)) {
				ri->variants[v].build = kb[i].provenance;
				kb[i].provenance = NULL;
			}
	stored_kernel_builds_free(kb, n);
	return 0;
}

/* The run's fingerprints (store_host.h) into ri->host, each variant's
 * with its digest. 0, or -1 with err. */
static int take_host(struct store *st, int64_t id, struct runinfo *ri, char *err, size_t errsz)
{
	struct stored_host_row *rows;
	size_t n;
	char digest[65] = "";
	if (store_host_rows(st, id, &rows, &n, err, errsz))
		return -1;
	ri->host_state = xcalloc(n ? n : 1, sizeof(*ri->host_state));
	for (size_t i = 0; i < n; i++) {
		if (rows[i].variant_id && (!i || rows[i].variant_id != rows[i - 1].variant_id) &&
		    store_host_digest(st, rows[i].variant_id, digest, err, errsz) < 0) {
			store_host_rows_free(rows, n);
			return -1;
		}
		ri->host_state[i] = (struct runinfo_host){rows[i].variant, rows[i].field, rows[i].value,
						    rows[i].source,
						    xstrdup(rows[i].variant_id ? digest : ""),
						    rows[i].stable};
		rows[i].variant = rows[i].field = rows[i].value = rows[i].source = NULL;
	}
	ri->n_host = n;
	store_host_rows_free(rows, n);
	return 0;
}

/* Run id into *ri: its row, variants, their kernel builds, knobs and host
 * state. 0, or -1 with err. */
static int load_one(struct store *st, int64_t id, struct runinfo *ri, char *err, size_t errsz)
{
	struct stored_run r;
	struct stored_variant *v;
	struct stored_knob *k;
	size_t n_v, n_k;
	if (store_run_read(st, id, &r, err, errsz))
		return -1;
	take_run(ri, &r);
	if (store_variant_list(st, id, &v, &n_v, err, errsz))
		return -1;
	ri->variants = xcalloc(n_v ? n_v : 1, sizeof(*ri->variants));
	for (size_t i = 0; i < n_v; i++)
		ri->variants[i] = (struct runinfo_variant){v[i].name, v[i].boot, v[i].kernel_release,
							   v[i].kernel_cmdline, v[i].status, NULL};
	ri->n_variants = n_v;
	free(v);
	if (take_builds(st, id, ri, err, errsz))
		return -1;
	if (store_knob_list(st, id, &k, &n_k, err, errsz))
		return -1;
	ri->knobs = xcalloc(n_k ? n_k : 1, sizeof(*ri->knobs));
	for (size_t i = 0; i < n_k; i++) {
		/* Taken over: the strings of the row are malloc'd. */
		ri->knobs[i] = (struct runinfo_knob){(char *)k[i].variant, (char *)k[i].kind,
						     (char *)k[i].name, (char *)k[i].requested_value,
						     (char *)k[i].applied_value};
		k[i].variant = k[i].kind = k[i].name = k[i].requested_value = NULL;
		k[i].applied_value = NULL;
	}
	ri->n_knobs = n_k;
	store_knob_rows_free(k, n_k);
	return take_host(st, id, ri, err, errsz);
}

int runinfo_load(struct store *st, const char *db_path, const int64_t *ids, size_t n,
		 struct runinfo **out, char *err, size_t errsz)
{
	struct runinfo *r = xcalloc(n ? n : 1, sizeof(*r));
	char why[512];

	for (size_t i = 0; i < n; i++) {
		if (load_one(st, ids[i], &r[i], why, sizeof(why))) {
			snprintf(err, errsz, "%s: %s", db_path, why);
			runinfo_free(r, n);
			return -1;
		}
	}
	*out = r;
	return 0;
}

/* Free the n strings of s. */
static void free_strings(char *const *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
}

/* Free what one runinfo owns. */
static void runinfo_clear(struct runinfo *ri)
{
	char *run[] = {ri->name, ri->status, ri->started_at, ri->ended_at, ri->host,
		       ri->kernel_release, ri->kernel_cmdline, ri->cpu_model, ri->schedrig_version,
		       ri->config_path, ri->config_text};
	free_strings(run, sizeof(run) / sizeof(run[0]));
	for (size_t i = 0; i < ri->n_variants; i++) {
		struct runinfo_variant *v = &ri->variants[i];
		char *f[] = {v->name, v->boot, v->kernel_release, v->kernel_cmdline, v->status,
			     v->build};
		free_strings(f, sizeof(f) / sizeof(f[0]));
	}
	for (size_t i = 0; i < ri->n_knobs; i++) {
		struct runinfo_knob *k = &ri->knobs[i];
		char *f[] = {k->variant, k->kind, k->name, k->requested_value, k->applied_value};
		free_strings(f, sizeof(f) / sizeof(f[0]));
	}
	for (size_t i = 0; i < ri->n_host; i++) {
		struct runinfo_host *h = &ri->host_state[i];
		char *f[] = {h->variant, h->field, h->value, h->source, h->digest};
		free_strings(f, sizeof(f) / sizeof(f[0]));
	}
	free(ri->variants);
	free(ri->knobs);
	free(ri->host_state);
}

void runinfo_free(struct runinfo *r, size_t n)
{
	if (!r)
		return;
	for (size_t i = 0; i < n; i++)
		runinfo_clear(&r[i]);
	free(r);
}

bool runinfo_partial(const struct runinfo *r)
{
	return r->status && strcmp(r->status, "complete") && strcmp(r->status, "failed") &&
	       strcmp(r->status, "imported");
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* Append s with control characters as '?', cut to max bytes ("..."). */
static void put_clean(struct buf *out, const char *s, size_t max)
{
	size_t n = 0;
	s = or_dash(s);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++) {
		if (n == max) {
			buf_puts(out, "...");
			return;
		}
		buf_append(out, *p < 0x20 || *p == 0x7f ? "?" : (const char *)p, 1);
	}
}

/* A built kernel's provenance, one indented line per provenance line. */
static void build_lines(struct buf *out, const char *build)
{
	char *text = build ? xstrdup(build) : NULL, *save = NULL;
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		buf_puts(out, "    built ");
		put_clean(out, l, 400);
		buf_puts(out, "\n");
	}
	free(text);
}

/* "FIELD=VALUE" items appended to a line that wraps at 76 columns, the
 * next lines indented by 4. */
struct wrap {
	struct buf *out;
	size_t col;
	bool first;
};

static void wrap_item(struct wrap *w, const char *field, const char *value)
{
	struct buf item = {0};
	put_clean(&item, field, 100);
	buf_puts(&item, "=");
	put_clean(&item, value, 200);
	if (!w->first && w->col + 2 + item.len > 76) {
		buf_puts(w->out, ",\n    ");
		w->col = 4;
	} else if (!w->first) {
		buf_puts(w->out, ", ");
		w->col += 2;
	}
	buf_puts(w->out, buf_str(&item));
	w->col += item.len;
	w->first = false;
	buf_free(&item);
}

/* The value of the rig's machine's field, NULL when it has none. */
static const char *rig_value(const struct runinfo *ri, const char *field)
{
	for (size_t k = 0; k < ri->n_host && !ri->host_state[k].variant; k++)
		if (!strcmp(ri->host_state[k].field, field))
			return ri->host_state[k].value;
	return NULL;
}

/* The host state lines of ri (runinfo_text). */
static void host_lines(struct buf *out, const struct runinfo *ri)
{
	for (size_t k = 0; k < ri->n_host;) {
		const struct runinfo_host *h = &ri->host_state[k];
		size_t end = k;
		while (end < ri->n_host && !ri->host_state[end].variant == !h->variant &&
		       (!h->variant || !strcmp(ri->host_state[end].variant, h->variant)))
			end++;
		struct wrap w = {out, 0, true};
		size_t before = out->len;
		if (!h->variant) {
			buf_puts(out, "  host state of the rig's machine: ");
		} else {
			buf_puts(out, "  host state of variant ");
			put_clean(out, h->variant, 100);
			buf_printf(out, " (digest %.16s): as the rig's machine", h->digest);
		}
		w.col = out->len - before;
		bool except = false;
		for (size_t i = k; i < end; i++) {
			const char *mine = rig_value(ri, ri->host_state[i].field);
			if (h->variant && (!ri->host_state[i].stable || (mine && !strcmp(mine, ri->host_state[i].value))))
				continue;
			if (!strcmp(ri->host_state[i].field, "kernel.cmdline"))
				continue; /* on the variant's line */
			if (h->variant && !except) {
				buf_puts(out, ", except\n    ");
				w.col = 4;
				w.first = true;
				except = true;
			}
			wrap_item(&w, ri->host_state[i].field, ri->host_state[i].value);
		}
		buf_puts(out, "\n");
		k = end;
	}
}

void runinfo_text(struct buf *out, const struct runinfo *r, size_t n)
{
	buf_puts(out, "Provenance\n");
	for (size_t i = 0; i < n; i++) {
		const struct runinfo *ri = &r[i];
		buf_printf(out, "  run %lld ", (long long)ri->id);
		put_clean(out, ri->name, 200);
		buf_printf(out, " (%s), %s .. %s\n", or_dash(ri->status), or_dash(ri->started_at),
			   or_dash(ri->ended_at));
		buf_puts(out, "  host ");
		put_clean(out, ri->host, 200);
		buf_puts(out, ", CPU ");
		put_clean(out, ri->cpu_model, 200);
		buf_printf(out, " x %d, schedrig %s, %d iteration(s)\n", ri->cpu_count,
			   or_dash(ri->schedrig_version), ri->iterations);
		if (runinfo_partial(ri))
			buf_printf(out, "  PARTIAL: this run is %s; its tables hold the %d complete"
				   " iteration(s) stored so far\n", ri->status, ri->complete_iterations);
		for (size_t v = 0; v < ri->n_variants; v++) {
			const struct runinfo_variant *va = &ri->variants[v];
			buf_puts(out, "  variant ");
			put_clean(out, va->name, 200);
			buf_puts(out, ": kernel ");
			put_clean(out, va->kernel_release, 200);
			buf_printf(out, " (boot %s)", or_dash(va->boot));
			if (va->kernel_cmdline && *va->kernel_cmdline) {
				buf_puts(out, ", cmdline ");
				put_clean(out, va->kernel_cmdline, 200);
			}
			buf_puts(out, "\n");
			build_lines(out, va->build);
		}
		for (size_t k = 0; k < ri->n_knobs; k++) {
			const struct runinfo_knob *kn = &ri->knobs[k];
			buf_puts(out, "  knob ");
			put_clean(out, kn->variant, 100);
			buf_puts(out, " ");
			put_clean(out, kn->name, 200);
			buf_puts(out, " = ");
			put_clean(out, kn->applied_value, 200);
			buf_puts(out, " (requested ");
			put_clean(out, kn->requested_value, 200);
			buf_puts(out, ")\n");
		}
		host_lines(out, ri);
	}
}
