/* Child programs of the built-in loads that drive real tools (kernbench runs
 * make, oltp runs mariadbd and sysbench): starting one from an argv (never a
 * shell) with its output in files, waiting for it while SIGINT/SIGTERM stay
 * receivable, stopping it with bounded waits, finding a program in PATH or
 * the sbin directories, and removing a private directory tree.
 *
 * All of these expect the caller to have called builtin_block_signals()
 * first (builtin.h): SIGCHLD, SIGINT and SIGTERM are blocked and taken
 * synchronously. The children are spawn.h's (an empty signal mask and
 * default dispositions before exec, no descriptor of the load leaked);
 * waiting sleeps in sigtimedwait for SIGCHLD, SIGINT or SIGTERM and reaps
 * with spawn_poll. */
#ifndef SCHEDRIG_BUILTIN_PROC_H
#define SCHEDRIG_BUILTIN_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "spawn.h"

/* How to start one child. */
struct proc_spec {
	char *const *argv;     /* argv[0] is looked up in PATH unless it holds a '/' */
	const char *dir;       /* chdir there first; NULL: stay */
	const char *out_path;  /* stdout to this file (created 0600, truncated);
				  NULL: /dev/null */
	const char *err_path;  /* stderr likewise; NULL: the same file as stdout */
	bool out_to_stderr;    /* stdout to the caller's stderr instead of out_path
				  (the rig reads the load's stderr as it comes) */
	bool append;           /* open the files with O_APPEND instead of O_TRUNC */
	int pdeath_sig;        /* PR_SET_PDEATHSIG; 0: none */
	bool reset_sched;      /* before exec: SCHED_OTHER, nice 0, custom slice 0
				  (sched_runtime 0), latency_nice 0 where the kernel
				  has it; affinity is kept */
	const char *const *unset_env; /* NULL-terminated names removed from the
				  child's environment (MAKEFLAGS, ...); NULL: none */
	const char *path_env;  /* the child's PATH (also where argv[0] is looked
				  up); NULL: inherited */
};

/* Start spec as the child s (a struct spawn, spawn.h: stdin /dev/null,
 * stdout and stderr to the files, the caller's process group, which the
 * rig signals and kills as a whole). Returns 0 (s->pid set; s is done
 * with once proc_wait or proc_stop reaped it), or -1 with the reason in
 * err ("cannot run make: No such file or directory", "open LOG: ...",
 * "make: sched_setattr: ...") and nothing left running. */
int proc_start(struct spawn *s, const struct proc_spec *spec, char *err, size_t errsz);

/* Wait for s until CLOCK_MONOTONIC reaches deadline_ns (UINT64_MAX:
 * forever), waking on SIGCHLD; sigs is the set from builtin_block_signals.
 * Returns 0 when it was reaped (s->status, s->ru, s->end_ns filled), the
 * signal number when SIGINT or SIGTERM arrived first (the child still
 * runs), or -1 at the deadline. */
int proc_wait(struct spawn *s, const sigset_t *sigs, uint64_t deadline_ns);

/* Stop s: send sig (0: none, just wait), wait up to grace_s, then SIGKILL
 * and reap it. Signals arriving meanwhile are consumed (the stop is already
 * under way). Returns true when it ended within the grace period. */
bool proc_stop(struct spawn *s, int sig, double grace_s, const sigset_t *sigs);

/* "exit status 2", "killed by signal 9 (Killed)" for a wait status. */
void proc_describe(int status, char *dst, size_t size);
/* true for a normal exit with status 0. */
bool proc_ok(int status);

/* Find the first of names (NULL-terminated) that spawn_which finds in
 * PATH or, after it, /usr/local/sbin, /usr/sbin, /sbin (Debian installs
 * mariadbd in /usr/sbin, outside a normal user's PATH). The full path goes
 * to dst. Returns false when none is found. */
bool proc_find_program(const char *const *names, char *dst, size_t size);

/* The last n lines of the file at path (at most the last 64 KiB read),
 * each prefixed with prefix, appended to dst (NUL-terminated, truncated at
 * size). Returns false when the file cannot be read or is empty. */
bool proc_file_tail(const char *path, unsigned n, const char *prefix, char *dst, size_t size);

/* Remove path and everything under it without following symbolic links
 * (nftw, FTW_DEPTH | FTW_PHYS). A missing path is not an error. Returns 0
 * or -1 with errno set from the first failure. */
int proc_remove_tree(const char *path);

#endif
