#include "kbuild_run.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "builtin_proc.h"
#include "runner.h"

#define KB_TICK_NS 250000000ULL
#define KB_STOP_GRACE_S 20.0

int kb_run(const struct kb_cmd *c, char *err, size_t errsz)
{
	sigset_t sigs;
	builtin_block_signals(&sigs);
	struct proc_spec spec = {.argv = c->argv, .dir = c->dir, .out_path = c->log,
				 .err_path = c->err_log,
				 .append = c->append, .pdeath_sig = SIGTERM,
				 .set_env = c->set_env, .new_group = true};
	static const char *const unset[] = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", NULL};
	spec.unset_env = unset;
	pid_t pid = proc_start(&spec, err, errsz);
	if (pid < 0)
		return -1;
	runner_guard_group(pid, true);
	struct proc_exit x;
	for (;;) {
		int r = proc_wait(pid, &sigs, builtin_now_ns() + KB_TICK_NS, &x);
		if (r == 0)
			break;
		if (r > 0) {
			/* make stops its jobs on SIGTERM; what they started (a
			 * recipe's shell's children) is in the group too. */
			kill(-pid, SIGTERM);
			proc_stop(pid, 0, KB_STOP_GRACE_S, &sigs, NULL);
			kill(-pid, SIGKILL);
			runner_guard_group(pid, false);
			runner_note_interrupt(r);
			snprintf(err, errsz, "interrupted by %s", strsignal(r));
			return KB_INTERRUPTED;
		}
		if (c->tick)
			c->tick(c->ctx);
	}
	kill(-pid, SIGKILL); /* anything of the group that outlived make */
	runner_guard_group(pid, false);
	if (proc_ok(x.status))
		return 0;
	char how[128];
	proc_describe(x.status, how, sizeof(how));
	snprintf(err, errsz, "%s: %s", c->argv[0], how);
	return 1;
}
