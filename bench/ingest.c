/* Ingest benchmark (issue 8), built by `make build/bench/ingest`, run by
 * bench/ingest.sh: ITERATIONS × SAMPLES synthetic samples (default
 * 10000 × 100 = 1 000 000) through the path a run stores them by,
 * store_iteration_save with one stored_instance and a sample_vec per
 * iteration, into a new results database at DB.
 *
 * usage: ingest DB [ITERATIONS [SAMPLES]]
 * Prints one line: samples=N wall_s=W cpu_s=C per_wall_s=R per_cpu_s=R
 * (cpu: user + system of this process, getrusage RUSAGE_SELF, so that other
 * work on a shared machine does not count against the store path). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "samples.h"
#include "store.h"
#include "util.h"

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	long long iterations = 10000, per = 100;
	char err[512];
	struct store *s;
	int64_t run_id, variant_id, cell_id;

	if (argc < 2 || argc > 4 || (argc > 2 && (!parse_ll(argv[2], &iterations) || iterations < 1)) ||
	    (argc > 3 && (!parse_ll(argv[3], &per) || per < 1))) {
		fprintf(stderr, "usage: ingest DB [ITERATIONS [SAMPLES]]\n");
		return 2;
	}
	if (store_open(argv[1], false, &s, err, sizeof(err))) {
		fprintf(stderr, "ingest: %s\n", err);
		return 1;
	}
	struct run_info ri = {.name = "ingest-bench", .config_text = "", .iterations = (int)iterations};
	if (store_run_begin(s, &ri, &run_id, err, sizeof(err)) ||
	    store_variant_add(s, run_id, 0, "v", "local", "x", "", &variant_id, err, sizeof(err)) ||
	    store_cell_add(s, run_id, 0, "c", &cell_id, err, sizeof(err))) {
		fprintf(stderr, "ingest: %s\n", err);
		return 1;
	}

	/* One sample_vec as a parser would fill it: a metric per sample, an op
	 * per sample (a histogram bucket, a thread), a varying value. */
	struct sample_vec v = {0};
	for (long long i = 0; i < per; i++) {
		char op[32];
		snprintf(op, sizeof(op), "%lld", i);
		sample_vec_add(&v, i % 2 ? "max_latency" : "avg_latency", "us", BETTER_LOWER, op,
			       (double)i);
	}
	static const char out[] = "T: 0 ( 1234) P:99 I:1000 C:   1000 Min: 1 Act: 2 Avg: 2 Max: 9\n";
	struct stored_instance inst = {
		.seq = 0, .name = "cyclictest", .tool = "cyclictest", .role = "measured",
		.argv = "cyclictest -q", .pid = 1234, .state = "ok", .exited = true,
		.started_ns = 1, .ended_ns = 2, .elapsed_s = 1, .out = out, .out_len = sizeof(out) - 1,
		.err = "", .err_len = 0, .samples = &v,
	};

	double w0 = mono_s(), c0 = cpu_s();
	for (long long it = 1; it <= iterations; it++) {
		char now[32];
		for (long long i = 0; i < per; i++)
			v.v[i].value = (double)(it * 7 + i);
		utc_now(now, sizeof(now));
		if (store_iteration_save(s, variant_id, cell_id, (int)it, "complete", now, now, &inst, 1,
					 err, sizeof(err))) {
			fprintf(stderr, "ingest: iteration %lld: %s\n", it, err);
			return 1;
		}
	}
	double wall = mono_s() - w0, cpu = cpu_s() - c0;
	long long n = iterations * per;
	printf("samples=%lld wall_s=%.3f cpu_s=%.3f per_wall_s=%.0f per_cpu_s=%.0f\n", n, wall, cpu,
	       (double)n / wall, (double)n / cpu);
	sample_vec_free(&v);
	store_close(s);
	return 0;
}
