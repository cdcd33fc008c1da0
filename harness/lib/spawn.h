/* Starting and supervising child processes: the rig's one way to run a
 * program (the idea of git's run-command, written for the rig).
 *
 * A struct spawn says what to run (an argv, never through a shell; argv[0]
 * found with spawn_which in the child's PATH), how its environment differs
 * from the rig's, its directory, where its stdin, stdout and stderr go
 * (the rig's own, /dev/null, a file, a descriptor or a pipe to the rig),
 * whether it leads a process group of its own, which cgroup it joins, and
 * when and how it is stopped (a deadline, a stop signal, a grace period
 * before SIGKILL). Every other descriptor of the rig is closed in the
 * child: nothing leaks into a child even when opened without O_CLOEXEC.
 * The child starts with an empty signal mask and default dispositions.
 *
 * spawn_poll serves several children at once: it reads their pipes,
 * enforces their deadlines and reaps them (through a pidfd each, so it
 * sleeps until something happens). spawn_run is start, poll and reap for
 * one child. spawn_which is the rig's one PATH lookup.
 *
 * A child can also run a function of the rig's instead of a program (fn:
 * a fork without exec, for a load's sides or the agent under a watcher).
 * The child then keeps the rig's memory, descriptors, signal dispositions
 * and mask (it is the rig, forked), so env and close-on-exec do not apply;
 * the process group, cgroup, stdio, directory, parent-death signal,
 * deadline and stop are as for a program. The caller must be
 * single-threaded; stdio is flushed before the fork and after fn, and the
 * child ends with _exit (no atexit handler of the rig runs twice).
 *
 * Not here: scheduling attributes (schedattr.h), load lifetimes and the
 * guardian that kills loads when the rig dies (runner.c, which starts both
 * here and reaps its loads itself, spawn_reaped). */
#ifndef SCHEDRIG_SPAWN_H
#define SCHEDRIG_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "util.h"

/* Where one of the child's standard streams goes. */
enum spawn_io_kind {
	SPAWN_INHERIT, /* the rig's own descriptor (the zero value) */
	SPAWN_NULL,    /* /dev/null */
	SPAWN_FILE,    /* path: opened for reading (stdin) or created 0644 (stdout, stderr) */
	SPAWN_FD,      /* fd, a descriptor of the caller's (which keeps and closes it) */
	SPAWN_PIPE,    /* a pipe to the rig: stdin's write end is spawn.in_fd; what
			  stdout and stderr write is read by spawn_poll */
	SPAWN_STDOUT,  /* stderr only: wherever stdout goes */
};

struct spawn_io {
	enum spawn_io_kind kind;
	const char *path; /* SPAWN_FILE */
	bool append;      /* SPAWN_FILE for output: O_APPEND instead of O_TRUNC */
	mode_t mode;      /* SPAWN_FILE for output: the mode it is created with; 0: 0644 */
	int fd;           /* SPAWN_FD */
};

/* Called by spawn_poll with n bytes (n > 0) the child wrote on stream 1
 * (stdout) or 2 (stderr), when that stream is a SPAWN_PIPE. */
typedef void spawn_output_fn(void *arg, int stream, const char *data, size_t n);

/* Called in the child just before exec or fn (after the cgroup join, the
 * redirections and the chdir) with spawn.hook_arg: async-signal-safe calls
 * only (no malloc, no stdio, no locks), and what it needs prepared by the
 * parent in arg. Returns 0, or -1 with errno set and *what naming the step
 * that failed (a static string, at most 60 bytes): spawn_start then fails
 * with "ARGV0: WHAT: strerror(errno)" and nothing runs. */
typedef int spawn_hook_fn(const void *arg, const char **what);

/* A function run in a forked child instead of a program (spawn.fn): its
 * return value is the child's exit status. */
typedef int spawn_fn(void *arg);

/* One child: what to run (set before spawn_start; zero means the default
 * named), then its state (filled by spawn_start and spawn_poll). */
struct spawn {
	char *const *argv;       /* argv[0] looked up with spawn_which unless it holds a '/' */
	spawn_fn *fn;            /* instead of argv: fork and run fn(fn_arg) in the
				    child, without exec (below) */
	void *fn_arg;
	const char *const *env;  /* NULL-terminated: "NAME=VALUE" sets, "NAME" removes;
				    a PATH set here is also where argv[0] is looked up
				    (argv only: fn keeps the rig's environment) */
	bool clear_env;          /* the child's environment is env's NAME=VALUE
				    entries alone, nothing of the rig's */
	const char *dir;         /* chdir there before exec; NULL: the rig's */
	struct spawn_io in, out, err;
	bool new_group;          /* the child leads a new process group; stop
				    signals and SIGKILL then go to the whole group */
	bool kill_group_at_exit; /* with new_group: when the child exits, SIGKILL
				    whatever is left of its group before it is
				    reaped (never after: the group's ID is free
				    for reuse once its leader is reaped and the
				    group is empty) */
	const char *cgroup;      /* a cgroup v2 directory the child joins before exec */
	int pdeath_sig;          /* PR_SET_PDEATHSIG in the child; 0: none */
	spawn_hook_fn *before_exec; /* NULL: none (e.g. scheduling attributes, schedattr.h) */
	const void *hook_arg;    /* passed to before_exec */
	double timeout_s;        /* after this long from the start the child is
				    stopped (timed_out); 0: no deadline */
	int stop_sig;            /* sent by spawn_stop and at the deadline; 0: SIGTERM */
	double grace_s;          /* SIGKILL this long after the stop signal */
	spawn_output_fn *on_output; /* NULL: piped output goes to out_text, err_text */
	void *arg;               /* passed to on_output */
	size_t text_max;         /* bytes kept in out_text and err_text each; 0: all */

	pid_t pid;               /* 0 before spawn_start */
	int in_fd;               /* write end of a SPAWN_PIPE stdin, else -1 */
	struct buf out_text, err_text;
	bool exited;             /* reaped: status is its wait status */
	bool done;               /* reaped and its pipes drained and closed */
	bool timed_out;          /* stopped at its deadline */
	int status;
	struct rusage ru;        /* from wait4 when reaped: the child and every
				    descendant it waited for */
	int64_t end_ns;          /* CLOCK_MONOTONIC (mono_ns) when it was reaped */
	char fail_step[64];      /* spawn_start failed at this step, with errno
				    fail_errno, for callers that word their own
				    message: "exec" (ENOENT when spawn_which found
				    nothing), "chdir", "cgroup", "redirect", or
				    before_exec's what; "" otherwise (a failure of
				    the rig's own: err only) */
	int fail_errno;
	/* Private to spawn.c. */
	int out_fd, err_fd, pid_fd;
	double stop_at_s, kill_at_s; /* CLOCK_MONOTONIC s; 0: none; kill_at_s -1: SIGKILL sent */
};

/* Start s->argv (or s->fn). Returns 0 (s->pid set), or -1 with the reason in err and
 * nothing left running: "cannot run NAME: No such file or directory" (not
 * found by spawn_which, or exec failed), "open PATH: ...", "chdir DIR: ...",
 * "cgroup DIR: ...", "pipe: ...", "fork: ...". */
int spawn_start(struct spawn *s, char *err, size_t errsz);

/* One round for the n children ss (started, or done already): wait up to
 * wait_ms (-1: until something happens) for output, an exit or the next
 * stop or SIGKILL a deadline asks for; hand output to on_output (or the
 * text buffers), reap what exited, send what the deadlines say. A child
 * is done once reaped and a round found nothing more to read from its
 * pipes (a descendant that keeps them open does not hold it). Returns how
 * many of the n are not done. EINTR ends a round early. */
size_t spawn_poll(struct spawn *const *ss, size_t n, int wait_ms);

/* Start stopping s now: its stop signal, then SIGKILL grace_s later (sent
 * by spawn_poll). Nothing when it was reaped or is being stopped already. */
void spawn_stop(struct spawn *s);

/* Send sig to s (its group too with new_group) unless it was reaped. */
void spawn_signal(const struct spawn *s, int sig);

/* SIGKILL s (its group with new_group) unless reaped, reap it and close
 * its pipes without reading them: s is done. */
void spawn_kill(struct spawn *s);

/* Close the write end of s's stdin pipe (the child reads end of file). */
void spawn_close_in(struct spawn *s);

/* spawn_start, then spawn_poll until s is done. Returns 0 (s->status,
 * s->timed_out, the text buffers filled) or -1 from spawn_start. */
int spawn_run(struct spawn *s, char *err, size_t errsz);

/* For a caller that reaps its children itself (a subreaper's wait4 of
 * every child, runner.c): s, started, was reaped with status and ru. s
 * is then done (its pidfd and pipes closed, unread output dropped) as if
 * spawn_poll had reaped it; spawn_signal and spawn_kill leave it alone. */
void spawn_reaped(struct spawn *s, int status, const struct rusage *ru);

/* Free s's text buffers and close what of it is still open. */
void spawn_free(struct spawn *s);

/* Where exec would find name, as execvp looks: name itself when it holds a
 * '/', else DIR/name for the first entry DIR of path (colon-separated; an
 * empty entry is the current directory, "./name") that is an executable
 * regular file. path NULL: the PATH variable, and without one glibc's
 * default "/bin:/usr/bin". 0 with the path in dst (size bytes), -1 when
 * there is none or it does not fit. */
int spawn_which(const char *name, const char *path, char *dst, size_t size);

#endif
