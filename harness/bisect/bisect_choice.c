/* Checking a bisection's cell and op before anything runs (bisect_choice.h). */
#include "bisect_choice.h"

#include <stdio.h>
#include <string.h>

#include "samples.h"
#include "util.h"

/* The load of e called name (the first len bytes of name), or NULL. */
static const struct cfg_load *find_load(const struct experiment *e, const char *name, size_t len)
{
	for (size_t i = 0; name && i < e->n_loads; i++)
		if (!strncmp(e->loads[i].name, name, len) && !e->loads[i].name[len])
			return &e->loads[i];
	return NULL;
}

/* The cells of p, ", "-separated (the first 4, then how many more). */
static void cell_list(const struct plan *p, struct buf *b)
{
	for (size_t i = 0; i < p->n_cells && i < 4; i++)
		buf_printf(b, "%s%s", i ? ", " : "", p->cells[i].name);
	if (p->n_cells > 4)
		buf_printf(b, ", ... %zu more", p->n_cells - 4);
}

static int check_cell(const struct plan *p, const char *cell, bool cell_needed, char *err,
		      size_t errsz)
{
	if (cell) {
		for (size_t i = 0; i < p->n_cells; i++)
			if (!strcmp(p->cells[i].name, cell))
				return 0;
		snprintf(err, errsz, "--cell %s: the config has no such cell (schedrig run --dry-run"
			 " lists them)", cell);
		return -1;
	}
	if (!cell_needed || p->n_cells <= 1)
		return 0;
	struct buf list = {0};
	cell_list(p, &list);
	snprintf(err, errsz, "the config has %zu cells (%s): choose one with --cell", p->n_cells,
		 buf_str(&list));
	buf_free(&list);
	return -1;
}

static int check_op(const struct cfg_load *load, const char *op, char *err, size_t errsz)
{
	if (!op)
		return 0;
	bool ok = strlen(op) < SAMPLE_OP_MAX;
	for (const char *c = op; ok && *c; c++)
		ok = (unsigned char)*c > ' ' && *c != 0x7f;
	if (!ok) {
		snprintf(err, errsz, "--op '%.60s': an op is at most %d characters, none a blank or a"
			 " control character", op, SAMPLE_OP_MAX - 1);
		return -1;
	}
	if (load && load->ops->fixed_op && strcmp(op, load->ops->fixed_op)) {
		snprintf(err, errsz, "--op %s: every sample of load %s (%s) has op %s", op,
			 load->name, load->ops->name, load->ops->fixed_op);
		return -1;
	}
	return 0;
}

int bisect_choice_check(const struct experiment *e, const struct plan *p, const char *want_metric,
			const char *default_load, const char *op, const char *cell,
			bool cell_needed, char *err, size_t errsz)
{
	const char *colon = want_metric ? strchr(want_metric, ':') : NULL;
	const struct cfg_load *load =
		colon ? find_load(e, want_metric, (size_t)(colon - want_metric))
		      : find_load(e, default_load, default_load ? strlen(default_load) : 0);
	if (check_cell(p, cell, cell_needed, err, errsz))
		return -1;
	return check_op(load, op, err, errsz);
}
