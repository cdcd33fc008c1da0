/* Monitor series (table series, harness/monitor/monitor.h) read back from a results
 * database (store.h), typed, for the monitor table (monitor_report.h) and
 * the monitor figures (reports/plot.h plot_monitors). Values stored as
 * NULL (NaN) read as NaN. */
#ifndef SCHEDRIG_STORE_MONITOR_H
#define SCHEDRIG_STORE_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Whether run run_id has any series into *any. 0, or -1 with err. */
int store_series_any(struct store *s, int64_t run_id, bool *any, char *err, size_t errsz);

/* The mean and the max of the system-wide points (not per CPU, not per
 * task) of series monitor/key over every iteration of variant variant_id;
 * NaN when it has none. 0, or -1 with err. */
int store_series_stats(struct store *s, int64_t variant_id, const char *monitor,
		       const char *key, double *mean, double *max, char *err, size_t errsz);

/* What the monitors saw of one load (all its instances) of a variant,
 * over every iteration; NaN where nothing was stored. */
struct stored_load_monitor {
	char *name;
	double migrations;    /* sum over its threads of the se.nr_migrations increase
			       * (sched nr_migrations, last minus first point) */
	double nivcsw;        /* sum of rusage nivcsw of its instances' process trees */
	double nivcsw_cpu_s;  /* user_s + system_s of the instances with nivcsw */
	double elapsed_s, user_s, system_s; /* sums over its instances */
};

/* The loads of variant variant_id in config order. *rows is malloc'd (NULL
 * when *n is 0); free with store_load_monitor_rows_free. 0, or -1 with
 * err. */
int store_load_monitors(struct store *s, int64_t variant_id, struct stored_load_monitor **rows,
			size_t *n, char *err, size_t errsz);
void store_load_monitor_rows_free(struct stored_load_monitor *rows, size_t n);

/* A (variant, cell) of a run that has series, and the names to title
 * them with. */
struct stored_series_cell {
	int64_t variant_id, cell_id;
	char *variant, *cell, *run;  /* cell "" when the plan has no matrix */
	int64_t n_cells;             /* cells of the variant that have series */
};

/* The (variant, cell) pairs of run run_id that have series, in config and
 * plan order. *rows as for store_load_monitors; free with
 * store_series_cell_rows_free. 0, or -1 with err. */
int store_series_cells(struct store *s, int64_t run_id, struct stored_series_cell **rows,
		       size_t *n, char *err, size_t errsz);
void store_series_cell_rows_free(struct stored_series_cell *rows, size_t n);

/* Which points of a series store_series_points reads:
 *   SERIES_PER_CPU   the per-CPU points, by iteration, CPU, time;
 *   SERIES_SYSTEM    the system-wide points, by iteration, time;
 *   SERIES_PER_LOAD  the per-task points summed over each load instance's
 *                    threads at each time, by load (config order),
 *                    repetition, iteration, time. */
enum series_points { SERIES_PER_CPU, SERIES_SYSTEM, SERIES_PER_LOAD };

/* One point. */
struct stored_series_point {
	int64_t iteration;
	int64_t cpu;        /* SERIES_PER_CPU */
	const char *load;   /* SERIES_PER_LOAD: "NAME" or "NAME repetition R"
			     * (borrowed for the callback); else NULL */
	double t_ms;        /* ms since the iteration started */
	double value;
};

/* Call fn for each point of series monitor/key of variant variant_id in
 * cell cell_id, of the kind which, in its order. A non-zero return of fn
 * stops the walk and is returned. 0, or -1 with err. */
int store_series_points(struct store *s, int64_t variant_id, int64_t cell_id,
			const char *monitor, const char *key, enum series_points which,
			int (*fn)(const struct stored_series_point *p, void *ctx), void *ctx,
			char *err, size_t errsz);

#endif
