/* schedrig run CONFIG: plan, run every variant × cell × iteration, parse,
 * store, then print the comparison table of the run. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adaptive.h"
#include "commands.h"
#include "config.h"
#include "knob_journal.h"
#include "measurelock.h"
#include "monitor.h"
#include "order.h"
#include "outcome.h"
#include "plan.h"
#include "preflight.h"
#include "progress.h"
#include "provenance.h"
#include "kbuild.h"
#include "runbuild.h"
#include "runner.h"
#include "store.h"
#include "store_adaptive.h"
#include "variant.h"


static const char usage_lines[] =
	"usage: schedrig run CONFIG [--db FILE] [--iterations N] [--dry-run] [--quiet] [--wait-s S|--concurrent]\n"
	"       schedrig run --resume RUN [--db FILE] [--quiet] [--wait-s S|--concurrent]\n";

static const char help_text[] =
	"\n"
	"Run the experiment in CONFIG on every variant, cell and iteration, store\n"
	"every sample with its raw output in the results database, then print the\n"
	"comparison table of the run.\n"
	"\n"
	"  --db FILE        results database (default " DEFAULT_DB ")\n"
	"  --iterations N   override the config's iterations\n"
	"  --dry-run        print the plan (cells, argv, attributes) and run nothing;\n"
	"                   exit 1 when a load tool a boot: local variant needs is not\n"
	"                   installed here (run refuses to start then)\n"
	"  --quiet          no per-iteration log lines\n"
	"  --wait-s S       while another run measures on this machine, wait at most S\n"
	"                   seconds for it to end (default 86400), then give up (exit 1)\n"
	"  --concurrent     run while another run measures here: the run's provenance\n"
	"                   (schedrig show) says it shared the machine, and with whom\n"
	"  --resume RUN     run what an interrupted run left: every (variant, cell,\n"
	"                   iteration) without a complete record, from its stored config;\n"
	"                   a cell whose adaptive iterations stopped stays stopped, the\n"
	"                   others go on from their complete iterations; a complete run\n"
	"                   has nothing to resume (exit 0, the run left as it is)\n"
	"\n"
	"Before anything is recorded, every load tool of a boot: local variant must be\n"
	"installed here (in PATH); else run says which are missing and exits 1. One run\n"
	"measures on a machine at a time (a host-wide lock): a second one waits for the\n"
	"first to end, saying so, unless --concurrent.\n"
	"\n"
	"Kernels the variants name with kernel: {build: NAME} (kernels: in the config)\n"
	"are built first, or taken from the cache of the database's directory\n"
	"(cache/builds/); a kernel that does not build fails its variants (the log\n"
	"kept in runs/ID/build-NAME.log) and the other variants run.\n"
	"\n"
	"Order (config order:): interleaved by default, in rounds: iteration 1 of every\n"
	"variant and cell, then 2, ...; random shuffles each round (seed: N, else one\n"
	"is drawn); blocked runs each variant as one block. Variants that boot a kernel\n"
	"stay blocked unless order: is written. The order is stored and kept by\n"
	"--resume.\n"
	"\n"
	"Exit status: 0 all iterations complete, 1 a failure was recorded or a tool is\n"
	"missing, 2 bad usage or config, 128+N interrupted by signal N.\n";

struct run_opts {
	const char *config;
	const char *db;
	char *run_root;      /* directory of the database: runs/ID go there */
	const char *resume;  /* run selector, or NULL */
	int iterations;
	bool dry_run;
	bool quiet;
	bool concurrent;     /* run beside another measuring run (no lock) */
	double wait_s;       /* longest wait for the measuring lock */
	bool wait_given;     /* --wait-s was given */
};

/* Whether var keeps its own block: every variant in order blocked, and a
 * variant that boots its own kernel unless the config wrote order:. */
static bool keeps_block(const struct experiment *e, enum run_order o, const struct cfg_variant *var)
{
	return o == ORDER_BLOCKED || (var->boot != BOOT_LOCAL && !e->order_given);
}

static void print_plan(const struct experiment *e, const struct plan *p, int iterations)
{
	printf("experiment %s: %zu variant(s) x %zu cell(s) x %d iteration(s)\n", e->name,
	       e->n_variants, p->n_cells, iterations);
	if (e->description)
		printf("  %s\n", e->description);
	const char **blocked = xcalloc(e->n_variants, sizeof(*blocked));
	size_t n_blocked = 0;
	for (size_t v = 0; v < e->n_variants; v++)
		if (keeps_block(e, e->order, &e->variants[v]))
			blocked[n_blocked++] = e->variants[v].name;
	char *order = order_describe(e->order, e->seed, blocked, n_blocked);
	if (e->order == ORDER_RANDOM && !e->seed_given)
		printf("order: random, seed drawn when the run starts%s\n",
		       strchr(order, ';') ? strchr(order, ';') : "");
	else
		printf("order: %s\n", order);
	free(order);
	free(blocked);
	for (size_t v = 0; v < e->n_variants; v++) {
		const struct cfg_variant *var = &e->variants[v];
		printf("variant %s: boot %s", var->name, variant_backend_for(var->boot)->name);
		if (var->build)
			printf(", kernel built from kernels: %s (built or taken from the cache when"
			       " the run starts)", var->build);
		printf("\n");
	}
	for (size_t c = 0; c < p->n_cells; c++) {
		printf("cell %zu/%zu %s\n", c + 1, p->n_cells, p->cells[c].name);
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			const struct plan_instance *pi = &p->cells[c].inst[i];
			char *argv = argv_render(&pi->argv);
			printf("  %-12s %-10s sched: %s\n", pi->load->name,
			       load_role_name(pi->load->role),
			       pi->sched_text[0] ? pi->sched_text : "(inherited)");
			printf("  %-12s %-10s argv:  %s\n", "", "", argv);
			free(argv);
		}
	}
}

/* Turn the runner's results into stored instances (outcome_decide): parse
 * what finished well, record everything else as a failure with its reason.
 * Returns the number of failures. */
static size_t parse_results(struct iteration_result *res, struct stored_instance *st,
			    struct sample_vec *samples, char **argv_text)
{
	size_t failures = 0;
	for (size_t i = 0; i < res->n; i++) {
		struct inst_result *r = &res->r[i];
		const struct plan_instance *pi = r->pi;
		const struct load_ops *ops = pi->load->ops;
		struct load_output o = {
			.out = buf_str(&r->out), .out_len = r->out.len,
			.err = buf_str(&r->err), .err_len = r->err.len,
			.exit_code = r->exit_code, .term_signal = r->term_signal,
			.signaled = r->term_signal != 0, .stopped = r->state == INST_STOPPED,
			.sched_requested = pi->sched_text, .sched_applied = r->applied,
		};
		enum inst_state state = outcome_decide(ops, &pi->params, r->state, &o, &samples[i],
						       r->reason, sizeof(r->reason));
		if (state == INST_FAILED || state == INST_TIMEOUT)
			failures++;
		r->state = state;
		argv_text[i] = argv_render(&pi->argv);
		st[i] = (struct stored_instance){
			.repetition = r->repetition,
			.name = pi->load->name,
			.tool = ops->name,
			.role = load_role_name(pi->load->role),
			.argv = argv_text[i],
			.pid = r->pid,
			.sched_requested = pi->sched_text,
			.sched_applied = r->applied,
			.state = inst_state_name(state),
			.exited = r->exited,
			.exit_code = r->exit_code,
			.term_signal = r->term_signal,
			.reason = r->reason[0] ? r->reason : NULL,
			.started_ns = r->start_ns,
			.ended_ns = r->end_ns,
			.elapsed_s = (double)(r->end_ns - r->start_ns) / 1e9,
			.user_s = (double)r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6,
			.system_s = (double)r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6,
			.out = r->out.data,
			.out_len = r->out.len,
			.err = r->err.data,
			.err_len = r->err.len,
			.samples = samples[i].n ? &samples[i] : NULL,
		};
	}
	return failures;
}

struct run_ctx {
	const struct run_opts *o;
	struct experiment *e;  /* runbuild_kernels sets the built variants' kernels */
	bool *build_failed;    /* per variant: its kernel was not built, it does not run */
	const struct plan *p;
	struct store *st;
	int64_t run_id;
	int64_t *cell_ids;
	const char *variant;
	int64_t variant_id;
	const char *run_dir;
	size_t failures;
	bool store_failed;   /* the database refused a write: stop the run */
	struct monitor *mon; /* monitors: of the config; NULL when off */
	struct adaptive_cells *cells; /* adaptive iterations, per cell of the variant */
	/* The rig's own CPU time (getrusage RUSAGE_SELF: this process, not its
	 * loads) and the wall time, both over the variants' period only. */
	bool rig_measured;
	bool recorded;  /* begun or resumed: its table is printed at the end */
	const struct buf *notes; /* preflight's notes, stored as the run's note events */
	double rig_user_s, rig_system_s, rig_wall_s;
	/* Interleaved and random orders: the visits the current backend run
	 * makes (variant_run.done skips every other). */
	const struct visit *stint;
	size_t n_stint;
	bool variant_local;  /* the current variant runs on the running kernel */
};

/* variant_run.enough: stop the cell when its CI is narrow enough, at max or
 * when its time is up, with a note "variant V cell C: N iteration(s), why"
 * (an interrupted cell has not stopped: run --resume goes on with it). */
static bool cell_enough(void *ctx, size_t c, int iteration)
{
	struct run_ctx *rc = ctx;
	struct adaptive_rule rule = {rc->e->min_iterations, rc->o->iterations, rc->e->ci_pct,
				     rc->e->max_time_s};
	char why[256], err[256];

	(void)iteration; /* the cell's count is its complete and failed iterations */
	if (runner_interrupt_signal() ||
	    !adaptive_cells_enough(rc->cells, c, &rule, mono_ns(), why, sizeof(why)))
		return false;
	char *msg = xasprintf("variant %s cell %s: %s", rc->variant, rc->p->cells[c].name, why);
	store_cell_stop(rc->st, rc->run_id, rc->variant, rc->cell_ids[c], msg, err, sizeof(err));
	if (!rc->o->quiet)
		printf("%s\n", msg);
	free(msg);
	return true;
}

/* A qemu or ssh variant's agent gets its whole plan before the first
 * iteration, so cell_enough never runs for it: say so where the adaptive
 * notes go ("iterations" events, printed under the tables). */
static void note_whole_plan(struct run_ctx *rc, const struct cfg_variant *var)
{
	char err[256];
	char *msg = xasprintf("variant %s: boot: %s runs every cell to max (%d iterations);"
			      " adaptive stopping applies to boot: local variants", var->name,
			      variant_backend_for(var->boot)->name, rc->o->iterations);
	store_event(rc->st, rc->run_id, "iterations", msg, err, sizeof(err));
	if (!rc->o->quiet)
		printf("%s\n", msg);
	free(msg);
}

static bool adaptive(const struct run_ctx *rc)
{
	return rc->e->min_iterations < rc->o->iterations || rc->e->max_time_s > 0;
}

static void log_iteration(const struct run_ctx *rc, size_t c, int it,
			  const struct iteration_result *res, const struct sample_vec *samples)
{
	struct buf states = {0};
	for (size_t i = 0; i < res->n; i++) {
		const struct inst_result *r = &res->r[i];
		buf_printf(&states, " %s", r->pi->load->name);
		if (r->repetition)
			buf_printf(&states, "#%d", r->repetition);
		buf_printf(&states, " %s", inst_state_name(r->state));
		if (samples[i].n)
			buf_printf(&states, " (%zu samples)", samples[i].n);
		if (r->reason[0] && r->state != INST_OK)
			buf_printf(&states, " [%s]", r->reason);
		buf_puts(&states, ";");
	}
	/* The log line, and on a terminal the live status line (progress.h). */
	progress_iteration(c, rc->p->cells[c].name, it, buf_str(&states));
	buf_free(&states);
}

/* Write b to path in full; 0, or -1 with nothing half-written left. */
static int write_raw(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	bool ok = fwrite(buf_str(b), 1, b->len, f) == b->len;
	if (fclose(f))
		ok = false;
	if (!ok)
		unlink(path);
	return ok ? 0 : -1;
}

/* The database refused the iteration: keep its raw outputs in the run
 * directory so nothing the tools printed is lost, or, when that cannot be
 * written either (a full disk holding both), in a new /tmp/schedrig-raw-*. */
static void keep_raw_outputs(const struct run_ctx *rc, size_t c, int it,
			     const struct iteration_result *res)
{
	char tmp[] = "/tmp/schedrig-raw-XXXXXX";
	const char *dir = rc->run_dir;

	for (int attempt = 0; attempt < 2; attempt++) {
		bool ok = true;
		if (attempt == 1 && !(dir = mkdtemp(tmp)))
			break;
		for (size_t i = 0; i < res->n && ok; i++) {
			const struct inst_result *r = &res->r[i];
			for (int stream = 0; stream < 2 && ok; stream++) {
				char *path = xasprintf("%s/%s-cell%zu-it%d-%s-rep%d.%s", dir,
						       rc->variant, c + 1, it, r->pi->load->name,
						       r->repetition, stream ? "stderr" : "stdout");
				ok = write_raw(path, stream ? &r->err : &r->out) == 0;
				free(path);
			}
		}
		if (ok) {
			fprintf(stderr, "schedrig: raw outputs of the iteration kept in %s\n", dir);
			return;
		}
	}
	fprintf(stderr, "schedrig: the raw outputs of the iteration could not be kept: %s\n",
		strerror(errno));
}

/* Parse and store one finished iteration (iteration_fn). */
static int store_one(void *ctx, size_t c, int it, struct iteration_result *res)
{
	struct run_ctx *rc = ctx;
	char err[512];
	const struct plan_cell *cell = &rc->p->cells[c];
	struct stored_instance *st = xcalloc(res->n ? res->n : 1, sizeof(*st));
	struct sample_vec *samples = xcalloc(res->n ? res->n : 1, sizeof(*samples));
	char **argv_text = xcalloc(res->n ? res->n : 1, sizeof(*argv_text));
	size_t failures = parse_results(res, st, samples, argv_text);

	for (size_t i = 0; i < res->n; i++)
		st[i].seq = (int)(res->r[i].pi - cell->inst);
	const char *status = res->interrupted ? "interrupted" : failures ? "failed" : "complete";
	/* Series sampled where the iteration ran: by the agent of a qemu/ssh
	 * variant (res->series), else by the local monitor. */
	store_iteration_series(rc->st, res->series ? res->series : monitor_take_series(rc->mon));
	int rcode = store_iteration_save(rc->st, rc->variant_id, rc->cell_ids[c], it, status,
					 res->started_at, res->ended_at, st, res->n, err, sizeof(err));
	if (rcode) {
		fprintf(stderr, "schedrig: %s\n", err);
		keep_raw_outputs(rc, c, it, res);
		rc->store_failed = true;
	}
	for (size_t i = 0; i < res->n && !rcode; i++) {
		if (strcmp(st[i].state, "failed") && strcmp(st[i].state, "timeout"))
			continue;
		char *msg = xasprintf("variant %s cell %s iteration %d load %s: %s: %s", rc->variant,
				      cell->name, it, st[i].name, st[i].state,
				      st[i].reason ? st[i].reason : "");
		store_event(rc->st, rc->run_id, "failure", msg, err, sizeof(err));
		free(msg);
	}
	rc->failures += failures;
	/* Only complete iterations measure the cell; a failed one counts toward
	 * max only; an interrupted one not at all (run --resume repeats it). */
	int64_t started_ns = res->n ? res->r[0].start_ns : mono_ns();
	if (!strcmp(status, "complete"))
		adaptive_cells_add(rc->cells, c, started_ns, adaptive_primary_value(rc->e, res, samples));
	else if (!strcmp(status, "failed"))
		adaptive_cells_add_failed(rc->cells, c, started_ns);
	log_iteration(rc, c, it, res, samples);
	for (size_t i = 0; i < res->n; i++) {
		sample_vec_free(&samples[i]);
		free(argv_text[i]);
	}
	free(samples);
	free(argv_text);
	free(st);
	return rcode;
}

/* Record with the run (a "provenance" event) whether autogroup was on for
 * the variant's loads: the variant's autogroup: knob, else what its
 * kernel had. With autogroup on and loads of one cell at different nice,
 * say (and record as a "warning" event) that nice may not weigh as meant:
 * each session is an autogroup of its own, and nice only weighs tasks of
 * one autogroup. */
static void note_autogroup(struct run_ctx *rc, const struct cfg_variant *v,
			   const struct variant_kernel *k)
{
	char err[256], detail[512];
	int on = v->autogroup >= 0 ? v->autogroup : k->autogroup;
	const char *state = on < 0 ? "unknown" : on ? "on" : "off";
	char *msg = v->autogroup >= 0 ?
		xasprintf("variant %s: autogroup %s (the variant's autogroup: %s)", v->name, state,
			  state) :
		on < 0 ? xasprintf("variant %s: autogroup unknown (no kernel.sched_autogroup_enabled"
				   " where its loads ran)", v->name) :
		xasprintf("variant %s: autogroup %s (kernel.sched_autogroup_enabled = %d where its"
			  " loads ran)", v->name, state, on);
	store_event(rc->st, rc->run_id, "provenance", msg, err, sizeof(err));
	free(msg);
	if (on != 1 || !preflight_nice_differs(rc->p, detail, sizeof(detail)))
		return;
	msg = xasprintf("variant %s: autogroup is on and loads run at different nice (%s): nice"
			" only weighs tasks of one autogroup, and a load that starts a session of"
			" its own (setsid) has an autogroup of its own, where its nice does not"
			" compete with the others; set autogroup: off on the variant to compare"
			" nice across loads", v->name, detail);
	fprintf(stderr, "schedrig: warning: %s\n", msg);
	store_event(rc->st, rc->run_id, "warning", msg, err, sizeof(err));
	free(msg);
}

/* The variant's kernel is up (kernel_fn): record it. */
static int store_variant(void *ctx, const struct variant_kernel *k)
{
	struct run_ctx *rc = ctx;
	char err[512];
	/* An interleaved run comes back to a variant on the running kernel
	 * many times; its record and the kernel are the same each time. */
	if (rc->stint && rc->variant_id && rc->variant_local)
		return 0;
	const struct cfg_variant *v = NULL;
	for (size_t i = 0; i < rc->e->n_variants; i++)
		if (!strcmp(rc->e->variants[i].name, rc->variant))
			v = &rc->e->variants[i];
	if (store_variant_add(rc->st, rc->run_id, (int)(v - rc->e->variants), rc->variant,
			      variant_backend_for(v->boot)->name, k->release, k->cmdline,
			      &rc->variant_id, err, sizeof(err)) ||
	    store_variant_status(rc->st, rc->variant_id, "running", err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		return -1;
	}
	note_autogroup(rc, v, k);
	return 0;
}

/* run --resume: skip what is complete already, and every iteration of a
 * cell whose adaptive iterations have stopped. */
static bool iteration_done(void *ctx, size_t c, int it)
{
	struct run_ctx *rc = ctx;
	return adaptive_cells_stopped(rc->cells, c) ||
	       store_iteration_complete(rc->st, rc->variant_id, rc->cell_ids[c], it);
}

/* variant_run.done of an interleaved or random run: only the (cell,
 * iteration) pairs of the current stint run, and of those only what is
 * not stored complete (run --resume) and whose cell has not stopped. */
static bool stint_skip(void *ctx, size_t c, int it)
{
	struct run_ctx *rc = ctx;
	bool in_stint = false;
	for (size_t i = 0; i < rc->n_stint && !in_stint; i++)
		in_stint = rc->stint[i].cell == c && rc->stint[i].iteration == it;
	if (!in_stint || adaptive_cells_stopped(rc->cells, c))
		return true;
	return rc->o->resume && store_iteration_complete(rc->st, rc->variant_id, rc->cell_ids[c], it);
}

/* run --resume with adaptive iterations: rebuild the variant's cells from
 * the stored run. A cell that stopped (store_cell_stopped) stays stopped;
 * any other starts from the primary values and the time of its complete
 * iterations (failed ones run again and count then). 0, or -1 with err. */
static int resume_adaptive(struct run_ctx *rc, const char *variant, char *err, size_t errsz)
{
	const struct cfg_load *load;
	const char *metric;
	int ret = 0;

	if (!adaptive_primary(rc->e, &load, &metric)) {
		snprintf(err, errsz, "the config has no primary metric");
		return -1;
	}
	for (size_t c = 0; c < rc->p->n_cells && !ret; c++) {
		bool stopped;
		if (store_cell_stopped(rc->st, rc->run_id, variant, rc->cell_ids[c], &stopped, err,
				       errsz))
			return -1;
		if (stopped) {
			adaptive_cells_stop(rc->cells, c);
			continue;
		}
		double *values, spent_s;
		size_t n;
		ret = store_adaptive_values(rc->st, rc->run_id, variant, rc->cell_ids[c], load->name,
					    metric, &values, &n, &spent_s, err, errsz);
		if (!ret)
			adaptive_cells_restore(rc->cells, c, values, n, spent_s);
		free(values);
	}
	return ret;
}

/* Knobs another run has changed on this boot falsify what is measured now,
 * and changing knobs on top of them would journal the changed values as the
 * "old" ones. So any run, with knobs or without, refuses while a rig changes
 * knobs on this machine, while the host-wide record names a run that left
 * changes behind (whatever its database: knobs_host_clean), or while this
 * database holds unrestored changes of this boot. Also names this run's
 * database for the record its own changes write (knob_journal_set_db).
 * Returns 0, or -1 after printing what to do. */
static int check_unrestored_knobs(const struct run_ctx *rc)
{
	struct stored_knob *rows;
	size_t n, mine = 0;
	char err[1024], boot_id[64];

	knob_journal_set_db(rc->o->db);
	if (knobs_host_clean(err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		return -1;
	}
	if (store_knob_unrestored(rc->st, &rows, &n, err, sizeof(err))) {
		/* Unknown is not clean: a run on changed knobs measures them. */
		fprintf(stderr, "schedrig: %s: %s; whether a killed run left knobs changed is"
			" unknown, so nothing runs\n", rc->o->db, err);
		return -1;
	}
	knob_boot_id(boot_id, sizeof(boot_id));
	const struct stored_knob *first = NULL;
	for (size_t i = 0; i < n; i++) {
		if (knob_host_is_guest(rows[i].host) || !rows[i].boot_id ||
		    strcmp(rows[i].boot_id, boot_id))
			continue;
		first = first ? first : &rows[i];
		mine++;
	}
	if (first)
		fprintf(stderr,
			"schedrig: %s holds %zu knob change(s) a killed run did not restore (e.g. %s,"
			" old value %s); run 'schedrig restore --db %s' first\n",
			rc->o->db, mine, first->path, first->old_value ? first->old_value : "?",
			rc->o->db);
	store_knob_rows_free(rows, n);
	return first ? -1 : 0;
}

static double timeval_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The variants' period ends: keep the rig's CPU and wall time since
 * ru_start and start_ns (its start) for note_rig_cost. */
static void rig_cost_measured(struct run_ctx *rc, const struct rusage *ru_start, int64_t start_ns)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	rc->rig_measured = true;
	rc->rig_wall_s = (double)(mono_ns() - start_ns) / 1e9;
	rc->rig_user_s = timeval_s(&ru.ru_utime) - timeval_s(&ru_start->ru_utime);
	rc->rig_system_s = timeval_s(&ru.ru_stime) - timeval_s(&ru_start->ru_stime);
}

/* Preflight (preflight.h) of e against its variants; fetch: kernel
 * packages may be fetched into the rig's cache now. Refusals and warnings
 * go to stderr; notes to stdout when notes_out. Returns 0, or -1 after the
 * refusals and "schedrig: CONFIG: then". */
static int run_preflight(const struct experiment *e, const struct plan *p, bool fetch,
			 bool notes_out, const char *then, struct buf *notes)
{
	struct preflight pf = {.e = e, .p = p, .fetch = fetch};
	int rc = preflight_check(&pf) ? -1 : 0;
	preflight_print(&pf, stderr, notes_out ? stdout : NULL);
	if (rc)
		fprintf(stderr, "schedrig: %s: %zu problem(s) above; %s\n", e->path, pf.n_refusals, then);
	if (notes)
		buf_puts(notes, buf_str(&pf.notes));
	preflight_free(&pf);
	return rc;
}

/* The notes of preflight, stored as the run's "note" events (show lists them). */
static void store_notes(const struct run_ctx *rc, const struct buf *notes)
{
	char err[512];
	char *copy = xstrdup(buf_str(notes)), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		store_event(rc->st, rc->run_id, "note", l, err, sizeof(err));
	free(copy);
}

/* The failure of a whole variant: message, event, status "failed". One
 * that failed before its kernel came up (a guest that never booted) is
 * recorded too, its kernel unknown, so reports name it instead of leaving
 * it out. */
static void variant_failed(struct run_ctx *rc, const struct cfg_variant *var, const char *why)
{
	char err[512];
	fprintf(stderr, "schedrig: variant %s: %s\n", var->name, why);
	char *msg = xasprintf("variant %s: %s", var->name, why);
	store_event(rc->st, rc->run_id, "failure", msg, err, sizeof(err));
	free(msg);
	if (!rc->variant_id)
		store_variant_add(rc->st, rc->run_id, (int)(var - rc->e->variants), var->name,
				  variant_backend_for(var->boot)->name, NULL, NULL, &rc->variant_id,
				  err, sizeof(err));
	if (rc->variant_id)
		store_variant_status(rc->st, rc->variant_id, "failed", err, sizeof(err));
	rc->failures++;
}

static int variant_enter(struct run_ctx *rc, const struct cfg_variant *var);

/* The kernels the variants build (runbuild.h), before any variant runs: a
 * variant whose kernel was not built is a failed variant (stored with its
 * boot and no kernel) and does not run; the others do. -1 when the run
 * must stop (interrupted, store failed). */
static int build_kernels(struct run_ctx *rc, const char *run_dir)
{
	char err[512];
	size_t n = rc->e->n_variants;
	char **why = xcalloc(n, sizeof(*why));
	int ret = runbuild_kernels(rc->e, rc->st, rc->run_id, rc->o->run_root, run_dir,
				   rc->o->quiet, why, err, sizeof(err));
	if (ret && !runner_interrupt_signal()) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
	}
	for (size_t v = 0; v < n; v++) {
		const struct cfg_variant *var = &rc->e->variants[v];
		if (!why[v])
			continue;
		rc->build_failed[v] = true;
		/* Stored by variant_failed with its boot and no kernel (run
		 * --resume: its row is there already). */
		if (variant_enter(rc, var) == 0)
			variant_failed(rc, var, why[v]);
		rc->variant_id = 0;
		free(why[v]);
	}
	free(why);
	return ret;
}

/* Make var the current variant: its name, its stored id (run --resume: it
 * is known before its kernel comes up, and qemu and ssh build the agent's
 * plan with variant_run.done before that). 0, or -1 (store failed). */
static int variant_enter(struct run_ctx *rc, const struct cfg_variant *var)
{
	char err[512];
	rc->variant = var->name;
	progress_variant(var->name);
	rc->variant_id = 0;
	if (rc->o->resume &&
	    store_variant_id(rc->st, rc->run_id, var->name, &rc->variant_id, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		return -1;
	}
	return 0;
}

/* Run var's plan in one block (its whole plan, or with done the stint).
 * Returns the backend's result; err holds why it failed. */
static int variant_backend_run(struct run_ctx *rc, const struct cfg_variant *var,
			       const char *self_exe, const char *run_dir,
			       bool (*done)(void *, size_t, int), char *err, size_t errsz)
{
	struct knob_db_journal kj;
	knob_db_journal_init(&kj, rc->st, rc->run_id, var->name);
	struct variant_run vr = {
		.e = rc->e, .v = var, .p = rc->p, .iterations = rc->o->iterations,
		.self_exe = self_exe, .work_dir = run_dir, .on_kernel = store_variant,
		.on_iteration = store_one, .ctx = rc, .done = done, .journal = &kj.ops,
		.enough = adaptive(rc) ? cell_enough : NULL,
	};
	err[0] = '\0';
	int vrc = variant_backend_for(var->boot)->run(&vr, err, errsz);
	knob_db_journal_free(&kj);
	return vrc;
}

/* One variant as one block (order: blocked, and variants that boot their
 * own kernel unless order: is written). -1 when the run must stop. */
static int run_blocked(struct run_ctx *rc, const struct cfg_variant *var, const char *self_exe,
		       const char *run_dir)
{
	char err[512];
	adaptive_cells_reset(rc->cells);
	if (rc->o->resume && adaptive(rc) && resume_adaptive(rc, var->name, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		rc->store_failed = true;
		return -1;
	}
	if (variant_enter(rc, var))
		return -1;
	if (adaptive(rc) && var->boot != BOOT_LOCAL)
		note_whole_plan(rc, var);
	int vrc = variant_backend_run(rc, var, self_exe, run_dir,
				      rc->o->resume ? iteration_done : NULL, err, sizeof(err));
	if (vrc) {
		if (rc->store_failed)
			return -1;
		/* The variant failed as a whole; the next one still runs. */
		variant_failed(rc, var, err);
		return 0;
	}
	store_variant_status(rc->st, rc->variant_id,
			     runner_interrupt_signal() ? "interrupted" : "complete", err, sizeof(err));
	return 0;
}

/* Per variant of an interleaved or random run. */
struct vstate {
	const struct cfg_variant *var;
	int64_t id;
	struct adaptive_cells *cells;
	bool failed;
};

/* Each visit of one round and variant in a row is one backend run (one
 * boot, one knob change), in plan order; random order runs every visit on
 * its own. Returns how many visits from v[0] make the stint. */
static size_t stint_length(enum run_order o, const struct visit *v, size_t n)
{
	size_t k = 1;
	while (o == ORDER_INTERLEAVED && k < n && v[k].variant == v[0].variant &&
	       v[k].iteration == v[0].iteration)
		k++;
	return k;
}

/* The variants vs[0..n) in order o: rounds of iterations, each visiting
 * every variant and cell. -1 when the run must stop. */
static int run_rounds(struct run_ctx *rc, struct vstate *vs, size_t n, enum run_order o,
		      uint64_t seed, const char *self_exe, const char *run_dir)
{
	char err[512];
	struct adaptive_cells *shared = rc->cells;
	int ret = 0;
	for (size_t i = 0; i < n; i++)
		vs[i].cells = adaptive_cells_new(rc->p->n_cells);
	for (size_t i = 0; i < n && !ret; i++) {
		rc->cells = vs[i].cells;
		if (variant_enter(rc, vs[i].var))
			ret = -1;
		if (!ret && rc->o->resume && adaptive(rc) &&
		    resume_adaptive(rc, vs[i].var->name, err, sizeof(err))) {
			fprintf(stderr, "schedrig: %s\n", err);
			rc->store_failed = true;
			ret = -1;
		}
		vs[i].id = rc->variant_id;
		if (!ret && adaptive(rc) && vs[i].var->boot != BOOT_LOCAL)
			note_whole_plan(rc, vs[i].var);
	}
	struct visit *v;
	size_t n_v = order_visits(o, seed, n, rc->p->n_cells, rc->o->iterations, &v);
	for (size_t k = 0; k < n_v && !ret && !runner_interrupt_signal(); ) {
		size_t len = stint_length(o, v + k, n_v - k);
		struct vstate *cur = &vs[v[k].variant];
		if (!cur->failed) {
			rc->variant = cur->var->name;
			rc->variant_id = cur->id;
			rc->variant_local = cur->var->boot == BOOT_LOCAL;
			rc->cells = cur->cells;
			rc->stint = v + k;
			rc->n_stint = len;
			bool any = false;
			for (size_t i = 0; i < len && !any; i++)
				any = !stint_skip(rc, v[k + i].cell, v[k + i].iteration);
			if (any) {
				progress_variant(cur->var->name);
				int vrc = variant_backend_run(rc, cur->var, self_exe, run_dir, stint_skip, err,
							      sizeof(err));
				cur->id = rc->variant_id;
				for (size_t i = 0; i < len; i++)
					adaptive_cells_pause(cur->cells, v[k + i].cell, mono_ns());
				if (vrc && rc->store_failed)
					ret = -1;
				else if (vrc) {
					variant_failed(rc, cur->var, err);
					cur->failed = true;
				}
			}
		}
		k += len;
	}
	free(v);
	for (size_t i = 0; i < n; i++) {
		if (!vs[i].failed && vs[i].id && !ret)
			store_variant_status(rc->st, vs[i].id,
					     runner_interrupt_signal() ? "interrupted" : "complete", err,
					     sizeof(err));
		adaptive_cells_free(vs[i].cells);
	}
	rc->cells = shared;
	rc->stint = NULL;
	rc->n_stint = 0;
	return ret;
}

/* The order this run keeps, from its config, or on run --resume from
 * what the run stored (an "order" event; runs from before it: blocked).
 * A fresh random order without seed: draws one. Stores the order of a
 * fresh run. 0, or -1 after a message. */
static int run_order_of(struct run_ctx *rc, enum run_order *o, uint64_t *seed)
{
	char err[512], **msgs;
	size_t n;
	if (rc->o->resume) {
		if (store_events(rc->st, rc->run_id, "order", &msgs, &n, err, sizeof(err))) {
			fprintf(stderr, "schedrig: %s\n", err);
			return -1;
		}
		int bad = n && order_parse_description(msgs[0], o, seed);
		if (!n) {
			*o = ORDER_BLOCKED;
			*seed = 0;
		}
		if (bad)
			fprintf(stderr, "schedrig: run %lld: stored order '%s' is not one the rig"
				" writes\n", (long long)rc->run_id, msgs[0]);
		for (size_t i = 0; i < n; i++)
			free(msgs[i]);
		free(msgs);
		return bad ? -1 : 0;
	}
	*o = rc->e->order;
	*seed = rc->e->seed;
	if (*o == ORDER_RANDOM && !rc->e->seed_given) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		*seed = ((uint64_t)ts.tv_sec * 1000000007ULL) ^ (uint64_t)ts.tv_nsec ^
			((uint64_t)getpid() << 32);
		*seed &= (uint64_t)LLONG_MAX;
	}
	return 0;
}

/* The order of the run (run_order_of), stored and printed for a fresh
 * run before its first iteration. 0, or -1 (the run must not start). */
static int order_setup(struct run_ctx *rc, enum run_order *o, uint64_t *seed)
{
	char err[512];
	if (run_order_of(rc, o, seed))
		return -1;
	if (rc->o->resume)
		return 0;
	const char **blocked = xcalloc(rc->e->n_variants, sizeof(*blocked));
	size_t n_blocked = 0;
	for (size_t v = 0; v < rc->e->n_variants; v++)
		if (keeps_block(rc->e, *o, &rc->e->variants[v]))
			blocked[n_blocked++] = rc->e->variants[v].name;
	char *msg = order_describe(*o, *seed, blocked, n_blocked);
	int ret = store_event(rc->st, rc->run_id, "order", msg, err, sizeof(err));
	if (ret)
		fprintf(stderr, "schedrig: %s\n", err);
	else if (!rc->o->quiet)
		printf("order: %s\n", msg);
	free(msg);
	free(blocked);
	return ret ? -1 : 0;
}

/* Every variant of the run in order o: the interleaved ones in rounds, then
 * those that keep their block, in config order. -1 when the run stopped
 * (store failed). */
static int run_variants(struct run_ctx *rc, enum run_order o, uint64_t seed, const char *self_exe,
			const char *run_dir)
{
	struct vstate *vs = xcalloc(rc->e->n_variants, sizeof(*vs));
	size_t n_vs = 0;
	for (size_t v = 0; v < rc->e->n_variants; v++)
		if (!rc->build_failed[v] && !keeps_block(rc->e, o, &rc->e->variants[v]))
			vs[n_vs++].var = &rc->e->variants[v];
	int ret = 0;
	if (n_vs)
		ret = run_rounds(rc, vs, n_vs, o, seed, self_exe, run_dir);
	for (size_t v = 0; v < rc->e->n_variants && !ret && !runner_interrupt_signal(); v++)
		if (!rc->build_failed[v] && keeps_block(rc->e, o, &rc->e->variants[v]))
			ret = run_blocked(rc, &rc->e->variants[v], self_exe, run_dir);
	free(vs);
	return ret;
}

static int execute(struct run_ctx *rc, const char *self_exe)
{
	struct provenance pv;
	char err[512];

	provenance_read(&pv);
	if (check_unrestored_knobs(rc))
		return 1;
	/* One run measures here at a time (measurelock.h); the knobs are
	 * checked again after a wait: the other run had the machine. */
	char shared_with[600] = "";
	if (rc->o->concurrent) {
		measure_lock_holder(shared_with, sizeof(shared_with));
	} else if (measure_lock(rc->o->db, rc->o->wait_s, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedrig: %s; nothing was run\n", err);
		return runner_interrupt_signal() ? 128 + runner_interrupt_signal() : 1;
	} else if (check_unrestored_knobs(rc)) {
		return 1;
	}
	if (rc->o->resume) {
		struct rig_id rig = {pv.pid, pv.start_ticks, pv.boot_id};
		if (store_run_resume(rc->st, rc->run_id, &rig, err, sizeof(err)))
			goto out_err;
	} else {
		struct run_info ri = {
			.name = rc->e->name, .config_path = rc->e->path, .config_text = rc->e->text,
			.host = pv.host, .kernel_release = pv.kernel_release,
			.kernel_cmdline = pv.kernel_cmdline, .cpu_model = pv.cpu_model,
			.cpu_count = pv.cpu_count, .iterations = rc->o->iterations,
			.rig = {pv.pid, pv.start_ticks, pv.boot_id},
		};
		if (store_run_begin(rc->st, &ri, &rc->run_id, err, sizeof(err)))
			goto out_err;
	}
	rc->recorded = true;
	if (rc->o->concurrent) {
		char *msg = xasprintf("concurrent: run with --concurrent: it did not wait for other"
				      " runs measuring on this machine; %s%s", shared_with[0] ?
				      "when it began, another was measuring: " :
				      "when it began, none was measuring", shared_with);
		store_event(rc->st, rc->run_id, "provenance", msg, err, sizeof(err));
		free(msg);
	}
	if (!rc->o->resume)
		store_notes(rc, rc->notes);
	rc->cell_ids = xcalloc(rc->p->n_cells, sizeof(*rc->cell_ids));
	rc->cells = adaptive_cells_new(rc->p->n_cells);
	for (size_t c = 0; c < rc->p->n_cells; c++)
		if (store_cell_add(rc->st, rc->run_id, (int)c, rc->p->cells[c].name, &rc->cell_ids[c],
				   err, sizeof(err)))
			goto out_err;
	char *run_dir = xasprintf("%s/runs/%lld", rc->o->run_root, (long long)rc->run_id);
	if (mkdir_p(run_dir, err, sizeof(err))) {
		free(run_dir);
		goto out_err;
	}
	rc->run_dir = run_dir;
	if (!rc->o->quiet)
		printf("run %lld: %s on %s (%s), %zu variant(s) x %zu cell(s) x %d iteration(s)\n",
		       (long long)rc->run_id, rc->e->name, pv.host, pv.kernel_release,
		       rc->e->n_variants, rc->p->n_cells, rc->o->iterations);
	enum run_order order;
	uint64_t seed;
	if (order_setup(rc, &order, &seed)) {
		free(run_dir);
		rc->run_dir = NULL;
		store_run_end(rc->st, rc->run_id, "failed", err, sizeof(err));
		return 1;
	}
	if (build_kernels(rc, run_dir)) {
		free(run_dir);
		rc->run_dir = NULL;
		goto ended;
	}
	progress_begin(stdout, rc->o->quiet, rc->e->n_variants, rc->p->n_cells, rc->o->iterations);

	struct rusage ru_start;
	int64_t start_ns = mono_ns();
	getrusage(RUSAGE_SELF, &ru_start);
	/* A stop (store failed) is in rc->store_failed, failures in rc->failures. */
	run_variants(rc, order, seed, self_exe, run_dir);
	progress_end();
	rig_cost_measured(rc, &ru_start, start_ns);
	free(run_dir);
	rc->run_dir = NULL;

ended:;
	int sig = runner_interrupt_signal();
	const char *run_status = rc->store_failed ? "failed" :
				 sig ? "interrupted" : rc->failures ? "failed" : "complete";
	if (store_run_end(rc->st, rc->run_id, run_status, err, sizeof(err)))
		fprintf(stderr, "schedrig: %s\n", err);
	if (sig) {
		fprintf(stderr,
			"schedrig: interrupted by %s; run %lld kept its completed iterations"
			" (schedrig run --resume %lld continues it)\n",
			strsignal(sig), (long long)rc->run_id, (long long)rc->run_id);
		return 128 + sig;
	}
	if (rc->store_failed)
		return 1;
	if (rc->failures)
		fprintf(stderr, "schedrig: run %lld had %zu failure(s); see schedrig show %lld\n",
			(long long)rc->run_id, rc->failures, (long long)rc->run_id);
	return rc->failures ? 1 : 0;

out_err:
	fprintf(stderr, "schedrig: %s\n", err);
	return 1;
}

/* A usage error: one line saying what is wrong, the usage lines, where the
 * help is. Returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs("schedrig run: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%ssee schedrig run --help\n", usage_lines);
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"iterations", required_argument, NULL, 'i'},
		{"dry-run", no_argument, NULL, 'n'},
		{"quiet", no_argument, NULL, 'q'},
		{"resume", required_argument, NULL, 'r'},
		{"concurrent", no_argument, NULL, 'c'},
		{"wait-s", required_argument, NULL, 'w'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	long long n;

	o->db = DEFAULT_DB;
	o->wait_s = 86400;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			o->db = optarg;
			break;
		case 'i':
			if (!parse_ll(optarg, &n) || n < 1 || n > 10000)
				return usage_error("--iterations must be 1..10000, not '%s'", optarg);
			o->iterations = (int)n;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'r':
			o->resume = optarg;
			break;
		case 'c':
			o->concurrent = true;
			break;
		case 'w':
			if (!parse_double(optarg, &o->wait_s) || o->wait_s < 0)
				return usage_error("--wait-s must be a number of seconds >= 0, not '%s'",
						   optarg);
			o->wait_given = true;
			break;
		case 'h':
			fputs(usage_lines, stdout);
			fputs(help_text, stdout);
			return 0;
		default:
			if (optopt == 'd' || optopt == 'i' || optopt == 'r' || optopt == 'w')
				return usage_error("%s needs a value", argv[optind - 1]);
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (o->resume && optind != argc)
		return usage_error("--resume RUN takes no CONFIG, but '%s' was given", argv[optind]);
	if (o->resume && o->iterations)
		return usage_error("--iterations does not go with --resume: a resumed run keeps"
				   " its iterations");
	if (o->resume && o->dry_run)
		return usage_error("--dry-run does not go with --resume");
	if (o->concurrent && o->wait_given)
		return usage_error("--concurrent does not wait: it does not go with --wait-s");
	if (!o->resume && optind == argc)
		return usage_error("no CONFIG given");
	if (!o->resume && optind != argc - 1)
		return usage_error("one CONFIG only, but '%s' was given too", argv[optind + 1]);
	o->config = o->resume ? NULL : argv[optind];
	return -1;
}

/* run --resume RUN only takes over a run of this machine whose rig is gone:
 * two rigs would run the same iterations, and iterations of two machines
 * in one run would compare unlike with unlike. 0, or -1 with err. */
static int check_resumable(struct store *st, int64_t run_id, char *err, size_t errsz)
{
	struct run_owner ow;
	struct provenance here;

	if (store_run_owner(st, run_id, &ow, err, errsz))
		return -1;
	provenance_read(&here);
	if (ow.host[0] && strcmp(ow.host, here.host)) {
		snprintf(err, errsz, "run %lld was recorded on host %s, not on %s: resume it there",
			 (long long)run_id, ow.host, here.host);
		return -1;
	}
	if (!strcmp(provenance_run_status(ow.status, ow.host, ow.boot_id, ow.pid, ow.start_ticks),
		    "running") && ow.start_ticks > 0) {
		snprintf(err, errsz, "run %lld is still running (schedrig pid %lld): let it end or"
			 " stop it first", (long long)run_id, ow.pid);
		return -1;
	}
	return 0;
}

/* run --resume: the run's stored config and iterations. */
static struct experiment *resume_config(struct run_ctx *ctx, struct run_opts *o, char *err,
					size_t errsz)
{
	int64_t *ids;
	size_t n;
	char *path, *text;
	char *sel[] = {(char *)o->resume};

	if (store_select_runs(ctx->st, sel, 1, &ids, &n, err, errsz))
		return NULL;
	ctx->run_id = ids[0];
	free(ids);
	if (check_resumable(ctx->st, ctx->run_id, err, errsz) ||
	    store_run_config(ctx->st, ctx->run_id, &path, &text, &o->iterations, err, errsz))
		return NULL;
	struct experiment *e = config_parse(path, text, strlen(text), err, errsz);
	free(path);
	free(text);
	return e;
}

/* The rig's own cost while its variants ran (rig_cost_measured: what it
 * spent starting up and before the first variant is not counted): its CPU
 * time as % of one CPU over that wall time, stored as a note event ("rig
 * cpu: user_s=U system_s=S wall_s=W pct_of_one_cpu=P"), which schedrig
 * show lists and bench/ reads (not printed: it is for benchmarks of the
 * rig, not for every run's reader); with the monitors' notes. */
static void note_rig_cost(struct run_ctx *rc)
{
	char err[512];
	double user_s = rc->rig_user_s, system_s = rc->rig_system_s, wall_s = rc->rig_wall_s;
	char *msg = xasprintf("rig cpu: user_s=%.6f system_s=%.6f wall_s=%.6f pct_of_one_cpu=%.4f",
			      user_s, system_s, wall_s,
			      wall_s > 0 ? 100 * (user_s + system_s) / wall_s : 0.0);
	store_event(rc->st, rc->run_id, "note", msg, err, sizeof(err));
	free(msg);
	if (rc->mon && *monitor_notes(rc->mon)) {
		char *notes = xstrdup(monitor_notes(rc->mon)), *save = NULL;
		for (char *l = strtok_r(notes, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			store_event(rc->st, rc->run_id, "note", l, err, sizeof(err));
		free(notes);
	}
}

/* Every load tool a boot: local variant runs is installed here
 * (variant_check_local_tools); else -1 after saying which are missing,
 * then what follows (e.g. "nothing was run"). */
static int check_local_tools(const struct experiment *e, const struct plan *p, const char *then)
{
	char err[4096];
	if (variant_check_local_tools(e, p, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "schedrig: %s: %s; %s\n", e->path, err, then);
	return -1;
}

/* Does e have a boot: local variant (its loads run here)? */
static bool any_local(const struct experiment *e)
{
	for (size_t v = 0; v < e->n_variants; v++)
		if (e->variants[v].boot == BOOT_LOCAL)
			return true;
	return false;
}

/* run --resume of a run whose status is complete: nothing is left to run. */
static bool run_complete(struct store *st, int64_t run_id)
{
	struct run_owner ow;
	char err[512];
	return store_run_owner(st, run_id, &ow, err, sizeof(err)) == 0 &&
	       !strcmp(ow.status, "complete");
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {0};
	char err[1024], self_exe[PATH_MAX];
	struct plan p = {0};
	struct experiment *e = NULL;
	struct run_ctx ctx = {.o = &o};
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	/* Progress lines appear as they are written, also into a file or a
	 * pipe (block buffering held the "run N:" header back for a whole
	 * first iteration). */
	setvbuf(stdout, NULL, _IOLBF, 0);
	char *db_copy = xstrdup(o.db);
	o.run_root = xstrdup(dirname(db_copy));
	free(db_copy);
	struct buf notes = {0};
	ctx.notes = &notes;
	if (!o.resume) {
		/* A bad config is reported before anything is created. */
		e = config_load(o.config, err, sizeof(err));
		if (!e || plan_build(e, &p, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			rc = EXIT_USAGE;
			goto out;
		}
		if (o.iterations) {
			/* --iterations N is a fixed count, adaptive or not. */
			e->min_iterations = o.iterations;
			e->ci_pct = e->max_time_s = 0;
		} else {
			o.iterations = e->iterations;
		}
		if (kbuild_check(e, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			rc = EXIT_USAGE;
			goto out;
		}
		if (o.dry_run) {
			print_plan(e, &p, o.iterations);
			rc = run_preflight(e, &p, false, true, "run would refuse to start", NULL) ?
			     EXIT_USAGE : check_local_tools(e, &p, "run would refuse to start") ? 1 : 0;
			goto out;
		}
		if (check_local_tools(e, &p, "nothing was run")) {
			rc = 1;
			goto out;
		}
		/* Before the database is opened: a refused config records nothing. */
		if (run_preflight(e, &p, true, false, "nothing was run", &notes)) {
			rc = EXIT_USAGE;
			goto out;
		}
	}
	rc = 1;
	ssize_t len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (len <= 0) {
		fprintf(stderr, "schedrig: cannot find its own executable: %s\n", strerror(errno));
		goto out;
	}
	self_exe[len] = '\0';
	/* The database must be writable before any load starts. */
	if (mkdir_p(o.run_root, err, sizeof(err)) ||
	    store_open(o.db, false, &ctx.st, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		goto out;
	}
	if (o.resume) {
		e = resume_config(&ctx, &o, err, sizeof(err));
		if (!e || plan_build(e, &p, err, sizeof(err))) {
			fprintf(stderr, "schedrig: %s\n", err);
			goto out;
		}
		if (run_complete(ctx.st, ctx.run_id)) {
			printf("run %lld is complete: nothing to resume\n", (long long)ctx.run_id);
			rc = 0;
			goto out;
		}
		if (check_local_tools(e, &p, "nothing was run"))
			goto out;
		if (run_preflight(e, &p, true, false, "nothing was run", &notes)) {
			rc = EXIT_USAGE;
			goto out;
		}
	}
	ctx.e = e;
	ctx.p = &p;
	ctx.build_failed = xcalloc(e->n_variants, sizeof(*ctx.build_failed));
	if (runner_init(err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		goto out;
	}
	if (any_local(e)) {
		/* Where boot: local loads cannot work, nothing is recorded. */
		if (preflight_refusals(&p, err, sizeof(err))) {
			fprintf(stderr, "schedrig: %s: %s; nothing was run\n", e->path, err);
			goto out;
		}
	}
	if (e->monitors.enabled) {
		ctx.mon = monitor_create("/proc", e->monitors.interval_ms, err, sizeof(err));
		if (!ctx.mon) {
			fprintf(stderr, "schedrig: %s\n", err);
			goto out;
		}
		if (!o.quiet)
			fputs(monitor_notes(ctx.mon), stderr);
		runner_set_monitor(ctx.mon);
	}
	rc = execute(&ctx, self_exe);
	if (ctx.rig_measured)
		note_rig_cost(&ctx);
	if (ctx.recorded && !runner_interrupt_signal() && !ctx.store_failed) {
		/* Compare prints the table of the run just made. */
		char id[32];
		snprintf(id, sizeof(id), "%lld", (long long)ctx.run_id);
		char *cargv[] = {"compare", "--db", (char *)o.db, id, NULL};
		printf("\n");
		fflush(stdout);
		cmd_compare(4, cargv);
	}
out:
	runner_set_monitor(NULL);
	monitor_free(ctx.mon);
	free(ctx.cell_ids);
	free(ctx.build_failed);
	adaptive_cells_free(ctx.cells);
	free(o.run_root);
	buf_free(&notes);
	store_close(ctx.st);
	plan_free(&p);
	experiment_free(e);
	return rc;
}
