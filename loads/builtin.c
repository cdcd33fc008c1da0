#include "builtin.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scan.h"

int builtin_build_argv(const struct load_ops *ops, const struct params *p,
		       struct argv *argv, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	argv_add(argv, "schedrig");
	argv_add(argv, "load");
	argv_add(argv, ops->name);
	for (size_t i = 0; i < ops->n_params; i++) {
		const char *v = params_get(p, ops->params[i].name);
		if (!v)
			continue;
		argv_addf(argv, "--%s", ops->params[i].name);
		argv_add(argv, v);
	}
	return 0;
}

static void usage(const struct load_ops *ops, FILE *f)
{
	fprintf(f, "usage: schedrig load %s [--PARAM VALUE]...\n%s\n\n", ops->name, ops->description);
	for (size_t i = 0; i < ops->n_params; i++) {
		const struct param_def *d = &ops->params[i];
		fprintf(f, "  --%-16s %s (default %s)\n", d->name, d->help,
			d->default_value ? d->default_value : "none");
	}
}

static bool in_choices(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *c = choices; c && *c;) {
		const char *bar = strchr(c, '|');
		size_t len = bar ? (size_t)(bar - c) : strlen(c);
		if (len == n && !strncmp(c, v, n))
			return true;
		c = bar ? bar + 1 : NULL;
	}
	return false;
}

/* Returns NULL when v is valid for d, else what is wrong. */
static const char *check_value(const struct param_def *d, const char *v, char *buf, size_t bufsz)
{
	long long x;

	switch (d->type) {
	case PARAM_INT:
	case PARAM_UINT:
		if (!parse_ll(v, &x))
			return "not a base-10 integer";
		if (d->type == PARAM_UINT && x < 0)
			return "must be >= 0";
		if (d->min <= d->max && (x < d->min || x > d->max)) {
			snprintf(buf, bufsz, "out of range %lld..%lld", d->min, d->max);
			return buf;
		}
		return NULL;
	case PARAM_BOOL:
		return strcmp(v, "true") && strcmp(v, "false") ? "must be true or false" : NULL;
	case PARAM_ENUM:
		if (in_choices(d->choices, v))
			return NULL;
		snprintf(buf, bufsz, "must be one of %s", d->choices);
		return buf;
	case PARAM_STRING:
		return NULL;
	}
	return "unknown parameter type";
}

int builtin_parse_args(const struct load_ops *ops, int argc, char **argv, const char **vals)
{
	bool seen[ops->n_params ? ops->n_params : 1];

	for (size_t i = 0; i < ops->n_params; i++) {
		vals[i] = ops->params[i].default_value;
		seen[i] = false;
	}
	for (int a = 1; a < argc; a += 2) {
		const char *opt = argv[a];
		if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
			usage(ops, stdout);
			return 1;
		}
		if (strncmp(opt, "--", 2)) {
			fprintf(stderr, "schedrig load %s: unexpected argument '%s' (want --PARAM VALUE)\n",
				ops->name, opt);
			return -1;
		}
		const struct param_def *d = load_param(ops, opt + 2);
		if (!d) {
			fprintf(stderr, "schedrig load %s: unknown parameter '%s'\n\n", ops->name, opt);
			usage(ops, stderr);
			return -1;
		}
		size_t i = (size_t)(d - ops->params);
		if (a + 1 >= argc) {
			fprintf(stderr, "schedrig load %s: %s needs a value\n", ops->name, opt);
			return -1;
		}
		if (seen[i]) {
			fprintf(stderr, "schedrig load %s: %s given twice\n", ops->name, opt);
			return -1;
		}
		char buf[96];
		const char *bad = check_value(d, argv[a + 1], buf, sizeof(buf));
		if (bad) {
			fprintf(stderr, "schedrig load %s: %s '%s': %s\n", ops->name, opt, argv[a + 1], bad);
			return -1;
		}
		seen[i] = true;
		vals[i] = argv[a + 1];
	}
	return 0;
}

const char *builtin_val(const struct load_ops *ops, const char *const *vals, const char *name)
{
	const struct param_def *d = load_param(ops, name);
	return d ? vals[d - ops->params] : NULL;
}

long long builtin_val_ll(const struct load_ops *ops, const char *const *vals, const char *name)
{
	long long v;
	return parse_ll(builtin_val(ops, vals, name), &v) ? v : 0;
}

int builtin_begin(struct builtin_args *a, const struct load_ops *ops, int argc, char **argv)
{
	a->ops = ops;
	a->exit_status = BUILTIN_EXIT_USAGE;
	builtin_block_signals(&a->sigs);
	if (ops->n_params > BUILTIN_MAX_PARAMS) {
		fprintf(stderr, "schedrig load %s: more than %d parameters\n", ops->name,
			BUILTIN_MAX_PARAMS);
		return -1;
	}
	int r = builtin_parse_args(ops, argc, argv, a->vals);
	if (r > 0)
		a->exit_status = 0;
	return r ? -1 : 0;
}

const char *builtin_arg(const struct builtin_args *a, const char *name)
{
	return builtin_val(a->ops, a->vals, name);
}

long long builtin_arg_ll(const struct builtin_args *a, const char *name)
{
	return builtin_val_ll(a->ops, a->vals, name);
}

bool builtin_arg_is(const struct builtin_args *a, const char *name, const char *value)
{
	const char *v = builtin_arg(a, name);
	return v && !strcmp(v, value);
}

uint64_t builtin_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void builtin_block_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGCHLD);
	sigprocmask(SIG_BLOCK, set, NULL);
	/* A non-interactive shell starts background jobs with SIGINT ignored;
	 * the stop signal must still reach sigtimedwait. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

int builtin_wait_signal(const sigset_t *set, uint64_t deadline_ns)
{
	for (;;) {
		struct timespec ts, *tp = NULL;
		if (deadline_ns != UINT64_MAX) {
			uint64_t now = builtin_now_ns();
			if (now >= deadline_ns)
				return 0;
			uint64_t left = deadline_ns - now;
			ts.tv_sec = (time_t)(left / 1000000000ULL);
			ts.tv_nsec = (long)(left % 1000000000ULL);
			tp = &ts;
		}
		int sig = sigtimedwait(set, NULL, tp);
		if (sig > 0)
			return sig;
		if (errno != EAGAIN && errno != EINTR)
			return 0;
	}
}

int builtin_check_exit(const struct load_output *o, char *why, size_t whysz)
{
	char first[160] = "";
	if (o->err && o->err_len) {
		size_t n = strcspn(o->err, "\n");
		if (n >= sizeof(first))
			n = sizeof(first) - 1;
		memcpy(first, o->err, n);
		first[n] = '\0';
	}
	if (o->signaled) {
		snprintf(why, whysz, "killed by signal %d (%s)%s%s", o->term_signal,
			 strsignal(o->term_signal), *first ? ": " : "", first);
		return -1;
	}
	if (o->exit_code != 0) {
		snprintf(why, whysz, "exit status %d%s%s", o->exit_code, *first ? ": " : "", first);
		return -1;
	}
	return 0;
}

void builtin_reader_init(struct builtin_reader *r, const char *text, size_t len)
{
	r->pos = text ? text : "";
	r->end = r->pos + (text ? len : 0);
	r->lineno = 0;
	r->line[0] = '\0';
	r->n_fields = 0;
}

int builtin_reader_next(struct builtin_reader *r)
{
	for (;;) {
		if (r->pos >= r->end)
			return 0;
		const char *nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
		const char *stop = nl ? nl : r->end;
		size_t len = (size_t)(stop - r->pos);
		r->lineno++;
		const char *start = r->pos;
		r->pos = nl ? nl + 1 : r->end;
		if (len && start[len - 1] == '\r')
			len--;
		if (len >= sizeof(r->line))
			return -1;
		memcpy(r->line, start, len);
		r->line[len] = '\0';
		if (memchr(r->line, '\0', len))
			return -1; /* NUL bytes inside a line: garbage */
		r->n_fields = 0;
		char *save = NULL;
		for (char *t = strtok_r(r->line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
			if (r->n_fields == sizeof(r->field) / sizeof(r->field[0]))
				return -1;
			r->field[r->n_fields++] = t;
		}
		if (r->n_fields)
			return 1;
	}
}

int builtin_check_header(const struct builtin_reader *r, const char *name, char *why, size_t whysz)
{
	char want[64];
	snprintf(want, sizeof(want), "schedrig-%s", name);
	if (r->n_fields < 2 || strcmp(r->field[0], want)) {
		snprintf(why, whysz, "line %u: no '%s' header line", r->lineno, want);
		return -1;
	}
	if (strcmp(r->field[1], "1")) {
		snprintf(why, whysz, "line %u: unknown %s output format version '%s'", r->lineno,
			 want, r->field[1]);
		return -1;
	}
	return 0;
}

const char *builtin_field_kv(const struct builtin_reader *r, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 1; i < r->n_fields; i++)
		if (!strncmp(r->field[i], key, n) && r->field[i][n] == '=')
			return r->field[i] + n + 1;
	return NULL;
}

bool builtin_parse_value(const char *s, double *out)
{
	double v;
	if (!parse_double(s, &v) || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

int builtin_parse_begin(const struct load_output *o, const char *name, struct builtin_reader *r,
			char *why, size_t whysz)
{
	if (builtin_check_exit(o, why, whysz))
		return -1;
	builtin_reader_init(r, o->out, o->out_len);
	int got = builtin_reader_next(r);
	if (got <= 0) {
		snprintf(why, whysz, got ? "line 1: garbage" : "no output");
		return -1;
	}
	return builtin_check_header(r, name, why, whysz);
}

int builtin_header_int(const struct builtin_reader *r, const char *key, long long min,
		       long long max, long long *out, char *why, size_t whysz)
{
	const char *v = builtin_field_kv(r, key);
	if (!v || (v[0] == '0' && v[1]) || !parse_ll(v, out) || *out < min ||
	    *out > max) {
		snprintf(why, whysz, "line %u: header has no valid %s=", r->lineno, key);
		return -1;
	}
	return 0;
}

int builtin_next_sample(struct builtin_reader *r, double *value, char *why, size_t whysz)
{
	int got = builtin_reader_next(r);
	if (got < 0) {
		snprintf(why, whysz, "line %u: garbage (overlong line or too many fields)", r->lineno);
		return -1;
	}
	if (got == 0) {
		snprintf(why, whysz, "no end line: output truncated");
		return -1;
	}
	if (!strcmp(r->field[0], "end")) {
		got = builtin_reader_next(r);
		if (got == 0)
			return 0;
		snprintf(why, whysz, "line %u: text after the end line", r->lineno);
		return -1;
	}
	if (r->n_fields != 3 || !builtin_parse_value(r->field[2], value)) {
		snprintf(why, whysz, "line %u: not 'METRIC OP VALUE' with a number >= 0", r->lineno);
		return -1;
	}
	return 1;
}

int builtin_parse_once_each(const struct load_ops *ops, const struct load_output *o,
			    const struct params *p, const char *key, long long max,
			    struct sample_vec *samples, char *why, size_t whysz)
{
	struct builtin_reader r;
	long long n, want = p ? params_int(p, key, 0) : 0;
	char op[24];
	double v;
	int got;

	if (o->stopped)
		return parse_fail(why, whysz, "stopped before %s finished", ops->name);
	if (builtin_parse_begin(o, ops->name, &r, why, whysz) ||
	    builtin_header_int(&r, key, 1, max, &n, why, whysz))
		return -1;
	if (want && want != n) {
		snprintf(why, whysz, "output is for %s=%lld, the load has %s=%lld", key, n, key, want);
		return -1;
	}
	snprintf(op, sizeof(op), "%lld", n); /* the op of every sample */
	struct sample_vec tmp = {0};
	bool *seen = xcalloc(ops->n_metrics, sizeof(*seen));
	int rc = -1;
	while ((got = builtin_next_sample(&r, &v, why, whysz)) > 0) {
		size_t i = 0;
		while (i < ops->n_metrics && strcmp(r.field[0], ops->metrics[i].name))
			i++;
		if (i == ops->n_metrics) {
			snprintf(why, whysz, "line %u: unknown metric '%s'", r.lineno, r.field[0]);
			goto out;
		}
		if (seen[i] || strcmp(r.field[1], op)) {
			snprintf(why, whysz, "line %u: repeated %s or op '%s' is not %s=%s", r.lineno,
				 r.field[0], r.field[1], key, op);
			goto out;
		}
		seen[i] = true;
		sample_vec_add(&tmp, ops->metrics[i].name, ops->metrics[i].unit,
			       ops->metrics[i].better, op, v);
	}
	if (got < 0)
		goto out;
	if (o->out[o->out_len - 1] != '\n') {
		/* The end line is written last, with its newline. */
		snprintf(why, whysz, "no complete end line: output truncated");
		goto out;
	}
	for (size_t i = 0; i < ops->n_metrics; i++)
		if (!seen[i]) {
			snprintf(why, whysz, "no %s line", ops->metrics[i].name);
			goto out;
		}
	sample_vec_append(samples, &tmp);
	rc = 0;
out:
	free(seen);
	sample_vec_free(&tmp);
	return rc;
}
