/* harness/store/: every SQL statement of the project, split by what it
 * stores: store.c (open, schema and migration, transactions, errors),
 * store_runs.c (runs, variants, cells, the event log, run selectors),
 * store_iterations.c (iterations, load instances, samples, histograms,
 * monitor series written), store_samples.c (samples and histograms read
 * for reports), store_import.c, store_notes.c (what reports note beside
 * their tables), store_knobs.c (the knob journal), store_monitor,
 * store_host (host state fingerprints, their digest), store_adaptive,
 * store_reparse, store_show and store_list (their own headers);
 * store_impl.h (the handle and helpers, private to this folder);
 * runinfo (provenance for reports), csvio (the export format) and
 * cmdsetup (a command's database, opened once).
 */

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

/* The schema version this build writes (PRAGMA user_version): the one place
 * the number is written (tests compare with it). Version 11 added the
 * bisection tables (bisection, bisect_point, bisect_run), 12 the
 * bisection's directory and walker, 13 the bisection's rule, its points'
 * looks, the runs' phase and the confirm's checks (bisect_check), the
 * window samples and traces (window_sample, trace), the host state
 * (host_state, store_host.h), the kernels' revisions (kernel_revision)
 * and schedrig track --follow's tables; 14 a follow's change's outcome
 * (verdict or retryable) and attempts; every table is in
 * results-schema/schema.sql. */
#define STORE_SCHEMA_VERSION 14

/* Open (and create or migrate when writable) the database at path. With
 * readonly, the file must exist and is only written to migrate a database
 * of an older schema version (results-schema/schema.sql), once. A store is
 * used by one thread at a time (opened SQLITE_OPEN_NOMUTEX). Every page
 * is checked first (PRAGMA quick_check): a damaged file is refused with
 * SQLite's complaint, the file and how to recover it (sqlite3 FILE
 * .recover), as is any later statement that finds damage (SQLITE_CORRUPT).
 * A writer keeps the file in WAL mode while it is open and leaves it in
 * rollback mode when it closes last; a reader opens read-only (a file a
 * writer left in WAL mode is switched first), so it leaves no -wal or -shm
 * file. Errors: not a results database, a newer schema version, damage,
 * SQLite's message with errno. */
int store_open(const char *path, bool readonly, struct store **out, char *err, size_t errsz);
void store_close(struct store *s);

/* Resolve run selectors to run ids, in the order given. A selector is a run
 * id ("12"), a run name (the newest run with that name), or "latest".
 * n_sel 0 selects the newest run. A run selected twice is listed once, where
 * first named. *ids is malloc'd; *n_ids receives the count. */
int store_select_runs(struct store *s, char *const *sel, size_t n_sel,
		      int64_t **ids, size_t *n_ids, char *err, size_t errsz);

/* Append every sample of the complete iterations of the given runs to t (an
 * iteration with a failed or interrupted load measured something other than
 * what the config asked for, so its samples stay out of reports; they remain
 * in the database for show and reparse), one sample_row each, ordered by
 * run (as given), then variant, cell and load in config order, then iteration,
 * then repetition (sample_row.repetition), then the order the parser produced. Row run is the run's name when the
 * selected runs have distinct names, else "name#id". */
int store_load_rows(struct store *s, const int64_t *ids, size_t n_ids,
		    struct sample_table *t, char *err, size_t errsz);

/* Append every histogram of the given runs to t (hist_table_init'ed by the
 * caller), one hist_row each, keyed and ordered like store_load_rows (run,
 * variant, cell, load, iteration, then parser order; metric and op name the
 * histogram). Runs without histograms add nothing. A counts blob whose size
 * is not 8·n_buckets is an error. */
int store_load_histograms(struct store *s, const int64_t *ids, size_t n_ids,
			  struct hist_table *t, char *err, size_t errsz);

/* Store rows of t as one new run called run_name (rows' own run field is
 * ignored), creating variants, cells, loads and iterations by name, and one
 * load instance per (iteration, load, repetition), all in one
 * transaction: on any error nothing is written. A load's tool is that of
 * its first row ("imported" when NULL). *run_id receives the new id. */
int store_import_rows(struct store *s, const struct sample_table *t, const char *run_name,
		      int64_t *run_id, char *err, size_t errsz);

/* Provenance of a run, stored once when it begins. Strings may be NULL. */
/* The schedrig process writing a run: its pid, its start time in clock
 * ticks since boot (/proc/PID/stat field 22, so a reused pid is not taken
 * for it) and the boot it runs in (/proc/sys/kernel/random/boot_id). */
struct rig_id {
	int pid;
	long long start_ticks;
	const char *boot_id;
};

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
	struct rig_id rig;
};

/* Insert a run with status "running", started_at = now (UTC) and the rig
 * writing it (run_info.rig), so readers can tell a run whose rig died
 * (provenance.h provenance_run_status). */
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
/* The id of the run's variant named name, or 0 in *variant_id when the run
 * has none (yet). */
int store_variant_id(struct store *s, int64_t run_id, const char *name, int64_t *variant_id,
		     char *err, size_t errsz);
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
/* Mark a run "running" again by the rig rig and clear ended_at (run
 * --resume). */
int store_run_resume(struct store *s, int64_t run_id, const struct rig_id *rig, char *err,
		     size_t errsz);

/* Who recorded a run and whether it claims to be running: status, host,
 * and the rig (pid, start_ticks 0 and boot_id "" when the database does
 * not know, e.g. runs of schema version 5 and older). */
struct run_owner {
	char status[32];
	char host[256];
	char boot_id[64];
	long long pid, start_ticks;
};
int store_run_owner(struct store *s, int64_t run_id, struct run_owner *o, char *err,
		    size_t errsz);
/* true when (variant, cell, iteration) has a complete record. */
bool store_iteration_complete(struct store *s, int64_t variant_id, int64_t cell_id, int iteration);

/* One load instance of an iteration, with its raw output and parsed samples.
 * samples may be NULL (a failure has none); its histograms (samples->hists)
 * are stored too (table histogram). Times: CLOCK_MONOTONIC ns. */
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
	/* The rig's own samples of the measured window (table window_sample:
	 * schedstat deltas, progress rates); NULL: none. */
	const struct sample_vec *window;
};

/* Store one iteration with all its load instances, raw outputs and samples in
 * one transaction (BEGIN IMMEDIATE, retried with backoff while the database
 * is busy). started_at/ended_at are UTC ISO 8601 strings. An earlier
 * incomplete record of the same (variant, cell, iteration) is replaced; a
 * complete one makes this fail (UNIQUE), so no sample is ever stored twice. */
int store_iteration_save(struct store *s, int64_t variant_id, int64_t cell_id, int iteration,
			 const char *status, const char *started_at, const char *ended_at,
			 const struct stored_instance *inst, size_t n_inst, char *err, size_t errsz);

/* The messages of a run's events of one kind (e.g. "iterations": why each
 * cell stopped), oldest first. *msgs and each string are malloc'd. */
int store_events(struct store *s, int64_t run_id, const char *kind, char ***msgs, size_t *n,
		 char *err, size_t errsz);

/* What of a run has no sample in reports because no iteration of it is
 * complete, in config order, one message each: "variant V: no complete
 * iteration" ("variant V (failed): ..." when the variant failed as a whole)
 * when nothing of a variant is complete, else "cell C
 * on variant V: none of N iteration(s) complete" (N 0: "not run").
 * *msgs and each string are malloc'd. */
int store_empty_cells(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		      size_t errsz);

/* Loads of run_id that ran in complete iterations and yielded no sample at
 * all (a background load whose every run was stopped by the end of the
 * measured load or ended in the warm-up): one message each, in config
 * order, e.g. "load hb (background): none of its 2 run(s) in complete
 * iterations finished (2 stopped when the measured load ended)", with ", N
 * ended in the warm-up" before the ")" when N > 0. Same ownership and
 * errors as store_empty_cells. */
int store_silent_loads(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		       size_t errsz);

/* The tool warnings on a run's samples (sample_flag) among its complete
 * iterations, one message per (variant, cell, load, warning) in config
 * order: "variant V cell C load L: K of N sample(s): WARNING", N the
 * samples of that key (metric and op) in those iterations. *msgs and
 * each string are malloc'd. */
int store_flag_notes(struct store *s, int64_t run_id, char ***msgs, size_t *n, char *err,
		     size_t errsz);

/* A transaction of several writes (reparse): store_begin (BEGIN IMMEDIATE,
 * retried while the database is busy), then writes that do not open one
 * of their own (the five below, store_event), then store_commit, or
 * store_rollback to undo them all. 0, or -1 with err. */
int store_begin(struct store *s, char *err, size_t errsz);
int store_commit(struct store *s, char *err, size_t errsz);
void store_rollback(struct store *s);
/* Replace load instance instance_id's samples, sample flags and histograms
 * with samples (NULL: none) and set its state and reason (NULL: none). */
int store_instance_outcome(struct store *s, int64_t instance_id, const char *state,
			   const char *reason, const struct sample_vec *samples, char *err,
			   size_t errsz);
/* Set iteration iteration_id's status, or run run_id's (ended_at kept). */
int store_iteration_status(struct store *s, int64_t iteration_id, const char *status, char *err,
			   size_t errsz);
int store_run_status(struct store *s, int64_t run_id, const char *status, char *err,
		     size_t errsz);
/* Delete the run's events of kind whose message starts with prefix. */
int store_events_drop(struct store *s, int64_t run_id, const char *kind, const char *prefix,
		      char *err, size_t errsz);


/* One row of the knob restore journal (table knob). Strings may be NULL where
 * the column allows it. Rows returned by store_knob_list/_unrestored own their
 * strings: free them with store_knob_rows_free. */
struct stored_knob {
	int64_t id;
	int64_t run_id;
	const char *variant;
	int seq;                     /* order of application in the variant */
	const char *kind;            /* sysctl|debugfs|sched_features */
	const char *name;            /* as in the config */
	const char *path;            /* file written */
	const char *old_value;
	const char *requested_value;
	const char *applied_value;   /* NULL until read back */
	const char *host;            /* where it was changed */
	const char *boot_id;         /* that kernel's boot id */
	const char *changed_at;      /* UTC ISO 8601; set by store_knob_record */
	const char *restored_at;     /* NULL until restored */
};

/* Journal a knob change BEFORE it is made: inserts k (id, applied_value,
 * changed_at, restored_at ignored) with changed_at = now and commits at once.
 * *knob_id receives the row id. */
int store_knob_record(struct store *s, const struct stored_knob *k, int64_t *knob_id,
		      char *err, size_t errsz);
/* Set the value read back after the change. */
int store_knob_applied(struct store *s, int64_t knob_id, const char *applied_value,
		       char *err, size_t errsz);
/* Mark a knob restored (restored_at = now). Marking it twice keeps the first time. */
int store_knob_restored(struct store *s, int64_t knob_id, char *err, size_t errsz);
/* The knob rows of a run in order of the changes (id). *rows is malloc'd
 * (NULL when *n is 0). */
int store_knob_list(struct store *s, int64_t run_id, struct stored_knob **rows, size_t *n,
		    char *err, size_t errsz);
/* Every row not restored yet, of every run, newest first (restore order). */
int store_knob_unrestored(struct store *s, struct stored_knob **rows, size_t *n,
			  char *err, size_t errsz);
/* Free rows from store_knob_list or store_knob_unrestored. */
void store_knob_rows_free(struct stored_knob *rows, size_t n);


/* ---- Monitor series (harness/monitor/monitor.h) -------------------------------- */

/* One series: what was sampled (monitor "stat", key "user_pct"), of which
 * CPU (-1: not per CPU) and which task (pid: a thread id, 0 when not per
 * task; tgid: its process, the load instance's pid). Strings are borrowed. */
struct stored_series {
	const char *monitor;
	const char *key;
	int cpu;
	int pid;
	int tgid;
};

/* One sampled value: index into the set's series, ms since the iteration
 * started, the value (NaN stored as NULL). */
struct stored_point {
	uint32_t series;
	double t_ms;
	double value;
};

/* The series and points of one iteration. */
struct stored_series_set {
	const struct stored_series *series;
	size_t n_series;
	const struct stored_point *points;
	size_t n_points;
};

/* Have the next store_iteration_save also write set (table series, one row
 * per point) in the iteration's own transaction, so an iteration is stored
 * with its series or not at all. set is borrowed, not copied: it must stay
 * valid until that call, which forgets it whether it succeeds or fails.
 * NULL forgets a set given earlier. */
void store_iteration_series(struct store *s, const struct stored_series_set *set);

/* The trace of one iteration (table trace): where its gzip file is,
 * relative to the database's directory, what it asked for and what it
 * holds (harness/trace/trace_capture.h struct trace_result). */
struct stored_trace_row {
	const char *path;
	const char *events;       /* group:name, comma-separated */
	int buffer_kb;
	int64_t window_start_ns, window_end_ns;
	uint64_t bytes, lines, lost;
	const char *warning;      /* NULL or "": none */
};

/* Have the next store_iteration_save also write t (its trace row) in the
 * iteration's transaction, as store_iteration_series does: borrowed until
 * that call, which forgets it; NULL forgets one given earlier. */
void store_iteration_trace(struct store *s, const struct stored_trace_row *t);

#endif
