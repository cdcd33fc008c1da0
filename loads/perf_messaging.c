/* perf bench sched messaging (linux-perf 6.1): perf's port of hackbench,
 * groups of 20 senders and 20 receivers.
 *
 * Lines parsed (stdout):
 *   "     Total time: 1.817 [sec]"   default format
 *   "1.880"                          `perf bench -f simple`: the only line
 * -> metric time (s, lower), op = groups. The "# Running ..." header lines
 * carry no result. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "scan.h"

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
	const char *mode = params_get(p, "mode");
	const char *ipc = params_get(p, "ipc");

	(void)err;
	(void)errsz;
	argv_add(argv, "perf");
	argv_add(argv, "bench");
	argv_add(argv, "sched");
	argv_add(argv, "messaging");
	if (mode && !strcmp(mode, "thread"))
		argv_add(argv, "-t");
	if (ipc && !strcmp(ipc, "pipe"))
		argv_add(argv, "-p");
	argv_add(argv, "-g");
	argv_addf(argv, "%lld", params_int(p, "groups", 4));
	argv_add(argv, "-l");
	argv_addf(argv, "%lld", params_int(p, "loops", 1000));
	return 0;
}

/* The seconds of a "Total time: X [sec]" line in *v; false for any other
 * line. *bad is set when it is a Total time line without a valid number. */
static bool total_time(const char *line, double *v, bool *bad)
{
	const char *rest = after_prefix(line, "Total time:");
	if (!rest)
		return false;
	struct fields fs;
	fields_split(&fs, rest);
	*bad = !(fs.n == 2 && !strcmp(fs.f[1], "[sec]") && parse_double(fs.f[0], v) && *v >= 0);
	fields_free(&fs);
	return true;
}

/* Parse "Total time: X [sec]" (or the bare number of -f simple) into one
 * sample time, op = groups. */
static int perf_messaging_parse(const struct load_output *o, const struct params *p,
				struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	double v = 0;
	int found = 0, nonblank = 0, rc;
	const char *only = NULL;

	if (output_status(o, &perf_messaging_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	for (size_t i = 0; i < t.n; i++) {
		bool bad = false;
		if (!blank(t.line[i])) {
			nonblank++;
			only = t.line[i];
		}
		if (!total_time(t.line[i], &v, &bad))
			continue;
		if (bad) {
			rc = parse_fail(why, whysz, "unparsable Total time line: \"%.60s\"", t.line[i]);
			goto out;
		}
		found++;
	}
	if (found > 1) {
		rc = parse_fail(why, whysz, "more than one Total time line");
		goto out;
	}
	if (!found) {
		/* -f simple: the whole output is one number. */
		struct fields fs = {0};
		bool ok = false;
		if (nonblank == 1) {
			fields_split(&fs, only);
			ok = fs.n == 1 && parse_double(fs.f[0], &v) && v >= 0;
			fields_free(&fs);
		}
		if (!ok) {
			rc = parse_fail(why, whysz, "no \"Total time:\" line in stdout");
			goto out;
		}
	}
	char op[SAMPLE_OP_MAX];
	snprintf(op, sizeof(op), "%lld", params_int(p, "groups", 4));
	sample_vec_add(samples, "time", "s", BETTER_LOWER, op, v);
	rc = 0;
out:
	text_lines_free(&t);
	return rc;
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
	.summarizes_on_stop = false,
	.build_argv = perf_messaging_build_argv,
	.parse = perf_messaging_parse,
	.durations = perf_messaging_durations,
};
