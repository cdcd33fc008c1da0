/* fake — a built-in deterministic load for testing the rig itself (adaptive
 * iterations, reports): each run prints one sample of metric `value` drawn
 * from a seeded sequence, value = mean · (1 + spread_pct/100 · u) with u
 * uniform in [-1, 1) from a 64-bit LCG (Knuth MMIX constants). Run k (0, 1,
 * 2, ... counted in state_file, which it creates and increments) uses the
 * k-th number of the sequence of seed, so a series of runs is reproducible.
 * It sleeps sleep_ms first and only then takes its number, printing it with
 * SIGINT and SIGTERM held: a run stopped while it sleeps (an interrupted
 * iteration) uses no number, and a run that took one printed it.
 *
 * Output (builtin.h format):
 *   schedrig-fake 1 seed=S run=K
 *   value 0 V
 *   end */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"

static const struct param_def fake_params[] = {
	{"mean", PARAM_UINT, "100", NULL, 1, 1000000000, "centre of the values"},
	{"spread_pct", PARAM_UINT, "1", NULL, 0, 100, "values spread uniformly by this % around mean"},
	{"seed", PARAM_UINT, "1", NULL, 0, 1000000000, "sequence seed"},
	{"state_file", PARAM_STRING, NULL, NULL, 1, 0, "counts runs, so run k draws number k"},
	{"sleep_ms", PARAM_UINT, "0", NULL, 0, 3600000, "ms to sleep before printing"},
};

static const struct metric_def fake_metrics[] = {
	{"value", "units", BETTER_LOWER, "one draw of the seeded sequence", 2, false},
};

/* The k-th uniform draw in [-1, 1) of the LCG started at seed. */
static double draw(unsigned long long seed, unsigned long long k)
{
	unsigned long long x = seed * 2862933555777941757ULL + 3037000493ULL;
	for (unsigned long long i = 0; i <= k; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(x >> 11) / (double)(1ULL << 52) - 1.0;
}

/* Read, increment and write back the run counter; -1 on error. The new
 * count is written in place over the old one (it is never shorter), so a
 * run killed meanwhile never leaves an empty file that reads as 0; only
 * the first line is read back. */
static long long next_run(const char *path)
{
	long long k = 0;
	char buf[32] = "";
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	flock(fd, LOCK_EX);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (!parse_ll(buf, &k))
			k = 0;
	}
	int len = snprintf(buf, sizeof(buf), "%lld\n", k + 1);
	if (pwrite(fd, buf, (size_t)len, 0) != len || ftruncate(fd, len))
		k = -1;
	close(fd);
	return k;
}

static int fake_main(int argc, char **argv);

static int fake_parse(const struct load_output *o, const struct params *p,
		      struct sample_vec *samples, char *why, size_t whysz)
{
	struct builtin_reader r;
	double v;

	(void)p;
	if (builtin_parse_begin(o, "fake", &r, why, whysz))
		return -1;
	if (builtin_reader_next(&r) != 1 || r.n_fields != 3 || strcmp(r.field[0], "value") ||
	    !builtin_parse_value(r.field[2], &v)) {
		snprintf(why, whysz, "fake: no value line");
		return -1;
	}
	if (builtin_reader_next(&r) != 1 || strcmp(r.field[0], "end")) {
		snprintf(why, whysz, "fake: truncated output (no end line)");
		return -1;
	}
	sample_vec_add(samples, "value", "units", BETTER_LOWER, r.field[1], v);
	return 0;
}

/* The fake driver (see the top of this file). */
const struct load_ops fake_load = {
	.name = "fake",
	.description = "built-in deterministic sample generator for testing the rig itself",
	.params = fake_params,
	.n_params = sizeof(fake_params) / sizeof(fake_params[0]),
	.metrics = fake_metrics,
	.n_metrics = sizeof(fake_metrics) / sizeof(fake_metrics[0]),
	.stop_signal = SIGTERM,
	.fixed_op = "0",
	.parse = fake_parse,
	.builtin_main = fake_main,
};

/* Take the next number of the state file's count (0 without one) and print
 * the sample, SIGINT and SIGTERM held meanwhile. 0, or 1 after a message. */
static int print_draw(const char **vals)
{
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	const char *state = builtin_val(&fake_load, vals, "state_file");
	long long k = state ? next_run(state) : 0;
	if (k < 0) {
		fprintf(stderr, "fake: %s: %s\n", state, strerror(errno));
	} else {
		unsigned long long seed = (unsigned long long)builtin_val_ll(&fake_load, vals, "seed");
		double mean = (double)builtin_val_ll(&fake_load, vals, "mean");
		double spread = (double)builtin_val_ll(&fake_load, vals, "spread_pct") / 100.0;
		printf("schedrig-fake 1 seed=%llu run=%lld\n", seed, k);
		printf("value 0 %.6f\n", mean * (1.0 + spread * draw(seed, (unsigned long long)k)));
		printf("end\n");
	}
	fflush(NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return k < 0 ? 1 : 0;
}

static int fake_main(int argc, char **argv)
{
	const char *vals[sizeof(fake_params) / sizeof(fake_params[0])];
	int rc = builtin_parse_args(&fake_load, argc, argv, vals);
	if (rc)
		return rc > 0 ? 0 : BUILTIN_EXIT_USAGE;
	long long ms = builtin_val_ll(&fake_load, vals, "sleep_ms");
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
	return print_draw(vals);
}
