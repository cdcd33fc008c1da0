/* Unit tests of the external-tool load drivers (loads/hackbench.c ...
 * loads/netperf_tcp_rr.c): each parser against real captured output with
 * exact values, against truncated, empty and garbage output and bad exit
 * statuses (-> -1 with a reason), and each build_argv's exact argv.
 *
 * Fixtures: $FIXTURES (tests/run-tests sets it to tests/fixtures; default
 * tests/fixtures/tool-output relative to the repo root). Captured outputs
 * are read from FIXTURES/tool-output (or FIXTURES itself when it is that
 * directory); the extra fixtures of tests/fixtures/load-drivers (signal
 * stops captured here, and HAND-WRITTEN schbench and netperf outputs since
 * those tools are not installed: see its README.md) from its sibling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* ---- fixtures ---------------------------------------------------------- */

static char tool_dir[4096], drivers_dir[4096];

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void find_dirs(void)
{
	const char *f = getenv("FIXTURES");
	char sub[4096];

	if (!f || !*f)
		f = "tests/fixtures/tool-output";
	snprintf(sub, sizeof(sub), "%s/tool-output", f);
	if (is_dir(sub)) {
		snprintf(tool_dir, sizeof(tool_dir), "%s", sub);
		snprintf(drivers_dir, sizeof(drivers_dir), "%s/load-drivers", f);
	} else {
		snprintf(tool_dir, sizeof(tool_dir), "%s", f);
		snprintf(drivers_dir, sizeof(drivers_dir), "%s/../load-drivers", f);
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	size_t r;
	while ((r = fread(b + n, 1, cap - n - 1, fp)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			b = realloc(b, cap *= 2);
	}
	fclose(fp);
	b[n] = '\0';
	*len = n;
	return b;
}

struct fixture {
	char *out, *err;
	size_t out_len, err_len;
	int rc;
};

/* Load NAME.txt, NAME.stderr.txt (optional) and the rc of NAME.meta from
 * the captured outputs, else from load-drivers. */
static void fixture_load(struct fixture *fx, const char *name)
{
	const char *dirs[] = {tool_dir, drivers_dir};
	char path[8192];

	memset(fx, 0, sizeof(*fx));
	for (size_t d = 0; d < 2; d++) {
		snprintf(path, sizeof(path), "%s/%s.txt", dirs[d], name);
		fx->out = slurp(path, &fx->out_len);
		if (!fx->out)
			continue;
		snprintf(path, sizeof(path), "%s/%s.stderr.txt", dirs[d], name);
		fx->err = slurp(path, &fx->err_len);
		if (!fx->err) {
			fx->err = strdup("");
			fx->err_len = 0;
		}
		snprintf(path, sizeof(path), "%s/%s.meta", dirs[d], name);
		size_t ml;
		char *meta = slurp(path, &ml);
		assert_non_null(meta);
		char *rc = strstr(meta, "\nrc: ");
		assert_non_null(rc);
		fx->rc = atoi(rc + 5);
		free(meta);
		return;
	}
	print_error("fixture %s not found in %s or %s\n", name, tool_dir, drivers_dir);
	fail();
}

static void fixture_free(struct fixture *fx)
{
	free(fx->out);
	free(fx->err);
}

/* ---- parameters -------------------------------------------------------- */

struct pset {
	struct param_value v[32];
	char *own[32];
	size_t n;
	struct params p;
};

/* Resolve every parameter of ops: its default, overridden by kv entries
 * "name=value" (or "name" alone: no value). kv ends with NULL. */
static void pset_init(struct pset *ps, const struct load_ops *ops, const char *const *kv)
{
	memset(ps, 0, sizeof(*ps));
	assert_true(ops->n_params <= 32);
	for (size_t i = 0; i < ops->n_params; i++) {
		const char *val = ops->params[i].default_value;
		size_t nl = strlen(ops->params[i].name);
		for (const char *const *k = kv; k && *k; k++) {
			if (!strncmp(*k, ops->params[i].name, nl) && ((*k)[nl] == '=' || !(*k)[nl]))
				val = (*k)[nl] == '=' ? *k + nl + 1 : NULL;
		}
		ps->own[i] = val ? strdup(val) : NULL;
		ps->v[i].name = ops->params[i].name;
		ps->v[i].value = ps->own[i];
	}
	ps->n = ops->n_params;
	for (const char *const *k = kv; k && *k; k++) {
		bool known = false;
		for (size_t i = 0; i < ops->n_params; i++) {
			size_t nl = strlen(ops->params[i].name);
			known |= !strncmp(*k, ops->params[i].name, nl) && ((*k)[nl] == '=' || !(*k)[nl]);
		}
		if (!known) {
			print_error("%s has no parameter %s\n", ops->name, *k);
			fail();
		}
	}
	ps->p.n = ps->n;
	ps->p.v = ps->v;
}

static void pset_free(struct pset *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->own[i]);
}

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NOKV ((const char *const *)NULL)

/* ---- running parsers --------------------------------------------------- */

struct want {
	const char *metric;
	const char *op;
	double value;
};

static char why[512];

static int run_parse(const struct load_ops *ops, const char *const *kv, const char *out,
		     size_t out_len, const char *err, size_t err_len, int rc, bool signaled,
		     int sig, bool stopped, struct sample_vec *s)
{
	struct pset ps;
	struct load_output o = {
		.out = out, .out_len = out_len, .err = err, .err_len = err_len,
		.exit_code = rc, .term_signal = sig, .signaled = signaled, .stopped = stopped,
	};
	why[0] = '\0';
	pset_init(&ps, ops, kv);
	int r = ops->parse(&o, &ps.p, s, why, sizeof(why));
	pset_free(&ps);
	return r;
}

/* Check every sample against the driver's metric table and against want. */
static void expect_samples(const struct load_ops *ops, const struct sample_vec *s,
			   const struct want *w, size_t n)
{
	if (s->n != n) {
		print_error("%s: %zu samples, expected %zu\n", ops->name, s->n, n);
		for (size_t i = 0; i < s->n; i++)
			print_error("  %s %s %.17g\n", s->v[i].metric, s->v[i].op, s->v[i].value);
	}
	assert_int_equal(s->n, n);
	for (size_t i = 0; i < n; i++) {
		const struct sample *x = &s->v[i];
		const struct metric_def *m = NULL;
		for (size_t k = 0; k < ops->n_metrics; k++)
			if (!strcmp(ops->metrics[k].name, x->metric))
				m = &ops->metrics[k];
		assert_non_null(m);
		assert_string_equal(x->unit, m->unit);
		assert_int_equal(x->better, m->better);
		assert_string_equal(x->metric, w[i].metric);
		assert_string_equal(x->op, w[i].op);
		if (x->value != w[i].value) {
			print_error("%s %s: %.17g, expected %.17g\n", x->metric, x->op, x->value,
				    w[i].value);
			fail();
		}
	}
}

/* Parse fixture name with parameters kv and compare with want. */
static void check_fixture(const struct load_ops *ops, const char *name, const char *const *kv,
			  bool stopped, const struct want *w, size_t n)
{
	struct fixture fx;
	struct sample_vec s = {0};

	fixture_load(&fx, name);
	int r = run_parse(ops, kv, fx.out, fx.out_len, fx.err, fx.err_len, fx.rc, false, 0,
			  stopped, &s);
	if (r != 0)
		print_error("%s on %s: %s\n", ops->name, name, why);
	assert_int_equal(r, 0);
	expect_samples(ops, &s, w, n);
	sample_vec_free(&s);
	fixture_free(&fx);
}

/* The parse must fail with a reason containing reason_part, and add no
 * sample. */
static void expect_failure(const struct load_ops *ops, const char *const *kv, const char *out,
			   size_t out_len, const char *err, size_t err_len, int rc, bool signaled,
			   int sig, bool stopped, const char *reason_part)
{
	struct sample_vec s = {0};
	int r = run_parse(ops, kv, out, out_len, err, err_len, rc, signaled, sig, stopped, &s);
	if (r != -1)
		print_error("%s: parse succeeded, expected failure \"%s\"\n", ops->name, reason_part);
	assert_int_equal(r, -1);
	assert_int_equal(s.n, 0);
	if (!strstr(why, reason_part))
		print_error("%s: reason \"%s\" lacks \"%s\"\n", ops->name, why, reason_part);
	assert_non_null(strstr(why, reason_part));
	sample_vec_free(&s);
}

/* Failure on text given as stdout (exit 0, not stopped). */
static void fail_out(const struct load_ops *ops, const char *const *kv, const char *out,
		     const char *reason_part)
{
	expect_failure(ops, kv, out, strlen(out), "", 0, 0, false, 0, false, reason_part);
}

/* Failure on text given as stderr (exit 0, not stopped). */
static void fail_err(const struct load_ops *ops, const char *const *kv, const char *err,
		     const char *reason_part)
{
	expect_failure(ops, kv, "", 0, err, strlen(err), 0, false, 0, false, reason_part);
}

/* Copy of a fixture's stream cut just before the first occurrence of
 * marker (which must be there): output truncated mid-run. */
static char *cut_before(const struct fixture *fx, bool use_err, const char *marker)
{
	const char *text = use_err ? fx->err : fx->out;
	const char *m = strstr(text, marker);
	assert_non_null(m);
	return strndup(text, (size_t)(m - text));
}

/* Copy of text with the first occurrence of from (which must be there)
 * replaced by to: a captured output edited in one place. */
static char *replace_once(const char *text, const char *from, const char *to)
{
	const char *m = strstr(text, from);
	assert_non_null(m);
	size_t head = (size_t)(m - text), len = strlen(text) - strlen(from) + strlen(to);
	char *r = malloc(len + 1);
	assert_non_null(r);
	memcpy(r, text, head);
	strcpy(r + head, to);
	strcat(r, m + strlen(from));
	return r;
}

/* Parse text given as stdout (exit 0, not stopped) and compare with want. */
static void check_text(const struct load_ops *ops, const char *const *kv, const char *out,
		       const struct want *w, size_t n)
{
	struct sample_vec s = {0};
	int r = run_parse(ops, kv, out, strlen(out), "", 0, 0, false, 0, false, &s);
	if (r != 0)
		print_error("%s: %s\n", ops->name, why);
	assert_int_equal(r, 0);
	expect_samples(ops, &s, w, n);
	sample_vec_free(&s);
}

static const char garbage[] = "\x01\x02\xff\xfe garbage \x7f\n\x1b[4A%s%n 0x1.8p3 nan\n\tTime\n";

/* Binary garbage with NUL bytes inside (length given explicitly). */
static void fail_binary(const struct load_ops *ops, const char *const *kv, bool on_err)
{
	static const char bin[] = "T: 0\0Max: 12\nTotal time: \0 1.0 [sec]\nThroughput\0 1 MB/sec\n";
	if (on_err)
		expect_failure(ops, kv, "", 0, bin, sizeof(bin) - 1, 0, false, 0, false, "");
	else
		expect_failure(ops, kv, bin, sizeof(bin) - 1, "", 0, 0, false, 0, false, "");
}

/* ---- argv -------------------------------------------------------------- */

static void expect_argv(const struct load_ops *ops, const char *const *kv, const char *const *want)
{
	struct pset ps;
	struct argv a = {0};
	char err[256] = "";

	pset_init(&ps, ops, kv);
	int r = ops->build_argv(&ps.p, &a, err, sizeof(err));
	if (r)
		print_error("%s build_argv: %s\n", ops->name, err);
	assert_int_equal(r, 0);
	size_t n = 0;
	while (want[n])
		n++;
	if (a.n != n) {
		char *s = argv_render(&a);
		print_error("argv: %s\n", s);
		free(s);
	}
	assert_int_equal(a.n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(a.v[i], want[i]);
	assert_null(a.v[n]);
	argv_free(&a);
	pset_free(&ps);
}

static void expect_argv_error(const struct load_ops *ops, const char *const *kv, const char *part)
{
	struct pset ps;
	struct argv a = {0};
	char err[256] = "";

	pset_init(&ps, ops, kv);
	assert_int_equal(ops->build_argv(&ps.p, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, part));
	argv_free(&a);
	pset_free(&ps);
}

#define ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})
#define N(w) (sizeof(w) / sizeof((w)[0]))

/* ---- registry ---------------------------------------------------------- */

static const struct load_ops *const drivers[] = {
	&hackbench_load, &perf_messaging_load, &perf_pipe_load, &cyclictest_load,
	&dbench_load, &stress_ng_load, &sysbench_load, &sockperf_load,
	&schbench_load, &netperf_tcp_rr_load,
};

static void test_registry(void **state)
{
	(void)state;
	const char *names[] = {"hackbench", "perf-messaging", "perf-pipe", "cyclictest", "dbench",
			       "stress-ng", "sysbench", "sockperf", "schbench", "netperf-tcp-rr"};
	for (size_t i = 0; i < N(names); i++) {
		assert_ptr_equal(load_find(names[i]), drivers[i]);
		assert_string_equal(drivers[i]->name, names[i]);
	}
	/* Every default parses as its type and lies in its range. */
	for (size_t i = 0; i < N(drivers); i++) {
		const struct load_ops *o = drivers[i];
		assert_non_null(o->build_argv);
		assert_non_null(o->parse);
		assert_non_null(o->description);
		for (size_t k = 0; k < o->n_params; k++) {
			const struct param_def *d = &o->params[k];
			assert_ptr_equal(load_param(o, d->name), d);
			if (!d->default_value)
				continue;
			long long v;
			switch (d->type) {
			case PARAM_INT:
			case PARAM_UINT:
				assert_true(parse_ll(d->default_value, &v));
				if (d->min <= d->max)
					assert_true(v >= d->min && v <= d->max);
				break;
			case PARAM_BOOL:
				assert_true(!strcmp(d->default_value, "true") ||
					    !strcmp(d->default_value, "false"));
				break;
			case PARAM_ENUM:
				assert_non_null(d->choices);
				assert_non_null(strstr(d->choices, d->default_value));
				break;
			case PARAM_STRING:
				break;
			}
		}
	}
}

/* ---- hackbench --------------------------------------------------------- */

static void hb(const char *name, const char *const *kv, const char *op, double v)
{
	const struct want w[] = {{"time", op, v}};
	check_fixture(&hackbench_load, name, kv, false, w, 1);
}

static void test_hackbench_process_socket(void **s) { (void)s; hb("hackbench-process-socket", NOKV, "4", 1.853); }
static void test_hackbench_process_pipe(void **s) { (void)s; hb("hackbench-process-pipe", KV("ipc=pipe"), "4", 0.724); }
static void test_hackbench_thread_socket(void **s) { (void)s; hb("hackbench-thread-socket", KV("mode=thread"), "4", 1.951); }
static void test_hackbench_thread_pipe(void **s) { (void)s; hb("hackbench-thread-pipe", KV("mode=thread", "ipc=pipe"), "4", 0.668); }
static void test_hackbench_process_socket_long(void **s) { (void)s; hb("hackbench-process-socket-long", KV("groups=8", "loops=3000"), "8", 12.076); }
static void test_hackbench_process_inet(void **s) { (void)s; hb("hackbench-process-inet", NOKV, "4", 2.499); }

static void test_hackbench_fail_badopt(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "hackbench-fail-badopt");
	assert_int_equal(fx.rc, 1);
	expect_failure(&hackbench_load, NOKV, fx.out, fx.out_len, fx.err, fx.err_len, fx.rc,
		       false, 0, false, "exit code 1");
	/* The usage text has no Time line even if the exit code were 0. */
	expect_failure(&hackbench_load, NOKV, fx.out, fx.out_len, fx.err, fx.err_len, 0,
		       false, 0, false, "no \"Time:\" line");
	fixture_free(&fx);
}

static void test_hackbench_sigterm(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "hackbench-sigterm");
	assert_int_equal(fx.rc, 0);
	assert_non_null(strstr(fx.out, "Time: 0.787"));
	/* Stopped by the rig: the partial Time is not a result. */
	expect_failure(&hackbench_load, NOKV, fx.out, fx.out_len, fx.err, fx.err_len, 0,
		       false, 0, true, "stopped (SIGTERM)");
	/* Stopped by someone else: stderr tells. */
	expect_failure(&hackbench_load, NOKV, fx.out, fx.out_len, fx.err, fx.err_len, 0,
		       false, 0, false, "interrupted");
	fixture_free(&fx);
}

static void test_hackbench_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "hackbench-process-socket");
	char *t = cut_before(&fx, false, "Time:");
	fail_out(&hackbench_load, NOKV, t, "no \"Time:\" line");
	free(t);
	/* Cut inside the number: the last line has no newline. */
	t = cut_before(&fx, false, "53\n");
	fail_out(&hackbench_load, NOKV, t, "no \"Time:\" line");
	free(t);
	fixture_free(&fx);
}

static void test_hackbench_empty(void **s) { (void)s; fail_out(&hackbench_load, NOKV, "", "no \"Time:\" line"); }

static void test_hackbench_garbage(void **state)
{
	(void)state;
	fail_out(&hackbench_load, NOKV, garbage, "no \"Time:\" line");
	fail_out(&hackbench_load, NOKV, "Time: 1.2.3\n", "unparsable Time line");
	fail_out(&hackbench_load, NOKV, "Time: -1\n", "unparsable Time line");
	fail_out(&hackbench_load, NOKV, "Time: 1.0\nTime: 2.0\n", "more than one");
	/* Tool numbers are decimal: no hexadecimal float, no inf, no nan. */
	fail_out(&hackbench_load, NOKV, "Time: 0x1p4\n", "unparsable Time line");
	fail_out(&hackbench_load, NOKV, "Time: inf\n", "unparsable Time line");
	fail_out(&hackbench_load, NOKV, "Time: nan\n", "unparsable Time line");
	fail_out(&hackbench_load, NOKV, "Time: +1.5\n", "unparsable Time line");
	/* Below a double's range: strtod would read 0 with ERANGE. */
	fail_out(&hackbench_load, NOKV, "Time: 1e-999\n", "unparsable Time line");
	fail_binary(&hackbench_load, NOKV, false);
}

/* Integers are [-]digits in base 10, whatever reads them (tool output,
 * configs, options): strtoll alone would take a sign and leading blanks. */
static void test_parse_ll_strict(void **state)
{
	(void)state;
	long long v = 0;
	assert_true(parse_ll("007", &v));
	assert_int_equal(v, 7);
	assert_true(parse_ll("-12", &v));
	assert_int_equal(v, -12);
	static const char *const bad[] = {"+2", " 2", "\t2", "2 ", "", "-", "+", "- 2", "0x10", "1e3"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_ll(bad[i], &v))
			fail_msg("parse_ll took '%s'", bad[i]);
}

static void test_hackbench_killed(void **state)
{
	(void)state;
	const char *out = "Running in process mode with 4 groups using 40 file descriptors each (== 160 tasks)\n";
	expect_failure(&hackbench_load, NOKV, out, strlen(out), "", 0, 0, true, SIGSEGV, false,
		       "killed by signal 11 (SIGSEGV)");
	/* Even a complete result is no sample when the tool was killed. */
	expect_failure(&hackbench_load, NOKV, "Time: 1.0\n", 10, "", 0, 0, true, SIGKILL, false,
		       "killed by signal 9 (SIGKILL)");
}

static void test_hackbench_argv(void **state)
{
	(void)state;
	expect_argv(&hackbench_load, NOKV,
		    ARGV("hackbench", "-P", "-g", "4", "-l", "1000", "-f", "20", "-s", "100"));
	expect_argv(&hackbench_load,
		    KV("mode=thread", "ipc=pipe", "groups=8", "loops=50", "fds=10", "datasize=512"),
		    ARGV("hackbench", "-T", "-p", "-g", "8", "-l", "50", "-f", "10", "-s", "512"));
}

/* Run prepare in a child with the given RLIMIT_NOFILE; the child exits 0
 * when prepare returned want_rc, err contains want_part and the soft limit
 * is then want_soft (0: unchecked). */
static void prepare_in_child(const char *const *kv, rlim_t soft, rlim_t hard, int want_rc,
			     const char *want_part, rlim_t want_soft)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = {soft, hard};
		struct pset ps;
		char err[512] = "";
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			_exit(10);
		pset_init(&ps, &hackbench_load, kv);
		int r = hackbench_load.prepare(&ps.p, err, sizeof(err));
		if (r != want_rc) {
			fprintf(stderr, "prepare returned %d: %s\n", r, err);
			_exit(11);
		}
		if (want_part && !strstr(err, want_part)) {
			fprintf(stderr, "err \"%s\" lacks \"%s\"\n", err, want_part);
			_exit(12);
		}
		if (want_soft && (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur != want_soft)) {
			fprintf(stderr, "soft limit %llu, expected %llu\n",
				(unsigned long long)rl.rlim_cur, (unsigned long long)want_soft);
			_exit(13);
		}
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_hackbench_prepare(void **state)
{
	(void)state;
	struct rlimit rl;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 400)
		skip();
	/* thread mode, 4 groups x 20 fds: 7 + 4*20*2 = 167, + 16 slack = 183. */
	prepare_in_child(KV("mode=thread"), 64, 64, -1, "needs 183 open files", 0);
	prepare_in_child(KV("mode=thread"), 64, 64, -1, "hard limit is 64", 0);
	prepare_in_child(KV("mode=thread"), 64, 400, 0, NULL, 183);
	/* process mode: 20 + 8 = 28, + 16 = 44 per process, whatever groups. */
	prepare_in_child(KV("groups=1000"), 40, 400, 0, NULL, 44);
	prepare_in_child(NOKV, 64, 64, 0, NULL, 64);
	prepare_in_child(KV("fds=100"), 64, 100, -1, "needs 124 open files", 0);
}

/* ---- perf bench sched messaging ----------------------------------------- */

static void pm(const char *name, const char *const *kv, double v)
{
	const struct want w[] = {{"time", "4", v}};
	check_fixture(&perf_messaging_load, name, kv, false, w, 1);
}

static void test_perf_messaging(void **s) { (void)s; pm("perf-bench-messaging", NOKV, 1.817); }
static void test_perf_messaging_pipe(void **s) { (void)s; pm("perf-bench-messaging-pipe", KV("ipc=pipe"), 0.615); }
static void test_perf_messaging_thread(void **s) { (void)s; pm("perf-bench-messaging-thread", KV("mode=thread"), 2.143); }
static void test_perf_messaging_thread_pipe(void **s) { (void)s; pm("perf-bench-messaging-thread-pipe", KV("mode=thread", "ipc=pipe"), 0.738); }
static void test_perf_messaging_simple(void **s) { (void)s; pm("perf-bench-messaging-simple", NOKV, 1.880); }

static void test_perf_messaging_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "perf-bench-messaging");
	char *t = cut_before(&fx, false, "     Total time");
	fail_out(&perf_messaging_load, NOKV, t, "no \"Total time:\" line");
	free(t);
	t = cut_before(&fx, false, "817 [sec]");
	fail_out(&perf_messaging_load, NOKV, t, "no \"Total time:\" line");
	free(t);
	fixture_free(&fx);
}

static void test_perf_messaging_empty(void **s) { (void)s; fail_out(&perf_messaging_load, NOKV, "", "no \"Total time:\" line"); }

static void test_perf_messaging_garbage(void **state)
{
	(void)state;
	fail_out(&perf_messaging_load, NOKV, garbage, "no \"Total time:\" line");
	fail_out(&perf_messaging_load, NOKV, "hello\n", "no \"Total time:\" line");
	fail_out(&perf_messaging_load, NOKV, "1.0\n2.0\n", "no \"Total time:\" line");
	fail_out(&perf_messaging_load, NOKV, "     Total time: fast [sec]\n", "unparsable Total time");
	fail_out(&perf_messaging_load, NOKV, "     Total time: 1.0 [min]\n", "unparsable Total time");
	fail_binary(&perf_messaging_load, NOKV, false);
}

static void test_perf_messaging_killed(void **state)
{
	(void)state;
	const char *out = "# Running 'sched/messaging' benchmark:\n";
	expect_failure(&perf_messaging_load, NOKV, out, strlen(out), "", 0, 0, true, SIGTERM, true,
		       "stopped (SIGTERM)");
	expect_failure(&perf_messaging_load, NOKV, out, strlen(out), "", 0, 0, true, SIGINT, false,
		       "killed by signal 2 (SIGINT)");
	expect_failure(&perf_messaging_load, NOKV, "", 0, "", 0, 129, false, 0, false, "exit code 129");
}

static void test_perf_messaging_argv(void **state)
{
	(void)state;
	expect_argv(&perf_messaging_load, NOKV,
		    ARGV("perf", "bench", "sched", "messaging", "-g", "4", "-l", "1000"));
	expect_argv(&perf_messaging_load, KV("mode=thread", "ipc=pipe", "groups=10", "loops=100"),
		    ARGV("perf", "bench", "sched", "messaging", "-t", "-p", "-g", "10", "-l", "100"));
}

/* ---- perf bench sched pipe --------------------------------------------- */

static void test_perf_pipe(void **state)
{
	(void)state;
	const struct want w[] = {{"time", "", 4.067}, {"usecs_per_op", "", 40.678120},
				 {"ops_per_sec", "", 24583}};
	check_fixture(&perf_pipe_load, "perf-bench-pipe", KV("loops=100000"), false, w, N(w));
}

static void test_perf_pipe_threaded(void **state)
{
	(void)state;
	const struct want w[] = {{"time", "", 3.484}, {"usecs_per_op", "", 34.844960},
				 {"ops_per_sec", "", 28698}};
	check_fixture(&perf_pipe_load, "perf-bench-pipe-threaded", KV("loops=100000", "threaded=true"),
		      false, w, N(w));
}

static void test_perf_pipe_simple(void **state)
{
	(void)state;
	const struct want w[] = {{"time", "", 2.258}};
	check_fixture(&perf_pipe_load, "perf-bench-pipe-simple", KV("loops=100000"), false, w, N(w));
}

static void test_perf_pipe_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "perf-bench-pipe");
	char *t = cut_before(&fx, false, "      40.678120");
	fail_out(&perf_pipe_load, NOKV, t, "no \"usecs/op\" line");
	free(t);
	t = cut_before(&fx, false, "          24583");
	fail_out(&perf_pipe_load, NOKV, t, "no \"ops/sec\" line");
	free(t);
	t = cut_before(&fx, false, "     Total");
	fail_out(&perf_pipe_load, NOKV, t, "no \"Total time:\" line");
	free(t);
	fixture_free(&fx);
}

static void test_perf_pipe_empty(void **s) { (void)s; fail_out(&perf_pipe_load, NOKV, "", "no \"Total time:\" line"); }

static void test_perf_pipe_garbage(void **state)
{
	(void)state;
	fail_out(&perf_pipe_load, NOKV, garbage, "no \"Total time:\" line");
	fail_out(&perf_pipe_load, NOKV, "     Total time: 1.0 [sec]\n\n      x usecs/op\n          5 ops/sec\n",
		 "unparsable \"usecs/op\"");
	fail_binary(&perf_pipe_load, NOKV, false);
}

static void test_perf_pipe_killed(void **state)
{
	(void)state;
	const char *out = "# Running 'sched/pipe' benchmark:\n";
	expect_failure(&perf_pipe_load, NOKV, out, strlen(out), "", 0, 0, true, SIGINT, false,
		       "killed by signal 2 (SIGINT)");
}

static void test_perf_pipe_argv(void **state)
{
	(void)state;
	expect_argv(&perf_pipe_load, NOKV, ARGV("perf", "bench", "sched", "pipe", "-l", "50000"));
	expect_argv(&perf_pipe_load, KV("loops=1000", "threaded=true"),
		    ARGV("perf", "bench", "sched", "pipe", "-l", "1000", "-T"));
}

/* ---- cyclictest -------------------------------------------------------- */

static void ct2(const char *name, const char *const *kv, bool stopped, const double v[8])
{
	const struct want w[] = {
		{"min_latency", "0", v[0]}, {"avg_latency", "0", v[1]}, {"max_latency", "0", v[2]},
		{"min_latency", "1", v[4]}, {"avg_latency", "1", v[5]}, {"max_latency", "1", v[6]},
	};
	check_fixture(&cyclictest_load, name, kv, stopped, w, N(w));
}

static void test_cyclictest_quiet(void **s) { (void)s; ct2("cyclictest-quiet", KV("threads=2", "duration_s=5"), false, (double[]){26, 83, 2348, 0, 31, 96, 1529, 0}); }
static void test_cyclictest_fifo_quiet(void **s) { (void)s; ct2("cyclictest-fifo-quiet", KV("threads=2", "priority=80"), false, (double[]){6, 19, 287, 0, 8, 32, 772, 0}); }
static void test_cyclictest_smp_d0(void **s) { (void)s; ct2("cyclictest-smp-d0", KV("threads=2", "priority=80"), false, (double[]){8, 23, 10566, 0, 15, 21, 554, 0}); }
static void test_cyclictest_json_stdout(void **s) { (void)s; ct2("cyclictest-json", KV("threads=2", "priority=80"), false, (double[]){7, 22, 711, 0, 8, 24, 1112, 0}); }
/* Without -q the live refresh repeats the T: lines; the last ones count. */
static void test_cyclictest_live(void **s) { (void)s; ct2("cyclictest-live", KV("threads=2", "priority=80"), false, (double[]){6, 35, 257, 0, 7, 28, 2809, 0}); }
/* Stopped by SIGINT (duration_s 0): the summary counts. */
static void test_cyclictest_sigint(void **s) { (void)s; ct2("cyclictest-sigint", KV("threads=2", "duration_s=0"), true, (double[]){43, 106, 6570, 0, 24, 113, 5116, 0}); }

static void ct_hist(const char *name, const char *const *kv, bool stopped, const double v[8])
{
	const struct want w[] = {
		{"min_latency", "0", v[0]}, {"avg_latency", "0", v[1]}, {"max_latency", "0", v[2]},
		{"overflows", "0", v[3]},
		{"min_latency", "1", v[4]}, {"avg_latency", "1", v[5]}, {"max_latency", "1", v[6]},
		{"overflows", "1", v[7]},
	};
	check_fixture(&cyclictest_load, name, kv, stopped, w, N(w));
}

/* Zero-padded columns: 00856 is 856 and 01324 is 1324 (base 10, not octal). */
static void test_cyclictest_hist(void **s) { (void)s; ct_hist("cyclictest-hist", KV("threads=2", "priority=80", "histogram_us=100"), false, (double[]){6, 24, 856, 27, 6, 27, 1324, 32}); }
static void test_cyclictest_hist_json_stdout(void **s) { (void)s; ct_hist("cyclictest-hist-json", KV("threads=2", "priority=80", "histogram_us=50"), false, (double[]){8, 36, 257, 387, 6, 23, 681, 36}); }

/* The -h bucket rows: one histogram per thread, counts as printed. */
static void test_cyclictest_hist_buckets(void **state)
{
	struct fixture fx;
	struct sample_vec s = {0};
	(void)state;
	fixture_load(&fx, "cyclictest-hist");
	assert_int_equal(run_parse(&cyclictest_load, KV("threads=2", "priority=80", "histogram_us=100"),
				   fx.out, fx.out_len, fx.err, fx.err_len, fx.rc, false, 0, false, &s),
			 0);
	assert_int_equal(s.n_hists, 2);
	const uint64_t total[2] = {4973, 4966}, overflow[2] = {27, 32};
	const double max[2] = {856, 1324};
	for (int k = 0; k < 2; k++) {
		const struct sample_hist *h = &s.hists[k];
		char op[8];
		snprintf(op, sizeof(op), "%d", k);
		assert_string_equal(h->metric, "latency");
		assert_string_equal(h->unit, "us");
		assert_string_equal(h->op, op);
		assert_int_equal(h->n_buckets, 100);
		assert_true(h->bucket_width == 1.0);
		assert_true(h->limit == 100.0);
		assert_int_equal(h->overflow, overflow[k]);
		assert_true(h->max_observed == max[k]);
		assert_true(h->min_observed == 6); /* "# Min Latencies: 00006 00006" */
		assert_null(h->bounds);
		uint64_t sum = 0;
		for (size_t i = 0; i < h->n_buckets; i++)
			sum += h->counts[i];
		assert_int_equal(sum, total[k]); /* "# Total:" */
	}
	/* "000010 000088\t000110", "000023 000273\t000158", "000064 000000\t000006" */
	assert_int_equal(s.hists[0].counts[5], 0);
	assert_int_equal(s.hists[0].counts[6], 3);
	assert_int_equal(s.hists[0].counts[10], 88);
	assert_int_equal(s.hists[1].counts[10], 110);
	assert_int_equal(s.hists[0].counts[23], 273);
	assert_int_equal(s.hists[1].counts[23], 158);
	assert_int_equal(s.hists[0].counts[64], 0);
	assert_int_equal(s.hists[1].counts[64], 6);
	assert_int_equal(s.hists[1].counts[94], 1);
	sample_vec_free(&s);
	assert_null(s.hists);

	/* Rows that do not hold "# Total:", or a wake-up below Min: a failure. */
	char *t = replace_once(fx.out, "# Total: 000004973", "# Total: 000004974");
	fail_out(&cyclictest_load, KV("threads=2", "histogram_us=100"), t,
		 "thread 0: \"# Total:\" 4974 but 4973 in its histogram rows");
	free(t);
	t = replace_once(fx.out, "# Min Latencies: 00006 00006", "# Min Latencies: 00007 00006");
	fail_out(&cyclictest_load, KV("threads=2", "histogram_us=100"), t,
		 "thread 0: histogram row 6 holds a wake-up below its \"# Min Latencies:\" 7");
	free(t);

	/* Rows cut short: a failure, never a partial histogram. */
	t = cut_before(&fx, false, "000050 ");
	const char *summary = strstr(fx.out, "# Total:");
	assert_non_null(summary);
	size_t len = strlen(t) + strlen(summary) + 1;
	char *cut = malloc(len);
	assert_non_null(cut);
	snprintf(cut, len, "%s%s", t, summary);
	fail_out(&cyclictest_load, KV("threads=2", "histogram_us=100"), cut,
		 "histogram has 50 rows, expected 100");
	free(cut);
	free(t);

	/* "# Histogram" without rows: the summary samples only, no histogram. */
	t = cut_before(&fx, false, "000000 ");
	len = strlen(t) + strlen(summary) + 1;
	cut = malloc(len);
	assert_non_null(cut);
	snprintf(cut, len, "%s%s", t, summary);
	memset(&s, 0, sizeof(s));
	assert_int_equal(run_parse(&cyclictest_load, KV("threads=2", "histogram_us=100"), cut,
				   strlen(cut), "", 0, 0, false, 0, false, &s),
			 0);
	assert_int_equal(s.n_hists, 0);
	assert_int_equal(s.n, 8);
	sample_vec_free(&s);
	free(cut);
	free(t);
	fixture_free(&fx);

	/* -h 50 with --json: the stdout rows still count ("000017 000028\t000466"). */
	memset(&s, 0, sizeof(s));
	fixture_load(&fx, "cyclictest-hist-json");
	assert_int_equal(run_parse(&cyclictest_load, KV("threads=2", "histogram_us=50"), fx.out,
				   fx.out_len, fx.err, fx.err_len, fx.rc, false, 0, false, &s),
			 0);
	assert_int_equal(s.n_hists, 2);
	assert_int_equal(s.hists[0].n_buckets, 50);
	assert_int_equal(s.hists[0].counts[17], 28);
	assert_int_equal(s.hists[1].counts[17], 466);
	assert_int_equal(s.hists[0].overflow, 387);
	sample_vec_free(&s);
	fixture_free(&fx);
}

/* -H 150 (logs of other tools): the all-threads column on the bucket rows,
 * Total, Max and Overflows, not on Min and Avg (captured here: 2 threads,
 * 1 s, a loaded 2-CPU VM). The per-thread values and histograms are those
 * of -h; the extra column is checked, not stored. */
static void test_cyclictest_histofall(void **state)
{
	struct fixture fx;
	struct sample_vec s = {0};
	(void)state;
	ct_hist("cyclictest-hist-all", KV("threads=2", "histogram_us=150"), false,
		(double[]){66, 557, 123557, 190, 49, 475, 39592, 258});
	fixture_load(&fx, "cyclictest-hist-all");
	assert_int_equal(run_parse(&cyclictest_load, KV("threads=2", "histogram_us=150"), fx.out,
				   fx.out_len, fx.err, fx.err_len, fx.rc, false, 0, false, &s), 0);
	assert_int_equal(s.n_hists, 2);
	const uint64_t total[2] = {532, 377};
	for (int k = 0; k < 2; k++) {
		uint64_t sum = 0;
		assert_int_equal(s.hists[k].n_buckets, 150);
		for (size_t i = 0; i < 150; i++)
			sum += s.hists[k].counts[i];
		assert_int_equal(sum, total[k]);
	}
	/* "000112 000027\t000022\t000049" */
	assert_int_equal(s.hists[0].counts[112], 27);
	assert_int_equal(s.hists[1].counts[112], 22);
	assert_int_equal(s.hists[0].overflow, 190);
	sample_vec_free(&s);

	/* A wrong all-threads column is garbage, not a number to ignore. */
	struct {
		const char *from, *to, *reason;
	} bad[] = {
		{"000112 000027\t000022\t000049", "000112 000027\t000022\t000050",
		 "histogram row 112: all-threads count 50 is not the sum 49"},
		{"# Total: 000000532 000000377 000000909", "# Total: 000000532 000000377 000000910",
		 "all-threads column 910 is not the sum 909"},
		{"# Max Latencies: 123557 39592 123557", "# Max Latencies: 123557 39592 39592",
		 "all-threads column 39592 is not the largest 123557"},
		{"# Histogram Overflows: 00190 00258 00448", "# Histogram Overflows: 00190 00258",
		 "\"# Histogram Overflows:\" has 2 columns, expected 3"},
		{"# Min Latencies: 00066 00049", "# Min Latencies: 00066 00049 00049",
		 "\"# Min Latencies:\" has 3 columns, expected 2"},
	};
	for (size_t i = 0; i < N(bad); i++) {
		char *at = strstr(fx.out, bad[i].from);
		assert_non_null(at);
		size_t pre = (size_t)(at - fx.out);
		char *text = malloc(fx.out_len + 16);
		assert_non_null(text);
		snprintf(text, fx.out_len + 16, "%.*s%s%s", (int)pre, fx.out, bad[i].to,
			 at + strlen(bad[i].from));
		fail_out(&cyclictest_load, KV("threads=2", "histogram_us=150"), text, bad[i].reason);
		free(text);
	}
	fixture_free(&fx);
}

static void test_cyclictest_hist_sigint(void **state)
{
	(void)state;
	/* Every latency above 20 us: Total 0, all 1972 samples overflows. */
	const struct want w[] = {{"min_latency", "0", 65}, {"avg_latency", "0", 110},
				 {"max_latency", "0", 3780}, {"overflows", "0", 1972}};
	check_fixture(&cyclictest_load, "cyclictest-hist-sigint",
		      KV("duration_s=0", "histogram_us=20"), true, w, N(w));
}

static void test_cyclictest_missing_max(void **state)
{
	(void)state;
	const char *kv2[] = {"threads=2", NULL};
	/* "Max: inf" is no number (parse_double: decimal only). */
	fail_out(&cyclictest_load, NOKV,
		 "T: 0 (10708) P: 0 I:1000 C:   4982 Min:     26 Act:   87 Avg:   83 Max:    inf\n",
		 "thread 0 without Max field");
	fail_out(&cyclictest_load, NOKV,
		 "T: 0 (10708) P: 0 I:1000 C:   4982 Min:  0x1a Act:   87 Avg:   83 Max:    2348\n",
		 "thread 0 without Min field");
	fail_out(&cyclictest_load, kv2,
		 "# /dev/cpu_dma_latency set to 0us\n"
		 "T: 0 (10708) P: 0 I:1000 C:   4982 Min:     26 Act:   87 Avg:   83 Max:    2348\n"
		 "T: 1 (10709) P: 0 I:1500 C:   3333 Min:     31 Act:   85 Avg:   96\n",
		 "thread 1 without Max field");
	fail_out(&cyclictest_load, kv2,
		 "T: 0 (10708) P: 0 I:1000 C:   4982 Min:     26 Act:   87 Avg:   83 Max:    2348\n"
		 "T: 1 (10709) P: 0 I:1500 C:   3333 Min:     31 Act:   85 Avg:   96 Max:\n",
		 "thread 1 without Max field");
}

static void test_cyclictest_no_t_lines(void **state)
{
	(void)state;
	fail_out(&cyclictest_load, NOKV, "# /dev/cpu_dma_latency set to 0us\n", "no T: line for thread 0");
	/* One thread missing. */
	struct fixture fx;
	fixture_load(&fx, "cyclictest-quiet");
	fail_out(&cyclictest_load, KV("threads=3"), fx.out, "no T: line for thread 2");
	fixture_free(&fx);
	/* A thread number outside -t. */
	fail_out(&cyclictest_load, NOKV,
		 "T: 5 (1) P: 0 I:1000 C: 10 Min: 1 Act: 1 Avg: 1 Max: 1\n", "expected threads 0..0");
}

static void test_cyclictest_no_cycles(void **state)
{
	(void)state;
	/* The first live frame: C: 0 and the Min sentinel 1000000. */
	fail_out(&cyclictest_load, NOKV,
		 "T: 0 (    0) P:80 I:1000 C:      0 Min:1000000 Act:    0 Avg:    0 Max:       0\n",
		 "thread 0 measured no cycle");
}

static void test_cyclictest_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "cyclictest-quiet");
	char *t = cut_before(&fx, false, "T: 1");
	fail_out(&cyclictest_load, KV("threads=2"), t, "no T: line for thread 1");
	free(t);
	/* Cut in the middle of thread 1's Max value (no trailing newline). */
	t = cut_before(&fx, false, "29\n");
	fail_out(&cyclictest_load, KV("threads=2"), t, "no T: line for thread 1");
	free(t);
	fixture_free(&fx);

	fixture_load(&fx, "cyclictest-hist");
	t = cut_before(&fx, false, "# Max Latencies");
	fail_out(&cyclictest_load, KV("threads=2", "histogram_us=100"), t, "no \"# Max Latencies:\" line");
	free(t);
	t = cut_before(&fx, false, "# Histogram Overflows");
	fail_out(&cyclictest_load, KV("threads=2", "histogram_us=100"), t, "no \"# Histogram Overflows:\" line");
	free(t);
	/* histogram_us set but the output has T: lines only: no summary rows. */
	fixture_free(&fx);
	fixture_load(&fx, "cyclictest-quiet");
	fail_out(&cyclictest_load, KV("threads=2", "histogram_us=100"), fx.out, "no \"# Total:\" line");
	fixture_free(&fx);
}

static void test_cyclictest_hist_columns(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "cyclictest-hist");
	/* The output has 2 columns, the parameters say 3 threads. */
	fail_out(&cyclictest_load, KV("threads=3", "histogram_us=100"), fx.out, "has 2 columns, expected 3");
	fixture_free(&fx);
	fail_out(&cyclictest_load, KV("histogram_us=100"),
		 "# Total: 000000010\n# Histogram Overflows: 00000\n# Min Latencies: 0000x\n",
		 "column 0 is not a number");
}

static void test_cyclictest_empty(void **s) { (void)s; fail_out(&cyclictest_load, NOKV, "", "no T: line for thread 0"); }

static void test_cyclictest_garbage(void **state)
{
	(void)state;
	fail_out(&cyclictest_load, NOKV, garbage, "no T: line for thread 0");
	fail_out(&cyclictest_load, NOKV, "T: x\n", "without a thread number");
	fail_out(&cyclictest_load, NOKV, "T: 0 (1) P: 0 I:1000 C: 10 Min: a Act: 1 Avg: 1 Max: 1\n",
		 "without Min field");
	fail_binary(&cyclictest_load, NOKV, false);
}

static void test_cyclictest_killed(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "cyclictest-sigint");
	/* A complete summary, but the process died of SIGKILL after a stop. */
	expect_failure(&cyclictest_load, KV("threads=2"), fx.out, fx.out_len, "", 0, 0, true,
		       SIGKILL, true, "killed by signal 9 (SIGKILL)");
	/* Crash while not stopped. */
	expect_failure(&cyclictest_load, KV("threads=2"), fx.out, fx.out_len, "", 0, 0, true,
		       SIGSEGV, false, "killed by signal 11 (SIGSEGV)");
	/* Non-zero exit while not stopped. */
	expect_failure(&cyclictest_load, KV("threads=2"), fx.out, fx.out_len, "", 0, 1, false, 0,
		       false, "exit code 1");
	/* Died of the stop signal itself: no summary was printed. */
	expect_failure(&cyclictest_load, NOKV, "# /dev/cpu_dma_latency set to 0us\n", 34, "", 0, 0,
		       true, SIGINT, true, "no T: line for thread 0");
	fixture_free(&fx);
}

static void test_cyclictest_argv(void **state)
{
	(void)state;
	expect_argv(&cyclictest_load, NOKV,
		    ARGV("cyclictest", "-q", "-d", "0", "-t", "1", "-i", "1000", "-D", "10",
			 "--policy", "other", "-m"));
	expect_argv(&cyclictest_load,
		    KV("threads=2", "interval_us=500", "duration_s=0", "priority=80",
		       "histogram_us=100", "mlock=false"),
		    ARGV("cyclictest", "-q", "-d", "0", "-t", "2", "-i", "500", "-p", "80",
			 "--policy", "fifo", "-h", "100"));
}

/* ---- dbench ------------------------------------------------------------ */

static void test_dbench_1client(void **state)
{
	(void)state;
	const struct want w[] = {{"throughput", "", 526.382}, {"max_latency", "", 4.548}};
	check_fixture(&dbench_load, "dbench-1client", NOKV, false, w, N(w));
}

static void test_dbench_2clients(void **state)
{
	(void)state;
	const struct want w[] = {{"throughput", "", 971.062}, {"max_latency", "", 6.523}};
	check_fixture(&dbench_load, "dbench-2clients", KV("clients=2"), false, w, N(w));
}

static void test_dbench_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "dbench-1client");
	/* The execute lines carry MB/sec too, but are not the final result. */
	char *t = cut_before(&fx, false, "Throughput");
	fail_out(&dbench_load, NOKV, t, "no final \"Throughput\" line");
	free(t);
	t = cut_before(&fx, false, "max_latency=");
	fail_out(&dbench_load, NOKV, t, "no final \"Throughput\" line");
	free(t);
	fixture_free(&fx);
	fail_out(&dbench_load, NOKV, "Throughput 526.382 MB/sec  1 clients  1 procs\n",
		 "without \"max_latency=X ms\"");
	fail_out(&dbench_load, NOKV, "Throughput 526.382 GB/sec  1 clients  1 procs  max_latency=4.548 ms\n",
		 "without \"X MB/sec\"");
}

static void test_dbench_error(void **state)
{
	(void)state;
	const char *out =
		"dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n\n"
		"Running for 2 seconds with load '/usr/share/dbench/client.txt' and minimum warmup 0 secs\n"
		"1 of 1 processes prepared for launch   0 sec\nreleasing clients\n"
		"[3] open /nonexistent/clients/client0 failed for handle 16385 (No such file or directory)\n"
		"(4) ERROR: handle 16385 was not found\nChild failed with status 1\n";
	expect_failure(&dbench_load, NOKV, out, strlen(out), "", 0, 1, false, 0, false, "exit code 1");
	fail_out(&dbench_load, NOKV, out, "no final \"Throughput\" line");
}

static void test_dbench_empty(void **s) { (void)s; fail_out(&dbench_load, NOKV, "", "no final \"Throughput\" line"); }

static void test_dbench_garbage(void **state)
{
	(void)state;
	fail_out(&dbench_load, NOKV, garbage, "no final \"Throughput\" line");
	fail_binary(&dbench_load, NOKV, false);
}

static void test_dbench_killed(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "dbench-1client");
	expect_failure(&dbench_load, NOKV, fx.out, fx.out_len, "", 0, 0, true, SIGTERM, true,
		       "stopped (SIGTERM)");
	fixture_free(&fx);
}

static void test_dbench_argv(void **state)
{
	(void)state;
	expect_argv(&dbench_load, NOKV,
		    ARGV("dbench", "-c", "/usr/share/dbench/client.txt", "-D", "/tmp", "-t", "5", "1"));
	expect_argv(&dbench_load, KV("clients=4", "duration_s=30", "dir=/var/tmp/a b"),
		    ARGV("dbench", "-c", "/usr/share/dbench/client.txt", "-D", "/var/tmp/a b", "-t",
			 "30", "4"));
	expect_argv_error(&dbench_load, KV("dir="), "dir is empty");
}

static void test_dbench_prepare(void **state)
{
	struct pset ps;
	char err[256];
	(void)state;
	pset_init(&ps, &dbench_load, KV("dir=/nonexistent/schedrig", "loadfile=/etc/hostname"));
	assert_int_equal(dbench_load.prepare(&ps.p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/schedrig is not a writable directory"));
	pset_free(&ps);
	pset_init(&ps, &dbench_load, KV("dir=/tmp", "loadfile=/nonexistent/client.txt"));
	assert_int_equal(dbench_load.prepare(&ps.p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not readable"));
	pset_free(&ps);
	pset_init(&ps, &dbench_load, KV("dir=/tmp", "loadfile=/etc/hostname"));
	assert_int_equal(dbench_load.prepare(&ps.p, err, sizeof(err)), 0);
	pset_free(&ps);
}

/* ---- stress-ng --------------------------------------------------------- */

static void test_stress_ng_cpu(void **state)
{
	(void)state;
	const struct want w[] = {{"bogo_ops_per_s", "", 2898.09}};
	check_fixture(&stress_ng_load, "stress-ng-cpu", KV("workers=2"), false, w, N(w));
}

static void test_stress_ng_cpu_metrics(void **state)
{
	(void)state;
	/* --metrics: two more columns after the ones we read. */
	const struct want w[] = {{"bogo_ops_per_s", "", 2850.70}};
	check_fixture(&stress_ng_load, "stress-ng-cpu-metrics-yaml", KV("workers=2"), false, w, N(w));
}

static void test_stress_ng_switch(void **state)
{
	(void)state;
	const struct want w[] = {{"bogo_ops_per_s", "", 646030.48}, {"ns_per_switch", "", 3095.01}};
	check_fixture(&stress_ng_load, "stress-ng-switch", KV("stressor=switch", "workers=2"), false, w,
		      N(w));
}

static void test_stress_ng_cyclic(void **state)
{
	(void)state;
	const struct want w[] = {{"bogo_ops_per_s", "", 7114.05}};
	check_fixture(&stress_ng_load, "stress-ng-cyclic", KV("stressor=cyclic"), false, w, N(w));
}

static void test_stress_ng_sigint(void **state)
{
	(void)state;
	const struct want w[] = {{"bogo_ops_per_s", "", 1181.49}};
	check_fixture(&stress_ng_load, "stress-ng-sigint", KV("duration_s=10"), true, w, N(w));
}

static void test_stress_ng_stdout(void **state)
{
	struct fixture fx;
	struct sample_vec s = {0};
	(void)state;
	/* Merged into stdout (2>&1): still found. */
	fixture_load(&fx, "stress-ng-cpu");
	assert_int_equal(run_parse(&stress_ng_load, NOKV, fx.err, fx.err_len, "", 0, 0, false, 0,
				   false, &s), 0);
	const struct want w[] = {{"bogo_ops_per_s", "", 2898.09}};
	expect_samples(&stress_ng_load, &s, w, 1);
	sample_vec_free(&s);
	fixture_free(&fx);
}

static void test_stress_ng_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "stress-ng-cpu");
	char *t = cut_before(&fx, true, "stress-ng: metrc: [16303] cpu ");
	fail_err(&stress_ng_load, NOKV, t, "no \"metrc:\" row for stressor cpu");
	free(t);
	/* Cut inside the row: its last line has no newline. */
	t = cut_before(&fx, true, "1453.12");
	fail_err(&stress_ng_load, NOKV, t, "no \"metrc:\" row for stressor cpu");
	free(t);
	fixture_free(&fx);
	fail_err(&stress_ng_load, NOKV, "stress-ng: metrc: [1] cpu  14494  5.00  9.97\n",
		 "has 3 numbers, expected 6");
}

static void test_stress_ng_other_stressor(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "stress-ng-switch");
	fail_err(&stress_ng_load, KV("stressor=cpu"), fx.err, "no \"metrc:\" row for stressor cpu");
	fixture_free(&fx);
}

static void test_stress_ng_empty(void **s) { (void)s; fail_err(&stress_ng_load, NOKV, "", "no \"metrc:\" row"); }

static void test_stress_ng_garbage(void **state)
{
	(void)state;
	/* A rate that contradicts its count, a run of no time: failures. */
	struct fixture fx;
	fixture_load(&fx, "stress-ng-cpu");
	char *t = replace_once(fx.err, "cpu               14494", "cpu                   0");
	fail_err(&stress_ng_load, NOKV, t, "cpu: 0 bogo ops but 2898.09 bogo ops/s: the rate"
		 " contradicts its count");
	free(t);
	t = replace_once(fx.err, "14494      5.00", "14494      0.00");
	fail_err(&stress_ng_load, NOKV, t, "real time 0 s for cpu: no time elapsed, a failed run");
	free(t);
	fixture_free(&fx);
	fail_err(&stress_ng_load, NOKV, garbage, "no \"metrc:\" row");
	fail_binary(&stress_ng_load, NOKV, true);
}

static void test_stress_ng_failed(void **state)
{
	(void)state;
	const char *err = "stress-ng: unrecognized option '--nosuchstressor'\n";
	expect_failure(&stress_ng_load, NOKV, "Try 'stress-ng --help' for more information.\n", 45,
		       err, strlen(err), 1, false, 0, false, "exit code 1");
	expect_failure(&stress_ng_load, NOKV, "", 0, "", 0, 0, true, SIGKILL, true,
		       "killed by signal 9 (SIGKILL)");
}

static void test_stress_ng_argv(void **state)
{
	(void)state;
	expect_argv(&stress_ng_load, NOKV,
		    ARGV("stress-ng", "--cpu", "1", "--timeout", "5s", "--metrics-brief"));
	expect_argv(&stress_ng_load, KV("stressor=switch", "workers=2", "duration_s=3"),
		    ARGV("stress-ng", "--switch", "2", "--timeout", "3s", "--metrics-brief"));
	expect_argv_error(&stress_ng_load, KV("stressor=cpu --all"), "not a stressor name");
	expect_argv_error(&stress_ng_load, KV("stressor=-cpu"), "not a stressor name");
	expect_argv_error(&stress_ng_load, KV("stressor="), "not a stressor name");
}

/* ---- sysbench ---------------------------------------------------------- */

static void test_sysbench_cpu(void **state)
{
	(void)state;
	const struct want w[] = {{"events_per_s", "", 5570.51}, {"latency_avg", "", 0.36},
				 {"latency_p95", "", 0.40}, {"events", "", 27863}};
	check_fixture(&sysbench_load, "sysbench-cpu", KV("threads=2"), false, w, N(w));
}

static void test_sysbench_cpu_interval_hist(void **state)
{
	(void)state;
	const struct want w[] = {{"events_per_s", "", 5635.23}, {"latency_avg", "", 0.35},
				 {"latency_p95", "", 0.39}, {"events", "", 16933}};
	check_fixture(&sysbench_load, "sysbench-cpu-interval-hist", KV("threads=2", "duration_s=3"),
		      false, w, N(w));
}

static void test_sysbench_threads(void **state)
{
	(void)state;
	const struct want w[] = {{"latency_avg", "", 1.82}, {"latency_p95", "", 2.26},
				 {"events", "", 11010}};
	check_fixture(&sysbench_load, "sysbench-threads", KV("test=threads", "threads=4"), false, w,
		      N(w));
}

static void test_sysbench_mutex(void **state)
{
	(void)state;
	const struct want w[] = {{"latency_avg", "", 266.61}, {"latency_p95", "", 325.98},
				 {"events", "", 2}};
	check_fixture(&sysbench_load, "sysbench-mutex", KV("test=mutex", "threads=2"), false, w, N(w));
}

/* One event (mutex, one thread): sysbench prints min = avg = max = 630.92
 * but a 95th percentile of 634.66, its histogram bucket's value; the p95
 * stored is the one event's latency, 630.92. */
static void test_sysbench_one_event(void **state)
{
	(void)state;
	const struct want w[] = {{"latency_avg", "", 630.92}, {"latency_p95", "", 630.92},
				 {"events", "", 1}};
	check_fixture(&sysbench_load, "sysbench-mutex-one-event", KV("test=mutex", "threads=1"),
		      false, w, N(w));
	/* a bucket below the min is raised to it: min 0.33, p95 0.32 -> 0.33;
	 * 0.30 is beyond the bucket error and the printing: refused */
	struct fixture fx;
	fixture_load(&fx, "sysbench-cpu");
	char *t = replace_once(fx.out, "95th percentile:                        0.40",
			       "95th percentile:                        0.30");
	fail_out(&sysbench_load, NOKV, t, "Latency (ms): 95th percentile 0.3 below min 0.33 by"
		 " more than sysbench's bucket error (x1.00904)");
	free(t);
	t = replace_once(fx.out, "95th percentile:                        0.40",
			 "95th percentile:                        0.32");
	const struct want lo[] = {{"events_per_s", "", 5570.51}, {"latency_avg", "", 0.36},
				  {"latency_p95", "", 0.33}, {"events", "", 27863}};
	check_text(&sysbench_load, KV("threads=2"), t, lo, N(lo));
	free(t);
	/* min and max are required, and min may not exceed max */
	t = replace_once(fx.out, "         min:", "         minimum:");
	fail_out(&sysbench_load, NOKV, t, "no \"Latency (ms) min\" line");
	free(t);
	t = replace_once(fx.out, "max:                                    9.51",
			 "max:                                    0.01");
	fail_out(&sysbench_load, NOKV, t, "Latency (ms): avg 0.36 is above max 0.01");
	free(t);
	fixture_free(&fx);
}

/* Order statistics that contradict each other are garbage, in every
 * parser: a failure in the tool's terms, never a sample. Each case edits
 * one number of a captured output. */
static void test_order_statistics(void **state)
{
	(void)state;
	const char *const *ct = KV("threads=2"), *const *hist = KV("threads=2", "histogram_us=100");
	const struct {
		const struct load_ops *ops;
		const char *const *kv;
		const char *fixture, *from, *to, *reason;
	} cases[] = {
		/* cyclictest T: lines: Min <= Avg <= Max, none negative, once each */
		{&cyclictest_load, ct, "cyclictest-quiet", "Min:     26", "Min:   2400",
		 "T: line of thread 0: Min 2400 is above Avg 83"},
		{&cyclictest_load, ct, "cyclictest-quiet", "Avg:   96", "Avg: 1600",
		 "T: line of thread 1: Avg 1600 is above Max 1529"},
		{&cyclictest_load, ct, "cyclictest-quiet", "Avg:   83", "Avg:   20",
		 "T: line of thread 0: Min 26 is above Avg 20"},
		{&cyclictest_load, ct, "cyclictest-quiet", "Min:     26", "Min:    -26",
		 "T: line of thread 0: Min -26 is negative"},
		{&cyclictest_load, ct, "cyclictest-quiet", "T: 1 (10709)", "T: 0 (10709)",
		 "T: line of thread 0 twice in one report"},
		/* cyclictest -h summary rows */
		{&cyclictest_load, hist, "cyclictest-hist", "# Min Latencies: 00006 00006",
		 "# Min Latencies: 00006 02000",
		 "thread 1's \"# Min/Avg/Max Latencies\": Min 2000 is above Avg 27"},
		/* schbench: percentiles in order, min <= max (final blocks) */
		{&schbench_load, NOKV, "schbench-m1-t2-r20", "90.0th: 4872 ", "90.0th: 5400 ",
		 "Request Latencies percentiles: p90 5400 is above p99 5352"},
		{&schbench_load, NOKV, "schbench-m1-t2-r20", "min=3549, max=14592",
		 "min=20000, max=14592", "Request Latencies percentiles: min 20000 is above max 14592"},
		/* sysbench: min <= avg <= max */
		{&sysbench_load, NOKV, "sysbench-cpu", "avg:                                    0.36",
		 "avg:                                    0.20", "Latency (ms): min 0.33 is above avg 0.2"},
		/* sockperf: rows descend from <MAX> to <MIN>, the Summary within */
		{&sockperf_load, NOKV, "sockperf-pingpong-tcp", "percentile 99.000 =   71.435",
		 "percentile 99.000 =  371.435", "statistics lines: p99 371.435 is above p99.9 296.128"},
		{&sockperf_load, NOKV, "sockperf-pingpong-tcp", "Latency is 39.409 usec",
		 "Latency is 3.409 usec", "Summary: <MIN> 4.683 is above Summary 3.409"},
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct fixture fx;
		fixture_load(&fx, cases[i].fixture);
		bool in_err = fx.err && strstr(fx.err, cases[i].from);
		char *t = replace_once(in_err ? fx.err : fx.out, cases[i].from, cases[i].to);
		if (in_err)
			fail_err(cases[i].ops, cases[i].kv, t, cases[i].reason);
		else
			fail_out(cases[i].ops, cases[i].kv, t, cases[i].reason);
		free(t);
		fixture_free(&fx);
	}
}

static void test_sysbench_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "sysbench-cpu");
	char *t = cut_before(&fx, false, "Latency (ms)");
	fail_out(&sysbench_load, NOKV, t, "no \"Latency (ms) avg\" line");
	free(t);
	t = cut_before(&fx, false, "         95th");
	fail_out(&sysbench_load, NOKV, t, "no \"Latency (ms) 95th percentile\" line");
	free(t);
	t = cut_before(&fx, false, "General statistics");
	fail_out(&sysbench_load, NOKV, t, "no \"total number of events\" line");
	free(t);
	fixture_free(&fx);
	/* The cpu test must print events per second. */
	fixture_load(&fx, "sysbench-threads");
	fail_out(&sysbench_load, NOKV, fx.out, "no \"events per second\" line");
	fixture_free(&fx);
}

static void test_sysbench_fatal(void **state)
{
	(void)state;
	const char *out = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
			  "FATAL: Cannot find benchmark 'bogus': no such built-in test, file or module\n";
	expect_failure(&sysbench_load, NOKV, out, strlen(out), "", 0, 1, false, 0, false, "exit code 1");
	fail_out(&sysbench_load, NOKV, out, "no \"total number of events\" line");
}

static void test_sysbench_empty(void **s) { (void)s; fail_out(&sysbench_load, NOKV, "", "no \"total number of events\" line"); }

static void test_sysbench_garbage(void **state)
{
	(void)state;
	struct fixture fx;
	fixture_load(&fx, "sysbench-cpu");
	char *t = replace_once(fx.out, "total number of events:              27863",
			       "total number of events:              0");
	fail_out(&sysbench_load, KV("test=cpu"), t, "total number of events 0 but 5570.51 events"
		 " per second: the rate contradicts its count");
	free(t);
	/* A 95th percentile past max beyond the bucket error (x1.00904 + 0.005):
	 * refused; within it: clamped to max. */
	t = replace_once(fx.out, "95th percentile:                        0.40",
			 "95th percentile:                        9.62");
	fail_out(&sysbench_load, KV("test=cpu"), t, "Latency (ms): 95th percentile 9.62 above max"
		 " 9.51 by more than sysbench's bucket error (x1.00904)");
	free(t);
	t = replace_once(fx.out, "95th percentile:                        0.40",
			 "95th percentile:                        9.59");
	struct sample_vec sv = {0};
	assert_int_equal(run_parse(&sysbench_load, KV("test=cpu"), t, strlen(t), "", 0, 0, false, 0,
				   false, &sv), 0);
	assert_true(sv.v[2].value == 9.51 && !strcmp(sv.v[2].metric, "latency_p95"));
	sample_vec_free(&sv);
	free(t);
	fixture_free(&fx);
	fail_out(&sysbench_load, NOKV, garbage, "no \"total number of events\" line");
	fail_out(&sysbench_load, NOKV, "    total number of events:              many\n", "unparsable line");
	fail_binary(&sysbench_load, NOKV, false);
}

static void test_sysbench_killed(void **state)
{
	(void)state;
	const char *out = "Threads started!\n";
	expect_failure(&sysbench_load, NOKV, out, strlen(out), "", 0, 0, true, SIGINT, false,
		       "killed by signal 2 (SIGINT)");
}

static void test_sysbench_argv(void **state)
{
	(void)state;
	expect_argv(&sysbench_load, NOKV, ARGV("sysbench", "cpu", "--threads=1", "--time=5", "run"));
	expect_argv(&sysbench_load, KV("test=mutex", "threads=4", "duration_s=2"),
		    ARGV("sysbench", "mutex", "--threads=4", "--time=2", "run"));
}

/* ---- sockperf ---------------------------------------------------------- */

static void test_sockperf_tcp(void **state)
{
	(void)state;
	const struct want w[] = {
		{"latency_half_rtt", "avg", 39.409}, {"latency_half_rtt", "max", 1571.808},
		{"latency_half_rtt", "p99.999", 1571.808}, {"latency_half_rtt", "p99.99", 534.531},
		{"latency_half_rtt", "p99.9", 296.128}, {"latency_half_rtt", "p99", 71.435},
		{"latency_half_rtt", "p90", 48.719}, {"latency_half_rtt", "p75", 44.854},
		{"latency_half_rtt", "p50", 41.058}, {"latency_half_rtt", "p25", 36.394},
		{"latency_half_rtt", "min", 4.683},
	};
	check_fixture(&sockperf_load, "sockperf-pingpong-tcp", NOKV, false, w, N(w));
}

static void test_sockperf_udp(void **state)
{
	(void)state;
	const struct want w[] = {
		{"latency_half_rtt", "avg", 40.097}, {"latency_half_rtt", "max", 5012.415},
		{"latency_half_rtt", "p99.999", 5012.415}, {"latency_half_rtt", "p99.99", 2839.580},
		{"latency_half_rtt", "p99.9", 698.451}, {"latency_half_rtt", "p99", 360.787},
		{"latency_half_rtt", "p90", 47.703}, {"latency_half_rtt", "p75", 37.714},
		{"latency_half_rtt", "p50", 30.977}, {"latency_half_rtt", "p25", 4.667},
		{"latency_half_rtt", "min", 2.835},
	};
	check_fixture(&sockperf_load, "sockperf-pingpong-udp", KV("protocol=udp", "port=11112"), false,
		      w, N(w));
}

static void test_sockperf_mps(void **state)
{
	(void)state;
	const struct want w[] = {
		{"latency_half_rtt", "avg", 43.691}, {"latency_half_rtt", "max", 4215.439},
		{"latency_half_rtt", "p99.999", 4215.439}, {"latency_half_rtt", "p99.99", 2082.370},
		{"latency_half_rtt", "p99.9", 533.997}, {"latency_half_rtt", "p99", 123.591},
		{"latency_half_rtt", "p90", 49.071}, {"latency_half_rtt", "p75", 44.626},
		{"latency_half_rtt", "p50", 40.573}, {"latency_half_rtt", "p25", 36.438},
		{"latency_half_rtt", "min", 3.574},
	};
	check_fixture(&sockperf_load, "sockperf-pingpong-tcp-mps", KV("mps=10000", "msg_size=64"), false,
		      w, N(w));
}

static void test_sockperf_full_rtt(void **state)
{
	(void)state;
	const struct want w[] = {
		{"latency_rtt", "avg", 80.023}, {"latency_rtt", "max", 4049.576},
		{"latency_rtt", "p99.999", 4049.576}, {"latency_rtt", "p99.99", 1708.803},
		{"latency_rtt", "p99.9", 771.008}, {"latency_rtt", "p99", 181.652},
		{"latency_rtt", "p90", 97.225}, {"latency_rtt", "p75", 89.524},
		{"latency_rtt", "p50", 81.706}, {"latency_rtt", "p25", 70.988},
		{"latency_rtt", "min", 9.059},
	};
	check_fixture(&sockperf_load, "sockperf-pingpong-tcp-fullrtt", KV("full_rtt=true"), false, w,
		      N(w));
}

static void test_sockperf_throughput_output(void **state)
{
	struct fixture fx;
	(void)state;
	/* A throughput run has no latency summary. */
	fixture_load(&fx, "sockperf-throughput-tcp");
	fail_out(&sockperf_load, NOKV, fx.out, "no \"Summary: Latency is\"");
	fixture_free(&fx);
}

static void test_sockperf_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "sockperf-pingpong-tcp");
	char *t = cut_before(&fx, false, "sockperf: Summary");
	fail_out(&sockperf_load, NOKV, t, "no \"Summary: Latency is\"");
	free(t);
	/* Percentile list cut short: <MIN> (the last row) missing. */
	t = cut_before(&fx, false, "sockperf: ---> percentile 50.000");
	fail_out(&sockperf_load, NOKV, t, "no \"<MIN> observation\" line");
	free(t);
	t = cut_before(&fx, false, "sockperf: ---> <MAX>");
	fail_out(&sockperf_load, NOKV, t, "no \"<MAX> observation\" line");
	free(t);
	fixture_free(&fx);
}

static void test_sockperf_server_output(void **state)
{
	struct fixture fx;
	(void)state;
	/* The server's output (what a misconfigured run might capture). */
	memset(&fx, 0, sizeof(fx));
	char path[8192];
	snprintf(path, sizeof(path), "%s/sockperf-server-tcp.txt", tool_dir);
	fx.out = slurp(path, &fx.out_len);
	assert_non_null(fx.out);
	fail_out(&sockperf_load, NOKV, fx.out, "no \"Summary: Latency is\"");
	free(fx.out);
}

static void test_sockperf_empty(void **s) { (void)s; fail_out(&sockperf_load, NOKV, "", "no \"Summary: Latency is\""); }

static void test_sockperf_garbage(void **state)
{
	(void)state;
	fail_out(&sockperf_load, NOKV, garbage, "no \"Summary: Latency is\"");
	fail_out(&sockperf_load, NOKV, "sockperf: Summary: Latency is fast usec\n", "unparsable Summary line");
	fail_out(&sockperf_load, NOKV,
		 "sockperf: Summary: Latency is 1.0 usec\nsockperf: ---> percentile 101.000 = 1.0\n",
		 "unparsable statistics line");
	fail_binary(&sockperf_load, NOKV, false);
}

static void test_sockperf_killed(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "sockperf-pingpong-tcp");
	expect_failure(&sockperf_load, NOKV, fx.out, fx.out_len, "", 0, 0, true, SIGKILL, false,
		       "killed by signal 9 (SIGKILL)");
	expect_failure(&sockperf_load, NOKV, fx.out, fx.out_len, "", 0, 255, false, 0, false,
		       "exit code 255");
	fixture_free(&fx);
}

static void test_sockperf_argv(void **state)
{
	(void)state;
	expect_argv(&sockperf_load, NOKV,
		    ARGV("sockperf", "ping-pong", "--tcp", "-i", "127.0.0.1", "-p", "11111", "-t", "3"));
	expect_argv(&sockperf_load,
		    KV("ip=10.0.0.2", "port=11112", "protocol=udp", "duration_s=5", "msg_size=64",
		       "mps=10000", "full_rtt=true"),
		    ARGV("sockperf", "ping-pong", "-i", "10.0.0.2", "-p", "11112", "-t", "5", "-m",
			 "64", "--mps=10000", "--full-rtt"));
	expect_argv_error(&sockperf_load, KV("ip=--help"), "not an address");
}

/* ---- schbench (HAND-WRITTEN fixture, see load-drivers/README.md) ------- */

static const struct want schbench_final[] = {
	{"wakeup_latency", "p50", 6}, {"wakeup_latency", "p90", 12},
	{"wakeup_latency", "p99", 21}, {"wakeup_latency", "p99.9", 61},
	{"wakeup_latency", "min", 1}, {"wakeup_latency", "max", 2215},
	{"request_latency", "p50", 4808}, {"request_latency", "p90", 4872},
	{"request_latency", "p99", 5352}, {"request_latency", "p99.9", 9360},
	{"request_latency", "min", 3549}, {"request_latency", "max", 14592},
	/* p50 "(0 samples)": no sample between it and p20, no value. */
	{"rps", "p20", 4120}, {"rps", "p90", 4136},
	{"rps", "min", 4032}, {"rps", "max", 4143}, {"rps", "avg", 4131.55},
};

static void test_schbench(void **state)
{
	(void)state;
	check_fixture(&schbench_load, "schbench-m1-t2-r20", KV("duration_s=20"), false, schbench_final,
		      N(schbench_final));
}

static void test_schbench_stdout(void **state)
{
	struct fixture fx;
	struct sample_vec s = {0};
	(void)state;
	fixture_load(&fx, "schbench-m1-t2-r20");
	assert_int_equal(run_parse(&schbench_load, NOKV, fx.err, fx.err_len, "", 0, 0, false, 0,
				   false, &s), 0);
	expect_samples(&schbench_load, &s, schbench_final, N(schbench_final));
	sample_vec_free(&s);
	fixture_free(&fx);
}

static void test_schbench_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "schbench-m1-t2-r20");
	/* Final blocks complete but no "average rps": could be an interval set. */
	char *t = cut_before(&fx, true, "average rps");
	fail_err(&schbench_load, NOKV, t, "no final report");
	free(t);
	/* Cut inside the final Request block: must not fall back to the
	 * interval report's Request block. */
	t = cut_before(&fx, true, "\t  99.9th: 9360");
	fail_err(&schbench_load, NOKV, t, "without its \"min=, max=\" line");
	free(t);
	t = cut_before(&fx, true, "RPS percentiles (requests) runtime 20");
	fail_err(&schbench_load, NOKV, t, "no \"RPS percentiles\" block after the last Wakeup block");
	free(t);
	fixture_free(&fx);
}

static void test_schbench_zero_samples(void **state)
{
	(void)state;
	/* A block with 0 total samples holds placeholder zeros: no values. */
	const char *err =
		"Wakeup Latencies percentiles (usec) runtime 5 (s) (0 total samples)\n"
		"\t  50.0th: 0          (0 samples)\n\t  90.0th: 0          (0 samples)\n"
		"\t* 99.0th: 0          (0 samples)\n\t  99.9th: 0          (0 samples)\n"
		"\t  min=0, max=0\n"
		"Request Latencies percentiles (usec) runtime 5 (s) (0 total samples)\n"
		"\t  50.0th: 0          (0 samples)\n\t  90.0th: 0          (0 samples)\n"
		"\t* 99.0th: 0          (0 samples)\n\t  99.9th: 0          (0 samples)\n"
		"\t  min=0, max=0\n"
		"RPS percentiles (requests) runtime 5 (s) (0 total samples)\n"
		"\t  20.0th: 0          (0 samples)\n\t* 50.0th: 0          (0 samples)\n"
		"\t  90.0th: 0          (0 samples)\n\t  min=0, max=0\n"
		"average rps: 0.00\n";
	fail_err(&schbench_load, NOKV, err, "no samples");

	/* Only the wake-up block empty: the other two count. */
	const char *err2 =
		"Wakeup Latencies percentiles (usec) runtime 5 (s) (0 total samples)\n"
		"\t  50.0th: 0          (0 samples)\n\t  min=0, max=0\n"
		"Request Latencies percentiles (usec) runtime 5 (s) (10 total samples)\n"
		"\t  50.0th: 40         (5 samples)\n\t  min=30, max=50\n"
		"RPS percentiles (requests) runtime 5 (s) (5 total samples)\n"
		"\t* 50.0th: 2          (3 samples)\n\t  min=1, max=3\n"
		"average rps: 2.00\n";
	struct sample_vec s = {0};
	assert_int_equal(run_parse(&schbench_load, NOKV, "", 0, err2, strlen(err2), 0, false, 0, false,
				   &s), 0);
	const struct want w[] = {
		{"request_latency", "p50", 40}, {"request_latency", "min", 30},
		{"request_latency", "max", 50}, {"rps", "p50", 2}, {"rps", "min", 1},
		{"rps", "max", 3}, {"rps", "avg", 2},
	};
	expect_samples(&schbench_load, &s, w, N(w));
	sample_vec_free(&s);
}

/* Every spelling schbench has printed (schbench.c show_latencies over its
 * git history), each the final (only) block of its version. */
static void test_schbench_spellings(void **state)
{
	(void)state;
	static const struct {
		const char *err;
		struct want w[7];
		size_t n;
	} cases[] = {
		/* 2016: four decimals, '*' attached, Over= before min */
		{"Latency percentiles (usec)\n\t50.0000th: 7\n\t75.0000th: 9\n"
		 "\t90.0000th: 12\n\t95.0000th: 14\n\t*99.0000th: 21\n"
		 "\tOver=0, min=1, max=14453\n",
		 {{"wakeup_latency", "p50", 7}, {"wakeup_latency", "p75", 9},
		  {"wakeup_latency", "p90", 12}, {"wakeup_latency", "p95", 14},
		  {"wakeup_latency", "p99", 21}, {"wakeup_latency", "min", 1},
		  {"wakeup_latency", "max", 14453}}, 7},
		/* 2019: one decimal, '*' attached, no counts */
		{"Latency percentiles (usec)\n\t50.0th: 8\n\t*99.0th: 30\n\t99.5th: 41\n"
		 "\tmin=2, max=900\n",
		 {{"wakeup_latency", "p50", 8}, {"wakeup_latency", "p99", 30},
		  {"wakeup_latency", "p99.5", 41}, {"wakeup_latency", "min", 2},
		  {"wakeup_latency", "max", 900}}, 5},
		/* 2021: totals and counts; a "(0 samples)" row is no value */
		{"Latency percentiles (usec) runtime 30 (s) (1000 total samples)\n"
		 "\t50.0th: 8 (500 samples)\n\t75.0th: 8 (0 samples)\n\t*99.0th: 30 (490 samples)\n"
		 "\tmin=2, max=900\n",
		 {{"wakeup_latency", "p50", 8}, {"wakeup_latency", "p99", 30},
		  {"wakeup_latency", "min", 2}, {"wakeup_latency", "max", 900}}, 4},
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct sample_vec s = {0};
		if (run_parse(&schbench_load, NOKV, "", 0, cases[i].err, strlen(cases[i].err), 0,
			      false, 0, false, &s))
			print_error("case %zu: %s\n", i, why);
		expect_samples(&schbench_load, &s, cases[i].w, cases[i].n);
		sample_vec_free(&s);
	}
	/* 2023 on with the '*' attached is still the headline row. */
	const char *attached =
		"Wakeup Latencies percentiles (usec) runtime 5 (s) (10 total samples)\n"
		"\t*99.0th: 21 (10 samples)\n\tmin=1, max=30\n"
		"Request Latencies percentiles (usec) runtime 5 (s) (10 total samples)\n"
		"\t*99.0th: 40 (10 samples)\n\tmin=30, max=50\n"
		"RPS percentiles (requests) runtime 5 (s) (5 total samples)\n"
		"\t*50.0th: 2 (5 samples)\n\tmin=1, max=3\naverage rps: 2.00\n";
	const struct want w[] = {
		{"wakeup_latency", "p99", 21}, {"wakeup_latency", "min", 1},
		{"wakeup_latency", "max", 30}, {"request_latency", "p99", 40},
		{"request_latency", "min", 30}, {"request_latency", "max", 50},
		{"rps", "p50", 2}, {"rps", "min", 1}, {"rps", "max", 3}, {"rps", "avg", 2},
	};
	struct sample_vec s = {0};
	assert_int_equal(run_parse(&schbench_load, NOKV, "", 0, attached, strlen(attached), 0, false,
				   0, false, &s), 0);
	expect_samples(&schbench_load, &s, w, N(w));
	sample_vec_free(&s);
	/* A 2023 header without its total stays garbage. */
	fail_err(&schbench_load, NOKV, "Latency percentiles (usec) runtime 5 (s) (x total samples)\n",
		 "without \"(N total samples)\"");
}

static void test_schbench_empty(void **s) { (void)s; fail_err(&schbench_load, NOKV, "", "no \"Wakeup Latencies percentiles\" block"); }

static void test_schbench_garbage(void **state)
{
	(void)state;
	/* A min above p50, a p99.9 above max, each beyond the bucket error
	 * (1/256 + 1); within it (p99.9 61 and max 60) a sample. */
	struct fixture fx;
	fixture_load(&fx, "schbench-m1-t2-r20");
	char *t = replace_once(fx.err, "min=1, max=2215", "min=100, max=2215");
	fail_err(&schbench_load, KV("duration_s=20"), t, "Wakeup Latencies percentiles: min 100"
		 " above p50 6 by more than schbench's bucket error (1/256 + 1)");
	free(t);
	t = replace_once(fx.err, "min=1, max=2215", "min=1, max=30");
	fail_err(&schbench_load, KV("duration_s=20"), t, "Wakeup Latencies percentiles: p99.9 61"
		 " above max 30 by more than schbench's bucket error (1/256 + 1)");
	free(t);
	t = replace_once(fx.err, "min=1, max=2215", "min=7, max=60");
	struct sample_vec sv = {0};
	assert_int_equal(run_parse(&schbench_load, KV("duration_s=20"), "", 0, t, strlen(t), 0, false,
				   0, false, &sv), 0);
	sample_vec_free(&sv);
	free(t);
	fixture_free(&fx);
	fail_err(&schbench_load, NOKV, garbage, "no \"Wakeup Latencies percentiles\" block");
	fail_err(&schbench_load, NOKV,
		 "Wakeup Latencies percentiles (usec) runtime 5 (s) (10 total samples)\n"
		 "\t  50.0th: many       (5 samples)\n",
		 "unparsable line in the Wakeup");
	fail_err(&schbench_load, NOKV, "Wakeup Latencies percentiles (usec) runtime 5 (s)\n",
		 "without \"(N total samples)\"");
	fail_binary(&schbench_load, NOKV, true);
}

static void test_schbench_killed(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "schbench-m1-t2-r20");
	expect_failure(&schbench_load, NOKV, "", 0, fx.err, fx.err_len, 1, false, 0, false,
		       "exit code 1");
	expect_failure(&schbench_load, NOKV, "", 0, fx.err, fx.err_len, 0, true, SIGTERM, true,
		       "stopped (SIGTERM)");
	fixture_free(&fx);
}

static void test_schbench_argv(void **state)
{
	(void)state;
	expect_argv(&schbench_load, NOKV, ARGV("schbench", "-m", "1", "-t", "2", "-r", "10"));
	expect_argv(&schbench_load, KV("message_threads=2", "threads=4", "duration_s=30", "rps=1000"),
		    ARGV("schbench", "-m", "2", "-t", "4", "-r", "30", "-R", "1000"));
}

/* ---- netperf TCP_RR (HAND-WRITTEN fixtures, see load-drivers/README.md) */

static void nr(const char *name, double v)
{
	const struct want w[] = {{"transactions_per_s", "", v}};
	check_fixture(&netperf_tcp_rr_load, name, NOKV, false, w, 1);
}

/* The rate is the last field of the full data row, not 131072 from the
 * trailing socket-size line. */
static void test_netperf_default(void **s) { (void)s; nr("netperf-tcp-rr", 28841.62); }
static void test_netperf_P0(void **s) { (void)s; nr("netperf-tcp-rr-P0", 28713.05); }
static void test_netperf_csv(void **s) { (void)s; nr("netperf-tcp-rr-csv", 28950.17); }
static void test_netperf_csv_P0(void **s) { (void)s; nr("netperf-tcp-rr-csv-P0", 28897.40); }

static void test_netperf_keyval(void **state)
{
	struct sample_vec s = {0};
	(void)state;
	const char *out = "MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : first burst 0\n"
			  "THROUGHPUT=59092.65\nTHROUGHPUT_UNITS=Trans/s\n";
	assert_int_equal(run_parse(&netperf_tcp_rr_load, NOKV, out, strlen(out), "", 0, 0, false, 0,
				   false, &s), 0);
	const struct want w[] = {{"transactions_per_s", "", 59092.65}};
	expect_samples(&netperf_tcp_rr_load, &s, w, 1);
	sample_vec_free(&s);
}

/* netperf -i/-I: the confidence warning (its wording from netperf's
 * netlib.c display_confidence) flags the sample; the value still counts. */
static void test_netperf_confidence(void **state)
{
	struct sample_vec s = {0};
	(void)state;
	const char *out =
		"MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : +/-2.500% @ 99% conf.  : first burst 0\n"
		"!!! WARNING\n"
		"!!! Desired confidence was not achieved within the specified iterations.\n"
		"!!! This implies that there was variability in the test environment that\n"
		"!!! must be investigated before going further.\n"
		"!!! Confidence intervals: Throughput      : 6.663%\n"
		"!!!                       Local CPU util  : 0.000%\n"
		"!!!                       Remote CPU util : 0.000%\n"
		"\n"
		"16384  131072 1        1       10.00    27014.55\n"
		"16384  131072\n";
	assert_int_equal(run_parse(&netperf_tcp_rr_load, NOKV, out, strlen(out), "", 0, 0, false, 0,
				   false, &s), 0);
	const struct want w[] = {{"transactions_per_s", "", 27014.55}};
	expect_samples(&netperf_tcp_rr_load, &s, w, 1);
	assert_non_null(s.v[0].flag);
	assert_non_null(strstr(s.v[0].flag, "Desired confidence was not achieved"));
	sample_vec_free(&s);
	/* Without the warning: no flag. */
	struct fixture fx;
	fixture_load(&fx, "netperf-tcp-rr");
	assert_int_equal(run_parse(&netperf_tcp_rr_load, NOKV, fx.out, fx.out_len, "", 0, 0, false,
				   0, false, &s), 0);
	assert_null(s.v[0].flag);
	sample_vec_free(&s);
	fixture_free(&fx);
}

static void test_netperf_cpu_columns(void **state)
{
	struct sample_vec s = {0};
	(void)state;
	/* -c -C: 10 fields, the rate is the 6th. */
	const char *out = "16384  131072 1       1      10.00   26894.12  12.43  11.87  9.247   8.826\n"
			  "16384  131072\n";
	assert_int_equal(run_parse(&netperf_tcp_rr_load, NOKV, out, strlen(out), "", 0, 0, false, 0,
				   false, &s), 0);
	const struct want w[] = {{"transactions_per_s", "", 26894.12}};
	expect_samples(&netperf_tcp_rr_load, &s, w, 1);
	sample_vec_free(&s);
}

static void test_netperf_refused(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "netperf-tcp-rr-refused");
	expect_failure(&netperf_tcp_rr_load, NOKV, fx.out, fx.out_len, fx.err, fx.err_len, fx.rc,
		       false, 0, false, "exit code 1");
	/* Error text and no data row is a failure even with exit code 0. */
	expect_failure(&netperf_tcp_rr_load, NOKV, fx.err, fx.err_len, "", 0, 0, false, 0, false,
		       "no TCP_RR data row");
	fixture_free(&fx);
}

static void test_netperf_truncated(void **state)
{
	struct fixture fx;
	(void)state;
	fixture_load(&fx, "netperf-tcp-rr");
	char *t = cut_before(&fx, false, "16384  131072 1");
	fail_out(&netperf_tcp_rr_load, NOKV, t, "no TCP_RR data row");
	free(t);
	/* Cut inside the data row (no newline). */
	t = cut_before(&fx, false, "841.62");
	fail_out(&netperf_tcp_rr_load, NOKV, t, "no TCP_RR data row");
	free(t);
	fixture_free(&fx);
	/* Only the socket-size line: never the rate. */
	fail_out(&netperf_tcp_rr_load, NOKV, "16384  131072\n", "no TCP_RR data row");
	/* CSV header without its value row. */
	fail_out(&netperf_tcp_rr_load, NOKV, "Throughput,Throughput Units\n", "CSV output without a Throughput value");
}

static void test_netperf_empty(void **s) { (void)s; fail_out(&netperf_tcp_rr_load, NOKV, "", "no TCP_RR data row"); }

static void test_netperf_garbage(void **state)
{
	(void)state;
	fail_out(&netperf_tcp_rr_load, NOKV, garbage, "no TCP_RR data row");
	fail_out(&netperf_tcp_rr_load, NOKV, "THROUGHPUT=lots\n", "unparsable THROUGHPUT= line");
	fail_out(&netperf_tcp_rr_load, NOKV, "1 2 3 4 5 x\n", "no TCP_RR data row");
	fail_binary(&netperf_tcp_rr_load, NOKV, false);
}

static void test_netperf_argv(void **state)
{
	(void)state;
	expect_argv(&netperf_tcp_rr_load, NOKV,
		    ARGV("netperf", "-H", "127.0.0.1", "-t", "TCP_RR", "-l", "5", "--", "-r", "1,1"));
	expect_argv(&netperf_tcp_rr_load,
		    KV("host=server1", "port=12866", "duration_s=30", "request_size=64",
		       "response_size=1024"),
		    ARGV("netperf", "-H", "server1", "-p", "12866", "-t", "TCP_RR", "-l", "30", "--",
			 "-r", "64,1024"));
	expect_argv_error(&netperf_tcp_rr_load, KV("host=-v"), "not a host name");
}

int main(void)
{
	find_dirs();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_parse_ll_strict),
		cmocka_unit_test(test_order_statistics),

		cmocka_unit_test(test_hackbench_process_socket),
		cmocka_unit_test(test_hackbench_process_pipe),
		cmocka_unit_test(test_hackbench_thread_socket),
		cmocka_unit_test(test_hackbench_thread_pipe),
		cmocka_unit_test(test_hackbench_process_socket_long),
		cmocka_unit_test(test_hackbench_process_inet),
		cmocka_unit_test(test_hackbench_fail_badopt),
		cmocka_unit_test(test_hackbench_sigterm),
		cmocka_unit_test(test_hackbench_truncated),
		cmocka_unit_test(test_hackbench_empty),
		cmocka_unit_test(test_hackbench_garbage),
		cmocka_unit_test(test_hackbench_killed),
		cmocka_unit_test(test_hackbench_argv),
		cmocka_unit_test(test_hackbench_prepare),

		cmocka_unit_test(test_perf_messaging),
		cmocka_unit_test(test_perf_messaging_pipe),
		cmocka_unit_test(test_perf_messaging_thread),
		cmocka_unit_test(test_perf_messaging_thread_pipe),
		cmocka_unit_test(test_perf_messaging_simple),
		cmocka_unit_test(test_perf_messaging_truncated),
		cmocka_unit_test(test_perf_messaging_empty),
		cmocka_unit_test(test_perf_messaging_garbage),
		cmocka_unit_test(test_perf_messaging_killed),
		cmocka_unit_test(test_perf_messaging_argv),

		cmocka_unit_test(test_perf_pipe),
		cmocka_unit_test(test_perf_pipe_threaded),
		cmocka_unit_test(test_perf_pipe_simple),
		cmocka_unit_test(test_perf_pipe_truncated),
		cmocka_unit_test(test_perf_pipe_empty),
		cmocka_unit_test(test_perf_pipe_garbage),
		cmocka_unit_test(test_perf_pipe_killed),
		cmocka_unit_test(test_perf_pipe_argv),

		cmocka_unit_test(test_cyclictest_quiet),
		cmocka_unit_test(test_cyclictest_fifo_quiet),
		cmocka_unit_test(test_cyclictest_smp_d0),
		cmocka_unit_test(test_cyclictest_json_stdout),
		cmocka_unit_test(test_cyclictest_live),
		cmocka_unit_test(test_cyclictest_sigint),
		cmocka_unit_test(test_cyclictest_hist),
		cmocka_unit_test(test_cyclictest_hist_json_stdout),
		cmocka_unit_test(test_cyclictest_hist_buckets),
		cmocka_unit_test(test_cyclictest_hist_sigint),
		cmocka_unit_test(test_cyclictest_histofall),
		cmocka_unit_test(test_cyclictest_missing_max),
		cmocka_unit_test(test_cyclictest_no_t_lines),
		cmocka_unit_test(test_cyclictest_no_cycles),
		cmocka_unit_test(test_cyclictest_truncated),
		cmocka_unit_test(test_cyclictest_hist_columns),
		cmocka_unit_test(test_cyclictest_empty),
		cmocka_unit_test(test_cyclictest_garbage),
		cmocka_unit_test(test_cyclictest_killed),
		cmocka_unit_test(test_cyclictest_argv),

		cmocka_unit_test(test_dbench_1client),
		cmocka_unit_test(test_dbench_2clients),
		cmocka_unit_test(test_dbench_truncated),
		cmocka_unit_test(test_dbench_error),
		cmocka_unit_test(test_dbench_empty),
		cmocka_unit_test(test_dbench_garbage),
		cmocka_unit_test(test_dbench_killed),
		cmocka_unit_test(test_dbench_argv),
		cmocka_unit_test(test_dbench_prepare),

		cmocka_unit_test(test_stress_ng_cpu),
		cmocka_unit_test(test_stress_ng_cpu_metrics),
		cmocka_unit_test(test_stress_ng_switch),
		cmocka_unit_test(test_stress_ng_cyclic),
		cmocka_unit_test(test_stress_ng_sigint),
		cmocka_unit_test(test_stress_ng_stdout),
		cmocka_unit_test(test_stress_ng_truncated),
		cmocka_unit_test(test_stress_ng_other_stressor),
		cmocka_unit_test(test_stress_ng_empty),
		cmocka_unit_test(test_stress_ng_garbage),
		cmocka_unit_test(test_stress_ng_failed),
		cmocka_unit_test(test_stress_ng_argv),

		cmocka_unit_test(test_sysbench_cpu),
		cmocka_unit_test(test_sysbench_cpu_interval_hist),
		cmocka_unit_test(test_sysbench_threads),
		cmocka_unit_test(test_sysbench_mutex),
		cmocka_unit_test(test_sysbench_one_event),
		cmocka_unit_test(test_sysbench_truncated),
		cmocka_unit_test(test_sysbench_fatal),
		cmocka_unit_test(test_sysbench_empty),
		cmocka_unit_test(test_sysbench_garbage),
		cmocka_unit_test(test_sysbench_killed),
		cmocka_unit_test(test_sysbench_argv),

		cmocka_unit_test(test_sockperf_tcp),
		cmocka_unit_test(test_sockperf_udp),
		cmocka_unit_test(test_sockperf_mps),
		cmocka_unit_test(test_sockperf_full_rtt),
		cmocka_unit_test(test_sockperf_throughput_output),
		cmocka_unit_test(test_sockperf_truncated),
		cmocka_unit_test(test_sockperf_server_output),
		cmocka_unit_test(test_sockperf_empty),
		cmocka_unit_test(test_sockperf_garbage),
		cmocka_unit_test(test_sockperf_killed),
		cmocka_unit_test(test_sockperf_argv),

		cmocka_unit_test(test_schbench),
		cmocka_unit_test(test_schbench_stdout),
		cmocka_unit_test(test_schbench_truncated),
		cmocka_unit_test(test_schbench_zero_samples),
		cmocka_unit_test(test_schbench_spellings),
		cmocka_unit_test(test_schbench_empty),
		cmocka_unit_test(test_schbench_garbage),
		cmocka_unit_test(test_schbench_killed),
		cmocka_unit_test(test_schbench_argv),

		cmocka_unit_test(test_netperf_default),
		cmocka_unit_test(test_netperf_P0),
		cmocka_unit_test(test_netperf_csv),
		cmocka_unit_test(test_netperf_csv_P0),
		cmocka_unit_test(test_netperf_keyval),
		cmocka_unit_test(test_netperf_cpu_columns),
		cmocka_unit_test(test_netperf_confidence),
		cmocka_unit_test(test_netperf_refused),
		cmocka_unit_test(test_netperf_truncated),
		cmocka_unit_test(test_netperf_empty),
		cmocka_unit_test(test_netperf_garbage),
		cmocka_unit_test(test_netperf_argv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
