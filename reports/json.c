/* JSON of the summaries, built with jansson. */
#include "report.h"

#include <math.h>
#include <stdlib.h>

#include <jansson.h>

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *group_json(const struct summary_table *t, size_t op, size_t c)
{
	const struct summary_group *g = summary_group_at(t, op, c);
	const struct stats_summary *st = &g->st;
	const struct summary_stat mean = {STAT_MEAN, 0};
	json_t *o = json_object();
	json_object_set_new(o, "op", json_string(t->ops[op]));
	json_object_set_new(o, "column", json_string(t->cols[c]));
	json_object_set_new(o, "n", json_integer((json_int_t)st->n));
	json_object_set_new(o, "n_nan", json_integer((json_int_t)g->n_nan));
	json_object_set_new(o, "min", num(st->min));
	json_object_set_new(o, "max", num(st->max));
	json_object_set_new(o, "amean", num(st->amean));
	json_object_set_new(o, "hmean", num(st->hmean));
	json_object_set_new(o, "gmean", num(st->gmean));
	json_object_set_new(o, "median", num(st->median));
	json_object_set_new(o, "stddev", num(st->stddev));
	json_object_set_new(o, "coeffvar", num(st->coeffvar));
	json_object_set_new(o, "bamean_50", num(st->bamean50));
	json_object_set_new(o, "bamean_95", num(st->bamean95));
	json_object_set_new(o, "bamean_99", num(st->bamean99));
	json_object_set_new(o, "hstddev", num(st->hstddev));
	json_object_set_new(o, "hcoeffvar", num(st->hcoeffvar));
	json_object_set_new(o, "bhmean_50", num(st->bhmean50));
	json_object_set_new(o, "bhmean_95", num(st->bhmean95));
	json_object_set_new(o, "bhmean_99", num(st->bhmean99));
	json_object_set_new(o, "sem", num(st->sem));
	json_object_set_new(o, "ci95_half", num(st->ci95_half));
	char label[32];
	summary_stat_label(&mean, t->better, label, sizeof(label));
	json_object_set_new(o, "mean_stat", json_string(label));
	json_object_set_new(o, "pct_mean", num(c ? report_pct(t, &mean, op, c) : isnan(st->amean) ? NAN : 0.0));
	if (c && g->test.valid) {
		json_object_set_new(o, "p_value", num(g->test.p));
		json_object_set_new(o, "significant", json_boolean(g->test.significant));
		json_object_set_new(o, "n_too_small", json_boolean(g->test.too_small));
	} else {
		json_object_set_new(o, "p_value", json_null());
		json_object_set_new(o, "significant", json_null());
		json_object_set_new(o, "n_too_small", json_null());
	}
	return o;
}

int report_json(struct buf *out, const struct summary *s, const struct report_opts *o,
		const struct report_notes *notes)
{
	(void)o;
	json_t *root = json_object();
	json_object_set_new(root, "columns", json_string(summary_axis_name(s->columns)));
	json_object_set_new(root, "significance", json_string(stats_significance_name(s->significance)));
	json_object_set_new(root, "alpha", json_real(s->alpha));
	json_t *tables = json_array();
	for (size_t k = 0; k < s->n_tables; k++) {
		const struct summary_table *t = &s->tables[k];
		json_t *jt = json_object();
		json_object_set_new(jt, "load", json_string(t->load));
		json_object_set_new(jt, "metric", json_string(t->metric));
		json_object_set_new(jt, "unit", json_string(t->unit));
		json_object_set_new(jt, "better", json_string(better_name(t->better)));
		if (t->run)
			json_object_set_new(jt, "run", json_string(t->run));
		if (t->variant)
			json_object_set_new(jt, "variant", json_string(t->variant));
		if (t->cell)
			json_object_set_new(jt, "cell", json_string(t->cell));
		json_t *cols = json_array(), *ops = json_array(), *groups = json_array();
		for (size_t c = 0; c < t->n_cols; c++)
			json_array_append_new(cols, json_string(t->cols[c]));
		for (size_t op = 0; op < t->n_ops; op++) {
			json_array_append_new(ops, json_string(t->ops[op]));
			for (size_t c = 0; c < t->n_cols; c++)
				json_array_append_new(groups, group_json(t, op, c));
		}
		json_object_set_new(jt, "columns", cols);
		json_object_set_new(jt, "ops", ops);
		json_object_set_new(jt, "groups", groups);
		json_array_append_new(tables, jt);
	}
	json_object_set_new(root, "tables", tables);
	json_t *jnotes = json_array();
	for (size_t i = 0; notes && i < notes->n; i++)
		json_array_append_new(jnotes, json_string(notes->v[i]));
	json_object_set_new(root, "notes", jnotes);
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (!text)
		return -1;
	buf_puts(out, text);
	buf_puts(out, "\n");
	free(text);
	return 0;
}
