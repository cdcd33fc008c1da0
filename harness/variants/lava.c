/* boot: lava — the variant's kernel boots on a device of a LAVA lab. The rig
 * writes the job (lava_job.h: the kernel and the initramfs boot: qemu boots,
 * the agent writing its protocol lines to the console), submits it over
 * LAVA's REST API (lava_api.h), follows it (printing each state change),
 * downloads the job log, and decodes the agent's lines from its console
 * lines (lava_log.h) exactly as boot: qemu decodes them from its virtio
 * port: every line is checked against the plan (agent_host.h), nothing in
 * the log is trusted.
 *
 * Each job is noted with the run (variant_run.note, kind "lava-job":
 * "variant=V job=N url=URL") as soon as it is submitted, and again with the
 * device once it finished ("... device=D device_type=T"); run --resume
 * (variant_run.notes) follows the variant's last job instead of submitting
 * again when its steps are still to be stored.
 *
 * Failures of the variant (return -1, err ends with the job's URL): the job
 * refused; an incomplete or canceled job; a log without the agent's hello
 * or end line — "kernel panic: ..." when a console line says so (LAVA calls
 * a panicking kernel an Infrastructure error), else LAVA's own error_type
 * and error_msg; a line that fails the plan's checks. Ctrl-C (the runner's
 * interrupt) cancels the job. The rig waits at most twice the job's own
 * timeout plus an hour in the queue, then cancels it.
 *
 * A lava guest gets what a qemu guest gets but the scratch disk and the
 * share of this machine's /usr (a lab's device has neither): preflight
 * refuses a load that needs them, naming it, and so does lava_job_prepare. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_host.h"
#include "guest_image.h"
#include "knob_journal.h"
#include "lava_api.h"
#include "lava_job.h"
#include "lava_log.h"
#include "variant.h"

#define LAVA_NOTE_KIND "lava-job"
#define LAVA_POLL_NS 500000000L
#define LAVA_QUEUE_S 3600.0
#define LAVA_CANCEL_WAIT_S 120.0

/* A console line of the job log: agent lines go to the session. An agent
 * line with other console output before it on the same line fails it. */
struct decode {
	struct agent_session *s;
	char *err;
	size_t errsz;
};

static void console_line(void *ctx, const char *line, size_t len)
{
	struct decode *d = ctx;
	const char *agent = strstr(line, "{\"type\":\"");
	if (!agent)
		return;
	if (agent != line) {
		agent_session_fail(d->s, d->err, d->errsz, "an agent line is mixed with other console"
				   " output: %.200s", line);
		return;
	}
	agent_session_line(d->s, line, len, d->err, d->errsz);
}

/* Why a job whose agent did not finish failed: a panic on the console,
 * else LAVA's own words, else what. */
static void lava_reason(const struct lava_log_facts *f, const char *what, char *err, size_t errsz)
{
	if (f->panic[0])
		snprintf(err, errsz, "kernel panic: %s", f->panic);
	else if (f->error_type[0] || f->error_msg[0])
		snprintf(err, errsz, "%s; LAVA says: %s%s%s", what, f->error_type,
			 f->error_type[0] ? ": " : "", f->error_msg);
	else
		snprintf(err, errsz, "%s", what);
}

static int accept_kernel(void *ctx, const struct variant_kernel *k)
{
	(void)ctx;
	(void)k;
	return 0;
}

static int accept_iteration(void *ctx, size_t cell, int iteration, struct iteration_result *res)
{
	(void)ctx;
	(void)cell;
	(void)iteration;
	(void)res;
	return 0;
}

/* One pass of session s over the job log. */
static void session_pass(struct agent_session *s, const char *log, size_t len,
			 struct lava_log_facts *f, char *err, size_t errsz)
{
	struct decode d = {s, err, errsz};
	char why[512];
	if (lava_log_read(log, len, console_line, &d, f, why, sizeof(why)))
		agent_session_fail(s, err, errsz, "the job log is not a LAVA job log: %s", why);
}

/* Decode the job log text and judge it. A first pass checks every agent
 * line against the plan and stores nothing: a log that fails the checks
 * stores nothing at all. where names the job (its URL) or the log file for
 * messages. 0 when the agent ended ok; else -1 with err. */
static int decode_log(const struct variant_run *vr, const char *release, const char *log,
		      size_t len, bool skip_done, const char *where, char *err, size_t errsz)
{
	char *knob_host = xasprintf("%s%s", KNOB_HOST_GUEST_PREFIX, vr->v->name);
	struct variant_run check = *vr;
	check.on_kernel = accept_kernel;
	check.on_iteration = accept_iteration;
	check.journal = NULL;
	struct agent_session s = {.vr = &check, .label = "lava", .where = "the device",
				  .t0_s = agent_mono_s(), .want_release = release,
				  .want_cmdline = vr->v->append, .skip_done = skip_done,
				  .quiet = true};
	struct lava_log_facts f;
	char why[512];
	int rc = -1;

	err[0] = '\0';
	session_pass(&s, log, len, &f, err, errsz);
	if (!s.failed) {
		agent_session_free(&s);
		s = (struct agent_session){.vr = vr, .label = "lava", .where = "the device",
					   .t0_s = agent_mono_s(), .want_release = release,
					   .want_cmdline = vr->v->append, .knob_host = knob_host,
					   .skip_done = skip_done};
		session_pass(&s, log, len, &f, err, errsz);
		/* The device's boot is over, and every knob it changed with it. */
		if (agent_session_knobs_gone(&s, why, sizeof(why)))
			fprintf(stderr, "schedrig: variant %s: marking the device's knobs restored:"
				" %s\n", vr->v->name, why);
	}
	if (s.failed) {
		/* err says why */
	} else if (!s.hello) {
		lava_reason(&f, "the device never started the agent", err, errsz);
	} else if (!s.end) {
		lava_reason(&f, "the job log ends before the agent's last line", err, errsz);
	} else if (!s.end_ok) {
		snprintf(err, errsz, "the agent failed on the device: %s", s.end_message);
	} else {
		rc = 0;
	}
	if (rc && !s.store_failed) {
		size_t n = strlen(err);
		snprintf(err + n, errsz - n, " (%s)", where);
	}
	agent_session_free(&s);
	free(knob_host);
	return rc;
}

/* The kernel's release as the package says ("" for a bare bzImage). */
static int kernel_release(const struct variant_run *vr, char *release, size_t size, char *err,
			  size_t errsz)
{
	struct kernel_image k;
	int rc = guest_kernel_locked(vr->v->kernel, &k, err, errsz);
	if (rc == 0)
		snprintf(release, size, "%s", k.release);
	return rc;
}

/* schedrig import-lava: a job log someone else submitted. */
static int import_log(const struct variant_run *vr, char *err, size_t errsz)
{
	struct buf log = {0};
	char release[256];
	int rc = -1;

	if (kernel_release(vr, release, sizeof(release), err, errsz) ||
	    file_read(vr->lava_log, &log, err, errsz))
		goto out;
	char *note = xasprintf("variant=%s log=%s", vr->v->name, vr->lava_log);
	if (vr->note && vr->note(vr->ctx, LAVA_NOTE_KIND, note)) {
		snprintf(err, errsz, "storing the job note failed");
		free(note);
		goto out;
	}
	free(note);
	char *where = xasprintf("job log %s", vr->lava_log);
	rc = decode_log(vr, release, buf_str(&log), log.len, false, where, err, errsz);
	free(where);
out:
	buf_free(&log);
	return rc;
}

static bool plan_left(const struct variant_run *vr)
{
	for (size_t c = 0; c < vr->p->n_cells; c++)
		for (int it = 1; it <= vr->iterations; it++)
			if (!vr->done || !vr->done(vr->ctx, c, it))
				return true;
	return false;
}

/* run --resume: the variant's last job when it was submitted but its log
 * was never decoded (no note with its device), else 0. */
static long long noted_job(const struct variant_run *vr)
{
	char **msgs = NULL;
	size_t n = 0;
	long long id = 0;
	char *prefix = xasprintf("variant=%s job=", vr->v->name);
	size_t lp = strlen(prefix);

	if (vr->notes && vr->notes(vr->ctx, LAVA_NOTE_KIND, &msgs, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			long long j;
			char *end = strncmp(msgs[i], prefix, lp) ? NULL : strchr(msgs[i] + lp, ' ');
			bool decoded = strstr(msgs[i], " device=") != NULL;
			if (end) {
				*end = '\0';
				if (parse_ll(msgs[i] + lp, &j) && j > 0)
					id = decoded && j == id ? 0 : decoded ? id : j;
			}
			free(msgs[i]);
		}
	}
	free(msgs);
	free(prefix);
	return id;
}

static double mono_s(void)
{
	return agent_mono_s();
}

/* Cancel the job and wait (bounded) until LAVA says it finished. */
static void cancel_job(struct lava_api *api, const struct variant_run *vr, long long id)
{
	char why[512];
	struct lava_job_state st;
	double t0 = mono_s();

	printf("[%s] lava: canceling job %lld\n", vr->v->name, id);
	fflush(stdout);
	if (lava_api_cancel(api, id, why, sizeof(why))) {
		fprintf(stderr, "schedrig: variant %s: cancel job %lld: %s\n", vr->v->name, id, why);
		return;
	}
	while (mono_s() - t0 < LAVA_CANCEL_WAIT_S) {
		if (lava_api_job(api, id, &st, why, sizeof(why)) == 0 && !strcmp(st.state, "Finished"))
			break;
		nanosleep(&(struct timespec){0, 500000000}, NULL);
	}
}

/* Follow job id until it finished: 0 with its last state, -1 with err
 * (interrupted: canceled; the API failing; the wait bound passed). */
static int follow(struct lava_api *api, const struct variant_run *vr, long long id,
		  double bound_s, struct lava_job_state *st, char *err, size_t errsz)
{
	char last[200] = "", now[200];
	double t0 = mono_s();

	for (;;) {
		if (runner_poll_interrupt()) {
			cancel_job(api, vr, id);
			snprintf(err, errsz, "interrupted by %s: job %lld canceled",
				 strsignal(runner_interrupt_signal()), id);
			return -1;
		}
		if (lava_api_job(api, id, st, err, errsz))
			return -1;
		snprintf(now, sizeof(now), "%s %s", st->state, st->device);
		if (strcmp(now, last)) {
			printf("[%s] lava: job %lld %s%s%s after %.0f s\n", vr->v->name, id, st->state,
			       st->device[0] ? " on " : "", st->device, mono_s() - t0);
			fflush(stdout);
			snprintf(last, sizeof(last), "%s", now);
		}
		if (!strcmp(st->state, "Finished"))
			return 0;
		if (mono_s() - t0 > bound_s) {
			cancel_job(api, vr, id);
			snprintf(err, errsz, "job %lld did not finish within %.0f s: canceled", id,
				 bound_s);
			return -1;
		}
		nanosleep(&(struct timespec){0, LAVA_POLL_NS}, NULL);
	}
}

static int note(const struct variant_run *vr, char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int note(const struct variant_run *vr, char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	int rc = msg && vr->note && vr->note(vr->ctx, LAVA_NOTE_KIND, msg) ? -1 : 0;
	if (rc)
		snprintf(err, errsz, "storing the job note failed");
	free(msg);
	return rc;
}

/* Submit a new job for the steps left: 0 with its id and the release;
 * dir: its artifacts directory (caller frees; NULL when none was made). */
static int submit(struct lava_api *api, const struct variant_run *vr, long long *id,
		  char *release, size_t size, char **dir, char *err, size_t errsz)
{
	struct lava_job job;
	int rc = lava_job_prepare(vr, &job, err, errsz);
	*dir = job.dir ? xstrdup(job.dir) : NULL;
	if (rc == 0)
		rc = lava_api_submit(api, buf_str(&job.yaml), id, err, errsz);
	if (rc == 0) {
		snprintf(release, size, "%s", job.release);
		char *url = lava_api_job_url(vr->v->lab, *id);
		printf("[%s] lava: submitted job %lld: %s\n", vr->v->name, *id, url);
		fflush(stdout);
		rc = note(vr, err, errsz, "variant=%s job=%lld url=%s", vr->v->name, *id, url);
		free(url);
	}
	lava_job_free(&job);
	return rc;
}

static int lava_run(const struct variant_run *vr, char *err, size_t errsz)
{
	struct lava_api api;
	struct lava_job_state st;
	struct buf log = {0};
	char release[256] = "";
	char *dir = NULL;
	long long id = noted_job(vr);
	bool resumed = id > 0;
	int rc = -1;

	if (vr->lava_log)
		return import_log(vr, err, errsz);
	if (!plan_left(vr))
		return 0;
	if (lava_api_open(vr->v->lab, &api, err, errsz))
		return -1;
	double t0 = mono_s();
	if (resumed) {
		printf("[%s] lava: following job %lld submitted before\n", vr->v->name, id);
		if (kernel_release(vr, release, sizeof(release), err, errsz))
			goto out;
	} else if (submit(&api, vr, &id, release, sizeof(release), &dir, err, errsz)) {
		goto out;
	}
	double t_submitted = mono_s();
	double bound = 2 * (600 + 2 * vr->v->boot_timeout_s +
			    (agent_silence_limit_s(vr) - vr->v->boot_timeout_s) *
			    (double)vr->p->n_cells * vr->iterations) + LAVA_QUEUE_S;
	char *url = lava_api_job_url(vr->v->lab, id);
	int followed = follow(&api, vr, id, bound, &st, err, errsz);
	if (dir)
		lava_job_remove_files(dir);
	if (followed) {
		size_t n = strlen(err);
		snprintf(err + n, errsz - n, " (%s)", url);
		free(url);
		goto out;
	}
	double t_finished = mono_s();
	if (lava_api_logs(&api, id, &log, err, errsz)) {
		free(url);
		goto out;
	}
	rc = decode_log(vr, release, buf_str(&log), log.len, resumed, url, err, errsz);
	char nerr[256];
	if (note(vr, nerr, sizeof(nerr), "variant=%s job=%lld url=%s device=%s device_type=%s"
		 " health=%s", vr->v->name, id, url, st.device, st.device_type, st.health)) {
		snprintf(err, errsz, "%s", nerr);
		rc = -1;
	}
	if (rc && strcmp(st.health, "Complete") && !strstr(err, "kernel panic")) {
		size_t n = strlen(err);
		snprintf(err + n, errsz - n, "; job %s%s%s", st.health, st.failure[0] ? ": " : "",
			 st.failure);
	}
	double t_stored = mono_s();
	printf("[%s] lava: job %lld: submit %.1f s, LAVA %.1f s, log and store %.1f s\n",
	       vr->v->name, id, t_submitted - t0, t_finished - t_submitted, t_stored - t_finished);
	fflush(stdout);
	free(url);
out:
	if (dir)
		lava_job_remove_files(dir);
	free(dir);
	buf_free(&log);
	lava_api_close(&api);
	return rc;
}

/* Before anything runs: what the guest gets packed (a load that needs a
 * scratch disk or this machine's /usr is refused: a lab's device gets
 * neither), and what its kernel supports (guest_preflight). */
static void lava_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	guest_preflight(pf, v, false);
}

const struct variant_backend lava_backend = {
	.name = "lava",
	.run = lava_run,
	.preflight = lava_preflight,
};
