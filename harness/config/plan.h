/* Matrix expansion: an experiment's loads, with every list value under
 * params: or sched: as an axis, become cells — the cartesian product of all
 * axes in file order (the first axis written varies slowest). Each cell holds
 * one instance per load with resolved parameters, scheduling attributes and
 * the exact argv. */
#ifndef SCHEDRIG_PLAN_H
#define SCHEDRIG_PLAN_H

#include <stddef.h>

#include "config.h"
#include "schedattr.h"

#define PLAN_MAX_CELLS 10000

struct plan_instance {
	const struct cfg_load *load;
	struct params params;       /* every driver parameter, defaults applied */
	struct param_value *values; /* storage behind params */
	struct sched_req sched;
	char sched_text[256];       /* sched_req_render of sched */
	struct argv argv;           /* argv[0] "schedrig" for built-in loads */
};

struct plan_cell {
	char *name;                 /* "hackbench.nice=19,cyclictest.slice_us=100"; "default" without axes */
	struct plan_instance *inst; /* one per load, config order */
	size_t n_inst;
	bool *runs;                 /* per variant of the experiment: runs this
				     * cell (its cells: names it, or it has none) */
};

struct plan {
	struct plan_cell *cells;
	size_t n_cells;
	size_t n_axes;
	size_t n_variants;          /* the experiment's, as runs has them */
	bool view;                  /* plan_variant_view's: cells borrowed */
};

/* Expand e into p. Returns 0, or -1 with "file:line:col: message" in err
 * (more than PLAN_MAX_CELLS cells, an invalid attribute combination such as
 * priority without fifo, a driver refusing its parameters, or a variant's
 * cells: naming what is not an axis, or a value its axis does not have). */
int plan_build(const struct experiment *e, struct plan *p, char *err, size_t errsz);
void plan_free(struct plan *p);

/* Does variant v (an index into the experiment's variants) run cell c?
 * true for every cell of a variant without cells:, and for a v the plan
 * does not know (an experiment the caller changed). */
bool plan_cell_runs(const struct plan *p, size_t c, size_t v);
/* The cells variant v runs, as a plan of their own into view (the cells
 * are p's, borrowed: view is valid while p is; plan_free(view) frees only
 * the view; cell indices are the view's, not p's). For checks of what a
 * variant will run (preflight). */
void plan_variant_view(const struct plan *p, size_t v, struct plan *view);
/* How many cells variant v runs. */
size_t plan_variant_cells(const struct plan *p, size_t v);

/* true when any instance of the plan (of load, when not NULL) requests a
 * latency_nice other than 0: one that needs the latency-nice series (0 is
 * what every kernel without it does: schedattr.h). */
bool plan_uses_latency_nice(const struct plan *p, const struct cfg_load *load);
/* true when any instance of the plan (of load, when not NULL) requests
 * slice_us. */
bool plan_uses_slice(const struct plan *p, const struct cfg_load *load);
/* true when any instance of the plan (of load, when not NULL) requests
 * cgroup attributes (sched: cgroup:). */
bool plan_uses_cgroup(const struct plan *p, const struct cfg_load *load);

#endif
