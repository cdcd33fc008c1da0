/* track --follow's children and its stop (track_follow_child.h). */
#include "track_follow_child.h"

#include <signal.h>
#include <sys/wait.h>

#include "bisect_step.h"

static volatile sig_atomic_t stop_sig;

void track_follow_on_stop(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
}

int track_follow_stopped(void)
{
	return stop_sig ? stop_sig : bisect_child_signal();
}

int track_follow_child(const struct argv *argv, const char *log, char *err, size_t errsz)
{
	int status = 0;
	if (bisect_run_child(argv->v, log, &status, err, errsz))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool track_follow_argv(const char *self, struct argv *a, const char *command,
		       const char *flag, int64_t id)
{
	argv_add(a, self);
	argv_add(a, command);
	if (!id)
		return false;
	argv_add(a, flag);
	argv_addf(a, "%lld", (long long)id);
	return true;
}
