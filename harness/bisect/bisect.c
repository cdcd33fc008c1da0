/* The search of a bisection (bisect.h). */
#include "bisect.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const verdict_names[] = {
	[BISECT_UNTESTED] = "untested", [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
	[BISECT_SKIP] = "skip", [BISECT_BETWEEN] = "between", [BISECT_BEYOND] = "beyond",
};

const char *bisect_verdict_name(enum bisect_verdict v)
{
	return name_at(verdict_names, sizeof(verdict_names) / sizeof(verdict_names[0]), (unsigned)v);
}

int bisect_verdict_parse(const char *s)
{
	return name_index(verdict_names, sizeof(verdict_names) / sizeof(verdict_names[0]), s);
}

void bisect_search_init(struct bisect_search *s, size_t n_points)
{
	s->n = n_points;
	s->v = xcalloc(n_points, sizeof(*s->v));
}

void bisect_search_free(struct bisect_search *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* Between both ends or beyond one: the metric did not take one step. */
static bool not_one_step(enum bisect_verdict v)
{
	return v == BISECT_BETWEEN || v == BISECT_BEYOND;
}

/* A window: hi the lowest bad point (or between point, when between_hi),
 * lo the highest point below it that is good (or between, when not
 * between_hi). */
static void window(const struct bisect_search *s, bool between_hi, size_t *lo, size_t *hi)
{
	*hi = s->n - 1;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k] == BISECT_BAD || (between_hi && not_one_step(s->v[k]))) {
			*hi = k;
			break;
		}
	*lo = 0;
	for (size_t k = 0; k < *hi; k++)
		if (s->v[k] == BISECT_GOOD || (!between_hi && not_one_step(s->v[k])))
			*lo = k;
}

void bisect_search_window(const struct bisect_search *s, size_t *lo, size_t *hi)
{
	window(s, true, lo, hi);
}

void bisect_search_upper_window(const struct bisect_search *s, size_t *lo, size_t *hi)
{
	window(s, false, lo, hi);
}

/* The untested point of (lo, hi) nearest its middle, -1 when none is:
 * outward from the middle, mid, mid+1, mid-1, ... (lower first on a tie
 * of distance, mid itself being the lower of the two middles). */
static long middle(const struct bisect_search *s, size_t lo, size_t hi)
{
	size_t mid = (lo + hi) / 2;
	for (size_t d = 0; d < hi - lo; d++) {
		size_t below = mid >= d ? mid - d : 0, above = mid + d;
		if (mid >= d && below > lo && below < hi && s->v[below] == BISECT_UNTESTED)
			return (long)below;
		if (above > lo && above < hi && s->v[above] == BISECT_UNTESTED)
			return (long)above;
	}
	return -1;
}

long bisect_search_next(const struct bisect_search *s)
{
	if (s->v[0] == BISECT_UNTESTED)
		return 0;
	if (s->v[s->n - 1] == BISECT_UNTESTED)
		return (long)s->n - 1;
	size_t lo, hi;
	bisect_search_window(s, &lo, &hi);
	long k = middle(s, lo, hi);
	if (k >= 0)
		return k;
	bisect_search_upper_window(s, &lo, &hi);
	return middle(s, lo, hi);
}

void bisect_search_result(const struct bisect_search *s, struct bisect_result *r)
{
	memset(r, 0, sizeof(*r));
	bisect_search_window(s, &r->last_good, &r->first_bad);
	r->exact = r->first_bad == r->last_good + 1;
	for (size_t k = 0; k < s->n; k++) {
		r->gradual |= not_one_step(s->v[k]);
		r->beyond |= s->v[k] == BISECT_BEYOND;
	}
	if (r->gradual) {
		size_t lo, hi;
		bisect_search_upper_window(s, &lo, &hi);
		r->span_lo = r->last_good;
		r->span_hi = hi;
	}
}
