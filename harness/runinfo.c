#include "runinfo.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provenance.h"
#include "store.h"

static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static int has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *q;
	int found = 0;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
			       -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return found;
}

static const char variants_sql[] =
	"SELECT name, boot, kernel_release, kernel_cmdline, status FROM variant"
	" WHERE run_id = ? ORDER BY seq, id";
/* Databases of schema version 9 and later: with the kernel built. */
static const char variants_built_sql[] =
	"SELECT name, boot, kernel_release, kernel_cmdline, status, (SELECT k.provenance FROM"
	" kernel_build k WHERE k.run_id = variant.run_id AND k.variant = variant.name)"
	" FROM variant WHERE run_id = ? ORDER BY seq, id";

int runinfo_load(const char *db_path, const int64_t *ids, size_t n, struct runinfo **out,
		 char *err, size_t errsz)
{
	struct store *st = NULL;
	sqlite3_stmt *qr = NULL, *qv = NULL, *qk = NULL;
	struct runinfo *r = xcalloc(n ? n : 1, sizeof(*r));
	int rc = -1;

	if (store_open(db_path, true, &st, err, errsz)) {
		free(r);
		return -1;
	}
	sqlite3 *db = store_db(st);
	int knobs = has_table(db, "knob"), builds = has_table(db, "kernel_build");
	if (sqlite3_prepare_v2(db,
			       "SELECT name, status, started_at, ended_at, host, kernel_release,"
			       " kernel_cmdline, cpu_model, schedrig_version, config_path, config_text,"
			       " cpu_count, iterations, rig_pid, rig_start_ticks, boot_id,"
			       " (SELECT count(*) FROM iteration i JOIN variant v ON v.id = i.variant_id"
			       " WHERE v.run_id = run.id AND i.status = 'complete')"
			       " FROM run WHERE id = ?", -1, &qr, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, builds ? variants_built_sql : variants_sql, -1, &qv, NULL) !=
		    SQLITE_OK ||
	    (knobs && sqlite3_prepare_v2(db,
					 "SELECT variant, kind, name, requested_value, applied_value"
					 " FROM knob WHERE run_id = ? ORDER BY id", -1, &qk,
					 NULL) != SQLITE_OK)) {
		snprintf(err, errsz, "%s: %s", db_path, sqlite3_errmsg(db));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct runinfo *ri = &r[i];
		ri->id = ids[i];
		ri->has_knob_table = knobs;
		sqlite3_reset(qr);
		sqlite3_bind_int64(qr, 1, ids[i]);
		if (sqlite3_step(qr) != SQLITE_ROW) {
			snprintf(err, errsz, "%s: no run %lld", db_path, (long long)ids[i]);
			runinfo_free(r, n);
			r = NULL;
			goto out;
		}
		char **f[] = {&ri->name, &ri->status, &ri->started_at, &ri->ended_at, &ri->host,
			      &ri->kernel_release, &ri->kernel_cmdline, &ri->cpu_model,
			      &ri->schedrig_version, &ri->config_path, &ri->config_text};
		for (int k = 0; k < 11; k++)
			*f[k] = dup_col(qr, k);
		ri->cpu_count = sqlite3_column_int(qr, 11);
		ri->iterations = sqlite3_column_int(qr, 12);
		ri->complete_iterations = sqlite3_column_int(qr, 16);
		if (ri->status) {
			const char *seen = provenance_run_status(
				ri->status, ri->host, (const char *)sqlite3_column_text(qr, 15),
				sqlite3_column_int64(qr, 13), sqlite3_column_int64(qr, 14));
			if (seen != ri->status) {
				free(ri->status);
				ri->status = xstrdup(seen);
			}
		}
		sqlite3_reset(qv);
		sqlite3_bind_int64(qv, 1, ids[i]);
		while (sqlite3_step(qv) == SQLITE_ROW) {
			ri->variants = xrealloc(ri->variants, (ri->n_variants + 1) * sizeof(*ri->variants));
			ri->variants[ri->n_variants++] = (struct runinfo_variant){
				dup_col(qv, 0), dup_col(qv, 1), dup_col(qv, 2), dup_col(qv, 3),
				dup_col(qv, 4), builds ? dup_col(qv, 5) : NULL};
		}
		if (!qk)
			continue;
		sqlite3_reset(qk);
		sqlite3_bind_int64(qk, 1, ids[i]);
		while (sqlite3_step(qk) == SQLITE_ROW) {
			ri->knobs = xrealloc(ri->knobs, (ri->n_knobs + 1) * sizeof(*ri->knobs));
			ri->knobs[ri->n_knobs++] = (struct runinfo_knob){
				dup_col(qk, 0), dup_col(qk, 1), dup_col(qk, 2), dup_col(qk, 3),
				dup_col(qk, 4)};
		}
	}
	*out = r;
	r = NULL;
	rc = 0;
out:
	free(r);
	sqlite3_finalize(qr);
	sqlite3_finalize(qv);
	sqlite3_finalize(qk);
	store_close(st);
	return rc;
}

void runinfo_free(struct runinfo *r, size_t n)
{
	if (!r)
		return;
	for (size_t i = 0; i < n; i++) {
		struct runinfo *ri = &r[i];
		char *f[] = {ri->name, ri->status, ri->started_at, ri->ended_at, ri->host,
			     ri->kernel_release, ri->kernel_cmdline, ri->cpu_model,
			     ri->schedrig_version, ri->config_path, ri->config_text};
		for (int k = 0; k < 11; k++)
			free(f[k]);
		for (size_t v = 0; v < ri->n_variants; v++) {
			free(ri->variants[v].name);
			free(ri->variants[v].boot);
			free(ri->variants[v].kernel_release);
			free(ri->variants[v].kernel_cmdline);
			free(ri->variants[v].status);
			free(ri->variants[v].build);
		}
		free(ri->variants);
		for (size_t k = 0; k < ri->n_knobs; k++) {
			free(ri->knobs[k].variant);
			free(ri->knobs[k].kind);
			free(ri->knobs[k].name);
			free(ri->knobs[k].requested_value);
			free(ri->knobs[k].applied_value);
		}
		free(ri->knobs);
	}
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
	}
}
