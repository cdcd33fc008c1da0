#include "bisect_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "bisect_samples.h"
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

char *bisect_report_no_regression(const struct bisect_metric *m, const char *good,
				  const struct bisect_sample_set *g, const char *bad,
				  const struct bisect_sample_set *b, double p, double alpha)
{
	bool higher = g->better == BETTER_HIGHER;
	return xasprintf("No regression to bisect: %s %s:%s op %s, %s %.4g vs %s %.4g (%s),"
			 " Welch's t-test%s p = %.4g >= alpha %g", m->cell, m->load, m->metric,
			 m->op, good, higher ? g->sum.hmean : g->sum.amean, bad,
			 higher ? b->sum.hmean : b->sum.amean, higher ? "Hmean" : "Amean",
			 higher ? " on the reciprocals" : "", p, alpha);
}

/* Run ids of point k, ", "-separated, into b. */
static int point_runs(struct store *st, int64_t id, int k, struct buf *b, char *err, size_t errsz)
{
	struct stored_bisect_run *rows;
	size_t n;
	if (store_bisect_runs(st, id, k, &rows, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (rows[i].run_id)
			buf_printf(b, "%s%lld", b->len ? "," : "", (long long)rows[i].run_id);
	store_bisect_run_rows_free(rows, n);
	return 0;
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
	buf_printf(out, "%4s %4s  %-*s %4s %*s  %-8s %10s %10s  %s\n", "step", "k", (int)w,
		   "point", "n", mean_width("mean ± CI95", 20), "mean ± CI95", "verdict",
		   "p vs good", "p vs bad", "runs");
	struct buf notes = {0};
	int rc = 0;
	for (size_t i = 0; i < n && i < s->n && rc == 0; i++) {
		const struct stored_bisect_point *r = &rows[i];
		if (!r->verdict)
			continue;
		char mean[64], pg[32], pb[32];
		struct buf runs = {0};
		bisect_fmt_mean(mean, sizeof(mean), r->mean, r->ci95_half);
		fmt_p(pg, sizeof(pg), r->p_good);
		fmt_p(pb, sizeof(pb), r->p_bad);
		rc = point_runs(st, bi->id, r->k, &runs, err, errsz);
		buf_printf(out, "%4d %4d  %-*s %4d %*s  %-8s %10s %10s  %s\n", r->decided_seq, r->k,
			   (int)w, s->p[i].name, r->n, mean_width(mean, 20), mean,
			   r->verdict, pg, pb, buf_str(&runs));
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
	char *rule = bisect_rule_describe(bi.alpha, metric_better(st, &bi, &s));
	buf_printf(&prose, "%s\n", rule);
	free(rule);
	mailmsg_fold_lines(out, buf_str(&prose), 78);
	buf_puts(out, "\n");
	buf_free(&prose);
	int rc = step_table(st, &bi, &s, out, err, errsz);
	store_bisection_free(&bi);
	bisect_series_free(&s);
	return rc;
}

/* Append the runs of point k to ids (unless k < 0 or already there). */
static int add_runs(struct store *st, int64_t id, int k, int64_t **ids, size_t *n, char *err,
		    size_t errsz)
{
	struct stored_bisect_run *rows;
	size_t nr;
	if (k < 0)
		return 0;
	if (store_bisect_runs(st, id, k, &rows, &nr, err, errsz))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		bool seen = !rows[i].run_id;
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
 * each, a point may repeat), how many points the bisection has, and
 * whether the ends are decided (not: a flat series, refused). */
static int table_points(struct store *st, int64_t id, int order[4], size_t *np, bool *decided,
			char *err, size_t errsz)
{
	struct stored_bisect_point *rows;
	if (store_bisect_points(st, id, &rows, np, err, errsz))
		return -1;
	struct bisect_search search;
	bisect_search_init(&search, *np);
	for (size_t k = 0; k < *np; k++)
		if (rows[k].verdict)
			search.v[k] = (enum bisect_verdict)bisect_verdict_parse(rows[k].verdict);
	size_t lo, hi;
	bisect_search_window(&search, &lo, &hi);
	*decided = *np && rows[0].verdict;
	order[0] = 0;
	order[1] = (int)lo;
	order[2] = (int)hi;
	order[3] = (int)*np - 1;
	bisect_search_free(&search);
	store_bisect_point_rows_free(rows, *np);
	return 0;
}

/* The run ids of good end / last good / first bad / bad end (each point
 * once), in that order; *ids malloc'd. */
static int table_runs(struct store *st, int64_t id, int64_t **ids, size_t *n, char *err,
		      size_t errsz)
{
	int order[4];
	size_t np;
	bool decided;
	*ids = NULL;
	*n = 0;
	int rc = table_points(st, id, order, &np, &decided, err, errsz);
	for (size_t i = 0; i < 4 && rc == 0; i++)
		rc = add_runs(st, id, order[i], ids, n, err, errsz);
	return rc;
}

/* The line above the table naming each column's role: "Columns: p0 good
 * end, p4 last good, p5 first bad, p8 bad end" (a point in two roles
 * once: "p0 good end and last good"; a refused bisection: its ends). */
static int roles_line(struct store *st, int64_t id, struct buf *out, char *err, size_t errsz)
{
	static const char *const role[] = {"good end", "last good", "first bad", "bad end"};
	struct stored_bisection bi;
	struct bisect_series s = {0};
	int order[4];
	size_t np;
	bool decided;
	if (store_bisect_get(st, id, &bi, &s, err, errsz))
		return -1;
	int rc = table_points(st, bi.id, order, &np, &decided, err, errsz);
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
		if (order[i] == prev)
			buf_printf(out, " and %s", role[i]);
		else
			buf_printf(out, "%s%s %s", prev < 0 ? "Columns: " : ", ",
				   s.p[order[i]].name, role[i]);
		prev = order[i];
	}
	if (rc == 0)
		buf_puts(out, "\n");
	store_bisection_free(&bi);
	bisect_series_free(&s);
	return rc;
}

int bisect_report_select(struct store *st, int64_t id, struct reportcmd *c,
			 struct bisect_report_sel *sel, char *err, size_t errsz)
{
	struct stored_bisection bi;
	int64_t *ids;
	size_t n;
	memset(sel, 0, sizeof(*sel));
	if (store_bisect_get(st, id, &bi, NULL, err, errsz))
		return -1;
	int rc = table_runs(st, bi.id, &ids, &n, err, errsz);
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
	return rc;
}

void bisect_report_sel_free(struct bisect_report_sel *sel)
{
	for (size_t i = 0; i < sel->n_runs; i++)
		free(sel->runs[i]);
	free(sel->runs);
	free(sel->one_run);
	free(sel->load);
	free(sel->metric);
	memset(sel, 0, sizeof(*sel));
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
		if (rc == 0)
			report_notes_text(out, &d.notes);
		reportcmd_data_free(&d);
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
