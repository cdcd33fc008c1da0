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
			  double elapsed_s, char *why, size_t whysz)
{
	double pct = ci_pct_of(values, n);
	char ci[64];

	if (isnan(pct))
		snprintf(ci, sizeof(ci), "CI NaN");
	else
		snprintf(ci, sizeof(ci), "CI %.1f %%", pct);
	if (n >= (size_t)r->max) {
		snprintf(why, whysz, "%s%s", r->min == r->max ? "fixed count, " : "max reached, ", ci);
		return true;
	}
	if (r->max_time_s > 0 && elapsed_s >= r->max_time_s) {
		snprintf(why, whysz, "max_time_s %g reached, %s", r->max_time_s, ci);
		return true;
	}
	if (n < (size_t)r->min || r->ci_pct <= 0 || isnan(pct))
		return false;
	if (pct <= r->ci_pct) {
		snprintf(why, whysz, "%s <= %g %%", ci, r->ci_pct);
		return true;
	}
	return false;
}

struct adaptive_cells {
	struct cell_progress {
		double *values;
		size_t n;
		int64_t started_ns;
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

void adaptive_cells_add(struct adaptive_cells *a, size_t cell, int64_t started_ns, double value)
{
	struct cell_progress *cp = &a->cell[cell];
	if (cp->n == 0)
		cp->started_ns = started_ns;
	cp->values = xrealloc(cp->values, (cp->n + 1) * sizeof(*cp->values));
	cp->values[cp->n++] = value;
}

bool adaptive_cells_enough(const struct adaptive_cells *a, size_t cell,
			   const struct adaptive_rule *r, int64_t now_ns, char *why, size_t whysz)
{
	const struct cell_progress *cp = &a->cell[cell];
	double elapsed_s = (double)(now_ns - cp->started_ns) / 1e9;
	return adaptive_should_stop(r, cp->values, cp->n, elapsed_s, why, whysz);
}

double adaptive_primary_value(const struct experiment *e, const struct iteration_result *res,
			      const struct sample_vec *samples)
{
	const struct cfg_load *primary = NULL;
	const char *metric = NULL;
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < e->n_loads && !primary; i++)
		if (e->loads[i].primary_metric) {
			primary = &e->loads[i];
			metric = primary->primary_metric;
		}
	for (size_t i = 0; i < e->n_loads && !primary; i++)
		if (e->loads[i].role == ROLE_MEASURED)
			primary = &e->loads[i];
	if (!primary)
		return NAN;
	if (!metric)
		metric = primary->ops->primary_metric ? primary->ops->primary_metric
						      : primary->ops->metrics[0].name;
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
