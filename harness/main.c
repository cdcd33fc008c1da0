/* schedrig: a command table, as in git and perf. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{"run", cmd_run, "run a named experiment config and store every sample"},
	{"build", cmd_build, "build the kernels a config's variants name (kernels:), without running"},
	{"list", cmd_list, "list the runs in a results database"},
	{"show", cmd_show, "show one run: provenance, load instances, attributes, failures"},
	{"monitors", cmd_monitors, "what the monitors saw during a run: CPU, switches, PSI, per load"},
	{"compare", cmd_compare, "mmtests-style comparison tables of runs, variants or cells"},
	{"report", cmd_report, "every table and the provenance of the chosen runs"},
	{"plot", cmd_plot, "figures of the chosen runs (PNG/SVG, gnuplot)"},
	{"mail", cmd_mail, "mail the tables of the chosen runs (RFC 5322, SMTP or .eml)"},
	{"export", cmd_export, "export samples as CSV or JSON"},
	{"import", cmd_import, "import samples from an exported CSV file"},
	{"reparse", cmd_reparse, "parse a run's stored raw outputs again and replace its samples"},
	{"check-config", cmd_check_config, "validate a config and print its plan summary"},
	{"loads", cmd_loads, "list the load drivers with their parameters and metrics"},
	{"load", cmd_load, "run a built-in load (tcp-rr, wakeup-lat, ...)"},
	{"restore", cmd_restore, "restore kernel knobs a killed or crashed run left changed"},
	{"cache", cmd_cache, "what the rig's cache of kernels and trees holds; --clear empties it"},
	{"agent", cmd_agent, "run a plan file where a variant's kernel runs (used by backends)"},
	{"version", cmd_version, "print the version of schedrig (also --version)"},
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
		return finish(cmd_version(argc - 1, argv + 1));
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "schedrig: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
