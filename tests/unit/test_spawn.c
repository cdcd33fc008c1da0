/* spawn.h against real processes: /bin/true and /bin/false, sh, cat and ls
 * as children; exit statuses, pipes both ways, files, environment and
 * directory, deadlines with the stop signal and SIGKILL after the grace,
 * several children served by one poll loop, process groups, no descriptor
 * of the rig leaked into a child, and the PATH lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loadcg.h"
#include "spawn.h"
#include "util.h"

static double elapsed_s(int64_t t0_ns)
{
	return (double)(mono_ns() - t0_ns) / 1e9;
}

/* Run argv to the end with stdout (and stderr) piped; returns the spawn. */
static struct spawn run_piped(char *const *argv)
{
	char err[256] = "";
	struct spawn s = {.argv = argv, .out.kind = SPAWN_PIPE, .err.kind = SPAWN_PIPE};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_true(s.done && s.exited);
	return s;
}

static void test_exit_status(void **state)
{
	(void)state;
	char *t[] = {"/bin/true", NULL}, *f[] = {"false", NULL}, *sh[] = {"sh", "-c", "exit 7", NULL};
	struct spawn s = run_piped(t);
	assert_true(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 0);
	s = run_piped(f);
	assert_true(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 1);
	s = run_piped(sh);
	assert_true(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 7);
	assert_false(s.timed_out);
	spawn_free(&s);
}

static void test_not_found(void **state)
{
	(void)state;
	char err[256] = "";
	char *missing[] = {"schedrig-no-such-program", NULL}, *dir[] = {"/bin/true", NULL};
	struct spawn s = {.argv = missing};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run schedrig-no-such-program: No such file or directory");
	assert_int_equal(s.pid, 0);
	/* The step and errno too, for callers that word their own message. */
	assert_string_equal(s.fail_step, "exec");
	assert_int_equal(s.fail_errno, ENOENT);
	s = (struct spawn){.argv = dir, .dir = "/schedrig-no-such-dir"};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), -1);
	assert_string_equal(err, "chdir /schedrig-no-such-dir: No such file or directory");
	assert_string_equal(s.fail_step, "chdir");
	assert_int_equal(s.fail_errno, ENOENT);
	/* The failed child was reaped: no child is left. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

static void test_pipes_both_ways(void **state)
{
	(void)state;
	char err[256] = "";
	char *cat[] = {"cat", NULL};
	struct spawn s = {.argv = cat, .in.kind = SPAWN_PIPE, .out.kind = SPAWN_PIPE};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), 0);
	assert_int_equal(write(s.in_fd, "hello\n", 6), 6);
	spawn_close_in(&s);
	while (spawn_poll((struct spawn *[]){&s}, 1, -1))
		;
	assert_string_equal(buf_str(&s.out_text), "hello\n");
	assert_true(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 0);
	spawn_free(&s);
}

static void test_stderr_and_cap(void **state)
{
	(void)state;
	char *sh[] = {"sh", "-c", "echo out; echo errors-here >&2", NULL};
	char err[256] = "";
	struct spawn s = run_piped(sh);
	assert_string_equal(buf_str(&s.out_text), "out\n");
	assert_string_equal(buf_str(&s.err_text), "errors-here\n");
	spawn_free(&s);
	s = (struct spawn){.argv = sh, .out.kind = SPAWN_NULL, .err.kind = SPAWN_PIPE,
			   .text_max = 6};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_string_equal(buf_str(&s.err_text), "errors");
	assert_string_equal(buf_str(&s.out_text), "");
	spawn_free(&s);
}

static void test_files_env_dir(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_spawn.XXXXXX", err[256] = "", path[64], text[64] = "";
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	char *sh[] = {"sh", "-c", "echo \"$SPAWN_A ${HOME-unset} $(pwd)\"; echo e >&2", NULL};
	const char *env[] = {"SPAWN_A=a b", "HOME", NULL};
	struct spawn s = {.argv = sh, .env = env, .dir = "/", .out = {SPAWN_FILE, path, false, 0},
			  .err.kind = SPAWN_STDOUT};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	s.out.append = true;
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, text, sizeof(text) - 1) > 0);
	close(fd);
	assert_string_equal(text, "a b unset /\ne\na b unset /\ne\n");
	/* stdin from the file. */
	char *cat[] = {"cat", NULL};
	s = (struct spawn){.argv = cat, .in = {SPAWN_FILE, path, false, 0}, .out.kind = SPAWN_PIPE};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_string_equal(buf_str(&s.out_text), text);
	spawn_free(&s);
	unlink(path);
	rmdir(dir);
}

static void test_deadline_stop_signal(void **state)
{
	(void)state;
	char err[256] = "";
	char *sh[] = {"sh", "-c", "sleep 10", NULL};
	struct spawn s = {.argv = sh, .new_group = true, .timeout_s = 0.3, .grace_s = 5};
	int64_t t0 = mono_ns();
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	/* SIGTERM to the group ended sh at once: no wait for the grace. */
	assert_true(s.timed_out);
	assert_true(WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGTERM);
	assert_true(elapsed_s(t0) >= 0.3 && elapsed_s(t0) < 4);
	s = (struct spawn){.argv = sh, .new_group = true, .timeout_s = 0.2, .stop_sig = SIGUSR1};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_true(WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGUSR1);
}

static void test_grace_then_sigkill(void **state)
{
	(void)state;
	char err[256] = "";
	/* An ignored SIGTERM is inherited by sleep: only SIGKILL ends them. */
	char *sh[] = {"sh", "-c", "trap '' TERM; sleep 10; exit 3", NULL};
	struct spawn s = {.argv = sh, .new_group = true, .timeout_s = 1, .grace_s = 0.5};
	int64_t t0 = mono_ns();
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_true(s.timed_out);
	assert_true(WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGKILL);
	assert_true(elapsed_s(t0) >= 1.5 && elapsed_s(t0) < 6);
	/* spawn_stop by the caller, no deadline, once the trap is set. */
	char *ready[] = {"sh", "-c", "trap '' TERM; echo ready; sleep 10; exit 3", NULL};
	s = (struct spawn){.argv = ready, .new_group = true, .grace_s = 0.2,
			   .out.kind = SPAWN_PIPE};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), 0);
	while (!s.out_text.len)
		spawn_poll((struct spawn *[]){&s}, 1, -1);
	spawn_stop(&s);
	while (spawn_poll((struct spawn *[]){&s}, 1, -1))
		;
	assert_false(s.timed_out);
	assert_true(WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGKILL);
	spawn_free(&s);
}

static void test_several_children(void **state)
{
	(void)state;
	char err[256] = "";
	char *a[] = {"sh", "-c", "sleep 1; echo first", NULL};
	char *b[] = {"sh", "-c", "sleep 1; echo second >&2; exit 4", NULL};
	char *c[] = {"sh", "-c", "sleep 30", NULL};
	struct spawn s[3] = {
		{.argv = a, .out.kind = SPAWN_PIPE},
		{.argv = b, .err.kind = SPAWN_PIPE},
		{.argv = c, .out.kind = SPAWN_PIPE, .timeout_s = 1.5, .new_group = true},
	};
	struct spawn *all[3] = {&s[0], &s[1], &s[2]};
	int64_t t0 = mono_ns();
	for (int i = 0; i < 3; i++)
		assert_int_equal(spawn_start(&s[i], err, sizeof(err)), 0);
	while (spawn_poll(all, 3, -1))
		;
	/* Served side by side: 1 s, 1 s and a 1.5 s deadline end by about 1.5 s. */
	assert_true(elapsed_s(t0) < 2.9);
	assert_string_equal(buf_str(&s[0].out_text), "first\n");
	assert_string_equal(buf_str(&s[1].err_text), "second\n");
	assert_int_equal(WEXITSTATUS(s[1].status), 4);
	assert_true(s[2].timed_out && !s[0].timed_out);
	for (int i = 0; i < 3; i++)
		spawn_free(&s[i]);
}

static void test_process_group(void **state)
{
	(void)state;
	/* Field 5 of /proc/PID/stat is the process group. */
	char *sh[] = {"sh", "-c", "cut -d' ' -f5 /proc/$$/stat", NULL};
	char err[256] = "", want[32];
	struct spawn s = {.argv = sh, .out.kind = SPAWN_PIPE, .new_group = true};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%d\n", (int)s.pid);
	assert_string_equal(buf_str(&s.out_text), want);
	spawn_free(&s);
	s = (struct spawn){.argv = sh, .out.kind = SPAWN_PIPE};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%d\n", (int)getpgrp());
	assert_string_equal(buf_str(&s.out_text), want);
	spawn_free(&s);
}

static void test_no_fd_leaks(void **state)
{
	(void)state;
	/* Descriptors opened without O_CLOEXEC stay out of the child: ls sees
	 * 0, 1, 2 and its own handle on the directory. */
	int leak = open("/dev/null", O_RDONLY), p[2];
	assert_true(leak > 2);
	assert_int_equal(pipe(p), 0);
	char *ls[] = {"ls", "/proc/self/fd", NULL};
	struct spawn s = run_piped(ls);
	assert_string_equal(buf_str(&s.out_text), "0\n1\n2\n3\n");
	spawn_free(&s);
	close(leak);
	close(p[0]);
	close(p[1]);
}

static void test_cgroup(void **state)
{
	(void)state;
	char dir[512], why[256], err[256] = "";
	if (loadcg_init(why, sizeof(why)) || loadcg_create(1, dir, sizeof(dir)))
		skip();
	char *grep[] = {"grep", "^0::", "/proc/self/cgroup", NULL};
	struct spawn s = {.argv = grep, .out.kind = SPAWN_PIPE, .cgroup = dir};
	int rc = spawn_run(&s, err, sizeof(err));
	loadcg_kill_remove(dir);
	loadcg_cleanup();
	assert_int_equal(rc, 0);
	/* "0::/REL\n" where dir is the cgroup2 mount followed by /REL. */
	const char *line = buf_str(&s.out_text);
	size_t rel = strlen(line) - 4, len = strlen(dir);
	assert_true(!strncmp(line, "0::/", 4) && rel > 1 && rel < len);
	assert_memory_equal(line + 3, dir + len - rel, rel);
	spawn_free(&s);
	s = (struct spawn){.argv = grep, .cgroup = "/schedrig-no-such-cgroup"};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), -1);
	assert_string_equal(err, "cgroup /schedrig-no-such-cgroup: No such file or directory");
}

/* A before_exec hook: set the nice value *arg (absolute). */
static int set_nice(const void *arg, const char **what)
{
	*what = "setpriority";
	return setpriority(PRIO_PROCESS, 0, *(const int *)arg);
}

static int refuse(const void *arg, const char **what)
{
	(void)arg;
	*what = "test step";
	errno = EPERM;
	return -1;
}

static void test_before_exec(void **state)
{
	(void)state;
	char err[256] = "", want[32];
	/* coreutils' nice without arguments prints the niceness it runs at. */
	char *nice_argv[] = {"nice", NULL};
	errno = 0;
	int target = getpriority(PRIO_PROCESS, 0) + 3;
	assert_int_equal(errno, 0);
	struct spawn s = {.argv = nice_argv, .out.kind = SPAWN_PIPE, .before_exec = set_nice,
			  .hook_arg = &target};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%d\n", target);
	assert_string_equal(buf_str(&s.out_text), want);
	spawn_free(&s);
	/* The rig's own nice is untouched. */
	assert_int_equal(getpriority(PRIO_PROCESS, 0), target - 3);
	/* A failing hook: spawn_start fails with its step, nothing is left. */
	s = (struct spawn){.argv = nice_argv, .before_exec = refuse};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), -1);
	assert_string_equal(err, "nice: test step: Operation not permitted");
	assert_string_equal(s.fail_step, "test step");
	assert_int_equal(s.fail_errno, EPERM);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	/* A start that works leaves no step behind. */
	s = (struct spawn){.argv = nice_argv, .out.kind = SPAWN_NULL, .before_exec = set_nice,
			   .hook_arg = &target};
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_string_equal(s.fail_step, "");
	assert_int_equal(s.fail_errno, 0);
	spawn_free(&s);
}

/* A caller that reaps the child itself (wait4 of any child, as the runner
 * does) hands the status to spawn_reaped: the spawn is done, signals and
 * spawn_free leave the (reused) pid alone. */
static void test_reaped_by_caller(void **state)
{
	(void)state;
	char err[256] = "";
	char *sh[] = {"sh", "-c", "exit 3", NULL};
	struct spawn s = {.argv = sh, .new_group = true};
	int status;
	struct rusage ru;

	assert_int_equal(spawn_start(&s, err, sizeof(err)), 0);
	assert_int_equal(wait4(-1, &status, 0, &ru), s.pid);
	spawn_reaped(&s, status, &ru);
	assert_true(s.exited && s.done);
	assert_true(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 3);
	assert_true(s.end_ns > 0);
	/* Its pidfd is closed: spawn_poll has nothing to wait for. */
	assert_int_equal(spawn_poll((struct spawn *const[]){&s}, 1, 0), 0);
	spawn_signal(&s, SIGKILL);
	spawn_kill(&s);
	assert_int_equal(s.status, status);
	spawn_free(&s);
}

static void test_rusage_and_mode(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_spawn.XXXXXX", err[256] = "", path[64];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	/* About 0.3 s of CPU in the child's own child: wait4 counts it. */
	char *sh[] = {"sh", "-c", "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'",
		      NULL};
	struct spawn s = {.argv = sh, .out = {.kind = SPAWN_FILE, .path = path, .mode = 0600}};
	int64_t t0 = mono_ns();
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	int64_t t1 = mono_ns();
	double cpu_s = (double)s.ru.ru_utime.tv_sec + (double)s.ru.ru_utime.tv_usec / 1e6 +
		       (double)s.ru.ru_stime.tv_sec + (double)s.ru.ru_stime.tv_usec / 1e6;
	assert_true(cpu_s > 0.02);
	assert_true(cpu_s <= (double)(t1 - t0) / 1e9 * 1.05 + 0.01);
	assert_true(s.end_ns >= t0 && s.end_ns <= t1);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	spawn_free(&s);
	unlink(path);
	rmdir(dir);
}

static int fn_value = 1;

/* A function child: echo stdin to stdout after fn_value, exit 5. */
static int echo_fn(void *arg)
{
	char buf[64];
	ssize_t n;
	printf("%s %d:", (const char *)arg, fn_value);
	fflush(stdout);
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) != n)
			return 1;
	return 5;
}

static int pause_fn(void *arg)
{
	(void)arg;
	pause(); /* until a signal that is not caught ends it */
	return 0;
}

static void test_function_child(void **state)
{
	(void)state;
	char err[256] = "";
	fn_value = 42; /* the child is the rig forked: it sees this */
	struct spawn s = {.fn = echo_fn, .fn_arg = "fn", .in.kind = SPAWN_PIPE,
			  .out.kind = SPAWN_PIPE};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), 0);
	assert_int_equal(write(s.in_fd, "in", 2), 2);
	/* The child closed its copy of in_fd: closing ours is its end of file. */
	spawn_close_in(&s);
	while (spawn_poll((struct spawn *[]){&s}, 1, -1))
		;
	assert_string_equal(buf_str(&s.out_text), "fn 42:in");
	assert_true(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 5);
	spawn_free(&s);
	/* Deadline and stop signal as for a program, in its own group. */
	s = (struct spawn){.fn = pause_fn, .new_group = true, .timeout_s = 0.2};
	int64_t t0 = mono_ns();
	assert_int_equal(spawn_run(&s, err, sizeof(err)), 0);
	assert_true(s.timed_out && WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGTERM);
	assert_true(elapsed_s(t0) >= 0.2 && elapsed_s(t0) < 4);
	s = (struct spawn){.fn = pause_fn, .dir = "/schedrig-no-such-dir"};
	assert_int_equal(spawn_start(&s, err, sizeof(err)), -1);
	assert_string_equal(err, "chdir /schedrig-no-such-dir: No such file or directory");
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

static void test_which(void **state)
{
	(void)state;
	char dst[256];
	assert_int_equal(spawn_which("sh", "/schedrig-none::/bin", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "/bin/sh");
	assert_int_equal(spawn_which("sh", "/schedrig-none", dst, sizeof(dst)), -1);
	assert_int_equal(spawn_which("/bin/sh", "/schedrig-none", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "/bin/sh");
	/* A directory and a file without x are not programs. */
	assert_int_equal(spawn_which("/bin", NULL, dst, sizeof(dst)), -1);
	assert_int_equal(spawn_which("passwd", "/etc", dst, sizeof(dst)), -1);
	/* An empty entry is the current directory. */
	char cwd[256];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir("/bin"), 0);
	assert_int_equal(spawn_which("sh", "/schedrig-none:", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "./sh");
	assert_int_equal(chdir(cwd), 0);
	/* Too long for dst. */
	assert_int_equal(spawn_which("sh", "/bin", dst, 6), -1);
}

/* A rig started with 0, 1 and 2 closed (a daemon's way): the status pipe
 * must not land on 0..2, where the child's redirections would overwrite
 * it and a failed chdir would look like a started program. */
static void test_status_pipe_above_stdio(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(0);
		close(1);
		close(2);
		char *argv[] = {"true", NULL}, err[256];
		struct spawn s = {.argv = argv, .dir = "/nonexistent-schedrig-dir",
				  .in.kind = SPAWN_NULL, .out.kind = SPAWN_NULL,
				  .err.kind = SPAWN_NULL};
		int rc = spawn_start(&s, err, sizeof(err));
		_exit(rc == -1 && !strcmp(s.fail_step, "chdir") ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_pipes_both_ways),
		cmocka_unit_test(test_stderr_and_cap),
		cmocka_unit_test(test_files_env_dir),
		cmocka_unit_test(test_deadline_stop_signal),
		cmocka_unit_test(test_grace_then_sigkill),
		cmocka_unit_test(test_several_children),
		cmocka_unit_test(test_process_group),
		cmocka_unit_test(test_no_fd_leaks),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_before_exec),
		cmocka_unit_test(test_reaped_by_caller),
		cmocka_unit_test(test_rusage_and_mode),
		cmocka_unit_test(test_function_child),
		cmocka_unit_test(test_which),
		cmocka_unit_test(test_status_pipe_above_stdio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
