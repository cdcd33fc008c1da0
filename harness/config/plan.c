#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct axis {
	const struct cfg_load *load;
	const struct cfg_setting *setting;
	bool is_sched;
};

static int axis_cmp(const void *a, const void *b)
{
	const struct axis *x = a, *y = b;
	if (x->setting->line != y->setting->line)
		return x->setting->line < y->setting->line ? -1 : 1;
	return (x->setting->col > y->setting->col) - (x->setting->col < y->setting->col);
}

/* The value the cell uses for a setting: the axis position for axes, the
 * single value otherwise. */
static const char *setting_value(const struct cfg_setting *s, const struct axis *axes,
				 size_t n_axes, const size_t *pos)
{
	for (size_t a = 0; a < n_axes; a++)
		if (axes[a].setting == s)
			return s->values[pos[a]].text;
	return s->values[0].text;
}

static int build_instance(const struct experiment *e, const struct cfg_load *l,
			  const struct axis *axes, size_t n_axes, const size_t *pos,
			  struct plan_instance *pi, char *err, size_t errsz)
{
	const struct load_ops *ops = l->ops;
	char msg[512];

	pi->load = l;
	pi->values = xcalloc(ops->n_params ? ops->n_params : 1, sizeof(*pi->values));
	for (size_t i = 0; i < ops->n_params; i++) {
		pi->values[i].name = ops->params[i].name;
		pi->values[i].value = ops->params[i].default_value;
		for (size_t k = 0; k < l->n_params; k++)
			if (!strcmp(l->params[k].key, ops->params[i].name))
				pi->values[i].value = setting_value(&l->params[k], axes, n_axes, pos);
	}
	pi->params = (struct params){ops->n_params, pi->values};

	for (size_t k = 0; k < l->n_sched; k++) {
		const char *v = setting_value(&l->sched[k], axes, n_axes, pos);
		if (sched_req_set(&pi->sched, l->sched[k].key, v, msg, sizeof(msg)))
			goto out_fail;
	}
	if (sched_req_check(&pi->sched, msg, sizeof(msg)))
		goto out_fail;
	bool background = l->role == ROLE_BACKGROUND;
	if ((ops->check && ops->check(&pi->params, &pi->sched, background, msg, sizeof(msg))) ||
	    (ops->until_stopped_param &&
	     params_check_ends(&pi->params, ops->until_stopped_param, background, msg, sizeof(msg))))
		goto out_fail;
	sched_req_render(&pi->sched, pi->sched_text, sizeof(pi->sched_text));
	if (load_build_argv(ops, &pi->params, &pi->argv, msg, sizeof(msg)))
		goto out_fail;
	return 0;

out_fail:
	snprintf(err, errsz, "%s:%d:%d: load %s: %s", e->path, l->line, l->col, l->name, msg);
	return -1;
}

static char *cell_name(const struct axis *axes, size_t n_axes, const size_t *pos)
{
	struct buf b = {0};
	if (!n_axes)
		return xstrdup("default");
	for (size_t a = 0; a < n_axes; a++)
		buf_printf(&b, "%s%s.%s=%s", a ? "," : "", axes[a].load->name, axes[a].setting->key,
			   axes[a].setting->values[pos[a]].text);
	return b.data;
}

/* The axis of axes named "LOAD.KEY" (a variant's cells: key), or NULL. */
static const struct axis *axis_named(const struct axis *axes, size_t n_axes, const char *name)
{
	for (size_t a = 0; a < n_axes; a++) {
		size_t n = strlen(axes[a].load->name);
		if (!strncmp(name, axes[a].load->name, n) && name[n] == '.' &&
		    !strcmp(name + n + 1, axes[a].setting->key))
			return &axes[a];
	}
	return NULL;
}

/* "hackbench.latency_nice, cyclictest.latency_nice" into b. */
static void axis_list(struct buf *b, const struct axis *axes, size_t n_axes)
{
	for (size_t a = 0; a < n_axes; a++)
		buf_printf(b, "%s%s.%s", a ? ", " : "", axes[a].load->name, axes[a].setting->key);
	if (!n_axes)
		buf_puts(b, "none: the config has no matrix");
}

/* Position of value text on axis x, or -1. */
static int axis_position(const struct axis *x, const char *text)
{
	for (size_t i = 0; i < x->setting->n; i++)
		if (!strcmp(x->setting->values[i].text, text))
			return (int)i;
	return -1;
}

/* Every key of variant v's cells: is an axis and every value one of its
 * values. 0, or -1 with "file:line:col: ..." in err. */
static int check_cells(const struct experiment *e, const struct cfg_variant *v,
		       const struct axis *axes, size_t n_axes, char *err, size_t errsz)
{
	for (size_t k = 0; k < v->n_cells; k++) {
		const struct cfg_setting *s = &v->cells[k];
		const struct axis *x = axis_named(axes, n_axes, s->key);
		struct buf b = {0};
		if (!x) {
			axis_list(&b, axes, n_axes);
			snprintf(err, errsz, "%s:%d:%d: variant %s: cells: '%s' is not an axis of the"
				 " matrix (its axes: %s)", e->path, s->line, s->col, v->name, s->key,
				 buf_str(&b));
			buf_free(&b);
			return -1;
		}
		for (size_t i = 0; i < s->n; i++) {
			if (axis_position(x, s->values[i].text) >= 0)
				continue;
			for (size_t j = 0; j < x->setting->n; j++)
				buf_printf(&b, "%s%s", j ? ", " : "", x->setting->values[j].text);
			snprintf(err, errsz, "%s:%d:%d: variant %s: cells: %s: %s is not one of the"
				 " axis' values (%s)", e->path, s->values[i].line, s->values[i].col,
				 v->name, s->key, s->values[i].text, buf_str(&b));
			buf_free(&b);
			return -1;
		}
	}
	return 0;
}

/* Does variant v run the cell at pos (each of its cells: axes at one of
 * the values given)? */
static bool cell_in_variant(const struct cfg_variant *v, const struct axis *axes,
			    size_t n_axes, const size_t *pos)
{
	for (size_t k = 0; k < v->n_cells; k++) {
		const struct axis *x = axis_named(axes, n_axes, v->cells[k].key);
		bool any = false;
		for (size_t i = 0; x && i < v->cells[k].n && !any; i++)
			any = axis_position(x, v->cells[k].values[i].text) == (int)pos[x - axes];
		if (!any)
			return false;
	}
	return true;
}

int plan_build(const struct experiment *e, struct plan *p, char *err, size_t errsz)
{
	struct axis *axes = NULL;
	size_t n_axes = 0, n_cells = 1;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	p->n_variants = e->n_variants;
	for (size_t i = 0; i < e->n_loads; i++) {
		const struct cfg_load *l = &e->loads[i];
		for (int sched = 0; sched < 2; sched++) {
			const struct cfg_setting *s = sched ? l->sched : l->params;
			size_t n = sched ? l->n_sched : l->n_params;
			for (size_t k = 0; k < n; k++) {
				if (!s[k].is_axis)
					continue;
				axes = xrealloc(axes, (n_axes + 1) * sizeof(*axes));
				axes[n_axes++] = (struct axis){l, &s[k], sched};
				n_cells *= s[k].n;
				if (n_cells > PLAN_MAX_CELLS) {
					snprintf(err, errsz,
						 "%s:%d:%d: the matrix has more than %d cells",
						 e->path, s[k].line, s[k].col, PLAN_MAX_CELLS);
					goto out;
				}
			}
		}
	}
	if (n_axes) /* axes is NULL without axes: qsort must not see it */
		qsort(axes, n_axes, sizeof(*axes), axis_cmp);
	for (size_t v = 0; v < e->n_variants; v++)
		if (check_cells(e, &e->variants[v], axes, n_axes, err, errsz))
			goto out;

	size_t *pos = xcalloc(n_axes + 1, sizeof(*pos));
	p->cells = xcalloc(n_cells, sizeof(*p->cells));
	p->n_axes = n_axes;
	for (size_t c = 0; c < n_cells; c++) {
		/* Odometer: the last axis varies fastest. */
		size_t rest = c;
		for (size_t a = n_axes; a-- > 0;) {
			pos[a] = rest % axes[a].setting->n;
			rest /= axes[a].setting->n;
		}
		struct plan_cell *cell = &p->cells[p->n_cells++];
		cell->name = cell_name(axes, n_axes, pos);
		cell->runs = xcalloc(e->n_variants + 1, sizeof(*cell->runs));
		for (size_t v = 0; v < e->n_variants; v++)
			cell->runs[v] = cell_in_variant(&e->variants[v], axes, n_axes, pos);
		cell->inst = xcalloc(e->n_loads, sizeof(*cell->inst));
		for (size_t i = 0; i < e->n_loads; i++) {
			cell->n_inst++;
			if (build_instance(e, &e->loads[i], axes, n_axes, pos, &cell->inst[i], err,
					   errsz)) {
				free(pos);
				goto out;
			}
		}
	}
	free(pos);
	rc = 0;
out:
	free(axes);
	if (rc)
		plan_free(p);
	return rc;
}

void plan_free(struct plan *p)
{
	for (size_t c = 0; c < p->n_cells && !p->view; c++) {
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			free(p->cells[c].inst[i].values);
			argv_free(&p->cells[c].inst[i].argv);
		}
		free(p->cells[c].inst);
		free(p->cells[c].name);
		free(p->cells[c].runs);
	}
	free(p->cells);
	memset(p, 0, sizeof(*p));
}

bool plan_cell_runs(const struct plan *p, size_t c, size_t v)
{
	return v >= p->n_variants || !p->cells[c].runs || p->cells[c].runs[v];
}

void plan_variant_view(const struct plan *p, size_t v, struct plan *view)
{
	*view = (struct plan){.n_axes = p->n_axes, .n_variants = p->n_variants, .view = true};
	view->cells = xcalloc(p->n_cells + 1, sizeof(*view->cells));
	for (size_t c = 0; c < p->n_cells; c++)
		if (plan_cell_runs(p, c, v))
			view->cells[view->n_cells++] = p->cells[c];
}

size_t plan_variant_cells(const struct plan *p, size_t v)
{
	size_t n = 0;
	for (size_t c = 0; c < p->n_cells; c++)
		n += plan_cell_runs(p, c, v);
	return n;
}

/* true when any instance of the plan (of load, when not NULL) has uses(its
 * sched). */
static bool plan_uses(const struct plan *p, const struct cfg_load *load,
		      bool (*uses)(const struct sched_req *r))
{
	for (size_t c = 0; c < p->n_cells; c++)
		for (size_t i = 0; i < p->cells[c].n_inst; i++)
			if (uses(&p->cells[c].inst[i].sched) &&
			    (!load || p->cells[c].inst[i].load == load))
				return true;
	return false;
}

static bool uses_latency_nice(const struct sched_req *r)
{
	return r->has_latency_nice && r->latency_nice;
}

static bool uses_slice(const struct sched_req *r)
{
	return r->has_slice_us;
}

bool plan_uses_latency_nice(const struct plan *p, const struct cfg_load *load)
{
	return plan_uses(p, load, uses_latency_nice);
}

bool plan_uses_slice(const struct plan *p, const struct cfg_load *load)
{
	return plan_uses(p, load, uses_slice);
}

bool plan_uses_cgroup(const struct plan *p, const struct cfg_load *load)
{
	return plan_uses(p, load, sched_req_has_cgroup);
}
