#include "builtin_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "schedattr.h"
#include "spawn.h"

int proc_start(struct spawn *s, const struct proc_spec *spec, char *err, size_t errsz)
{
	size_t n = 0;
	while (spec->unset_env && spec->unset_env[n])
		n++;
	const char **env = xcalloc(n + 2, sizeof(*env));
	for (size_t i = 0; i < n; i++)
		env[i] = spec->unset_env[i];
	char *path = spec->path_env ? xasprintf("PATH=%s", spec->path_env) : NULL;
	env[n] = path;
	/* Prepared here: the child only makes the system calls. */
	struct sched_req r = {.has_policy = true, .policy = SCHED_OTHER, .has_nice = true,
			      .nice = 0, .has_latency_nice = spec->reset_sched &&
							   sched_latency_nice_supported()};
	struct spawn_io out = {SPAWN_NULL, NULL, false, 0, -1};
	if (spec->out_to_stderr)
		out = (struct spawn_io){.kind = SPAWN_FD, .fd = 2};
	else if (spec->out_path)
		out = (struct spawn_io){.kind = SPAWN_FILE, .path = spec->out_path,
					.append = spec->append, .mode = 0600};
	struct spawn_io errio = {.kind = SPAWN_STDOUT};
	if (spec->err_path)
		errio = (struct spawn_io){.kind = SPAWN_FILE, .path = spec->err_path,
					  .append = spec->append, .mode = 0600};
	*s = (struct spawn){.argv = spec->argv, .env = env, .dir = spec->dir,
			    .in.kind = SPAWN_NULL, .out = out, .err = errio,
			    .pdeath_sig = spec->pdeath_sig,
			    .before_exec = spec->reset_sched ? sched_apply_hook : NULL, .hook_arg = &r};
	int rc = spawn_start(s, err, errsz);
	s->env = NULL;
	s->hook_arg = NULL;
	free(path);
	free(env);
	return rc;
}

int proc_wait(struct spawn *s, const sigset_t *sigs, uint64_t deadline_ns)
{
	for (;;) {
		if (!spawn_poll(&s, 1, 0))
			return 0;
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

bool proc_stop(struct spawn *s, int sig, double grace_s, const sigset_t *sigs)
{
	if (sig)
		spawn_signal(s, sig);
	uint64_t deadline = builtin_now_ns() + (uint64_t)(grace_s * 1e9);
	int r;
	while ((r = proc_wait(s, sigs, deadline)) > 0)
		; /* SIGINT/SIGTERM while stopping: keep stopping. */
	if (r == 0)
		return true;
	spawn_kill(s);
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
