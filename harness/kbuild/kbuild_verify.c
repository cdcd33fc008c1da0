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
#include "kbuild_recipe.h"
#include "kbuild_run.h"
#include "kbuild_tree.h"

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
