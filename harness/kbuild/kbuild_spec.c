/* kernels: entries resolved into what is built (kbuild.h), and the
 * up-front check of the files they name. */
#include "kbuild.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild_git.h"
#include "kbuild_key.h"
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

static bool is_package(const char *s)
{
	return !strncmp(s, "linux-source-", 13);
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
	for (size_t i = 0; i < e->n_kernels; i++) {
		const struct cfg_kernel *k = &e->kernels[i];
		if (k->source.text && !is_package(k->source.text) &&
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
			int rc = kseries_add(&s, k->patches[j].text, why, sizeof(why));
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
	if (!is_package(b->src.written)) {
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

/* The config items: the base (first) and the fragments, read; each adds
 * its key part ("tinyconfig", "file SHA256", the inline text). */
static int read_config(struct kbuild *b, const struct cfg_kernel *ck, const char *log,
		       struct argv *key_parts, char *err, size_t errsz)
{
	char sha[65];
	b->base_from = xstrdup(ck->config[0].text);
	const char *first = ck->config[0].text;
	if (!strcmp(first, "tinyconfig") || !strcmp(first, "defconfig")) {
		b->base_config = xstrdup(first);
		argv_add(key_parts, first);
	} else if (!strcmp(first, "package") ? package_config(b, log, err, errsz) :
		   read_file(first, &b->base_text, err, errsz)) {
		return -1;
	} else {
		kb_sha256_hex(b->base_text, strlen(b->base_text), sha);
		argv_addf(key_parts, "%s %s", first, sha);
	}
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
		kb_sha256_hex(text, strlen(text), sha);
		argv_addf(key_parts, "fragment %s %s", item, sha);
		b->frags[b->n_frags++] = (struct kconfig_fragment){text, xstrdup(item)};
	}
	return 0;
}

/* CC of make_args (CC=...), clang for LLVM=1, else gcc; its --version. */
static void ask_compiler(struct kbuild *b, const char *log)
{
	const char *cc = "gcc";
	for (size_t i = 0; i < b->make_args.n; i++) {
		if (!strncmp(b->make_args.v[i], "CC=", 3))
			cc = b->make_args.v[i] + 3;
		else if (!strcmp(b->make_args.v[i], "LLVM=1") && !strcmp(cc, "gcc"))
			cc = "clang";
	}
	char *out = xasprintf("%s.cc-version", log);
	char *argv[] = {(char *)cc, "--version", NULL};
	struct kb_cmd c = {.argv = argv, .log = out, .err_log = "/dev/null"};
	char why[256], line[512] = "";
	if (!kb_run(&c, why, sizeof(why))) {
		FILE *f = fopen(out, "r");
		if (f && fgets(line, sizeof(line), f))
			line[strcspn(line, "\n")] = '\0';
		if (f)
			fclose(f);
	}
	unlink(out);
	free(out);
	b->compiler = xstrdup(line[0] ? line : cc);
}

/* A cached entry: described as this config names it (kbuild_describe),
 * with the build time its provenance.txt recorded. */
static void describe_cached(struct kbuild *b, const char *cache)
{
	char *path = xasprintf("%s/provenance.txt", b->entry), *text, err[256];
	if (!read_file(path, &text, err, sizeof(err))) {
		char *at = strstr(text, "\nbuild_s ");
		if (at) {
			at += 9;
			at[strcspn(at, "\n")] = '\0';
			parse_double(at, &b->build_s);
		}
		free(text);
	}
	free(path);
	kbuild_describe(b, cache, b->entry);
}

static void set_key(struct kbuild *b, const struct argv *config_parts)
{
	const char **shas = xcalloc(b->series.n + 1, sizeof(*shas));
	for (size_t i = 0; i < b->series.n; i++)
		shas[i] = b->series.p[i].sha256;
	struct kbuild_inputs in = {
		.source_identity = b->src.identity, .patch_sha256 = shas,
		.n_patches = b->series.n, .config = (const char *const *)config_parts->v,
		.n_config = config_parts->n, .make_args = (const char *const *)b->make_args.v,
		.n_make_args = b->make_args.n, .compiler = b->compiler, .target = "bzImage",
	};
	struct buf t = {0};
	kbuild_key_text(&in, &t);
	b->key_text = xstrdup(buf_str(&t));
	kb_sha256_hex(t.data, t.len, b->key);
	buf_free(&t);
	free(shas);
}

int kbuild_prepare(const struct experiment *e, const char *name, const char *cache,
		   const char *log, struct kbuild *b, char *err, size_t errsz)
{
	const struct cfg_kernel *chain[64];
	size_t n = chain_of(e, config_kernel(e, name), chain, 64);
	const struct cfg_kernel *cfg = NULL, *args = NULL;
	struct argv config_parts = {0};
	char why[1024];
	int rc = -1;

	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	b->base_name = xstrdup(n > 1 ? chain[1]->name : "");
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
	if (ksource_resolve(source->text, commit ? commit->text : NULL, cache, log, &b->src, why,
			    sizeof(why)) ||
	    read_config(b, cfg, log, &config_parts, why, sizeof(why)))
		goto fail;
	for (size_t i = n; i-- > 0;)
		for (size_t j = 0; j < chain[i]->n_patches; j++)
			if (kseries_add(&b->series, chain[i]->patches[j].text, why, sizeof(why)))
				goto fail;
	ask_compiler(b, log);
	set_key(b, &config_parts);
	b->entry = xasprintf("%s/builds/%s", cache, b->key);
	b->bzimage = xasprintf("%s/bzImage", b->entry);
	b->cached = access(b->bzimage, R_OK) == 0;
	if (b->cached)
		describe_cached(b, cache);
	rc = 0;
	goto out;
fail:
	snprintf(err, errsz, "kernel '%s': %s", name, why);
out:
	argv_free(&config_parts);
	return rc;
}

void kbuild_free(struct kbuild *b)
{
	free(b->name);
	free(b->base_name);
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
	free(b->compiler);
	free(b->key_text);
	free(b->entry);
	free(b->bzimage);
	free(b->provenance);
	memset(b, 0, sizeof(*b));
}
