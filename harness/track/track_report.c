/* schedrig track's tables and JSON (track.h). */
#include "track.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

void track_history_title(struct buf *b, const struct track_history *h)
{
	buf_puts(b, h->config);
	if (*h->variant)
		buf_printf(b, " variant %s", h->variant);
	if (*h->cell)
		buf_printf(b, ", cell %s", h->cell);
	buf_printf(b, ", %s %s (%s%s%s is better)", h->load, h->metric, h->unit, *h->unit ? ", " : "",
		   h->better == BETTER_HIGHER ? "higher" : "lower");
	if (*h->op)
		buf_printf(b, ", op %s", h->op);
	if (h->n_parts > 1)
		buf_printf(b, ", host %.12s (part %zu of %zu)", h->host ? h->host : "unknown", h->part,
			   h->n_parts);
}

/* v with 5 significant digits (at least 0 decimals), as the tables of
 * bisect print means. */
static void fmt_mean(char *dst, size_t size, double v)
{
	int digits = isfinite(v) && v != 0 ? (int)floor(log10(fabs(v))) + 1 : 1;
	fmt_double(dst, size, v, digits >= 5 ? 0 : 5 - digits);
}

static void fmt_pct(char *dst, size_t size, double pct)
{
	if (isinf(pct))
		snprintf(dst, size, "%sinf %%", pct > 0 ? "+" : "-");
	else
		snprintf(dst, size, "%+.2f %%", pct);
}

/* Why h has no change point. */
static void why_none(struct buf *out, const struct track_history *h, const struct track_result *r,
		     const struct track_opts *o)
{
	if (!r->rejected.index) {
		buf_printf(out, "  no change point: too few runs to test (%zu; a change needs %d on"
			   " either side, at a revision's first run)\n", h->n, TRACK_MIN_SEGMENT);
		return;
	}
	if (r->pruned) {
		buf_printf(out, "  no change point: %zu found, each changing the level by less than"
			   " %g %%\n", r->pruned, o->min_change_pct);
		return;
	}
	size_t i = r->rejected.index;
	buf_printf(out, "  no change point: the likeliest, between %s and %s, has p %.3g > alpha"
		   " %g\n", h->p[i - 1].revision, h->p[i].revision, r->rejected.p, o->alpha);
}

static void history_text(struct buf *out, const struct track_history *h,
			 const struct track_result *r, const struct track_opts *o)
{
	track_history_title(out, h);
	buf_printf(out, ": %zu run(s) of %zu revision(s), %s .. %s, %s\n", h->n, h->n_revisions,
		   h->p[0].revision, h->p[h->n - 1].revision, h->order);
	if (!r->n) {
		why_none(out, h, r, o);
		return;
	}
	size_t wb = strlen("revision before"), wa = strlen("revision after");
	for (size_t k = 0; k < r->n; k++) {
		size_t lb = strlen(h->p[r->c[k].index - 1].revision);
		size_t la = strlen(h->p[r->c[k].index].revision);
		wb = lb > wb ? lb : wb;
		wa = la > wa ? la : wa;
	}
	buf_printf(out, "  %-*s  %-*s  %12s  %12s  %10s  %7s  %s\n", (int)wb, "revision before",
		   (int)wa, "revision after", "mean before", "mean after", "change", "p",
		   "regression");
	for (size_t k = 0; k < r->n; k++) {
		const struct track_change *c = &r->c[k];
		char before[40], after[40], pct[40];
		fmt_mean(before, sizeof(before), c->mean_before);
		fmt_mean(after, sizeof(after), c->mean_after);
		fmt_pct(pct, sizeof(pct), c->change_pct);
		buf_printf(out, "  %-*s  %-*s  %12s  %12s  %10s  %7.3g  %s\n", (int)wb,
			   h->p[c->index - 1].revision, (int)wa, h->p[c->index].revision, before, after,
			   pct, c->p, c->regression ? "yes" : "no");
	}
	if (r->pruned)
		buf_printf(out, "  (%zu more changing the level by less than %g %% dropped)\n",
			   r->pruned, o->min_change_pct);
}

/* The notes of the histories split by host fingerprint: one per split. */
static void split_notes(struct buf *out, const struct track_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct track_history *h = &set->h[i];
		if (h->n_parts < 2 || h->part != 1)
			continue;
		const char *f = h->split_fields ? h->split_fields : "";
		buf_printf(out, "Split: %s variant %s, %s %s%s%s: its runs have %zu host fingerprints"
			   "%s%s%s, so it is %zu histories, one per fingerprint; change points are"
			   " sought within each, never across.\n", h->config, h->variant, h->load,
			   h->metric, *h->op ? " op " : "", h->op, h->n_parts,
			   *f ? " (they differ in " : "", f, *f ? ")" : "", h->n_parts);
	}
}

void track_report_text(struct buf *out, const struct track_set *set,
		       const struct track_result *r, const struct track_opts *o)
{
	for (size_t i = 0; i < set->n; i++) {
		if (i)
			buf_puts(out, "\n");
		history_text(out, &set->h[i], &r[i], o);
	}
	buf_puts(out, "\n");
	split_notes(out, set);
	buf_printf(out, "Change points: E-divisive means (Matteson & James 2014), permutation test"
		   " with %d permutations (seed %llu), alpha %g; a change point that moves the"
		   " level by less than %g %% is dropped. A point is a run (the Amean of its"
		   " samples); a revision's runs are consecutive, and a change begins only at a"
		   " revision's first run, with at least %d runs on either side.\n",
		   o->permutations, (unsigned long long)o->seed, o->alpha, o->min_change_pct,
		   TRACK_MIN_SEGMENT);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *points_json(const struct track_history *h)
{
	json_t *a = json_array();
	for (size_t i = 0; i < h->n; i++) {
		const struct track_point *p = &h->p[i];
		json_t *o = json_object();
		json_object_set_new(o, "run", json_integer(p->run_id));
		json_object_set_new(o, "revision", json_string(p->revision));
		json_object_set_new(o, "kind", p->has_revision ? json_string(revision_kind_name(p->kind))
							      : json_null());
		json_object_set_new(o, "commit", str_or_null(p->commit));
		json_object_set_new(o, "value", json_real(p->value));
		json_object_set_new(o, "n", json_integer((json_int_t)p->n));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *changes_json(const struct track_history *h, const struct track_result *r)
{
	json_t *a = json_array();
	for (size_t k = 0; k < r->n; k++) {
		const struct track_change *c = &r->c[k];
		json_t *o = json_object();
		json_object_set_new(o, "index", json_integer((json_int_t)c->index));
		json_object_set_new(o, "before", json_string(h->p[c->index - 1].revision));
		json_object_set_new(o, "after", json_string(h->p[c->index].revision));
		json_object_set_new(o, "mean_before", json_real(c->mean_before));
		json_object_set_new(o, "mean_after", json_real(c->mean_after));
		json_object_set_new(o, "change_pct", isfinite(c->change_pct) ? json_real(c->change_pct)
									     : json_null());
		json_object_set_new(o, "p", json_real(c->p));
		json_object_set_new(o, "q", json_real(c->q));
		json_object_set_new(o, "regression", json_boolean(c->regression));
		json_array_append_new(a, o);
	}
	return a;
}

void track_report_json(struct buf *out, const struct track_set *set,
		       const struct track_result *r, const struct track_opts *o)
{
	json_t *doc = json_object(), *hs = json_array(), *d = json_object();
	json_object_set_new(d, "method", json_string("E-divisive means (Matteson & James 2014)"));
	json_object_set_new(d, "alpha", json_real(o->alpha));
	json_object_set_new(d, "permutations", json_integer(o->permutations));
	json_object_set_new(d, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(d, "min_change_pct", json_real(o->min_change_pct));
	json_object_set_new(d, "min_segment", json_integer(TRACK_MIN_SEGMENT));
	json_object_set_new(doc, "detector", d);
	for (size_t i = 0; i < set->n; i++) {
		const struct track_history *h = &set->h[i];
		json_t *j = json_object();
		const char *keys[] = {"config", "variant", "cell", "load", "metric", "unit"};
		const char *vals[] = {h->config, h->variant, h->cell, h->load, h->metric, h->unit};
		for (size_t k = 0; k < 6; k++)
			json_object_set_new(j, keys[k], json_string(vals[k]));
		json_object_set_new(j, "better", json_string(better_name(h->better)));
		json_object_set_new(j, "op", json_string(h->op));
		json_object_set_new(j, "host", str_or_null(h->host));
		json_object_set_new(j, "part", json_integer((json_int_t)h->part));
		json_object_set_new(j, "parts", json_integer((json_int_t)h->n_parts));
		json_object_set_new(j, "order", json_string(h->order));
		json_object_set_new(j, "revisions", json_integer((json_int_t)h->n_revisions));
		json_object_set_new(j, "points", points_json(h));
		json_object_set_new(j, "change_points", changes_json(h, &r[i]));
		json_array_append_new(hs, j);
	}
	json_object_set_new(doc, "histories", hs);
	char *text = json_dumps(doc, JSON_INDENT(1));
	buf_puts(out, text);
	buf_puts(out, "\n");
	free(text);
	json_decref(doc);
}
