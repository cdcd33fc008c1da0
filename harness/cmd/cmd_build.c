/* schedrig build CONFIG [VARIANT...]: build the kernels the variants name
 * (kernel: {build: NAME}) into the results directory's cache, without
 * running anything. */
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "config.h"
#include "kbuild_run.h"
#include "kbuild_set.h"
#include "reportcmd.h"
#include "runner.h"
#include "util.h"

static const char usage_lines[] =
	"usage: schedrig build CONFIG [VARIANT...] [--db PATH] [--quiet]\n";

static const char help_text[] =
	"\n"
	"Build the kernels that the config's variants (all, or those named) boot\n"
	"with kernel: {build: NAME}: copy the source, apply the series, make the\n"
	"config, make bzImage, store the result in the cache of the results\n"
	"directory (the directory of --db, default " DEFAULT_DB "):\n"
	"cache/builds/KEY/. A kernel whose key is cached is not built again.\n"
	"On a terminal one status line shows the step, the log's last line, the\n"
	"elapsed time and the log's path (cache/logs/build-NAME.log).\n"
	"\n"
	"Exit status: 0 every kernel built or cached, 1 a build failed, 2 bad\n"
	"usage, 128+N interrupted by signal N (nothing half-built is kept).\n";


/* Every name is a variant of e that builds its kernel. */
static int check_names(const struct experiment *e, char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct cfg_variant *v = NULL;
		for (size_t k = 0; k < e->n_variants; k++)
			if (!strcmp(e->variants[k].name, names[i]))
				v = &e->variants[k];
		if (!v || !v->build) {
			fprintf(stderr, "schedrig build: %s: %s '%s'\n", e->path,
				v ? "no kernel to build for variant" : "no variant named", names[i]);
			return -1;
		}
	}
	return 0;
}

int cmd_build(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct cmd_value_flag o = {.value = DEFAULT_DB}; /* --db FILE, --quiet */
	const struct cmd_optspec spec = {
		.cmd = "build", .shortopts = "", .longopts = longopts, .usage = usage_lines,
		.help_tail = help_text, .usage_lines = usage_lines, .with_value = "d",
		.on = cmd_value_flag_option, .ctx = &o,
	};
	char err[4096];
	(void)ctx; /* CMD_NO_STORE: it writes no database, only the cache beside it */
	int opt = cmd_parse(argc, argv, &spec);
	if (opt >= 0)
		return opt;
	if (optind == argc)
		return cmd_usage_error("build", usage_lines, "no CONFIG given");
	struct experiment *e = config_load(argv[optind], err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	char *const *names = argv + optind + 1;
	size_t n_names = (size_t)(argc - optind - 1);
	int rc = EXIT_USAGE;
	if (kbuild_check(e, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	if (check_names(e, names, n_names))
		goto out;
	char *copy = xstrdup(o.value);
	char *cache = xasprintf("%s/cache", dirname(copy));
	char *logs = xasprintf("%s/logs", cache);
	struct kbuild_set set;
	rc = 1;
	if (runner_init(err, sizeof(err)) || mkdir_p(logs, err, sizeof(err))) {
		fprintf(stderr, "schedrig build: %s\n", err);
	} else {
		int r = kbuild_set_make(e, names, n_names, cache, logs, stderr, o.flag, &set);
		if (!set.n && !o.flag)
			fprintf(stderr, "schedrig build: %s: no variant builds a kernel\n", e->path);
		rc = r == KB_INTERRUPTED ? 128 + runner_interrupt_signal() : r;
		kbuild_set_free(&set);
	}
	free(copy);
	free(cache);
	free(logs);
out:
	experiment_free(e);
	return rc;
}
