#include "kbuild_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_env.h"
#include "kbuild_key.h"

void kbuild_inputs_fill(struct kbuild_inputs *in, const struct ksource *src,
			const struct kseries *series, const char *base_config,
			const char *base_text, const struct kconfig_fragment *frags,
			size_t n_frags, const struct argv *make_args,
			const struct argv *tool_args, const char *log)
{
	char sha[65];
	struct argv passed = {0};
	memset(in, 0, sizeof(*in));
	in->source = xstrdup(src->identity);
	for (size_t i = 0; i < series->n; i++)
		argv_addf(&in->patches, "%s fuzz %d", series->p[i].sha256, series->p[i].fuzz);
	if (base_config) {
		argv_add(&in->config, base_config);
	} else {
		kb_sha256_hex(base_text, strlen(base_text), sha);
		argv_addf(&in->config, "text %s", sha);
	}
	for (size_t i = 0; i < n_frags; i++) {
		kb_sha256_hex(frags[i].text, strlen(frags[i].text), sha);
		argv_addf(&in->config, "fragment %s", sha);
	}
	for (size_t i = 0; i < make_args->n; i++)
		argv_add(&in->make_args, make_args->v[i]);
	kbuild_env_base(&in->env, &passed);
	argv_free(&passed);
	ktools_probe(tool_args->v, tool_args->n, log, &in->tools);
	in->target = xstrdup("bzImage");
	struct buf t = {0};
	kbuild_inputs_text(in, &t);
	/* inputs is the sha256 of the lines before the inputs line. */
	const char *at = strstr(buf_str(&t), "\ninputs ");
	kb_sha256_hex(t.data, at ? (size_t)(at - t.data + 1) : t.len, in->inputs);
	buf_free(&t);
}

static void list(struct buf *out, const char *name, const struct argv *v)
{
	buf_printf(out, "%s %zu\n", name, v->n);
	for (size_t i = 0; i < v->n; i++)
		buf_printf(out, "%s[%zu] %s\n", name, i, v->v[i]);
}

void kbuild_inputs_text(const struct kbuild_inputs *in, struct buf *out)
{
	buf_puts(out, KBUILD_FORMAT "\n");
	buf_printf(out, "source %s\n", in->source);
	list(out, "patch", &in->patches);
	list(out, "config", &in->config);
	list(out, "make_arg", &in->make_args);
	list(out, "env", &in->env);
	for (size_t i = 0; i < in->tools.n; i++) {
		const struct ktool *t = &in->tools.t[i];
		buf_printf(out, "tool %s %s %s (%s)\n", t->role, t->sha256,
			   t->path[0] ? t->path : "none", t->version[0] ? t->version : "not found");
	}
	buf_printf(out, "target %s\n", in->target);
	buf_printf(out, "inputs %s\n", in->inputs);
	if (in->config_final[0])
		buf_printf(out, "config_final %s\n", in->config_final);
}

void kbuild_inputs_key(const struct kbuild_inputs *in, char key[65])
{
	struct buf t = {0};
	kbuild_inputs_text(in, &t);
	kb_sha256_hex(t.data, t.len, key);
	buf_free(&t);
}

/* The name of a key line: its first word, and for "tool" the role too. */
static char *line_name(const char *line)
{
	size_t n = strcspn(line, " \n");
	if (!strncmp(line, "tool ", 5))
		n = 5 + strcspn(line + 5, " \n");
	return xasprintf("%.*s", (int)n, line);
}

/* The value of the line named name in text, or NULL. */
static char *value_of(const char *text, const char *name)
{
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		char *n = line_name(p);
		bool hit = !strcmp(n, name);
		size_t skip = strlen(n);
		free(n);
		if (hit)
			return xasprintf("%.*s", (int)(len > skip ? len - skip - 1 : 0),
					 p + (len > skip ? skip + 1 : len));
		p = p[len] ? p + len + 1 : NULL;
	}
	return NULL;
}

/* Each name of a, then those only b has, once each, into names. */
static void names_of(const char *a, const char *b, struct argv *names)
{
	const char *texts[] = {a, b};
	for (int k = 0; k < 2; k++)
		for (const char *p = texts[k]; p && *p;) {
			size_t len = strcspn(p, "\n");
			char *n = line_name(p);
			bool seen = false;
			for (size_t i = 0; i < names->n && !seen; i++)
				seen = !strcmp(names->v[i], n);
			if (!seen && n[0])
				argv_add(names, n);
			free(n);
			p = p[len] ? p + len + 1 : NULL;
		}
}

size_t kbuild_inputs_diff(const char *a, const char *b, struct buf *out)
{
	struct argv names = {0};
	size_t n = 0;
	names_of(a, b, &names);
	for (size_t i = 0; i < names.n; i++) {
		char *va = value_of(a, names.v[i]), *vb = value_of(b, names.v[i]);
		if (!va || !vb || strcmp(va, vb)) {
			buf_printf(out, "  %s: %s\n  %*s  %s\n", names.v[i], va ? va : "(none)",
				   (int)strlen(names.v[i]), "", vb ? vb : "(none)");
			n++;
		}
		free(va);
		free(vb);
	}
	argv_free(&names);
	return n;
}

void kbuild_inputs_free(struct kbuild_inputs *in)
{
	free(in->source);
	argv_free(&in->patches);
	argv_free(&in->config);
	argv_free(&in->make_args);
	argv_free(&in->env);
	ktools_free(&in->tools);
	free(in->target);
	memset(in, 0, sizeof(*in));
}

/* Only these lines may differ between a kernel and the base whose objects
 * it starts from. */
static bool may_differ(const char *line)
{
	static const char *const names[] = {"patch", "config", "inputs", "config_final", NULL};
	for (const char *const *n = names; *n; n++)
		if (!strncmp(line, *n, strlen(*n)) &&
		    (line[strlen(*n)] == ' ' || line[strlen(*n)] == '['))
			return true;
	return false;
}

/* The key text's lines that must be equal for an incremental build. */
static char *fixed_lines(const char *text)
{
	struct buf b = {0};
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p);
		if (!may_differ(line))
			buf_printf(&b, "%s\n", line);
		free(line);
		p = p[len] ? p + len + 1 : NULL;
	}
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

bool kbuild_inputs_objects_fit(const char *mine, const char *base)
{
	char *a = fixed_lines(mine), *b = fixed_lines(base);
	bool same = !strcmp(a, b);
	free(a);
	free(b);
	return same;
}
