/* cells: of a variant: the part of the matrix that variant runs (a
 * vanilla baseline at one point of a grid its patched kernel runs whole).
 * Read here; checked against the matrix's axes by plan_build (plan.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_impl.h"

int cfg_read_cells(struct cfg_ctx *c, const struct ynode *m, struct cfg_variant *var)
{
	if (cfg_want_kind(c, m, YNODE_MAPPING, "cells"))
		return -1;
	if (!m->n)
		return cfg_err_at(c, m->line, m->col, "cells: names no axis (leave it out to run"
				  " every cell)");
	var->cells = xcalloc(m->n, sizeof(*var->cells));
	var->cells_line = m->line;
	var->cells_col = m->col;
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		struct cfg_setting *s = &var->cells[var->n_cells++];
		s->key = xstrdup(p->key);
		s->line = p->key_line;
		s->col = p->key_col;
		s->is_axis = p->value->kind == YNODE_SEQUENCE;
		if (cfg_read_values(c, p->value, p->key, &s->values, &s->n))
			return -1;
		if (!s->n)
			return cfg_err_at(c, p->value->line, p->value->col, "cells: %s: no value (the"
					  " variant would run no cell)", p->key);
	}
	return 0;
}
