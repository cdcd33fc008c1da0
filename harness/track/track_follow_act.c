/* track --follow: the change points after a step, and what is done about
 * a regression: the commit named, or the range bisected; the result
 * mailed (track_follow_impl.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_git.h"
#include "store_bisect.h"
#include "track_follow_impl.h"

/* The history the follow watches: its config, variant, metric, op and
 * cell; of its parts (split by host fingerprint) the one holding the
 * newest run. *h NULL when there is none yet (no step had samples).
 * 0, or -1 with err (also a metric of several ops or cells). */
static int follow_history(struct follow *fw, struct track_set *set,
			  const struct track_history **h, char *err, size_t errsz)
{
	char *metric = xasprintf("%s:%s", fw->f.load, fw->f.metric);
	struct track_filter f = {.config = fw->config_name, .variant = fw->t.variant,
				 .metric = metric, .op = fw->f.op, .cell = fw->f.cell};
	int rc = track_histories_load(fw->st, &f, set, err, errsz);
	free(metric);
	*h = NULL;
	for (size_t i = 1; i < set->n && !rc; i++) {
		const struct track_history *x = &set->h[i], *h0 = &set->h[0];
		bool ops = strcmp(x->op, h0->op) != 0;
		if (ops || strcmp(x->cell, h0->cell))
			return err_printf(err, errsz, "%s:%s of %s has more than one %s ('%s', '%s'):"
					  " follow it with --%s", fw->f.load, fw->f.metric,
					  fw->config_name, ops ? "op" : "cell", ops ? h0->op : h0->cell,
					  ops ? x->op : x->cell, ops ? "op" : "cell");
	}
	int64_t newest = 0;
	for (size_t i = 0; i < set->n && !rc; i++)
		for (size_t k = 0; k < set->h[i].n; k++)
			if (set->h[i].p[k].run_id > newest) {
				newest = set->h[i].p[k].run_id;
				*h = &set->h[i];
			}
	if (rc == 0 && *h && (!fw->f.op || !fw->f.cell)) {
		/* What the samples decided, kept for the bisections. */
		free(fw->f.op);
		free(fw->f.cell);
		fw->f.op = xstrdup((*h)->op);
		fw->f.cell = xstrdup((*h)->cell);
		rc = store_follow_choice(fw->st, fw->f.id, fw->f.load, fw->f.metric, fw->f.op,
					 fw->f.cell, err, errsz);
	}
	return rc;
}

/* The newest run of commit in h (0: none). */
static int64_t run_of(const struct track_history *h, const char *commit)
{
	int64_t run = 0;
	for (size_t i = 0; i < h->n; i++)
		if (h->p[i].commit && !strcmp(h->p[i].commit, commit) && h->p[i].run_id > run)
			run = h->p[i].run_id;
	return run;
}

/* The stored mail options with --mail-dir DIR as --output DIR/FILE. */
static void mail_args(const struct follow *fw, struct argv *a, size_t k)
{
	char *lines = xstrdup(fw->f.mail), *save = NULL;
	bool dir = false;
	for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (dir) {
			argv_add(a, "--output");
			argv_addf(a, "%s/track-%lld-%zu.eml", l, (long long)fw->f.id, k);
			dir = false;
		} else if (!strcmp(l, "--mail-dir")) {
			dir = true;
		} else {
			argv_add(a, l);
		}
	}
	free(lines);
}

/* Mail change k (1-based) c: the bisection's result (schedrig mail
 * --bisection), or the runs before and after side by side. 0 sent (or
 * no mail wanted), 1 the mail failed (said), -1 with err. */
static int mail_change(struct follow *fw, size_t k, const struct stored_follow_change *c,
		       const struct track_history *h, char *err, size_t errsz)
{
	if (!fw->f.mail)
		return 0;
	struct argv a = {0};
	if (!track_follow_argv(fw->self, &a, "mail", "--bisection", c->bisection_id)) {
		argv_addf(&a, "%lld", (long long)run_of(h, c->before_commit));
		argv_addf(&a, "%lld", (long long)run_of(h, c->after_commit));
		argv_add(&a, "--columns");
		argv_add(&a, "run");
		argv_add(&a, "--load");
		argv_add(&a, fw->f.load);
		argv_add(&a, "--metric");
		argv_add(&a, fw->f.metric);
	}
	mail_args(fw, &a, k);
	argv_add(&a, "--subject");
	/* The subject has the verdict; the body, the bisection's own report. */
	const char *res = c->result ? c->result : "?", *detail = strstr(res, " -- ");
	int verdict_len = (int)(detail ? (size_t)(detail - res) : strlen(res));
	argv_addf(&a, "[schedrig track] %s %s:%s %+.2f %% between %.12s and %.12s: %.*s",
		  fw->config_name, fw->f.load, fw->f.metric, c->change_pct, c->before_commit,
		  c->after_commit, verdict_len, res);
	argv_add(&a, "--db");
	argv_add(&a, fw->db);
	char *log = xasprintf("%s/mail-%zu.log", fw->dir, k);
	int code = track_follow_child(&a, log, err, errsz);
	argv_free(&a);
	int rc = code < 0 ? -1 : code ? 1 : 0;
	if (code == 0)
		rc = store_follow_change_update(fw->st, fw->f.id, c->after_commit, c->bisection_id,
						NULL, true, err, errsz);
	if (rc >= 0)
		printf("change %zu: %s (log %s)\n", k, code ? "the mail failed" : "mailed", log);
	free(log);
	return rc < 0 ? -1 : rc;
}

/* What a bisection that ended with status and result line text says of
 * the change, as the bisect engine put it (bisect_engine.c): a patch is
 * blamed only after its confirm ("First bad point: ..."); "No single
 * first bad point: ..." (a gradual change, an ambiguous point, no step in
 * the confirm, an end that moved) blames none; refused and failed
 * bisections blame none either. A short phrase for the mail's subject. */
const char *track_bisect_verdict(const char *status, const char *text)
{
	if (!strcmp(status, "complete") && text && !strncmp(text, "First bad point: ", 17))
		return "first bad commit confirmed by the bisection";
	if (!strcmp(status, "complete") && text && strstr(text, "gradual change over "))
		return "no single first bad commit: a gradual change";
	if (!strcmp(status, "complete") && text && !strncmp(text, "The change is in a range", 24))
		return "the change is in a range of commits (some skipped)";
	if (!strcmp(status, "complete"))
		return "no single first bad commit";
	if (!strcmp(status, "refused"))
		return "the bisection refused the range";
	return "the bisection failed";
}

/* The result of bisection id for the change (NULL while it has none):
 * its verdict (track_bisect_verdict) with the point a confirmed one names,
 * " -- ", then the engine's line as it is. The mail's subject is what
 * stands before " -- ". *final: the engine gave a verdict (complete or
 * refused), not a stop of the machine (failed). */
static char *bisection_result(struct store *st, int64_t id, bool *final)
{
	struct stored_bisection bi;
	char err[512];
	*final = false;
	if (store_bisect_get(st, id, &bi, NULL, err, sizeof(err)))
		return NULL;
	bool ended = strcmp(bi.status, "running") && strcmp(bi.status, "interrupted");
	*final = !strcmp(bi.status, "complete") || !strcmp(bi.status, "refused");
	const char *text = bi.result ? bi.result : "no result line";
	/* The named point: "First bad point: NAME (confirmed: ...". */
	bool named = !strcmp(bi.status, "complete") && !strncmp(text, "First bad point: ", 17);
	int name_len = named ? (int)strcspn(text + 17, " ") : 0;
	char *r = ended ? xasprintf("%s%s%.*s (bisection %lld, %s) -- %s",
				    track_bisect_verdict(bi.status, bi.result), named ? ": " : "",
				    name_len, named ? text + 17 : "", (long long)id, bi.status, text)
			: NULL;
	store_bisection_free(&bi);
	return r;
}

/* Will --resume bisect c again: its last bisection stopped for a reason
 * of the machine and it has attempts left? */
static bool retry_due(const struct stored_follow_change *c)
{
	return c->outcome && !strcmp(c->outcome, "retryable") &&
	       c->attempts < TRACK_FOLLOW_BISECT_ATTEMPTS;
}

/* Is what c's result says final: no retry of its bisection is due? */
static bool change_final(const struct stored_follow_change *c)
{
	return c->result && !retry_due(c);
}

/* The outcome of attempt c->attempts of change k's bisection, stored and
 * said: a verdict (final), or retryable (the bisection failed or did not
 * end for a reason of the machine), with how many attempts are left. An
 * attempt the follow's own stop cut short is not counted. 0, or -1. */
static int bisect_outcome(struct follow *fw, size_t k, struct stored_follow_change *c,
			  bool final, char *err, size_t errsz)
{
	if (!final && track_follow_stopped()) {
		c->attempts--;
		return 0;
	}
	if (!c->result)
		c->result = xasprintf("the bisection did not end (bisection %lld) -- its log says"
				      " why", (long long)c->bisection_id);
	free(c->outcome);
	c->outcome = xstrdup(final ? "verdict" : "retryable");
	int rc = store_follow_change_update(fw->st, fw->f.id, c->after_commit, c->bisection_id,
					    c->result, false, err, errsz) ||
		 store_follow_change_outcome(fw->st, fw->f.id, c->after_commit, c->outcome,
					     c->attempts, err, errsz) ? -1 : 0;
	if (rc == 0 && final)
		printf("change %zu: bisection %lld %s\n", k, (long long)c->bisection_id, c->result);
	else if (rc == 0)
		printf("change %zu: bisection %lld stopped, not a verdict (attempt %d of %d): %s; %s\n",
		       k, (long long)c->bisection_id, c->attempts, TRACK_FOLLOW_BISECT_ATTEMPTS,
		       c->result, retry_due(c) ? "track --follow --resume bisects it again"
					      : "no attempt left: not retried again");
	return rc;
}

/* Bisect change k's range (or resume its bisection, or retry it): one
 * more attempt, c->bisection_id, c->result and c->outcome set and stored
 * (bisect_outcome). 0, or -1 with err. */
static int bisect_change(struct follow *fw, size_t k, struct stored_follow_change *c, char *err,
			 size_t errsz)
{
	char *path = xasprintf("%s/change-%zu.yaml", fw->dir, k), *good = NULL, *bad = NULL;
	struct argv a = {0};
	int rc = c->bisection_id ? 0 : store_bisection_of_config(fw->st, path, &c->bisection_id,
								 err, errsz);
	bool resume = track_follow_argv(fw->self, &a, "bisect", "--resume", rc ? 0 : c->bisection_id);
	if (rc == 0 && !resume) {
		char *text = track_bisect_config(fw->f.config_path, fw->f.config_text, &fw->t,
						 c->before_commit, c->after_commit, &good, &bad, err,
						 errsz);
		rc = !text || file_write(path, text, strlen(text), err, errsz) ? -1 : 0;
		free(text);
		if (rc == 0) {
			const char *opts[] = {path, "--good", good, "--bad", bad};
			for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
				argv_add(&a, opts[i]);
			argv_add(&a, "--metric");
			argv_addf(&a, "%s:%s", fw->f.load, fw->f.metric);
			if (fw->f.op && *fw->f.op) {
				argv_add(&a, "--op");
				argv_add(&a, fw->f.op);
			}
			if (fw->f.cell && *fw->f.cell) {
				argv_add(&a, "--cell");
				argv_add(&a, fw->f.cell);
			}
		}
	}
	argv_add(&a, "--db");
	argv_add(&a, fw->db);
	char *log = xasprintf("%s/change-%zu-bisect.log", fw->dir, k);
	if (rc == 0 && retry_due(c))
		printf("change %zu: retrying bisection %lld (attempt %d of %d), its last attempt"
		       " stopped: %s\n", k, (long long)c->bisection_id, c->attempts + 1,
		       TRACK_FOLLOW_BISECT_ATTEMPTS, c->result);
	if (rc == 0) {
		printf("change %zu: bisecting %d commit(s) %.12s..%.12s (log %s) ...\n", k, c->commits,
		       c->before_commit, c->after_commit, log);
		c->attempts++;
		rc = track_follow_child(&a, log, err, errsz) < 0 ? -1 : 0;
	}
	if (rc == 0 && !c->bisection_id)
		rc = store_bisection_of_config(fw->st, path, &c->bisection_id, err, errsz);
	bool final = false;
	if (rc == 0 && c->bisection_id) {
		char *res = bisection_result(fw->st, c->bisection_id, &final);
		if (res) {
			free(c->result);
			c->result = res;
		}
	}
	if (rc == 0)
		rc = bisect_outcome(fw, k, c, final, err, errsz);
	argv_free(&a);
	free(log);
	free(path);
	free(good);
	free(bad);
	return rc;
}

/* Store c->result, a verdict the follow gave without a bisection. */
static int record_verdict(struct follow *fw, const struct stored_follow_change *c, char *err,
			  size_t errsz)
{
	return store_follow_change_update(fw->st, fw->f.id, c->after_commit, 0, c->result, false,
					  err, errsz) ||
	       store_follow_change_outcome(fw->st, fw->f.id, c->after_commit, "verdict", 0, err,
					   errsz) ? -1 : 0;
}

/* Name or bisect change k (c), then mail it. 0, or -1 with err. */
static int act(struct follow *fw, size_t k, struct stored_follow_change *c,
	       const struct track_history *h, char *err, size_t errsz)
{
	int rc = 0;
	if (!c->result && c->commits == 1) {
		char *subject = kgit_subject(fw->f.tree, c->after_commit);
		c->result = xasprintf("first bad commit %s %s (the only commit between the change"
				      " point's revisions: named by the change point, not bisected)",
				      c->after_commit, subject);
		free(subject);
		rc = record_verdict(fw, c, err, errsz);
		if (rc == 0)
			printf("change %zu: %s\n", k, c->result);
	} else if ((!c->result || retry_due(c)) && c->commits > 1) {
		rc = bisect_change(fw, k, c, err, errsz);
	} else if (!c->result) {
		c->result = xasprintf("not bisected: %.12s is not on the first-parent line of %.12s",
				      c->before_commit, c->after_commit);
		rc = record_verdict(fw, c, err, errsz);
	}
	if (rc == 0 && change_final(c) && !c->mailed_at && !track_follow_stopped())
		rc = mail_change(fw, k, c, h, err, errsz) < 0 ? -1 : 0;
	return rc;
}

/* Was a change at either of these revisions handled already? */
static bool handled(const struct stored_follow_change *rows, size_t n, const char *before,
		    const char *after)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].before_commit, before) || !strcmp(rows[i].after_commit, after))
			return true;
	return false;
}

/* Record the regression c of h (a new change, numbered n_rows + 1) and
 * act on it. 0, or -1 with err. */
static int new_change(struct follow *fw, const struct track_history *h,
		      const struct track_change *tc, size_t n_rows, char *err, size_t errsz)
{
	const struct track_point *b = &h->p[tc->index - 1], *a = &h->p[tc->index];
	struct kgit_range r = {0};
	char why[512];
	int commits = kgit_first_parent_range(fw->f.tree, b->commit, a->commit, &r, why,
					      sizeof(why)) || !r.n || strcmp(r.c[0].parent, b->commit)
		      ? 0 : (int)r.n;
	kgit_range_free(&r);
	struct stored_follow_change c = {
		.before_commit = b->commit, .after_commit = a->commit, .commits = commits,
		.mean_before = tc->mean_before, .mean_after = tc->mean_after,
		.change_pct = isfinite(tc->change_pct) ? tc->change_pct : 0, .p = tc->p,
	};
	if (store_follow_change_add(fw->st, fw->f.id, &c, err, errsz))
		return -1;
	printf("change %zu: %s -> %s (%.12s..%.12s), %+.2f %%, p %.3g: a regression; %d commit(s)"
	       " in the range\n", n_rows + 1, b->revision, a->revision, b->commit, a->commit,
	       tc->change_pct, tc->p, commits);
	c.before_commit = xstrdup(b->commit);
	c.after_commit = xstrdup(a->commit);
	int rc = act(fw, n_rows + 1, &c, h, err, errsz);
	store_follow_change_clear(&c); /* c is on the stack: only its strings */
	return rc;
}

int track_follow_detect(struct follow *fw, char *err, size_t errsz)
{
	struct track_set set;
	const struct track_history *h;
	struct stored_follow_change *rows = NULL;
	size_t n_rows = 0;
	int rc = follow_history(fw, &set, &h, err, errsz);
	if (rc || !h) {
		if (rc == 0)
			printf("follow %lld: no samples of %s:%s yet\n", (long long)fw->f.id,
			       fw->f.load, fw->f.metric);
		track_set_free(&set);
		return rc;
	}
	struct track_opts o = {fw->f.alpha, fw->f.permutations, (uint64_t)fw->f.seed,
			       fw->f.min_change_pct};
	struct track_result r;
	track_detect(h, &o, &r);
	printf("history: %zu run(s) of %zu revision(s), %zu change point(s)\n", h->n,
	       h->n_revisions, r.n);
	rc = store_follow_changes(fw->st, fw->f.id, &rows, &n_rows, err, errsz);
	for (size_t k = 0; k < r.n && rc == 0 && !track_follow_stopped(); k++) {
		const struct track_point *b = &h->p[r.c[k].index - 1], *a = &h->p[r.c[k].index];
		if (!r.c[k].regression || !b->commit || !a->commit ||
		    handled(rows, n_rows, b->commit, a->commit))
			continue;
		rc = new_change(fw, h, &r.c[k], n_rows, err, errsz);
		store_follow_changes_free(rows, n_rows);
		rows = NULL;
		if (rc == 0)
			rc = store_follow_changes(fw->st, fw->f.id, &rows, &n_rows, err, errsz);
	}
	store_follow_changes_free(rows, n_rows);
	track_result_free(&r);
	track_set_free(&set);
	return rc;
}

int track_follow_changes_unfinished(struct follow *fw, char *err, size_t errsz)
{
	struct stored_follow_change *rows;
	size_t n;
	struct track_set set = {0};
	const struct track_history *h = NULL;
	if (store_follow_changes(fw->st, fw->f.id, &rows, &n, err, errsz))
		return -1;
	int rc = 0;
	for (size_t k = 0; k < n && rc == 0 && !track_follow_stopped(); k++) {
		bool mail = fw->f.mail && !rows[k].mailed_at;
		if (change_final(&rows[k]) && !mail)
			continue;
		if (!h && (rc = follow_history(fw, &set, &h, err, errsz)) == 0 && !h)
			rc = err_printf(err, errsz, "follow %lld has changes but its history no runs",
					(long long)fw->f.id);
		if (rc == 0)
			rc = act(fw, k + 1, &rows[k], h, err, errsz);
	}
	store_follow_changes_free(rows, n);
	track_set_free(&set);
	return rc;
}
