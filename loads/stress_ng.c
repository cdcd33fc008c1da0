/* stress-ng (0.15.06): one stressor with N workers for a fixed time.
 *
 * stress-ng writes its results to STDERR (stdout stays empty); stdout is
 * searched as well in case the two were merged. Lines parsed:
 *   "stress-ng: metrc: [16303] cpu               14494      5.00      9.97      0.01      2898.09        1453.12"
 *     the row of the stressor: name, bogo ops, real time, usr time,
 *     sys time, bogo ops/s (real time), bogo ops/s (usr+sys time)
 *     -> bogo_ops_per_s (bogo-ops/s, higher) = the bogo ops/s (real time)
 *        column, the 5th number after the name.
 *   "stress-ng: metrc: [16331] switch              3095.01 nanosecs per context switch (pipe method) ..."
 *     (switch stressor, "miscellaneous metrics") -> ns_per_switch (ns,
 *     lower), reported when the line exists.
 * op is "" (one row per run). */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "load.h"
#include "scan.h"

extern const struct load_ops stress_ng_load;

static const struct param_def stress_ng_params[] = {
	{"stressor", PARAM_STRING, "cpu", NULL, 1, 0,
	 "stressor name ([a-z0-9-]), run as --STRESSOR N"},
	{"workers", PARAM_UINT, "1", NULL, 0, 100000,
	 "instances of the stressor (0 = one per online CPU)"},
	{"duration_s", PARAM_UINT, "5", NULL, 1, 100000000, "run time in seconds (--timeout Ns)"},
};

static const struct metric_def stress_ng_metrics[] = {
	{"bogo_ops_per_s", "bogo-ops/s", BETTER_HIGHER,
	 "bogo operations per second of wall time (--metrics-brief, real time column)", 2, false},
	{"ns_per_switch", "ns", BETTER_LOWER,
	 "switch stressor: nanoseconds per context switch", 2, false},
};

static bool valid_stressor(const char *s)
{
	if (!s || !*s || *s == '-')
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

/* Build "stress-ng --STRESSOR N --timeout Ns --metrics-brief". Fails when
 * the stressor name is not [a-z0-9-]+. */
static int stress_ng_build_argv(const struct params *p, struct argv *argv,
				char *err, size_t errsz)
{
	const char *stressor = params_get(p, "stressor");

	if (!valid_stressor(stressor)) {
		snprintf(err, errsz, "stress-ng: stressor \"%s\" is not a stressor name ([a-z0-9-]+)",
			 stressor ? stressor : "");
		return -1;
	}
	argv_add(argv, "stress-ng");
	argv_addf(argv, "--%s", stressor);
	argv_addf(argv, "%lld", params_int(p, "workers", 1));
	argv_add(argv, "--timeout");
	argv_addf(argv, "%llds", params_int(p, "duration_s", 5));
	argv_add(argv, "--metrics-brief");
	return 0;
}

/* Scan one stream for the stressor's metrc rows. found_* count rows. */
static int scan_stream(const char *text, size_t len, const char *stressor,
		       double *bogo, int *found_bogo, double *ns, int *found_ns,
		       char *why, size_t whysz)
{
	struct text_lines t;
	int rc = 0;

	text_lines_split(&t, text, len);
	for (size_t i = 0; i < t.n && rc == 0; i++) {
		const char *m = strstr(t.line[i], "metrc:");
		if (!m)
			continue;
		struct fields fs;
		fields_split(&fs, m + strlen("metrc:"));
		/* fs: "[pid]" name numbers... */
		if (fs.n >= 3 && fs.f[0][0] == '[' && !strcmp(fs.f[1], stressor)) {
			double v[6];
			size_t k = 0;
			while (k < 6 && 2 + k < fs.n && parse_double(fs.f[2 + k], &v[k]))
				k++;
			if (k == 6) {
				if (!(v[4] >= 0))
					rc = parse_fail(why, whysz, "negative bogo ops/s for %s", stressor);
				else if (!(v[1] > 0))
					rc = parse_fail(why, whysz, "real time %g s for %s: no time"
							" elapsed, a failed run", v[1], stressor);
				else if (v[0] == 0 && v[4] != 0)
					rc = parse_fail(why, whysz, "%s: 0 bogo ops but %g bogo ops/s:"
							" the rate contradicts its count", stressor, v[4]);
				*bogo = v[4];
				(*found_bogo)++;
			} else if (fs.n >= 7 && k == 1 && !strcmp(fs.f[3], "nanosecs") &&
				   !strcmp(fs.f[4], "per") && !strcmp(fs.f[5], "context") &&
				   !strcmp(fs.f[6], "switch")) {
				*ns = v[0];
				(*found_ns)++;
			} else if (k > 0) {
				rc = parse_fail(why, whysz, "metrc row of %s has %zu numbers, expected 6",
						stressor, k);
			}
		}
		fields_free(&fs);
	}
	text_lines_free(&t);
	return rc;
}

/* Parse the stressor's metrc row (stderr, else stdout) into bogo_ops_per_s
 * and, when printed, ns_per_switch; op "". */
static int stress_ng_parse(const struct load_output *o, const struct params *p,
			   struct sample_vec *samples, char *why, size_t whysz)
{
	const char *stressor = params_get(p, "stressor");
	double bogo = 0, ns = 0;
	int nb = 0, nn = 0;

	if (output_status(o, &stress_ng_load, why, whysz) < 0)
		return -1;
	if (!valid_stressor(stressor))
		return parse_fail(why, whysz, "no valid stressor parameter");
	if (scan_stream(o->err, o->err_len, stressor, &bogo, &nb, &ns, &nn, why, whysz) < 0)
		return -1;
	if (!nb && scan_stream(o->out, o->out_len, stressor, &bogo, &nb, &ns, &nn, why, whysz) < 0)
		return -1;
	if (nb != 1)
		return parse_fail(why, whysz, nb ? "more than one metrc row for %s" :
						   "no \"metrc:\" row for stressor %s", stressor);
	if (nn > 1)
		return parse_fail(why, whysz, "more than one nanosecs per context switch line");
	sample_vec_add(samples, "bogo_ops_per_s", "bogo-ops/s", BETTER_HIGHER, "", bogo);
	if (nn == 1)
		sample_vec_add(samples, "ns_per_switch", "ns", BETTER_LOWER, "", ns);
	return 0;
}

/* The stress-ng driver (see the top of this file). On SIGINT stress-ng
 * stops its workers, prints the metrc rows for the time actually run and
 * exits 0, so a stopped run still yields bogo ops/s. */
const struct load_ops stress_ng_load = {
	.name = "stress-ng",
	.description = "stress-ng: one stressor, bogo-ops per second (results on stderr)",
	.params = stress_ng_params,
	.n_params = sizeof(stress_ng_params) / sizeof(stress_ng_params[0]),
	.metrics = stress_ng_metrics,
	.n_metrics = sizeof(stress_ng_metrics) / sizeof(stress_ng_metrics[0]),
	.stop_signal = SIGINT,
	.summarizes_on_stop = true,
	.build_argv = stress_ng_build_argv,
	.parse = stress_ng_parse,
};
