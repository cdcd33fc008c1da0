/* schedrig run CONFIG: plan, run every variant × cell × iteration, parse,
 * store, then print the comparison table of the run. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "plan.h"
#include "provenance.h"
#include "runner.h"
#include "store.h"

#define DEFAULT_DB "results/schedrig.db"

static const char usage_text[] =
	"usage: schedrig run CONFIG [--db FILE] [--iterations N] [--dry-run] [--quiet]\n"
	"\n"
	"Run the experiment in CONFIG on every variant, cell and iteration, store\n"
	"every sample with its raw output in the results database, then print the\n"
	"comparison table of the run.\n"
	"\n"
	"  --db FILE        results database (default " DEFAULT_DB ")\n"
	"  --iterations N   override the config's iterations\n"
	"  --dry-run        print the plan (cells, argv, attributes) and run nothing\n"
	"  --quiet          no per-iteration log lines\n";

struct run_opts {
	const char *config;
	const char *db;
	int iterations;
	bool dry_run;
	bool quiet;
};

static void print_plan(const struct experiment *e, const struct plan *p, int iterations)
{
	printf("experiment %s: %zu variant(s) x %zu cell(s) x %d iteration(s)\n", e->name,
	       e->n_variants, p->n_cells, iterations);
	if (e->description)
		printf("  %s\n", e->description);
	for (size_t v = 0; v < e->n_variants; v++)
		printf("variant %s: boot local (the running kernel)\n", e->variants[v].name);
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

static int ensure_parent_dir(const char *path, char *err, size_t errsz)
{
	char *copy = xstrdup(path);
	char *dir = dirname(copy);
	char partial[PATH_MAX] = "";
	int rc = 0;

	/* mkdir -p, one component at a time. */
	for (char *p = dir; rc == 0;) {
		char *slash = strchr(p + (*p == '/'), '/');
		size_t len = slash ? (size_t)(slash - dir) : strlen(dir);
		snprintf(partial, sizeof(partial), "%.*s", (int)len, dir);
		if (mkdir(partial, 0755) && errno != EEXIST) {
			snprintf(err, errsz, "cannot create %s: %s", partial, strerror(errno));
			rc = -1;
		}
		if (!slash)
			break;
		p = slash + 1;
	}
	free(copy);
	return rc;
}

/* Turn the runner's results into stored instances: parse what finished
 * well, record everything else as a failure with its reason. Returns the
 * number of failures. */
static size_t parse_results(struct iteration_result *res, struct stored_instance *st,
			    struct sample_vec *samples, char **argv_text)
{
	size_t failures = 0;
	for (size_t i = 0; i < res->n; i++) {
		struct inst_result *r = &res->r[i];
		const struct plan_instance *pi = r->pi;
		const struct load_ops *ops = pi->load->ops;
		enum inst_state state = r->state;
		char why[256] = "";

		bool parse = state == INST_OK || (state == INST_STOPPED && ops->summarizes_on_stop);
		if (parse) {
			struct load_output o = {
				.out = buf_str(&r->out), .out_len = r->out.len,
				.err = buf_str(&r->err), .err_len = r->err.len,
				.exit_code = r->exit_code, .term_signal = r->term_signal,
				.signaled = r->term_signal != 0, .stopped = state == INST_STOPPED,
			};
			if (ops->parse(&o, &pi->params, &samples[i], why, sizeof(why))) {
				sample_vec_free(&samples[i]);
				state = INST_FAILED;
				snprintf(r->reason, sizeof(r->reason), "%s", why[0] ? why : "no result");
			} else if (state == INST_STOPPED) {
				state = INST_OK;
			}
		}
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
	const struct experiment *e;
	const struct plan *p;
	struct store *st;
	int64_t run_id;
	const char *self_exe;
	size_t failures;
};

static void log_iteration(const struct run_ctx *rc, const char *variant, size_t c, int it,
			  const struct iteration_result *res, const struct sample_vec *samples)
{
	if (rc->o->quiet)
		return;
	printf("[%s] cell %zu/%zu %s iteration %d/%d:", variant, c + 1, rc->p->n_cells,
	       rc->p->cells[c].name, it, rc->o->iterations);
	for (size_t i = 0; i < res->n; i++) {
		const struct inst_result *r = &res->r[i];
		printf(" %s", r->pi->load->name);
		if (r->repetition)
			printf("#%d", r->repetition);
		printf(" %s", inst_state_name(r->state));
		if (samples[i].n)
			printf(" (%zu samples)", samples[i].n);
		if (r->reason[0] && r->state != INST_OK)
			printf(" [%s]", r->reason);
		printf(";");
	}
	printf("\n");
	fflush(stdout);
}

/* Run, parse and store one iteration. Returns 0, or -1 when storing failed
 * (the reason is printed; raw outputs are kept in the log). */
static int one_iteration(struct run_ctx *rc, const char *variant, int64_t variant_id, size_t c,
			 int64_t cell_id, int it)
{
	struct iteration_result res;
	char err[512];
	const struct plan_cell *cell = &rc->p->cells[c];

	if (runner_run_iteration(cell, rc->e->warmup_s, rc->self_exe, &res, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		return -1;
	}
	struct stored_instance *st = xcalloc(res.n ? res.n : 1, sizeof(*st));
	struct sample_vec *samples = xcalloc(res.n ? res.n : 1, sizeof(*samples));
	char **argv_text = xcalloc(res.n ? res.n : 1, sizeof(*argv_text));
	size_t failures = parse_results(&res, st, samples, argv_text);
	for (size_t i = 0; i < res.n; i++)
		st[i].seq = (int)(res.r[i].pi - cell->inst);
	const char *status = res.interrupted ? "interrupted" : failures ? "failed" : "complete";
	int rcode = store_iteration_save(rc->st, variant_id, cell_id, it, status, res.started_at,
					 res.ended_at, st, res.n, err, sizeof(err));
	if (rcode)
		fprintf(stderr, "schedrig: %s\n", err);
	for (size_t i = 0; i < res.n && !rcode; i++) {
		if (strcmp(st[i].state, "failed") && strcmp(st[i].state, "timeout"))
			continue;
		char *msg = xasprintf("variant %s cell %s iteration %d load %s: %s: %s", variant,
				      cell->name, it, st[i].name, st[i].state,
				      st[i].reason ? st[i].reason : "");
		store_event(rc->st, rc->run_id, "failure", msg, err, sizeof(err));
		free(msg);
	}
	rc->failures += failures;
	log_iteration(rc, variant, c, it, &res, samples);
	for (size_t i = 0; i < res.n; i++) {
		sample_vec_free(&samples[i]);
		free(argv_text[i]);
	}
	free(samples);
	free(argv_text);
	free(st);
	iteration_result_free(&res);
	return rcode;
}

static int execute(struct run_ctx *rc)
{
	struct provenance pv;
	char err[512];
	int64_t *cell_ids = xcalloc(rc->p->n_cells, sizeof(*cell_ids));
	int status = 0;

	provenance_read(&pv);
	struct run_info ri = {
		.name = rc->e->name, .config_path = rc->e->path, .config_text = rc->e->text,
		.host = pv.host, .kernel_release = pv.kernel_release,
		.kernel_cmdline = pv.kernel_cmdline, .cpu_model = pv.cpu_model,
		.cpu_count = pv.cpu_count, .iterations = rc->o->iterations,
	};
	if (store_run_begin(rc->st, &ri, &rc->run_id, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		free(cell_ids);
		return 1;
	}
	for (size_t c = 0; c < rc->p->n_cells; c++)
		if (store_cell_add(rc->st, rc->run_id, (int)c, rc->p->cells[c].name, &cell_ids[c], err,
				   sizeof(err)))
			goto store_failed;
	if (!rc->o->quiet)
		printf("run %lld: %s on %s (%s), %zu cell(s) x %d iteration(s)\n",
		       (long long)rc->run_id, rc->e->name, pv.host, pv.kernel_release, rc->p->n_cells,
		       rc->o->iterations);
	for (size_t v = 0; v < rc->e->n_variants && !runner_interrupt_signal(); v++) {
		const char *vname = rc->e->variants[v].name;
		int64_t variant_id;
		if (store_variant_add(rc->st, rc->run_id, (int)v, vname, "local", pv.kernel_release,
				      pv.kernel_cmdline, &variant_id, err, sizeof(err)) ||
		    store_variant_status(rc->st, variant_id, "running", err, sizeof(err)))
			goto store_failed;
		for (size_t c = 0; c < rc->p->n_cells && !runner_interrupt_signal(); c++)
			for (int it = 1; it <= rc->o->iterations && !runner_interrupt_signal(); it++)
				if (one_iteration(rc, vname, variant_id, c, cell_ids[c], it))
					goto store_stopped;
		store_variant_status(rc->st, variant_id,
				     runner_interrupt_signal() ? "interrupted" : "complete", err,
				     sizeof(err));
	}
	goto finish;

store_failed:
	fprintf(stderr, "schedrig: %s\n", err);
store_stopped:
	status = 1;
	store_run_end(rc->st, rc->run_id, "failed", err, sizeof(err));
	free(cell_ids);
	return status;

finish:
	free(cell_ids);
	int sig = runner_interrupt_signal();
	const char *run_status = sig ? "interrupted" : rc->failures ? "failed" : "complete";
	if (store_run_end(rc->st, rc->run_id, run_status, err, sizeof(err)))
		fprintf(stderr, "schedrig: %s\n", err);
	if (sig) {
		fprintf(stderr, "schedrig: interrupted by %s; run %lld kept its completed iterations\n",
			strsignal(sig), (long long)rc->run_id);
		return 128 + sig;
	}
	if (rc->failures)
		fprintf(stderr, "schedrig: run %lld had %zu failed load instance(s); see schedrig show %lld\n",
			(long long)rc->run_id, rc->failures, (long long)rc->run_id);
	return rc->failures ? 1 : 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"iterations", required_argument, NULL, 'i'},
		{"dry-run", no_argument, NULL, 'n'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	long long n;

	o->db = DEFAULT_DB;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			o->db = optarg;
			break;
		case 'i':
			if (!parse_ll(optarg, &n) || n < 1 || n > 10000) {
				fprintf(stderr, "schedrig run: --iterations must be 1..10000, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			o->iterations = (int)n;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	o->config = argv[optind];
	return -1;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {0};
	char err[1024];
	struct plan p;
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	struct experiment *e = config_load(o.config, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	if (!o.iterations)
		o.iterations = e->iterations;
	if (plan_build(e, &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		experiment_free(e);
		return EXIT_USAGE;
	}
	if (o.dry_run) {
		print_plan(e, &p, o.iterations);
		plan_free(&p);
		experiment_free(e);
		return 0;
	}
	rc = 1;
	struct run_ctx ctx = {.o = &o, .e = e, .p = &p};
	char self_exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (plan_uses_latency_nice(&p) && !sched_latency_nice_supported()) {
		struct provenance pv;
		provenance_read(&pv);
		fprintf(stderr,
			"schedrig: %s: this kernel (%s) does not support latency_nice (it needs the"
			" out-of-tree latency-nice series); use slice_us, the EEVDF custom slice of"
			" mainline 6.12+, instead\n",
			o.config, pv.kernel_release);
		goto out;
	}
	if (len <= 0) {
		fprintf(stderr, "schedrig: cannot find its own executable: %s\n", strerror(errno));
		goto out;
	}
	self_exe[len] = '\0';
	ctx.self_exe = self_exe;
	if (ensure_parent_dir(o.db, err, sizeof(err)) ||
	    store_open(o.db, false, &ctx.st, err, sizeof(err)) || runner_init(err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		goto out;
	}
	rc = execute(&ctx);
	if (ctx.run_id && !runner_interrupt_signal()) {
		/* Compare prints the table of the run just made. */
		char id[32];
		snprintf(id, sizeof(id), "%lld", (long long)ctx.run_id);
		char *cargv[] = {"compare", "--db", (char *)o.db, id, NULL};
		printf("\n");
		fflush(stdout);
		cmd_compare(4, cargv);
	}
out:
	store_close(ctx.st);
	plan_free(&p);
	experiment_free(e);
	return rc;
}
