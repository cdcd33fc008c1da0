/* track --follow: the request, the follow's set-up and its loop
 * (track_follow.h); a step's run here, a change's bisection and mail in
 * track_follow_act.c. */
#include "track_follow.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmdsetup.h"
#include "kbuild_git.h"
#include "provenance.h"
#include "store_track.h"
#include "track_follow_impl.h"

void track_follow_request_init(struct track_follow_request *r)
{
	*r = (struct track_follow_request){.poll_s = 600};
	track_opts_init(&r->detector);
}

int track_follow_check(const struct track_follow_request *r, char *err, size_t errsz)
{
	if (r->resume && (r->branch || r->tree || r->since || r->every || r->metric || r->op ||
			  r->cell || r->detector_given || r->mail.n || r->mail_dir))
		return err_printf(err, errsz, "--resume keeps the follow's own --branch, --tree,"
				  " --since, --every, --metric, --op, --cell, detector and mail");
	if (!r->resume && (!r->branch || !r->tree))
		return err_printf(err, errsz, "--follow CONFIG needs --branch REF and --tree DIR");
	if (r->once && r->poll_given)
		return err_printf(err, errsz, "--once looks once: it does not go with --poll-s");
	const char *colon = r->metric ? strchr(r->metric, ':') : NULL;
	if (r->metric && (!colon || colon == r->metric || !colon[1] || strchr(colon + 1, ':')))
		return err_printf(err, errsz, "--follow wants --metric LOAD:METRIC (the bisection's"
				  " form), not '%s'", r->metric);
	bool any_mail = r->mail.n || r->mail_dir;
	if (any_mail && (!r->mail_from || !r->mail_to))
		return err_printf(err, errsz, "mailing a regression needs --from and --to");
	if (any_mail && (r->mail_smtp != 0) + (r->mail_dir != NULL) != 1)
		return err_printf(err, errsz, "give one of --smtp-url and --mail-dir for the mails");
	for (size_t i = 0; i < r->mail.n; i++)
		if (!r->mail_smtp && (!strcmp(r->mail.v[i], "--smtp-user") ||
				      !strcmp(r->mail.v[i], "--insecure")))
			return err_printf(err, errsz, "%s goes with --smtp-url", r->mail.v[i]);
	return 0;
}

/* The stored mail options: each argument a line, --mail-dir DIR too. */
static char *mail_lines(const struct track_follow_request *r)
{
	if (!r->mail.n && !r->mail_dir)
		return NULL;
	struct buf b = {0};
	for (size_t i = 0; i < r->mail.n; i++)
		buf_printf(&b, "%s\n", r->mail.v[i]);
	if (r->mail_dir) {
		char abs[PATH_MAX];
		buf_printf(&b, "--mail-dir\n%s\n", realpath(r->mail_dir, abs) ? abs : r->mail_dir);
	}
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/* May this process take follow f over? 0, or -1 with err. */
static int check_free(const struct stored_follow *f, const struct provenance *here, char *err,
		      size_t errsz)
{
	if (f->host && f->host[0] && strcmp(f->host, here->host))
		return err_printf(err, errsz, "follow %lld was begun on host %s, not on %s: go on"
				  " with it there", (long long)f->id, f->host, here->host);
	const char *status = provenance_run_status(f->status, f->host, f->boot_id, f->rig_pid,
						   f->rig_start_ticks);
	if (!strcmp(status, "running") && f->rig_start_ticks > 0 && f->rig_pid != here->pid)
		return err_printf(err, errsz, "follow %lld is running (pid %lld): let it end or stop"
				  " it first", (long long)f->id, f->rig_pid);
	return 0;
}

/* Claim follow id for this process (refused while another follows it)
 * and read it into fw->f. 0, or -1 with err. */
static int claim(struct follow *fw, int64_t id, char *err, size_t errsz)
{
	struct provenance here;
	provenance_read(&here);
	struct rig_id rig = {here.pid, here.start_ticks, here.boot_id};
	if (store_begin(fw->st, err, errsz))
		return -1;
	int rc = store_follow_get(fw->st, id, &fw->f, err, errsz);
	if (rc == 0)
		rc = check_free(&fw->f, &here, err, errsz);
	if (rc == 0)
		rc = store_follow_claim(fw->st, fw->f.id, here.host, &rig, err, errsz);
	if (rc) {
		store_rollback(fw->st);
		return -1;
	}
	return store_commit(fw->st, err, errsz);
}

/* The stopped follow id of this config: claimed, its text the config's,
 * prepared. 0, or -1 with err. */
static int go_on(struct follow *fw, int64_t id, const char *text, char *err, size_t errsz)
{
	char serr[512];
	if (claim(fw, id, err, errsz))
		return -1;
	if (strcmp(fw->f.config_text, text)) {
		snprintf(err, errsz, "%s changed since follow %lld began: follow it under another"
			 " config name, or --resume %lld to go on with the text it began with",
			 fw->f.config_path, (long long)id, (long long)id);
		store_follow_end(fw->st, fw->f.id, "stopped", NULL, serr, sizeof(serr));
		return -1;
	}
	if (track_follow_prepare(fw, fw->f.config_path, fw->f.config_text, fw->f.tree,
				 fw->f.branch, err, errsz)) {
		store_follow_end(fw->st, fw->f.id, "failed", err, serr, sizeof(serr));
		return -1;
	}
	printf("follow %lld: going on with branch %s of %s\n", (long long)id, fw->f.branch,
	       fw->f.tree);
	return 0;
}

/* A new follow of r (config cfg, its text, the tree, the directory it is
 * begun in), prepared and recorded. 0, or -1 with err; *usage when the
 * config cannot be followed. */
static int begin(struct follow *fw, const struct track_follow_request *r, const char *cfg,
		 const char *text, const char *tree, const char *cwd, bool *usage, char *err,
		 size_t errsz)
{
	struct provenance here;
	char since[41] = "", why[1024];
	provenance_read(&here);
	if (r->since && kgit_resolve(tree, r->since, since, why, sizeof(why))) {
		*usage = true;
		return err_printf(err, errsz, "--since: %s", why);
	}
	fw->f = (struct stored_follow){
		.config_path = xstrdup(cfg), .config_text = xstrdup(text), .tree = xstrdup(tree),
		.branch = xstrdup(r->branch), .every = r->every ? r->every : 1,
		.since = since[0] ? xstrdup(since) : NULL,
		.load = r->metric ? xasprintf("%.*s", (int)strcspn(r->metric, ":"), r->metric) : NULL,
		.metric = r->metric ? xstrdup(strchr(r->metric, ':') + 1) : NULL,
		.op = r->op ? xstrdup(r->op) : NULL, .cell = r->cell ? xstrdup(r->cell) : NULL,
		.alpha = r->detector.alpha, .permutations = r->detector.permutations,
		.seed = (int64_t)r->detector.seed, .min_change_pct = r->detector.min_change_pct,
		.mail = mail_lines(r), .cwd = xstrdup(cwd), .host = xstrdup(here.host),
		.boot_id = xstrdup(here.boot_id), .rig_pid = here.pid,
		.rig_start_ticks = here.start_ticks,
	};
	if (track_follow_prepare(fw, cfg, text, tree, r->branch, err, errsz)) {
		*usage = true;
		return -1;
	}
	fw->f.build = xstrdup(fw->t.entry);
	if (store_follow_begin(fw->st, &fw->f, err, errsz))
		return -1;
	printf("follow %lld: branch %s of %s, config %s (variant %s, kernels: %s at each"
	       " commit), %s:%s\n", (long long)fw->f.id, r->branch, tree, cfg, fw->t.variant,
	       fw->t.entry, fw->f.load, fw->f.metric);
	return 0;
}

/* A new follow of r, or the stopped one of the same config, tree and
 * branch. 0; EXIT_USAGE (the config cannot be followed); 1. */
static int setup_new(struct follow *fw, const struct track_follow_request *r)
{
	char err[2048], cfg[PATH_MAX], tree[PATH_MAX], cwd[PATH_MAX];
	struct buf text = {0};
	if (!realpath(r->config, cfg) || file_read(cfg, &text, err, sizeof(err))) {
		fprintf(stderr, "schedrig track: %s: %s\n", r->config, strerror(errno));
		buf_free(&text);
		return EXIT_USAGE;
	}
	if (!realpath(r->tree, tree) || !getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "schedrig track: --tree %s: %s\n", r->tree, strerror(errno));
		buf_free(&text);
		return EXIT_USAGE;
	}
	int64_t id;
	bool usage = false;
	int rc = store_follow_find(fw->st, cfg, tree, r->branch, &id, err, sizeof(err));
	if (rc == 0)
		rc = id ? go_on(fw, id, buf_str(&text), err, sizeof(err))
			: begin(fw, r, cfg, buf_str(&text), tree, cwd, &usage, err, sizeof(err));
	buf_free(&text);
	if (rc)
		fprintf(stderr, "schedrig track: %s\n", err);
	return rc == 0 ? 0 : usage ? EXIT_USAGE : 1;
}

/* --resume [ID]: the follow claimed, its config read again. 0, or 1. */
static int setup_resume(struct follow *fw, const struct track_follow_request *r)
{
	char err[2048];
	if (claim(fw, r->id, err, sizeof(err))) {
		fprintf(stderr, "schedrig track: %s\n", err);
		return 1;
	}
	/* Its steps run where it was begun: relative paths of its config mean
	 * what they meant. */
	int rc = chdir(fw->f.cwd) ? err_printf(err, sizeof(err), "the follow's directory %s: %s",
					       fw->f.cwd, strerror(errno))
			       : track_follow_prepare(fw, fw->f.config_path, fw->f.config_text,
						      fw->f.tree, fw->f.branch, err, sizeof(err));
	if (rc) {
		char serr[512];
		fprintf(stderr, "schedrig track: %s\n", err);
		store_follow_end(fw->st, fw->f.id, "failed", err, serr, sizeof(serr));
		return 1;
	}
	printf("follow %lld: resumed, branch %s of %s\n", (long long)fw->f.id, fw->f.branch,
	       fw->f.tree);
	return 0;
}

/* This binary and the database's absolute path, before anything changes
 * the current directory. 0, or 1 after a message. */
static int self_and_db(struct follow *fw, const char *db)
{
	ssize_t len = readlink("/proc/self/exe", fw->self, sizeof(fw->self) - 1);
	if (len <= 0 || !realpath(db, fw->db)) {
		fprintf(stderr, "schedrig track: %s: %s\n", len <= 0 ? "/proc/self/exe" : db,
			strerror(errno));
		return 1;
	}
	fw->self[len] = '\0';
	return 0;
}

/* The follow's directory (DB's directory/track/ID), made. 0, or -1 with
 * err. */
static int make_dir(struct follow *fw, char *err, size_t errsz)
{
	char *copy = xstrdup(fw->db);
	fw->dir = xasprintf("%s/track/%lld", dirname(copy), (long long)fw->f.id);
	free(copy);
	return mkdir_p(fw->dir, err, errsz);
}

/* Sleep s seconds, or until a signal stops the follow. */
static void pause_s(double s)
{
	for (double left = s; left > 0 && !track_follow_stopped(); left -= 0.25)
		nanosleep(&(struct timespec){.tv_nsec = 250000000}, NULL);
}

/* The loop: what an earlier schedrig left, then the branch, once or every
 * poll_s until stopped. 0, or -1 with err. */
static int follow_loop(struct follow *fw, const struct track_follow_request *r, char *err,
		       size_t errsz)
{
	if (track_follow_unfinished(fw, err, errsz))
		return -1;
	for (;;) {
		if (track_follow_stopped())
			return 0;
		if (track_follow_pass(fw, err, errsz))
			return -1;
		if (r->once || track_follow_stopped())
			return 0;
		printf("follow %lld: looking at %s again in %g s\n", (long long)fw->f.id,
		       fw->f.branch, r->poll_s);
		pause_s(r->poll_s);
	}
}

void track_follow_free(struct follow *fw)
{
	store_follow_free(&fw->f);
	track_target_free(&fw->t);
	free(fw->config_name);
	free(fw->dir);
}

int track_follow_run(struct store *st, const struct track_follow_request *r)
{
	struct follow fw = {.st = st};
	char err[2048] = "";
	struct sigaction sa = {.sa_handler = track_follow_on_stop}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	setvbuf(stdout, NULL, _IOLBF, 0);
	int rc = self_and_db(&fw, r->db);
	if (rc == 0)
		rc = r->resume ? setup_resume(&fw, r) : setup_new(&fw, r);
	if (rc == 0 && make_dir(&fw, err, sizeof(err))) {
		char serr[512];
		fprintf(stderr, "schedrig track: %s\n", err);
		store_follow_end(st, fw.f.id, "failed", err, serr, sizeof(serr));
		rc = 1;
	}
	if (rc == 0) {
		rc = follow_loop(&fw, r, err, sizeof(err)) ? 1 : 0;
		int sig = track_follow_stopped();
		const char *status = rc ? "failed" : sig ? "interrupted" : "stopped";
		char serr[512];
		if (rc)
			fprintf(stderr, "schedrig track: %s\n", err);
		if (store_follow_end(st, fw.f.id, status, rc ? err : NULL, serr, sizeof(serr)))
			fprintf(stderr, "schedrig track: %s\n", serr);
		if (sig && !rc) {
			fprintf(stderr, "schedrig track: interrupted by %s; schedrig track --follow"
				" --resume %lld goes on\n", strsignal(sig), (long long)fw.f.id);
			rc = 128 + sig;
		} else if (!rc) {
			printf("follow %lld: stopped (schedrig track --follow --resume %lld goes on)\n",
			       (long long)fw.f.id, (long long)fw.f.id);
		}
	}
	track_follow_free(&fw);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}
