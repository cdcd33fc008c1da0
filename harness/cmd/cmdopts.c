/* The option loop the commands share: see cmdopts.h. */
#include "cmdopts.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "reportcmd.h"

/* What spec says about the option getopt_long refused (argv[optind - 1]).
 * Returns EXIT_USAGE. */
static int refused(const struct cmd_optspec *spec, char **argv)
{
	const char *arg = argv[optind - 1];
	if (spec->usage_lines) {
		if (optopt && strchr(spec->with_value ? spec->with_value : "", optopt))
			return cmd_usage_error(spec->cmd, spec->usage_lines, "%s needs a value", arg);
		return cmd_usage_error(spec->cmd, spec->usage_lines, "unknown option '%s'", arg);
	}
	if (!spec->bad_hint) {
		fputs(spec->usage, stderr);
		return EXIT_USAGE;
	}
	if (optopt && strncmp(arg, "--", 2) && !strchr(spec->shortopts, optopt))
		fprintf(stderr, "schedrig %s: unknown option '-%c'\n", spec->cmd, optopt);
	else
		fprintf(stderr, "schedrig %s: bad option '%s'%s\n", spec->cmd, arg, spec->bad_hint);
	fprintf(stderr, "Try 'schedrig %s --help'.\n", spec->cmd);
	return EXIT_USAGE;
}

int cmd_parse(int argc, char **argv, const struct cmd_optspec *spec)
{
	int ch, rc;

	optind = 0;
	opterr = spec->report_getopt;
	while ((ch = getopt_long(argc, argv, spec->shortopts, spec->longopts, NULL)) != -1) {
		if (ch == 'h') {
			if (spec->help)
				spec->help(spec->ctx);
			else
				fputs(spec->usage, stdout);
			if (spec->help_tail)
				fputs(spec->help_tail, stdout);
			return 0;
		}
		if (ch == '?' || ch == ':')
			return refused(spec, argv);
		if ((rc = spec->on(ch, optarg, spec->ctx)))
			return rc;
	}
	return -1;
}

int cmd_options(int argc, char **argv, const struct option *longopts, const char *usage,
		int (*on)(int val, const char *arg, void *ctx), void *ctx)
{
	struct cmd_optspec spec = {
		.shortopts = "", .longopts = longopts, .usage = usage, .on = on, .ctx = ctx,
	};
	return cmd_parse(argc, argv, &spec);
}

int cmd_value_flag_option(int val, const char *arg, void *ctx)
{
	struct cmd_value_flag *o = ctx;
	(void)val;
	if (arg)
		o->value = arg;
	else
		o->flag = true;
	return 0;
}

int cmd_db_options(int argc, char **argv, const char *usage, const char **db, int min, int max)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct cmd_value_flag o = {.value = *db};
	struct cmd_optspec spec = {
		.shortopts = "", .longopts = longopts, .usage = usage, .report_getopt = 1,
		.on = cmd_value_flag_option, .ctx = &o,
	};
	int rc = cmd_parse(argc, argv, &spec);
	*db = o.value;
	if (rc < 0 && cmd_operands(argc, min, max, usage))
		return EXIT_USAGE;
	return rc;
}

int cmd_operands(int argc, int min, int max, const char *usage)
{
	if (argc - optind >= min && argc - optind <= max)
		return 0;
	fputs(usage, stderr);
	return EXIT_USAGE;
}

int cmd_one_run(struct cmd_ctx *ctx, const char *db, int argc, char **argv, const char *usage,
		int64_t *id)
{
	int64_t *ids;
	size_t n;
	if (cmd_operands(argc, 0, 1, usage))
		return EXIT_USAGE;
	if (cmd_select_runs(ctx, db, argv + optind, (size_t)(argc - optind), &ids, &n))
		return 1;
	*id = ids[0];
	free(ids);
	return 0;
}

/* What cmd_report_parse hands cmd_parse as its ctx. */
struct report_parse {
	struct reportcmd *c;
	const struct cmd_optspec *own;
};

/* The command's own option, else a shared one (reportcmd_option). */
static int report_option(int val, const char *arg, void *ctx)
{
	struct report_parse *rp = ctx;
	int rc = rp->own->on ? rp->own->on(val, arg, rp->own->ctx) : -1;
	if (rc >= 0)
		return rc;
	return reportcmd_option(rp->c, val, arg) ? EXIT_USAGE : 0;
}

/* The command's own --help (spec->help with its ctx, not cmd_parse's). */
static void report_help(void *ctx)
{
	struct report_parse *rp = ctx;
	rp->own->help(rp->own->ctx);
}

/* Whether val is one of the 0-ended vals (NULL: every val). */
static bool shared_taken(const int *vals, int val)
{
	while (vals && *vals && *vals != val)
		vals++;
	return !vals || *vals;
}

/* The command's own options, then the report options it takes, into opts
 * (room for n, the last entry of name NULL). */
static void report_longopts(const struct cmd_optspec *spec, struct option *opts, size_t n)
{
	size_t k = 0;
	for (const struct option *o = spec->longopts; o->name && k + 1 < n; o++)
		opts[k++] = *o;
	for (const struct option *o = reportcmd_long_options; o->name && k + 1 < n; o++)
		if (shared_taken(spec->shared, o->val))
			opts[k++] = *o;
	opts[k] = (struct option){0};
}

int cmd_report_parse(int argc, char **argv, struct reportcmd *c, const struct cmd_optspec *spec)
{
	struct option opts[64];
	struct report_parse rp = {.c = c, .own = spec};
	struct cmd_optspec all = *spec;
	report_longopts(spec, opts, sizeof(opts) / sizeof(opts[0]));
	all.longopts = opts;
	all.on = report_option;
	all.help = spec->help ? report_help : NULL;
	all.ctx = &rp;
	int rc = cmd_parse(argc, argv, &all);
	if (rc >= 0)
		return rc;
	c->runs = argv + optind;
	c->n_runs = (size_t)(argc - optind);
	return -1;
}

int cmd_usage_error(const char *cmd, const char *usage_lines, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "schedrig %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%ssee schedrig %s --help\n", usage_lines, cmd);
	return EXIT_USAGE;
}
