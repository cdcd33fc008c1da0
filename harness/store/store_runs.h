/* A run's provenance as the results database holds it (store.h): the run
 * row, its variants and its event log, typed, for schedrig show, the
 * provenance block of reports and mail (runinfo.h), reparse and the
 * monitor table. */
#ifndef SCHEDRIG_STORE_RUNS_H
#define SCHEDRIG_STORE_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The run row. Text fields are NULL where the column is NULL (an imported
 * run has no host, kernel or CPU). status is as stored, and with host,
 * boot_id, rig_pid and rig_start_ticks what provenance_run_status needs to
 * tell how readers see it. */
struct stored_run {
	int64_t id;
	char *name, *status, *started_at, *ended_at, *host, *kernel_release, *kernel_cmdline,
	     *cpu_model, *schedrig_version, *config_path, *config_text, *boot_id;
	int64_t cpu_count, iterations;   /* -1 where NULL */
	int64_t rig_pid, rig_start_ticks; /* 0 where NULL (schema version 5 and older) */
	int64_t complete_iterations;     /* its iterations of status complete, all variants */
};

/* Read run run_id into *r (free with store_run_free). 0, or -1 with err
 * (also "no run N"). */
int store_run_read(struct store *s, int64_t run_id, struct stored_run *r, char *err,
		   size_t errsz);
void store_run_free(struct stored_run *r);

/* One variant of a run: its id, and text fields NULL where the column is
 * NULL (kernel_release and kernel_cmdline as recorded when its kernel came
 * up; status pending|running|complete|failed|interrupted). */
struct stored_variant {
	int64_t id;
	char *name, *boot, *kernel_release, *kernel_cmdline, *status;
};

/* The run's variants in config order. *rows is malloc'd (NULL when *n is
 * 0); free with store_variant_rows_free. 0, or -1 with err. */
int store_variant_list(struct store *s, int64_t run_id, struct stored_variant **rows, size_t *n,
		       char *err, size_t errsz);
void store_variant_rows_free(struct stored_variant *rows, size_t n);

/* One event of a run's log: when (UTC, ISO 8601), its kind (failure, note,
 * iterations, order, ...) and its message. */
struct stored_event {
	char *at, *kind, *message;
};

/* Every event of the run, oldest first (of every kind: store_events reads
 * the messages of one). *rows as for store_variant_list; free with
 * store_event_rows_free. 0, or -1 with err. */
int store_event_list(struct store *s, int64_t run_id, struct stored_event **rows, size_t *n,
		     char *err, size_t errsz);
void store_event_rows_free(struct stored_event *rows, size_t n);

#endif
