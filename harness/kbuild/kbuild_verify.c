#include "kbuild_verify.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "kbuild_cache.h"
#include "kbuild_key.h"
#include "kbuild_run.h"
#include "kbuild_tree.h"

/* s as a YAML double-quoted scalar (YAML 1.2, 7.3.1: \\ and \" escaped,
 * control characters as \xNN). */
static void yaml_quoted(struct buf *out, const char *s)
{
	buf_puts(out, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(out, "\\%c", *p);
		else if (*p < 0x20)
			buf_printf(out, "\\x%02x", *p);
		else
			buf_append(out, p, 1);
	}
	buf_puts(out, "\"");
}

/* The source as the recipe names it: absolute, or the package's name. */
static char *recipe_source(const struct ksource *s)
{
	char real[4096];
	if (s->dir)
		return xstrdup(s->dir);
	if (ksource_is_package(s->written) || !realpath(s->written, real))
		return xstrdup(s->written);
	return xstrdup(real);
}

/* The root entry k0: source, commit, config (files of dir), make_args. */
static int recipe_root(const struct kbuild *b, const char *dir, struct buf *y, char *err,
		       size_t errsz)
{
	char *src = recipe_source(&b->src);
	buf_puts(y, "  k0:\n    source: ");
	yaml_quoted(y, src);
	free(src);
	if (b->src.commit) {
		buf_puts(y, "\n    commit: ");
		yaml_quoted(y, b->src.commit);
	}
	buf_puts(y, "\n    config:\n      - ");
	int rc = 0;
	if (b->base_config) {
		yaml_quoted(y, b->base_config);
	} else {
		char *path = xasprintf("%s/base.config", dir);
		rc = file_write(path, b->base_text, strlen(b->base_text), err, errsz);
		yaml_quoted(y, path);
		free(path);
	}
	for (size_t i = 0; i < b->n_frags && !rc; i++) {
		char *path = xasprintf("%s/fragment-%zu.config", dir, i + 1);
		rc = file_write(path, b->frags[i].text, strlen(b->frags[i].text), err, errsz);
		buf_puts(y, "\n      - ");
		yaml_quoted(y, path);
		free(path);
	}
	buf_puts(y, "\n    make_args: [");
	for (size_t i = 0; i < b->make_args.n; i++) {
		buf_puts(y, i ? ", " : "");
		yaml_quoted(y, b->make_args.v[i]);
	}
	buf_puts(y, "]\n");
	return rc;
}

int kverify_write_recipe(const struct kbuild *b, const char *entry, char *err, size_t errsz)
{
	char *dir = xasprintf("%s/recipe", entry);
	struct buf y = {0};
	int rc = mkdir_p(dir, err, errsz);
	buf_printf(&y, "# The recipe of a cache entry (schedrig cache verify): kernel %s.\n"
		   "name: recipe\nkernels:\n", b->name);
	if (!rc)
		rc = recipe_root(b, dir, &y, err, errsz);
	/* Consecutive patches allowed one fuzz go into one entry. */
	size_t entries = 1;
	for (size_t i = 0; i < b->series.n && !rc;) {
		int fuzz = b->series.p[i].fuzz;
		buf_printf(&y, "  k%zu:\n    base: k%zu\n    patch_fuzz: %d\n    patches:\n", entries,
			   entries - 1, fuzz);
		for (; i < b->series.n && b->series.p[i].fuzz == fuzz && !rc; i++) {
			char *path = xasprintf("%s/%04zu.patch", dir, i + 1);
			rc = file_write(path, b->series.p[i].data, b->series.p[i].len, err, errsz);
			buf_puts(&y, "      - ");
			yaml_quoted(&y, path);
			buf_puts(&y, "\n");
			free(path);
		}
		entries++;
	}
	buf_printf(&y, "  recipe: {base: k%zu}\nvariants:\n  - {name: recipe, boot: qemu, kernel:"
		   " {build: recipe}}\nloads: [{tool: hackbench}]\n", entries - 1);
	char *path = xasprintf("%s/config.yaml", dir);
	if (!rc)
		rc = file_write(path, buf_str(&y), y.len, err, errsz);
	free(path);
	free(dir);
	buf_free(&y);
	return rc;
}

char *kverify_recipe_of(const char *cache, const char *key, char *err, size_t errsz)
{
	char *entry = xasprintf("%s/builds/%s", cache, key);
	char *path = xasprintf("%s/recipe/config.yaml", entry);
	struct stat st;
	if (strlen(key) != 64 || strchr(key, '/') || stat(entry, &st)) {
		err_printf(err, errsz, "no cache entry %s in %s/builds", key, cache);
		free(path);
		path = NULL;
	} else if (stat(path, &st)) {
		err_printf(err, errsz, "cache entry %s has no recipe (made by an older schedrig):"
			   " verify it from its config, schedrig cache verify CONFIG", key);
		free(path);
		path = NULL;
	}
	free(entry);
	return path;
}

/* The regular files below a directory, sorted, .cmd and .d left out. */
static struct {
	struct argv *files;
	size_t root;
} collect;

static int collect_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)type;
	size_t len = strlen(path);
	bool skip = (len > 4 && !strcmp(path + len - 4, ".cmd")) ||
		    (len > 2 && !strcmp(path + len - 2, ".d"));
	if (f->level > 0 && S_ISREG(st->st_mode) && !skip)
		argv_add(collect.files, path + collect.root + 1);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void files_of(const char *dir, struct argv *out)
{
	collect.files = out;
	collect.root = strlen(dir);
	nftw(dir, collect_one, 32, FTW_PHYS);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_name);
}

/* Do the files a and b hold the same bytes (both absent counts as not)? */
static bool same_file(const char *a, const char *b)
{
	char sa[65], sb[65];
	return !kb_sha256_file(a, sa) && !kb_sha256_file(b, sb) && !strcmp(sa, sb);
}

/* The first path of the object directories a and b (in path order) that
 * one lacks or whose bytes differ, or NULL. */
static char *first_difference(const char *a, const char *b)
{
	struct argv fa = {0}, fb = {0};
	char *found = NULL;
	files_of(a, &fa);
	files_of(b, &fb);
	size_t i = 0, j = 0;
	while (!found && (i < fa.n || j < fb.n)) {
		int c = i == fa.n ? 1 : j == fb.n ? -1 : strcmp(fa.v[i], fb.v[j]);
		if (c) {
			found = xasprintf("%s (only in the %s build)", c < 0 ? fa.v[i] : fb.v[j],
					  c < 0 ? "cached" : "cold");
			break;
		}
		char *pa = xasprintf("%s/%s", a, fa.v[i]), *pb = xasprintf("%s/%s", b, fb.v[j]);
		if (!same_file(pa, pb))
			found = xstrdup(fa.v[i]);
		free(pa);
		free(pb);
		i++;
		j++;
	}
	argv_free(&fa);
	argv_free(&fb);
	return found;
}

/* Compare the cold build in tmp with entry; print the verdict. 0 or 1. */
static int compare(const struct kbuild *b, const char *want, const char *entry,
		   const char *tmp, double cold_s, FILE *out)
{
	char *cfg_a = xasprintf("%s/config", entry), *cfg_b = xasprintf("%s/entry/config", tmp);
	char *img_a = xasprintf("%s/bzImage", entry), *img_b = xasprintf("%s/entry/bzImage", tmp);
	char *obj_a = xasprintf("%s/obj", entry);
	char *obj_b = xasprintf("%s/src/%s", tmp, KBUILD_OBJ_DIR);
	char sha_img[65] = "", sha_cfg[65] = "";
	int rc = 1;
	fprintf(out, "kernel %s (key %s): ", b->name, want);
	if (strcmp(b->key, want)) {
		char *path = xasprintf("%s/key.txt", entry);
		struct buf theirs = {0}, diff = {0};
		buf_read_file(&theirs, path, 1024 * 1024);
		kbuild_inputs_diff(buf_str(&theirs), b->key_text, &diff);
		fprintf(out, "DIFFERENT inputs: a cold build of them now has key %s; key.txt"
			" (the entry's, then now):\n%s", b->key, buf_str(&diff));
		buf_free(&theirs);
		buf_free(&diff);
		free(path);
	} else if (!same_file(cfg_a, cfg_b)) {
		fprintf(out, "DIFFERENT: the final .config (config)\n");
	} else if (!same_file(img_a, img_b)) {
		char *first = first_difference(obj_a, obj_b);
		fprintf(out, "DIFFERENT: bzImage; the first object that differs: %s\n",
			first ? first : "(none: only the image)");
		free(first);
	} else {
		kb_sha256_file(img_a, sha_img);
		kb_sha256_file(cfg_a, sha_cfg);
		fprintf(out, "identical: bzImage %s, config %s (cold build %.1f s)\n", sha_img,
			sha_cfg, cold_s);
		rc = 0;
	}
	fflush(out);
	free(cfg_a);
	free(cfg_b);
	free(img_a);
	free(img_b);
	free(obj_a);
	free(obj_b);
	return rc;
}

int kverify_kernel(const struct experiment *e, const char *name, const char *want_key,
		   const char *cache, const char *log, FILE *out, char *err, size_t errsz)
{
	struct kbuild b;
	int rc = kbuild_prepare(e, name, cache, log, &b, err, errsz);
	const char *want = want_key ? want_key : b.probable_key;
	char *entry = NULL, *lock = NULL, *tmp = NULL;
	struct stat st;
	if (rc)
		goto out;
	entry = want ? xasprintf("%s/builds/%s", b.cache, want) : NULL;
	if (!entry || stat(entry, &st)) {
		rc = err_printf(err, errsz, "kernel %s: no cache entry %s (build it first:"
				" schedrig build CONFIG)", name, want ? want : "of its inputs");
		goto out;
	}
	lock = xasprintf("%s/verify.lock", b.cache);
	tmp = xasprintf("%s/verify.tmp", b.cache);
	int fd = kcache_lock(lock, name, NULL, NULL, err, errsz);
	if ((rc = fd < 0 ? fd : 0))
		goto out;
	proc_remove_tree(tmp);
	int64_t start = mono_ns();
	if (!(rc = mkdir_p(tmp, err, errsz)) &&
	    !(rc = kbuild_build_cold(&b, tmp, log, err, errsz)))
		rc = compare(&b, want, entry, tmp, (double)(mono_ns() - start) / 1e9, out);
	proc_remove_tree(tmp);
	close(fd);
out:
	free(entry);
	free(lock);
	free(tmp);
	kbuild_free(&b);
	return rc;
}
