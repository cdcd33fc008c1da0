/* schedrig restore: put back every kernel knob the journal says is still
 * changed (a rig killed with -9, a crash, a power cut of the database host),
 * newest change first. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmdopts.h"
#include "commands.h"
#include "knob_journal.h"
#include "knob_pending.h"
#include "trace_knob.h"
#include "knobs.h"
#include "store.h"
#include "util.h"

static const char usage_text[] =
	"usage: schedrig restore [--db FILE]\n"
	"\n"
	"Restore every kernel knob (sysctl, debugfs sched/ tunable, sched_feature,\n"
	"autogroup, and the files of host: settings: THP, SMT control, cpufreq\n"
	"governor and boost, IRQ affinity) that a run changed and did not put back,\n"
	"newest change first, and mark it restored in the journal; a trace instance\n"
	"a run left (tracefs instances/schedrig-RUN-PID) is taken down: its events\n"
	"and tracing off, removed.\n"
	"A row is written only when its file is exactly the one the rig derives from\n"
	"its kind and name, a name a config may give (a database is not trusted); an\n"
	"instance only when it is one of the rig's under a tracefs; any other row is\n"
	"refused and left unrestored. Changes made in an earlier boot are only marked\n"
	"(the kernel has reset them), and so are changes made in a qemu guest (they\n"
	"died with it); changes made on another host are left for that host. Running\n"
	"it again does nothing. Once no change of this machine is left, it removes\n"
	"the host-wide record naming this database (while it is there, every schedrig\n"
	"run on this machine refuses to start). The database must be a file of root\n"
	"or of the user running restore that no one else can write or replace.\n"
	"\n"
	"  --db FILE   results database (default " DEFAULT_DB ")\n"
	"\n"
	"Exit status: 0 everything restored (or nothing to do), 1 a knob could not be\n"
	"restored (or a run is changing knobs on this machine now), 2 bad usage.\n";

/* Does restore_row write k on this machine (host, boot_id: this one's)? */
static bool writes_here(const struct stored_knob *k, const char *host, const char *boot_id)
{
	return !knob_host_is_guest(k->host) && !(k->host && *k->host && strcmp(k->host, host)) &&
	       !(k->boot_id && *k->boot_id && *boot_id && strcmp(k->boot_id, boot_id));
}

/* true when the host-wide record of unrestored changes (knob_pending.h)
 * names db. An unreadable record is reported and left alone. */
static bool record_names(const char *db)
{
	struct knob_pending p;
	char err[1024];
	int rc = knob_pending_read(&p, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "schedrig restore: %s\n", err);
	if (rc <= 0)
		return false;
	bool names = knob_pending_names(&p, db);
	knob_pending_free(&p);
	return names;
}

/* When the host-wide record names another database than db, runs still
 * refuse after this restore: say which database to restore. */
static void note_other_record(const char *db)
{
	struct knob_pending p;
	char err[1024];
	if (knob_pending_read(&p, err, sizeof(err)) <= 0)
		return;
	if (!knob_pending_names(&p, db))
		fprintf(stderr, "schedrig restore: runs on this machine still refuse: run %lld of %s"
			" left kernel knobs changed; run 'schedrig restore --db %s'\n",
			(long long)p.run_id, p.db, p.db);
	knob_pending_free(&p);
}

/* Restore one journal row. Returns 0 when it is restored (or needs no
 * restore) and marked, -1 when it failed (message printed). */
static int restore_row(struct store *s, const struct stored_knob *k, const char *host,
		       const char *boot_id)
{
	char err[1024], file[PATH_MAX];
	if (!k->variant || !k->kind || !k->name || !k->path || !k->old_value) {
		fprintf(stderr, "schedrig restore: run %lld: journal row %lld lacks its variant, kind,"
			" name, path or old value: refused\n", (long long)k->run_id, (long long)k->id);
		return -1;
	}
	if (knob_host_is_guest(k->host)) {
		printf("run %lld variant %s: %s was changed in a qemu guest (%s), which is gone:"
		       " nothing to write\n",
		       (long long)k->run_id, k->variant, k->path, k->host);
	} else if (k->host && *k->host && strcmp(k->host, host)) {
		fprintf(stderr,
			"schedrig restore: run %lld variant %s: %s was changed on host %s, not here"
			" (%s): run schedrig restore there\n",
			(long long)k->run_id, k->variant, k->path, k->host, host);
		return -1;
	} else if (k->boot_id && *k->boot_id && *boot_id && strcmp(k->boot_id, boot_id)) {
		printf("run %lld variant %s: %s was changed in an earlier boot: the kernel has reset"
		       " it, nothing to write\n",
		       (long long)k->run_id, k->variant, k->path);
	} else if (!strcmp(k->kind, KNOB_KIND_TRACE)) {
		if (trace_knob_restore(k))
			return -1;
	} else if (knob_row_check(k->kind, k->name, k->path, k->old_value, file, sizeof(file), err,
				  sizeof(err))) {
		fprintf(stderr, "schedrig restore: run %lld variant %s: journal row %lld (%s %s, %s):"
			" %s\n", (long long)k->run_id, k->variant, (long long)k->id, k->kind, k->name,
			k->path, err);
		return -1;
	} else if (knob_write_verify(file, k->old_value, NULL, 0, err, sizeof(err))) {
		fprintf(stderr, "schedrig restore: run %lld variant %s: %s\n", (long long)k->run_id,
			k->variant, err);
		return -1;
	} else {
		printf("run %lld variant %s: restored %s = %s (was set to %s)\n",
		       (long long)k->run_id, k->variant, file, k->old_value,
		       k->applied_value ? k->applied_value : k->requested_value);
	}
	if (store_knob_restored(s, k->id, err, sizeof(err))) {
		fprintf(stderr, "schedrig restore: %s\n", err);
		return -1;
	}
	return 0;
}

int cmd_restore(int argc, char **argv, struct cmd_ctx *ctx)
{
	const char *db = DEFAULT_DB;
	char err[1024], boot_id[64], real[PATH_MAX];
	struct utsname u;
	struct store *s;
	struct stored_knob *rows;
	size_t n, failed = 0;
	bool need_debugfs = false, need_lock = false, mounted = false, left_here = false;
	int lock = -1;

	int opt = cmd_db_options(argc, argv, usage_text, &db, 0, 0);
	if (opt >= 0)
		return opt;
	if (access(db, F_OK)) {
		fprintf(stderr, "schedrig restore: %s: no such results database\n", db);
		return 1;
	}
	/* Its rows steer root's writes: only a file nobody else could write. */
	if (path_trusted(db, real, sizeof(real), err, sizeof(err))) {
		fprintf(stderr, "schedrig restore: %s: refused (restore writes kernel knobs: the"
			" database must be root's or yours, writable by nobody else, in directories"
			" nobody else can change; if you trust its rows, copy it to such a directory"
			" and restore from the copy)\n", err);
		return 1;
	}
	db = real;
	if (!(s = cmd_store(ctx, db)))
		return 1;
	if (store_knob_unrestored(s, &rows, &n, err, sizeof(err))) {
		fprintf(stderr, "schedrig restore: %s\n", err);
		return 1;
	}
	if (uname(&u))
		u.nodename[0] = '\0';
	knob_boot_id(boot_id, sizeof(boot_id));
	for (size_t i = 0; i < n; i++) {
		bool here = writes_here(&rows[i], u.nodename, boot_id);
		need_lock |= here;
		need_debugfs |= here && rows[i].path && knob_path_is_debugfs(rows[i].path);
	}
	/* Writing knobs, or clearing the host-wide record, while a rig changes
	 * knobs would undo its changes: wait for the knob lock (refused while a
	 * rig holds it), then read the record again under it. */
	if ((need_lock || record_names(db)) && (lock = knobs_lock(err, sizeof(err))) < 0) {
		fprintf(stderr, "schedrig restore: %s\n", err);
		store_knob_rows_free(rows, n);
		return 1;
	}
	/* A failed mount is reported; the debugfs rows then fail one by one. */
	if (need_debugfs && knobs_debugfs_mount(&mounted, err, sizeof(err)))
		fprintf(stderr, "schedrig restore: %s\n", err);
	for (size_t i = 0; i < n; i++)
		if (restore_row(s, &rows[i], u.nodename, boot_id)) {
			failed++;
			left_here |= writes_here(&rows[i], u.nodename, boot_id);
		}
	if (mounted)
		knobs_debugfs_unmount();
	if (!n)
		printf("nothing to restore: every journalled knob is restored\n");
	else if (failed)
		fprintf(stderr, "schedrig restore: %zu of %zu knob change(s) not restored\n",
			failed, n);
	else
		printf("%zu knob change(s) restored\n", n);
	/* Nothing of this machine left changed: no run need refuse for db any more. */
	if (lock >= 0 && !left_here && record_names(db)) {
		if (knob_pending_remove(err, sizeof(err))) {
			fprintf(stderr, "schedrig restore: %s\n", err);
			left_here = true;
		} else {
			printf("the host-wide record of this database's knob changes is removed\n");
		}
	}
	note_other_record(db);
	if (lock >= 0)
		close(lock);
	store_knob_rows_free(rows, n);
	return failed || left_here ? 1 : 0;
}
