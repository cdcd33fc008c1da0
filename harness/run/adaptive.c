#include "adaptive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

/* CI half-width as % of |mean| of the finite values; NaN when n < 2. */
static double ci_pct_of(const double *values, size_t n)
{
	double *x = xcalloc(n ? n : 1, sizeof(*x));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(values[i]))
			x[k++] = values[i];
	double pct = NAN;
	if (k >= 2) {
		double mean = stats_amean(x, k);
		double half = stats_ci_half_t(stats_stddev(x, k), k, 0.95);
		if (mean != 0)
			pct = half * 100.0 / fabs(mean);
	}
	free(x);
	return pct;
}

bool adaptive_should_stop(const struct adaptive_rule *r, const double *values, size_t n,
			  size_t n_failed, double elapsed_s, char *why, size_t whysz)
{
	double pct = ci_pct_of(values, n);
	char ci[96], failed[32] = "";

	if (n_failed)
		snprintf(failed, sizeof(failed), "%zu failed, ", n_failed);
	if (!n)
		snprintf(ci, sizeof(ci), "no complete iteration");
	else if (isnan(pct))
		snprintf(ci, sizeof(ci), "CI NaN");
	else
		snprintf(ci, sizeof(ci), "CI %.1f %%", pct);
	if (n + n_failed >= (size_t)r->max) {
		snprintf(why, whysz, "%s%s%s", failed,
			 r->min == r->max ? "fixed count, " : "max reached, ", ci);
		return true;
	}
	if (r->max_time_s > 0 && elapsed_s >= r->max_time_s) {
		snprintf(why, whysz, "%smax_time_s %g reached, %s", failed, r->max_time_s, ci);
		return true;
	}
	if (n < (size_t)r->min || r->ci_pct <= 0 || isnan(pct))
		return false;
	if (pct <= r->ci_pct) {
		snprintf(why, whysz, "%s%s <= %g %%", failed, ci, r->ci_pct);
		return true;
	}
	return false;
}

struct adaptive_cells {
	struct cell_progress {
		double *values;      /* of the complete iterations */
		size_t n;
		size_t n_failed;
		bool started;        /* an iteration ran since the clock last stopped */
		int64_t started_ns;  /* when the first of them started */
		double spent_s;      /* restored from an earlier process, and the
				      * time before each pause */
		bool stopped;
	} *cell;
	size_t n_cells;
};

struct adaptive_cells *adaptive_cells_new(size_t n_cells)
{
	struct adaptive_cells *a = xcalloc(1, sizeof(*a));
	a->cell = xcalloc(n_cells ? n_cells : 1, sizeof(*a->cell));
	a->n_cells = n_cells;
	return a;
}

void adaptive_cells_reset(struct adaptive_cells *a)
{
	for (size_t c = 0; c < a->n_cells; c++) {
		free(a->cell[c].values);
		a->cell[c] = (struct cell_progress){0};
	}
}

void adaptive_cells_free(struct adaptive_cells *a)
{
	if (!a)
		return;
	adaptive_cells_reset(a);
	free(a->cell);
	free(a);
}

static void cell_started(struct cell_progress *cp, int64_t started_ns)
{
	if (cp->started)
		return;
	cp->started = true;
	cp->started_ns = started_ns;
}

void adaptive_cells_add(struct adaptive_cells *a, size_t cell, int64_t started_ns, double value)
{
	struct cell_progress *cp = &a->cell[cell];
	cell_started(cp, started_ns);
	cp->values = xrealloc(cp->values, (cp->n + 1) * sizeof(*cp->values));
	cp->values[cp->n++] = value;
}

void adaptive_cells_add_failed(struct adaptive_cells *a, size_t cell, int64_t started_ns)
{
	cell_started(&a->cell[cell], started_ns);
	a->cell[cell].n_failed++;
}

void adaptive_cells_restore(struct adaptive_cells *a, size_t cell, const double *values, size_t n,
			    double spent_s)
{
	struct cell_progress *cp = &a->cell[cell];
	cp->spent_s += spent_s;
	if (!n)
		return;
	cp->values = xrealloc(cp->values, (cp->n + n) * sizeof(*cp->values));
	memcpy(cp->values + cp->n, values, n * sizeof(*values));
	cp->n += n;
}

bool adaptive_cells_enough(struct adaptive_cells *a, size_t cell, const struct adaptive_rule *r,
			   int64_t now_ns, char *why, size_t whysz)
{
	struct cell_progress *cp = &a->cell[cell];
	double elapsed_s = cp->spent_s + (cp->started ? (double)(now_ns - cp->started_ns) / 1e9 : 0);
	char reason[160];

	if (!adaptive_should_stop(r, cp->values, cp->n, cp->n_failed, elapsed_s, reason,
				  sizeof(reason)))
		return false;
	cp->stopped = true;
	snprintf(why, whysz, "%zu iteration(s), %s", cp->n + cp->n_failed, reason);
	return true;
}

void adaptive_cells_pause(struct adaptive_cells *a, size_t cell, int64_t now_ns)
{
	struct cell_progress *cp = &a->cell[cell];
	if (!cp->started)
		return;
	cp->spent_s += (double)(now_ns - cp->started_ns) / 1e9;
	cp->started = false;
}

void adaptive_cells_stop(struct adaptive_cells *a, size_t cell)
{
	a->cell[cell].stopped = true;
}

bool adaptive_cells_stopped(const struct adaptive_cells *a, size_t cell)
{
	return a->cell[cell].stopped;
}

bool adaptive_primary(const struct experiment *e, const struct cfg_load **load,
		      const char **metric)
{
	const struct cfg_load *primary = NULL;

	*metric = NULL;
	for (size_t i = 0; i < e->n_loads && !primary; i++)
		if (e->loads[i].primary_metric) {
			primary = &e->loads[i];
			*metric = primary->primary_metric;
		}
	for (size_t i = 0; i < e->n_loads && !primary; i++)
		if (e->loads[i].role == ROLE_MEASURED)
			primary = &e->loads[i];
	if (!primary)
		return false;
	if (!*metric)
		*metric = primary->ops->primary_metric ? primary->ops->primary_metric
						       : primary->ops->metrics[0].name;
	*load = primary;
	return true;
}

double adaptive_primary_value(const struct experiment *e, const struct iteration_result *res,
			      const struct sample_vec *samples)
{
	const struct cfg_load *primary;
	const char *metric;
	double sum = 0;
	size_t n = 0;

	if (!adaptive_primary(e, &primary, &metric))
		return NAN;
	for (size_t i = 0; i < res->n; i++) {
		if (res->r[i].pi->load != primary)
			continue;
		for (size_t k = 0; k < samples[i].n; k++) {
			if (strcmp(samples[i].v[k].metric, metric) || isnan(samples[i].v[k].value))
				continue;
			sum += samples[i].v[k].value;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}
