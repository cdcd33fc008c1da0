/* The agent: a plan file run where a variant's kernel runs (a qemu or LAVA
 * guest, an ssh machine), its results streamed back as agent protocol
 * lines (agent_proto.h). The guest side of the rig: it and what it calls
 * are linked into schedrig-agent, a static program without SQLite,
 * libcurl or GSL (Makefile AGENT_SRC, HACKING.md "The agent"); `schedrig
 * agent` runs the same code. */
#ifndef SCHEDRIG_AGENT_RUN_H
#define SCHEDRIG_AGENT_RUN_H

/* Exit status of a usage error. */
#define AGENT_EXIT_USAGE 2

/* The agent's command line: argv[0] the command's name, then PLANFILE
 * [--out PATH|auto] [--watch-stdin] (the usage text, --help, says each);
 * prog names the program in messages ("schedrig agent"). Loads the plan's
 * kernel modules, says hello, applies the variant's knobs, runs every step
 * (cell, iteration) of the plan with the runner, restores the knobs, and
 * writes the end line. Returns the exit status: 0 every step ran, 1 the
 * agent failed (its end line says why), AGENT_EXIT_USAGE. */
int agent_command(const char *prog, int argc, char **argv);

#endif
