/* schedrig: a command table, as in git and perf. Each entry names what the
 * command does with the results database (commands.h enum cmd_setup); the
 * command opens it with cmd_store once it parsed its options, and main
 * closes it. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "store.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct cmd_ctx *ctx);
	enum cmd_setup setup;
	const char *help;
};

static const struct command commands[] = {
	{"run", cmd_run, CMD_STORE_WRITE,
	 "run a named experiment config and store every sample"},
	{"build", cmd_build, CMD_NO_STORE,
	 "build the kernels a config's variants name (kernels:), without running"},
	{"list", cmd_list, CMD_STORE_READ,
	 "list the runs in a results database"},
	{"show", cmd_show, CMD_STORE_READ,
	 "show one run: provenance, load instances, attributes, failures"},
	{"monitors", cmd_monitors, CMD_STORE_READ,
	 "what the monitors saw during a run: CPU, switches, PSI, per load"},
	{"compare", cmd_compare, CMD_STORE_READ,
	 "mmtests-style comparison tables of runs, variants or cells"},
	{"trace", cmd_trace, CMD_STORE_READ,
	 "what a run's scheduler traces say per load; Perfetto JSON of one"},
	{"report", cmd_report, CMD_STORE_READ,
	 "every table and the provenance of the chosen runs"},
	{"plot", cmd_plot, CMD_STORE_READ,
	 "figures of the chosen runs (PNG/SVG, gnuplot)"},
	{"bisect", cmd_bisect, CMD_STORE_WRITE,
	 "find the point of a series (variants, patches) where a metric moved"},
	{"track", cmd_track, CMD_STORE_WRITE,
	 "a config's history per kernel revision and its change points; --follow a branch"},
	{"mail", cmd_mail, CMD_STORE_READ,
	 "mail the tables of the chosen runs (RFC 5322, SMTP or .eml)"},
	{"export", cmd_export, CMD_STORE_READ,
	 "export samples as CSV or JSON"},
	{"import", cmd_import, CMD_STORE_WRITE,
	 "import samples from an exported CSV file"},
	{"reparse", cmd_reparse, CMD_STORE_WRITE,
	 "parse a run's stored raw outputs again and replace its samples"},
	{"lava-job", cmd_lava_job, CMD_NO_STORE,
	 "print the LAVA job definition of a boot: lava variant"},
	{"import-lava", cmd_import_lava, CMD_STORE_WRITE,
	 "store a LAVA job log of a boot: lava variant as a run"},
	{"check-config", cmd_check_config, CMD_NO_STORE,
	 "validate a config and print its plan summary"},
	{"loads", cmd_loads, CMD_NO_STORE,
	 "list the load drivers with their parameters and metrics"},
	{"load", cmd_load, CMD_NO_STORE,
	 "run a built-in load (tcp-rr, wakeup-lat, ...)"},
	{"restore", cmd_restore, CMD_STORE_WRITE,
	 "restore kernel knobs a killed or crashed run left changed"},
	{"host", cmd_host, CMD_NO_STORE,
	 "this machine's host state (governor, SMT, C-states, THP, ...) and advice"},
	{"cache", cmd_cache, CMD_NO_STORE,
	 "what the rig's cache of kernels and trees holds; --clear empties it; diff, verify and"
	 " --clear-stale: the kernels it built"},
	{"agent", cmd_agent, CMD_NO_STORE,
	 "run a plan file where a variant's kernel runs (used by backends)"},
	{"version", cmd_version, CMD_NO_STORE,
	 "print the version of schedrig (also --version)"},
};

static void usage(FILE *f)
{
	fputs("usage: schedrig COMMAND [ARGS...]   (schedrig COMMAND --help for details)\n\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].help);
}

/* A command's exit status, unless it succeeded but what it wrote to stdout
 * was lost (a full disk, /dev/full): then 1 with a message. A command that
 * failed has said why (report commands check their own writes). */
static int finish(int rc)
{
	if (rc || (fflush(stdout) == 0 && !ferror(stdout)))
		return rc;
	fprintf(stderr, "schedrig: cannot write the output: %s\n", strerror(errno));
	return 1;
}

/* Run command c with its set-up; its database closed after it. */
static int run_command(const struct command *c, int argc, char **argv)
{
	struct cmd_ctx ctx = {.name = c->name, .setup = c->setup};
	int rc = c->fn(argc, argv, &ctx);
	store_close(ctx.st);
	return finish(rc);
}

int main(int argc, char **argv)
{
	/* Numbers are parsed and printed in the C locale, whatever LANG says. */
	setlocale(LC_ALL, "C");

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version"))
		argv[1] = "version";
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return run_command(&commands[i], argc - 1, argv + 1);
	fprintf(stderr, "schedrig: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
