/* track --follow: which commits, and a step's run (track_follow_impl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "bisect_choice.h"
#include "config.h"
#include "kbuild_git.h"
#include "plan.h"
#include "track_follow_impl.h"

/* The follow's load and metric when it has none yet: the config's
 * primary ones (adaptive_primary), stored once the follow is. 0, or -1
 * with err. */
static int decide_metric(struct follow *fw, const struct experiment *e, char *err, size_t errsz)
{
	const struct cfg_load *load;
	const char *metric;
	if (fw->f.metric)
		return 0;
	if (!adaptive_primary(e, &load, &metric))
		return err_printf(err, errsz, "%s: no measured load to follow: give --metric"
				  " LOAD:METRIC", fw->f.config_path);
	fw->f.load = xstrdup(load->name);
	fw->f.metric = xstrdup(metric);
	return fw->f.id ? store_follow_choice(fw->st, fw->f.id, fw->f.load, fw->f.metric, fw->f.op,
					      fw->f.cell, err, errsz) : 0;
}

int track_follow_prepare(struct follow *fw, const char *path, const char *text,
			 const char *tree, const char *branch, char *err, size_t errsz)
{
	char hash[41], why[1024];
	if (track_target_read(path, text, tree, &fw->t, err, errsz))
		return -1;
	struct experiment *e = config_parse(path, text, strlen(text), err, errsz);
	struct plan p = {0};
	int rc = e && plan_build(e, &p, err, errsz) == 0 ? 0 : -1;
	if (rc == 0 && kgit_resolve(tree, branch, hash, why, sizeof(why)))
		rc = err_printf(err, errsz, "--branch: %s", why);
	if (rc == 0) {
		fw->config_name = xstrdup(e->name);
		rc = decide_metric(fw, e, err, errsz);
	}
	if (rc == 0 && fw->f.metric) {
		char *m = xasprintf("%s:%s", fw->f.load, fw->f.metric);
		rc = bisect_choice_check(e, &p, m, fw->f.load, fw->f.op, fw->f.cell, !fw->f.cell, err,
					 errsz);
		free(m);
	}
	plan_free(&p);
	experiment_free(e);
	return rc;
}

/* The run's status ("" when unknown). */
static void run_status(struct store *st, int64_t id, char *dst, size_t size)
{
	struct run_owner ow;
	char err[256];
	dst[0] = '\0';
	if (id && store_run_owner(st, id, &ow, err, sizeof(err)) == 0)
		snprintf(dst, size, "%s", ow.status);
}

static bool run_ended(struct store *st, int64_t id)
{
	char status[32];
	run_status(st, id, status, sizeof(status));
	return !strcmp(status, "complete") || !strcmp(status, "failed");
}

/* Run step s (run_id 0: its config, else run --resume of its run) and
 * say how it went. 0, or -1 with err. */
static int run_step(struct follow *fw, struct stored_follow_step *s, char *err, size_t errsz)
{
	struct argv a = {0};
	char status[32];
	char *log = xasprintf("%s/%d.log", fw->dir, s->seq);
	if (!track_follow_argv(fw->self, &a, "run", "--resume", s->run_id))
		argv_add(&a, s->config_path);
	argv_add(&a, "--db");
	argv_add(&a, fw->db);
	argv_add(&a, "--quiet");
	printf("step %d: commit %.12s %s: %s ...\n", s->seq, s->commit_hash, s->subject,
	       s->run_id ? "resuming its run" : "building and running");
	int code = track_follow_child(&a, log, err, errsz);
	argv_free(&a);
	int rc = code < 0 || store_follow_step_link(fw->st, fw->f.id, s->seq, &s->run_id, err,
						    errsz) ? -1 : 0;
	if (rc == 0) {
		char last[512];
		run_status(fw->st, s->run_id, status, sizeof(status));
		file_last_line(log, last, sizeof(last));
		if (s->run_id)
			printf("step %d: run %lld %s (log %s)\n", s->seq, (long long)s->run_id, status,
			       log);
		else
			printf("step %d: no run began: %s (log %s)\n", s->seq, last, log);
	}
	free(log);
	return rc;
}

/* Add and run step seq of commit hash, then seek change points. */
static int new_step(struct follow *fw, int seq, const char *hash, const char *subject,
		    char *err, size_t errsz)
{
	char *path = xasprintf("%s/%d-%.12s.yaml", fw->dir, seq, hash);
	char *text = track_step_config(fw->f.config_path, fw->f.config_text, &fw->t, hash, err,
				       errsz);
	int rc = !text || file_write(path, text, strlen(text), err, errsz) ||
		 store_follow_step_add(fw->st, fw->f.id, seq, hash, subject, path, err, errsz) ? -1 : 0;
	struct stored_follow_step s = {.seq = seq, .commit_hash = (char *)hash,
				       .subject = (char *)subject, .config_path = path};
	if (rc == 0)
		rc = run_step(fw, &s, err, errsz);
	if (rc == 0 && !track_follow_stopped())
		rc = track_follow_detect(fw, err, errsz);
	free(text);
	free(path);
	return rc;
}

int track_follow_unfinished(struct follow *fw, char *err, size_t errsz)
{
	struct stored_follow_step *s;
	size_t n;
	if (store_follow_steps(fw->st, fw->f.id, &s, &n, err, errsz))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc && !track_follow_stopped(); i++) {
		if (!s[i].run_id)
			rc = store_follow_step_link(fw->st, fw->f.id, s[i].seq, &s[i].run_id, err, errsz);
		if (rc || run_ended(fw->st, s[i].run_id))
			continue;
		rc = run_step(fw, &s[i], err, errsz);
		if (rc == 0 && !track_follow_stopped())
			rc = track_follow_detect(fw, err, errsz);
	}
	store_follow_steps_free(s, n);
	if (rc == 0 && !track_follow_stopped())
		rc = track_follow_changes_unfinished(fw, err, errsz);
	return rc;
}

/* The commits of this look (track_follow.h): after last (NULL: the first
 * look), every Nth and the newest, into *out. 0, or -1 with err. */
static int pending(struct follow *fw, const char *last, const char *tip, struct kgit_range *out,
		   char *err, size_t errsz)
{
	struct kgit_range r = {0};
	const char *from = last ? last : fw->f.since;
	*out = (struct kgit_range){0};
	if (from && kgit_first_parent_range(fw->f.tree, from, tip, &r, err, errsz))
		return -1;
	if (!last) {
		/* The first look: the tip, or --since's commit before the rest. */
		const char *first = from ? from : tip;
		out->c = xcalloc(1, sizeof(*out->c));
		snprintf(out->c[0].hash, sizeof(out->c[0].hash), "%s", first);
		out->c[0].subject = kgit_subject(fw->f.tree, first);
		out->n = 1;
	}
	int every = fw->f.every > 0 ? fw->f.every : 1;
	for (size_t k = 0; k < r.n; k++) {
		if ((k + 1) % (size_t)every && k + 1 < r.n)
			continue;
		out->c = xrealloc(out->c, (out->n + 1) * sizeof(*out->c));
		out->c[out->n] = r.c[k];
		out->c[out->n++].subject = xstrdup(r.c[k].subject);
	}
	kgit_range_free(&r);
	return 0;
}

int track_follow_pass(struct follow *fw, char *err, size_t errsz)
{
	char tip[41], why[1024];
	struct stored_follow_step *s;
	size_t n;
	if (kgit_resolve(fw->f.tree, fw->f.branch, tip, why, sizeof(why)))
		return err_printf(err, errsz, "--branch: %s", why);
	if (store_follow_steps(fw->st, fw->f.id, &s, &n, err, errsz))
		return -1;
	const char *last = n ? s[n - 1].commit_hash : NULL;
	struct kgit_range todo = {0};
	int rc = last && !strcmp(last, tip) ? 0 : pending(fw, last, tip, &todo, err, errsz);
	if (rc == 0)
		printf("follow %lld: %s at %.12s: %zu commit(s) to run\n", (long long)fw->f.id,
		       fw->f.branch, tip, todo.n);
	for (size_t i = 0; i < todo.n && !rc && !track_follow_stopped(); i++)
		rc = new_step(fw, (int)(n + i + 1), todo.c[i].hash, todo.c[i].subject, err, errsz);
	kgit_range_free(&todo);
	store_follow_steps_free(s, n);
	return rc;
}
