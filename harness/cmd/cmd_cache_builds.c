/* schedrig cache diff|verify|--clear-stale: the kernels the rig built into
 * the results directory's cache (cache/builds/, harness/kbuild/kbuild.h):
 * what makes two entries differ, whether an entry is what a cold build
 * gives, and the removal of what killed builds left. */
#include <dirent.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmdopts.h"
#include "commands.h"
#include "config.h"
#include "kbuild.h"
#include "kbuild_cache.h"
#include "kbuild_recipe.h"
#include "kbuild_run.h"
#include "kbuild_verify.h"
#include "runner.h"
#include "util.h"

#define USAGE_LINES                                                                   \
	"usage: schedrig cache diff KEY1 KEY2 [--db PATH]\n"                           \
	"       schedrig cache verify [KEY | CONFIG [KERNEL...]] [--db PATH]\n"        \
	"       schedrig cache --clear-stale [--db PATH]\n"

static const char usage_lines[] = USAGE_LINES;

static const char help_text[] = USAGE_LINES
	"\n"
	"The kernels schedrig build and run made, in the cache beside the results\n"
	"database (the directory of --db, default " DEFAULT_DB "): cache/builds/KEY/.\n"
	"A KEY may be shortened to a unique prefix of 8 or more digits.\n"
	"\n"
	"  diff KEY1 KEY2   the keyed inputs (key.txt) that differ between two builds:\n"
	"                   source, patches, config items, the final .config, make_args,\n"
	"                   environment, toolchain\n"
	"  verify [KEY]     build the entry again, cold (no base objects, no ccache), in\n"
	"                   a scratch directory from the recipe the entry keeps, and say\n"
	"                   identical, or what differs first (the key's inputs, the\n"
	"                   .config, the bzImage and its first differing object file);\n"
	"                   without KEY every entry\n"
	"  verify CONFIG [KERNEL...]  the same for the kernels: entries the config's\n"
	"                   variants build (or those named), against their cache entries\n"
	"  --clear-stale    remove the temporary directories builds that were killed\n"
	"                   left (any PID, any age; a build in progress holds a lock and\n"
	"                   is left alone)\n"
	"\n"
	"Exit status: 0 identical (verify) or done, 1 a difference or a failure, 2 bad\n"
	"usage, 128+N interrupted by signal N.\n";

struct opts {
	const char *db;
};

static int on_option(int val, const char *arg, void *ctx)
{
	struct opts *o = ctx;
	if (val == 'd')
		o->db = arg;
	return 0;
}

/* The cache directory of db: DIR/cache. */
static char *cache_of(const char *db)
{
	char *copy = xstrdup(db), *cache = xasprintf("%s/cache", dirname(copy));
	free(copy);
	return cache;
}

/* The entry of cache whose key is key or starts with it (8 digits or
 * more, unique) into full. 0, or -1 with err. */
static int find_key(const char *cache, const char *key, char full[65], char *err, size_t errsz)
{
	char *builds = xasprintf("%s/builds", cache);
	DIR *d = opendir(builds);
	struct dirent *de;
	size_t n = 0, len = strlen(key);
	while (d && len >= 8 && (de = readdir(d)))
		if (strlen(de->d_name) == 64 && !strncmp(de->d_name, key, len) && n++ == 0)
			snprintf(full, 65, "%s", de->d_name);
	if (d)
		closedir(d);
	int rc = n == 1 ? 0 : err_printf(err, errsz, "%s: %s cache entry %s%s", builds,
					     n ? "more than one" : "no", key,
					     len < 8 ? " (give 8 digits or more)" : "");
	free(builds);
	return rc;
}

static char *key_text(const char *cache, const char *key)
{
	char *path = xasprintf("%s/builds/%s/key.txt", cache, key);
	struct buf b = {0};
	char *text = buf_read_file(&b, path, 1024 * 1024) ? NULL : xstrdup(buf_str(&b));
	buf_free(&b);
	free(path);
	return text;
}

static int diff(const char *cache, char *const *keys)
{
	char a[65], b[65], err[1024];
	if (find_key(cache, keys[0], a, err, sizeof(err)) ||
	    find_key(cache, keys[1], b, err, sizeof(err))) {
		fprintf(stderr, "schedrig cache diff: %s\n", err);
		return 1;
	}
	char *ta = key_text(cache, a), *tb = key_text(cache, b);
	int rc = 0;
	if (!ta || !tb) {
		fprintf(stderr, "schedrig cache diff: %s has no key.txt\n", ta ? b : a);
		rc = 1;
	} else {
		struct buf out = {0};
		size_t n = kbuild_inputs_diff(ta, tb, &out);
		if (n)
			printf("%s and %s: %zu keyed inputs differ (%.16s first, %.16s second):\n%s", a,
			       b, n, a, b, buf_str(&out));
		else
			printf("%s and %s: the same keyed inputs\n", a, b);
		buf_free(&out);
	}
	free(ta);
	free(tb);
	return rc;
}

/* Verify kernel name of the config at path (want NULL: its newest entry). */
static int verify_one(const char *path, const char *name, const char *want, const char *cache)
{
	char err[8192];
	struct experiment *e = config_load(path, err, sizeof(err));
	if (!e || kbuild_check(e, err, sizeof(err))) {
		fprintf(stderr, "schedrig cache verify: %s\n", err);
		experiment_free(e);
		return e ? 1 : EXIT_USAGE;
	}
	char *log = xasprintf("%s/logs/verify-%s.log", cache, want ? want : name);
	char *logs = xasprintf("%s/logs", cache);
	fprintf(stderr, "verifying kernel %s: a cold build (no base objects, no ccache), log %s\n",
		name, log);
	int rc = mkdir_p(logs, err, sizeof(err)) ? -1
						    : kverify_kernel(e, name, want, cache, log, stdout,
								     err, sizeof(err));
	if (rc < 0 && rc != KB_INTERRUPTED)
		fprintf(stderr, "schedrig cache verify: %s\n", err);
	free(log);
	free(logs);
	experiment_free(e);
	return rc == KB_INTERRUPTED ? 128 + runner_interrupt_signal() : rc ? 1 : 0;
}

static int verify_key(const char *cache, const char *key)
{
	char full[65], err[1024];
	char *recipe = find_key(cache, key, full, err, sizeof(err)) ? NULL
				 : krecipe_of(cache, full, err, sizeof(err));
	if (!recipe) {
		fprintf(stderr, "schedrig cache verify: %s\n", err);
		return 1;
	}
	int rc = verify_one(recipe, "recipe", full, cache);
	free(recipe);
	return rc;
}

/* The kernels the config's variants build, or those named. */
static int verify_config(const char *path, char *const *names, size_t n, const char *cache)
{
	char err[8192];
	struct experiment *e = config_load(path, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	struct argv kernels = {0};
	for (size_t i = 0; i < n; i++)
		argv_add(&kernels, names[i]);
	for (size_t v = 0; !n && v < e->n_variants; v++) {
		bool seen = false;
		for (size_t k = 0; e->variants[v].build && k < kernels.n; k++)
			seen |= !strcmp(kernels.v[k], e->variants[v].build);
		if (e->variants[v].build && !seen)
			argv_add(&kernels, e->variants[v].build);
	}
	int rc = 0;
	for (size_t k = 0; k < kernels.n && rc < 2; k++) {
		if (!config_kernel(e, kernels.v[k])) {
			fprintf(stderr, "schedrig cache verify: %s: no kernels: entry '%s'\n", path,
				kernels.v[k]);
			rc = EXIT_USAGE;
		} else {
			int r = verify_one(path, kernels.v[k], NULL, cache);
			rc = r > rc ? r : rc;
		}
	}
	if (!kernels.n)
		fprintf(stderr, "schedrig cache verify: %s: no variant builds a kernel\n", path);
	argv_free(&kernels);
	experiment_free(e);
	return rc;
}

static int verify_all(const char *cache)
{
	char *builds = xasprintf("%s/builds", cache);
	DIR *d = opendir(builds);
	struct dirent *de;
	struct argv keys = {0};
	while (d && (de = readdir(d)))
		if (strlen(de->d_name) == 64)
			argv_add(&keys, de->d_name);
	if (d)
		closedir(d);
	int rc = 0;
	for (size_t i = 0; i < keys.n && rc < 2; i++) {
		int r = verify_key(cache, keys.v[i]);
		rc = r > rc ? r : rc;
	}
	if (!keys.n)
		printf("%s: no cache entry to verify\n", builds);
	argv_free(&keys);
	free(builds);
	return rc;
}

static int clear_stale(const char *cache)
{
	struct argv removed = {0};
	unsigned long long bytes = 0;
	size_t n = kcache_clear_stale(cache, &removed, &bytes);
	for (size_t i = 0; i < removed.n; i++)
		printf("removed %s\n", removed.v[i]);
	printf("%s: %zu stale temporary director%s removed, %.1f MB\n", cache, n,
	       n == 1 ? "y" : "ies", (double)bytes / 1e6);
	argv_free(&removed);
	return 0;
}

int cmd_cache_builds(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"clear-stale", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {.db = DEFAULT_DB};
	char err[512];
	bool stale = false;
	for (int i = 1; i < argc; i++)
		stale |= !strcmp(argv[i], "--clear-stale");
	int opt = cmd_options(argc, argv, longopts, help_text, on_option, &o);
	if (opt >= 0)
		return opt;
	char *const *ops = argv + optind;
	size_t n = (size_t)(argc - optind);
	char *cache = cache_of(o.db);
	int rc;
	if (runner_init(err, sizeof(err))) {
		fprintf(stderr, "schedrig cache: %s\n", err);
		rc = 1;
	} else if (stale && !n) {
		rc = clear_stale(cache);
	} else if (n == 3 && !strcmp(ops[0], "diff")) {
		rc = diff(cache, ops + 1);
	} else if (n >= 1 && !strcmp(ops[0], "verify")) {
		struct stat st;
		rc = n == 1 ? verify_all(cache)
		     : !stat(ops[1], &st) && S_ISREG(st.st_mode)
			     ? verify_config(ops[1], ops + 2, n - 2, cache)
		     : n == 2 ? verify_key(cache, ops[1])
			      : cmd_usage_error("cache", usage_lines, "%s: no such config", ops[1]);
	} else {
		rc = cmd_usage_error("cache", usage_lines, "expected diff KEY1 KEY2, verify [KEY|"
				     "CONFIG [KERNEL...]] or --clear-stale");
	}
	free(cache);
	return rc;
}

const char *cmd_cache_builds_help(void)
{
	return help_text;
}
