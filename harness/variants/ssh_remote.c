#include "ssh_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_host.h"
#include "runner.h"

/* Prepended to every remote command: sbin directories on PATH, then exec. */
static const char remote_wrap[] =
	"PATH=\"$PATH:/usr/local/sbin:/usr/sbin:/sbin\"; export PATH; exec \"$@\"";
void ssh_wrap_words(struct argv *words)
{
	argv_add(words, "sh");
	argv_add(words, "-c");
	argv_add(words, remote_wrap);
	argv_add(words, "sh");
}

static void log_append(const struct ssh_var *sv, const char *data, size_t n)
{
	int fd = open(sv->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	while (n > 0) {
		ssize_t w = write(fd, data, n);
		if (w <= 0)
			break;
		data += w;
		n -= (size_t)w;
	}
	close(fd);
}

void ssh_note_stderr(struct ssh_var *sv, const char *text)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	if (end > start)
		snprintf(sv->last_err, sizeof(sv->last_err), "%.*s", (int)(end - start), start);
}

void ssh_failure(const struct ssh_var *sv, const char *doing, char *err, size_t errsz)
{
	const char *e = sv->last_err;
	const char *hint = "";
	if (strstr(e, "Host key verification failed") || strstr(e, "HOST IDENTIFICATION HAS CHANGED"))
		hint = " (strict_host_key: true: the host key is not in known_hosts or does not"
		       " match it; check the key and add it with ssh-keyscan, or set"
		       " strict_host_key: false)";
	else if (strstr(e, "Permission denied"))
		hint = " (authentication refused: check user: and identity:)";
	else if (strstr(e, "Connection refused") || strstr(e, "timed out") ||
		 strstr(e, "No route") || strstr(e, "resolve") || strstr(e, "unreachable"))
		hint = " (the host is unreachable)";
	snprintf(err, errsz, "ssh %s: %s failed: %s%s", sv->dest, doing,
		 e[0] ? e : "ssh exited with status 255", hint);
}

static void ssh_output(void *arg, int stream, const char *data, size_t n)
{
	struct ssh_sink *k = arg;
	if (stream == 2) {
		buf_append(&k->errtext, data, n);
		log_append(k->sv, data, n);
	} else if (!k->session) {
		buf_append(k->out, data, n);
	} else {
		if (k->stream_fd >= 0 && write(k->stream_fd, data, n) != (ssize_t)n) {
			close(k->stream_fd);
			k->stream_fd = -1;
		}
		agent_session_feed(k->session, &k->partial, data, n, k->err, k->errsz);
		k->last_s = agent_mono_s();
	}
}

struct spawn ssh_spawn(char *const *argv, struct spawn_io in, struct ssh_sink *k)
{
	return (struct spawn){.argv = argv, .in = in, .out.kind = SPAWN_PIPE,
			      .err.kind = SPAWN_PIPE, .new_group = true, .pdeath_sig = SIGKILL,
			      .on_output = ssh_output, .arg = k};
}

int ssh_exec(struct ssh_var *sv, char *const *argv, const char *in_path, double timeout_s,
	     struct ssh_out *o, char *err, size_t errsz)
{
	struct ssh_sink k = {.sv = sv, .out = &o->out, .stream_fd = -1};
	struct spawn_io in = {.kind = in_path ? SPAWN_FILE : SPAWN_NULL, .path = in_path};
	struct spawn c = ssh_spawn(argv, in, &k);
	int rc = 0;

	o->status = -1;
	sv->last_err[0] = '\0';
	c.timeout_s = timeout_s;
	c.stop_sig = SIGKILL;
	if (spawn_start(&c, err, errsz))
		return -1;
	/* The ControlPersist master may keep a copy of the pipes: the end is
	 * ssh's exit, not the pipes' end (spawn_poll). */
	while (spawn_poll((struct spawn *[]){&c}, 1, 100) > 0) {
		if (!c.exited && runner_poll_interrupt()) {
			snprintf(err, errsz, "interrupted by %s", strsignal(runner_interrupt_signal()));
			rc = -1;
			break;
		}
	}
	if (c.timed_out) {
		snprintf(err, errsz, "ssh %s: no answer in %.0f s", sv->dest, timeout_s);
		rc = -1;
	}
	spawn_free(&c);
	ssh_note_stderr(sv, buf_str(&k.errtext));
	buf_free(&k.errtext);
	if (rc == 0)
		o->status = WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 255;
	return rc;
}

int ssh_script(struct ssh_var *sv, const char *script, char *const *args, size_t n,
	       const char *in_path, double timeout_s, int connect_timeout_s, struct ssh_out *o,
	       char *err, size_t errsz)
{
	struct argv words = {0}, a = {0};
	ssh_wrap_words(&words);
	if (script) {
		argv_add(&words, "sh");
		argv_add(&words, "-c");
		argv_add(&words, script);
		argv_add(&words, "sh");
	}
	for (size_t i = 0; i < n; i++)
		argv_add(&words, args[i]);
	sv->t.connect_timeout_s = connect_timeout_s;
	int rc = ssh_argv(&a, &sv->t, words.v, words.n, err, errsz);
	if (rc == 0)
		rc = ssh_exec(sv, a.v, in_path, timeout_s, o, err, errsz);
	argv_free(&words);
	argv_free(&a);
	return rc;
}

int ssh_step(struct ssh_var *sv, const char *doing, const char *script, char *const *args,
	     size_t n, const char *in_path, struct buf *out, char *err, size_t errsz)
{
	struct ssh_out o = {0};
	int rc = ssh_script(sv, script, args, n, in_path, SSH_STEP_TIMEOUT_S, SSH_CONNECT_TIMEOUT_S,
			    &o, err, errsz);
	if (rc == 0 && o.status == 255) {
		ssh_failure(sv, doing, err, errsz);
		rc = -1;
	} else if (rc == 0 && o.status != 0) {
		snprintf(err, errsz, "ssh %s: %s failed (status %d)%s%s", sv->dest, doing, o.status,
			 sv->last_err[0] ? ": " : "", sv->last_err);
		rc = -1;
	}
	if (out && rc == 0)
		buf_append(out, buf_str(&o.out), o.out.len);
	buf_free(&o.out);
	return rc;
}

void ssh_close_master(struct ssh_var *sv)
{
	struct argv a = {0};
	struct ssh_out o = {0};
	char err[256];
	long long master = 0;

	if (!sv->t.control_path)
		return;
	ssh_control_argv(&a, &sv->t, "check");
	if (ssh_exec(sv, a.v, NULL, 10, &o, err, sizeof(err)) == 0 && o.status == 0) {
		const char *p = strstr(sv->last_err, "pid=");
		if (p) {
			char num[32];
			snprintf(num, sizeof(num), "%.*s", (int)strspn(p + 4, "0123456789"), p + 4);
			if (!parse_ll(num, &master))
				master = 0;
		}
	}
	argv_free(&a);
	buf_free(&o.out);
	o = (struct ssh_out){0};
	ssh_control_argv(&a, &sv->t, "exit");
	ssh_exec(sv, a.v, NULL, 10, &o, err, sizeof(err));
	argv_free(&a);
	buf_free(&o.out);
	for (int i = 0; master > 0 && i < 100; i++) {
		pid_t w = waitpid((pid_t)master, NULL, WNOHANG);
		if (w == (pid_t)master || (w < 0 && errno == ECHILD) || kill((pid_t)master, 0))
			break;
		nanosleep(&(struct timespec){0, 20000000}, NULL);
	}
}
