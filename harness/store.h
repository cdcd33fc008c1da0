/* The results database: one SQLite file (WAL, busy timeout, schema versioned
 * with PRAGMA user_version; schema text in results-schema/schema.sql, which
 * the build embeds). Every function returns 0 on success or -1 with a message
 * in err (errsz bytes). */
#ifndef SCHEDRIG_STORE_H
#define SCHEDRIG_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples.h"

struct store;

/* Open (and create or migrate when writable) the database at path. With
 * readonly, the file must exist and is never written. */
int store_open(const char *path, bool readonly, struct store **out, char *err, size_t errsz);
void store_close(struct store *s);

/* Resolve run selectors to run ids, in the order given. A selector is a run
 * id ("12"), a run name (the newest run with that name), or "latest".
 * n_sel 0 selects the newest run. *ids is malloc'd; *n_ids receives the count. */
int store_select_runs(struct store *s, char *const *sel, size_t n_sel,
		      int64_t **ids, size_t *n_ids, char *err, size_t errsz);

/* Append every sample of the given runs to t, one sample_row each, ordered by
 * run (as given), then variant, cell and load in config order, then iteration,
 * then the order the parser produced. Row run is the run's name when the
 * selected runs have distinct names, else "name#id". */
int store_load_rows(struct store *s, const int64_t *ids, size_t n_ids,
		    struct sample_table *t, char *err, size_t errsz);

/* Store rows of t as one new run called run_name (rows' own run field is
 * ignored), creating variants, cells, loads and iterations by name, all in one
 * transaction: on any error nothing is written. *run_id receives the new id. */
int store_import_rows(struct store *s, const struct sample_table *t, const char *run_name,
		      int64_t *run_id, char *err, size_t errsz);

/* Provenance of a run, stored once when it begins. Strings may be NULL. */
struct run_info {
	const char *name;
	const char *config_path;
	const char *config_text;
	const char *host;
	const char *kernel_release;
	const char *kernel_cmdline;
	const char *cpu_model;
	int cpu_count;
	int iterations;
};

/* Insert a run with status "running" and started_at = now (UTC). */
int store_run_begin(struct store *s, const struct run_info *ri, int64_t *run_id,
		    char *err, size_t errsz);
/* Set the run's status (complete|failed|interrupted) and ended_at = now. */
int store_run_end(struct store *s, int64_t run_id, const char *status, char *err, size_t errsz);
/* Record a variant (seq = config order) and its kernel; *variant_id receives
 * its id. An existing variant of that name (run --resume) keeps its id and
 * gets the kernel facts updated. */
int store_variant_add(struct store *s, int64_t run_id, int seq, const char *name, const char *boot,
		      const char *kernel_release, const char *kernel_cmdline,
		      int64_t *variant_id, char *err, size_t errsz);
/* Set a variant's status (pending|running|complete|failed). */
int store_variant_status(struct store *s, int64_t variant_id, const char *status,
			 char *err, size_t errsz);
/* Record a cell (seq = plan order); *cell_id receives its id (the existing
 * one when the run already has a cell of that name). */
int store_cell_add(struct store *s, int64_t run_id, int seq, const char *name,
		   int64_t *cell_id, char *err, size_t errsz);
/* Append an event (kind: failure|note|interrupt) to the run's log. */
int store_event(struct store *s, int64_t run_id, const char *kind, const char *message,
		char *err, size_t errsz);

/* The stored config of a run, for run --resume: its path and full text
 * (malloc'd, caller frees) and its iterations. */
int store_run_config(struct store *s, int64_t run_id, char **path, char **text, int *iterations,
		     char *err, size_t errsz);
/* Mark a run "running" again and clear ended_at (run --resume). */
int store_run_resume(struct store *s, int64_t run_id, char *err, size_t errsz);
/* true when (variant, cell, iteration) has a complete record. */
bool store_iteration_complete(struct store *s, int64_t variant_id, int64_t cell_id, int iteration);

/* One load instance of an iteration, with its raw output and parsed samples.
 * samples may be NULL (a failure has none). Times: CLOCK_MONOTONIC ns. */
struct stored_instance {
	int seq;              /* config order of the load */
	int repetition;       /* background repeat count, 0 first */
	const char *name;
	const char *tool;
	const char *role;
	const char *argv;
	int pid;
	const char *sched_requested;
	const char *sched_applied;
	const char *state;    /* ok|failed|timeout|stopped|interrupted */
	bool exited;          /* exit_code valid */
	int exit_code;
	int term_signal;      /* 0 when not signalled */
	const char *reason;
	int64_t started_ns, ended_ns;
	double elapsed_s, user_s, system_s;
	const char *out;
	size_t out_len;
	const char *err;
	size_t err_len;
	const struct sample_vec *samples;
};

/* Store one iteration with all its load instances, raw outputs and samples in
 * one transaction (BEGIN IMMEDIATE, retried with backoff while the database
 * is busy). started_at/ended_at are UTC ISO 8601 strings. An earlier
 * incomplete record of the same (variant, cell, iteration) is replaced; a
 * complete one makes this fail (UNIQUE), so no sample is ever stored twice. */
int store_iteration_save(struct store *s, int64_t variant_id, int64_t cell_id, int iteration,
			 const char *status, const char *started_at, const char *ended_at,
			 const struct stored_instance *inst, size_t n_inst, char *err, size_t errsz);

/* The underlying handle, for read-only queries of list/show/report code. */
struct sqlite3 *store_db(struct store *s);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into dst (at least 21 bytes). */
void store_now(char *dst, size_t size);

#endif
