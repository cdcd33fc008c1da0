#include "runbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_run.h"
#include "kbuild_set.h"
#include "store_kbuild.h"
#include "util.h"

/* Give var the bzImage of its built kernel. */
static void use_kernel(struct cfg_variant *var, const char *bzimage)
{
	char **slot = var->boot == BOOT_SSH ? &var->kexec_kernel : &var->kernel;
	free(*slot);
	*slot = xstrdup(bzimage);
}

int runbuild_kernels(struct experiment *e, struct store *st, int64_t run_id,
		     const char *run_root, const char *run_dir, bool quiet, char **why,
		     char *err, size_t errsz)
{
	bool any = false;
	for (size_t v = 0; v < e->n_variants; v++)
		any |= e->variants[v].build != NULL;
	if (!any)
		return 0;
	char *cache = xasprintf("%s/cache", run_root);
	struct kbuild_set set;
	int r = kbuild_set_make(e, NULL, 0, cache, run_dir, stderr, quiet, &set);
	int rc = r == KB_INTERRUPTED ? -1 : 0;
	for (size_t v = 0; v < e->n_variants && !rc; v++) {
		struct cfg_variant *var = &e->variants[v];
		const struct kbuild_one *k = var->build ? kbuild_set_find(&set, var->build) : NULL;
		if (!k)
			continue;
		char status[8], none[1] = "";
		snprintf(status, sizeof(status), "%s", k->rc ? "failed" : k->b.cached ? "cached" :
			 "built");
		struct stored_kernel_build kb = {
			.variant = var->name, .kernel = var->build, .build_key = (char *)k->b.key,
			.status = status, .provenance = k->b.provenance ? k->b.provenance : none,
			.message = k->err, .log_path = k->log,
		};
		if (store_kernel_build(st, run_id, &kb, err, errsz))
			rc = -1;
		else if (k->rc)
			why[v] = xasprintf("kernel '%s' was not built: %s (log: %s)", var->build,
					   k->err, k->log);
		else
			use_kernel(var, k->b.bzimage);
	}
	kbuild_set_free(&set);
	free(cache);
	return rc;
}
