/* The statistic rows of a summary table (summary.h): their names as
 * --stat spells them, their mmtests labels, which follow the metric's
 * direction (Amean or Hmean), and their values from a group's
 * stats_summary. */
#include "summary.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util.h"

static const struct {
	const char *name;     /* for summary_stat_parse */
	const char *label;    /* the mmtests row label */
	bool spread;          /* compared lower-is-better whatever the metric */
} stat_info[] = {
	[STAT_MIN] = {"min", "Min", false},
	[STAT_MEAN] = {"mean", NULL, false},
	[STAT_AMEAN] = {"amean", "Amean", false},
	[STAT_HMEAN] = {"hmean", "Hmean", false},
	[STAT_GMEAN] = {"gmean", "Gmean", false},
	[STAT_MEDIAN] = {"median", "Median", false},
	[STAT_STDDEV] = {"stddev", "Stddev", true},
	[STAT_COEFFVAR] = {"coeffvar", "CoeffVar", true},
	[STAT_MAX] = {"max", "Max", false},
	[STAT_BAMEAN50] = {"bamean-50", "BAmean-50", false},
	[STAT_BAMEAN95] = {"bamean-95", "BAmean-95", false},
	[STAT_BAMEAN99] = {"bamean-99", "BAmean-99", false},
	[STAT_SEM] = {"sem", "SEM", true},
	[STAT_CI95] = {"ci95", "CI95", true},
	[STAT_PERCENTILE] = {NULL, NULL, false},
	[STAT_HSTDDEV] = {"hstddev", "HStddev", true},
	[STAT_HCOEFFVAR] = {"hcoeffvar", "HCoeffVar", true},
	[STAT_BHMEAN50] = {"bhmean-50", "BHmean-50", false},
	[STAT_BHMEAN95] = {"bhmean-95", "BHmean-95", false},
	[STAT_BHMEAN99] = {"bhmean-99", "BHmean-99", false},
	[STAT_SPREAD] = {NULL, NULL, true},
	[STAT_SPREAD_COEFFVAR] = {NULL, NULL, true},
	[STAT_BMEAN50] = {NULL, NULL, false},
	[STAT_BMEAN95] = {NULL, NULL, false},
	[STAT_BMEAN99] = {NULL, NULL, false},
};

int summary_stat_parse(const char *s, struct summary_stat *out)
{
	for (size_t i = 0; i < sizeof(stat_info) / sizeof(stat_info[0]); i++) {
		if (stat_info[i].name && !strcasecmp(s, stat_info[i].name)) {
			out->kind = (enum summary_stat_kind)i;
			out->p = 0;
			return 0;
		}
	}
	double p;
	if ((s[0] == 'p' || s[0] == 'P') && isdigit((unsigned char)s[1]) && parse_double(s + 1, &p) &&
	    p > 0 && p <= 100) {
		out->kind = STAT_PERCENTILE;
		out->p = p;
		return 0;
	}
	return -1;
}

/* The kind a direction-following statistic stands for: Amean, Stddev,
 * CoeffVar, BAmean-K for lower-is-better metrics, the harmonic ones for
 * higher-is-better metrics (mmtests Summarise.pm getStatName: _mean is
 * hmean when the preferred value is Higher). */
static enum summary_stat_kind resolve(enum summary_stat_kind k, enum better better)
{
	bool h = better == BETTER_HIGHER;
	switch (k) {
	case STAT_MEAN: return h ? STAT_HMEAN : STAT_AMEAN;
	case STAT_SPREAD: return h ? STAT_HSTDDEV : STAT_STDDEV;
	case STAT_SPREAD_COEFFVAR: return h ? STAT_HCOEFFVAR : STAT_COEFFVAR;
	case STAT_BMEAN50: return h ? STAT_BHMEAN50 : STAT_BAMEAN50;
	case STAT_BMEAN95: return h ? STAT_BHMEAN95 : STAT_BAMEAN95;
	case STAT_BMEAN99: return h ? STAT_BHMEAN99 : STAT_BAMEAN99;
	default: return k;
	}
}

void summary_stat_label(const struct summary_stat *s, enum better better, char *dst, size_t size)
{
	enum summary_stat_kind k = resolve(s->kind, better);
	if (k == STAT_PERCENTILE)
		snprintf(dst, size, "P%g", s->p);
	else
		snprintf(dst, size, "%s", stat_info[k].label);
}

double summary_stat_value(const struct summary_stat *s, enum better better,
			  const struct summary_group *g)
{
	const struct stats_summary *st = &g->st;
	switch (resolve(s->kind, better)) {
	case STAT_MIN: return st->min;
	case STAT_AMEAN: return st->amean;
	case STAT_HMEAN: return st->hmean;
	case STAT_GMEAN: return st->gmean;
	case STAT_MEDIAN: return st->median;
	case STAT_STDDEV: return st->stddev;
	case STAT_COEFFVAR: return st->coeffvar;
	case STAT_MAX: return st->max;
	case STAT_BAMEAN50: return st->bamean50;
	case STAT_BAMEAN95: return st->bamean95;
	case STAT_BAMEAN99: return st->bamean99;
	case STAT_SEM: return st->sem;
	case STAT_CI95: return st->ci95_half;
	case STAT_PERCENTILE: return stats_percentile_sorted(g->sorted, st->n, s->p);
	case STAT_HSTDDEV: return st->hstddev;
	case STAT_HCOEFFVAR: return st->hcoeffvar;
	case STAT_BHMEAN50: return st->bhmean50;
	case STAT_BHMEAN95: return st->bhmean95;
	case STAT_BHMEAN99: return st->bhmean99;
	default: return NAN;
	}
}

enum better summary_stat_better(const struct summary_stat *s, enum better metric_better)
{
	return stat_info[s->kind].spread ? BETTER_LOWER : metric_better;
}

bool summary_stat_is_mean(const struct summary_stat *s, enum better better)
{
	return s->kind == STAT_MEAN ||
	       (s->kind == STAT_AMEAN && better == BETTER_LOWER) ||
	       (s->kind == STAT_HMEAN && better == BETTER_HIGHER);
}
