#include "variant.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "spawn.h"

void variant_plan_tools(const struct plan *p, struct argv *tools, struct argv *loads)
{
	size_t first = tools->n;

	for (size_t c = 0; c < p->n_cells; c++) {
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			const char *tool = p->cells[c].inst[i].argv.v[0];
			bool seen = !strcmp(tool, "schedrig");
			for (size_t k = first; k < tools->n && !seen; k++)
				seen = !strcmp(tools->v[k], tool);
			if (seen)
				continue;
			argv_add(tools, tool);
			if (loads)
				argv_add(loads, p->cells[c].inst[i].load->name);
		}
	}
}

/* The first instance of load ld in p whose files are not here
 * (load_ops.check_here), appended to err at len as "load 'L': WHY".
 * Returns the new length. */
static size_t check_here(const struct cfg_load *ld, const struct plan *p, char *err, size_t errsz,
			 size_t len)
{
	char why[1024];
	if (!ld->ops->check_here)
		return len;
	for (size_t c = 0; c < p->n_cells; c++)
		for (size_t i = 0; i < p->cells[c].n_inst; i++)
			if (p->cells[c].inst[i].load == ld &&
			    ld->ops->check_here(&p->cells[c].inst[i].params, why, sizeof(why))) {
				snprintf(err + len, errsz - len, "%sload '%s': %s", len ? "; " : "",
					 ld->name, why);
				return strlen(err);
			}
	return len;
}

/* The programs and files load ld needs besides its tool (load_ops.needs)
 * that are not here, found as a guest's are packed (proc_find_program),
 * appended to err at len as "load 'L': program 'P' is not installed here"
 * or "load 'L': FILE is not here". Returns the new length. */
static size_t check_needs(const struct cfg_load *ld, char *err, size_t errsz, size_t len)
{
	char found[PATH_MAX];
	struct stat st;
	for (const char *const *prog = ld->ops->needs.programs; prog && *prog; prog++) {
		const char *names[] = {*prog, NULL};
		if (!proc_find_program(names, found, sizeof(found)))
			snprintf(err + len, errsz - len, "%sload '%s': program '%s' is not installed"
				 " here", len ? "; " : "", ld->name, *prog);
		len = strlen(err);
	}
	for (const char *const *f = ld->ops->needs.files; f && *f; f++) {
		if (stat(*f, &st))
			snprintf(err + len, errsz - len, "%sload '%s': %s is not here", len ? "; " : "",
				 ld->name, *f);
		len = strlen(err);
	}
	return len;
}

int variant_check_local_tools(const struct experiment *e, const struct plan *p, char *err,
			      size_t errsz)
{
	struct argv tools = {0}, loads = {0};
	bool local = false;
	size_t len = 0;

	err[0] = '\0';
	for (size_t v = 0; v < e->n_variants; v++)
		local |= e->variants[v].boot == BOOT_LOCAL;
	if (!local)
		return 0;
	variant_plan_tools(p, &tools, &loads);
	for (size_t i = 0; i < tools.n; i++) {
		char found[PATH_MAX];
		if (spawn_which(tools.v[i], NULL, found, sizeof(found)) == 0)
			continue;
		snprintf(err + len, errsz - len, "%sload '%s': tool '%s' is not installed here "
			 "(no executable file of that name in PATH)", len ? "; " : "", loads.v[i],
			 tools.v[i]);
		len = strlen(err);
	}
	argv_free(&tools);
	argv_free(&loads);
	for (size_t l = 0; l < e->n_loads; l++)
		len = check_here(&e->loads[l], p, err, errsz,
				 check_needs(&e->loads[l], err, errsz, len));
	return len ? -1 : 0;
}
