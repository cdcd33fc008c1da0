/* The list of load drivers. Add a driver: write loads/NAME.c with a
 * `const struct load_ops NAME_load` and add it here. */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "load.h"

extern const struct load_ops hackbench_load;
extern const struct load_ops perf_messaging_load;
extern const struct load_ops perf_pipe_load;
extern const struct load_ops cyclictest_load;
extern const struct load_ops dbench_load;
extern const struct load_ops stress_ng_load;
extern const struct load_ops sysbench_load;
extern const struct load_ops sockperf_load;
extern const struct load_ops schbench_load;
extern const struct load_ops netperf_tcp_rr_load;
extern const struct load_ops fake_load;
extern const struct load_ops tcp_rr_load;
extern const struct load_ops wakeup_lat_load;
extern const struct load_ops kernbench_load;
extern const struct load_ops oltp_load;

static const struct load_ops *const loads[] = {
	&hackbench_load,
	&perf_messaging_load,
	&perf_pipe_load,
	&cyclictest_load,
	&dbench_load,
	&stress_ng_load,
	&sysbench_load,
	&sockperf_load,
	&schbench_load,
	&netperf_tcp_rr_load,
	&tcp_rr_load,
	&fake_load,
	&wakeup_lat_load,
	&kernbench_load,
	&oltp_load,
};

const struct load_ops *const *load_all(size_t *n)
{
	*n = sizeof(loads) / sizeof(loads[0]);
	return loads;
}

const struct load_ops *load_find(const char *name)
{
	size_t n;
	const struct load_ops *const *all = load_all(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

const struct metric_def *load_metric(const char *tool, const char *name)
{
	const struct load_ops *ops = tool ? load_find(tool) : NULL;
	for (size_t i = 0; ops && i < ops->n_metrics; i++)
		if (!strcmp(ops->metrics[i].name, name))
			return &ops->metrics[i];
	return NULL;
}

int load_build_argv(const struct load_ops *ops, const struct params *p, struct argv *argv,
		    char *err, size_t errsz)
{
	if (ops->build_argv)
		return ops->build_argv(p, argv, err, errsz);
	return builtin_build_argv(ops, p, argv, err, errsz);
}

int load_builtin_command(const char *prog, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		printf("usage: %s NAME [--PARAM VALUE]...\n\nRun a built-in load:", prog);
		size_t n;
		const struct load_ops *const *all = load_all(&n);
		for (size_t i = 0; i < n; i++)
			if (all[i]->builtin_main)
				printf(" %s", all[i]->name);
		puts("");
		return argc < 2 ? 2 : 0;
	}
	const struct load_ops *o = load_find(argv[1]);
	if (!o || !o->builtin_main) {
		fprintf(stderr, "%s: '%s' is not a built-in load\n", prog, argv[1]);
		return 2;
	}
	return o->builtin_main(argc - 1, argv + 1);
}
