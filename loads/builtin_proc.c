#include "builtin_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "schedattr.h"
#include "spawn.h"

/* In the child: report "what\0errno" through fd and exit 127. */
_Noreturn static void child_fail(int fd, const char *what)
{
	int e = errno;
	char msg[200];
	int n = snprintf(msg, sizeof(msg), "%s", what);
	if (n < 0 || (size_t)n >= sizeof(msg) - sizeof(e) - 1)
		n = (int)(sizeof(msg) - sizeof(e) - 1);
	msg[n++] = '\0';
	memcpy(msg + n, &e, sizeof(e));
	if (write(fd, msg, (size_t)n + sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int open_out(const char *path, bool append)
{
	return open(path ? path : "/dev/null",
		    O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0600);
}

pid_t proc_start(const struct proc_spec *spec, char *err, size_t errsz)
{
	int st[2];
	/* Opened before the fork so that the child needs no allocation. */
	int out = open_out(spec->out_path, spec->append);
	if (out < 0) {
		snprintf(err, errsz, "open %s: %s", spec->out_path, strerror(errno));
		return -1;
	}
	int errfd = spec->err_path ? open_out(spec->err_path, spec->append) : out;
	if (errfd < 0) {
		snprintf(err, errsz, "open %s: %s", spec->err_path, strerror(errno));
		close(out);
		return -1;
	}
	if (pipe2(st, O_CLOEXEC)) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		close(out);
		if (errfd != out)
			close(errfd);
		return -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(st[0]);
		if (spec->pdeath_sig) {
			prctl(PR_SET_PDEATHSIG, spec->pdeath_sig);
			if (getppid() != parent)
				_exit(127);
		}
		int null_fd = open("/dev/null", O_RDONLY);
		if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
			child_fail(st[1], "redirect");
		/* Single-threaded callers only: unsetenv after fork is then safe. */
		for (const char *const *u = spec->unset_env; u && *u; u++)
			unsetenv(*u);
		if (spec->path_env)
			setenv("PATH", spec->path_env, 1);
		if (spec->dir && chdir(spec->dir))
			child_fail(st[1], "chdir");
		if (spec->reset_sched) {
			struct sched_req r = {.has_policy = true, .policy = SCHED_OTHER,
					      .has_nice = true, .nice = 0};
			const char *what = "sched_setattr";
			r.has_latency_nice = sched_latency_nice_supported();
			if (sched_apply_self(&r, &what))
				child_fail(st[1], what);
		}
		execvp(spec->argv[0], spec->argv);
		child_fail(st[1], "exec");
	}
	int saved = errno;
	close(st[1]);
	close(out);
	if (errfd != out)
		close(errfd);
	if (pid < 0) {
		close(st[0]);
		snprintf(err, errsz, "fork: %s", strerror(saved));
		return -1;
	}
	char msg[200 + sizeof(int)];
	ssize_t n;
	while ((n = read(st[0], msg, sizeof(msg))) < 0 && errno == EINTR)
		;
	close(st[0]);
	if (n > 0) {
		int e = 0;
		size_t len = strnlen(msg, (size_t)n);
		if (len + 1 + sizeof(e) <= (size_t)n)
			memcpy(&e, msg + len + 1, sizeof(e));
		if (len == (size_t)n)
			msg[n - 1] = '\0';
		if (!strcmp(msg, "exec"))
			snprintf(err, errsz, "cannot run %s: %s", spec->argv[0], strerror(e));
		else if (!strcmp(msg, "chdir"))
			snprintf(err, errsz, "%s: chdir %s: %s", spec->argv[0], spec->dir, strerror(e));
		else
			snprintf(err, errsz, "%s: %s: %s", spec->argv[0], msg, strerror(e));
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -1;
	}
	return pid;
}

int proc_wait(pid_t pid, const sigset_t *sigs, uint64_t deadline_ns, struct proc_exit *x)
{
	for (;;) {
		int status;
		struct rusage ru;
		pid_t r = wait4(pid, &status, WNOHANG, &ru);
		if (r == pid) {
			if (x) {
				x->status = status;
				x->ru = ru;
				x->end_ns = builtin_now_ns();
			}
			return 0;
		}
		if (r < 0 && errno != EINTR) {
			/* Not our child (already reaped): nothing to wait for. */
			if (x) {
				memset(x, 0, sizeof(*x));
				x->status = 127 << 8;
				x->end_ns = builtin_now_ns();
			}
			return 0;
		}
		/* SIGCHLD may have been consumed by an earlier wait for another
		 * child: wake up every 100 ms to look again. */
		uint64_t now = builtin_now_ns(), wake = now + 100000000ULL;
		if (deadline_ns != UINT64_MAX && now >= deadline_ns)
			return -1;
		if (deadline_ns < wake)
			wake = deadline_ns;
		int sig = builtin_wait_signal(sigs, wake);
		if (sig == SIGINT || sig == SIGTERM)
			return sig;
	}
}

bool proc_stop(pid_t pid, int sig, double grace_s, const sigset_t *sigs, struct proc_exit *x)
{
	struct proc_exit tmp;
	if (!x)
		x = &tmp;
	if (sig)
		kill(pid, sig);
	uint64_t deadline = builtin_now_ns() + (uint64_t)(grace_s * 1e9);
	for (;;) {
		int r = proc_wait(pid, sigs, deadline, x);
		if (r == 0)
			return true;
		if (r < 0)
			break;
		/* SIGINT/SIGTERM while stopping: keep stopping. */
	}
	kill(pid, SIGKILL);
	for (;;) {
		int status;
		struct rusage ru;
		pid_t r = wait4(pid, &status, 0, &ru);
		if (r == pid) {
			x->status = status;
			x->ru = ru;
			x->end_ns = builtin_now_ns();
			break;
		}
		if (r < 0 && errno != EINTR)
			break;
	}
	return false;
}

void proc_describe(int status, char *dst, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(dst, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(dst, size, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(dst, size, "wait status 0x%x", (unsigned)status);
}

bool proc_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool proc_find_program(const char *const *names, char *dst, size_t size)
{
	for (const char *const *nm = names; *nm; nm++)
		if (!spawn_which(*nm, NULL, dst, size) ||
		    (!strchr(*nm, '/') && !spawn_which(*nm, "/usr/local/sbin:/usr/sbin:/sbin", dst, size)))
			return true;
	return false;
}

bool proc_file_tail(const char *path, unsigned n, const char *prefix, char *dst, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char buf[65536];
	off_t end = lseek(fd, 0, SEEK_END);
	off_t start = end > (off_t)sizeof(buf) ? end - (off_t)sizeof(buf) : 0;
	ssize_t got = end > 0 ? pread(fd, buf, (size_t)(end - start), start) : 0;
	close(fd);
	if (got <= 0)
		return false;
	size_t len = (size_t)got;
	while (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return false;
	/* Walk back over n line starts. */
	size_t from = len;
	unsigned lines = 0;
	while (from > 0 && lines < n) {
		from--;
		if (buf[from] == '\n' && ++lines == n) {
			from++;
			break;
		}
	}
	size_t used = strnlen(dst, size);
	for (size_t i = from; i < len && used + 1 < size;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
		int w = snprintf(dst + used, size - used, "%s%.*s\n", prefix, (int)l, buf + i);
		if (w < 0)
			break;
		used += (size_t)w < size - used ? (size_t)w : size - used - 1;
		i += l + 1;
	}
	return true;
}

static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	int r = type == FTW_DP ? rmdir(path) : unlink(path);
	return r && errno != ENOENT ? -1 : 0;
}

int proc_remove_tree(const char *path)
{
	struct stat sb;
	if (lstat(path, &sb) && errno == ENOENT)
		return 0;
	return nftw(path, remove_one, 32, FTW_DEPTH | FTW_PHYS);
}
