/* perf bench sched messaging (linux-perf 6.1): perf's port of hackbench,
 * groups of 20 senders and 20 receivers.
 *
 * Lines parsed (stdout):
 *   "     Total time: 1.817 [sec]"   default format
 *   "1.880"                          `perf bench -f simple`: the only line
 * -> metric time (s, lower), op = groups. The "# Running ..." header lines
 * carry no result. */
#include <signal.h>
#include "load.h"
#include "messaging.h"
#include "perf_bench.h"

extern const struct load_ops perf_messaging_load;

static const struct param_def perf_messaging_params[] = {
	{"mode", PARAM_ENUM, "process", "process|thread", 1, 0,
	 "workers are processes or threads (-t)"},
	{"ipc", PARAM_ENUM, "socket", "socket|pipe", 1, 0,
	 "AF_UNIX socketpairs or pipes (-p)"},
	{"groups", PARAM_UINT, "4", NULL, 1, 100000,
	 "number of groups of 20 senders and 20 receivers (-g); the op of every sample"},
	{"loops", PARAM_UINT, "1000", NULL, 1, 100000000,
	 "messages each sender sends to each receiver (-l)"},
};

static const struct metric_def perf_messaging_metrics[] = {
	{"time", "s", BETTER_LOWER, "wall time of the message exchange (Total time)", 4, false},
};

/* Build "perf bench sched messaging [-t] [-p] -g G -l L". Never fails. */
static int perf_messaging_build_argv(const struct params *p, struct argv *argv,
				     char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	perf_bench_argv(argv, "messaging");
	messaging_argv(p, argv, NULL, "-t");
	return 0;
}

/* The seconds of the Total time line (or of -f simple's bare number). */
static int perf_messaging_time(const struct load_output *o, const struct text_lines *t,
			       double *time_s, char *why, size_t whysz)
{
	bool simple;
	(void)o;
	return perf_bench_total_time(t, time_s, &simple, why, whysz);
}

/* One sample time, op = groups (messaging.h). */
static int perf_messaging_parse(const struct load_output *o, const struct params *p,
				struct sample_vec *samples, char *why, size_t whysz)
{
	return messaging_parse(&perf_messaging_load, perf_messaging_time, o, p, samples, why, whysz);
}

/* Durations of the run (load_ops.durations). */
static const char *const perf_messaging_durations[] = {"time", NULL};

/* The perf-messaging driver (see the top of this file). */
const struct load_ops perf_messaging_load = {
	.name = "perf-messaging",
	.description = "perf bench sched messaging: hackbench-style groups of senders and receivers",
	.params = perf_messaging_params,
	.n_params = sizeof(perf_messaging_params) / sizeof(perf_messaging_params[0]),
	.metrics = perf_messaging_metrics,
	.n_metrics = sizeof(perf_messaging_metrics) / sizeof(perf_messaging_metrics[0]),
	.stop_signal = SIGTERM,
	.build_argv = perf_messaging_build_argv,
	.parse = perf_messaging_parse,
	.durations = perf_messaging_durations,
};
