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
#include "spawn.h"

/* A child in the cgroup (spawn joins it) that starts an escaper: setsid()
 * leaves the process group, kill(-pgid) misses it. */
static int start_escaper(void *arg)
{
	int fd = *(const int *)arg;
	if (fork() == 0) {
		setsid();
		pid_t self = getpid();
		/* Reported only once it has escaped. */
		if (write(fd, &self, sizeof(self)) != sizeof(self))
			_exit(1);
		pause();
		_exit(0);
	}
	return 0; /* the escaper is orphaned */
}

static void test_escaper_is_killed(void **state)
{
	(void)state;
	char why[512], dir[1200], err[256];
	int pipefd[2];

	assert_int_equal(loadcg_init(why, sizeof(why)), 0);
	assert_non_null(loadcg_base());
	assert_int_equal(loadcg_create(1, dir, sizeof(dir)), 0);
	assert_int_equal(pipe(pipefd), 0);
	struct spawn child = {.fn = start_escaper, .fn_arg = &pipefd[1], .cgroup = dir};
	assert_int_equal(spawn_start(&child, err, sizeof(err)), 0);
	pid_t escaper = 0;
	assert_int_equal(read(pipefd[0], &escaper, sizeof(escaper)), sizeof(escaper));
	while (spawn_poll((struct spawn *[]){&child}, 1, -1) > 0)
		;
	assert_true(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0);
	spawn_free(&child);
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
