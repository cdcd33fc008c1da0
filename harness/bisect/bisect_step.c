#include "bisect_step.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "spawn.h"
#include "store_bisect.h"
#include "util.h"

static volatile sig_atomic_t pending_sig;
static volatile pid_t child_pid;

static void on_signal(int sig)
{
	pending_sig = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* Write text to path (replacing it). 0, or -1 with err. */
static int write_file(const char *path, const char *text, char *err, size_t errsz)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;
	if (f && fclose(f))
		ok = false;
	if (!ok)
		snprintf(err, errsz, "%s: cannot write it: %s", path, strerror(errno));
	return ok ? 0 : -1;
}

int bisect_child_signal(void)
{
	return pending_sig;
}

int bisect_run_child(char *const *argv, const char *log, int *status, char *err, size_t errsz)
{
	struct spawn sp = {
		.argv = argv,
		.out = {.kind = SPAWN_FILE, .path = log, .append = true},
		.err = {.kind = SPAWN_STDOUT},
		.pdeath_sig = SIGTERM,
	};
	struct spawn *const one[] = {&sp};
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	fflush(NULL);
	int rc = spawn_start(&sp, err, errsz);
	if (rc == 0) {
		child_pid = sp.pid;
		if (pending_sig)
			kill(sp.pid, pending_sig);
		while (spawn_poll(one, 1, -1))
			;
		*status = sp.status;
	}
	child_pid = 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	spawn_free(&sp);
	return rc;
}

/* The stored run of the attempt: its id and status, 0 when none. */
static int stored_attempt(struct store *st, const struct bisect_step *s, bool *known,
			  int64_t *run_id, char *path, size_t pathsz, char *err, size_t errsz)
{
	struct stored_bisect_run *rows;
	size_t n;
	*known = false;
	*run_id = 0;
	if (store_bisect_runs(st, s->bisection_id, s->k, &rows, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (rows[i].attempt == s->attempt) {
			*known = true;
			snprintf(path, pathsz, "%s", rows[i].config_path);
		}
	store_bisect_run_rows_free(rows, n);
	if (*known)
		return store_bisect_run_link(st, s->bisection_id, s->k, s->attempt, run_id, err,
					     errsz);
	return 0;
}

/* The status of run id ("" when it cannot be read). */
static void run_status(struct store *st, int64_t id, char *dst, size_t size)
{
	struct run_owner ow;
	char err[256];
	dst[0] = '\0';
	if (store_run_owner(st, id, &ow, err, sizeof(err)) == 0)
		snprintf(dst, size, "%s", ow.status);
}

/* Did run id end (complete or failed) rather than stay as it was? */
static bool run_ended(struct store *st, int64_t id)
{
	char status[32];
	run_status(st, id, status, sizeof(status));
	return !strcmp(status, "complete") || !strcmp(status, "failed");
}

int bisect_step_run(struct store *st, const struct bisect_step *s, struct bisect_step_result *r,
		    char *err, size_t errsz)
{
	char path[4096], status[32], idtext[32], itext[32];
	bool known;
	int64_t run_id;
	memset(r, 0, sizeof(*r));
	snprintf(r->log, sizeof(r->log), "%s/%d-a%d.log", s->dir, s->k, s->attempt);
	if (stored_attempt(st, s, &known, &run_id, path, sizeof(path), err, errsz))
		return -1;
	if (run_id && run_ended(st, run_id)) {
		run_status(st, run_id, status, sizeof(status));
		r->run_id = run_id;
		r->exit_status = !strcmp(status, "complete") ? 0 : 1;
		return 0;
	}
	if (!known) {
		snprintf(path, sizeof(path), "%s/%d-a%d.yaml", s->dir, s->k, s->attempt);
		if (write_file(path, s->config, err, errsz) ||
		    store_bisect_run_add(st, s->bisection_id, s->k, s->attempt, s->phase, path, err,
					  errsz))
			return -1;
	}
	struct argv a = {0};
	argv_add(&a, s->self_exe);
	argv_add(&a, "run");
	if (run_id) {
		snprintf(idtext, sizeof(idtext), "%lld", (long long)run_id);
		argv_add(&a, "--resume");
		argv_add(&a, idtext);
	} else {
		argv_add(&a, path);
		if (s->iterations) {
			snprintf(itext, sizeof(itext), "%d", s->iterations);
			argv_add(&a, "--iterations");
			argv_add(&a, itext);
		}
	}
	argv_add(&a, "--db");
	argv_add(&a, s->db);
	argv_add(&a, "--quiet");
	int wstatus = 0;
	int rc = bisect_run_child(a.v, r->log, &wstatus, err, errsz);
	argv_free(&a);
	if (rc)
		return -1;
	r->exit_status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	if (pending_sig || r->exit_status > 128) {
		r->interrupted = true;
		r->signal = pending_sig ? pending_sig : r->exit_status - 128;
	}
	if (store_bisect_run_link(st, s->bisection_id, s->k, s->attempt, &r->run_id, err, errsz))
		return -1;
	if (r->run_id && !r->interrupted && !run_ended(st, r->run_id))
		r->run_id = 0; /* refused (run --resume of a run still going): not run */
	if (!r->run_id)
		file_last_line(r->log, r->why, sizeof(r->why));
	return 0;
}
