#include "kbuild_provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_key.h"

#define KPROV_MAX_DIFF 40

/* The text of a file of a cache entry ("" when unreadable). */
static char *slurp(const char *path)
{
	struct buf b = {0};
	buf_read_file(&b, path, 16 * 1024 * 1024);
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

void kbuild_config_diff(const char *base, const char *mine, struct buf *out)
{
	size_t n = 0;
	const char *texts[2] = {base, mine}, *sign = "-+";
	for (int side = 0; side < 2; side++) {
		for (const char *p = texts[side]; p && *p;) {
			const char *eol = strchr(p, '\n');
			size_t len = eol ? (size_t)(eol - p) : strlen(p);
			char *line = xasprintf("%.*s", (int)len, p), name[256], value[8];
			const char *other = texts[1 - side];
			bool same = false;
			for (const char *hit = strstr(other, line); hit && !same;
			     hit = strstr(hit + 1, line))
				same = (hit == other || hit[-1] == '\n') &&
				       (hit[len] == '\n' || !hit[len]);
			if (!same && kconfig_line(line, name, sizeof(name), value, sizeof(value)) &&
			    n++ < KPROV_MAX_DIFF)
				buf_printf(out, " %c%s", sign[side], line);
			free(line);
			p = eol ? eol + 1 : NULL;
		}
	}
	if (n > KPROV_MAX_DIFF)
		buf_printf(out, " (and %zu more)", n - KPROV_MAX_DIFF);
}

static void source_line(const struct kbuild *b, struct buf *out)
{
	buf_printf(out, "source %s %s", b->src.written, b->src.identity);
	if (b->src.origin && b->src.origin[0])
		buf_printf(out, " (%s)", b->src.origin);
	if (b->src.describe)
		buf_printf(out, " (%s)", b->src.describe[0] ? b->src.describe : "no describe");
	buf_puts(out, "\n");
}

static void patch_lines(const struct kbuild *b, struct buf *out)
{
	for (size_t i = 0; i < b->series.n; i++) {
		const struct kpatch *p = &b->series.p[i];
		buf_printf(out, "patch %s %s", p->sha256, p->file);
		if (p->message)
			buf_printf(out, "#%d", p->message);
		buf_printf(out, " %s", p->subject);
		if (p->fuzz)
			buf_printf(out, " (fuzz %d allowed)", p->fuzz);
		buf_puts(out, "\n");
	}
	for (size_t i = 0; i < b->applied.n; i++)
		buf_printf(out, "placed %s\n", b->applied.v[i]);
}

static void config_lines(const struct kbuild *b, const char *entry, struct buf *out)
{
	char sha[65] = "";
	char *cfg = xasprintf("%s/config", entry);
	buf_printf(out, "config %s", b->base_from);
	for (size_t i = 0; i < b->n_frags; i++)
		buf_printf(out, " %s", b->frags[i].from);
	kb_sha256_file(cfg, sha);
	buf_printf(out, "\nconfig_sha256 %s\n", sha);
	if (b->base_name[0] && b->base_key) {
		char *base_cfg = xasprintf("%s/builds/%s/config", b->cache, b->base_key);
		char *base = slurp(base_cfg), *mine = slurp(cfg);
		struct buf diff = {0};
		kbuild_config_diff(base, mine, &diff);
		buf_printf(out, "config_diff %s\n", diff.len ? buf_str(&diff) + 1 : "none");
		buf_free(&diff);
		free(base);
		free(mine);
		free(base_cfg);
	} else if (b->base_name[0]) {
		buf_puts(out, "config_diff (base not built)\n");
	}
	free(cfg);
}

void kbuild_provenance(struct kbuild *b, const char *entry)
{
	struct buf out = {0};
	char sha[65] = "";
	buf_printf(&out, "kernel %s\nkey %s\n", b->name, b->key);
	if (b->base_name[0] && b->base_key)
		buf_printf(&out, "base %s key %s\n", b->base_name, b->base_key);
	else if (b->base_name[0])
		buf_printf(&out, "base %s (not built)\n", b->base_name);
	source_line(b, &out);
	patch_lines(b, &out);
	config_lines(b, entry, &out);
	char *args = argv_render(&b->make_args);
	buf_printf(&out, "make_args %s\nenv", args);
	free(args);
	for (size_t i = 0; i < b->in.env.n; i++)
		buf_printf(&out, " %s", b->in.env.v[i]);
	buf_puts(&out, "\n");
	for (size_t i = 0; i < b->in.tools.n; i++) {
		const struct ktool *t = &b->in.tools.t[i];
		buf_printf(&out, "tool %s %s (%s)%s%s\n", t->role, t->path[0] ? t->path : "none",
			   t->version[0] ? t->version : "not found", t->wrapper[0] ? " via " : "",
			   t->wrapper);
	}
	if (b->incremental_from[0])
		buf_printf(&out, "build from the objects of %s\n", b->incremental_from);
	else
		buf_puts(&out, "build cold\n");
	char *img = xasprintf("%s/bzImage", entry);
	kb_sha256_file(img, sha);
	buf_printf(&out, "build_s %.1f\nbzimage_sha256 %s\n", b->build_s, sha);
	free(img);
	free(b->provenance);
	b->provenance = xstrdup(buf_str(&out));
	buf_free(&out);
}

void kbuild_provenance_cached(struct kbuild *b)
{
	char *path = xasprintf("%s/provenance.txt", b->entry);
	char *text = slurp(path), *at;
	if ((at = strstr(text, "\nbuild_s "))) {
		char value[64];
		snprintf(value, sizeof(value), "%.*s", (int)strcspn(at + 9, "\n"), at + 9);
		parse_double(value, &b->build_s);
	}
	if ((at = strstr(text, "\nbuild from the objects of "))) {
		free(b->incremental_from);
		b->incremental_from = xasprintf("%.*s", (int)strcspn(at + 27, "\n"), at + 27);
	}
	free(text);
	free(path);
	kbuild_provenance(b, b->entry);
}
