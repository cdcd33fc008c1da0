/* perf bench sched pipe (linux-perf 6.1): two tasks ping-pong one integer
 * through a pair of pipes, loops times.
 *
 * Lines parsed (stdout):
 *   "     Total time: 4.067 [sec]"  -> time (s, lower)
 *   "      40.678120 usecs/op"      -> usecs_per_op (us, lower)
 *   "          24583 ops/sec"       -> ops_per_sec (ops/s, higher)
 * With `perf bench -f simple` the output is the bare time ("2.258") and only
 * time is reported. In the default format all three lines are required.
 * op is "" (one row per run). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "perf_bench.h"

extern const struct load_ops perf_pipe_load;

static const struct param_def perf_pipe_params[] = {
	{"loops", PARAM_UINT, "50000", NULL, 1, 1000000000,
	 "round trips through the pipes (-l)"},
	{"threaded", PARAM_BOOL, "false", NULL, 1, 0,
	 "the two tasks are threads of one process (-T)"},
};

static const struct metric_def perf_pipe_metrics[] = {
	{"time", "s", BETTER_LOWER, "wall time of all round trips (Total time)", 2, false},
	{"usecs_per_op", "us", BETTER_LOWER, "microseconds per round trip (usecs/op)", 2, false},
	{"ops_per_sec", "ops/s", BETTER_HIGHER, "round trips per second (ops/sec)", 2, false},
};

/* Build "perf bench sched pipe -l L [-T]". Never fails. */
static int perf_pipe_build_argv(const struct params *p, struct argv *argv,
				char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	perf_bench_argv(argv, "pipe");
	params_argv_int(p, argv, "-l", "loops");
	if (params_bool(p, "threaded"))
		argv_add(argv, "-T");
	return 0;
}

/* Find the line "NUMBER unit" (two fields) and store NUMBER; 0 when absent,
 * 1 when found, -1 when such a line has no valid number, 2 when repeated. */
static int value_before_unit(const struct text_lines *t, const char *unit, double *v)
{
	int found = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct fields fs;
		fields_split(&fs, t->line[i]);
		if (fs.n == 2 && !strcmp(fs.f[1], unit)) {
			if (!parse_double(fs.f[0], v) || *v < 0) {
				fields_free(&fs);
				return -1;
			}
			found++;
		}
		fields_free(&fs);
	}
	return found > 1 ? 2 : found;
}

/* The usecs/op and ops/sec lines of the default format, each once. 0, or
 * -1 with why. */
static int per_op_lines(const struct text_lines *t, double *usecs, double *ops, char *why,
			size_t whysz)
{
	int u = value_before_unit(t, "usecs/op", usecs);
	int s = value_before_unit(t, "ops/sec", ops);
	if (u == 1 && s == 1)
		return 0;
	int r = u != 1 ? u : s;
	return parse_fail(why, whysz, "%s \"%s\" line in stdout",
			  r == 0 ? "no" : r < 0 ? "unparsable" : "repeated", u != 1 ? "usecs/op" : "ops/sec");
}

/* Parse the Total time, usecs/op and ops/sec lines (or the bare -f simple
 * time) into samples with op "". */
static int perf_pipe_parse(const struct load_output *o, const struct params *p,
			   struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	double time_s = 0, usecs = 0, ops = 0;
	bool simple;

	(void)p;
	if (output_status(o, &perf_pipe_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	int rc = perf_bench_total_time(&t, &time_s, &simple, why, whysz);
	if (!rc && !simple)
		rc = per_op_lines(&t, &usecs, &ops, why, whysz);
	text_lines_free(&t);
	if (rc)
		return -1;
	sample_vec_add(samples, "time", "s", BETTER_LOWER, "", time_s);
	if (!simple) {
		sample_vec_add(samples, "usecs_per_op", "us", BETTER_LOWER, "", usecs);
		sample_vec_add(samples, "ops_per_sec", "ops/s", BETTER_HIGHER, "", ops);
	}
	return 0;
}

/* Durations of the run (load_ops.durations). */
static const char *const perf_pipe_durations[] = {"time", "usecs_per_op", NULL};

/* The perf-pipe driver (see the top of this file). */
const struct load_ops perf_pipe_load = {
	.name = "perf-pipe",
	.description = "perf bench sched pipe: two tasks ping-pong through pipes",
	.params = perf_pipe_params,
	.n_params = sizeof(perf_pipe_params) / sizeof(perf_pipe_params[0]),
	.metrics = perf_pipe_metrics,
	.n_metrics = sizeof(perf_pipe_metrics) / sizeof(perf_pipe_metrics[0]),
	.stop_signal = SIGTERM,
	.build_argv = perf_pipe_build_argv,
	.parse = perf_pipe_parse,
	.durations = perf_pipe_durations,
};
