#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
	return (double)mono_ns() / 1e9;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* fd moved to a close-on-exec descriptor >= 3, so that the child's dup2
 * onto 0..2 never overwrites another of its sources. */
static int above_stdio(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

/* The child's end of stream (0, 1, 2) per io, in *child (-1: inherit);
 * the rig's end of a pipe in *rig. Returns 0 or -1 with err. */
static int open_io(const struct spawn_io *io, int stream, int *child, int *rig, char *err,
		   size_t errsz)
{
	int p[2];
	int wr = O_WRONLY | O_CREAT | O_CLOEXEC | (io->append ? O_APPEND : O_TRUNC);
	mode_t mode = io->mode ? io->mode : 0644;

	*child = *rig = -1;
	switch (io->kind) {
	case SPAWN_INHERIT:
	case SPAWN_STDOUT:
		return 0;
	case SPAWN_NULL:
		*child = open("/dev/null", O_RDWR | O_CLOEXEC);
		break;
	case SPAWN_FILE:
		*child = stream ? open(io->path, wr, mode) : open(io->path, O_RDONLY | O_CLOEXEC);
		break;
	case SPAWN_FD:
		*child = fcntl(io->fd, F_DUPFD_CLOEXEC, 3);
		break;
	case SPAWN_PIPE:
		if (pipe2(p, O_CLOEXEC)) {
			snprintf(err, errsz, "pipe: %s", strerror(errno));
			return -1;
		}
		*child = p[stream ? 1 : 0];
		*rig = above_stdio(p[stream ? 0 : 1]);
		break;
	}
	*child = above_stdio(*child);
	if (*child < 0 || (io->kind == SPAWN_PIPE && *rig < 0)) {
		if (io->kind == SPAWN_FD)
			snprintf(err, errsz, "fd %d: %s", io->fd, strerror(errno));
		else
			snprintf(err, errsz, "open %s: %s",
				 io->kind == SPAWN_FILE ? io->path : "/dev/null", strerror(errno));
		close_fd(child);
		close_fd(rig);
		return -1;
	}
	return 0;
}

/* The rig's environment with s->env applied (only s->env's settings with
 * clear_env), NULL-terminated; the strings are the rig's and s->env's own. */
static char **child_env(const struct spawn *s)
{
	size_t n = 0, k = 0, extra = 0;
	while (!s->clear_env && environ[n])
		n++;
	while (s->env && s->env[extra])
		extra++;
	char **envp = xcalloc(n + extra + 1, sizeof(*envp));
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		bool replaced = false;
		for (size_t e = 0; e < extra && !replaced; e++)
			replaced = strcspn(s->env[e], "=") == len && !strncmp(s->env[e], environ[i], len);
		if (!replaced)
			envp[k++] = environ[i];
	}
	for (size_t e = 0; e < extra; e++)
		if (strchr(s->env[e], '='))
			envp[k++] = (char *)s->env[e];
	return envp;
}

/* The PATH argv[0] is looked up in: s->env's when it sets one. */
static const char *child_path(const struct spawn *s)
{
	for (size_t e = 0; s->env && s->env[e]; e++)
		if (!strncmp(s->env[e], "PATH=", 5))
			return s->env[e] + 5;
	return NULL;
}

/* In the child: report "what\0errno" through fd (what cut to 63 bytes)
 * and exit 127. */
_Noreturn static void child_fail(int fd, const char *what)
{
	int e = errno;
	char msg[64 + sizeof(e)];
	size_t len = strnlen(what, 63);
	memcpy(msg, what, len);
	msg[len++] = '\0';
	memcpy(msg + len, &e, sizeof(e));
	if (write(fd, msg, len + sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* In the child: fd onto target (fd -1: leave target as it is). */
static int child_dup(int fd, int target)
{
	return fd < 0 ? 0 : dup2(fd, target) < 0 ? -1 : 0;
}

/* In the child of a program: default dispositions, an empty mask. */
static void child_signals(void)
{
	static const int reset[] = {SIGPIPE, SIGINT, SIGTERM, SIGCHLD, SIGHUP, SIGQUIT};
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;

	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		sigaction(reset[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* A function child: close what only the set-up needed (the child's ends
 * of its stdio, now on 0..2; the rig's ends of the pipes; cgroup.procs;
 * the status pipe, which tells the rig it started) and run s->fn. */
_Noreturn static void child_fn(const struct spawn *s, const int fds[3], int cg_fd, int st)
{
	const int fd[] = {fds[0], fds[1], fds[2], s->in_fd, s->out_fd, s->err_fd, cg_fd, st};
	for (size_t i = 0; i < sizeof(fd) / sizeof(fd[0]); i++)
		if (fd[i] > 2 && (i != 2 || fds[2] != fds[1]))
			close(fd[i]);
	int rc = s->fn(s->fn_arg);
	fflush(NULL);
	_exit(rc);
}

/* What the child does between fork and exec (or fn): async-signal-safe
 * calls only until then. */
_Noreturn static void child_exec(const struct spawn *s, const char *prog, char **envp,
				 const int fds[3], int cg_fd, int st, pid_t parent)
{
	if (!s->fn)
		child_signals();
	if (s->new_group)
		setpgid(0, 0);
	if (s->pdeath_sig && (prctl(PR_SET_PDEATHSIG, s->pdeath_sig) || getppid() != parent))
		_exit(127);
	if (cg_fd >= 0 && write(cg_fd, "0", 1) != 1)
		child_fail(st, "cgroup");
	for (int i = 0; i < 3; i++)
		if (child_dup(fds[i], i))
			child_fail(st, "redirect");
	if (s->dir && chdir(s->dir))
		child_fail(st, "chdir");
	const char *what = "before exec";
	if (s->before_exec && s->before_exec(s->hook_arg, &what))
		child_fail(st, what);
	if (s->fn)
		child_fn(s, fds, cg_fd, st);
	/* Close every descriptor but 0..2 and the status pipe. */
	if ((st > 3 && close_range(3, (unsigned)st - 1, 0)) ||
	    close_range((unsigned)st + 1, ~0U, 0))
		child_fail(st, "close_range");
	execve(prog, s->argv, envp);
	child_fail(st, "exec");
}

/* The parent's reading of the status pipe: 0 when the child exec'd, else
 * -1 with err from what the child reported. */
static int exec_result(struct spawn *s, const char *prog, int st, char *err, size_t errsz)
{
	char msg[64 + sizeof(int)];
	ssize_t n;
	int e = 0;

	while ((n = read(st, msg, sizeof(msg))) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return 0;
	size_t len = strnlen(msg, (size_t)n);
	if (len + 1 + sizeof(e) <= (size_t)n)
		memcpy(&e, msg + len + 1, sizeof(e));
	msg[len < sizeof(msg) ? len : sizeof(msg) - 1] = '\0';
	snprintf(s->fail_step, sizeof(s->fail_step), "%.63s", msg);
	s->fail_errno = e;
	const char *name = s->fn ? "child process" : s->argv[0];
	if (!strcmp(msg, "exec"))
		snprintf(err, errsz, "cannot run %s: %s", prog, strerror(e));
	else if (!strcmp(msg, "chdir"))
		snprintf(err, errsz, "chdir %s: %s", s->dir, strerror(e));
	else if (!strcmp(msg, "cgroup"))
		snprintf(err, errsz, "cgroup %s: %s", s->cgroup, strerror(e));
	else
		snprintf(err, errsz, "%s: %s: %s", name, msg, strerror(e));
	return -1;
}

static int open_cgroup(const struct spawn *s, char *err, size_t errsz)
{
	if (!s->cgroup)
		return -1;
	char *procs = xasprintf("%s/cgroup.procs", s->cgroup);
	int fd = above_stdio(open(procs, O_WRONLY | O_CLOEXEC));
	free(procs);
	if (fd < 0)
		snprintf(err, errsz, "cgroup %s: %s", s->cgroup, strerror(errno));
	return fd;
}

/* Open what the child gets: fds[0..2], the rig's pipe ends in s, the
 * cgroup's cgroup.procs in *cg_fd. Returns 0 or -1 with err, all closed. */
static int open_all(struct spawn *s, int fds[3], int *cg_fd, char *err, size_t errsz)
{
	const struct spawn_io *io[3] = {&s->in, &s->out, &s->err};
	int *rig[3] = {&s->in_fd, &s->out_fd, &s->err_fd};
	int i;

	*cg_fd = -1;
	for (i = 0; i < 3; i++)
		if (open_io(io[i], i, &fds[i], rig[i], err, errsz))
			break;
	if (i == 3 && s->err.kind == SPAWN_STDOUT)
		fds[2] = fds[1] >= 0 ? fds[1] : 1;
	if (i == 3 && s->cgroup && (*cg_fd = open_cgroup(s, err, errsz)) < 0)
		i = 2;
	if (i == 3)
		return 0;
	while (i-- > 0) {
		close_fd(&fds[i]);
		close_fd(rig[i]);
	}
	return -1;
}

/* Close the child's ends (fds, cg_fd) in the rig once it has forked. */
static void close_child_ends(const struct spawn *s, int fds[3], int *cg_fd)
{
	if (s->err.kind == SPAWN_STDOUT)
		fds[2] = -1; /* stdout's, or the rig's own 1 */
	for (int i = 0; i < 3; i++)
		close_fd(&fds[i]);
	close_fd(cg_fd);
}

/* Fork and exec prog for s; the child's ends are closed here. Returns the
 * pid (exec'd) or -1 with err (the child, if any, still to be reaped). */
static pid_t fork_exec(struct spawn *s, const char *prog, int fds[3], int *cg_fd, char *err,
		       size_t errsz)
{
	int st[2];
	if (pipe2(st, O_CLOEXEC)) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		close_child_ends(s, fds, cg_fd);
		return -1;
	}
	/* Above 2, like every other descriptor the child gets: the dup2 onto
	 * 0..2 must not close the status pipe of a rig started without them. */
	st[0] = above_stdio(st[0]);
	st[1] = above_stdio(st[1]);
	if (st[0] < 0 || st[1] < 0) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		close_fd(&st[0]);
		close_fd(&st[1]);
		close_child_ends(s, fds, cg_fd);
		return -1;
	}
	char **envp = s->fn ? NULL : child_env(s);
	pid_t parent = getpid();
	if (s->fn)
		fflush(NULL); /* else the child writes the rig's buffers again */
	pid_t pid = fork();
	if (pid == 0)
		child_exec(s, prog, envp, fds, *cg_fd, st[1], parent);
	if (pid < 0)
		snprintf(err, errsz, "fork: %s", strerror(errno));
	free(envp);
	close_child_ends(s, fds, cg_fd);
	close_fd(&st[1]);
	if (pid > 0) {
		s->pid = pid;
		if (s->new_group)
			setpgid(pid, pid);
		if (exec_result(s, prog, st[0], err, errsz))
			pid = -1;
	}
	close_fd(&st[0]);
	return pid;
}

int spawn_start(struct spawn *s, char *err, size_t errsz)
{
	char prog[PATH_MAX];
	int fds[3], cg_fd;

	s->in_fd = s->out_fd = s->err_fd = s->pid_fd = -1;
	s->exited = s->done = s->timed_out = false;
	s->stop_at_s = s->kill_at_s = 0;
	s->pid = 0;
	s->fail_step[0] = '\0';
	s->fail_errno = 0;
	if (s->fn)
		snprintf(prog, sizeof(prog), "(function)");
	else if (spawn_which(s->argv[0], child_path(s), prog, sizeof(prog))) {
		snprintf(s->fail_step, sizeof(s->fail_step), "exec");
		s->fail_errno = ENOENT;
		snprintf(err, errsz, "cannot run %s: %s", s->argv[0], strerror(ENOENT));
		return -1;
	}
	if (open_all(s, fds, &cg_fd, err, errsz))
		return -1;
	int rc = fork_exec(s, prog, fds, &cg_fd, err, errsz) < 0 ? -1 : 0;
	if (rc == 0 && (s->pid_fd = (int)syscall(SYS_pidfd_open, s->pid, 0)) < 0) {
		snprintf(err, errsz, "pidfd_open: %s", strerror(errno));
		rc = -1;
	}
	if (rc) {
		spawn_kill(s);
		s->pid = 0;
		return -1;
	}
	s->stop_at_s = s->timeout_s > 0 ? now_s() + s->timeout_s : 0;
	return 0;
}

/* Send sig to s: its group too with new_group. */
static void signal_child(const struct spawn *s, int sig)
{
	if (s->new_group)
		kill(-s->pid, sig);
	kill(s->pid, sig);
}

void spawn_signal(const struct spawn *s, int sig)
{
	if (s->pid > 0 && !s->exited)
		signal_child(s, sig);
}

void spawn_stop(struct spawn *s)
{
	if (s->exited || s->kill_at_s != 0)
		return;
	signal_child(s, s->stop_sig ? s->stop_sig : SIGTERM);
	s->kill_at_s = now_s() + s->grace_s;
}

/* s was reaped with status and ru: keep them and the time. */
static void note_reaped(struct spawn *s, int status, const struct rusage *ru)
{
	s->exited = true;
	s->status = status;
	s->ru = *ru;
	s->end_ns = mono_ns();
	close_fd(&s->pid_fd);
}

/* With kill_group_at_exit: once s has exited (flags as for reap), SIGKILL
 * what is left of its process group while its zombie still holds the
 * group's ID (after the reap the ID may be another process's group). */
static void kill_group_left(const struct spawn *s, int flags)
{
	siginfo_t si = {0};
	if (!s->kill_group_at_exit || !s->new_group)
		return;
	while (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOWAIT | (flags & WNOHANG)) < 0 &&
	       errno == EINTR)
		;
	if (si.si_pid == s->pid)
		kill(-s->pid, SIGKILL);
}

/* wait4 for s (blocking unless WNOHANG in flags); true when it was
 * reaped now: status, rusage and the time kept. */
static bool reap(struct spawn *s, int flags)
{
	int status;
	struct rusage ru;
	pid_t r;
	kill_group_left(s, flags);
	while ((r = wait4(s->pid, &status, flags, &ru)) < 0 && errno == EINTR)
		;
	if (r != s->pid)
		return false;
	note_reaped(s, status, &ru);
	return true;
}

/* s is done: its pipes closed without reading them. */
static void close_done(struct spawn *s)
{
	close_fd(&s->in_fd);
	close_fd(&s->out_fd);
	close_fd(&s->err_fd);
	s->done = true;
}

void spawn_reaped(struct spawn *s, int status, const struct rusage *ru)
{
	note_reaped(s, status, ru);
	close_done(s);
}

void spawn_kill(struct spawn *s)
{
	if (s->pid > 0 && !s->exited) {
		signal_child(s, SIGKILL);
		if (!reap(s, 0)) {
			s->exited = true; /* not our child any more: nothing to wait for */
			s->status = 0;
			close_fd(&s->pid_fd);
		}
	}
	close_done(s);
}

void spawn_close_in(struct spawn *s)
{
	close_fd(&s->in_fd);
}

/* Hand n bytes of stream to s's reader. */
static void deliver(struct spawn *s, int stream, const char *data, size_t n)
{
	if (s->on_output) {
		s->on_output(s->arg, stream, data, n);
		return;
	}
	struct buf *b = stream == 1 ? &s->out_text : &s->err_text;
	size_t room = !s->text_max ? n : b->len < s->text_max ? s->text_max - b->len : 0;
	if (n > room)
		n = room;
	if (n)
		buf_append(b, data, n);
}

/* Read what one pipe of s holds; close it at its end. Returns true when
 * there was something to read. */
static bool read_pipe(struct spawn *s, int *fd, int stream)
{
	char chunk[65536];
	ssize_t n = read(*fd, chunk, sizeof(chunk));
	if (n > 0) {
		deliver(s, stream, chunk, (size_t)n);
		return true;
	}
	if (n == 0 || errno != EINTR)
		close_fd(fd);
	return false;
}

/* Reap s if its pidfd says it exited; act on its deadlines. */
static void check_child(struct spawn *s, double now)
{
	if (!s->exited)
		reap(s, WNOHANG);
	if (s->exited)
		return;
	if (s->stop_at_s > 0 && now >= s->stop_at_s && s->kill_at_s == 0) {
		s->timed_out = true;
		spawn_stop(s);
	} else if (s->kill_at_s > 0 && now >= s->kill_at_s) {
		signal_child(s, SIGKILL);
		s->kill_at_s = -1;
	}
}

/* The poll timeout in ms: wait_ms, shortened to s's next deadline. */
static int next_wake(const struct spawn *s, int wait_ms, double now)
{
	double at = s->kill_at_s != 0 ? s->kill_at_s : s->stop_at_s;
	if (s->exited)
		return 0;
	if (at <= 0)
		return wait_ms;
	int ms = at <= now ? 0 : (int)((at - now) * 1000) + 1;
	return wait_ms < 0 || ms < wait_ms ? ms : wait_ms;
}

size_t spawn_poll(struct spawn *const *ss, size_t n, int wait_ms)
{
	struct pollfd *pfd = xcalloc(3 * n + 1, sizeof(*pfd));
	double now = now_s();
	size_t live = 0;

	for (size_t i = 0; i < n; i++) {
		struct spawn *s = ss[i];
		int fds[3] = {s->exited ? -1 : s->pid_fd, s->out_fd, s->err_fd};
		for (int k = 0; k < 3; k++)
			pfd[3 * i + k] = (struct pollfd){.fd = s->done ? -1 : fds[k], .events = POLLIN};
		if (!s->done)
			wait_ms = next_wake(s, wait_ms, now);
	}
	poll(pfd, 3 * n, wait_ms);
	now = now_s();
	for (size_t i = 0; i < n; i++) {
		struct spawn *s = ss[i];
		if (s->done)
			continue;
		bool was_exited = s->exited, got = false;
		if (pfd[3 * i + 1].revents)
			got |= read_pipe(s, &s->out_fd, 1);
		if (pfd[3 * i + 2].revents)
			got |= read_pipe(s, &s->err_fd, 2);
		check_child(s, now);
		if ((was_exited && !got) || (s->exited && s->out_fd < 0 && s->err_fd < 0)) {
			close_fd(&s->out_fd);
			close_fd(&s->err_fd);
			s->done = true;
		}
		live += !s->done;
	}
	free(pfd);
	return live;
}

int spawn_run(struct spawn *s, char *err, size_t errsz)
{
	if (spawn_start(s, err, errsz))
		return -1;
	while (spawn_poll(&s, 1, -1) > 0)
		;
	return 0;
}

void spawn_free(struct spawn *s)
{
	if (s->pid > 0 && !s->done)
		spawn_kill(s);
	buf_free(&s->out_text);
	buf_free(&s->err_text);
}

/* dir (len bytes; 0: the current directory) joined with name into dst
 * (whole, name alone with dir NULL) when that is an executable regular file. */
static bool executable_in(const char *dir, size_t len, const char *name, char *dst, size_t size)
{
	struct stat st;
	int n = !dir ? snprintf(dst, size, "%s", name)
		     : snprintf(dst, size, "%.*s/%s", len ? (int)len : 1, len ? dir : ".", name);
	return n >= 0 && (size_t)n < size && !access(dst, X_OK) && !stat(dst, &st) &&
	       S_ISREG(st.st_mode);
}

int spawn_which(const char *name, const char *path, char *dst, size_t size)
{
	if (strchr(name, '/'))
		return executable_in(NULL, 0, name, dst, size) ? 0 : -1;
	if (!*name)
		return -1;
	if (!path)
		path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;;) {
		size_t len = strcspn(p, ":");
		if (executable_in(p, len, name, dst, size))
			return 0;
		if (!p[len])
			return -1;
		p += len + 1;
	}
}
