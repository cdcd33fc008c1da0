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
 * The session runs every lava variant of a run at once (variant.h: start,
 * poll, cancel, collect): each job is submitted, the session's one loop
 * looks at each in turn (printing each state change) and collects each as
 * it finishes, so jobs on different devices run side by side in the lab.
 *
 * Failures of the variant (collect or poll return -1, err ends with the
 * job's URL): the job refused; an incomplete or canceled job; a log without
 * the agent's hello or end line — "kernel panic: ..." when a console line
 * says so (LAVA calls a panicking kernel an Infrastructure error), else
 * LAVA's own error_type and error_msg; a line that fails the plan's checks.
 * The session cancels the jobs on Ctrl-C. A job that has not finished after
 * twice its own timeout plus an hour in the queue is canceled.
 *
 * A lava guest gets what a qemu guest gets but the scratch disk and the
 * share of this machine's /usr (a lab's device has neither): preflight
 * refuses a load that needs them, naming it, and so does lava_job_prepare. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent_host.h"
#include "guest_image.h"
#include "knob_journal.h"
#include "lava_api.h"
#include "lava_job.h"
#include "lava_log.h"
#include "variant.h"

#define LAVA_NOTE_KIND "lava-job"
#define LAVA_QUEUE_S 3600.0
#define LAVA_CANCEL_WAIT_S 120.0
/* A log download that fails is tried again, LAVA_LOG_RETRY_S later. */
#define LAVA_LOG_ATTEMPTS 3
#define LAVA_LOG_RETRY_S 1

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

/* One pass of session s over the job log file (read from its start). */
static void session_pass(struct agent_session *s, FILE *log, struct lava_log_facts *f,
			 char *err, size_t errsz)
{
	struct decode d = {s, err, errsz};
	char why[512];
	rewind(log);
	if (lava_log_read(log, console_line, &d, f, why, sizeof(why)))
		agent_session_fail(s, err, errsz, "the job log is not a LAVA job log: %s", why);
}

/* Decode the job log file path and judge it, reading it twice, a chunk
 * at a time. The first pass checks every agent line against the plan and
 * stores nothing: a log that fails the checks stores nothing at all.
 * where names the job (its URL) or the log file for messages. 0 when the
 * agent ended ok; else -1 with err. */
static int decode_log(const struct variant_run *vr, const char *release, const char *path,
		      bool skip_done, const char *where, char *err, size_t errsz)
{
	FILE *log = fopen(path, "r");
	if (!log) {
		snprintf(err, errsz, "%s: %s (%s)", path, strerror(errno), where);
		return -1;
	}
	char *knob_host = xasprintf("%s%s", KNOB_HOST_GUEST_PREFIX, vr->v->name);
	struct variant_run check = *vr;
	check.on_kernel = accept_kernel;
	check.on_iteration = accept_iteration;
	check.on_host = NULL;
	check.journal = NULL;
	struct agent_session s = {.vr = &check, .label = "lava", .where = "the device",
				  .t0_s = agent_mono_s(), .want_release = release,
				  .want_cmdline = vr->v->append, .skip_done = skip_done,
				  .quiet = true};
	struct lava_log_facts f;
	char why[512];
	int rc = -1;

	err[0] = '\0';
	session_pass(&s, log, &f, err, errsz);
	if (!s.failed) {
		agent_session_free(&s);
		s = (struct agent_session){.vr = vr, .label = "lava", .where = "the device",
					   .t0_s = agent_mono_s(), .want_release = release,
					   .want_cmdline = vr->v->append, .knob_host = knob_host,
					   .skip_done = skip_done};
		session_pass(&s, log, &f, err, errsz);
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
	fclose(log);
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
	char release[256];
	if (kernel_release(vr, release, sizeof(release), err, errsz))
		return -1;
	char *note = xasprintf("variant=%s log=%s", vr->v->name, vr->lava_log);
	int rc = vr->note ? vr->note(vr->ctx, LAVA_NOTE_KIND, note) : 0;
	free(note);
	if (rc) {
		snprintf(err, errsz, "storing the job note failed");
		return -1;
	}
	char *where = xasprintf("job log %s", vr->lava_log);
	rc = decode_log(vr, release, vr->lava_log, false, where, err, errsz);
	free(where);
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

/* dir when it is a directory of the lab's artifacts dir (DIR/NAME, NAME
 * neither "." nor ".." nor holding '/'): a copy; else NULL. A note is read
 * back from the database, so it is not trusted to name another place. */
static char *artifacts_subdir(const struct cfg_lab *lab, const char *dir)
{
	size_t n = lab->artifacts_dir ? strlen(lab->artifacts_dir) : 0;
	if (!n || strncmp(dir, lab->artifacts_dir, n) || dir[n] != '/')
		return NULL;
	const char *name = dir + n + 1;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return NULL;
	return xstrdup(dir);
}

/* run --resume: the variant's last job when it was submitted (note
 * "variant=V job=N url=U dir=D") but has no end note (" device=...": its
 * log was decoded, or the rig canceled it), with the directory of its
 * files (NULL: unknown); id 0 when there is none. */
static long long noted_job(const struct variant_run *vr, char **dir)
{
	char **msgs = NULL;
	size_t n = 0;
	long long id = 0;
	char *prefix = xasprintf("variant=%s job=", vr->v->name);
	size_t lp = strlen(prefix);

	*dir = NULL;
	if (vr->notes && vr->notes(vr->ctx, LAVA_NOTE_KIND, &msgs, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			long long j;
			char *end = strncmp(msgs[i], prefix, lp) ? NULL : strchr(msgs[i] + lp, ' ');
			bool ended = strstr(msgs[i], " device=") != NULL;
			const char *d = strstr(msgs[i], " dir=");
			if (end) {
				*end = '\0';
				if (parse_ll(msgs[i] + lp, &j) && j > 0 && !(ended && j != id)) {
					free(*dir);
					*dir = !ended && d ? artifacts_subdir(vr->v->lab, d + 5) : NULL;
					id = ended ? 0 : j;
				}
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

static int note(const struct variant_run *vr, char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int note(const struct variant_run *vr, char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	int rc = vr->note && vr->note(vr->ctx, LAVA_NOTE_KIND, msg) ? -1 : 0;
	if (rc)
		snprintf(err, errsz, "storing the job note failed");
	free(msg);
	return rc;
}

/* One variant's job, from submit (or, run --resume, from its noted id) to
 * its stored samples; or, schedrig import-lava, a job log file. */
struct variant_job {
	const struct variant_run *vr;
	struct lava_api api;
	bool api_open;
	long long id;
	bool resumed;
	char release[256];
	char *dir; /* the job's artifacts (NULL: none made) */
	char *url;
	struct lava_job_state st;
	char last[200];    /* the state last printed */
	double bound_s;    /* the wait's bound, from t_submitted */
	double t0, t_prepared, t_submitted, t_finished, t_canceled; /* mono_s; 0 not yet */
	double t_api_failing; /* since when the lab's API fails; 0 it answers */
	bool ended_badly; /* poll said -1: nothing to collect */
	bool lost;        /* the API failed for good: the job may still run */
};

static void job_free(struct variant_job *j)
{
	if (j->dir)
		lava_job_remove_files(j->dir);
	free(j->dir);
	free(j->url);
	if (j->api_open)
		lava_api_close(&j->api);
	free(j);
}

/* Submit a new job for the steps left: 0 with its id, release and files. */
static int submit(struct variant_job *j, char *err, size_t errsz)
{
	const struct variant_run *vr = j->vr;
	struct lava_job job;
	int rc = lava_job_prepare(vr, &job, err, errsz);
	j->t_prepared = mono_s();
	j->dir = job.dir ? xstrdup(job.dir) : NULL;
	if (rc == 0)
		rc = lava_api_submit(&j->api, buf_str(&job.yaml), &j->id, err, errsz);
	if (rc == 0) {
		snprintf(j->release, sizeof(j->release), "%s", job.release);
		char *url = lava_api_job_url(vr->v->lab, j->id);
		printf("[%s] lava: submitted job %lld: %s\n", vr->v->name, j->id, url);
		fflush(stdout);
		rc = note(vr, err, errsz, "variant=%s job=%lld url=%s dir=%s", vr->v->name, j->id,
			  url, j->dir ? j->dir : "");
		free(url);
	}
	lava_job_free(&job);
	return rc;
}

/* The wait's bound: twice what the job itself may take (lava_job.h), plus
 * an hour in the lab's queue. */
static double wait_bound_s(const struct variant_run *vr)
{
	return 2 * (600 + 2 * vr->v->boot_timeout_s +
		    (agent_silence_limit_s(vr) - vr->v->boot_timeout_s) *
		    (double)vr->p->n_cells * vr->iterations) + LAVA_QUEUE_S;
}

static int lava_start(const struct variant_run *vr, struct variant_job **jobp, char *err,
		      size_t errsz)
{
	*jobp = NULL;
	if (!vr->lava_log && !plan_left(vr))
		return 0;
	struct variant_job *j = xcalloc(1, sizeof(*j));
	j->vr = vr;
	j->t0 = mono_s();
	if (vr->lava_log) {
		*jobp = j;
		return 0;
	}
	j->id = noted_job(vr, &j->dir); /* its files go when it is over */
	j->resumed = j->id > 0;
	int rc = lava_api_open(vr->v->lab, &j->api, err, errsz);
	j->api_open = rc == 0;
	if (rc == 0 && j->resumed) {
		printf("[%s] lava: following job %lld submitted before\n", vr->v->name, j->id);
		fflush(stdout);
		rc = kernel_release(vr, j->release, sizeof(j->release), err, errsz);
	} else if (rc == 0) {
		rc = submit(j, err, errsz);
	}
	if (rc) {
		job_free(j);
		return -1;
	}
	j->url = lava_api_job_url(vr->v->lab, j->id);
	j->t_submitted = mono_s();
	j->bound_s = wait_bound_s(vr);
	*jobp = j;
	return 0;
}

static void lava_cancel(struct variant_job *j)
{
	char why[512];
	if (j->t_finished > 0 || !j->api_open) {
		j->ended_badly = true; /* over already: drop what it holds */
		return;
	}
	if (j->t_canceled > 0)
		return;
	j->t_canceled = mono_s();
	printf("[%s] lava: canceling job %lld\n", j->vr->v->name, j->id);
	fflush(stdout);
	if (lava_api_cancel(&j->api, j->id, why, sizeof(why)))
		fprintf(stderr, "schedrig: variant %s: cancel job %lld: %s\n", j->vr->v->name, j->id,
			why);
}

/* Print the job's state when it changed since the last look. */
static void print_state(struct variant_job *j)
{
	char now[sizeof(j->last)];
	snprintf(now, sizeof(now), "%s %s", j->st.state, j->st.device);
	if (!strcmp(now, j->last))
		return;
	printf("[%s] lava: job %lld %s%s%s after %.0f s\n", j->vr->v->name, j->id, j->st.state,
	       j->st.device[0] ? " on " : "", j->st.device, mono_s() - j->t_submitted);
	fflush(stdout);
	snprintf(j->last, sizeof(j->last), "%s", now);
}

/* The job is over: files removed, time kept. 1, or -1 when it was
 * canceled by the rig (err says why). */
static int job_over(struct variant_job *j, const char *why, char *err, size_t errsz)
{
	j->t_finished = mono_s();
	if (j->dir) {
		lava_job_remove_files(j->dir);
		free(j->dir);
		j->dir = NULL;
	}
	if (!why)
		return 1;
	j->ended_badly = true;
	snprintf(err, errsz, "%s (%s)", why, j->url);
	return -1;
}

/* A look at the job failed (why): 0 while the lab's API has failed for
 * less than the lab's api_grace_s (a restart, a network blip), then -1:
 * the job is lost to this run, its files kept (it may still run and fetch
 * them), no end note, so run --resume follows it. */
static int api_failed(struct variant_job *j, double now, const char *why, char *err,
		      size_t errsz)
{
	double grace_s = j->vr->v->lab->api_grace_s;
	if (j->t_api_failing == 0) {
		j->t_api_failing = now;
		printf("[%s] lava: job %lld: the lab does not answer (%s); trying for %.0f s\n",
		       j->vr->v->name, j->id, why, grace_s);
		fflush(stdout);
	}
	if (now - j->t_api_failing < grace_s)
		return 0;
	j->lost = j->ended_badly = true;
	snprintf(err, errsz, "the lab's API failed for %.0f s (%s): job %lld may still run there"
		 " (%s; its files are kept in %s; run --resume follows it)", grace_s, why, j->id,
		 j->url, j->dir ? j->dir : "the artifacts dir");
	free(j->dir);
	j->dir = NULL;
	return -1;
}

static int lava_poll(struct variant_job *j, char *err, size_t errsz)
{
	char why[600];
	if (!j->api_open)
		return 1; /* a job log file: nothing to wait for */
	double now = mono_s();
	if (j->t_canceled == 0 && now - j->t_submitted > j->bound_s)
		lava_cancel(j);
	if (lava_api_job(&j->api, j->id, &j->st, why, sizeof(why)))
		return api_failed(j, now, why, err, errsz);
	j->t_api_failing = 0;
	print_state(j);
	bool finished = !strcmp(j->st.state, "Finished");
	if (!finished && !(j->t_canceled > 0 && now - j->t_canceled > LAVA_CANCEL_WAIT_S))
		return 0;
	if (j->t_canceled == 0)
		return job_over(j, NULL, err, errsz);
	if (j->t_submitted + j->bound_s < j->t_canceled)
		snprintf(why, sizeof(why), "job %lld did not finish within %.0f s: canceled", j->id,
			 j->bound_s);
	else if (runner_interrupt_signal())
		snprintf(why, sizeof(why), "interrupted by %s: job %lld canceled",
			 strsignal(runner_interrupt_signal()), j->id);
	else
		snprintf(why, sizeof(why), "the run stopped: job %lld canceled", j->id);
	return job_over(j, why, err, errsz);
}

/* The job is over for this run: its end note, with its device (run
 * --resume then leaves it alone). 0, or -1 with err (store failed). */
static int end_note(struct variant_job *j, char *err, size_t errsz)
{
	return note(j->vr, err, errsz, "variant=%s job=%lld url=%s device=%s device_type=%s"
		    " health=%s", j->vr->v->name, j->id, j->url, j->st.device, j->st.device_type,
		    j->st.health);
}

/* Download the finished job's log into the run's directory: up to
 * LAVA_LOG_ATTEMPTS tries, each going on from the lines the one before
 * got (lava_api_logs). 0 with *path (caller frees), 1 over the lab's cap
 * (the part removed), -1 with the part kept for run --resume; err says
 * why and what follows. */
static int download_log(struct variant_job *j, char **path, char *err, size_t errsz)
{
	*path = xasprintf("%s/lava-job-%lld.yaml", j->vr->work_dir, j->id);
	int rc = -1;
	for (int attempt = 1; attempt <= LAVA_LOG_ATTEMPTS; attempt++) {
		rc = lava_api_logs(&j->api, j->id, *path, err, errsz);
		if (rc >= 0)
			break;
		printf("[%s] lava: job %lld: the log's download failed (try %d of %d): %s\n",
		       j->vr->v->name, j->id, attempt, LAVA_LOG_ATTEMPTS, err);
		fflush(stdout);
		if (attempt < LAVA_LOG_ATTEMPTS)
			sleep(LAVA_LOG_RETRY_S);
	}
	size_t n = strlen(err);
	if (rc < 0) {
		snprintf(err + n, errsz - n, "; nothing of job %lld is stored; the log's complete"
			 " lines so far are kept in %s.part, and run --resume goes on from them",
			 j->id, *path);
	} else if (rc > 0) {
		snprintf(err + n, errsz - n, "; nothing of job %lld is stored (raise log_max_mb, or"
			 " fetch the log with lavacli and store it with schedrig import-lava)",
			 j->id);
		char *part = xasprintf("%s.part", *path);
		unlink(part);
		free(part);
	}
	if (rc) {
		free(*path);
		*path = NULL;
	}
	return rc;
}

/* Where the job's time went, from the rig's start of it (lava_start) to
 * its samples stored: the job rendered and its files written into the
 * artifacts dir, the submit, LAVA's own submit to end (its clock), how
 * long after that the rig's look saw it finished, the log's download, its
 * check and store (bench/lava-overhead.sh reads this line). */
static void print_times(const struct variant_job *j, double t_log, double t_check)
{
	double waited = j->t_finished - j->t_submitted;
	printf("[%s] lava: job %lld: render and upload %.2f s, submit %.2f s, LAVA %.2f s,"
	       " poll lag %.2f s, log %.2f s, check and store %.2f s\n", j->vr->v->name, j->id,
	       j->t_prepared > 0 ? j->t_prepared - j->t0 : 0.0,
	       j->t_prepared > 0 ? j->t_submitted - j->t_prepared : 0.0,
	       isnan(j->st.lava_s) ? waited : j->st.lava_s,
	       isnan(j->st.lava_s) ? 0.0 : waited - j->st.lava_s, t_check - t_log,
	       mono_s() - t_check);
	fflush(stdout);
}

/* Decode and store the finished job's downloaded log (at path, removed
 * once stored; kept when it fails, for a look). */
static int collect_job(struct variant_job *j, const char *path, double t_log, char *err,
		       size_t errsz)
{
	const struct variant_run *vr = j->vr;
	double t_check = mono_s();
	int rc = decode_log(vr, j->release, path, j->resumed, j->url, err, errsz);
	if (rc && strcmp(j->st.health, "Complete") && !strstr(err, "kernel panic")) {
		size_t n = strlen(err);
		snprintf(err + n, errsz - n, "; job %s%s%s", j->st.health,
			 j->st.failure[0] ? ": " : "", j->st.failure);
	}
	if (rc == 0)
		unlink(path);
	print_times(j, t_log, t_check);
	return rc;
}

/* A job that ended badly (poll said why, or the run stopped) stores
 * nothing, and one lost (the API failed) leaves no end note, so run
 * --resume follows it. A finished one is downloaded, then noted as over,
 * then decoded: one whose download failed leaves no end note either, so
 * run --resume downloads the rest; one over the cap is over (noted). */
static int lava_collect(struct variant_job *j, char *err, size_t errsz)
{
	int rc = -1;
	char nerr[256], *path = NULL;
	double t_log = mono_s();
	if (!j->api_open)
		rc = j->ended_badly ? -1 : import_log(j->vr, err, errsz);
	else if (j->lost)
		; /* poll said why */
	else if (!j->ended_badly && (rc = download_log(j, &path, err, errsz)) < 0)
		; /* kept for run --resume */
	else if (end_note(j, nerr, sizeof(nerr)))
		rc = err_printf(err, errsz, "%s", nerr);
	else
		rc = path ? collect_job(j, path, t_log, err, errsz) : -1;
	free(path);
	job_free(j);
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
	.run = NULL,
	.start = lava_start,
	.poll = lava_poll,
	.cancel = lava_cancel,
	.collect = lava_collect,
	.preflight = lava_preflight,
};
