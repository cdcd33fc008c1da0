/* schedrig run CONFIG: options, the config and its plan, preflight, the
 * store; then the run engine (harness/run/session.h) runs every variant ×
 * cell × iteration, and the comparison table of the run is printed. */
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

#include "backends.h"
#include "cmdopts.h"
#include "commands.h"
#include "config.h"
#include "cpulist.h"
#include "kbuild.h"
#include "kbuild_plan.h"
#include "monitor.h"
#include "plan.h"
#include "preflight.h"
#include "preflight_check.h"
#include "provenance.h"
#include "reportcmd.h"
#include "revisions.h"
#include "runner.h"
#include "session.h"
#include "store.h"
#include "variant.h"


static const char usage_lines[] =
	"usage: schedrig run CONFIG [--db FILE] [--iterations N] [--variant V] [--dry-run] [--quiet]\n"
	"                    [--wait-s S|--concurrent] [--revision TEXT]\n"
	"       schedrig run --resume RUN [--db FILE] [--quiet] [--wait-s S|--concurrent]\n";

static const char help_text[] =
	"\n"
	"Run the experiment in CONFIG on every variant, cell and iteration, store\n"
	"every sample with its raw output in the results database, then print the\n"
	"comparison table of the run.\n"
	"\n"
	"  --db FILE        results database (default " DEFAULT_DB ")\n"
	"  --iterations N   override the config's iterations\n"
	"  --variant V      run variant V only (the run keeps the whole config)\n"
	"  --lava-log FILE  with --variant V of boot: lava: store the agent's lines\n"
	"                   of this LAVA job log instead of submitting a job (what\n"
	"                   schedrig import-lava does)\n"
	"  --dry-run        print the plan (each variant's host: settings and the\n"
	"                   CPUs housekeeping_cpus leaves the loads; cells, argv,\n"
	"                   attributes) and run nothing; for each kernel to build,\n"
	"                   whether it is cached, will be built from its base's\n"
	"                   objects or cold, about how long that takes here and what\n"
	"                   is downloaded first; exit 1 when a load tool a boot: local\n"
	"                   variant needs is not\n"
	"                   installed here (run refuses to start then)\n"
	"  --quiet          no per-iteration log lines\n"
	"  --wait-s S       while another run measures on this machine, wait at most S\n"
	"                   seconds for it to end (default 86400), then give up (exit 1)\n"
	"  --concurrent     run while another run measures here: the run's provenance\n"
	"                   (schedrig show) says it shared the machine, and with whom\n"
	"  --revision TEXT  the revision of the kernel of every variant that has none\n"
	"                   of its own (boot: local, ssh, a bzImage file, a build that\n"
	"                   is not of a git tree): a label (at most 128 bytes, no\n"
	"                   control characters) that schedrig track orders and names\n"
	"                   the history by; a kernel built from a git tree records its\n"
	"                   commit and git describe, a Debian package kernel its\n"
	"                   package version, whatever --revision says\n"
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

/* The CPUs the loads of var get when housekeeping_cpus takes its own:
 * the variant's CPUs (this machine's online ones, a guest's cpus:) less
 * those, into out; "" when they are only known where the kernel runs. */
static void load_cpus(const struct cfg_variant *var, struct buf *out)
{
	struct buf text = {0};
	char err[256];
	size_t n_all = 0, n_hk;
	bool ok;
	int *all = NULL, *hk = cpulist_parse(var->host_set.housekeeping_cpus, &n_hk, &ok);
	if (var->boot == BOOT_LOCAL &&
	    !file_read("/sys/devices/system/cpu/online", &text, err, sizeof(err)))
		all = cpulist_parse(buf_str(&text), &n_all, &ok);
	if (var->boot == BOOT_QEMU) {
		all = xcalloc((size_t)var->cpus, sizeof(*all));
		for (n_all = 0; n_all < (size_t)var->cpus; n_all++)
			all[n_all] = (int)n_all;
	}
	size_t k = 0;
	for (size_t i = 0; i < n_all; i++) {
		bool taken = false;
		for (size_t j = 0; j < n_hk && !taken; j++)
			taken = hk[j] == all[i];
		if (!taken)
			all[k++] = all[i];
	}
	cpulist_text(all, k, out);
	free(all);
	free(hk);
	buf_free(&text);
}

/* var's host: settings, and where housekeeping_cpus leaves the loads. */
static void print_host_settings(const struct cfg_variant *var)
{
	const struct cfg_host *h = &var->host_set;
	if (!cfg_host_any(h))
		return;
	printf("  host:");
	if (h->governor)
		printf(" governor=%s", h->governor);
	if (h->boost >= 0)
		printf(" boost=%s", h->boost ? "on" : "off");
	if (h->smt >= 0)
		printf(" smt=%s", h->smt ? "on" : "off");
	if (h->cpu_dma_latency_us >= 0)
		printf(" cpu_dma_latency_us=%lld", h->cpu_dma_latency_us);
	if (h->thp)
		printf(" thp=%s", h->thp);
	if (h->numa_balancing >= 0)
		printf(" numa_balancing=%s", h->numa_balancing ? "on" : "off");
	if (h->housekeeping_cpus)
		printf(" housekeeping_cpus=%s", h->housekeeping_cpus);
	if (h->irq_affinity)
		printf(" irq_affinity=%s", h->irq_affinity);
	printf("\n");
	if (!h->housekeeping_cpus)
		return;
	struct buf cpus = {0};
	load_cpus(var, &cpus);
	printf("  loads without sched: cpus run on CPUs %s\n",
	       cpus.len ? buf_str(&cpus) : "the housekeeping CPUs leave there");
	buf_free(&cpus);
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
		if (session_keeps_block(e, e->order, &e->variants[v]))
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
		for (size_t c = 0; var->n_cells && c < p->n_cells; c++)
			if (plan_cell_runs(p, c, v))
				printf("  runs cell %zu/%zu %s (cells:, %zu of %zu)\n", c + 1, p->n_cells,
				       p->cells[c].name, plan_variant_cells(p, v), p->n_cells);
		print_host_settings(var);
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

/* --variant names a variant of e, and --lava-log a boot: lava one. 0, or
 * -1 after a message. */
static int check_variant_opts(const struct run_opts *o, const struct experiment *e)
{
	const struct cfg_variant *var = NULL;
	if (!o->variant)
		return 0;
	for (size_t v = 0; v < e->n_variants; v++)
		if (!strcmp(e->variants[v].name, o->variant))
			var = &e->variants[v];
	if (!var)
		fprintf(stderr, "schedrig: %s has no variant '%s'\n", e->path, o->variant);
	else if (o->lava_log && var->boot != BOOT_LAVA)
		fprintf(stderr, "schedrig: variant %s is not boot: lava, so a LAVA job log cannot"
			" be its results\n", var->name);
	return !var || (o->lava_log && var->boot != BOOT_LAVA) ? -1 : 0;
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

static int run_option(int ch, const char *arg, void *ctx)
{
	struct run_opts *o = ctx;
	long long n;

	switch (ch) {
	case 'd':
		o->db = arg;
		break;
	case 'i':
		if (!parse_ll(arg, &n) || n < 1 || n > 10000)
			return cmd_usage_error("run", usage_lines,
					       "--iterations must be 1..10000, not '%s'", arg);
		o->iterations = (int)n;
		break;
	case 'n':
		o->dry_run = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'r':
		o->resume = arg;
		break;
	case 'V':
		o->variant = arg;
		break;
	case 'L':
		o->lava_log = arg;
		break;
	case 'c':
		o->concurrent = true;
		break;
	case 'w':
		if (!parse_double(arg, &o->wait_s) || o->wait_s < 0)
			return cmd_usage_error("run", usage_lines,
					       "--wait-s must be a number of seconds >= 0, not '%s'",
					       arg);
		o->wait_given = true;
		break;
	case 'R':
		if (o->revision)
			return cmd_usage_error("run", usage_lines,
					       "--revision is given twice ('%s', '%s'): a run has"
					       " one", o->revision, arg);
		if (!revision_label_ok(arg))
			return cmd_usage_error("run", usage_lines,
					       "--revision must be 1..%d bytes of UTF-8 without"
					       " control characters, not '%s'", REVISION_LABEL_MAX,
					       arg);
		o->revision = arg;
		break;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"iterations", required_argument, NULL, 'i'},
		{"dry-run", no_argument, NULL, 'n'},
		{"quiet", no_argument, NULL, 'q'},
		{"resume", required_argument, NULL, 'r'},
		{"variant", required_argument, NULL, 'V'},
		{"lava-log", required_argument, NULL, 'L'},
		{"concurrent", no_argument, NULL, 'c'},
		{"wait-s", required_argument, NULL, 'w'},
		{"revision", required_argument, NULL, 'R'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const struct cmd_optspec spec = {
		.cmd = "run", .shortopts = "", .longopts = longopts, .usage = usage_lines,
		.help_tail = help_text, .usage_lines = usage_lines, .with_value = "dirVLwR",
		.on = run_option, .ctx = o,
	};
	o->db = DEFAULT_DB;
	o->wait_s = 86400;
	int rc = cmd_parse(argc, argv, &spec);
	if (rc >= 0)
		return rc;
	if (o->resume && optind != argc)
		return cmd_usage_error("run", usage_lines,
				       "--resume RUN takes no CONFIG, but '%s' was given", argv[optind]);
	if (o->resume && o->iterations)
		return cmd_usage_error("run", usage_lines,
				       "--iterations does not go with --resume: a resumed run keeps"
				       " its iterations");
	if (o->resume && o->dry_run)
		return cmd_usage_error("run", usage_lines,
				       "--dry-run does not go with --resume");
	if (o->resume && o->variant)
		return cmd_usage_error("run", usage_lines,
				       "--variant does not go with --resume: a resumed run runs what"
				       " is left of every variant");
	if (o->resume && o->revision)
		return cmd_usage_error("run", usage_lines,
				       "--revision does not go with --resume: a resumed run keeps the"
				       " revisions it recorded");
	if (o->lava_log && !o->variant)
		return cmd_usage_error("run", usage_lines,
				       "--lava-log needs --variant NAME (a boot: lava variant)");
	if (o->concurrent && o->wait_given)
		return cmd_usage_error("run", usage_lines,
				       "--concurrent does not wait: it does not go with --wait-s");
	if (!o->resume && optind == argc)
		return cmd_usage_error("run", usage_lines,
				       "no CONFIG given");
	if (!o->resume && optind != argc - 1)
		return cmd_usage_error("run", usage_lines,
				       "one CONFIG only, but '%s' was given too", argv[optind + 1]);
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
static struct experiment *resume_config(struct run_session *rs, struct run_opts *o, char *err,
					size_t errsz)
{
	int64_t *ids;
	size_t n;
	char *path, *text;
	char *sel[] = {(char *)o->resume};

	if (store_select_runs(rs->st, sel, 1, &ids, &n, err, errsz))
		return NULL;
	rs->run_id = ids[0];
	free(ids);
	if (check_resumable(rs->st, rs->run_id, err, errsz) ||
	    store_run_config(rs->st, rs->run_id, &path, &text, &o->iterations, err, errsz))
		return NULL;
	struct experiment *e = config_parse(path, text, strlen(text), err, errsz);
	free(path);
	free(text);
	return e;
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

/* A new run (not --resume): the config into *ep and its plan into p,
 * --iterations applied, what cannot work refused (the preflight's notes in
 * notes); --dry-run prints the plan. A bad config is reported before
 * anything is created. Returns -1 to go on, else the exit status. */
static int prepare_new_run(struct run_opts *o, struct experiment **ep, struct plan *p,
			   struct buf *notes)
{
	char err[1024];
	struct experiment *e = *ep = config_load(o->config, err, sizeof(err));

	if (!e || plan_build(e, p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	if (check_variant_opts(o, e))
		return EXIT_USAGE;
	if (o->iterations) {
		/* --iterations N is a fixed count, adaptive or not. */
		e->min_iterations = o->iterations;
		e->ci_pct = e->max_time_s = 0;
	} else {
		o->iterations = e->iterations;
	}
	if (kbuild_check(e, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	if (o->dry_run) {
		print_plan(e, p, o->iterations);
		char *copy = xstrdup(o->db), *cache = xasprintf("%s/cache", dirname(copy));
		kbuild_plan_notes(e, cache, stdout);
		free(copy);
		free(cache);
		return run_preflight(e, p, false, true, "run would refuse to start", NULL) ?
		       EXIT_USAGE : check_local_tools(e, p, "run would refuse to start") ? 1 : 0;
	}
	if (check_local_tools(e, p, "nothing was run"))
		return 1;
	/* Before the database is opened: a refused config records nothing. */
	if (run_preflight(e, p, true, false, "nothing was run", notes))
		return EXIT_USAGE;
	return -1;
}

/* --resume, the store open: the stored config of the run into *ep and its
 * plan into p, unless the run is complete; refused as a new run is.
 * Returns -1 to go on, else the exit status. */
static int prepare_resumed_run(struct run_session *rs, struct run_opts *o, struct experiment **ep,
			       struct plan *p, struct buf *notes)
{
	char err[1024];
	struct experiment *e = *ep = resume_config(rs, o, err, sizeof(err));

	if (!e || plan_build(e, p, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		return 1;
	}
	if (run_complete(rs->st, rs->run_id)) {
		printf("run %lld is complete: nothing to resume\n", (long long)rs->run_id);
		return 0;
	}
	if (check_local_tools(e, p, "nothing was run"))
		return 1;
	if (run_preflight(e, p, true, false, "nothing was run", notes))
		return EXIT_USAGE;
	return -1;
}

/* This very binary's path into self_exe (size bytes). 0, or -1 after
 * saying why. */
static int find_self_exe(char *self_exe, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", self_exe, size - 1);
	if (len <= 0) {
		fprintf(stderr, "schedrig: cannot find its own executable: %s\n", strerror(errno));
		return -1;
	}
	self_exe[len] = '\0';
	return 0;
}

/* The runner, what boot: local loads need here, and the monitors of
 * rs->e. 0, or -1 after saying why. */
static int start_engine(struct run_session *rs, const struct run_opts *o)
{
	char err[1024];

	if (runner_init(err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		return -1;
	}
	/* Where boot: local loads cannot work, nothing is recorded. */
	if (any_local(rs->e) && preflight_refusals(rs->p, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s: %s; nothing was run\n", rs->e->path, err);
		return -1;
	}
	if (!rs->e->monitors.enabled)
		return 0;
	rs->mon = monitor_create("/proc", rs->e->monitors.interval_ms, err, sizeof(err));
	if (!rs->mon) {
		fprintf(stderr, "schedrig: %s\n", err);
		return -1;
	}
	if (!o->quiet)
		fputs(monitor_notes(rs->mon), stderr);
	runner_set_monitor(rs->mon);
	return 0;
}

int cmd_run(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct run_opts o = {0};
	char err[1024], self_exe[PATH_MAX];
	struct plan p = {0};
	struct experiment *e = NULL;
	struct run_session rs = {.o = &o};
	struct buf notes = {0};
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
	rs.notes = &notes;
	if (!o.resume && (rc = prepare_new_run(&o, &e, &p, &notes)) >= 0)
		goto out;
	rc = 1;
	if (find_self_exe(self_exe, sizeof(self_exe)))
		goto out;
	/* The database must be writable before any load starts. */
	if (mkdir_p(o.run_root, err, sizeof(err))) {
		fprintf(stderr, "schedrig: %s\n", err);
		goto out;
	}
	if (!(rs.st = cmd_store(ctx, o.db)))
		goto out;
	if (o.resume && (rc = prepare_resumed_run(&rs, &o, &e, &p, &notes)) >= 0)
		goto out;
	rc = 1;
	rs.e = e;
	rs.p = &p;
	if (start_engine(&rs, &o))
		goto out;
	rc = session_execute(&rs, self_exe);
	if (rs.rig_measured)
		session_note_rig_cost(&rs);
	if (rs.recorded && !runner_interrupt_signal() && !rs.store_failed) {
		/* The table of the run just made, as schedrig compare prints it. */
		printf("\n");
		fflush(stdout);
		reportcmd_print_run(ctx, o.db, rs.run_id);
	}
out:
	runner_set_monitor(NULL);
	monitor_free(rs.mon);
	session_free(&rs);
	free(o.run_root);
	buf_free(&notes);
	plan_free(&p);
	experiment_free(e);
	return rc;
}
