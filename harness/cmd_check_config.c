/* schedrig check-config CONFIG...: validate configs without running them. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "plan.h"

int cmd_check_config(int argc, char **argv)
{
	int rc = 0;
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fputs("usage: schedrig check-config CONFIG...\n\n"
		      "Validate each config and its matrix; print 'CONFIG: ok (N cells)' or\n"
		      "'file:line:col: message'. Exit 2 when any config is bad.\n",
		      argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (int i = 1; i < argc; i++) {
		char err[1024];
		struct plan p;
		struct experiment *e = config_load(argv[i], err, sizeof(err));
		if (!e || plan_build(e, &p, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			experiment_free(e);
			rc = EXIT_USAGE;
			continue;
		}
		printf("%s: ok (%s, %zu variant(s), %zu cell(s), %d iteration(s))\n", argv[i],
		       e->name, e->n_variants, p.n_cells, e->iterations);
		plan_free(&p);
		experiment_free(e);
	}
	return rc;
}
