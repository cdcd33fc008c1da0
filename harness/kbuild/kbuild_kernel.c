/* kernels: entries resolved into what is built (kbuild_kernel.h), and the
 * up-front check of the files they name. */
#include "kbuild_kernel.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild_env.h"
#include "kbuild_git.h"
#include "kbuild_key.h"
#include "kbuild_make.h"
#include "kbuild_run.h"
#include "variant.h"

/* The fragment config: [..., guest] names: configs/kernel/guest.config. */
static const char guest_fragment[] =
#include "guest_config.inc"
	;

static bool is_keyword(const char *item)
{
	return !strcmp(item, "tinyconfig") || !strcmp(item, "defconfig") ||
	       !strcmp(item, "package") || !strcmp(item, "guest");
}

static bool is_inline(const char *item)
{
	return !strncmp(item, "CONFIG_", 7);
}

/* The chain of base: from k up to its root, k first (config.c refused
 * unknown names and cycles). */
static size_t chain_of(const struct experiment *e, const struct cfg_kernel *k,
		       const struct cfg_kernel **chain, size_t max)
{
	size_t n = 0;
	while (k && n < max) {
		chain[n++] = k;
		k = k->base.text ? config_kernel(e, k->base.text) : NULL;
	}
	return n;
}

static int check_path(const struct experiment *e, const struct cfg_kernel *k, const char *what,
		      const struct cfg_value *v, char *err, size_t errsz)
{
	struct stat st;
	if (!stat(v->text, &st))
		return 0;
	snprintf(err, errsz, "%s:%d:%d: kernel '%s': %s: %s: %s", e->path, v->line, v->col,
		 k->name, what, v->text, strerror(errno));
	return -1;
}

/* The source: and commit: k builds: source: from the first entry of its
 * chain (k first) that sets one, commit: from the first that sets source:
 * or commit: (a source: of its own is not the base's commit). */
static void source_of(const struct experiment *e, const struct cfg_kernel *k,
		      const struct cfg_value **source, const struct cfg_value **commit)
{
	const struct cfg_kernel *chain[64];
	size_t n = chain_of(e, k, chain, 64);
	*source = *commit = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!*source && !*commit && (chain[i]->commit.text || chain[i]->source.text))
			*commit = chain[i]->commit.text ? &chain[i]->commit : NULL;
		if (!*source && chain[i]->source.text)
			*source = &chain[i]->source;
	}
}

/* commit: of k resolves in its source's repository. */
static int check_commit(const struct experiment *e, const struct cfg_kernel *k, char *err,
			size_t errsz)
{
	const struct cfg_value *source, *commit;
	char hash[41], why[1024];
	struct stat st;
	source_of(e, k, &source, &commit);
	if (!source || (!stat(source->text, &st) && S_ISDIR(st.st_mode) &&
			!kgit_resolve(source->text, k->commit.text, hash, why, sizeof(why))))
		return 0;
	if (stat(source->text, &st) || !S_ISDIR(st.st_mode))
		snprintf(why, sizeof(why), "a commit needs a git repository's directory as"
			 " source:, not %s", source->text);
	snprintf(err, errsz, "%s:%d:%d: kernel '%s': commit: %s", e->path, k->commit.line,
		 k->commit.col, k->name, why);
	return -1;
}

int kbuild_check(const struct experiment *e, char *err, size_t errsz)
{
	bool builds = false;
	for (size_t v = 0; v < e->n_variants; v++)
		builds |= e->variants[v].build != NULL;
	if (builds && kbuild_env_check(err, errsz)) {
		char *why = xstrdup(err);
		snprintf(err, errsz, "%s: %s", e->path, why);
		free(why);
		return -1;
	}
	for (size_t i = 0; i < e->n_kernels; i++) {
		const struct cfg_kernel *k = &e->kernels[i];
		if (k->source.text && !ksource_is_package(k->source.text) &&
		    check_path(e, k, "source", &k->source, err, errsz))
			return -1;
		if (k->commit.text && check_commit(e, k, err, errsz))
			return -1;
		for (size_t j = 0; j < k->n_config; j++)
			if (!is_keyword(k->config[j].text) && !is_inline(k->config[j].text) &&
			    check_path(e, k, "config", &k->config[j], err, errsz))
				return -1;
		for (size_t j = 0; j < k->n_patches; j++) {
			struct kseries s = {0};
			char why[1024];
			if (check_path(e, k, "patches", &k->patches[j], err, errsz))
				return -1;
			int rc = kseries_add(&s, k->patches[j].text, k->patch_fuzz, why, sizeof(why));
			kseries_free(&s);
			if (rc) {
				snprintf(err, errsz, "%s:%d:%d: kernel '%s': patches: %s", e->path,
					 k->patches[j].line, k->patches[j].col, k->name, why);
				return -1;
			}
		}
	}
	return 0;
}

#define KSPEC_MAX_BYTES (16 * 1024 * 1024)

static int read_file(const char *path, char **out, char *err, size_t errsz)
{
	struct buf b = {0};
	int rc = buf_read_file(&b, path, KSPEC_MAX_BYTES);
	if (rc)
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
	else
		*out = xstrdup(buf_str(&b));
	buf_free(&b);
	return rc;
}

/* config: package: Debian's config of the source package's version for
 * amd64, from linux-config-X.Y (/usr/src/linux-config-X.Y/
 * config.amd64_none_amd64.xz). */
static int package_config(struct kbuild *b, const char *log, char *err, size_t errsz)
{
	if (!ksource_is_package(b->src.written)) {
		snprintf(err, errsz, "config: package is the config of a linux-source-X.Y source,"
			 " not of %s", b->src.written);
		return -1;
	}
	char *xz = xasprintf("/usr/src/linux-config-%s/config.amd64_none_amd64.xz",
			     b->src.written + 13);
	char *out = xasprintf("%s.package-config", log);
	char *argv[] = {"xz", "-dc", xz, NULL};
	struct kb_cmd c = {.argv = argv, .log = out, .err_log = "/dev/null"};
	char why[256];
	int rc = access(xz, R_OK) ? -1 : kb_run(&c, why, sizeof(why));
	if (rc)
		snprintf(err, errsz, "config: package: %s is missing or unreadable (install"
			 " linux-config-%s)", xz, b->src.written + 13);
	else
		rc = read_file(out, &b->base_text, err, errsz);
	unlink(out);
	free(out);
	free(xz);
	return rc ? -1 : 0;
}

/* The config items: the base (first) and the fragments, read. */
static int read_config(struct kbuild *b, const struct cfg_kernel *ck, const char *log,
		       char *err, size_t errsz)
{
	b->base_from = xstrdup(ck->config[0].text);
	const char *first = ck->config[0].text;
	if (!strcmp(first, "tinyconfig") || !strcmp(first, "defconfig"))
		b->base_config = xstrdup(first);
	else if (!strcmp(first, "package") ? package_config(b, log, err, errsz) :
		 read_file(first, &b->base_text, err, errsz))
		return -1;
	b->frags = xcalloc(ck->n_config, sizeof(*b->frags));
	for (size_t i = 1; i < ck->n_config; i++) {
		const char *item = ck->config[i].text;
		char *text;
		if (!strcmp(item, "guest"))
			text = xstrdup(guest_fragment);
		else if (is_inline(item))
			text = xasprintf("%s\n", item);
		else if (read_file(item, &text, err, errsz))
			return -1;
		b->frags[b->n_frags++] = (struct kconfig_fragment){text, xstrdup(item)};
	}
	return 0;
}

/* The newest key built from inputs in cache (its .inputs- file), when its
 * entry is there; NULL otherwise. */
static char *key_of_inputs(const char *cache, const char *inputs)
{
	char *path = xasprintf("%s/builds/.inputs-%s", cache, inputs), *text, why[256];
	char *key = NULL;
	if (!read_file(path, &text, why, sizeof(why))) {
		text[strcspn(text, "\n")] = '\0';
		char *img = xasprintf("%s/builds/%s/bzImage", cache, text);
		if (strlen(text) == 64 && !strchr(text, '/') && !access(img, R_OK))
			key = xstrdup(text);
		free(img);
		free(text);
	}
	free(path);
	return key;
}

/* The base's entry (b->base_key, its key.txt), if it was built. */
static int find_base(const struct experiment *e, struct kbuild *b, const char *log, char *err,
		     size_t errsz)
{
	struct kbuild base;
	if (!b->base_name[0])
		return 0;
	int rc = kbuild_resolve(e, b->base_name, b->cache, log, false, &base, err, errsz);
	if (rc == KSOURCE_NOT_HERE) {
		kbuild_free(&base);
		return 0; /* the base's source is not here: neither is its entry */
	}
	if (rc)
		return -1;
	b->base_key = base.probable_key ? xstrdup(base.probable_key) : NULL;
	if (b->base_key) {
		char *path = xasprintf("%s/builds/%s/key.txt", b->cache, b->base_key), why[256];
		if (read_file(path, &b->base_key_text, why, sizeof(why)))
			b->base_key_text = xstrdup("");
		free(path);
	}
	kbuild_free(&base);
	return 0;
}

/* cache as an absolute path, created: every path make, ccache and qemu
 * get is absolute. */
static int absolute_cache(const char *cache, char **out, char *err, size_t errsz)
{
	char real[PATH_MAX];
	if (mkdir_p(cache, err, errsz))
		return -1;
	if (!realpath(cache, real))
		return err_printf(err, errsz, "%s: %s", cache, strerror(errno));
	*out = xstrdup(real);
	return 0;
}

int kbuild_prepare(const struct experiment *e, const char *name, const char *cache,
		   const char *log, struct kbuild *b, char *err, size_t errsz)
{
	return kbuild_resolve(e, name, cache, log, true, b, err, errsz);
}

int kbuild_resolve(const struct experiment *e, const char *name, const char *cache,
		   const char *log, bool fetch, struct kbuild *b, char *err, size_t errsz)
{
	const struct cfg_kernel *chain[64];
	size_t n = chain_of(e, config_kernel(e, name), chain, 64);
	const struct cfg_kernel *cfg = NULL, *args = NULL;
	char why[1024];

	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	b->base_name = xstrdup(n > 1 ? chain[1]->name : "");
	b->incremental_from = xstrdup("");
	const struct cfg_value *source = NULL, *commit = NULL;
	for (size_t i = 0; i < n; i++) {
		cfg = cfg ? cfg : chain[i]->n_config ? chain[i] : NULL;
		args = args ? args : chain[i]->make_args_given ? chain[i] : NULL;
	}
	if (n)
		source_of(e, chain[0], &source, &commit);
	if (!n || !source || !cfg) {
		snprintf(err, errsz, "kernel '%s': no source: or config: in its chain of base:", name);
		return -1;
	}
	for (size_t i = 0; args && i < args->n_make_args; i++)
		argv_add(&b->make_args, args->make_args[i].text);
	if (absolute_cache(cache, &b->cache, why, sizeof(why)))
		goto fail;
	int src = ksource_resolve(source->text, commit ? commit->text : NULL, b->cache, log, fetch,
				  &b->src, why, sizeof(why));
	if (src == KSOURCE_NOT_HERE) {
		snprintf(err, errsz, "kernel '%s': %s", name, why);
		return KSOURCE_NOT_HERE;
	}
	if (src || read_config(b, cfg, log, why, sizeof(why)))
		goto fail;
	for (size_t i = n; i-- > 0;)
		for (size_t j = 0; j < chain[i]->n_patches; j++)
			if (kseries_add(&b->series, chain[i]->patches[j].text, chain[i]->patch_fuzz,
					why, sizeof(why)))
				goto fail;
	struct argv tool_args = {0};
	char *probe = xasprintf("%s.tool-version", log);
	kmake_tool_args(&b->make_args, false, &tool_args);
	kbuild_inputs_fill(&b->in, &b->src, &b->series, b->base_config, b->base_text, b->frags,
			   b->n_frags, &b->make_args, &tool_args, probe);
	argv_free(&tool_args);
	free(probe);
	b->probable_key = key_of_inputs(b->cache, b->in.inputs);
	if (find_base(e, b, log, why, sizeof(why)))
		goto fail;
	return 0;
fail:
	snprintf(err, errsz, "kernel '%s': %s", name, why);
	return -1;
}

void kbuild_free(struct kbuild *b)
{
	free(b->name);
	free(b->base_name);
	free(b->cache);
	ksource_free(&b->src);
	free(b->base_config);
	free(b->base_text);
	free(b->base_from);
	for (size_t i = 0; i < b->n_frags; i++) {
		free((char *)b->frags[i].text);
		free((char *)b->frags[i].from);
	}
	free(b->frags);
	kseries_free(&b->series);
	argv_free(&b->make_args);
	kbuild_inputs_free(&b->in);
	free(b->key_text);
	free(b->entry);
	free(b->bzimage);
	free(b->probable_key);
	free(b->base_key);
	free(b->base_key_text);
	free(b->incremental_from);
	argv_free(&b->applied);
	free(b->provenance);
	memset(b, 0, sizeof(*b));
}
