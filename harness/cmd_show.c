/* schedrig show RUN: provenance, variants, every load instance with its
 * requested and applied scheduling attributes, exit status and failures. */
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "knob_journal.h"
#include "provenance.h"
#include "store.h"
#include "store_kbuild.h"

static const char usage_text[] =
	"usage: schedrig show RUN [--db FILE] [--config]\n"
	"\n"
	"Show one run (an id, a name for its newest run, or 'latest').\n"
	"  --db FILE   results database (default results/schedrig.db)\n"
	"  --config    also print the config text as it was run\n";

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "-";
}

static sqlite3_stmt *query(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "schedrig show: %s\n", sqlite3_errmsg(db));
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	return st;
}

/* The last TAIL_LINES lines of a failed load's output (column i, a blob),
 * each cut at TAIL_WIDTH bytes: why it failed, in the tool's own words. */
#define TAIL_LINES 5
#define TAIL_WIDTH 200
static void print_tail(const char *label, sqlite3_stmt *st, int i)
{
	const char *b = sqlite3_column_blob(st, i);
	int len = sqlite3_column_bytes(st, i);
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

/* The kernels the rig built for the run's variants (store_kbuild.h): each
 * variant's build status, key, and provenance lines (or why it failed and
 * where its log is). */
static int show_kernel_builds(struct store *s, int64_t id)
{
	struct stored_kernel_build *kb;
	size_t n;
	char err[512];
	if (store_kernel_builds(s, id, &kb, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig show: %s\n", err);
		return 1;
	}
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

static int show_run(struct store *s, int64_t id, int with_config)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st = query(db,
				 "SELECT id, name, status, started_at, ended_at, host, kernel_release,"
				 " kernel_cmdline, cpu_model, cpu_count, schedrig_version, iterations,"
				 " config_path, config_text, rig_pid, boot_id, rig_start_ticks FROM run"
				 " WHERE id = ?",
				 id);
	if (!st)
		return 1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *status = provenance_run_status(col(st, 2), col(st, 5), col(st, 15),
							   sqlite3_column_int64(st, 14),
							   sqlite3_column_int64(st, 16));
		printf("run %s: %s (%s)\n", col(st, 0), col(st, 1), status);
		if (strcmp(status, col(st, 2)))
			printf("  its schedrig (pid %s) is gone; finish it with schedrig run"
			       " --resume %s\n", col(st, 14), col(st, 0));
		printf("  started    %s\n  ended      %s\n", col(st, 3), col(st, 4));
		printf("  host       %s\n  kernel     %s\n  cmdline    %s\n", col(st, 5), col(st, 6),
		       col(st, 7));
		printf("  cpu        %s x %s\n  schedrig   %s\n  iterations %s\n  config     %s\n",
		       col(st, 9), col(st, 8), col(st, 10), col(st, 11), col(st, 12));
	}
	sqlite3_finalize(st);
	/* The order its iterations ran in (harness/order.h; runs from before
	 * orders were stored ran blocked). */
	st = query(db, "SELECT message FROM event WHERE run_id = ? AND kind = 'order' ORDER BY id", id);
	if (!st)
		return 1;
	printf("  order      %s\n", sqlite3_step(st) == SQLITE_ROW ? col(st, 0) : "blocked");
	sqlite3_finalize(st);
	if (with_config) {
		st = query(db, "SELECT config_text FROM run WHERE id = ?", id);
		if (!st)
			return 1;
		if (sqlite3_step(st) == SQLITE_ROW)
			printf("\n%s\n", col(st, 0));
		sqlite3_finalize(st);
	}

	st = query(db, "SELECT name, boot, kernel_release, status FROM variant WHERE run_id = ?"
		       " ORDER BY seq", id);
	if (!st)
		return 1;
	printf("\nvariants:\n");
	while (sqlite3_step(st) == SQLITE_ROW)
		printf("  %-20s boot %-8s kernel %-24s %s\n", col(st, 0), col(st, 1), col(st, 2),
		       col(st, 3));
	sqlite3_finalize(st);
	if (show_kernel_builds(s, id))
		return 1;

	/* Knob changes per variant, from the restore journal: old -> applied. */
	/* A knob a qemu guest changed (host "guest:VARIANT") is marked "in the guest". */
	st = query(db, "SELECT variant, kind, name, old_value, requested_value, applied_value,"
		       " restored_at, path, host FROM knob WHERE run_id = ? ORDER BY id", id);
	if (!st)
		return 1;
	for (int n = 0; sqlite3_step(st) == SQLITE_ROW; n++)
		printf("%s  [%s%s] %s %s: %s -> %s (requested %s), %s%s\n", n ? "" : "\nknobs:\n",
		       col(st, 0), knob_host_is_guest(col(st, 8)) ? " in the guest" : "",
		       col(st, 1), col(st, 2), col(st, 3), col(st, 5), col(st, 4),
		       sqlite3_column_type(st, 6) == SQLITE_NULL ? "NOT RESTORED: " : "restored ",
		       sqlite3_column_type(st, 6) == SQLITE_NULL ? col(st, 7) : col(st, 6));
	sqlite3_finalize(st);

	st = query(db,
		   "SELECT v.name, c.name, i.iteration, i.status, li.name, li.repetition, li.role,"
		   " li.state, li.exit_code, li.term_signal, li.sched_requested, li.sched_applied,"
		   " li.argv, li.reason, printf('%.3f', li.elapsed_s),"
		   " (SELECT count(*) FROM sample_value s WHERE s.load_instance_id = li.id),"
		   " r.stdout, r.stderr"
		   " FROM iteration i JOIN variant v ON v.id = i.variant_id"
		   " JOIN cell c ON c.id = i.cell_id"
		   " JOIN load_instance li ON li.iteration_id = i.id"
		   " LEFT JOIN raw_output r ON r.load_instance_id = li.id"
		   " WHERE v.run_id = ? ORDER BY v.seq, c.seq, i.iteration, li.seq, li.repetition",
		   id);
	if (!st)
		return 1;
	printf("\nload instances:\n");
	while (sqlite3_step(st) == SQLITE_ROW) {
		printf("  [%s] %s iteration %s (%s): %s", col(st, 0), col(st, 1), col(st, 2),
		       col(st, 3), col(st, 4));
		if (sqlite3_column_int(st, 5))
			printf(" repetition %s", col(st, 5));
		printf(" %s %s, exit %s", col(st, 6), col(st, 7), col(st, 8));
		if (sqlite3_column_type(st, 9) != SQLITE_NULL)
			printf(", signal %s", col(st, 9));
		printf(", %s s, %s samples\n", col(st, 14), col(st, 15));
		printf("      requested: %s\n      applied:   %s\n      argv:      %s\n",
		       *col(st, 10) ? col(st, 10) : "(nothing: the defaults)", col(st, 11),
		       col(st, 12));
		if (sqlite3_column_type(st, 13) != SQLITE_NULL)
			printf("      reason:    %s\n", col(st, 13));
		if (strcmp(col(st, 7), "ok")) {
			print_tail("stderr", st, 17);
			print_tail("stdout", st, 16);
		}
	}
	sqlite3_finalize(st);

	st = query(db, "SELECT at, kind, message FROM event WHERE run_id = ? ORDER BY id", id);
	if (!st)
		return 1;
	int header = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!header++)
			printf("\nevents:\n");
		printf("  %s %s: %s\n", col(st, 0), col(st, 1), col(st, 2));
	}
	sqlite3_finalize(st);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"config", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *db = "results/schedrig.db";
	int with_config = 0, ch;
	struct store *s;
	char err[512];
	int64_t *ids;
	size_t n;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 'd')
			db = optarg;
		else if (ch == 'c')
			with_config = 1;
		else if (ch == 'h') {
			fputs(usage_text, stdout);
			return 0;
		} else {
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (store_open(db, true, &s, err, sizeof(err)) ||
	    store_select_runs(s, argv + optind, (size_t)(argc - optind), &ids, &n, err,
			      sizeof(err))) {
		fprintf(stderr, "schedrig show: %s\n", err);
		store_close(s);
		return 1;
	}
	int rc = show_run(s, ids[0], with_config);
	free(ids);
	store_close(s);
	return rc;
}
