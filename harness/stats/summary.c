#include "summary.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "util.h"

static const char *const axis_names[] = { "variant", "cell", "run" };

const char *summary_axis_name(enum summary_axis a)
{
	return name_at(axis_names, AXIS_RUN + 1, (unsigned)a);
}

int summary_axis_parse(const char *s)
{
	return name_index(axis_names, AXIS_RUN + 1, s);
}

void summary_opts_init(struct summary_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->columns = -1;
	o->significance = SIG_WELCH;
	o->alpha = 0.05;
}

int summary_opts_add_metrics(struct summary_opts *o, const char *arg, char *err, size_t errsz)
{
	size_t n = 0;
	for (const char *p = arg;; p += strcspn(p, ",") + 1) {
		if (!p[0] || p[0] == ',') {
			snprintf(err, errsz, "--metric: an empty metric name in '%s'", arg);
			return -1;
		}
		n++;
		if (!p[strcspn(p, ",")])
			break;
	}
	if (o->n_metrics == SUMMARY_MAX_FILTERS ||
	    o->n_metric_names + n > SUMMARY_MAX_FILTERS) {
		snprintf(err, errsz, "--metric: at most %d metrics", SUMMARY_MAX_FILTERS);
		return -1;
	}
	o->metrics[o->n_metrics++] = arg;
	o->n_metric_names += n;
	return 0;
}

/* One --metric name: len characters at p. */
struct metric_name {
	const char *p;
	size_t len;
};

/* Every --metric name of o in order into out; returns the count. */
static size_t metric_names(const struct summary_opts *o, struct metric_name *out)
{
	size_t n = 0;
	for (size_t i = 0; i < o->n_metrics; i++)
		for (const char *p = o->metrics[i]; n < SUMMARY_MAX_FILTERS; p += out[n - 1].len + 1) {
			out[n].p = p;
			out[n].len = strcspn(p, ",");
			if (!p[out[n++].len])
				break;
		}
	return n;
}

/* One (run, variant, cell, load, metric, unit, better, op) while grouping.
 * Strings are interned in the sample_table, so pointers compare for
 * equality; better is keyed by its static name (better_name). */
enum { K_RUN, K_VARIANT, K_CELL, K_LOAD, K_METRIC, K_UNIT, K_BETTER, K_OP, N_KEYS };

struct raw_group {
	const char *key[N_KEYS];
	const char *tool;
	enum better better;
	bool skip;         /* filtered out: an interval series by default */
	double *v;
	size_t n, cap, n_nan;
	int last_iteration;     /* of the group's latest sample */
	bool shares_iteration;  /* summary_group.shares_iteration */
};

struct group_map {
	struct raw_group *g;
	size_t n, cap;
	size_t *slot;      /* open addressing: index + 1, 0 empty */
	size_t slot_cap;
};

static uint64_t key_hash(const char *const *key)
{
	uint64_t h = FNV1A_OFFSET_BASIS;
	for (int i = 0; i < N_KEYS; i++) {
		h = fnv1a_step(h, (uint64_t)(uintptr_t)key[i]);
		h ^= h >> 29;
	}
	return h;
}

static void map_rehash(struct group_map *m)
{
	size_t cap = m->slot_cap ? m->slot_cap * 2 : 64;
	free(m->slot);
	m->slot = xcalloc(cap, sizeof(*m->slot));
	m->slot_cap = cap;
	for (size_t i = 0; i < m->n; i++) {
		size_t j = key_hash(m->g[i].key) & (cap - 1);
		while (m->slot[j])
			j = (j + 1) & (cap - 1);
		m->slot[j] = i + 1;
	}
}

static struct raw_group *map_get(struct group_map *m, const char *const *key)
{
	if ((m->n + 1) * 2 > m->slot_cap)
		map_rehash(m);
	size_t j = key_hash(key) & (m->slot_cap - 1);
	while (m->slot[j]) {
		struct raw_group *g = &m->g[m->slot[j] - 1];
		if (!memcmp(g->key, key, sizeof(g->key)))
			return g;
		j = (j + 1) & (m->slot_cap - 1);
	}
	m->g = xgrow(m->g, &m->cap, m->n, 64, sizeof(*m->g));
	struct raw_group *g = &m->g[m->n];
	memset(g, 0, sizeof(*g));
	memcpy(g->key, key, sizeof(g->key));
	m->slot[j] = ++m->n;
	return g;
}

/* First-appearance order of distinct interned strings. */
struct order {
	const char **v;
	size_t n, cap;
};

static size_t order_index(struct order *o, const char *s, bool add)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->v[i] == s)
			return i;
	if (!add)
		return SIZE_MAX;
	o->v = xgrow(o->v, &o->cap, o->n, 8, sizeof(*o->v));
	o->v[o->n] = s;
	return o->n++;
}

static int col_key(enum summary_axis a)
{
	return a == AXIS_VARIANT ? K_VARIANT : a == AXIS_CELL ? K_CELL : K_RUN;
}

/* The driver of a row: its stored tool, or for imported rows (tool
 * "imported" or unknown) a driver named like the load. */
static const char *row_tool(const struct sample_row *r)
{
	if (r->tool && load_find(r->tool))
		return r->tool;
	return load_find(r->load) ? r->load : NULL;
}

/* Index of metric among o's --metric names, or -1. */
static int metric_filter(const struct summary_opts *o, const char *metric)
{
	struct metric_name names[SUMMARY_MAX_FILTERS];
	size_t n = metric_names(o, names);
	for (size_t k = 0; k < n; k++)
		if (strlen(metric) == names[k].len && !memcmp(names[k].p, metric, names[k].len))
			return (int)k;
	return -1;
}

/* Mark in matched every --metric name equal to metric (a name given twice
 * is matched twice); false when none is. */
static bool metric_match(const struct summary_opts *o, const char *metric, bool *matched)
{
	struct metric_name names[SUMMARY_MAX_FILTERS];
	size_t n = metric_names(o, names);
	bool any = false;
	for (size_t k = 0; k < n; k++)
		if (strlen(metric) == names[k].len && !memcmp(names[k].p, metric, names[k].len))
			any = matched[k] = true;
	return any;
}

bool summary_opts_selects(const struct summary_opts *o, const char *load, const char *metric)
{
	return (!o->load || !strcmp(load, o->load)) && (!o->n_metrics || metric_filter(o, metric) >= 0);
}

/* A new group's filter state: the --metric names it matches (marked in
 * matched), or without filters an interval series left out of headline
 * tables. */
static void group_filter(struct raw_group *g, const struct summary_opts *o, bool *matched)
{
	if (o->n_metrics) {
		g->skip = !metric_match(o, g->key[K_METRIC], matched);
		return;
	}
	const struct metric_def *md = load_metric(g->tool, g->key[K_METRIC]);
	g->skip = o->headline_only && md && md->series;
}

/* Mark the --metric names that name a stored histogram's metric (of a
 * load --load passes); true when there is one. */
static bool hist_match(const struct summary_opts *o, bool *matched)
{
	bool any = false;
	for (size_t i = 0; o->n_metrics && o->hists && i < o->hists->n; i++) {
		const struct hist_row *r = &o->hists->rows[i];
		if (!o->load || !strcmp(r->load, o->load))
			any = metric_match(o, r->metric, matched) || any;
	}
	return any;
}

/* true when o's selected histograms hold more than one variant, or one
 * other than first (NULL: none yet). */
static bool hist_more_variants(const struct summary_opts *o, const char *first)
{
	for (size_t i = 0; o->n_metrics && o->hists && i < o->hists->n; i++) {
		const struct hist_row *r = &o->hists->rows[i];
		if (!summary_opts_selects(o, r->load, r->metric))
			continue;
		if (!first)
			first = r->variant;
		else if (strcmp(first, r->variant))
			return true;
	}
	return false;
}

/* true when a selected histogram has name on column axis a. */
static bool hist_has_column(const struct summary_opts *o, enum summary_axis a, const char *name)
{
	for (size_t i = 0; o->n_metrics && o->hists && i < o->hists->n; i++) {
		const struct hist_row *r = &o->hists->rows[i];
		const char *v = a == AXIS_VARIANT ? r->variant : a == AXIS_CELL ? r->cell : r->run;
		if (summary_opts_selects(o, r->load, r->metric) && !strcmp(v, name))
			return true;
	}
	return false;
}

/* Metric names for a message, each once, in first appearance. */
struct name_list {
	const char **v;
	size_t n;
};

static void name_list_add(struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = name;
}

/* "--metric X matches no metric (the runs hold: a, b)" for the first
 * filter not matched; the list names the samples' metrics, then those of
 * the stored histograms (o->hists). */
static int unmatched_metric(const struct summary_opts *o, const bool *matched,
			    const struct group_map *m, char *err, size_t errsz)
{
	struct metric_name want[SUMMARY_MAX_FILTERS];
	size_t n_want = metric_names(o, want);
	for (size_t k = 0; k < n_want; k++) {
		if (matched[k])
			continue;
		struct name_list names = {0};
		struct buf b = {0};
		for (size_t i = 0; i < m->n; i++)
			name_list_add(&names, m->g[i].key[K_METRIC]);
		for (size_t i = 0; o->hists && i < o->hists->n; i++)
			if (!o->load || !strcmp(o->hists->rows[i].load, o->load))
				name_list_add(&names, o->hists->rows[i].metric);
		for (size_t i = 0; i < names.n; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", names.v[i]);
		snprintf(err, errsz, "--metric %.*s matches no metric%s (the selected runs hold: %s)",
			 (int)want[k].len, want[k].p, o->load ? " of --load" : "",
			 b.len ? buf_str(&b) : "none");
		free(names.v);
		buf_free(&b);
		return -1;
	}
	return 0;
}

/* True when s is a decimal number (an op such as "16" or "1.5"). */
static bool numeric_op(const char *s)
{
	double v;
	return *s && parse_double(s, &v) && isfinite(v);
}

static int cmp_op_numeric(const void *a, const void *b)
{
	double x = strtod(*(const char *const *)a, NULL), y = strtod(*(const char *const *)b, NULL);
	return (x > y) - (x < y);
}

/* Ops in numeric order when every one is a number (mmtests orders
 * hackbench groups, netperf sizes, dbench clients so); else as found. */
static void order_ops(struct order *ops)
{
	for (size_t i = 0; i < ops->n; i++)
		if (!numeric_op(ops->v[i]))
			return;
	qsort(ops->v, ops->n, sizeof(*ops->v), cmp_op_numeric);
}

/* The one pass over the rows: each value of o's load goes to the group
 * of its key in m, filters marking matched; variants gets the variants of
 * groups not skipped, in first appearance. Returns the number of samples
 * kept (NaN included). */
static size_t group_rows(const struct sample_table *t, const struct summary_opts *o,
			 struct group_map *m, struct order *variants, bool *matched)
{
	size_t n_samples = 0;
	const char *last_key[N_KEYS] = {0};
	struct raw_group *last = NULL;
	for (size_t i = 0; i < t->n; i++) {
		const struct sample_row *r = &t->rows[i];
		if (o->load && strcmp(r->load, o->load))
			continue;
		const char *key[N_KEYS] = { r->run, r->variant, r->cell, r->load, r->metric,
					    r->unit, better_name(r->better), r->op };
		struct raw_group *g;
		if (last && !memcmp(key, last_key, sizeof(key))) {
			g = last;
		} else {
			size_t before = m->n;
			g = map_get(m, key);
			memcpy(last_key, key, sizeof(key));
			if (m->n != before) {
				g->better = r->better;
				g->tool = row_tool(r);
				group_filter(g, o, matched);
			}
			if (!g->skip)
				order_index(variants, r->variant, true);
		}
		last = g; /* valid until the next map_get, which reassigns it */
		if (g->skip)
			continue;
		g->shares_iteration |= g->n + g->n_nan > 0 && r->iteration == g->last_iteration;
		g->last_iteration = r->iteration;
		n_samples++;
		if (isnan(r->value)) {
			g->n_nan++;
			continue;
		}
		g->v = xgrow(g->v, &g->cap, g->n, 8, sizeof(*g->v));
		g->v[g->n++] = r->value;
	}
	return n_samples;
}

/* The columns of every table in first appearance of their key ck, the
 * baseline (o->baseline) moved first. -1 with err when no column of axis
 * is the baseline and no selected histogram has it either. */
static int order_columns(const struct group_map *m, int ck, const struct summary_opts *o,
			 enum summary_axis axis, struct order *cols, char *err, size_t errsz)
{
	for (size_t i = 0; i < m->n; i++)
		if (!m->g[i].skip)
			order_index(cols, m->g[i].key[ck], true);
	if (!o->baseline || !m->n)
		return 0;
	size_t b = SIZE_MAX;
	for (size_t i = 0; i < cols->n; i++)
		if (!strcmp(cols->v[i], o->baseline))
			b = i;
	/* Only histograms to show: report_hist_groups moves it first. */
	bool hist_only = !cols->n && hist_has_column(o, axis, o->baseline);
	if (b == SIZE_MAX && !hist_only) {
		snprintf(err, errsz, "--baseline: no %s named '%s'", summary_axis_name(axis),
			 o->baseline);
		return -1;
	}
	if (b != SIZE_MAX) {
		const char *base = cols->v[b];
		memmove(cols->v + 1, cols->v, b * sizeof(*cols->v));
		cols->v[0] = base;
	}
	return 0;
}

/* The table of group g, ck its column key: out's table of the same load,
 * metric, unit, better and fixed dimensions, else a new one (tcap: the
 * capacity of out->tables). */
static size_t table_for(struct summary *out, size_t *tcap, const struct raw_group *g, int ck)
{
	size_t k;
	for (k = 0; k < out->n_tables; k++) {
		struct summary_table *tb = &out->tables[k];
		if (tb->load == g->key[K_LOAD] && tb->metric == g->key[K_METRIC] &&
		    tb->unit == g->key[K_UNIT] && tb->better == g->better &&
		    (ck == K_RUN || tb->run == g->key[K_RUN]) &&
		    (ck == K_VARIANT || tb->variant == g->key[K_VARIANT]) &&
		    (ck == K_CELL || tb->cell == g->key[K_CELL]))
			return k;
	}
	out->tables = xgrow(out->tables, tcap, out->n_tables, 8, sizeof(*out->tables));
	struct summary_table *tb = &out->tables[out->n_tables++];
	memset(tb, 0, sizeof(*tb));
	tb->load = g->key[K_LOAD];
	tb->metric = g->key[K_METRIC];
	tb->unit = g->key[K_UNIT];
	tb->tool = g->tool;
	tb->better = g->better;
	const struct metric_def *md = load_metric(g->tool, tb->metric);
	tb->decimals = md ? md->decimals : 2;
	tb->run = ck == K_RUN ? NULL : g->key[K_RUN];
	tb->variant = ck == K_VARIANT ? NULL : g->key[K_VARIANT];
	tb->cell = ck == K_CELL ? NULL : g->key[K_CELL];
	return k;
}

/* Tables in first appearance of (load, metric, unit, better, fixed
 * dimensions): samples of one metric in two units or directions (CSV
 * imports, runs of different driver versions) are two tables, each
 * labelled with its own. Returns each group's table (SIZE_MAX: skipped),
 * malloc'd. */
static size_t *assign_tables(const struct group_map *m, int ck, struct summary *out)
{
	size_t *table_of = xcalloc(m->n ? m->n : 1, sizeof(*table_of));
	size_t tcap = 0;
	for (size_t i = 0; i < m->n; i++)
		table_of[i] = m->g[i].skip ? SIZE_MAX : table_for(out, &tcap, &m->g[i], ck);
	return table_of;
}

/* Each table's columns (global order cols, present in the table, the
 * baseline always) and ops, and its grid of groups. */
static void table_layout(struct summary *out, const struct group_map *m, const size_t *table_of,
			 struct order *cols, int ck, bool baseline)
{
	for (size_t k = 0; k < out->n_tables; k++) {
		struct summary_table *tb = &out->tables[k];
		bool *present = xcalloc(cols->n ? cols->n : 1, sizeof(*present));
		struct order ops = {0};
		for (size_t i = 0; i < m->n; i++) {
			if (table_of[i] != k)
				continue;
			present[order_index(cols, m->g[i].key[ck], false)] = true;
			order_index(&ops, m->g[i].key[K_OP], true);
		}
		order_ops(&ops);
		if (baseline)
			present[0] = true;
		tb->cols = xcalloc(cols->n ? cols->n : 1, sizeof(*tb->cols));
		for (size_t c = 0; c < cols->n; c++)
			if (present[c])
				tb->cols[tb->n_cols++] = cols->v[c];
		free(present);
		tb->ops = ops.v;
		tb->n_ops = ops.n;
		tb->g = xcalloc(tb->n_ops * tb->n_cols, sizeof(*tb->g));
	}
}

/* Move each group's values into its table slot and summarise it. */
static void fill_groups(struct summary *out, struct group_map *m, const size_t *table_of, int ck)
{
	for (size_t i = 0; i < m->n; i++) {
		struct raw_group *g = &m->g[i];
		if (table_of[i] == SIZE_MAX)
			continue;
		struct summary_table *tb = &out->tables[table_of[i]];
		size_t op = 0, col = 0;
		while (tb->ops[op] != g->key[K_OP])
			op++;
		while (tb->cols[col] != g->key[ck])
			col++;
		struct summary_group *sg = summary_group_at(tb, op, col);
		sg->sorted = g->v;
		sg->n_nan = g->n_nan;
		sg->shares_iteration = g->shares_iteration;
		g->v = NULL;
		stats_sort(sg->sorted, g->n);
		stats_summarise(sg->sorted, g->n, tb->better, &sg->st);
	}
}

/* Summaries of empty slots, and each column's test against column 0. */
static void compare_columns(struct summary *out, const struct summary_opts *o)
{
	for (size_t k = 0; k < out->n_tables; k++) {
		struct summary_table *tb = &out->tables[k];
		for (size_t op = 0; op < tb->n_ops; op++) {
			struct summary_group *base = summary_group_at(tb, op, 0);
			if (!base->sorted)
				stats_summarise(NULL, 0, tb->better, &base->st);
			for (size_t c = 0; c < tb->n_cols; c++) {
				struct summary_group *sg = summary_group_at(tb, op, c);
				if (!sg->sorted && c)
					stats_summarise(NULL, 0, tb->better, &sg->st);
				/* Welch's t = (difference of means) / 0 when neither
				 * side varies: undefined, so no test and no star
				 * (mmtests calc_welch_test divides by zero there). */
				sg->zero_variance = c && o->significance == SIG_WELCH &&
						    base->st.n >= 2 && sg->st.n >= 2 &&
						    base->st.stddev == 0 && sg->st.stddev == 0;
				if (c && !sg->zero_variance)
					stats_compare(o->significance, o->alpha, tb->better, base->sorted,
						      &base->st, sg->sorted, &sg->st, &sg->test);
				else
					stats_compare(SIG_NONE, o->alpha, tb->better, NULL, NULL, NULL,
						      NULL, &sg->test);
			}
		}
	}
}

int summary_build(const struct sample_table *t, const struct summary_opts *o,
		  struct summary *out, char *err, size_t errsz)
{
	struct group_map m = {0};
	struct order variants = {0}, cols = {0};
	bool matched[SUMMARY_MAX_FILTERS] = {false};
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->significance = o->significance;
	out->alpha = o->alpha;
	out->n_samples = group_rows(t, o, &m, &variants, matched);
	out->hists_selected = hist_match(o, matched);
	if (unmatched_metric(o, matched, &m, err, errsz))
		goto out;

	enum summary_axis axis = o->columns >= 0 ? (enum summary_axis)o->columns
				 : variants.n > 1 ||
				   hist_more_variants(o, variants.n ? variants.v[0] : NULL)
				 ? AXIS_VARIANT : AXIS_CELL;
	out->columns = axis;
	int ck = col_key(axis);
	if (order_columns(&m, ck, o, axis, &cols, err, errsz))
		goto out;
	size_t *table_of = assign_tables(&m, ck, out);
	table_layout(out, &m, table_of, &cols, ck, o->baseline != NULL);
	fill_groups(out, &m, table_of, ck);
	compare_columns(out, o);
	free(table_of);
	rc = 0;
out:
	for (size_t i = 0; i < m.n; i++)
		free(m.g[i].v);
	free(m.g);
	free(m.slot);
	free(variants.v);
	free(cols.v);
	if (rc)
		summary_free(out);
	return rc;
}

void summary_free(struct summary *s)
{
	for (size_t k = 0; k < s->n_tables; k++) {
		struct summary_table *tb = &s->tables[k];
		for (size_t i = 0; i < tb->n_ops * tb->n_cols; i++)
			free(tb->g[i].sorted);
		free(tb->g);
		free(tb->cols);
		free(tb->ops);
	}
	free(s->tables);
	memset(s, 0, sizeof(*s));
}

void summary_table_title(struct buf *out, const struct summary *s, const struct summary_table *t)
{
	(void)s;
	buf_printf(out, "%s %s (%s%s%s is better)", t->load, t->metric, t->unit, *t->unit ? ", " : "",
		   better_name(t->better));
	if (t->variant)
		buf_printf(out, ", variant %s", t->variant);
	if (t->cell)
		buf_printf(out, ", cell %s", *t->cell ? t->cell : "(none)");
	if (t->run)
		buf_printf(out, ", run %s", t->run);
}
