/* schedrig-agent: the static program that runs where a variant's kernel
 * runs (a qemu or LAVA guest, where it is also the init, an ssh machine).
 * A command table like schedrig's; what each command runs is the guest
 * side of the rig (Makefile AGENT_SRC). */
#include <libgen.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent_init.h"
#include "agent_proto.h"
#include "agent_run.h"
#include "load.h"

static int agent(int argc, char **argv)
{
	return agent_command("schedrig-agent agent", argc, argv);
}

static int load(int argc, char **argv)
{
	return load_builtin_command("schedrig-agent load", argc, argv);
}

/* The line the rig reads before it packs or copies this program
 * (agent_host_binary): its version and its protocol's. */
static int version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("schedrig-agent " SCHEDRIG_VERSION " (agent protocol %d)\n", AGENT_PROTO_VERSION);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"agent", agent, "run a plan file (what schedrig's backends start)"},
	{"load", load, "run a built-in load (the runner execs it)"},
	{"version", version, "print the version and the agent protocol's"},
};

static void usage(FILE *f)
{
	fputs("usage: schedrig-agent COMMAND [ARGS...]   (as /init of a guest: its init)\n\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "C");
	if (!strcmp(basename(argv[0]), "init")) {
		if (getpid() == 1)
			agent_init();
		fputs("schedrig-agent: as init it runs only as process 1 of a guest\n", stderr);
		return AGENT_EXIT_USAGE;
	}
	if (argc < 2) {
		usage(stderr);
		return AGENT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version"))
		argv[1] = "version";
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "schedrig-agent: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return AGENT_EXIT_USAGE;
}
