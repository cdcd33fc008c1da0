/* loads/builtin_proc.c against real processes: the scheduling attributes
 * reset before exec (a child of a niced rig runs at nice 0 only when asked),
 * the environment changes, output files, a stop signal received while
 * waiting, a deadline, and SIGKILL after the grace. Runs with SIGINT,
 * SIGTERM and SIGCHLD blocked, as a built-in load does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "builtin_proc.h"
#include "util.h"

static sigset_t sigs;
static char dir[] = "/tmp/test_builtin_proc.XXXXXX";

/* Run argv to its end with stdout in dir/out; returns that text. */
static char *run_out(char *const *argv, const struct proc_spec *base)
{
	char path[64], err[256] = "";
	struct proc_spec spec = *base;
	snprintf(path, sizeof(path), "%s/out", dir);
	spec.argv = argv;
	spec.out_path = path;
	struct spawn s;
	assert_int_equal(proc_start(&s, &spec, err, sizeof(err)), 0);
	assert_int_equal(proc_wait(&s, &sigs, UINT64_MAX), 0);
	assert_true(proc_ok(s.status));
	char *out = xcalloc(1, 4096);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_true(fread(out, 1, 4095, f) > 0);
	fclose(f);
	return out;
}

static void test_reset_sched(void **state)
{
	(void)state;
	/* coreutils' nice without arguments prints the niceness it runs at. */
	char *nice_argv[] = {"nice", NULL};
	errno = 0;
	int was = getpriority(PRIO_PROCESS, 0);
	assert_int_equal(errno, 0);
	if (was != 0 || geteuid() != 0)
		skip(); /* lowering nice back to 0 needs CAP_SYS_NICE */
	assert_int_equal(setpriority(PRIO_PROCESS, 0, 5), 0);
	char *kept = run_out(nice_argv, &(struct proc_spec){0});
	char *reset = run_out(nice_argv, &(struct proc_spec){.reset_sched = true});
	assert_int_equal(setpriority(PRIO_PROCESS, 0, 0), 0);
	assert_string_equal(kept, "5\n");
	assert_string_equal(reset, "0\n");
	free(kept);
	free(reset);
}

static void test_env_and_files(void **state)
{
	(void)state;
	char *sh[] = {"sh", "-c", "echo \"${MAKEFLAGS-unset} $PATH\"; echo to-stderr >&2", NULL};
	static const char *const unset[] = {"MAKEFLAGS", NULL};
	assert_int_equal(setenv("MAKEFLAGS", "-j9", 1), 0);
	char *out = run_out(sh, &(struct proc_spec){.unset_env = unset, .path_env = "/bin:/usr/bin"});
	/* stderr goes to the same file when err_path is NULL. */
	assert_string_equal(out, "unset /bin:/usr/bin\nto-stderr\n");
	free(out);
	out = run_out(sh, &(struct proc_spec){0});
	assert_true(!strncmp(out, "-j9 ", 4));
	free(out);
	unsetenv("MAKEFLAGS");
	char err[256] = "";
	struct spawn s;
	char *missing[] = {"schedrig-no-such-program", NULL};
	assert_int_equal(proc_start(&s, &(struct proc_spec){.argv = missing}, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run schedrig-no-such-program: No such file or directory");
}

static void test_stop_signal_while_waiting(void **state)
{
	(void)state;
	char err[256] = "";
	char *sleep_argv[] = {"sleep", "10", NULL};
	struct spawn s;
	assert_int_equal(proc_start(&s, &(struct proc_spec){.argv = sleep_argv}, err, sizeof(err)), 0);
	uint64_t t0 = builtin_now_ns();
	/* Blocked, so pending: proc_wait takes it at once. */
	kill(getpid(), SIGTERM);
	assert_int_equal(proc_wait(&s, &sigs, UINT64_MAX), SIGTERM);
	assert_false(s.exited);
	assert_true(proc_stop(&s, SIGTERM, 5, &sigs));
	assert_true(WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGTERM);
	assert_true(builtin_now_ns() - t0 < 3000000000ULL);
}

static void test_deadline_then_sigkill(void **state)
{
	(void)state;
	char err[256] = "";
	char *sh[] = {"sh", "-c", "trap '' TERM; exec sleep 10", NULL};
	struct spawn s;
	assert_int_equal(proc_start(&s, &(struct proc_spec){.argv = sh}, err, sizeof(err)), 0);
	uint64_t t0 = builtin_now_ns();
	assert_int_equal(proc_wait(&s, &sigs, t0 + 300000000ULL), -1);
	assert_true(builtin_now_ns() - t0 >= 300000000ULL);
	/* The TERM is ignored: SIGKILL after the 0.3 s grace. */
	assert_false(proc_stop(&s, SIGTERM, 0.3, &sigs));
	assert_true(s.exited && WIFSIGNALED(s.status) && WTERMSIG(s.status) == SIGKILL);
	uint64_t took = builtin_now_ns() - t0;
	assert_true(took >= 600000000ULL && took < 5000000000ULL);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

int main(void)
{
	builtin_block_signals(&sigs);
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_sched),
		cmocka_unit_test(test_env_and_files),
		cmocka_unit_test(test_stop_signal_while_waiting),
		cmocka_unit_test(test_deadline_then_sigkill),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char path[64];
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	rmdir(dir);
	return rc;
}
