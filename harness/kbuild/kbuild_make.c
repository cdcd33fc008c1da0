#include "kbuild_make.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin_proc.h"
#include "kbuild_env.h"
#include "kbuild_run.h"
#include "spawn.h"

#define KMAKE_LOG_TAIL_LINES 15

static bool sets(const struct argv *args, const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < args->n; i++)
		if (!strncmp(args->v[i], name, len) && args->v[i][len] == '=')
			return true;
	return false;
}

void kmake_tool_args(const struct argv *make_args, bool no_ccache, struct argv *out)
{
	char ccache[PATH_MAX];
	for (size_t i = 0; i < make_args->n; i++)
		argv_add(out, make_args->v[i]);
	if (no_ccache || sets(make_args, "LLVM") || sets(make_args, "CROSS_COMPILE") ||
	    spawn_which("ccache", KBUILD_PATH, ccache, sizeof(ccache)))
		return;
	if (!sets(make_args, "CC"))
		argv_add(out, "CC=ccache gcc");
	if (!sets(make_args, "HOSTCC"))
		argv_add(out, "HOSTCC=ccache gcc");
}

/* make's failure: its status and the log's last lines. */
static void make_failed(const char *target, const char *why, const char *log, char *err,
			size_t errsz)
{
	char tail[4096] = "";
	proc_file_tail(log, KMAKE_LOG_TAIL_LINES, "  ", tail, sizeof(tail));
	snprintf(err, errsz, "make %s failed (%s); the log's last lines (%s):\n%s", target, why,
		 log, tail);
}

/* The make arguments: tool args, with the debug prefix map joined to a
 * KCFLAGS of make_args (or one of its own). */
static void make_argv(const struct kmake *m, const char *target, struct argv *a)
{
	struct argv tools = {0};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char *map = m->debug_prefix_map ? xasprintf("-fdebug-prefix-map=%s=.", m->obj) : NULL;
	bool joined = false;
	kmake_tool_args(m->make_args, m->no_ccache, &tools);
	argv_add(a, "make");
	if (m->jobs)
		argv_addf(a, "-j%ld", cpus > 0 ? cpus : 1);
	if (m->obj)
		argv_addf(a, "O=%s", m->obj);
	for (size_t i = 0; i < tools.n; i++) {
		if (map && !strncmp(tools.v[i], "KCFLAGS=", 8)) {
			argv_addf(a, "KCFLAGS=%s %s", map, tools.v[i] + 8);
			joined = true;
		} else {
			argv_add(a, tools.v[i]);
		}
	}
	if (map && !joined)
		argv_addf(a, "KCFLAGS=%s", map);
	argv_add(a, target);
	argv_free(&tools);
	free(map);
}

int kmake_run(const struct kmake *m, const char *target, char *err, size_t errsz)
{
	const char *paths[] = {m->tree, m->obj, m->basedir, m->log};
	for (size_t i = 0; i < 4; i++)
		if (paths[i] && paths[i][0] != '/')
			return err_printf(err, errsz, "make %s: %s is not an absolute path", target,
					  paths[i]);
	struct argv a = {0}, env = {0};
	make_argv(m, target, &a);
	argv_addf(&env, "CCACHE_BASEDIR=%s", m->basedir);
	argv_add(&env, "CCACHE_NOHASHDIR=1");
	argv_add(&env, "CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime");
	for (size_t i = 0; m->env && i < m->env->n; i++)
		argv_add(&env, m->env->v[i]);
	FILE *f = fopen(m->log, "a");
	if (f) {
		char *line = argv_render(&a);
		fprintf(f, "schedrig: %s\n", line);
		free(line);
		fclose(f);
	}
	struct kb_cmd c = {.argv = a.v, .dir = m->tree, .log = m->log, .append = true,
			   .set_env = (const char *const *)env.v, .tick = m->tick, .ctx = m->ctx};
	char why[512];
	int rc = kb_run(&c, why, sizeof(why));
	if (rc == KB_INTERRUPTED)
		snprintf(err, errsz, "%s", why);
	else if (rc)
		make_failed(target, why, m->log, err, errsz);
	argv_free(&a);
	argv_free(&env);
	return rc == KB_INTERRUPTED ? rc : rc ? -1 : 0;
}
