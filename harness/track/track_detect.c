/* Change points of a history (track.h track_detect). */
#include "track.h"

#include <stdlib.h>

void track_opts_init(struct track_opts *o)
{
	*o = (struct track_opts){TRACK_ALPHA, TRACK_PERMUTATIONS, TRACK_SEED, TRACK_MIN_CHANGE_PCT};
}

void track_detect(const struct track_history *h, const struct track_opts *o,
		  struct track_result *r)
{
	double *x = xcalloc(h->n + 1, sizeof(*x));
	struct changepoint *cp = xcalloc(h->n + 1, sizeof(*cp));
	for (size_t i = 0; i < h->n; i++)
		x[i] = h->p[i].value;
	struct changepoint_opts co = {.alpha = o->alpha, .permutations = o->permutations,
				      .seed = o->seed, .min_segment = TRACK_MIN_SEGMENT,
				      .boundary = h->first};
	*r = (struct track_result){0};
	size_t n = changepoint_edivisive(x, h->n, &co, cp, &r->rejected);
	size_t found = n;
	changepoint_prune(x, h->n, cp, &n, o->min_change_pct);
	r->pruned = found - n;
	r->c = xcalloc(n + 1, sizeof(*r->c));
	for (size_t k = 0; k < n; k++) {
		struct track_change *c = &r->c[r->n++];
		c->index = cp[k].index;
		c->p = cp[k].p;
		c->q = cp[k].q;
		changepoint_levels(x, h->n, cp, n, k, &c->mean_before, &c->mean_after);
		c->change_pct = changepoint_change_pct(c->mean_before, c->mean_after);
		c->regression = h->better == BETTER_LOWER ? c->mean_after > c->mean_before
							  : c->mean_after < c->mean_before;
	}
	free(x);
	free(cp);
}

void track_result_free(struct track_result *r)
{
	free(r->c);
	*r = (struct track_result){0};
}
