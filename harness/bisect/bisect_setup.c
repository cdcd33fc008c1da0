/* Making a bisection ready to walk, and recording its stop (bisect_setup.h). */
#include "bisect_setup.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adaptive.h"
#include "bisect_choice.h"
#include "bisect_owner.h"
#include "bisect_verify.h"
#include "cmdsetup.h"
#include "config.h"
#include "plan.h"
#include "store_bisect.h"
#include "util.h"

/* Check --metric, --cell and --op against point 0's config before anything runs,
 * and read its max iterations. 0, or -1 after a message. */
static int check_choice(struct bisect_walk *w, const struct bisect_request *rq)
{
	char err[1024];
	struct experiment *e = config_parse(w->s.p[0].name, w->s.p[0].config,
					    strlen(w->s.p[0].config), err, sizeof(err));
	struct plan p = {0};
	int rc = e && plan_build(e, &p, err, sizeof(err)) == 0 ? 0 : -1;
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		experiment_free(e);
		return -1;
	}
	int test = w->bi.rule ? bisect_test_parse(w->bi.rule) : -1;
	w->rule = (struct bisect_rule){test < 0 ? BISECT_TEST_WELCH : (enum bisect_test)test,
				       w->bi.alpha, w->bi.min_effect_pct, w->s.n, e->min_iterations,
				       e->iterations};
	if (test >= 0 && bisect_rule_feasible(&w->rule, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		rc = -1;
	}
	const struct cfg_load *load;
	const char *metric;
	if (!w->bi.load && !rq->metric && adaptive_primary(e, &load, &metric)) {
		w->bi.load = xstrdup(load->name);
		w->bi.metric = xstrdup(metric);
	}
	if (rc == 0 && rq->metric) {
		const char *colon = strchr(rq->metric, ':');
		const struct cfg_load *l = NULL;
		for (size_t i = 0; i < e->n_loads; i++)
			if (!strncmp(e->loads[i].name, rq->metric, (size_t)(colon - rq->metric)) &&
			    !e->loads[i].name[colon - rq->metric])
				l = &e->loads[i];
		bool found = false;
		for (size_t i = 0; l && i < l->ops->n_metrics; i++)
			found |= !strcmp(l->ops->metrics[i].name, colon + 1);
		if (!found) {
			fprintf(stderr, "schedrig bisect: --metric %s: %s\n", rq->metric,
				l ? "the load has no such metric (schedrig loads TOOL lists them)"
				  : "no load of that name in the config");
			rc = -1;
		}
	}
	if (rc == 0 && bisect_choice_check(e, &p, rq->metric, w->bi.load, rq->op, rq->cell,
					   !w->m.metric, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		rc = -1;
	}
	plan_free(&p);
	experiment_free(e);
	return rc;
}

/* Load bisection rq->id (0: the newest unfinished one, else the newest)
 * and check what the database says (not trusted). */
static int setup_resume(struct bisect_walk *w, const struct bisect_request *rq)
{
	char err[4096];
	int64_t id = rq->id;
	if ((!id && store_bisect_unfinished(w->st, &id, err, sizeof(err))) ||
	    store_bisect_get(w->st, id, &w->bi, &w->s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	/* What the database says is checked, not trusted. */
	if (w->s.n < 2 || !(w->bi.alpha > 0 && w->bi.alpha < 0.5)) {
		fprintf(stderr, "schedrig bisect: bisection %lld has %zu point(s) and alpha %g:"
			" not one the rig writes\n", (long long)w->bi.id, w->s.n,
			w->bi.alpha);
		return 1;
	}
	if (w->bi.metric && w->bi.op) {
		if (rq->metric || rq->op || rq->cell) {
			fprintf(stderr, "schedrig bisect: bisection %lld decided on %s:%s op %s"
				" cell %s already; --metric, --op and --cell only go with"
				" --resume before the ends are measured\n", (long long)w->bi.id,
				w->bi.load, w->bi.metric, w->bi.op, w->bi.cell);
			return EXIT_USAGE;
		}
		w->m = (struct bisect_metric){xstrdup(w->bi.load), xstrdup(w->bi.metric),
					      xstrdup(w->bi.op), xstrdup(w->bi.cell)};
	} else if (!rq->metric) {
		free(w->bi.load);
		free(w->bi.metric);
		w->bi.load = w->bi.metric = NULL;
	}
	return check_choice(w, rq) ? EXIT_USAGE : 0;
}

int bisect_setup_prepare(struct bisect_walk *w, const struct bisect_request *rq)
{
	char err[4096];
	struct experiment *e = config_load(rq->config, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	int rc = bisect_series_build(e->path, e->text, rq->good, rq->bad, &w->s, err,
				     sizeof(err));
	if (rc == 0) {
		w->bi.config_path = xstrdup(e->path);
		w->bi.config_text = xstrdup(e->text);
	}
	experiment_free(e);
	if (rc) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return EXIT_USAGE;
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "schedrig bisect: cannot tell the current directory: %s\n",
			strerror(errno));
		return 1;
	}
	w->bi.cwd = xstrdup(cwd);
	bisect_owner_self(&w->bi);
	w->bi.good = xstrdup(rq->good);
	w->bi.bad = xstrdup(rq->bad);
	w->bi.alpha = rq->alpha;
	w->bi.rule = xstrdup(bisect_test_name(rq->test));
	w->bi.min_effect_pct = rq->min_effect_pct;
	return check_choice(w, rq) ? EXIT_USAGE : 0;
}

/* Begin the new bisection w was prepared for: stored. */
static int setup_new(struct bisect_walk *w)
{
	char err[1024];
	if (store_bisect_begin(w->st, &w->bi, &w->s, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	return 0;
}

/* DB's directory/bisect/ID, made: the point configs and the steps' logs;
 * and the database by its absolute path (the steps may run elsewhere). */
static int bisect_dir(struct bisect_walk *w, const struct bisect_request *rq)
{
	char err[1024], real[PATH_MAX];
	char *copy = xstrdup(rq->db), *base = xstrdup(rq->db);
	const char *root = dirname(copy);
	int rc = 0;
	if (!realpath(root, real)) {
		snprintf(err, sizeof(err), "%s: %s", root, strerror(errno));
		rc = -1;
	}
	free(copy);
	if (rc == 0) {
		w->db_path = xasprintf("%s/%s", real, basename(base));
		w->db = w->db_path;
		w->dir = xasprintf("%s/bisect/%lld", real, (long long)w->bi.id);
		rc = mkdir_p(w->dir, err, sizeof(err));
	}
	free(base);
	if (rc)
		fprintf(stderr, "schedrig bisect: %s\n", err);
	return rc;
}

/* Into the directory the bisection was begun in: its config's relative
 * paths (state files, source:, patches:) mean what they meant then. 0, or
 * -1 with err. */
static int enter_dir(const struct stored_bisection *bi, char *err, size_t errsz)
{
	if (!bi->cwd) {
		printf("bisection %lld was begun by a schedrig that did not record its directory:"
		       " its steps run in this one\n", (long long)bi->id);
		return 0;
	}
	if (chdir(bi->cwd))
		return err_printf(err, errsz, "bisection %lld was begun in %s, where its config's"
				  " relative paths point: cannot go there: %s", (long long)bi->id,
				  bi->cwd, strerror(errno));
	return 0;
}

/* A resumed bisection: claimed by this process (bisect_owner.h), in its
 * directory, its series and verdicts checked against what the rig
 * computes (bisect_verify.h), the decisions stored counted. A check that fails records
 * the bisection failed, with why. 0, or 1 after a message. */
static int resume_checks(struct bisect_walk *w)
{
	char err[4096];
	if (bisect_owner_claim(w->st, w->bi.id, err, sizeof(err))) {
		fprintf(stderr, "schedrig bisect: %s\n", err);
		return 1;
	}
	struct bisect_series fresh = {0};
	int rc = enter_dir(&w->bi, err, sizeof(err));
	if (rc == 0)
		rc = bisect_verify_series(&w->bi, &w->s, &fresh, err, sizeof(err));
	bisect_series_free(&fresh);
	struct bisect_stored_counts counts;
	if (rc == 0)
		rc = bisect_verify_verdicts(w->st, &w->bi, &w->s, &counts, err, sizeof(err));
	if (rc == 0) {
		w->stored_points = counts.points;
		w->stored_checks = counts.checks;
		return 0;
	}
	fprintf(stderr, "schedrig bisect: %s\n", err);
	char *why = xasprintf("Failed: %s", err);
	if (store_bisect_end(w->st, w->bi.id, "failed", why, err, sizeof(err)))
		fprintf(stderr, "schedrig bisect: %s\n", err);
	free(why);
	return 1;
}

/* This very binary, for the steps' runs. */
static int find_self(struct bisect_walk *w)
{
	ssize_t len = readlink("/proc/self/exe", w->self_exe, sizeof(w->self_exe) - 1);
	if (len <= 0) {
		fprintf(stderr, "schedrig bisect: cannot find its own executable: %s\n",
			strerror(errno));
		return -1;
	}
	w->self_exe[len] = '\0';
	return 0;
}

int bisect_setup(struct bisect_walk *w, struct store *st, const struct bisect_request *rq,
		 bool *finished)
{
	*finished = false;
	w->st = st;
	w->db = rq->db;
	w->want_metric = rq->metric;
	w->want_op = rq->op;
	w->want_cell = rq->cell;
	int rc = rq->resume ? setup_resume(w, rq) : setup_new(w);
	if (rc)
		return rc;
	if (rq->resume && (!strcmp(w->bi.status, "complete") || !strcmp(w->bi.status, "refused"))) {
		printf("bisection %lld is %s: nothing to resume\n", (long long)w->bi.id,
		       w->bi.status);
		*finished = true;
		return 0;
	}
	if (bisect_dir(w, rq) || find_self(w))
		return 1;
	return rq->resume ? resume_checks(w) : 0;
}

int bisect_setup_stopped(struct bisect_walk *w)
{
	char err[1024];
	const char *status = w->interrupted ? "interrupted" : "failed";
	char *why = !w->interrupted && w->why ? xasprintf("Failed: %s; schedrig bisect --resume"
							  " %lld measures it again", w->why,
							  (long long)w->bi.id) : NULL;
	if (store_bisect_end(w->st, w->bi.id, status, why, err, sizeof(err)))
		fprintf(stderr, "schedrig bisect: %s\n", err);
	free(why);
	if (w->interrupted) {
		fprintf(stderr, "schedrig bisect: interrupted by %s; schedrig bisect --resume %lld"
			" continues it (finished steps are kept)\n", strsignal(w->signal),
			(long long)w->bi.id);
		return 128 + w->signal;
	}
	fprintf(stderr, "schedrig bisect: bisection %lld stopped (%s); schedrig bisect --resume"
		" %lld continues it\n", (long long)w->bi.id, status, (long long)w->bi.id);
	return 1;
}
