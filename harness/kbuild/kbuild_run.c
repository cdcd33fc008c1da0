#include "kbuild_run.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "builtin_proc.h"
#include "kbuild_env.h"
#include "runner.h"
#include "spawn.h"
#include "util.h"

#define KB_TICK_MS 250
#define KB_STOP_GRACE_S 20.0

/* A pending SIGINT, SIGTERM or SIGHUP taken (signals blocked), or one the
 * runner took already; 0 when none. */
static int stop_requested(void)
{
	sigset_t stop;
	siginfo_t si;
	struct timespec zero = {0, 0};
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	int sig = sigtimedwait(&stop, &si, &zero);
	if (sig > 0)
		runner_note_interrupt(sig);
	return runner_interrupt_signal();
}

/* The child's environment: the scrubbed one (kbuild_env.h) and
 * c->set_env; with keep_env the rig's, less an enclosing make's variables
 * (its jobserver is not ours). */
static void child_env(const struct kb_cmd *c, struct argv *env)
{
	if (c->keep_env) {
		argv_add(env, "MAKEFLAGS");
		argv_add(env, "MFLAGS");
		argv_add(env, "MAKELEVEL");
	} else {
		kbuild_env_base(env, env);
	}
	for (const char *const *e = c->set_env; e && *e; e++)
		argv_add(env, *e);
}

/* SIGINT, SIGTERM and SIGHUP blocked: taken between polls. */
static void block_stop_signals(void)
{
	sigset_t sigs;
	builtin_block_signals(&sigs);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
}

int kb_stop_requested(void)
{
	block_stop_signals();
	return stop_requested();
}

int kb_run(const struct kb_cmd *c, char *err, size_t errsz)
{
	block_stop_signals();
	if (stop_requested()) {
		snprintf(err, errsz, "interrupted by %s", strsignal(runner_interrupt_signal()));
		return KB_INTERRUPTED;
	}
	struct argv env = {0};
	child_env(c, &env);
	struct spawn s = {
		.argv = c->argv, .env = (const char *const *)env.v, .clear_env = !c->keep_env,
		.dir = c->dir,
		.in.kind = SPAWN_NULL,
		.out = {.kind = c->log ? SPAWN_FILE : SPAWN_NULL, .path = c->log,
			.append = c->append},
		.err = {.kind = c->err_log ? SPAWN_FILE : SPAWN_STDOUT, .path = c->err_log,
			.append = c->append},
		/* make stops its jobs on SIGTERM; what they started (a recipe's
		 * shell's children) is in the group too. */
		.new_group = true, .kill_group_at_exit = true, .pdeath_sig = SIGTERM,
		.stop_sig = SIGTERM,
		.grace_s = KB_STOP_GRACE_S,
	};
	int rc = spawn_start(&s, err, errsz);
	argv_free(&env);
	if (rc)
		return -1;
	runner_guard_group(s.pid, true);
	int sig = 0;
	while (spawn_poll((struct spawn *[]){&s}, 1, KB_TICK_MS)) {
		if (!sig && (sig = stop_requested()))
			spawn_stop(&s);
		else if (!sig && c->tick)
			c->tick(c->ctx);
	}
	runner_guard_group(s.pid, false);
	int status = s.status;
	spawn_free(&s);
	if (sig || stop_requested()) {
		snprintf(err, errsz, "interrupted by %s", strsignal(runner_interrupt_signal()));
		return KB_INTERRUPTED;
	}
	if (proc_ok(status))
		return 0;
	char how[128];
	proc_describe(status, how, sizeof(how));
	snprintf(err, errsz, "%s: %s", c->argv[0], how);
	return 1;
}
