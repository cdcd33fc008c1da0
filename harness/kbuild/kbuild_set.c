#include "kbuild_set.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild_run.h"
#include "progress.h"
#include "util.h"

struct show {
	FILE *f;
	bool tty, quiet;
	int64_t start_ns;
	char last_step[64];
};

/* The last non-empty line of the log (its last 4 KiB), into dst. */
static void log_last_line(const char *log, char *dst, size_t size)
{
	char tail[4096];
	dst[0] = '\0';
	FILE *f = fopen(log, "r");
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, len > (long)sizeof(tail) - 1 ? len - (long)sizeof(tail) + 1 : 0, SEEK_SET);
	size_t n = fread(tail, 1, sizeof(tail) - 1, f);
	fclose(f);
	tail[n] = '\0';
	while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
		tail[--n] = '\0';
	char *line = strrchr(tail, '\n');
	line = line ? line + 1 : tail;
	while (*line == ' ')
		line++;
	size_t cut = strlen(line) < size - 1 ? strlen(line) : size - 1;
	memcpy(dst, line, cut);
	dst[cut] = '\0';
	for (char *c = dst; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = '?';
}

static void show_progress(void *ctx, const char *kernel, const char *step, const char *log)
{
	struct show *s = ctx;
	if (s->quiet)
		return;
	if (!s->tty) {
		if (strcmp(step, s->last_step))
			fprintf(s->f, "building %s: %s (log %s)\n", kernel, step, log);
		snprintf(s->last_step, sizeof(s->last_step), "%s", step);
		fflush(s->f);
		return;
	}
	char last[100], elapsed[32];
	log_last_line(log, last, 60);
	progress_format_duration(elapsed, sizeof(elapsed),
				 (double)(mono_ns() - s->start_ns) / 1e9);
	fprintf(s->f, "\rbuilding %s: %s | %s | %s | log %s\033[K", kernel, step, last, elapsed,
		log);
	fflush(s->f);
}

static bool wanted(const struct cfg_variant *v, char *const *only, size_t n_only)
{
	if (!v->build)
		return false;
	for (size_t i = 0; i < n_only; i++)
		if (!strcmp(only[i], v->name))
			return true;
	return n_only == 0;
}

static int make_one(const struct experiment *e, struct kbuild_one *k, const char *name,
		    const char *cache, struct show *s)
{
	char err[8192] = "";
	s->start_ns = mono_ns();
	s->last_step[0] = '\0';
	show_progress(s, name, "resolving the source, series and config", k->log);
	k->rc = kbuild_prepare(e, name, cache, k->log, &k->b, err, sizeof(err));
	if (!k->rc)
		k->rc = kbuild_build(&k->b, k->log, show_progress, s, err, sizeof(err));
	if (s->tty && !s->quiet)
		fprintf(s->f, "\r\033[K");
	k->err = xstrdup(err);
	if (!s->quiet && !k->rc && k->b.cached)
		fprintf(s->f, "kernel %s: cached %s (key %.16s, no compiler ran)\n", name,
			k->b.bzimage, k->b.key);
	else if (!s->quiet && !k->rc)
		fprintf(s->f, "kernel %s: built %s (key %.16s, %s in %.1f s; build log kept in the"
			" cache entry)\n", name, k->b.bzimage, k->b.key,
			k->b.incremental_from[0] ? "from its base's objects" : "cold", k->b.build_s);
	else if (!s->quiet)
		fprintf(s->f, "kernel %s: build failed: %s\n", name, err);
	fflush(s->f);
	return k->rc;
}

int kbuild_set_make(const struct experiment *e, char *const *only, size_t n_only,
		    const char *cache, const char *log_dir, FILE *f, bool quiet,
		    struct kbuild_set *set)
{
	struct show s = {.f = f, .tty = isatty(fileno(f)), .quiet = quiet};
	int ret = 0;
	memset(set, 0, sizeof(*set));
	set->k = xcalloc(e->n_variants + 1, sizeof(*set->k));
	for (size_t v = 0; v < e->n_variants && ret != KB_INTERRUPTED; v++) {
		const struct cfg_variant *var = &e->variants[v];
		if (!wanted(var, only, n_only) || kbuild_set_find(set, var->build))
			continue;
		struct kbuild_one *k = &set->k[set->n++];
		k->log = xasprintf("%s/build-%s.log", log_dir, var->build);
		int rc = make_one(e, k, var->build, cache, &s);
		if (rc == KB_INTERRUPTED)
			ret = rc;
		else if (rc)
			ret = 1;
	}
	return ret;
}

const struct kbuild_one *kbuild_set_find(const struct kbuild_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->k[i].b.name && !strcmp(set->k[i].b.name, name))
			return &set->k[i];
	return NULL;
}

void kbuild_set_free(struct kbuild_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		kbuild_free(&set->k[i].b);
		free(set->k[i].err);
		free(set->k[i].log);
	}
	free(set->k);
	memset(set, 0, sizeof(*set));
}
