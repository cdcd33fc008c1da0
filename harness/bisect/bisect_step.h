/* One attempt at measuring a point of a bisection: an ordinary
 * `schedrig run` of the point's config (bisect_series.h), started as a child
 * process of this binary through spawn.h (argv only, no shell), its output kept in a log
 * file, the run it made linked to the bisection (store_bisect.h): a walk
 * measurement (the config's iterations, or a look's more) or a round of
 * the confirm (one iteration). */
#ifndef SCHEDRIG_BISECT_STEP_H
#define SCHEDRIG_BISECT_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

struct bisect_step {
	const char *self_exe;   /* this binary (/proc/self/exe) */
	const char *db;         /* --db */
	const char *dir;        /* where point configs and logs go: DB's dir/bisect/ID */
	int64_t bisection_id;
	int k;                  /* the point */
	int attempt;            /* 1, 2, ... of the point (bisect_runs.h) */
	int iterations;         /* run --iterations N; 0: the config's */
	const char *phase;      /* "walk" | "confirm" (bisect_run.phase) */
	const char *config;     /* the point's config text */
};

/* What came of the attempt. */
struct bisect_step_result {
	int64_t run_id;         /* 0: no run was made, or run --resume was
	                         * refused and the run did not end (see why) */
	bool interrupted;       /* by a signal (to the run or to this process) */
	int signal;             /* which (SIGINT, SIGTERM, ...) */
	int exit_status;        /* the run's exit status */
	char log[4096];         /* the log file's path */
	char why[512];          /* no run: the log's last line */
};

/* Run the attempt: when the bisection already has it (bisect --resume) and
 * its run is complete or failed, nothing runs (result from the database);
 * an interrupted or abandoned run is continued with run --resume (its
 * finished iterations are kept); else point config K-aA.yaml is written to
 * dir and run. While the child runs, SIGINT and SIGTERM of this process
 * are passed on to it and end the attempt as interrupted; if this process
 * dies, the child gets SIGTERM (PR_SET_PDEATHSIG) and stops as after
 * Ctrl-C. A run that neither ended (complete, failed) nor was
 * interrupted was not run: run --resume refused it (it is still going in
 * another schedrig) or it did not start; run_id is 0 then and why the
 * log's last line (the run's message). 0, or -1 with
 * err (the database or the filesystem failed, the child could not start). */
int bisect_step_run(struct store *st, const struct bisect_step *s, struct bisect_step_result *r,
		    char *err, size_t errsz);

/* Run argv (spawn.h: no shell) as a child with stdout and stderr
 * appended to log; its wait status in *status. SIGINT and SIGTERM of
 * this process meanwhile go to the child too (and are remembered:
 * bisect_child_signal). The child gets SIGTERM when this process dies,
 * even by SIGKILL (PR_SET_PDEATHSIG), so a run ends interrupted, its
 * knobs restored, and nothing goes on that nobody waits for. The steps of
 * a bisection and of track --follow run this way. 0, or -1 with err (the
 * child could not start). */
int bisect_run_child(char *const *argv, const char *log, int *status, char *err, size_t errsz);

/* The first SIGINT or SIGTERM this process got while a child of
 * bisect_run_child ran (0: none). */
int bisect_child_signal(void);

#endif
