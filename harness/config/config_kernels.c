/* kernels: of a config: sources, bases, config fragments, patch series and
 * make arguments of the kernels the rig builds (harness/kbuild/). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_impl.h"
#include "schedattr.h"

static const char *const kernel_keys[] = {"source", "commit", "config", "base", "patches",
					  "patch_fuzz", "make_args", NULL};

/* make arguments the rig sets itself (the tree, the object directory,
 * the makefile): a make_args: item starting with one is refused. */
static const char *const rig_make_args[] = {"O=", "KBUILD_OUTPUT=", "-C", "--directory",
					    "-f", "--file", "--makefile", NULL};

static int check_make_args(struct cfg_ctx *c, const struct cfg_kernel *k)
{
	for (size_t i = 0; i < k->n_make_args; i++)
		for (const char *const *r = rig_make_args; *r; r++)
			if (!strncmp(k->make_args[i].text, *r, strlen(*r)))
				return cfg_err_at(c, k->make_args[i].line, k->make_args[i].col,
					      "make_args: '%s': the rig chooses the tree, the"
					      " object directory and the makefile (make -C TREE"
					      " O=TREE/schedrig-obj)", k->make_args[i].text);
	return 0;
}

/* An inline config option: CONFIG_NAME=value. */
static bool inline_option(const char *s)
{
	if (strncmp(s, "CONFIG_", 7))
		return false;
	const char *p = s + 7;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	return p > s + 7 && *p == '=';
}

/* config: the first item is the base config (tinyconfig, defconfig,
 * package or a file), the rest fragments (guest, a file, CONFIG_X=v). */
static int check_kernel_config(struct cfg_ctx *c, const struct cfg_kernel *k)
{
	for (size_t i = 0; i < k->n_config; i++) {
		const struct cfg_value *v = &k->config[i];
		bool base = !strcmp(v->text, "tinyconfig") || !strcmp(v->text, "defconfig") ||
			    !strcmp(v->text, "package");
		if (i == 0 && (inline_option(v->text) || !strcmp(v->text, "guest")))
			return cfg_err_at(c, v->line, v->col, "config: the first item is the base"
				      " config (tinyconfig, defconfig, package or a .config file),"
				      " not the fragment '%s'", v->text);
		if (i > 0 && base)
			return cfg_err_at(c, v->line, v->col, "config: '%s' is a base config; only the"
				      " first item may be one", v->text);
		if (!strncmp(v->text, "CONFIG_", 7) && !inline_option(v->text))
			return cfg_err_at(c, v->line, v->col, "config: '%s' is not CONFIG_NAME=value",
				      v->text);
	}
	return 0;
}

static int read_kernel(struct cfg_ctx *c, const struct ypair *p, struct cfg_kernel *k)
{
	const struct ynode *m = p->value, *v;
	k->line = p->key_line;
	k->col = p->key_col;
	k->name = xstrdup(p->key);
	if (cfg_check_name(c, k->name, k->line, k->col, "kernel name"))
		return -1;
	if (cfg_want_kind(c, m, YNODE_MAPPING, "a kernel") || cfg_check_keys(c, m, kernel_keys, "a kernel"))
		return -1;
	if ((v = ynode_get(m, "source")) && cfg_read_value(c, v, "source", &k->source))
		return -1;
	if ((v = ynode_get(m, "base")) && cfg_read_value(c, v, "base", &k->base))
		return -1;
	if ((v = ynode_get(m, "commit")) && cfg_read_value(c, v, "commit", &k->commit))
		return -1;
	if (k->commit.text && (!k->commit.text[0] || k->commit.text[0] == '-'))
		return cfg_err_at(c, k->commit.line, k->commit.col, "commit: '%s' is not a revision"
			      " (a hash, tag or branch of the source's git repository)",
			      k->commit.text);
	if ((v = ynode_get(m, "config")) &&
	    (cfg_read_values(c, v, "config", &k->config, &k->n_config) || check_kernel_config(c, k)))
		return -1;
	if ((v = ynode_get(m, "patches")) &&
	    cfg_read_values(c, v, "patches", &k->patches, &k->n_patches))
		return -1;
	if ((v = ynode_get(m, "make_args"))) {
		k->make_args_given = true;
		if (cfg_read_values(c, v, "make_args", &k->make_args, &k->n_make_args) ||
		    check_make_args(c, k))
			return -1;
	}
	if ((v = ynode_get(m, "patch_fuzz"))) {
		long long fuzz;
		if (v->kind != YNODE_SCALAR || !parse_ll(v->text, &fuzz) || fuzz < 0 || fuzz > 3)
			return cfg_err_at(c, v->line, v->col, "patch_fuzz: an integer 0..3 (the"
				      " context lines patch may ignore in this entry's patches;"
				      " default 0: every context line must match)");
		if (!k->n_patches)
			return cfg_err_at(c, v->line, v->col, "patch_fuzz: this entry has no"
				      " patches: of its own (patch_fuzz applies to them only)");
		k->patch_fuzz = (int)fuzz;
	}
	if (!k->base.text && !k->source.text)
		return cfg_err_at(c, k->line, k->col, "kernel '%s' needs 'source:' (or 'base:')", k->name);
	if (!k->base.text && !k->n_config)
		return cfg_err_at(c, k->line, k->col, "kernel '%s' needs 'config:' (or 'base:'), e.g."
			      " [tinyconfig, guest]", k->name);
	return 0;
}

const struct cfg_kernel *config_kernel(const struct experiment *e, const char *name)
{
	for (size_t i = 0; i < e->n_kernels; i++)
		if (!strcmp(e->kernels[i].name, name))
			return &e->kernels[i];
	return NULL;
}

/* Every base: names a kernel, and no chain of base: comes back to itself. */
static int check_kernel_bases(struct cfg_ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_kernels; i++) {
		const struct cfg_kernel *k = &e->kernels[i];
		size_t steps = 0;
		while (k->base.text) {
			const struct cfg_kernel *b = config_kernel(e, k->base.text);
			if (!b)
				return cfg_err_at(c, k->base.line, k->base.col,
					      "base: no kernel named '%s' under kernels:", k->base.text);
			if (++steps > e->n_kernels)
				return cfg_err_at(c, e->kernels[i].line, e->kernels[i].col,
					      "kernel '%s': its chain of base: is a cycle",
					      e->kernels[i].name);
			k = b;
		}
	}
	return 0;
}

int cfg_read_kernels(struct cfg_ctx *c, const struct ynode *v, struct experiment *e)
{
	if (cfg_want_kind(c, v, YNODE_MAPPING, "kernels"))
		return -1;
	e->kernels = xcalloc(v->n ? v->n : 1, sizeof(*e->kernels));
	for (size_t i = 0; i < v->n; i++)
		if (read_kernel(c, &v->pairs[i], &e->kernels[e->n_kernels++]))
			return -1;
	return check_kernel_bases(c, e);
}

int cfg_check_builds(struct cfg_ctx *c, const struct experiment *e)
{
	for (size_t i = 0; i < e->n_variants; i++) {
		const struct cfg_variant *var = &e->variants[i];
		if (var->build && !config_kernel(e, var->build))
			return cfg_err_at(c, var->build_line, var->build_col,
				      "build: no kernel named '%s' under kernels:%s", var->build,
				      e->n_kernels ? "" : " (the config has no kernels:)");
	}
	return 0;
}

void cfg_free_kernel(struct cfg_kernel *k)
{
	free(k->name);
	free(k->source.text);
	free(k->base.text);
	free(k->commit.text);
	cfg_free_values(k->config, k->n_config);
	cfg_free_values(k->patches, k->n_patches);
	cfg_free_values(k->make_args, k->n_make_args);
}
