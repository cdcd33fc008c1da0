/* One step of a kernel build (tar, cp, patch, make, git, dpkg-query,
 * apt-get download, dpkg-deb, a toolchain's version): a program started from an argv (no shell)
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
	bool keep_env;              /* the rig's environment (apt-get, dpkg-deb: a
				     * proxy setting) instead of the scrubbed one */
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
 * Whatever of its group outlives the program gets SIGKILL when it exits,
 * before it is reaped (spawn.h kill_group_at_exit). The environment is
 * the scrubbed one of kbuild_env.h and set_env; with keep_env the rig's
 * with set_env, MAKEFLAGS, MFLAGS and MAKELEVEL removed. */
int kb_run(const struct kb_cmd *c, char *err, size_t errsz);

/* With SIGINT, SIGTERM and SIGHUP blocked (as kb_run leaves them): the
 * one that came (taken and noted, runner_note_interrupt), or 0. For a
 * wait between programs (a lock). */
int kb_stop_requested(void);

#endif
