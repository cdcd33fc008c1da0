/* Commands on a boot: ssh variant's machine (the backend: ssh.c): every ssh
 * an argv (sshargv.h) over the variant's shared connection, run with spawn
 * in its own process group, killed when the rig dies; stdout captured or
 * streamed into an agent session, stderr appended to RUN_DIR/VARIANT-ssh.log
 * as it comes, its last line kept for messages. Remote commands are
 * `sh -c WRAP sh ...` (WRAP adds /usr/local/sbin:/usr/sbin:/sbin to PATH and
 * execs the rest), every word single-quoted by sshargv. */
#ifndef SCHEDRIG_SSH_REMOTE_H
#define SCHEDRIG_SSH_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "spawn.h"
#include "sshargv.h"
#include "util.h"
#include "variant.h"

#define SSH_CONNECT_TIMEOUT_S 10
#define SSH_STEP_TIMEOUT_S 300.0   /* one setup command (copy, probe, kexec -l) */

/* One boot: ssh variant's machine as this process reaches it. */
struct ssh_var {
	const struct variant_run *vr;
	struct ssh_target t;
	char *ctl_dir;       /* holds the control socket */
	bool ctl_dir_ours;   /* a /tmp directory to remove at the end */
	char *log;           /* RUN_DIR/VARIANT-ssh.log */
	char *known_hosts;
	char *dest;          /* user@host:port for messages */
	char *workdir;
	char last_err[512];  /* last stderr line of the last ssh */
};

/* Output of one ssh command. */
struct ssh_out {
	struct buf out;
	int status;          /* exit status; 255 ssh itself failed */
};

/* What an ssh child's output goes to: stdout to out (ssh_exec) or to the
 * agent session (run_agent), stderr to errtext and the log as it comes. */
struct ssh_sink {
	struct ssh_var *sv;
	struct buf *out;
	struct buf errtext;
	struct agent_session *session; /* run_agent's */
	int stream_fd;                 /* a copy of the agent's lines; -1: none */
	struct buf partial;            /* the agent's line being read */
	double last_s;                 /* when the agent last wrote */
	char *err;
	size_t errsz;
};

/* Append the wrapper words `sh -c WRAP sh` to words: what follows is run
 * with the sbin directories on PATH. */
void ssh_wrap_words(struct argv *words);

/* Keep the last non-empty line of stderr text in sv->last_err. */
void ssh_note_stderr(struct ssh_var *sv, const char *text);

/* Why ssh itself failed (status 255) while doing, for humans, into err:
 * "ssh DEST: DOING failed: LAST STDERR LINE" and a hint for a host key,
 * authentication or an unreachable host. */
void ssh_failure(const struct ssh_var *sv, const char *doing, char *err, size_t errsz);

/* An ssh child (argv) with stdin per in, stdout and stderr piped into k
 * (stdout to k->out, or fed to k->session when set; stderr to k->errtext
 * and the log), in its own process group, killed when the rig dies. */
struct spawn ssh_spawn(char *const *argv, struct spawn_io in, struct ssh_sink *k);

/* Run an ssh argv with stdin from in_path (NULL: /dev/null), stdout into
 * o->out, stderr into the log (last line noted). At most timeout_s.
 * Returns 0 with o->status (255: ssh itself failed), or -1 with err (could
 * not start, timed out, interrupted: runner_poll_interrupt). */
int ssh_exec(struct ssh_var *sv, char *const *argv, const char *in_path, double timeout_s,
	     struct ssh_out *o, char *err, size_t errsz);

/* Run the fixed script (NULL: args are the command itself) on the machine
 * with the n args: `sh -c WRAP sh sh -c SCRIPT sh ARGS...`, connecting
 * within connect_timeout_s. Returns 0 with o->status, or -1 with err. */
int ssh_script(struct ssh_var *sv, const char *script, char *const *args, size_t n,
	       const char *in_path, double timeout_s, int connect_timeout_s, struct ssh_out *o,
	       char *err, size_t errsz);

/* ssh_script within SSH_STEP_TIMEOUT_S, requiring exit status 0; doing names
 * the step in err. Its stdout is appended to out (NULL: dropped). 0 or -1. */
int ssh_step(struct ssh_var *sv, const char *doing, const char *script, char *const *args,
	     size_t n, const char *in_path, struct buf *out, char *err, size_t errsz);

/* Close the shared connection (`ssh -O exit`) and reap its master (a child
 * of this process when it is the runner's subreaper). Nothing without a
 * control path. */
void ssh_close_master(struct ssh_var *sv);

#endif
