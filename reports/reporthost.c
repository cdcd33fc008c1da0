/* The host state notes of compare, report and mail (reporthost.h
 * reportcmd_host_notes): the fingerprints of the selected runs' measured
 * variants and what each variant's stored config declares, for
 * report_notes_host. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "hostdecl.h"
#include "reporthost.h"
#include "store.h"
#include "store_host.h"
#include "store_runs.h"

/* One fingerprint being gathered. */
struct gathered {
	int64_t run, variant_id;
	char *variant;
	struct argv fields, values;
	struct hostdecls decl;
	bool has_decl;
};

/* The variant named name of run id's stored config, parsed into *e (NULL
 * when the config is gone or no longer parses). */
static const struct cfg_variant *stored_variant(struct store *st, int64_t id, const char *name,
						 struct experiment **e)
{
	char *path = NULL, *text = NULL, err[512];
	int iterations;
	*e = NULL;
	if (!store_run_config(st, id, &path, &text, &iterations, err, sizeof(err)) && text)
		*e = config_parse(path ? path : "config", text, strlen(text), err, sizeof(err));
	free(path);
	free(text);
	for (size_t v = 0; *e && v < (*e)->n_variants; v++)
		if (!strcmp((*e)->variants[v].name, name))
			return &(*e)->variants[v];
	return NULL;
}

/* The fingerprints of run id's measured variants, appended to *g. */
static void gather_run(struct store *st, int64_t id, struct gathered **g, size_t *n)
{
	char err[512];
	int64_t *vids;
	size_t n_v, n_rows;
	struct stored_host_row *rows;
	if (store_host_measured_variants(st, id, &vids, &n_v, err, sizeof(err)))
		return;
	if (store_host_rows(st, id, &rows, &n_rows, err, sizeof(err))) {
		free(vids);
		return;
	}
	for (size_t k = 0; k < n_v; k++) {
		struct gathered x = {.run = id, .variant_id = vids[k]};
		for (size_t i = 0; i < n_rows; i++) {
			if (rows[i].variant_id != vids[k])
				continue;
			if (!x.variant)
				x.variant = xstrdup(rows[i].variant ? rows[i].variant : "?");
			if (rows[i].stable) {
				argv_add(&x.fields, rows[i].field);
				argv_add(&x.values, rows[i].value);
			}
		}
		if (!x.variant)
			continue; /* no fingerprint (a run of an older schedrig) */
		struct experiment *e;
		const struct cfg_variant *v = stored_variant(st, id, x.variant, &e);
		if (v) {
			hostdecl_of_variant(v, &x.decl);
			x.has_decl = true;
		}
		if (e)
			experiment_free(e);
		*g = xrealloc(*g, (*n + 1) * sizeof(**g));
		(*g)[(*n)++] = x;
	}
	store_host_rows_free(rows, n_rows);
	free(vids);
}

void reportcmd_host_notes(struct store *st, const int64_t *ids, size_t n_ids,
			  struct report_notes *notes)
{
	struct gathered *g = NULL;
	size_t n = 0;
	for (size_t i = 0; i < n_ids; i++)
		gather_run(st, ids[i], &g, &n);
	bool one_run = true, one_variant = true;
	for (size_t i = 1; i < n; i++) {
		one_run &= g[i].run == g[0].run;
		one_variant &= !strcmp(g[i].variant, g[0].variant);
	}
	struct host_note_input *in = xcalloc(n + 1, sizeof(*in));
	for (size_t i = 0; i < n; i++) {
		char *label = one_run ? xasprintf("variant %s", g[i].variant) :
			      one_variant ? xasprintf("run %lld", (long long)g[i].run) :
			      xasprintf("run %lld variant %s", (long long)g[i].run, g[i].variant);
		in[i] = (struct host_note_input){label, g[i].fields.v, g[i].values.v, g[i].fields.n,
						 g[i].has_decl ? &g[i].decl : NULL};
	}
	report_notes_host(notes, in, n);
	for (size_t i = 0; i < n; i++) {
		free((char *)in[i].label);
		free(g[i].variant);
		argv_free(&g[i].fields);
		argv_free(&g[i].values);
		if (g[i].has_decl)
			hostdecls_free(&g[i].decl);
	}
	free(in);
	free(g);
}
