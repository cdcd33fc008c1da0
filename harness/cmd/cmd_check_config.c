/* schedrig check-config CONFIG...: validate configs without running them. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_series.h"
#include "commands.h"
#include "config.h"
#include "kbuild.h"
#include "kbuild_plan.h"
#include "plan.h"
#include "preflight.h"
#include "preflight_check.h"
#include "util.h"
#include "variant.h"

static const char usage_line[] = "usage: schedrig check-config CONFIG... [--db PATH]\n";

int cmd_check_config(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no set-up: CMD_NO_STORE */
	int rc = 0;
	if (argc < 2) {
		fprintf(stderr, "schedrig check-config: no CONFIG given\n%s"
			"see schedrig check-config --help\n", usage_line);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help")) {
		fputs(usage_line, stdout);
		fputs("\n"
		      "Validate each config and its matrix; print 'CONFIG: ok (N cells)' or\n"
		      "'file:line:col: message'. Exit 2 when any config is bad. The points of\n"
		      "bisect: points: (schedrig bisect) are checked too.\n"
		      "\n"
		      "Each (variant, load) pair is checked against what the variant will have\n"
		      "(preflight): latency_nice, knobs and privileges on the running kernel\n"
		      "(boot: local); the tools packed for a qemu guest and its kernel package's\n"
		      "config and BTF, when the package is in the rig's cache already\n"
		      "(~/.cache/schedrig/debs: schedrig cache); check-config fetches nothing.\n"
		      "What cannot work is 'CONFIG: variant V, load L: ...' on stderr (exit 2),\n"
		      "what cannot be known yet 'CONFIG: warning: ...'; 'CONFIG: note: ...' on\n"
		      "stdout says how a load will behave (a background load cut by the stop).\n"
		      "\n"
		      "A load tool that a boot: local variant needs but that is not installed\n"
		      "here (not in PATH) is a warning, 'CONFIG: warning: load ...', and leaves\n"
		      "the exit status alone: a config is often checked on another machine than\n"
		      "the one it runs on. schedrig run refuses to start without it (exit 1).\n"
		      "\n"
		      "Every file a kernels: entry names (source, config files, patches) must\n"
		      "exist and every patches: item hold patches (paths relative to the\n"
		      "current directory). For each kernel a variant builds, a note says\n"
		      "whether it is cached, will be built from its base's objects or cold,\n"
		      "about how long that takes here (the cache's past builds) and what will\n"
		      "be downloaded first (a linux-source package: its size); nothing is\n"
		      "built or fetched.\n"
		      "\n"
		      "  --db PATH   the results database whose cache/ holds the kernels built\n"
		      "              (default " DEFAULT_DB ")\n",
		      stdout);
		return 0;
	}
	const char *db = DEFAULT_DB;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--db"))
			db = argv[i + 1];
	char *copy = xstrdup(db), *cache = xasprintf("%s/cache", dirname(copy));
	for (int i = 1; i < argc; i++) {
		char err[4096];
		if (!strcmp(argv[i], "--db")) {
			i++;
			continue;
		}
		struct plan p;
		struct experiment *e = config_load(argv[i], err, sizeof(err));
		if (!e || plan_build(e, &p, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			experiment_free(e);
			rc = EXIT_USAGE;
			continue;
		}
		struct preflight pf = {.e = e, .p = &p};
		size_t n_points = 0;
		int bad = bisect_series_check_points(e->path, e->text, &n_points, err, sizeof(err));
		if (bad < 0)
			fprintf(stderr, "%s\n", err);
		int bad_kernels = kbuild_check(e, err, sizeof(err));
		if (bad_kernels)
			fprintf(stderr, "%s\n", err);
		if (bad_kernels || preflight_check(&pf) || bad < 0) {
			rc = EXIT_USAGE;
		} else {
			printf("%s: ok (%s, %zu variant(s), %zu cell(s), %d iteration(s)", argv[i],
			       e->name, e->n_variants, p.n_cells, e->iterations);
			if (bad == 0)
				printf(", %zu bisect point(s)", n_points);
			printf(")\n");
		}
		preflight_print(&pf, stderr, stdout);
		if (!bad_kernels)
			kbuild_plan_notes(e, cache, stdout);
		if (variant_check_local_tools(e, &p, err, sizeof(err)))
			fprintf(stderr, "%s: warning: %s\n", argv[i], err);
		preflight_free(&pf);
		plan_free(&p);
		experiment_free(e);
	}
	free(copy);
	free(cache);
	return rc;
}
