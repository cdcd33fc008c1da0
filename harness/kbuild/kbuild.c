/* Building a resolved kernel (kbuild_kernel.h) into the cache: the inputs'
 * lock, the temporary directory, source copy, series, config (the key),
 * the base's objects, make, the entry. */
#include "kbuild.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "kbuild_cache.h"
#include "kbuild_env.h"
#include "kbuild_key.h"
#include "kbuild_make.h"
#include "kbuild_provenance.h"
#include "kbuild_run.h"
#include "kbuild_tree.h"
#include "kbuild_recipe.h"

/* The state of one build. */
struct build_ctx {
	struct kbuild *b;
	const char *dir;       /* the temporary directory (absolute) */
	const char *log;       /* absolute */
	bool in_cache;         /* false: kbuild_build_cold's scratch build */
	const char *step;
	kbuild_progress_fn progress;
	void *ctx;
};

static void tick(void *p)
{
	struct build_ctx *bc = p;
	if (bc->progress)
		bc->progress(bc->ctx, bc->b->name, bc->step, bc->log);
}

static void step(struct build_ctx *bc, const char *what)
{
	bc->step = what;
	tick(bc);
}

/* The make settings of bc's build, paths under bc->dir. */
static struct kmake make_of(const struct build_ctx *bc, char *tree, char *obj)
{
	return (struct kmake){.tree = tree, .obj = obj, .make_args = &bc->b->make_args,
			      .basedir = bc->dir, .no_ccache = bc->b->no_ccache, .log = bc->log,
			      .tick = tick, .ctx = (void *)bc};
}

static bool exists(const char *path)
{
	struct stat st;
	return !lstat(path, &st);
}

/* A tree someone built in (its .config or include/config at the top):
 * make O= refuses it, so the private copy is cleaned (make mrproper). */
static int clean_tree(struct build_ctx *bc, char *tree, char *err, size_t errsz)
{
	char *config = xasprintf("%s/.config", tree), *inc = xasprintf("%s/include/config", tree);
	int rc = 0;
	if (exists(config) || exists(inc)) {
		step(bc, "make mrproper (the source holds a build's output)");
		struct kmake m = make_of(bc, tree, NULL);
		rc = kmake_run(&m, "mrproper", err, errsz);
	}
	free(config);
	free(inc);
	return rc;
}

/* The key from the final .config (in obj), and the entry it names. */
static void set_key(struct kbuild *b, const char *obj)
{
	char *config = xasprintf("%s/.config", obj);
	if (kb_sha256_file(config, b->in.config_final))
		snprintf(b->in.config_final, sizeof(b->in.config_final), "unreadable");
	free(config);
	struct buf t = {0};
	kbuild_inputs_text(&b->in, &t);
	free(b->key_text);
	b->key_text = xstrdup(buf_str(&t));
	kb_sha256_hex(t.data, t.len, b->key);
	buf_free(&t);
	free(b->entry);
	free(b->bzimage);
	b->entry = xasprintf("%s/builds/%s", b->cache, b->key);
	b->bzimage = xasprintf("%s/bzImage", b->entry);
}

/* Can b start from its base's objects? */
static bool from_base(const struct kbuild *b)
{
	if (!b->base_key || !b->base_key_text || b->no_ccache)
		return false;
	char *obj = xasprintf("%s/builds/%s/obj", b->cache, b->base_key);
	bool ok = exists(obj) && kbuild_inputs_objects_fit(b->key_text, b->base_key_text);
	free(obj);
	return ok;
}

/* obj (configured fresh) replaced by a copy of the base's objects with
 * obj's .config. */
static int clone_base(struct build_ctx *bc, const char *obj, char *err, size_t errsz)
{
	struct kbuild *b = bc->b;
	char *fresh = xasprintf("%s/work/config-obj", bc->dir);
	char *from = xasprintf("%s/builds/%s/obj", b->cache, b->base_key);
	char *config = xasprintf("%s/.config", fresh), *to = xasprintf("%s/.config", obj);
	char *argv[] = {"cp", "-aP", "--reflink=auto", from, (char *)obj, NULL};
	struct kb_cmd c = {.argv = argv, .log = bc->log, .append = true};
	char why[256];
	step(bc, "copying the base's objects");
	int rc = rename(obj, fresh) ? err_printf(err, errsz, "rename %s: %s", obj, strerror(errno))
				    : kb_run(&c, why, sizeof(why));
	if (rc > 0 || rc == -1)
		rc = err_printf(err, errsz, "copying %s: %s", from, why);
	else if (rc == KB_INTERRUPTED)
		snprintf(err, errsz, "%s", why);
	if (!rc && !(rc = file_copy(config, to, false, err, errsz))) {
		free(b->incremental_from);
		b->incremental_from = xstrdup(b->base_key);
	}
	free(fresh);
	free(from);
	free(config);
	free(to);
	return rc;
}

static bool debug_info(const char *obj)
{
	char *path = xasprintf("%s/.config", obj);
	struct buf t = {0};
	buf_read_file(&t, path, 16 * 1024 * 1024);
	bool on = strstr(buf_str(&t), "\nCONFIG_DEBUG_INFO=y\n") != NULL;
	buf_free(&t);
	free(path);
	return on;
}

static int make_image(struct build_ctx *bc, char *tree, char *obj, char *err, size_t errsz)
{
	struct argv env = {0};
	kbuild_env_repro(bc->b->key, &env);
	struct kmake m = make_of(bc, tree, obj);
	m.env = &env;
	m.jobs = true;
	m.debug_prefix_map = debug_info(obj);
	step(bc, bc->b->incremental_from[0] ? "make (from the base's objects)" : "make");
	int rc = kmake_run(&m, "bzImage", err, errsz);
	argv_free(&env);
	return rc;
}

/* entry/ filled from the built tree: bzImage, config, obj/, the recipe,
 * key.txt, provenance.txt, build.log. */
static int fill_entry(struct build_ctx *bc, const char *obj, const char *entry, char *err,
		      size_t errsz)
{
	struct kbuild *b = bc->b;
	char *img = xasprintf("%s/arch/x86/boot/bzImage", obj), *config = xasprintf("%s/.config", obj);
	char *to_img = xasprintf("%s/bzImage", entry), *to_config = xasprintf("%s/config", entry);
	char *to_obj = xasprintf("%s/obj", entry), *key = xasprintf("%s/key.txt", entry);
	char *log = xasprintf("%s/build.log", entry);
	int rc = file_copy(img, to_img, false, err, errsz) ||
		 file_copy(config, to_config, false, err, errsz) ? -1 : 0;
	if (!rc && bc->in_cache && rename(obj, to_obj))
		rc = err_printf(err, errsz, "rename %s: %s", obj, strerror(errno));
	if (!rc && bc->in_cache)
		rc = krecipe_write(b, entry, err, errsz);
	if (!rc) {
		kbuild_provenance(b, entry);
		char *pv = xasprintf("%s/provenance.txt", entry);
		rc = file_write(pv, b->provenance, strlen(b->provenance), err, errsz) ||
		     file_write(key, b->key_text, strlen(b->key_text), err, errsz) ||
		     file_copy(bc->log, log, false, err, errsz) ? -1 : 0;
		free(pv);
	}
	free(img);
	free(config);
	free(to_img);
	free(to_config);
	free(to_obj);
	free(key);
	free(log);
	return rc;
}

/* Remember that these inputs last gave this key (a hit before the
 * config step is made; the base's lookup). */
static void note_inputs(const struct kbuild *b)
{
	char *path = xasprintf("%s/builds/.inputs-%s", b->cache, b->in.inputs);
	char *tmp = xasprintf("%s.new", path), *text = xasprintf("%s\n", b->key), err[256];
	if (file_write(tmp, text, strlen(text), err, sizeof(err)) || rename(tmp, path))
		unlink(tmp);
	free(path);
	free(tmp);
	free(text);
}

/* The steps in bc->dir: src/ copied and patched, configured (the key); a
 * cache hit ends there; else built, entry/ filled and renamed to KEY. */
static int build_steps(struct build_ctx *bc, char *err, size_t errsz)
{
	struct kbuild *b = bc->b;
	char *tree = xasprintf("%s/src", bc->dir), *work = xasprintf("%s/work", bc->dir);
	char *entry = xasprintf("%s/entry", bc->dir);
	char *obj = xasprintf("%s/%s", tree, KBUILD_OBJ_DIR);
	int64_t start = mono_ns();
	int rc;
	if ((rc = mkdir_p(tree, err, errsz) || mkdir_p(work, err, errsz) ||
		  mkdir_p(entry, err, errsz) ? -1 : 0))
		goto out;
	step(bc, "copying the source");
	if ((rc = ksource_copy(&b->src, b->cache, tree, bc->log, err, errsz)))
		goto out;
	step(bc, "applying patches");
	argv_free(&b->applied);
	if ((rc = kseries_apply(&b->series, tree, work, &b->applied, err, errsz)) ||
	    (rc = clean_tree(bc, tree, err, errsz)) || (rc = mkdir_p(obj, err, errsz)))
		goto out;
	step(bc, "config");
	struct kmake m = make_of(bc, tree, obj);
	if ((rc = kconfig_make(&m, b->base_config, b->base_text, b->frags, b->n_frags, err,
			       errsz)))
		goto out;
	set_key(b, obj);
	if (bc->in_cache && exists(b->bzimage)) {
		b->cached = true;
		kbuild_provenance_cached(b);
		note_inputs(b);
		goto out;
	}
	if (bc->in_cache && from_base(b) && (rc = clone_base(bc, obj, err, errsz)))
		goto out;
	if ((rc = make_image(bc, tree, obj, err, errsz)))
		goto out;
	b->build_s = (double)(mono_ns() - start) / 1e9;
	if ((rc = fill_entry(bc, obj, entry, err, errsz)))
		goto out;
	if (bc->in_cache && rename(entry, b->entry)) {
		rc = err_printf(err, errsz, "rename %s to %s: %s", entry, b->entry, strerror(errno));
		goto out;
	}
	if (bc->in_cache)
		note_inputs(b);
out:
	free(tree);
	free(work);
	free(entry);
	free(obj);
	return rc;
}

static void waiting(void *ctx, const char *holder)
{
	struct build_ctx *bc = ctx;
	char *what = xasprintf("waiting for another build of the same inputs (%s)", holder);
	step(bc, what);
	free(what);
}

/* The log, absolute, with the build's header. */
static char *start_log(const struct kbuild *b, const char *log, const char *how)
{
	char real[4096];
	FILE *f = fopen(log, "w");
	if (f) {
		fprintf(f, "schedrig: building kernel %s (%s), inputs %s\n%s", b->name, how,
			b->in.inputs, "schedrig: make's environment:");
		for (size_t i = 0; i < b->in.env.n; i++)
			fprintf(f, " %s", b->in.env.v[i]);
		fprintf(f, " (and KBUILD_BUILD_* from the key, HOME, CCACHE_*)\n");
		fclose(f);
	}
	return xstrdup(realpath(log, real) ? real : log);
}

int kbuild_build(struct kbuild *b, const char *log, kbuild_progress_fn progress, void *ctx,
		 char *err, size_t errsz)
{
	char *builds = xasprintf("%s/builds", b->cache);
	char *lock = xasprintf("%s/.lock-%s", builds, b->in.inputs);
	char *tmp = xasprintf("%s/.tmp-%s", builds, b->in.inputs);
	struct build_ctx bc = {.b = b, .dir = tmp, .log = log, .in_cache = true, .step = "",
			       .progress = progress, .ctx = ctx};
	int fd = mkdir_p(builds, err, errsz) ? -1 : kcache_lock(lock, b->name, waiting, &bc, err,
								  errsz);
	int rc = fd < 0 ? fd : 0;
	/* The log once the lock is ours: a build of the same inputs that ran
	 * meanwhile wrote the same log. */
	char *abs_log = rc ? NULL : start_log(b, log, "in the cache");
	bc.log = abs_log;
	if (!rc) {
		kcache_clear_stale(b->cache, NULL, NULL);
		proc_remove_tree(tmp); /* ours from a killed rig: never used */
		rc = build_steps(&bc, err, errsz);
		/* The tree is gone whatever happened; SIGINT meanwhile waits. */
		proc_remove_tree(tmp);
		close(fd);
	}
	free(abs_log);
	free(builds);
	free(lock);
	free(tmp);
	return rc;
}

int kbuild_build_cold(struct kbuild *b, const char *dir, const char *log, char *err,
		      size_t errsz)
{
	char *abs_log = start_log(b, log, "cold, to verify");
	struct build_ctx bc = {.b = b, .dir = dir, .log = abs_log, .in_cache = false, .step = ""};
	b->no_ccache = true;
	int rc = build_steps(&bc, err, errsz);
	free(abs_log);
	return rc;
}
