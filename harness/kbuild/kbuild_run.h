/* One step of a kernel build (tar, cp, patch, make, git, dpkg-query,
 * apt-get download, dpkg-deb): a program started from an argv (no shell)
 * through spawn.h in a process group of its own (registered with the
 * runner's guardian when there is one), its stdout and stderr in a log
 * file, waited for with SIGINT, SIGTERM and SIGHUP blocked and looked for
 * between polls. */
#ifndef SCHEDRIG_KBUILD_RUN_H
#define SCHEDRIG_KBUILD_RUN_H

#include <stdbool.h>
#include <stddef.h>

#define KB_INTERRUPTED (-2)

struct kb_cmd {
	char *const *argv;
	const char *dir;            /* chdir there first; NULL: stay */
	const char *log;            /* stdout and stderr; NULL: /dev/null */
	const char *err_log;        /* stderr alone here instead; NULL: log */
	bool append;                /* append to log instead of truncating it */
	const char *const *set_env; /* "NAME=VALUE" for the child; NULL: none */
	void (*tick)(void *ctx);    /* called about 4 times a second while it runs */
	void *ctx;
};

/* Run c and wait. Returns 0 on exit status 0; 1 with "ARGV0: exit status
 * N" (or the signal) in err when it failed; -1 with the reason when it
 * could not start (spawn_start's); KB_INTERRUPTED with "interrupted by
 * Interrupt" (strsignal) when SIGINT, SIGTERM or SIGHUP came first or
 * before it (then nothing starts): its process group got SIGTERM, then
 * SIGKILL after up to 20 s, the program was reaped, whatever of its group
 * was left got SIGKILL, and the signal is noted with runner_note_interrupt.
 * MAKEFLAGS, MFLAGS and MAKELEVEL are removed from the child's
 * environment. */
int kb_run(const struct kb_cmd *c, char *err, size_t errsz);

#endif
