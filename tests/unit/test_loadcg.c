/* Per-load cgroups: a process that escapes its process group with setsid()
 * is still killed through the instance's cgroup. Needs root and a cgroup2
 * hierarchy with cgroup.kill (this machine and CI have both). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loadcg.h"

static void test_escaper_is_killed(void **state)
{
	(void)state;
	char why[512], dir[1200];
	int pipefd[2];

	assert_int_equal(loadcg_init(why, sizeof(why)), 0);
	assert_non_null(loadcg_base());
	assert_int_equal(loadcg_create(1, dir, sizeof(dir)), 0);
	assert_int_equal(pipe(pipefd), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		if (loadcg_enter(dir))
			_exit(1);
		if (fork() == 0) {
			setsid(); /* leaves the process group: kill(-pgid) misses it */
			pid_t self = getpid();
			/* Reported only once it has escaped. */
			if (write(pipefd[1], &self, sizeof(self)) != sizeof(self))
				_exit(1);
			pause();
			_exit(0);
		}
		_exit(0); /* the escaper is orphaned */
	}
	pid_t escaper = 0;
	assert_int_equal(read(pipefd[0], &escaper, sizeof(escaper)), sizeof(escaper));
	int status;
	waitpid(child, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(kill(escaper, 0), 0); /* alive, in another session */
	assert_int_equal(getsid(escaper), escaper);

	assert_int_equal(loadcg_kill_remove(dir), 0);
	/* Gone (or a zombie waiting for init): it no longer runs. */
	char path[64], line[256] = "";
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)escaper);
	FILE *f = fopen(path, "r");
	if (f) {
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		assert_non_null(strstr(line, ") Z "));
	}
	struct stat st;
	assert_int_equal(stat(dir, &st), -1);
	loadcg_cleanup();
	assert_null(loadcg_base());
	close(pipefd[0]);
	close(pipefd[1]);
}

/* Whatever happened above, nothing of the test may outlive it. */
static int teardown(void **state)
{
	(void)state;
	loadcg_cleanup();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaper_is_killed),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
