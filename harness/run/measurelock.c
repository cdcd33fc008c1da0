/* The host-wide measuring lock: see measurelock.h. */
#include "measurelock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "knobs.h"
#include "runner.h"
#include "util.h"

#define MEASURE_POLL_NS 200000000L

static char *lock_path(void)
{
	const char *env = getenv("SCHEDRIG_MEASURE_LOCK");
	if (env && *env)
		return xstrdup(env);
	/* Root's lock file is 0600: another user's run has its own. */
	if (geteuid())
		return xasprintf("%s/schedrig-measure-%d.lock", knobs_lock_dir(), (int)geteuid());
	return xasprintf("%s/schedrig-measure.lock", knobs_lock_dir());
}

void measure_lock_holder(char *dst, size_t size)
{
	char *path = lock_path();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	dst[0] = '\0';
	if (fd < 0)
		return;
	if (flock(fd, LOCK_SH | LOCK_NB))
		lock_file_holder(fd, dst, size);
	else
		flock(fd, LOCK_UN);
	close(fd);
}

int measure_lock(const char *db, double wait_s, char *err, size_t errsz)
{
	char *path = lock_path();
	int fd = lock_file_open(path, err, errsz);
	if (fd < 0) {
		free(path);
		return -1;
	}
	int64_t until = mono_ns() + (int64_t)(wait_s * 1e9);
	bool said = false;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		char holder[600];
		lock_file_holder(fd, holder, sizeof(holder));
		if (errno != EWOULDBLOCK || mono_ns() >= until || runner_poll_interrupt()) {
			snprintf(err, errsz, "another run measures on this machine (%s; lock %s)%s",
				 holder, path, runner_interrupt_signal() ? ": interrupted while waiting" :
				 ": gave up waiting (--wait-s; --concurrent runs beside it)");
			close(fd);
			free(path);
			return -1;
		}
		if (!said) {
			fprintf(stderr, "schedrig: another run measures on this machine (%s): waiting"
				" for it to end, at most %.0f s (two runs at once would measure each"
				" other; Ctrl-C gives up, --concurrent runs beside it)\n", holder, wait_s);
			said = true;
		}
		nanosleep(&(struct timespec){0, MEASURE_POLL_NS}, NULL);
	}
	free(path);
	char line[600];
	int len = snprintf(line, sizeof(line), "pid %d db %s\n", (int)getpid(), db);
	if (ftruncate(fd, 0) || pwrite(fd, line, (size_t)len, 0) != len) {
		/* the lock holds; only the holder's name in others' messages is lost */
	}
	return fd;
}
