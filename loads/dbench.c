/* dbench (Debian dbench 4.0, "dbench version 4.00"): N clients replaying a
 * file-server load file against a local directory.
 *
 * Line parsed (stdout), the final summary:
 *   "Throughput 971.062 MB/sec  2 clients  2 procs  max_latency=6.523 ms"
 *   -> throughput (MB/s, higher): the number before the "MB/sec" token;
 *      max_latency (ms, lower): the "max_latency=X" token followed by "ms".
 * The per-second "   2    182489  1007.49 MB/sec  execute   1 sec ..." lines
 * are not reported: dbench prints the running average since the start of
 * the execute phase there (the last one equals the final Throughput), not a
 * per-interval rate, so they would only repeat the final value.
 *
 * Several instances must not share dir: each writes DIR/clients/clientN
 * (and leaves that empty directory tree behind when it ends). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops dbench_load;

static const struct param_def dbench_params[] = {
	{"clients", PARAM_UINT, "1", NULL, 1, 10000, "number of client processes (positional)"},
	{"duration_s", PARAM_UINT, "5", NULL, 1, 100000000, "run time in seconds (-t)"},
	{"dir", PARAM_STRING, "/tmp", NULL, 1, 0,
	 "directory the clients work in (-D); one per concurrent instance"},
	{"loadfile", PARAM_STRING, "/usr/share/dbench/client.txt", NULL, 1, 0,
	 "load file to replay (-c)"},
};

static const struct metric_def dbench_metrics[] = {
	{"throughput", "MB/s", BETTER_HIGHER, "final Throughput line", 2, false},
	{"max_latency", "ms", BETTER_LOWER, "largest operation latency (max_latency=)", 2, false},
};

/* Build "dbench -c LOADFILE -D DIR -t S CLIENTS". Fails on an empty dir or
 * loadfile. */
static int dbench_build_argv(const struct params *p, struct argv *argv,
			     char *err, size_t errsz)
{
	const char *dir = params_get(p, "dir");
	const char *loadfile = params_get(p, "loadfile");

	if (!dir || !*dir) {
		snprintf(err, errsz, "dbench: dir is empty");
		return -1;
	}
	if (!loadfile || !*loadfile) {
		snprintf(err, errsz, "dbench: loadfile is empty");
		return -1;
	}
	argv_add(argv, "dbench");
	argv_add(argv, "-c");
	argv_add(argv, loadfile);
	argv_add(argv, "-D");
	argv_add(argv, dir);
	params_argv_int(p, argv, "-t", "duration_s");
	argv_addf(argv, "%lld", params_int(p, "clients", 1));
	return 0;
}

/* Check that dir is a writable directory and loadfile is readable. */
static int dbench_prepare(const struct params *p, char *err, size_t errsz)
{
	const char *dir = params_get(p, "dir");
	const char *loadfile = params_get(p, "loadfile");
	struct stat st;

	if (!dir || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) < 0) {
		snprintf(err, errsz, "dbench: dir %s is not a writable directory", dir ? dir : "(none)");
		return -1;
	}
	if (!loadfile || access(loadfile, R_OK) < 0) {
		snprintf(err, errsz, "dbench: load file %s is not readable: %s",
			 loadfile ? loadfile : "(none)", strerror(errno));
		return -1;
	}
	return 0;
}

/* The numbers of one "Throughput X MB/sec ... max_latency=Y ms" line:
 * *tput_mb_s and *max_latency_ms, both >= 0. Returns 0, or -1 with why
 * naming the part the line lacks. */
static int throughput_line(const char *line, double *tput_mb_s, double *max_latency_ms,
			   char *why, size_t whysz)
{
	struct fields fs;
	bool have_tput = false, have_lat = false;

	fields_split(&fs, line);
	for (size_t k = 1; k < fs.n; k++) {
		if (!strcmp(fs.f[k], "MB/sec"))
			have_tput = parse_double(fs.f[k - 1], tput_mb_s) && *tput_mb_s >= 0;
		const char *v = after_prefix(fs.f[k], "max_latency=");
		if (v && k + 1 < fs.n && !strcmp(fs.f[k + 1], "ms"))
			have_lat = parse_double(v, max_latency_ms) && *max_latency_ms >= 0;
	}
	fields_free(&fs);
	if (!have_tput)
		return parse_fail(why, whysz, "Throughput line without \"X MB/sec\"");
	if (!have_lat)
		return parse_fail(why, whysz, "Throughput line without \"max_latency=X ms\"");
	return 0;
}

/* Parse the final "Throughput X MB/sec ... max_latency=Y ms" line into
 * throughput and max_latency, op "". */
static int dbench_parse(const struct load_output *o, const struct params *p,
			struct sample_vec *samples, char *why, size_t whysz)
{
	struct text_lines t;
	double tput = 0, lat = 0;
	int found = 0, rc = -1;

	(void)p;
	if (output_status(o, &dbench_load, why, whysz) < 0)
		return -1;
	text_lines_split(&t, o->out, o->out_len);
	for (size_t i = 0; i < t.n; i++) {
		if (!after_prefix(t.line[i], "Throughput "))
			continue;
		if (throughput_line(t.line[i], &tput, &lat, why, whysz))
			goto out;
		found++;
	}
	if (found != 1) {
		rc = parse_fail(why, whysz, found ? "more than one Throughput line" :
					       "no final \"Throughput\" line in stdout");
		goto out;
	}
	if (tput == 0) {
		/* A run shorter than dbench's warm-up measures nothing and says 0. */
		rc = parse_fail(why, whysz,
				"dbench measured nothing (Throughput 0): run longer than its warm-up");
		goto out;
	}
	sample_vec_add(samples, "throughput", "MB/s", BETTER_HIGHER, "", tput);
	sample_vec_add(samples, "max_latency", "ms", BETTER_LOWER, "", lat);
	rc = 0;
out:
	text_lines_free(&t);
	return rc;
}

/* In a qemu guest: the load file (the guest's /tmp is a tmpfs; a dir on
 * its scratch disk is a relative one, e.g. "dbench": the agent works there). */
static int dbench_guest_needs(const struct params *p, bool prepare, struct guest_extra *g,
			      char *err, size_t errsz)
{
	const char *loadfile = params_get(p, "loadfile");
	(void)prepare;
	if (!loadfile || loadfile[0] != '/') {
		snprintf(err, errsz, "dbench: loadfile %s must be an absolute path to go into a guest",
			 loadfile ? loadfile : "(none)");
		return -1;
	}
	argv_add(&g->files, loadfile);
	return 0;
}

/* The dbench driver (see the top of this file). */
const struct load_ops dbench_load = {
	.name = "dbench",
	.description = "dbench 4: file-server load replay, throughput and max latency",
	.params = dbench_params,
	.n_params = sizeof(dbench_params) / sizeof(dbench_params[0]),
	.metrics = dbench_metrics,
	.n_metrics = sizeof(dbench_metrics) / sizeof(dbench_metrics[0]),
	.stop_signal = SIGTERM,
	.build_argv = dbench_build_argv,
	.parse = dbench_parse,
	.prepare = dbench_prepare,
	.check_here = dbench_prepare,
	.needs = {.note = "its loadfile (packed into a qemu guest)"},
	.guest_needs = dbench_guest_needs,
};
