/* A bisection's decisions over a measurer (bisect_engine.h). */
#include "bisect_engine.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Points the confirm measures, at most: both ends, last good, first bad. */
#define CONFIRM_POINTS 4

struct engine {
	struct bisect_rule r;
	const struct bisect_series *s;
	const struct bisect_metric *m;
	const struct bisect_ops *ops;
	struct bisect_search *search;
	struct bisect_sample_set ends[2];   /* good, bad: the walk's */
	double ends_effect_pct;             /* bad against good: the direction */
	int *walk_nth;                      /* per point: walk measurements so far */
	bool *ambiguous;                    /* per point: skipped as ambiguous */
	size_t points_decided;              /* inner points tested (their alpha) */
	size_t n_confirm;                   /* points of the confirm */
	size_t confirm_k[CONFIRM_POINTS];
	struct bisect_sample_set confirm[CONFIRM_POINTS];
};

static size_t last_k(const struct engine *e)
{
	return e->s->n - 1;
}

static void say(const struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct engine *e, const char *fmt, ...)
{
	if (!e->ops->say)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	e->ops->say(e->ops->ctx, line);
}

/* The next walk measurement of point k, more iterations (0: the
 * config's), into *set. */
static int measure_walk(struct engine *e, size_t k, int more, struct bisect_sample_set *set,
			char **why)
{
	bisect_sample_set_free(set);
	*why = NULL;
	return e->ops->measure(e->ops->ctx, k, BISECT_PHASE_WALK, ++e->walk_nth[k], more, set, why);
}

/* The first look after look whose target exceeds n iterations, or 0. */
static int next_look(const struct engine *e, int look, size_t n)
{
	for (int l = look + 1; l <= bisect_look_count(e->r.n_min, e->r.n_max); l++)
		if ((size_t)bisect_look_target(e->r.n_min, e->r.n_max, l) > n)
			return l;
	return 0;
}

static int emit_point(struct engine *e, size_t k, enum bisect_verdict v, const char *reason,
		      const struct bisect_sample_set *set, const struct bisect_diff *vs_good,
		      const struct bisect_diff *vs_bad, int look)
{
	struct bisect_diff none = {.t = {.statistic = NAN, .df = NAN, .p = NAN},
				   .effect_pct = NAN, .alpha = NAN};
	struct bisect_point_event ev = {k, v, reason, set, vs_good ? *vs_good : none,
					vs_bad ? *vs_bad : none, look};
	e->search->v[k] = v;
	return e->ops->point(e->ops->ctx, &ev);
}

/* The test's short name for result lines. */
static const char *test_short(const struct bisect_rule *r, enum better better)
{
	switch (r->test) {
	case BISECT_TEST_WELCH:
		return better == BETTER_HIGHER ? "Welch's t-test on the reciprocals" : "Welch's t-test";
	case BISECT_TEST_MANN_WHITNEY:
		return "Mann-Whitney U test";
	case BISECT_TEST_RANGE:
		break;
	}
	return "range separation";
}

char *bisect_no_regression_text(const struct bisect_rule *r, const struct bisect_metric *m,
				const char *good, const struct bisect_sample_set *g,
				const char *bad, const struct bisect_sample_set *b,
				const struct bisect_diff *d)
{
	bool higher = g->better == BETTER_HIGHER;
	char why[160];
	if (d->significant)
		snprintf(why, sizeof(why), "p = %.4g < alpha %.4g, but by %.3g %%, less than the"
			 " minimum effect %g %%", d->t.p, d->alpha, fabs(d->effect_pct),
			 r->min_effect_pct);
	else
		snprintf(why, sizeof(why), "p = %.4g >= alpha %.4g", d->t.p, d->alpha);
	return xasprintf("No regression to bisect: %s:%s op %s (cell %s), %s %.4g vs %s %.4g (%s),"
			 " %s %s", m->load ? m->load : "?", m->metric ? m->metric : "?",
			 m->op ? m->op : "?", m->cell ? m->cell : "?", good,
			 higher ? g->sum.hmean : g->sum.amean, bad,
			 higher ? b->sum.hmean : b->sum.amean, higher ? "Hmean" : "Amean",
			 test_short(r, g->better), why);
}

/* Both ends measured up to target iterations each. 0, or -1 stopped. */
static int ends_to(struct engine *e, int target)
{
	size_t ks[2] = {0, last_k(e)};
	for (int i = 0; i < 2; i++) {
		int more = target - (int)e->ends[i].iterations;
		char *why;
		if (more <= 0)
			continue;
		int rc = measure_walk(e, ks[i], more, &e->ends[i], &why);
		free(why);
		if (rc)
			return -1;
	}
	return 0;
}

/* The ends, once they differ, up to the second look's iterations: every
 * point is tested against them. 0, or -1 stopped. */
static int top_up_ends(struct engine *e)
{
	return ends_to(e, bisect_look_target(e->r.n_min, e->r.n_max, 2));
}

/* The ends: measured, topped up together over the looks until they
 * differ. 0 they differ (both recorded), 1 refused, -1 stopped. */
static int decide_ends(struct engine *e)
{
	size_t ks[2] = {0, last_k(e)};
	char *why;
	for (int i = 0; i < 2; i++) {
		int rc = measure_walk(e, ks[i], 0, &e->ends[i], &why);
		free(why);
		if (rc)
			return -1;
		if (i == 0 && isnan(e->r.min_effect_pct))
			e->r.min_effect_pct = e->ops->min_effect_pct(e->ops->ctx, &e->ends[0]);
	}
	double share = bisect_rule_share(&e->r);
	size_t prev = 0;
	for (int look = 1;;) {
		size_t now = e->ends[0].iterations < e->ends[1].iterations ? e->ends[0].iterations
									 : e->ends[1].iterations;
		struct bisect_diff d;
		bisect_diff_test(&e->r, bisect_look_alpha(share, (int)prev, (int)now, e->r.n_max),
				 &e->ends[0], &e->ends[1], &d);
		e->ends_effect_pct = d.effect_pct;
		if (d.differs)
			return top_up_ends(e) ||
			       emit_point(e, ks[0], BISECT_GOOD, NULL, &e->ends[0], NULL, &d, look) ||
			       emit_point(e, ks[1], BISECT_BAD, NULL, &e->ends[1], &d, NULL, look) ? -1 : 0;
		int next = next_look(e, look, now);
		if (!next) {
			char *text = bisect_no_regression_text(&e->r, e->m, e->s->p[0].name, &e->ends[0],
							       e->s->p[ks[1]].name, &e->ends[1], &d);
			struct bisect_outcome o = {"refused", text, -1, false};
			int rc = e->ops->result(e->ops->ctx, &o);
			free(text);
			return rc ? -1 : 1;
		}
		int target = bisect_look_target(e->r.n_min, e->r.n_max, next);
		say(e, "ends %s and %s: no difference after %zu iteration(s) (p %.4g, alpha %.4g,"
		    " %+.3g %%): more, to %d", e->s->p[0].name, e->s->p[ks[1]].name, now, d.t.p,
		    d.alpha, d.effect_pct, target);
		if (ends_to(e, target))
			return -1;
		prev = now;
		look = next;
	}
}

/* Measure and decide inner point k. 0, or -1 stopped. */
static int decide_point(struct engine *e, size_t k)
{
	struct bisect_sample_set set = {0};
	char *why;
	int rc = measure_walk(e, k, 0, &set, &why);
	if (rc) {
		bisect_sample_set_free(&set);
		if (rc < 0)
			return -1;
		rc = emit_point(e, k, BISECT_SKIP, why, NULL, NULL, NULL, 0);
		free(why);
		return rc ? -1 : 0;
	}
	double alpha = bisect_rule_point_alpha(&e->r, ++e->points_decided);
	size_t prev = 0;
	int look = 1;
	struct bisect_class cl;
	for (;;) {
		size_t now = set.iterations;
		bisect_classify(&e->r, bisect_look_alpha(alpha, (int)prev, (int)now, e->r.n_max),
				&e->ends[0], &e->ends[1], &set, &cl);
		int next = next_look(e, look, now);
		if (cl.verdict != BISECT_UNTESTED || !next)
			break;
		int more = bisect_look_target(e->r.n_min, e->r.n_max, next) - (int)now;
		say(e, "point %zu %s: ambiguous after %zu iteration(s) (p vs good %.4g, vs bad %.4g,"
		    " alpha %.4g): %d more", k, e->s->p[k].name, now, cl.vs_good.t.p, cl.vs_bad.t.p,
		    cl.vs_good.alpha, more);
		rc = measure_walk(e, k, more, &set, &why);
		free(why);
		if (rc) {
			bisect_sample_set_free(&set);
			return -1;
		}
		prev = now;
		look = next;
	}
	e->ambiguous[k] = cl.verdict == BISECT_UNTESTED;
	char *reason = bisect_class_reason(&cl, set.iterations);
	rc = emit_point(e, k, cl.verdict == BISECT_UNTESTED ? BISECT_SKIP : cl.verdict, reason, &set,
			&cl.vs_good, &cl.vs_bad, look);
	free(reason);
	bisect_sample_set_free(&set);
	return rc ? -1 : 0;
}

/* The confirm's set of point k (one of confirm_k). */
static struct bisect_sample_set *confirm_set(struct engine *e, size_t k)
{
	for (size_t i = 0; i < e->n_confirm; i++)
		if (e->confirm_k[i] == k)
			return &e->confirm[i];
	return NULL;
}

static void confirm_add(struct engine *e, size_t k)
{
	if (!confirm_set(e, k))
		e->confirm_k[e->n_confirm++] = k;
}

/* One round: one iteration of each confirm point, in k order on odd
 * rounds and reversed on even ones. 0, or -1 stopped. */
static int confirm_round(struct engine *e, int round)
{
	for (size_t i = 0; i < e->n_confirm; i++) {
		size_t j = round % 2 ? i : e->n_confirm - 1 - i;
		char *why = NULL;
		struct bisect_sample_set next = {0};
		int rc = e->ops->measure(e->ops->ctx, e->confirm_k[j], BISECT_PHASE_CONFIRM, round, 1,
					 &next, &why);
		free(why);
		if (rc) {
			bisect_sample_set_free(&next);
			return -1;
		}
		bisect_sample_set_free(&e->confirm[j]);
		e->confirm[j] = next;
	}
	return 0;
}

/* What the confirm and the guard found. */
struct verdicts {
	struct bisect_result res;
	struct bisect_diff step, end[2], like[2];
	bool stepped, moved[2], unlike[2];
	long ambiguous;                 /* the first point of the range skipped as ambiguous
					 * (the result names them all); -1 none */
	int rounds;
};

/* The rounds of the confirm: at its first look's count, more at later
 * looks while the step is not shown (after a between point: the first
 * look's only). 0, or -1 stopped. */
static int confirm_rounds(struct engine *e, struct verdicts *v)
{
	int first = e->r.n_min > BISECT_CONFIRM_MIN ? e->r.n_min : BISECT_CONFIRM_MIN;
	int last = e->r.n_max > first ? e->r.n_max : first;
	double share = bisect_rule_share(&e->r);
	double dir = e->ends_effect_pct;
	int prev = 0;
	for (int look = 1; look <= bisect_look_count(first, last); look++) {
		int target = bisect_look_target(first, last, look);
		if (target <= v->rounds)
			continue;
		if (look > 1)
			say(e, "confirm %s -> %s: no step after %d round(s) (p %.4g, alpha %.4g, %+.3g %%):"
			    " more, to %d", e->s->p[v->res.last_good].name,
			    e->s->p[v->res.first_bad].name, v->rounds, v->step.t.p, v->step.alpha,
			    v->step.effect_pct, target);
		while (v->rounds < target)
			if (confirm_round(e, ++v->rounds))
				return -1;
		if (v->res.gradual)
			return 0;
		bisect_diff_test(&e->r, bisect_look_alpha(share, prev, v->rounds, last),
				 confirm_set(e, v->res.last_good), confirm_set(e, v->res.first_bad),
				 &v->step);
		v->stepped = v->step.differs && v->step.effect_pct * dir > 0;
		if (v->stepped)
			return 0;
		prev = v->rounds;
	}
	return 0;
}

static int emit_check(struct engine *e, const char *what, size_t k_a, size_t k_b,
		      const struct bisect_sample_set *a, const struct bisect_sample_set *b,
		      const struct bisect_diff *d, int rounds, const char *outcome)
{
	struct bisect_check c = {what, k_a, k_b, a, b, *d, rounds, outcome};
	return e->ops->check(e->ops->ctx, &c);
}

/* The guard and the likeness checks on the confirm's rounds, emitted. */
static int guard(struct engine *e, struct verdicts *v)
{
	double share = bisect_rule_share(&e->r);
	size_t ks[2] = {0, last_k(e)}, inner[2] = {v->res.last_good, v->res.first_bad};
	static const char *const end_what[] = {"good end", "bad end"};
	static const char *const like_what[] = {"last good", "first bad"};
	if (!v->res.gradual &&
	    emit_check(e, "confirm", inner[0], inner[1], confirm_set(e, inner[0]),
		       confirm_set(e, inner[1]), &v->step, v->rounds, v->stepped ? "step" : "no step"))
		return -1;
	for (int i = 0; i < 2; i++) {
		const struct bisect_sample_set *again = confirm_set(e, ks[i]);
		bisect_diff_test(&e->r, share, &e->ends[i], again, &v->end[i]);
		v->moved[i] = v->end[i].significant;
		if (emit_check(e, end_what[i], ks[i], ks[i], &e->ends[i], again, &v->end[i],
			       v->rounds, v->moved[i] ? "moved" : "held"))
			return -1;
	}
	for (int i = 0; i < 2 && !v->res.gradual; i++) {
		if (inner[i] == ks[i])
			continue;
		bisect_diff_test(&e->r, share, confirm_set(e, ks[i]), confirm_set(e, inner[i]),
				 &v->like[i]);
		v->unlike[i] = v->like[i].differs;
		if (emit_check(e, like_what[i], ks[i], inner[i], confirm_set(e, ks[i]),
			       confirm_set(e, inner[i]), &v->like[i], v->rounds,
			       v->unlike[i] ? "differs" : "same"))
			return -1;
	}
	return 0;
}

/* "TEST p = P" of a check's test. */
static void fmt_test(char *dst, size_t size, const struct engine *e, const struct bisect_diff *d)
{
	snprintf(dst, size, "%s p = %.3g", test_short(&e->r, e->ends[0].better), d->t.p);
}

/* The confirm's numbers: "p4 -> p5 +19.9 %, Welch's t-test p = 3.1e-06
 * (alpha 0.0029) over 5 + 5 fresh interleaved iterations". */
static void confirm_numbers(struct buf *b, const struct engine *e, const struct verdicts *v)
{
	char test[96];
	fmt_test(test, sizeof(test), e, &v->step);
	buf_printf(b, "%s -> %s %+.3g %%, %s (alpha %.4g) over %d + %d fresh interleaved"
		   " iterations", e->s->p[v->res.last_good].name, e->s->p[v->res.first_bad].name,
		   v->step.effect_pct, test, v->step.alpha, v->rounds, v->rounds);
}

/* The drift guard's findings, "; "-separated, into b (nothing when both
 * ends held). */
static void moved_ends(struct buf *b, const struct engine *e, const struct verdicts *v)
{
	static const char *const role[] = {"good", "bad"};
	size_t ks[2] = {0, last_k(e)};
	for (int i = 0; i < 2; i++) {
		if (!v->moved[i])
			continue;
		char test[96];
		fmt_test(test, sizeof(test), e, &v->end[i]);
		buf_printf(b, "%sthe %s end %s moved while the bisection ran (%+.3g %% from its first"
			   " measurement, %s)", b->len ? "; " : "", role[i], e->s->p[ks[i]].name,
			   v->end[i].effect_pct, test);
	}
}

/* The result line of a confirmed step, exact or a range. */
static char *confirmed_text(const struct engine *e, const struct verdicts *v)
{
	struct buf b = {0};
	const struct bisect_point *fb = &e->s->p[v->res.first_bad];
	bool labelled = strcmp(fb->label, fb->name) != 0;
	if (v->res.exact) {
		buf_printf(&b, "First bad point: %s (confirmed: ", fb->name);
		confirm_numbers(&b, e, v);
		buf_printf(&b, "; the ends held; k %zu of %zu)%s%s", v->res.first_bad, last_k(e),
			   labelled ? ": " : "", labelled ? fb->label : "");
	} else {
		buf_printf(&b, "The change is in a range: after %s (k %zu, good) up to %s (k %zu,"
			   " bad); skipped in between:", e->s->p[v->res.last_good].name,
			   v->res.last_good, fb->name, v->res.first_bad);
		for (size_t k = v->res.last_good + 1; k < v->res.first_bad; k++)
			buf_printf(&b, "%s %s", k > v->res.last_good + 1 ? "," : "", e->s->p[k].name);
		buf_puts(&b, " (confirmed: ");
		confirm_numbers(&b, e, v);
		buf_puts(&b, "; the ends held)");
	}
	char *text = xstrdup(buf_str(&b));
	buf_free(&b);
	return text;
}

/* "LEAD p2, p4" of the points of verdict v into b, after "; " unless b
 * ends in "("; nothing when there are none. */
static void points_of(struct buf *b, const struct engine *e, enum bisect_verdict v,
		      const char *lead)
{
	size_t n = 0;
	for (size_t k = 0; k < e->s->n; k++) {
		if (e->search->v[k] != v)
			continue;
		if (n++ == 0)
			buf_printf(b, "%s%s", b->data[b->len - 1] == '(' ? "" : "; ", lead);
		buf_printf(b, "%s %s", n > 1 ? "," : "", e->s->p[k].name);
	}
}

/* The result line when no patch is blamed. */
static char *unconfirmed_text(const struct engine *e, const struct verdicts *v)
{
	struct buf b = {0};
	static const char *const like_end[] = {"good", "bad"};
	size_t inner[2] = {v->res.last_good, v->res.first_bad};
	buf_puts(&b, "No single first bad point: ");
	if (v->res.gradual) {
		buf_printf(&b, "%s over %s..%s (", v->res.beyond ? "not monotone" : "gradual change",
			   e->s->p[v->res.span_lo].name, e->s->p[v->res.span_hi].name);
		points_of(&b, e, BISECT_BEYOND, "beyond an end:");
		points_of(&b, e, BISECT_BETWEEN, "between both ends:");
		buf_puts(&b, ")");
	} else if (v->ambiguous >= 0) {
		size_t n = 0;
		buf_printf(&b, "the change is in %s..%s, but", e->s->p[inner[0]].name,
			   e->s->p[inner[1]].name);
		for (size_t k = inner[0] + 1; k < inner[1]; k++)
			if (e->ambiguous[k])
				buf_printf(&b, "%s %s", n++ ? "," : "", e->s->p[k].name);
		buf_printf(&b, " stayed ambiguous (%s from neither end at its alpha); the confirm"
			   " shows ", n > 1 ? "each differs" : "it differs");
		confirm_numbers(&b, e, v);
	} else if (!v->stepped) {
		buf_puts(&b, "the confirm shows no step: ");
		confirm_numbers(&b, e, v);
	} else {
		buf_puts(&b, "the confirm shows ");
		confirm_numbers(&b, e, v);
		for (int i = 0; i < 2; i++) {
			if (!v->unlike[i])
				continue;
			char test[96];
			fmt_test(test, sizeof(test), e, &v->like[i]);
			buf_printf(&b, ", but %s differs from the %s end (%+.3g %%, %s): the step is"
				   " not the whole change", e->s->p[inner[i]].name, like_end[i],
				   v->like[i].effect_pct, test);
		}
	}
	struct buf moved = {0};
	moved_ends(&moved, e, v);
	if (moved.len)
		buf_printf(&b, "; %s, so no patch is blamed", buf_str(&moved));
	buf_free(&moved);
	char *text = xstrdup(buf_str(&b));
	buf_free(&b);
	return text;
}

/* Confirm, guard, and the result. 0, or -1 stopped. */
static int conclude(struct engine *e)
{
	struct verdicts v = {.ambiguous = -1};
	bisect_search_result(e->search, &v.res);
	for (size_t k = v.res.last_good + 1; !v.res.gradual && k < v.res.first_bad; k++)
		if (e->ambiguous[k] && v.ambiguous < 0)
			v.ambiguous = (long)k;
	confirm_add(e, 0);
	if (!v.res.gradual) {
		confirm_add(e, v.res.last_good);
		confirm_add(e, v.res.first_bad);
	}
	confirm_add(e, last_k(e));
	/* In k order, the order of the rounds. */
	for (size_t i = 1; i < e->n_confirm; i++)
		for (size_t j = i; j > 0 && e->confirm_k[j - 1] > e->confirm_k[j]; j--) {
			size_t t = e->confirm_k[j];
			e->confirm_k[j] = e->confirm_k[j - 1];
			e->confirm_k[j - 1] = t;
		}
	if (confirm_rounds(e, &v) || guard(e, &v))
		return -1;
	bool blamed = !v.res.gradual && v.ambiguous < 0 && v.stepped && !v.moved[0] && !v.moved[1] &&
		      !v.unlike[0] && !v.unlike[1];
	char *text = blamed ? confirmed_text(e, &v) : unconfirmed_text(e, &v);
	struct bisect_outcome o = {"complete", text, blamed ? (long)v.res.first_bad : -1,
				   blamed && !v.res.exact};
	int rc = e->ops->result(e->ops->ctx, &o);
	free(text);
	return rc;
}

int bisect_engine_run(const struct bisect_rule *r, const struct bisect_series *s,
		      const struct bisect_metric *m, const struct bisect_ops *ops,
		      struct bisect_search *search)
{
	struct engine e = {.r = *r, .s = s, .m = m, .ops = ops, .search = search};
	e.walk_nth = xcalloc(s->n, sizeof(*e.walk_nth));
	e.ambiguous = xcalloc(s->n, sizeof(*e.ambiguous));
	int rc = decide_ends(&e);
	long k;
	while (rc == 0 && (k = bisect_search_next(search)) >= 0)
		rc = decide_point(&e, (size_t)k);
	if (rc == 0)
		rc = conclude(&e);
	for (size_t i = 0; i < CONFIRM_POINTS; i++)
		bisect_sample_set_free(&e.confirm[i]);
	bisect_sample_set_free(&e.ends[0]);
	bisect_sample_set_free(&e.ends[1]);
	free(e.walk_nth);
	free(e.ambiguous);
	return rc;
}
