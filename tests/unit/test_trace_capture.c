/* Unit test of the trace capture's drain time limit (trace_capture.h,
 * TRACE_DRAIN_BUDGET_MS): while a window is open, one read of trace_pipe
 * (trace_capture_tick) must give the runner back its loop within the
 * budget even when events arrive as fast as they are read, or the rig
 * reaps no load and hears no Ctrl-C until the flood stops. The flood is
 * /dev/zero read as the window's trace_pipe (trace_capture_set_pipe_path)
 * on a real tracefs instance; needs root and tracefs (else skipped). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_capture.h"
#include "util.h"

/* The fd this process has open on path (the window's pipe), or -1. */
static int fd_of(const char *path)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int found = -1;
	char link[PATH_MAX], target[PATH_MAX];
	assert_non_null(d);
	while (found < 0 && (de = readdir(d))) {
		snprintf(link, sizeof(link), "/proc/self/fd/%s", de->d_name);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n > 0 && (target[n] = '\0', !strcmp(target, path)))
			found = atoi(de->d_name);
	}
	closedir(d);
	return found;
}

static void test_drain_budget(void **state)
{
	char err[1024], instance[64], path[] = "/tmp/schedrig-test-drain-XXXXXX";
	char *const events[] = {"sched:sched_switch"};
	struct trace_capture *t;
	(void)state;

	if (geteuid() != 0)
		skip();
	snprintf(instance, sizeof(instance), "schedrig-0-%d", (int)getpid());
	struct trace_request rq = {.events = events, .n_events = 1, .buffer_kb = 64,
				   .instance = instance};
	if (trace_capture_open(&rq, NULL, &t, err, sizeof(err))) {
		print_message("no tracefs here: %s\n", err);
		skip();
	}
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(trace_capture_arm(t, path, err, sizeof(err)), 0);
	trace_capture_set_pipe_path("/dev/zero");
	/* Without the limit the tick never returns: SIGALRM ends the test. */
	alarm(20);
	trace_capture_window_begin(t);
	int pipe_fd = fd_of("/dev/zero");
	assert_true(pipe_fd >= 0);
	int64_t t0 = mono_ns();
	trace_capture_tick(t);
	double ms = (double)(mono_ns() - t0) / 1e6;
	print_message("one tick of an endless trace_pipe: %.1f ms (budget %d ms)\n", ms,
		      TRACE_DRAIN_BUDGET_MS);
	/* It read until the budget ran out (the source never ran dry), and
	 * not much longer: one DRAIN_CHUNK (1 MiB) read and written after
	 * the deadline, on a machine others share. */
	assert_true(ms >= TRACE_DRAIN_BUDGET_MS);
	assert_true(ms < TRACE_DRAIN_BUDGET_MS + 1000);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
	/* The flood stops (the window's end reads to the end): /dev/null in
	 * its place. */
	int null_fd = open("/dev/null", O_RDONLY);
	assert_true(null_fd >= 0);
	assert_int_equal(dup2(null_fd, pipe_fd), pipe_fd);
	close(null_fd);
	trace_capture_window_end(t);
	alarm(0);
	trace_capture_set_pipe_path(NULL);
	struct trace_result r;
	trace_capture_take(t, &r);
	assert_true(r.captured);
	assert_true(r.bytes > 0);
	assert_int_equal(trace_capture_close(t, err, sizeof(err)), 0);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drain_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
