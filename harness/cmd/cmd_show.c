/* schedrig show RUN: provenance, variants, every load instance with its
 * requested and applied scheduling attributes, exit status and failures. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_bisect.h"
#include "cmdopts.h"
#include "commands.h"
#include "knob_journal.h"
#include "provenance.h"
#include "store.h"
#include "store_host.h"
#include "store_kbuild.h"
#include "store_revision.h"
#include "store_runs.h"
#include "store_show.h"

static const char usage_text[] =
	"usage: schedrig show RUN [--db FILE] [--config]\n"
	"\n"
	"Show one run (an id, a name for its newest run, or 'latest'): provenance,\n"
	"variants, kernel builds, knob changes, the host state (the rig's machine's\n"
	"fingerprint and each variant's where its kernel ran, every field with the\n"
	"file it was read from), load instances and events.\n"
	"  --db FILE   results database (default " DEFAULT_DB ")\n"
	"  --config    also print the config text as it was run\n";

static const char *dash(const char *s)
{
	return s ? s : "-";
}

/* A stored integer, "-" when it is not stored (-1). */
static const char *num(char *dst, size_t size, int64_t v)
{
	if (v < 0)
		return "-";
	snprintf(dst, size, "%lld", (long long)v);
	return dst;
}

/* The last TAIL_LINES lines of a failed load's output (b, len bytes), each
 * cut at TAIL_WIDTH bytes: why it failed, in the tool's own words. */
#define TAIL_LINES 5
#define TAIL_WIDTH 200
static void print_tail(const char *label, const char *b, size_t size)
{
	int len = (int)size;
	while (len > 0 && b[len - 1] == '\n')
		len--;
	if (len <= 0)
		return;
	int start = len, lines = 0;
	while (start > 0 && lines < TAIL_LINES)
		if (b[--start] == '\n' && ++lines == TAIL_LINES)
			start++;
	printf("      %s%s:\n", label, start > 0 ? " (last lines)" : "");
	for (int p = start; p < len;) {
		int end = p;
		while (end < len && b[end] != '\n')
			end++;
		printf("        | %.*s\n", end - p < TAIL_WIDTH ? end - p : TAIL_WIDTH, b + p);
		p = end + 1;
	}
}

/* A step of a bisection (schedrig bisect): which point the run measured. */
static int show_bisect_steps(struct store *s, int64_t id, char *err, size_t errsz)
{
	struct stored_bisect_step *b;
	size_t n;
	if (store_bisect_steps_of_run(s, id, &b, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		printf("  bisection  %lld, point %d %s%s (%s), schedrig bisect --show %lld\n",
		       (long long)b[i].bisection_id, b[i].k, b[i].name,
		       !strcmp(b[i].phase, "confirm") ? ", a round of the confirm"
		       : b[i].attempt != 1 ? ", more iterations" : "", b[i].label,
		       (long long)b[i].bisection_id);
	store_bisect_step_rows_free(b, n);
	return 0;
}

/* Provenance: the run row and the order its iterations ran in
 * (harness/config/order.h; runs from before orders were stored ran blocked). */
static int show_provenance(struct store *s, int64_t id, bool with_config, char *err,
			   size_t errsz)
{
	struct stored_run r;
	char **order;
	size_t n_order;
	char cpus[24], iterations[24];
	if (store_run_read(s, id, &r, err, errsz))
		return -1;
	const char *status = provenance_run_status(dash(r.status), dash(r.host), dash(r.boot_id),
						   r.rig_pid, r.rig_start_ticks);
	printf("run %lld: %s (%s)\n", (long long)id, dash(r.name), status);
	if (strcmp(status, dash(r.status)))
		printf("  its schedrig (pid %lld) is gone; finish it with schedrig run"
		       " --resume %lld\n", (long long)r.rig_pid, (long long)id);
	printf("  started    %s\n  ended      %s\n", dash(r.started_at), dash(r.ended_at));
	printf("  host       %s\n  kernel     %s\n  cmdline    %s\n", dash(r.host),
	       dash(r.kernel_release), dash(r.kernel_cmdline));
	printf("  cpu        %s x %s\n  schedrig   %s\n  iterations %s\n  config     %s\n",
	       num(cpus, sizeof(cpus), r.cpu_count), dash(r.cpu_model), dash(r.schedrig_version),
	       num(iterations, sizeof(iterations), r.iterations), dash(r.config_path));
	int rc = store_events(s, id, "order", &order, &n_order, err, errsz);
	if (!rc) {
		printf("  order      %s\n", n_order ? order[0] : "blocked");
		for (size_t k = 0; k < n_order; k++)
			free(order[k]);
		free(order);
		rc = show_bisect_steps(s, id, err, errsz);
	}
	if (!rc && with_config)
		printf("\n%s\n", dash(r.config_text));
	store_run_free(&r);
	return rc;
}

/* A variant's kernel revision (store_revision.h), one line under it:
 * "revision git DESCRIBE (commit HASH, REPOSITORY)", "revision package
 * NAME VERSION", "revision label TEXT". */
static void show_revision(const struct stored_revision *r, size_t n, const char *variant)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(r[i].variant, variant))
			continue;
		if (r[i].kind == REVISION_GIT)
			printf("      revision git %s (commit %s, %s)\n", r[i].revision,
			       dash(r[i].commit_hash), dash(r[i].source));
		else if (r[i].kind == REVISION_PACKAGE)
			printf("      revision package %s %s\n", dash(r[i].source), r[i].revision);
		else
			printf("      revision label %s\n", r[i].revision);
	}
}

static int show_variants(struct store *s, int64_t id, char *err, size_t errsz)
{
	struct stored_variant *v;
	struct stored_revision *r;
	size_t n, n_r;
	if (store_variant_list(s, id, &v, &n, err, errsz))
		return -1;
	if (store_revision_list(s, id, &r, &n_r, err, errsz)) {
		store_variant_rows_free(v, n);
		return -1;
	}
	printf("\nvariants:\n");
	for (size_t i = 0; i < n; i++) {
		printf("  %-20s boot %-8s kernel %-24s %s\n", dash(v[i].name), dash(v[i].boot),
		       dash(v[i].kernel_release), dash(v[i].status));
		show_revision(r, n_r, v[i].name);
	}
	store_revision_rows_free(r, n_r);
	store_variant_rows_free(v, n);
	return 0;
}

/* The kernels the rig built for the run's variants (store_kbuild.h): each
 * variant's build status, key, and provenance lines (or why it failed and
 * where its log is). */
static int show_kernel_builds(struct store *s, int64_t id, char *err, size_t errsz)
{
	struct stored_kernel_build *kb;
	size_t n;
	if (store_kernel_builds(s, id, &kb, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++) {
		printf("%s  %s: kernel %s %s, key %.16s\n", i ? "" : "\nkernel builds:\n",
		       kb[i].variant, kb[i].kernel, kb[i].status, kb[i].build_key);
		char *text = xstrdup(kb[i].provenance), *save = NULL;
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (strncmp(l, "kernel ", 7) && strncmp(l, "key ", 4))
				printf("      %s\n", l);
		free(text);
		if (*kb[i].message)
			printf("      failed: %s\n      log: %s\n", kb[i].message, kb[i].log_path);
	}
	stored_kernel_builds_free(kb, n);
	return 0;
}

/* Knob changes per variant, from the restore journal: old -> applied, or
 * "refused by the kernel, unchanged" for a write that failed. A knob a
 * qemu guest changed (host "guest:VARIANT") is marked "in the guest". */
static int show_knobs(struct store *s, int64_t id, char *err, size_t errsz)
{
	struct stored_knob *k;
	size_t n;
	if (store_knob_list(s, id, &k, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++) {
		printf("%s  [%s%s] %s %s: ", i ? "" : "\nknobs:\n", dash(k[i].variant),
		       knob_host_is_guest(k[i].host) ? " in the guest" : "", dash(k[i].kind),
		       dash(k[i].name));
		/* Closed without a value read back: the write was refused (an IRQ
		 * the kernel will not move, EIO or EPERM: the run's note event
		 * says which), so nothing changed. */
		if (!k[i].applied_value && k[i].restored_at)
			printf("%s (requested %s): refused by the kernel, unchanged\n",
			       dash(k[i].old_value), dash(k[i].requested_value));
		else
			printf("%s -> %s (requested %s), %s%s\n", dash(k[i].old_value),
			       dash(k[i].applied_value), dash(k[i].requested_value),
			       k[i].restored_at ? "restored " : "NOT RESTORED: ",
			       k[i].restored_at ? k[i].restored_at : dash(k[i].path));
	}
	store_knob_rows_free(k, n);
	return 0;
}

/* The host state (store_host.h): the rig's machine's fingerprint when the
 * run began, then each variant's where its kernel ran, with its digest;
 * every field with its source, "(changes by itself)" on an unstable one. */
static int show_host_state(struct store *s, int64_t id, char *err, size_t errsz)
{
	struct stored_host_row *rows;
	size_t n;
	if (store_host_rows(s, id, &rows, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!i || rows[i].variant_id != rows[i - 1].variant_id) {
			char digest[65] = "";
			if (rows[i].variant_id &&
			    store_host_digest(s, rows[i].variant_id, digest, err, errsz) < 0) {
				store_host_rows_free(rows, n);
				return -1;
			}
			if (rows[i].variant_id)
				printf("\nhost state of variant %s (where its kernel ran, after its"
				       " settings; digest %.16s):\n", dash(rows[i].variant), digest);
			else
				printf("\nhost state of the rig's machine (when the run began):\n");
		}
		printf("  %-40s %s  [%s]%s\n", rows[i].field, rows[i].value, rows[i].source,
		       rows[i].stable ? "" : " (changes by itself)");
	}
	store_host_rows_free(rows, n);
	return 0;
}

/* One load instance (store_instance_views). */
static int show_instance(const struct stored_instance_view *v, void *ctx)
{
	(void)ctx;
	printf("  [%s] %s iteration %d (%s): %s", dash(v->variant), dash(v->cell), v->iteration,
	       dash(v->iteration_status), dash(v->name));
	if (v->repetition)
		printf(" repetition %d", v->repetition);
	printf(" %s %s, exit ", dash(v->role), dash(v->state));
	if (v->exited)
		printf("%d", v->exit_code);
	else
		printf("-");
	if (v->signalled)
		printf(", signal %d", v->term_signal);
	printf(", %.3f s, %lld samples\n", v->elapsed_s, (long long)v->n_samples);
	printf("      requested: %s\n      applied:   %s\n      argv:      %s\n",
	       v->sched_requested && !*v->sched_requested ? "(nothing: the defaults)"
							  : dash(v->sched_requested),
	       dash(v->sched_applied), dash(v->argv));
	if (v->reason)
		printf("      reason:    %s\n", v->reason);
	if (v->n_flagged)
		printf("      samples:   %lld flagged: %s\n", (long long)v->n_flagged, dash(v->flags));
	if (strcmp(dash(v->state), "ok") && strcmp(dash(v->state), "warmup")) {
		print_tail("stderr", v->err, v->err_len);
		print_tail("stdout", v->out, v->out_len);
	}
	return 0;
}

static int show_events(struct store *s, int64_t id, char *err, size_t errsz)
{
	struct stored_event *e;
	size_t n;
	if (store_event_list(s, id, &e, &n, err, errsz))
		return -1;
	for (size_t i = 0; i < n; i++)
		printf("%s  %s %s: %s\n", i ? "" : "\nevents:\n", e[i].at, e[i].kind, e[i].message);
	store_event_rows_free(e, n);
	return 0;
}

static int show_run(struct store *s, int64_t id, bool with_config)
{
	char err[512];
	int rc = show_provenance(s, id, with_config, err, sizeof(err)) ||
		 show_variants(s, id, err, sizeof(err)) ||
		 show_kernel_builds(s, id, err, sizeof(err)) || show_knobs(s, id, err, sizeof(err)) ||
		 show_host_state(s, id, err, sizeof(err));
	if (!rc) {
		printf("\nload instances:\n");
		rc = store_instance_views(s, id, show_instance, NULL, err, sizeof(err)) ||
		     show_events(s, id, err, sizeof(err));
	}
	if (rc)
		fprintf(stderr, "schedrig show: %s\n", err);
	return rc;
}

int cmd_show(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"config", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct cmd_value_flag o = {.value = DEFAULT_DB}; /* --db FILE, --config */
	struct cmd_optspec spec = {
		.shortopts = "", .longopts = longopts, .usage = usage_text, .report_getopt = 1,
		.on = cmd_value_flag_option, .ctx = &o,
	};
	int64_t id;
	int rc = cmd_parse(argc, argv, &spec);

	if (rc >= 0)
		return rc;
	if ((rc = cmd_one_run(ctx, o.value, argc, argv, usage_text, &id)))
		return rc;
	return show_run(ctx->st, id, o.flag);
}
