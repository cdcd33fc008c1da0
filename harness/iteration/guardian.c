#include "guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loadcg.h"
#include "spawn.h"
#include "util.h"

static struct spawn guard; /* the guardian; pid 0 when none */
static int guard_fd = -1;  /* the rig's end of the guardian's socket */

/* The guardian itself, run by spawn as a function (fd_arg: its end of the
 * socket) with the rig's signal mask. Its stdio goes to /dev/null here,
 * once the socket is on 3: the socket may be on 0..2 when the rig started
 * with one of them closed. The rig sends "+PGID\n" when a load's process
 * group starts and "-PGID\n" once it is gone; at EOF (the rig exited or was
 * killed, even by SIGKILL) the guardian SIGKILLs every group still listed,
 * empties the loads' cgroups and exits. */
static int guardian(void *fd_arg)
{
	static pid_t groups[1024];
	size_t n = 0, len = 0;
	char buf[256], line[32];
	int fd = *(const int *)fd_arg;

	prctl(PR_SET_NAME, "schedrig-guard"); /* not "schedrig" in ps and pkill -x */
	if (fd != 3 && dup2(fd, 3) < 0)
		return 1;
	int null_fd = open("/dev/null", O_RDWR);
	if (null_fd >= 0)
		for (int i = 0; i < 3; i++)
			dup2(null_fd, i);
	close_range(4, ~0U, 0); /* the database, the signalfd, ... */
	for (;;) {
		ssize_t r = read(3, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			size_t got = len;
			len = 0;
			long long pgid;
			if (got < 2 || !parse_ll(line + 1, &pgid) || pgid <= 1)
				continue;
			size_t k = 0;
			while (k < n && groups[k] != (pid_t)pgid)
				k++;
			if (line[0] == '+' && k == n && n < sizeof(groups) / sizeof(groups[0]))
				groups[n++] = (pid_t)pgid;
			else if (line[0] == '-' && k < n)
				groups[k] = groups[--n];
		}
	}
	for (size_t k = 0; k < n; k++)
		kill(-groups[k], SIGKILL);
	loadcg_cleanup(); /* everything in the loads' cgroups, escapers included */
	return 0;
}

void guardian_note(bool started, pid_t pgid)
{
	char msg[32];
	int len = snprintf(msg, sizeof(msg), "%c%d\n", started ? '+' : '-', (int)pgid);
	if (guard_fd >= 0 && send(guard_fd, msg, (size_t)len, MSG_NOSIGNAL) != len) {
		close(guard_fd); /* the guardian is gone: go on without it */
		guard_fd = -1;
	}
}

int guardian_start(char *err, size_t errsz)
{
	int sv[2];
	char why[256];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errsz, "cannot start the guardian: %s", strerror(errno));
		return -1;
	}
	guard = (struct spawn){.fn = guardian, .fn_arg = &sv[1]};
	int rc = spawn_start(&guard, why, sizeof(why));
	close(sv[1]);
	if (rc) {
		snprintf(err, errsz, "cannot start the guardian: %s", why);
		close(sv[0]);
		return -1;
	}
	guard_fd = sv[0];
	return 0;
}

pid_t guardian_pid(void)
{
	return guard.pid;
}
