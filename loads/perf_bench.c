/* What the perf bench sched drivers share: see perf_bench.h. */
#include "perf_bench.h"

void perf_bench_argv(struct argv *argv, const char *bench)
{
	argv_add(argv, "perf");
	argv_add(argv, "bench");
	argv_add(argv, "sched");
	argv_add(argv, bench);
}

int perf_bench_total_time(const struct text_lines *t, double *time_s, bool *simple, char *why,
			  size_t whysz)
{
	int found = scan_one_labelled(t, "Total time:", "[sec]", time_s, why, whysz);
	const char *only = NULL;
	size_t nonblank = 0;

	*simple = false;
	if (found)
		return found < 0 ? -1 : 0;
	for (size_t i = 0; i < t->n; i++)
		if (!blank(t->line[i])) {
			nonblank++;
			only = t->line[i];
		}
	if (nonblank != 1 || !scan_value(only, NULL, time_s))
		return parse_fail(why, whysz, "no \"Total time:\" line in stdout");
	*simple = true;
	return 0;
}
