#include "bisect_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "bisect_runs.h"
#include "bisect_rule.h"
#include "bisect_samples.h"
#include "bisect_verify.h"
#include "store_bisect.h"
#include "mailmsg.h"
#include "report.h"
#include "cmdsetup.h"
#include "reportcmd.h"
#include "summary.h"

/* "%.4g" of v, or "-" for NaN. */
static void fmt_p(char *dst, size_t size, double v)
{
	if (isnan(v))
		snprintf(dst, size, "-");
	else
		snprintf(dst, size, "%.4g", v);
}

void bisect_fmt_mean(char *dst, size_t size, double mean, double ci)
{
	double mag = fabs(mean);
	if (isnan(mean)) {
		snprintf(dst, size, "-");
	} else if (mag != 0 && (mag < 1e-3 || mag >= 1e15)) {
		if (isnan(ci))
			snprintf(dst, size, "%.4g", mean);
		else
			snprintf(dst, size, "%.4g ± %.2g", mean, ci);
	} else {
		int dec = mag == 0 ? 1 : 3 - (int)floor(log10(mag));
		dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
		if (isnan(ci))
			snprintf(dst, size, "%.*f", dec, mean);
		else
			snprintf(dst, size, "%.*f ± %.*f", dec, mean, dec, ci);
	}
}

/* Run ids of point k's phase ph, ","-separated, into b. */
static int point_runs(struct store *st, int64_t id, int k, enum bisect_phase ph, struct buf *b,
		      char *err, size_t errsz)
{
	struct stored_bisect_run *rows;
	size_t n;
	if (store_bisect_runs(st, id, k, &rows, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (rows[i].run_id && !strcmp(rows[i].phase, bisect_phase_name(ph)))
			buf_printf(b, "%s%lld", b->len ? "," : "", (long long)rows[i].run_id);
	store_bisect_run_rows_free(rows, n);
	return 0;
}

/* The checks after the walk, one a line: what, the points, n, means,
 * effect, p, alpha and the outcome; nothing when there are none. */
/* The points a check compares: "p0 walk -> again" (an end against its
 * first measurement) or "p4 -> p5". */
static void check_pair(char *dst, size_t size, const struct bisect_series *s,
		       const struct stored_bisect_check *c)
{
	if (c->k_a == c->k_b)
		snprintf(dst, size, "%s walk -> again", s->p[c->k_a].name);
	else
		snprintf(dst, size, "%s -> %s", s->p[c->k_a].name, s->p[c->k_b].name);
}

static int checks_table(struct store *st, const struct stored_bisection *bi,
			const struct bisect_series *s, struct buf *out, char *err, size_t errsz)
{
	struct stored_bisect_check *rows;
	size_t n;
	if (store_bisect_checks(st, bi->id, &rows, &n, err, errsz))
		return -1;
	int rc = 0, w_what = 0, w_pair = 0;
	char pair[256];
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct stored_bisect_check *c = &rows[i];
		if (c->k_a < 0 || c->k_b < 0 || (size_t)c->k_a >= s->n || (size_t)c->k_b >= s->n) {
			rc = err_printf(err, errsz, "bisection %lld: check %s compares points %d and"
					" %d, not of its series", (long long)bi->id, c->what, c->k_a,
					c->k_b);
			break;
		}
		check_pair(pair, sizeof(pair), s, c);
		if ((int)strlen(c->what) > w_what)
			w_what = (int)strlen(c->what);
		if ((int)strlen(pair) > w_pair)
			w_pair = (int)strlen(pair);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct stored_bisect_check *c = &rows[i];
		if (i == 0)
			buf_printf(out, "Checks after the walk (%d fresh interleaved round(s)):\n",
				   c->rounds);
		char pa[32], pb[32], p[32], al[32];
		fmt_p(pa, sizeof(pa), c->mean_a);
		fmt_p(pb, sizeof(pb), c->mean_b);
		fmt_p(p, sizeof(p), c->p);
		fmt_p(al, sizeof(al), c->alpha);
		check_pair(pair, sizeof(pair), s, c);
		buf_printf(out, "  %-*s %-*s  n %2d/%-2d %10s -> %-10s %+7.2f %%  p %-10s alpha %-10s"
			   " %s\n", w_what, c->what, w_pair, pair, c->n_a, c->n_b, pa, pb,
			   c->effect_pct, p, al, c->outcome);
	}
	store_bisect_check_rows_free(rows, n);
	return rc;
}

static void result_lines(const struct stored_bisection *bi, struct buf *out)
{
	if (bi->result)
		buf_printf(out, "%s\n", bi->result);
	else
		buf_printf(out, "Not finished (%s): schedrig bisect --resume %lld continues it.\n",
			   bi->status, (long long)bi->id);
}

/* The printf width that right-aligns text in cols display columns: each
 * "±" (two bytes, one column) counts one byte more. */
static int mean_width(const char *text, int cols)
{
	int extra = 0;
	for (const char *p = text; (p = strstr(p, "±")); p += strlen("±"))
		extra += (int)strlen("±") - 1;
	return cols + extra;
}

static int step_table(struct store *st, const struct stored_bisection *bi,
		      const struct bisect_series *s, struct buf *out, char *err, size_t errsz)
{
	struct stored_bisect_point *rows;
	size_t n;
	if (store_bisect_points(st, bi->id, &rows, &n, err, errsz))
		return -1;
	size_t w = 5;
	for (size_t i = 0; i < n && i < s->n; i++)
		if (rows[i].verdict && strlen(s->p[i].name) > w)
			w = strlen(s->p[i].name);
	buf_printf(out, "%4s %4s  %-*s %4s %*s  %-8s %10s %10s %10s  %s\n", "step", "k", (int)w,
		   "point", "n", mean_width("mean ± CI95", 20), "mean ± CI95", "verdict",
		   "p vs good", "p vs bad", "alpha", "runs");
	struct buf notes = {0};
	int rc = 0;
	for (size_t i = 0; i < n && i < s->n && rc == 0; i++) {
		const struct stored_bisect_point *r = &rows[i];
		if (!r->verdict)
			continue;
		char mean[64], pg[32], pb[32], al[32];
		struct buf runs = {0};
		bisect_fmt_mean(mean, sizeof(mean), r->mean, r->ci95_half);
		fmt_p(pg, sizeof(pg), r->p_good);
		fmt_p(pb, sizeof(pb), r->p_bad);
		fmt_p(al, sizeof(al), r->alpha);
		rc = point_runs(st, bi->id, r->k, BISECT_PHASE_WALK, &runs, err, errsz);
		buf_printf(out, "%4d %4d  %-*s %4d %*s  %-8s %10s %10s %10s  %s\n", r->decided_seq,
			   r->k, (int)w, s->p[i].name, r->n, mean_width(mean, 20), mean,
			   r->verdict, pg, pb, al, buf_str(&runs));
		buf_free(&runs);
		if (r->reason)
			buf_printf(&notes, "  %s: %s\n", s->p[i].name, r->reason);
	}
	if (notes.len) {
		buf_puts(out, "Notes:\n");
		mailmsg_fold_lines(out, buf_str(&notes), 78);
	}
	buf_free(&notes);
	store_bisect_point_rows_free(rows, n);
	return rc;
}

/* The direction of the bisection's metric, read from its good end's
 * samples; -1 when not known (not decided yet, no samples). */
static int metric_better(struct store *st, const struct stored_bisection *bi,
			 const struct bisect_series *s)
{
	char err[512];
	struct stored_bisect_run *rows;
	size_t n;
	if (!bi->metric || !bi->op || !bi->cell ||
	    store_bisect_runs(st, bi->id, 0, &rows, &n, err, sizeof(err)))
		return -1;
	int64_t *ids = xcalloc(n ? n : 1, sizeof(*ids));
	size_t n_ids = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].run_id)
			ids[n_ids++] = rows[i].run_id;
	store_bisect_run_rows_free(rows, n);
	struct bisect_metric m = {bi->load, bi->metric, bi->op, bi->cell};
	struct bisect_sample_set set;
	int better = -1;
	if (bisect_samples_load(st, ids, n_ids, s->p[0].name, &m, &set, err,
				       sizeof(err)) == 0) {
		better = set.n ? (int)set.better : -1;
		bisect_sample_set_free(&set);
	}
	free(ids);
	return better;
}

int bisect_report_text(struct store *st, int64_t id, struct buf *out, char *err, size_t errsz)
{
	struct stored_bisection bi;
	struct bisect_series s = {0};
	if (store_bisect_get(st, id, &bi, &s, err, errsz))
		return -1;
	buf_printf(out, "Bisection %lld of %s: %zu points (%s), good %s .. bad %s\n",
		   (long long)bi.id, bi.config_path, s.n, bi.kind, bi.good, bi.bad);
	if (bi.metric)
		buf_printf(out, "Metric: %s:%s, op %s, cell %s\n", bi.load, bi.metric,
			   bi.op ? bi.op : "?", bi.cell ? bi.cell : "?");
	/* Prose folded to 78 columns: it reads well on a list. */
	struct buf prose = {0};
	result_lines(&bi, &prose);
	struct bisect_rule rule;
	char why[512];
	if (bisect_stored_rule(&bi, &s, &rule, why, sizeof(why)) == 0) {
		char *text = bisect_rule_describe(&rule, metric_better(st, &bi, &s));
		buf_printf(&prose, "%s\n", text);
		free(text);
	} else {
		buf_printf(&prose, "Rule: not known (%s)\n", why);
	}
	mailmsg_fold_lines(out, buf_str(&prose), 78);
	buf_puts(out, "\n");
	buf_free(&prose);
	int rc = step_table(st, &bi, &s, out, err, errsz);
	if (rc == 0)
		rc = checks_table(st, &bi, &s, out, err, errsz);
	store_bisection_free(&bi);
	bisect_series_free(&s);
	return rc;
}

/* Append the runs of point k to ids (unless already there): its confirm
 * rounds, or its walk runs when it has none; a run that failed without a
 * sample of the metric (bisect_run_measured) has nothing to show. */
static int add_runs(struct store *st, int64_t id, int k, const char *variant,
		    const struct bisect_metric *m, int64_t **ids, size_t *n, char *err, size_t errsz)
{
	struct stored_bisect_run *rows;
	size_t nr;
	if (store_bisect_runs(st, id, k, &rows, &nr, err, errsz))
		return -1;
	const char *phase = "walk";
	for (size_t i = 0; i < nr; i++)
		if (rows[i].run_id && !strcmp(rows[i].phase, "confirm"))
			phase = "confirm";
	for (size_t i = 0; i < nr; i++) {
		bool seen = !rows[i].run_id || strcmp(rows[i].phase, phase) ||
			    !bisect_run_measured(st, rows[i].run_id, variant, m);
		for (size_t j = 0; j < *n && !seen; j++)
			seen = (*ids)[j] == rows[i].run_id;
		if (seen)
			continue;
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = rows[i].run_id;
	}
	store_bisect_run_rows_free(rows, nr);
	return 0;
}

/* The points of the table: good end, last good, first bad, bad end (k of
 * each, a point may repeat; after a between point the span's ends, the
 * last point like the good end and the first like the bad end), how many
 * points the bisection has, and whether the ends are decided (not: a flat
 * series, refused). */
static int table_points(struct store *st, int64_t id, int order[4], size_t *np, bool *decided,
			bool *gradual, char *err, size_t errsz)
{
	struct stored_bisect_point *rows;
	if (store_bisect_points(st, id, &rows, np, err, errsz))
		return -1;
	struct bisect_search search;
	bisect_search_init(&search, *np);
	for (size_t k = 0; k < *np; k++)
		if (rows[k].verdict)
			search.v[k] = (enum bisect_verdict)bisect_verdict_parse(rows[k].verdict);
	struct bisect_result r;
	bisect_search_result(&search, &r);
	*decided = *np && rows[0].verdict;
	*gradual = r.gradual;
	order[0] = 0;
	order[1] = (int)(r.gradual ? r.span_lo : r.last_good);
	order[2] = (int)(r.gradual ? r.span_hi : r.first_bad);
	order[3] = (int)*np - 1;
	bisect_search_free(&search);
	store_bisect_point_rows_free(rows, *np);
	return 0;
}

/* The run ids of good end / last good / first bad / bad end (each point
 * once), in that order, of bisection bi (series s); *ids malloc'd. */
static int table_runs(struct store *st, const struct stored_bisection *bi,
		      const struct bisect_series *s, int64_t **ids, size_t *n, char *err,
		      size_t errsz)
{
	int64_t id = bi->id;
	struct bisect_metric m = {bi->load, bi->metric, bi->op, bi->cell};
	int order[4];
	size_t np;
	bool decided, gradual;
	*ids = NULL;
	*n = 0;
	int rc = table_points(st, id, order, &np, &decided, &gradual, err, errsz);
	if (rc == 0 && np != s->n)
		rc = err_printf(err, errsz, "bisection %lld has %zu points stored, %zu in its series",
				(long long)id, np, s->n);
	for (size_t i = 0; i < 4 && rc == 0; i++)
		rc = add_runs(st, id, order[i], s->p[order[i]].name, &m, ids, n, err, errsz);
	return rc;
}

/* Has point k confirm rounds? */
static bool confirmed_runs(struct store *st, int64_t id, int k)
{
	struct stored_bisect_run *rows;
	size_t n;
	char err[256];
	bool any = false;
	if (store_bisect_runs(st, id, k, &rows, &n, err, sizeof(err)))
		return false;
	for (size_t i = 0; i < n; i++)
		any |= rows[i].run_id && !strcmp(rows[i].phase, "confirm");
	store_bisect_run_rows_free(rows, n);
	return any;
}

/* " (their confirm rounds)" when every column shows its point's confirm
 * rounds, " (confirm rounds of p0, p8; walk runs of the others)" when
 * some do, nothing when none does. */
static void rounds_note(struct store *st, int64_t id, const struct bisect_series *s,
			const int order[4], struct buf *out)
{
	struct buf some = {0};
	size_t columns = 0, with = 0;
	for (int i = 0; i < 4; i++) {
		bool again = false;
		for (int j = 0; j < i; j++)
			again |= order[j] == order[i];
		if (again)
			continue;
		columns++;
		if (confirmed_runs(st, id, order[i])) {
			with++;
			buf_printf(&some, "%s%s", some.len ? ", " : "", s->p[order[i]].name);
		}
	}
	if (with == columns)
		buf_puts(out, " (their confirm rounds)");
	else if (with)
		buf_printf(out, " (confirm rounds of %s; walk runs of the others)", buf_str(&some));
	buf_free(&some);
}

/* The line above the table naming each column's role: "Columns: p0 good
 * end, p4 last good, p5 first bad, p8 bad end" (a point in two roles
 * once: "p0 good end and last good"; a refused bisection: its ends; after
 * a between point "last like good", "first like bad"), and which runs it
 * shows. */
static int roles_line(struct store *st, int64_t id, struct buf *out, char *err, size_t errsz)
{
	static const char *const role[] = {"good end", "last good", "first bad", "bad end"};
	static const char *const span_role[] = {"good end", "last like good", "first like bad",
						"bad end"};
	struct stored_bisection bi;
	struct bisect_series s = {0};
	int order[4];
	size_t np;
	bool decided, gradual;
	if (store_bisect_get(st, id, &bi, &s, err, errsz))
		return -1;
	int rc = table_points(st, bi.id, order, &np, &decided, &gradual, err, errsz);
	if (rc == 0 && (np != s.n || np < 2)) {
		snprintf(err, errsz, "bisection %lld has %zu points stored, %zu in its series",
			 (long long)bi.id, np, s.n);
		rc = -1;
	}
	/* Ends not decided (no regression: refused): only the ends. */
	bool ends_only = !decided;
	for (int i = 0, prev = -1; i < 4 && rc == 0; i++) {
		if (ends_only && (i == 1 || i == 2))
			continue;
		const char *name = gradual ? span_role[i] : role[i];
		if (order[i] == prev)
			buf_printf(out, " and %s", name);
		else
			buf_printf(out, "%s%s %s", prev < 0 ? "Columns: " : ", ",
				   s.p[order[i]].name, name);
		prev = order[i];
	}
	if (rc == 0) {
		rounds_note(st, bi.id, &s, order, out);
		buf_puts(out, "\n");
	}
	store_bisection_free(&bi);
	bisect_series_free(&s);
	return rc;
}

int bisect_report_select(struct store *st, int64_t id, struct reportcmd *c,
			 struct bisect_report_sel *sel, char *err, size_t errsz)
{
	struct stored_bisection bi;
	struct bisect_series s = {0};
	int64_t *ids = NULL;
	size_t n = 0;
	memset(sel, 0, sizeof(*sel));
	if (store_bisect_get(st, id, &bi, &s, err, errsz))
		return -1;
	int rc = table_runs(st, &bi, &s, &ids, &n, err, errsz);
	if (rc == 0 && !c->so.load && !c->so.n_metrics && bi.metric) {
		sel->load = xstrdup(bi.load);
		sel->metric = xstrdup(bi.metric);
		c->so.load = sel->load;
		rc = summary_opts_add_metrics(&c->so, sel->metric, err, errsz);
	}
	if (rc == 0) {
		sel->runs = xcalloc(n ? n : 1, sizeof(*sel->runs));
		for (size_t i = 0; i < n; i++)
			sel->runs[i] = xasprintf("%lld", (long long)ids[i]);
		sel->n_runs = n;
		sel->one_run = xasprintf("bisection %lld", (long long)bi.id);
		c->runs = sel->runs;
		c->n_runs = n;
		c->one_run = sel->one_run;
		c->so.columns = AXIS_VARIANT;
	}
	free(ids);
	store_bisection_free(&bi);
	bisect_series_free(&s);
	return rc;
}

void bisect_report_sel_free(struct bisect_report_sel *sel)
{
	strv_free(sel->runs, sel->n_runs);
	free(sel->one_run);
	free(sel->load);
	free(sel->metric);
	memset(sel, 0, sizeof(*sel));
}

/* The run of an "Order (run ID): TEXT" note, *text pointing at TEXT; 0
 * for any other note. */
static long long order_run(const char *note, const char **text)
{
	static const char prefix[] = "Order (run ";
	if (strncmp(note, prefix, strlen(prefix)))
		return 0;
	char *end;
	long long id = strtoll(note + strlen(prefix), &end, 10);
	if (strncmp(end, "): ", 3))
		return 0;
	*text = end + 3;
	return id;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* ids (n, ascending) as "9-28, 31" into b. */
static void id_ranges(struct buf *b, const long long *ids, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && ids[j] == ids[j - 1] + 1; j++)
			;
		buf_printf(b, "%s%lld", i ? ", " : "", ids[i]);
		if (j - i > 1)
			buf_printf(b, "-%lld", ids[j - 1]);
	}
}

/* Is run_id one of bisection id's confirm rounds? */
static bool confirm_run(const struct stored_bisect_run *runs, size_t n, long long run_id)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].run_id == run_id && !strcmp(runs[i].phase, "confirm"))
			return true;
	return false;
}

/* The notes with every "Order (run ID): TEXT" of one TEXT made one "Order
 * (runs 9-28, 31): TEXT" at the first one's place: the confirm's rounds are
 * a run each, interleaved. A walk run (not one of runs' confirm rounds)
 * measured its point's iterations together: its note says so instead. */
static const struct report_notes *collapse_orders(struct report_notes *n,
						  const struct stored_bisect_run *runs,
						  size_t n_runs)
{
	for (size_t i = 0; i < n->n; i++) {
		const char *text;
		long long id = order_run(n->v[i], &text);
		if (id && !confirm_run(runs, n_runs, id)) {
			free(n->v[i]);
			n->v[i] = xasprintf("Order (run %lld): blocked (a walk run: its point's"
					    " iterations together)", id);
		}
	}
	for (size_t i = 0; i < n->n; i++) {
		const char *text;
		long long id = order_run(n->v[i], &text);
		if (!id)
			continue;
		char *want = xstrdup(text);
		long long *ids = xcalloc(n->n, sizeof(*ids));
		size_t n_ids = 0, kept = i + 1;
		ids[n_ids++] = id;
		for (size_t j = i + 1; j < n->n; j++) {
			if ((id = order_run(n->v[j], &text)) && !strcmp(text, want)) {
				ids[n_ids++] = id;
				free(n->v[j]);
			} else {
				n->v[kept++] = n->v[j];
			}
		}
		n->n = kept;
		if (n_ids > 1) {
			struct buf runs = {0};
			qsort(ids, n_ids, sizeof(*ids), cmp_ll);
			id_ranges(&runs, ids, n_ids);
			free(n->v[i]);
			n->v[i] = xasprintf("Order (runs %s): %s", buf_str(&runs), want);
			buf_free(&runs);
		}
		free(ids);
		free(want);
	}
	return n;
}

/* Has the good end of bisection id a run at all? */
static bool good_end_ran(struct store *st, int64_t id)
{
	struct stored_bisect_run *rows;
	size_t n;
	char err[256];
	bool any = false;
	if (store_bisect_runs(st, id, 0, &rows, &n, err, sizeof(err)))
		return false;
	for (size_t i = 0; i < n; i++)
		any |= rows[i].run_id != 0;
	store_bisect_run_rows_free(rows, n);
	return any;
}

int bisect_report_table(struct store *st, const char *db, int64_t id, struct buf *out,
			char *err, size_t errsz)
{
	struct reportcmd c;
	struct reportcmd_data d;
	struct bisect_report_sel sel;
	/* The table reads through st, which the caller keeps open. */
	struct cmd_ctx ctx = {.name = "bisect", .setup = CMD_STORE_READ, .st = st};
	reportcmd_init(&c, &ctx);
	c.db = db;
	int rc = bisect_report_select(st, id, &c, &sel, err, errsz) ? -1 : 0;
	if (rc == 0 && sel.n_runs) {
		rc = reportcmd_prepare(&c, false, &d);
		if (rc)
			snprintf(err, errsz, "no table of the points of bisection %lld (why: above)",
				 (long long)id);
		const struct report_input in = {.s = &d.s, .o = &c.ro, .notes = &d.notes};
		if (rc == 0)
			rc = roles_line(st, id, out, err, errsz);
		if (rc == 0)
			rc = report_layout_find(REPORT_LAYOUT_DEFAULT)->text(out, &in, err, errsz);
		struct stored_bisect_run *runs = NULL;
		size_t n_runs = 0;
		if (rc == 0)
			rc = store_bisect_runs(st, id, -1, &runs, &n_runs, err, errsz);
		if (rc == 0)
			report_notes_text(out, collapse_orders(&d.notes, runs, n_runs));
		store_bisect_run_rows_free(runs, n_runs);
		reportcmd_data_free(&d);
	} else if (rc == 0 && good_end_ran(st, id)) {
		buf_printf(out, "No table of the points of bisection %lld: no run of theirs measured"
			   " the metric\n", (long long)id);
	}
	bisect_report_sel_free(&sel);
	reportcmd_free(&c);
	return rc;
}

int bisect_report_print(struct store *st, const char *db, int64_t id, char *err, size_t errsz)
{
	struct buf out = {0};
	int rc = bisect_report_text(st, id, &out, err, errsz);
	if (rc == 0)
		fputs(buf_str(&out), stdout);
	buf_free(&out);
	if (rc == 0)
		rc = bisect_report_table(st, db, id, &out, err, errsz);
	if (rc == 0 && out.len)
		printf("\n%s", buf_str(&out));
	buf_free(&out);
	return rc;
}
