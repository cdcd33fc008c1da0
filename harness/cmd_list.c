/* schedrig list: the runs in a results database, newest last. */
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>

#include "commands.h"
#include "provenance.h"
#include "store.h"

static const char usage_text[] =
	"usage: schedrig list [--db FILE]\n"
	"\n"
	"List the runs: id, name, start date, kernel release, cells, iterations, status\n"
	"(abandoned: a run whose schedrig died, e.g. killed -9; finish it with\n"
	"schedrig run --resume ID).\n"
	"  --db FILE   results database (default " DEFAULT_DB ")\n";

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "-";
}

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *db = DEFAULT_DB;
	struct store *s;
	sqlite3_stmt *st;
	char err[512];
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 'd')
			db = optarg;
		else if (ch == 'h') {
			fputs(usage_text, stdout);
			return 0;
		} else {
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (store_open(db, true, &s, err, sizeof(err))) {
		fprintf(stderr, "schedrig list: %s\n", err);
		return 1;
	}
	if (sqlite3_prepare_v2(store_db(s),
			       "SELECT r.id, r.name, r.started_at, r.kernel_release,"
			       " (SELECT count(*) FROM cell c WHERE c.run_id = r.id),"
			       " r.iterations, r.status, r.host, r.boot_id, r.rig_pid, r.rig_start_ticks"
			       " FROM run r ORDER BY r.id",
			       -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "schedrig list: %s\n", sqlite3_errmsg(store_db(s)));
		store_close(s);
		return 1;
	}
	printf("%-5s %-32s %-20s %-24s %5s %5s %s\n", "id", "name", "started (UTC)", "kernel",
	       "cells", "iters", "status");
	while (sqlite3_step(st) == SQLITE_ROW)
		printf("%-5s %-32s %-20s %-24s %5s %5s %s\n", col(st, 0), col(st, 1), col(st, 2),
		       col(st, 3), col(st, 4), col(st, 5),
		       provenance_run_status(col(st, 6), col(st, 7), col(st, 8),
					     sqlite3_column_int64(st, 9), sqlite3_column_int64(st, 10)));
	sqlite3_finalize(st);
	store_close(s);
	return 0;
}
