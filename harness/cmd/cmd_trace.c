/* schedrig trace [RUN...]: what the scheduler traces of runs say per load
 * (harness/trace/trace_analysis.h) in the mmtests layouts, variants side
 * by side; --format perfetto writes one trace as Chrome trace-event JSON;
 * --file reads a trace made elsewhere. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdopts.h"
#include "commands.h"
#include "reportcmd.h"
#include "trace_analysis.h"
#include "trace_perfetto.h"
#include "trace_report.h"
#include "trace_runs.h"

static const char usage_text[] =
	"usage: schedrig trace [RUN...] [--db FILE] [--load NAME] [--variant V] [--cell C]\n"
	"                      [--iteration N] [--all-tasks] [--layout L] [--format F]\n"
	"                      [--output FILE] [compare's table options]\n"
	"       schedrig trace --file TRACE [--load COMM] [--all-tasks] [--format F]\n"
	"                      [--output FILE]\n"
	"\n"
	"What the scheduler traces of the given runs (config trace:; ids, names or\n"
	"'latest'; default the newest run) say per load, its tasks matched by the\n"
	"processes the rig started: wakeup latency (sched_waking to the switch-in),\n"
	"runqueue wait (enqueued or preempted to the switch-in), run time per\n"
	"switch-in, preemptions (switched out runnable), migrations, and the time\n"
	"each CPU ran the load's tasks. The distributions' p50, p90, p99, p99.9, max\n"
	"and mean (us) are samples of each traced iteration and their event counts\n"
	"samples of their own, laid out as compare lays out samples: variants side by\n"
	"side with its significance rules (n = traced iterations); --layout\n"
	"percentiles and latency pool every event of the traced iterations instead.\n"
	"A trace that lost events (ring buffer overruns) says how many under the\n"
	"tables. Only complete iterations count (a note names the others).\n"
	"\n"
	"  --db FILE            results database (default " DEFAULT_DB ")\n"
	"  --load NAME          only load NAME (with --file: the tasks of that comm)\n"
	"  --variant V          only the traces of variant V\n"
	"  --cell C             only those of cell C\n"
	"  --iteration N        only those of iteration N\n"
	"  --all-tasks          also the load " TRACE_ALL_TASKS ": every task of the trace\n"
	"  --layout L           mmtests (default), mmtests-wide, percentiles, latency\n"
	"  --format F           text|markdown|csv|json (the tables), or perfetto: the\n"
	"                       one trace selected as Chrome trace-event JSON for\n"
	"                       ui.perfetto.dev (a track per CPU and per load task,\n"
	"                       the measured window marked); needs --output\n"
	"  --output FILE, -o FILE  write there instead of stdout\n"
	"  --file TRACE         a trace's text made elsewhere (trace-cmd report, perf\n"
	"                       script, tracefs trace; gzip or plain): tasks grouped by\n"
	"                       their comm, as perf sched latency groups them\n"
	"  --columns AXIS       variant|cell|run as columns (default: variant when the\n"
	"                       traces hold more than one variant, else cell)\n"
	"  --baseline NAME      the column every other one is compared with\n"
	"  --decimals N         digits after the point (default 2)\n"
	"  --significance TEST  welch|ci-overlap|mann-whitney|none (default welch)\n"
	"  --alpha A            significance level (default 0.05)\n"
	"  --metric M[,M...]    only these metrics (wakeup_latency_us, runqueue_wait_us,\n"
	"                       run_per_switch_in_us, wakeups, runqueue_waits,\n"
	"                       switch_ins, preemptions, migrations, cpu_busy_pct)\n"
	"  --percentiles LIST   percentile layout columns (default 50,90,95,99,99.9)\n"
	"  -h, --help           this text\n"
	"\n"
	"Exit status: 0 ok, 1 failure (database, no trace, a trace that is no trace),\n"
	"2 bad usage.\n";

enum {
	OPT_LAYOUT = OPT_SHARED_LAST + 1, OPT_VARIANT, OPT_CELL, OPT_ITERATION, OPT_FILE,
	OPT_ALL_TASKS, OPT_TFORMAT,
};

struct trace_cmd {
	struct reportcmd c;
	const char *layout, *variant, *cell, *file, *load;
	int iteration;
	bool perfetto, all_tasks;
};

/* One option of trace's own into the trace_cmd at ctx (cmd_report_parse):
 * 0, EXIT_USAGE after a message, or -1 for a report option. */
static int trace_option(int opt, const char *arg, void *ctx)
{
	struct trace_cmd *tc = ctx;
	long long n;
	switch (opt) {
	case 'o':
		tc->c.output = arg;
		return 0;
	case OPT_LAYOUT:
		tc->layout = arg;
		return 0;
	case OPT_VARIANT:
		tc->variant = arg;
		return 0;
	case OPT_CELL:
		tc->cell = arg;
		return 0;
	case OPT_ITERATION:
		if (!parse_ll(arg, &n) || n < 1 || n > 10000) {
			fprintf(stderr, "schedrig trace: --iteration must be 1..10000: '%s'\n", arg);
			return EXIT_USAGE;
		}
		tc->iteration = (int)n;
		return 0;
	case OPT_FILE:
		tc->file = arg;
		return 0;
	case OPT_ALL_TASKS:
		tc->all_tasks = true;
		return 0;
	case OPT_LOAD:
		tc->load = arg;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "perfetto"))
			return -1;
		tc->perfetto = true;
		return 0;
	}
	return -1;
}

/* The options into tc: -1 to go on, else the exit status. */
static int options(int argc, char **argv, struct trace_cmd *tc)
{
	static const struct option longopts[] = {
		{"layout", required_argument, NULL, OPT_LAYOUT},
		{"variant", required_argument, NULL, OPT_VARIANT},
		{"cell", required_argument, NULL, OPT_CELL},
		{"iteration", required_argument, NULL, OPT_ITERATION},
		{"file", required_argument, NULL, OPT_FILE},
		{"all-tasks", no_argument, NULL, OPT_ALL_TASKS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const struct cmd_optspec spec = {
		.cmd = "trace", .shortopts = "ho:", .longopts = longopts, .usage = usage_text,
		.bad_hint = " (missing value?)", .on = trace_option, .ctx = tc,
	};
	int rc = cmd_report_parse(argc, argv, &tc->c, &spec);

	if (rc >= 0)
		return rc;
	if (tc->perfetto && !tc->c.output) {
		fprintf(stderr, "schedrig trace: --format perfetto needs --output FILE.json\n");
		return EXIT_USAGE;
	}
	if (tc->file && tc->c.n_runs) {
		fprintf(stderr, "schedrig trace: --file reads one trace, not runs\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* One trace, analysed. */
struct loaded {
	struct buf text;
	struct trace_analysis a;
	char *title;
};

static void loaded_free(struct loaded *l)
{
	buf_free(&l->text);
	trace_analysis_free(&l->a);
	free(l->title);
}

/* Write one trace as Chrome JSON to --output. */
static int write_perfetto(struct trace_cmd *tc, struct loaded *l)
{
	struct buf out = {0};
	trace_perfetto(buf_str(&l->text), l->text.len, &l->a, l->title, tc->all_tasks, &out);
	int rc = reportcmd_write(&tc->c, &out);
	buf_free(&out);
	if (!rc && l->a.lost)
		fprintf(stderr, "schedrig trace: %s lost %llu event(s): the tracks have gaps\n",
			l->title, (unsigned long long)l->a.lost);
	return rc;
}

/* A layout by name (default mmtests). */
static const struct report_layout *layout_of(const struct trace_cmd *tc)
{
	const struct report_layout *l = report_layout_find(tc->layout ? tc->layout : "mmtests");
	if (!l)
		fprintf(stderr, "schedrig trace: no layout '%s' (mmtests, mmtests-wide, percentiles,"
			" latency)\n", tc->layout);
	return l;
}

/* --file TRACE: tasks by comm, one column named after the file. */
static int trace_file(struct trace_cmd *tc)
{
	struct loaded l = {0};
	char err[1024];
	if (trace_file_read(tc->file, &l.text, err, sizeof(err)) ||
	    trace_analyze(buf_str(&l.text), l.text.len, TRACE_BY_COMM, &l.a, err, sizeof(err))) {
		fprintf(stderr, "schedrig trace: %s\n", err);
		loaded_free(&l);
		return 1;
	}
	char *copy = xstrdup(tc->file);
	l.title = xstrdup(basename(copy));
	free(copy);
	int rc;
	if (tc->perfetto) {
		rc = write_perfetto(tc, &l);
	} else {
		const struct report_layout *lay = layout_of(tc);
		struct sample_table t;
		struct hist_table h;
		struct report_notes notes = {0};
		sample_table_init(&t);
		hist_table_init(&h);
		struct trace_rows r = {.t = &t, .h = &h, .run = "file", .variant = l.title,
				       .cell = "trace", .iteration = 1, .load = tc->load,
				       .all_tasks = tc->all_tasks};
		trace_report_rows(&l.a, &r);
		if (l.a.lost)
			report_notes_add(&notes, xasprintf("Lost: %s lost %llu event(s): its numbers come"
							   " from an incomplete trace", tc->file,
							   (unsigned long long)l.a.lost));
		rc = !lay ? EXIT_USAGE : reportcmd_layout_rows(&tc->c, lay, &t, &h, &notes);
		report_notes_free(&notes);
		hist_table_free(&h);
		sample_table_free(&t);
	}
	loaded_free(&l);
	return rc;
}

/* Notes of one stored trace: lost events, warnings. */
static void trace_notes(struct report_notes *notes, const struct trace_item *it)
{
	const struct stored_trace *t = &it->row;
	const struct trace_analysis *a = &it->a;
	uint64_t lost = a->lost > (uint64_t)t->lost ? a->lost : (uint64_t)t->lost;
	if (lost)
		report_notes_add(notes, xasprintf("Lost: %s: %llu event(s) lost (%s, ring buffer"
						  " %d KiB per CPU): its numbers come from an"
						  " incomplete trace", it->title,
						  (unsigned long long)lost, t->path, t->buffer_kb));
	if (t->warning && *t->warning)
		report_notes_add(notes, xasprintf("Trace: %s: %s", it->title, t->warning));
	if (a->bad_lines)
		report_notes_add(notes, xasprintf("Trace: %s: %llu line(s) that are no events were"
						  " skipped", it->title,
						  (unsigned long long)a->bad_lines));
}

/* The traces of the selected runs: one analysed into rows each, or the
 * only one written as Chrome JSON. */
static int trace_runs(struct trace_cmd *tc)
{
	int64_t *ids = NULL;
	size_t n_ids = 0, used = 0;
	char err[1024];
	if (cmd_select_runs(tc->c.ctx, tc->c.db, tc->c.runs, tc->c.n_runs, &ids, &n_ids))
		return 1;
	struct trace_filter f = {tc->variant, tc->cell, tc->iteration};
	struct trace_items items;
	if (trace_items_load(tc->c.ctx->st, tc->c.db, ids, n_ids, &f, tc->perfetto, &items, err,
			     sizeof(err))) {
		fprintf(stderr, "schedrig trace: %s\n", err);
		free(ids);
		return 1;
	}
	free(ids);
	struct sample_table t;
	struct hist_table h;
	struct report_notes notes = {0};
	sample_table_init(&t);
	hist_table_init(&h);
	int rc = 0;
	for (size_t i = 0; i < items.n && !rc; i++) {
		struct trace_item *it = &items.v[i];
		if (!it->complete && !tc->perfetto) {
			report_notes_add(&notes, xasprintf("Trace: %s is %s: its trace is left out",
							   it->title, it->row.status));
			continue;
		}
		if (tc->perfetto) {
			if (items.n > 1) {
				fprintf(stderr, "schedrig trace: --format perfetto writes one trace; %zu"
					" are selected: narrow them with --variant, --cell and"
					" --iteration\n", items.n);
				rc = EXIT_USAGE;
				break;
			}
			struct loaded l = {.text = it->text, .a = it->a, .title = it->title};
			rc = write_perfetto(tc, &l);
			used++;
			continue;
		}
		char run[32];
		snprintf(run, sizeof(run), "%lld", (long long)it->run_id);
		struct trace_rows r = {.t = &t, .h = &h, .run = run, .variant = it->row.variant,
				       .cell = it->row.cell, .iteration = it->row.iteration,
				       .load = tc->load, .all_tasks = tc->all_tasks};
		trace_report_rows(&it->a, &r);
		trace_notes(&notes, it);
		used++;
	}
	if (!rc && !used) {
		fprintf(stderr, "schedrig trace: the selected runs hold no trace%s (config trace:)\n",
			items.n ? " of a complete iteration" : "");
		rc = 1;
	}
	if (!rc && !tc->perfetto) {
		const struct report_layout *lay = layout_of(tc);
		rc = lay ? reportcmd_layout_rows(&tc->c, lay, &t, &h, &notes) : EXIT_USAGE;
	}
	report_notes_free(&notes);
	hist_table_free(&h);
	sample_table_free(&t);
	trace_items_free(&items);
	return rc;
}

int cmd_trace(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct trace_cmd tc = {0};
	reportcmd_init(&tc.c, ctx);
	int rc = options(argc, argv, &tc);
	if (rc < 0)
		rc = tc.file ? trace_file(&tc) : trace_runs(&tc);
	reportcmd_free(&tc.c);
	return rc;
}
