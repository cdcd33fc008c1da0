#include "kbuild_recipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int krecipe_write(const struct kbuild *b, const char *entry, char *err, size_t errsz)
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

char *krecipe_of(const char *cache, const char *key, char *err, size_t errsz)
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

