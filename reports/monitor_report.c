/* Monitor table of a stored run: the store's aggregates per variant
 * (store_monitor.h) into a monitor_table. */
#include "monitor_report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_table.h"
#include "store_monitor.h"
#include "store_runs.h"

/* Mean and max of one system-wide series over the variant's iterations. */
static int system_rows(struct store *s, struct monitor_table *t, size_t col, int64_t variant_id,
		       char *err, size_t errsz)
{
	static const struct {
		const char *monitor, *key, *label;
		bool max;
	} rows[] = {
		{"stat", "user_pct", "CPU User %", true},
		{"stat", "system_pct", "CPU System %", true},
		{"stat", "idle_pct", "CPU Idle %", true},
		{"stat", "ctxt_per_s", "Context switches/s", true},
		{"stat", "processes_per_s", "Forks/s", false},
		{"psi", "cpu_some_pct", "PSI cpu some %", true},
	};
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		char label[128];
		double mean, max;
		if (store_series_stats(s, variant_id, rows[k].monitor, rows[k].key, &mean, &max, err,
				       errsz))
			return -1;
		snprintf(label, sizeof(label), "%s Mean", rows[k].label);
		monitor_table_row(t, label)[col] = mean;
		if (rows[k].max) {
			snprintf(label, sizeof(label), "%s Max", rows[k].label);
			monitor_table_row(t, label)[col] = max;
		}
	}
	return 0;
}

/* Per load of the variant (config order): migrations/s, involuntary
 * switches per CPU second, durations. */
static int load_rows(struct store *s, struct monitor_table *t, size_t col, int64_t variant_id,
		     char *err, size_t errsz)
{
	struct stored_load_monitor *l;
	size_t n;
	if (store_load_monitors(s, variant_id, &l, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *name = l[i].name;
		double elapsed = l[i].elapsed_s;
		char label[256];
		snprintf(label, sizeof(label), "%s Migrations/s", name);
		monitor_table_row(t, label)[col] = elapsed > 0 ? l[i].migrations / elapsed : NAN;
		snprintf(label, sizeof(label), "%s Invol switches/CPU s", name);
		monitor_table_row(t, label)[col] =
			l[i].nivcsw_cpu_s > 0 ? l[i].nivcsw / l[i].nivcsw_cpu_s : NAN;
		snprintf(label, sizeof(label), "%s Duration User", name);
		monitor_table_row(t, label)[col] = l[i].user_s;
		snprintf(label, sizeof(label), "%s Duration System", name);
		monitor_table_row(t, label)[col] = l[i].system_s;
		snprintf(label, sizeof(label), "%s Duration Elapsed", name);
		monitor_table_row(t, label)[col] = elapsed;
	}
	store_load_monitor_rows_free(l, n);
	return 0;
}

/* The table's title: "monitors: run ID NAME" ("monitors: run ID" when the
 * run has no variant). 0, or -1 with err. */
static int table_title(struct store *s, int64_t run_id, size_t n_variants, char *title,
		       size_t size, char *err, size_t errsz)
{
	struct stored_run r;
	snprintf(title, size, "monitors: run %lld", (long long)run_id);
	if (!n_variants)
		return 0;
	if (store_run_read(s, run_id, &r, err, errsz))
		return -1;
	snprintf(title, size, "monitors: run %lld %s", (long long)run_id, r.name ? r.name : "");
	store_run_free(&r);
	return 0;
}

int monitor_report_run(struct store *s, int64_t run_id, struct buf *out, char *err,
		       size_t errsz)
{
	struct stored_variant *v;
	size_t n;
	bool any;
	char title[512];

	if (store_series_any(s, run_id, &any, err, errsz))
		return -1;
	if (!any)
		return 1;
	if (store_variant_list(s, run_id, &v, &n, err, errsz))
		return -1;
	int rc = table_title(s, run_id, n, title, sizeof(title), err, errsz);
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	for (size_t c = 0; c < n; c++)
		names[c] = v[c].name;
	struct monitor_table t;
	monitor_table_init(&t, title, names, n);
	for (size_t c = 0; c < n && !rc; c++)
		rc = system_rows(s, &t, c, v[c].id, err, errsz);
	for (size_t c = 0; c < n && !rc; c++)
		rc = load_rows(s, &t, c, v[c].id, err, errsz);
	if (!rc)
		report_monitor_table(out, &t, 2);
	monitor_table_free(&t);
	free(names);
	store_variant_rows_free(v, n);
	return rc;
}
