/* hackbench (rt-tests 2.4, "hackbench V 2.40"): groups of senders and
 * receivers passing messages over socketpairs or pipes.
 *
 * Lines parsed (stdout):
 *   "Time: 1.853"   seconds from the start signal until every worker is
 *                   reaped -> metric time (s, lower), op = groups
 * Anything else ("Running in process mode ...", the usage text hackbench
 * prints for a bad option) carries no result; output without a Time line is
 * a failure. Interrupted by SIGINT/SIGTERM in process mode, hackbench 2.4
 * prints "Signal 15 caught, longjmp'ing out!" on stderr, then a partial
 * "Time:" line, and exits 0 (older versions: "** Operation aborted **"):
 * that is a failure too, as is any run the rig stopped. A failing hackbench
 * says why on stderr as "WHAT (error: STRERROR)" (e.g. "Creating fdpair
 * (error: Too many open files)"): that line is the failure's reason. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "load.h"
#include "messaging.h"

extern const struct load_ops hackbench_load;

static const struct param_def hackbench_params[] = {
	{"mode", PARAM_ENUM, "process", "process|thread", 1, 0,
	 "workers are processes (-P) or threads (-T)"},
	{"ipc", PARAM_ENUM, "socket", "socket|pipe", 1, 0,
	 "AF_UNIX socketpairs or pipes (-p)"},
	{"groups", PARAM_UINT, "4", NULL, 1, 100000,
	 "number of groups (-g); the op of every sample"},
	{"loops", PARAM_UINT, "1000", NULL, 1, 100000000,
	 "messages each sender sends to each receiver (-l)"},
	{"fds", PARAM_UINT, "20", NULL, 1, 100000,
	 "senders = receivers per group, one fd pair per receiver (-f)"},
	{"datasize", PARAM_UINT, "100", NULL, 1, 1048576,
	 "message size in bytes (-s)"},
};

static const struct metric_def hackbench_metrics[] = {
	{"time", "s", BETTER_LOWER, "wall time of the message exchange (Time: line)", 4, false},
};

static bool thread_mode(const struct params *p)
{
	const char *mode = params_get(p, "mode");
	return mode && !strcmp(mode, "thread");
}

/* Build "hackbench -P|-T [-p] -g G -l L -f F -s S". Never fails. */
static int hackbench_build_argv(const struct params *p, struct argv *argv,
				char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	argv_add(argv, "hackbench");
	messaging_argv(p, argv, "-P", "-T");
	params_argv_int(p, argv, "-f", "fds");
	params_argv_int(p, argv, "-s", "datasize");
	return 0;
}

/* Descriptors the rig's child may hold besides hackbench's own (inherited
 * ones, the dynamic loader's). */
#define HACKBENCH_FD_SLACK 16

/* The highest descriptor count one hackbench process reaches, from rt-tests
 * hackbench.c main() and group(): stdin/stdout/stderr, the readyfds and
 * wakefds pairs (4), then one fdpair() (pipe or socketpair, 2 fds) per
 * receiver.
 * - thread mode: nothing is ever closed and all workers share one table:
 *   7 + groups * fds * 2.
 * - process mode: the parent closes each receiver's read end after forking
 *   it and all write ends after forking the group's senders, so it peaks
 *   while creating a group's last pair: 7 + (fds - 1) + 2 = fds + 8 (each
 *   sender inherits 7 + fds).
 * Measured here with prlimit --nofile (plus one inherited fd): -P -f 5
 * needs 14, -P -f 20 needs 29, -T -g 2 -f 10 needs 48. */
static unsigned long long hackbench_fds_needed(bool threads, long long groups, long long fds)
{
	if (threads)
		return 7ULL + (unsigned long long)groups * (unsigned long long)fds * 2ULL;
	return (unsigned long long)fds + 8ULL;
}

/* Check RLIMIT_NOFILE against hackbench_fds_needed() + slack; raise the soft
 * limit up to the hard limit when needed, or refuse with both numbers. A
 * hackbench that runs out of descriptors exits with "Creating fdpair (error:
 * Too many open files)" and leaves its already forked workers blocked in
 * poll() for ever, so this check matters. */
static int hackbench_prepare(const struct params *p, char *err, size_t errsz)
{
	struct rlimit rl;
	bool threads = thread_mode(p);
	long long groups = params_int(p, "groups", 4);
	long long fds = params_int(p, "fds", 20);
	unsigned long long need = hackbench_fds_needed(threads, groups, fds) + HACKBENCH_FD_SLACK;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(err, errsz, "getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		snprintf(err, errsz,
			 "hackbench %s mode with %lld groups of %lld fds needs %llu open files "
			 "per process (with slack %d); RLIMIT_NOFILE hard limit is %llu",
			 threads ? "thread" : "process", groups, fds, need, HACKBENCH_FD_SLACK,
			 (unsigned long long)rl.rlim_max);
		return -1;
	}
	rlim_t old = rl.rlim_cur;
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(err, errsz, "raising RLIMIT_NOFILE soft limit from %llu to %llu: %s",
			 (unsigned long long)old, need, strerror(errno));
		return -1;
	}
	return 0;
}

/* The seconds of the one "Time: S" line of stdout. A run interrupted by a
 * signal the rig did not send is a failure: hackbench 2.4 still prints a
 * partial Time line and exits 0. */
static int hackbench_time(const struct load_output *o, const struct text_lines *t, double *time_s,
			  char *why, size_t whysz)
{
	if (o->err && (strstr(o->err, " caught, longjmp") || strstr(o->err, "Operation aborted")))
		return parse_fail(why, whysz, "hackbench was interrupted by a signal (stderr)");
	int found = scan_one_labelled(t, "Time:", NULL, time_s, why, whysz);
	if (!found)
		return parse_fail(why, whysz, "no \"Time:\" line in stdout");
	return found < 0 ? -1 : 0;
}

/* One sample time, op = groups (messaging.h). */
static int hackbench_parse(const struct load_output *o, const struct params *p,
			   struct sample_vec *samples, char *why, size_t whysz)
{
	return messaging_parse(&hackbench_load, hackbench_time, o, p, samples, why, whysz);
}

/* hackbench's barf(): "WHAT (error: STRERROR)" on stderr, then exit 1,
 * e.g. "Creating fdpair (error: Too many open files)". */
static const char *const hackbench_failure_lines[] = {"(error: ", NULL};

/* Durations of the run (load_ops.durations). */
static const char *const hackbench_durations[] = {"time", NULL};

/* The hackbench driver (see the top of this file). */
const struct load_ops hackbench_load = {
	.name = "hackbench",
	.description = "rt-tests hackbench: groups of senders and receivers over sockets or pipes",
	.params = hackbench_params,
	.n_params = sizeof(hackbench_params) / sizeof(hackbench_params[0]),
	.metrics = hackbench_metrics,
	.n_metrics = sizeof(hackbench_metrics) / sizeof(hackbench_metrics[0]),
	.stop_signal = SIGTERM,
	.failure_lines = hackbench_failure_lines,
	.build_argv = hackbench_build_argv,
	.parse = hackbench_parse,
	.prepare = hackbench_prepare,
	.durations = hackbench_durations,
};
