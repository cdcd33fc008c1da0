/* schedrig reparse RUN: parse a run's stored raw outputs again with this
 * schedrig's drivers (outcome_decide, as run does) and replace its samples
 * and failures in one transaction, printing what changed. A parser fix
 * thereby reaches old runs without running them again. */
#include <math.h>
#include <sqlite3.h>
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

/* One stored instance, as reparse reads it. */
struct rp_inst {
	int64_t id, iteration_id;
	char *variant, *cell, *load, *tool, *role, *state, *reason, *it_status;
	int iteration, seq;
	bool started, exited;
	int exit_code, term_signal;
	bool stopped; /* a background instance still running when the measured ones ended */
	bool warmup;  /* a background instance that ended before the measured ones started */
};

static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static void rp_free(struct rp_inst *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].variant);
		free(v[i].cell);
		free(v[i].load);
		free(v[i].tool);
		free(v[i].role);
		free(v[i].state);
		free(v[i].reason);
		free(v[i].it_status);
	}
	free(v);
}

/* Every instance of the run, in run order. 0, or -1 with err. */
static int load_instances(sqlite3 *db, int64_t run_id, struct rp_inst **out, size_t *n, char *err,
			  size_t errsz)
{
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
		"SELECT li.id, i.id, v.name, c.name, li.name, li.tool, li.role, li.state, li.reason,"
		" i.status, i.iteration, li.seq, li.pid IS NOT NULL, li.exit_code IS NOT NULL,"
		" ifnull(li.exit_code, 0), ifnull(li.term_signal, 0),"
		" li.role = 'background' AND li.ended_ns >= (SELECT max(m.ended_ns) FROM"
		" load_instance m WHERE m.iteration_id = i.id AND m.role = 'measured'),"
		" li.role = 'background' AND li.ended_ns < (SELECT min(m.started_ns) FROM"
		" load_instance m WHERE m.iteration_id = i.id AND m.role = 'measured')"
		" FROM load_instance li JOIN iteration i ON i.id = li.iteration_id"
		" JOIN variant v ON v.id = i.variant_id JOIN cell c ON c.id = i.cell_id"
		" WHERE v.run_id = ? ORDER BY v.seq, c.seq, i.iteration, li.seq, li.repetition",
		-1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errsz, "cannot read the run's instances: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, run_id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = (struct rp_inst){
			.id = sqlite3_column_int64(st, 0), .iteration_id = sqlite3_column_int64(st, 1),
			.variant = dup_col(st, 2), .cell = dup_col(st, 3), .load = dup_col(st, 4),
			.tool = dup_col(st, 5), .role = dup_col(st, 6), .state = dup_col(st, 7),
			.reason = dup_col(st, 8), .it_status = dup_col(st, 9),
			.iteration = sqlite3_column_int(st, 10), .seq = sqlite3_column_int(st, 11),
			.started = sqlite3_column_int(st, 12), .exited = sqlite3_column_int(st, 13),
			.exit_code = sqlite3_column_int(st, 14), .term_signal = sqlite3_column_int(st, 15),
			.stopped = sqlite3_column_int(st, 16), .warmup = sqlite3_column_int(st, 17),
		};
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(err, errsz, "cannot read the run's instances: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* Column col of st's row appended to b: the blob first, then its size, as
 * SQLite wants; an empty one is NULL and appends nothing. */
static void append_column(struct buf *b, sqlite3_stmt *st, int col)
{
	const void *data = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	if (data && n)
		buf_append(b, data, n);
}

/* The instance's raw output into out and errb (empty when none stored). */
static void load_raw(sqlite3 *db, int64_t id, struct buf *out, struct buf *errb)
{
	sqlite3_stmt *st;
	buf_append(out, "", 0);
	buf_append(errb, "", 0);
	if (sqlite3_prepare_v2(db, "SELECT stdout, stderr FROM raw_output WHERE load_instance_id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		append_column(out, st, 0);
		append_column(errb, st, 1);
	}
	sqlite3_finalize(st);
}

/* Do the instance's stored samples equal s (metric, op, value and flag,
 * in order, and as many histograms)? *old_n receives how many are stored. */
static bool same_samples(sqlite3 *db, int64_t id, const struct sample_vec *s, size_t *old_n)
{
	sqlite3_stmt *st;
	bool same = true;
	*old_n = 0;
	if (sqlite3_prepare_v2(db, "SELECT k.metric, k.op, v.value, f.flag,"
			       " (SELECT count(*) FROM histogram h WHERE h.load_instance_id = ?1)"
			       " FROM sample_value v JOIN sample_key k ON k.id = v.key_id"
			       " LEFT JOIN sample_flag f ON f.load_instance_id = v.load_instance_id"
			       " AND f.seq = v.seq WHERE v.load_instance_id = ?1 ORDER BY v.seq",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, id);
	for (size_t i = 0; sqlite3_step(st) == SQLITE_ROW; i++, (*old_n)++) {
		const struct sample *x = i < s->n ? &s->v[i] : NULL;
		double v = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 2);
		const char *flag = (const char *)sqlite3_column_text(st, 3);
		same = same && x && !strcmp((const char *)sqlite3_column_text(st, 0), x->metric) &&
		       !strcmp((const char *)sqlite3_column_text(st, 1), x->op) &&
		       (v == x->value || (isnan(v) && isnan(x->value))) &&
		       !(flag ? !x->flag || strcmp(flag, x->flag) : x->flag != NULL) &&
		       (size_t)sqlite3_column_int64(st, 4) == s->n_hists;
	}
	sqlite3_finalize(st);
	return same && *old_n == s->n;
}

/* The runner's verdict on the instance, rebuilt from what is stored: the
 * state before parsing, and its reason. */
static enum inst_state runner_state(const struct rp_inst *r, const struct plan_instance *pi,
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
static int reparse_one(struct store *s, int64_t run_id, const struct rp_inst *r,
		       const struct plan_instance *pi, struct rp_counts *c, bool *failed,
		       char *err, size_t errsz)
{
	struct buf out = {0}, errb = {0};
	struct sample_vec samples = {0};
	char reason[256];
	enum inst_state state = runner_state(r, pi, reason, sizeof(reason));
	load_raw(store_db(s), r->id, &out, &errb);
	struct load_output o = {
		.out = buf_str(&out), .out_len = out.len, .err = buf_str(&errb), .err_len = errb.len,
		.exit_code = r->exit_code, .term_signal = r->term_signal,
		.signaled = r->term_signal != 0, .stopped = state == INST_STOPPED,
	};
	state = outcome_decide(pi->load->ops, &pi->params, state, &o, &samples, reason,
			       sizeof(reason));
	const char *name = inst_state_name(state);
	size_t old_n;
	bool same = same_samples(store_db(s), r->id, &samples, &old_n);
	bool changed = strcmp(name, r->state) || strcmp(reason, r->reason ? r->reason : "") || !same;
	*failed = state == INST_FAILED || state == INST_TIMEOUT;
	int rc = 0;
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
static const struct plan_instance *plan_inst(const struct plan *p, const struct rp_inst *r)
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
	struct rp_inst *v;
	size_t n;
	bool run_failed = false;
	if (load_instances(store_db(s), run_id, &v, &n, err, errsz))
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
	rp_free(v, n);
	if (rc || (strcmp(status, "complete") && strcmp(status, "failed")))
		return rc;
	/* A variant that failed as a whole fails the run whatever its samples. */
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s), "SELECT count(*) FROM variant WHERE run_id = ? AND"
			       " status = 'failed'", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run_id);
		run_failed |= sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
	}
	sqlite3_finalize(st);
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

/* --db FILE (cmd_options). */
static int db_option(int val, const char *arg, void *ctx)
{
	(void)val;
	*(const char **)ctx = arg;
	return 0;
}

int cmd_reparse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *db = DEFAULT_DB;
	char err[1024];
	int opt = cmd_options(argc, argv, longopts, usage_text, db_option, &db);

	if (opt >= 0)
		return opt;
	if (argc - optind != 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	struct store *s = NULL;
	struct experiment *e = NULL;
	struct plan p = {0};
	struct run_owner ow;
	struct rp_counts c = {0};
	int64_t *ids = NULL;
	size_t n;
	int rc = 1;
	if (store_open(db, false, &s, err, sizeof(err)) ||
	    store_select_runs(s, argv + optind, 1, &ids, &n, err, sizeof(err)) ||
	    run_plan(s, ids[0], &e, &p, &ow, err, sizeof(err)) || store_begin(s, err, sizeof(err)))
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
	store_close(s);
	return rc;
}
