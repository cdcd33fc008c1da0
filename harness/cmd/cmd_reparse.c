/* schedrig reparse RUN: parse a run's stored raw outputs again with this
 * schedrig's drivers (outcome_decide, as run does) and replace its samples
 * and failures in one transaction, printing what changed. A parser fix
 * thereby reaches old runs without running them again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "config.h"
#include "outcome.h"
#include "plan.h"
#include "provenance.h"
#include "store.h"
#include "store_reparse.h"
#include "store_runs.h"

static const char usage_text[] =
	"usage: schedrig reparse RUN [--db FILE]\n"
	"\n"
	"Parse the stored raw output of every load instance of RUN (an id, a name\n"
	"for its newest run, or 'latest') again with this schedrig's load drivers,\n"
	"exactly as 'schedrig run' parses a new one, and replace the run's samples,\n"
	"sample flags, histograms and failures (state, reason, failure events,\n"
	"iteration and run status) with what that yields, in one transaction. Every\n"
	"instance whose outcome changed is printed, then a summary. Instances that\n"
	"never started, timed out or were interrupted keep their state (a timeout's\n"
	"reason may gain the tool's own line); adaptive stop notes are not redone.\n"
	"A run still running, or an imported run (no raw output), is refused.\n"
	"\n"
	"  --db FILE   results database (default " DEFAULT_DB ")\n"
	"\n"
	"Exit status: 0 reparsed (changed or not), 1 failure (nothing changed in the\n"
	"database), 2 bad usage.\n";

/* The runner's verdict on the instance, rebuilt from what is stored: the
 * state before parsing, and its reason. */
static enum inst_state runner_state(const struct stored_reparse_inst *r, const struct plan_instance *pi,
				    char *reason, size_t size)
{
	enum inst_state state = INST_OK;
	/* The runner's order (finish_slot): timeout, stop, exit status, warm-up
	 * (from the times, so a run stored before the warm-up rule gets it). */
	if (!strcmp(r->state, "timeout"))
		state = INST_TIMEOUT;
	else if (r->stopped || !strcmp(r->state, "stopped"))
		state = INST_STOPPED;
	else if (r->term_signal || (r->exited && r->exit_code))
		state = INST_FAILED;
	else if (r->warmup)
		state = INST_WARMUP;
	outcome_runner_reason(state, r->exited, r->exit_code, r->term_signal,
			      pi->load->timeout_s, reason, size);
	return state;
}

struct rp_counts {
	size_t instances, changed, now_failed, now_ok, other_samples;
};

/* Reparse one instance and store its outcome; print it when it changed.
 * *failed tells whether it is a failure now. 0, or -1 with err. */
static int reparse_one(struct store *s, int64_t run_id, const struct stored_reparse_inst *r,
		       const struct plan_instance *pi, struct rp_counts *c, bool *failed,
		       char *err, size_t errsz)
{
	struct buf out = {0}, errb = {0};
	struct sample_vec samples = {0};
	char reason[256];
	enum inst_state state = runner_state(r, pi, reason, sizeof(reason));
	size_t old_n;
	bool same;
	if (store_raw_output(s, r->id, &out, &errb, err, errsz)) {
		buf_free(&out);
		buf_free(&errb);
		return -1;
	}
	struct load_output o = {
		.out = buf_str(&out), .out_len = out.len, .err = buf_str(&errb), .err_len = errb.len,
		.exit_code = r->exit_code, .term_signal = r->term_signal,
		.signaled = r->term_signal != 0, .stopped = state == INST_STOPPED,
		.sched_requested = r->sched_requested, .sched_applied = r->sched_applied,
	};
	state = outcome_decide(pi->load->ops, &pi->params, state, &o, &samples, reason,
			       sizeof(reason));
	const char *name = inst_state_name(state);
	int rc = store_samples_same(s, r->id, &samples, &same, &old_n, err, errsz);
	bool changed = !rc && (strcmp(name, r->state) || strcmp(reason, r->reason ? r->reason : "") ||
			       !same);
	*failed = state == INST_FAILED || state == INST_TIMEOUT;
	char *prefix = xasprintf("variant %s cell %s iteration %d load %s:", r->variant, r->cell,
				 r->iteration, r->load);
	if (changed) {
		c->changed++;
		c->now_failed += *failed && !strcmp(r->state, "ok");
		c->now_ok += state == INST_OK && strcmp(r->state, "ok");
		c->other_samples += state == INST_OK && !strcmp(r->state, "ok");
		printf("  %s %s, %zu sample(s)%s%s -> %s, %zu sample(s)%s%s\n", prefix, r->state,
		       old_n, r->reason ? ": " : "", r->reason ? r->reason : "", name, samples.n,
		       reason[0] ? ": " : "", reason);
		rc = store_instance_outcome(s, r->id, name, reason[0] ? reason : NULL, &samples, err,
					    errsz) ||
		     store_events_drop(s, run_id, "failure", prefix, err, errsz);
		if (!rc && *failed) {
			char *msg = xasprintf("%s %s: %s", prefix, name, reason);
			rc = store_event(s, run_id, "failure", msg, err, errsz);
			free(msg);
		}
	}
	c->instances++;
	free(prefix);
	sample_vec_free(&samples);
	buf_free(&out);
	buf_free(&errb);
	return rc ? -1 : 0;
}

/* The plan instance a stored instance ran as (its cell by name, its load
 * by seq); NULL when the stored config has no such cell or load. */
static const struct plan_instance *plan_inst(const struct plan *p, const struct stored_reparse_inst *r)
{
	for (size_t c = 0; c < p->n_cells; c++)
		if (!strcmp(p->cells[c].name, r->cell))
			return r->seq >= 0 && (size_t)r->seq < p->cells[c].n_inst &&
				       !strcmp(p->cells[c].inst[r->seq].load->name, r->load) ?
				       &p->cells[c].inst[r->seq] : NULL;
	return NULL;
}

/* Reparse every instance of the run inside the caller's transaction; set
 * each reparsed iteration's and the run's status. 0, or -1 with err. */
static int reparse_run(struct store *s, int64_t run_id, const struct plan *p, const char *status,
		       struct rp_counts *c, char *err, size_t errsz)
{
	struct stored_reparse_inst *v;
	size_t n;
	bool run_failed = false;
	if (store_reparse_instances(s, run_id, &v, &n, err, errsz))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc;) {
		size_t end = i;
		bool it_failed = false;
		while (end < n && v[end].iteration_id == v[i].iteration_id)
			end++;
		for (size_t k = i; k < end && !rc; k++) {
			const struct plan_instance *pi = plan_inst(p, &v[k]);
			bool failed = !strcmp(v[k].state, "failed") || !strcmp(v[k].state, "timeout");
			if (!pi) {
				snprintf(err, errsz, "cell %s has no load %s as its load %d in the"
					 " run's config", v[k].cell, v[k].load, v[k].seq + 1);
				rc = -1;
			} else if (v[k].started && strcmp(v[k].state, "interrupted")) {
				rc = reparse_one(s, run_id, &v[k], pi, c, &failed, err, errsz);
			}
			it_failed |= failed;
		}
		const char *it_status = !strcmp(v[i].it_status, "interrupted") ? "interrupted" :
					it_failed ? "failed" : "complete";
		if (!rc && strcmp(it_status, v[i].it_status)) {
			printf("  variant %s cell %s iteration %d: %s -> %s\n", v[i].variant, v[i].cell,
			       v[i].iteration, v[i].it_status, it_status);
			rc = store_iteration_status(s, v[i].iteration_id, it_status, err, errsz);
		}
		run_failed |= it_failed;
		i = end;
	}
	store_reparse_rows_free(v, n);
	if (rc || (strcmp(status, "complete") && strcmp(status, "failed")))
		return rc;
	/* A variant that failed as a whole fails the run whatever its samples. */
	struct stored_variant *vars;
	if (store_variant_list(s, run_id, &vars, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		run_failed |= vars[i].status && !strcmp(vars[i].status, "failed");
	store_variant_rows_free(vars, n);
	const char *now = run_failed ? "failed" : "complete";
	if (!strcmp(now, status))
		return 0;
	printf("  run: %s -> %s\n", status, now);
	return store_run_status(s, run_id, now, err, errsz);
}

/* The run's stored config as a plan; also refuses a running or imported
 * run. 0, or -1 with err. */
static int run_plan(struct store *s, int64_t run_id, struct experiment **e, struct plan *p,
		    struct run_owner *ow, char *err, size_t errsz)
{
	char *path, *text;
	int iterations;
	if (store_run_owner(s, run_id, ow, err, errsz))
		return -1;
	const char *status = provenance_run_status(ow->status, ow->host, ow->boot_id, ow->pid,
						   ow->start_ticks);
	if (!strcmp(status, "running") || !strcmp(status, "imported")) {
		snprintf(err, errsz, "run %lld is %s: %s", (long long)run_id, status,
			 !strcmp(status, "running") ? "let it end first" : "it has no raw output");
		return -1;
	}
	if (store_run_config(s, run_id, &path, &text, &iterations, err, errsz))
		return -1;
	*e = config_parse(path, text, strlen(text), err, errsz);
	free(path);
	free(text);
	return *e && plan_build(*e, p, err, errsz) == 0 ? 0 : -1;
}

int cmd_reparse(int argc, char **argv, struct cmd_ctx *ctx)
{
	const char *db = DEFAULT_DB;
	char err[1024];
	int opt = cmd_db_options(argc, argv, usage_text, &db, 1, 1);

	if (opt >= 0)
		return opt;
	struct store *s = NULL;
	struct experiment *e = NULL;
	struct plan p = {0};
	struct run_owner ow;
	struct rp_counts c = {0};
	int64_t *ids = NULL;
	size_t n;
	int rc = 1;
	if (cmd_select_runs(ctx, db, argv + optind, 1, &ids, &n))
		return 1;
	s = ctx->st;
	if (run_plan(s, ids[0], &e, &p, &ow, err, sizeof(err)) || store_begin(s, err, sizeof(err)))
		goto out;
	printf("reparse run %lld (%s):\n", (long long)ids[0], e->name);
	if (reparse_run(s, ids[0], &p, ow.status, &c, err, sizeof(err))) {
		store_rollback(s);
		goto out;
	}
	if (store_commit(s, err, sizeof(err)))
		goto out;
	printf("%zu instance(s) reparsed, %zu changed (%zu now failed, %zu now ok, %zu with other"
	       " samples)\n", c.instances, c.changed, c.now_failed, c.now_ok, c.other_samples);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "schedrig reparse: %s (nothing changed)\n", err);
	plan_free(&p);
	experiment_free(e);
	free(ids);
	return rc;
}
