#include "runbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_run.h"
#include "kbuild_set.h"
#include "store_kbuild.h"
#include "store_revision.h"
#include "util.h"

/* Give var the bzImage of its built kernel. */
static void use_kernel(struct cfg_variant *var, const char *bzimage)
{
	char **slot = var->boot == BOOT_SSH ? &var->kexec_kernel : &var->kernel;
	free(*slot);
	*slot = xstrdup(bzimage);
}

/* The git revision of a build, into r (strings malloc'd): a commit: of a
 * git source (src.commit, src.describe), or a git work tree, whose
 * identity is "git HASH (DESCRIBE) diff SHA256" (kbuild_source.h). false
 * when the source is not a git tree (a package, a tarball, a plain tree). */
static bool git_revision(const struct ksource *src, struct stored_revision *r)
{
	const char *id = src->identity, *open = id ? strchr(id, '(') : NULL;
	const char *close = id ? strstr(id, ") diff ") : NULL;
	if (src->commit) {
		r->commit_hash = xstrdup(src->commit);
		r->revision = xstrdup(src->describe && *src->describe ? src->describe : src->commit);
	} else if (src->dir && open && close && close > open && !strncmp(id, "git ", 4) &&
		   open == id + 4 + 41) {
		r->commit_hash = xasprintf("%.40s", id + 4);
		r->revision = xasprintf("%.*s", (int)(close - open - 1), open + 1);
	} else {
		return false;
	}
	r->kind = REVISION_GIT;
	/* Absolute, so that track finds the repository from anywhere. */
	const char *dir = src->dir ? src->dir : src->written;
	char *abs = realpath(dir, NULL);
	r->source = abs ? abs : xstrdup(dir);
	return true;
}

/* Record var's kernel revision when its build is of a git tree (a build
 * that failed too: the commit it was of is known). */
static int record_revision(struct store *st, int64_t run_id, const struct cfg_variant *var,
			   const struct kbuild *b, char *err, size_t errsz)
{
	struct stored_revision r = {.variant = var->name};
	if (!git_revision(&b->src, &r))
		return 0;
	int rc = store_revision_record(st, run_id, &r, err, errsz);
	free(r.revision);
	free(r.commit_hash);
	free(r.source);
	return rc;
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
		if (store_kernel_build(st, run_id, &kb, err, errsz) ||
		    record_revision(st, run_id, var, &k->b, err, errsz))
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
