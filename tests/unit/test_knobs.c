/* Knobs and their restore journal, against files in a temp directory that
 * stand in for /proc/sys and /sys/kernel/debug (knobs_set_roots): the real
 * path logic (dotted and slashed sysctl keys, sched/ tunables, the features
 * file) with plain files. The knob lock and the host-wide pending record live
 * in the temp directory too (knobs_set_lock_dir). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "commands.h"
#include "knob_journal.h"
#include "knob_pending.h"
#include "knobs.h"
#include "store.h"
#include "util.h"

static char dir[] = "/tmp/schedrig-knobs.XXXXXX";
static char proc_dir[256], dbg_dir[256];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The file's text, trailing newline dropped (static buffer). */
static const char *get(const char *rel)
{
	static char text[4096];
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(proc_dir, sizeof(proc_dir), "%s/proc/sys", dir);
	snprintf(dbg_dir, sizeof(dbg_dir), "%s/debug", dir);
	knobs_set_roots(proc_dir, dbg_dir);
	knobs_set_lock_dir(dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	knobs_set_roots(NULL, NULL);
	knobs_set_lock_dir(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* Fresh "kernel" files before each test. */
static int fresh(void **state)
{
	(void)state;
	put("proc/sys/kernel/sched_autogroup_enabled", "1\n");
	put("proc/sys/kernel/sched_child_runs_first", "0\n");
	put("proc/sys/net/ipv4/conf/eth0.100/rp_filter", "1\n");
	put("debug/sched/base_slice_ns", "3000000\n");
	put("debug/sched/features", "PLACE_LAG RUN_TO_PARITY NO_NEXT_BUDDY\n");
	return 0;
}

/* An in-memory journal: one line per callback; checks that the file still
 * holds the old value when record is called. */
struct mem_journal {
	char log[32][256];
	int n;
	int fail_record_at; /* seq whose record fails, -1 none */
};

static int mem_record(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	struct mem_journal *j = ctx;
	if (e->seq == j->fail_record_at) {
		snprintf(err, errsz, "journal full");
		return -1;
	}
	assert_null(e->applied_value);
	assert_false(e->changed);
	/* Before the change: the file still holds the old value. */
	if (strcmp(e->kind, "sched_features")) {
		FILE *f = fopen(e->path, "r");
		char now[256] = "";
		assert_non_null(f);
		assert_non_null(fgets(now, sizeof(now), f));
		fclose(f);
		now[strcspn(now, "\n")] = '\0';
		assert_string_equal(now, e->old_value);
	}
	snprintf(j->log[j->n++], sizeof(j->log[0]), "record %d %s %s %s->%s", e->seq, e->kind,
		 e->name, e->old_value, e->requested_value);
	return 0;
}

static int mem_applied(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)err, (void)errsz;
	struct mem_journal *j = ctx;
	snprintf(j->log[j->n++], sizeof(j->log[0]), "applied %d %s", e->seq, e->applied_value);
	return 0;
}

static int mem_restored(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)err, (void)errsz;
	struct mem_journal *j = ctx;
	snprintf(j->log[j->n++], sizeof(j->log[0]), "restored %d", e->seq);
	return 0;
}

static struct cfg_knob sysctl_knobs[] = {
	{"kernel.sched_child_runs_first", "1", 0, 0},
	{"net/ipv4/conf/eth0.100/rp_filter", "2", 0, 0},
};
static struct cfg_knob debugfs_knobs[] = {{"base_slice_ns", "700000", 0, 0}};
static struct cfg_knob feature_knobs[] = {{"NO_PLACE_LAG", NULL, 0, 0}};

static struct cfg_variant full_variant(void)
{
	return (struct cfg_variant){
		.name = "tuned", .autogroup = 0,
		.sysctl = sysctl_knobs, .n_sysctl = 2,
		.debugfs = debugfs_knobs, .n_debugfs = 1,
		.sched_features = feature_knobs, .n_sched_features = 1,
	};
}

static void test_apply_then_restore(void **state)
{
	(void)state;
	struct cfg_variant v = full_variant();
	struct mem_journal j = {.fail_record_at = -1};
	struct knob_journal_ops ops = {mem_record, mem_applied, mem_restored, &j};
	struct knob_state *st;
	char err[1024];

	assert_int_equal(knobs_count(&v), 5);
	assert_int_equal(knobs_apply(&v, &ops, &st, err, sizeof(err)), 0);
	assert_int_equal(st->n, 5);
	/* Order: autogroup, sysctl, debugfs, sched_features; record before applied. */
	assert_string_equal(j.log[0], "record 0 sysctl kernel.sched_autogroup_enabled 1->0");
	assert_string_equal(j.log[1], "applied 0 0");
	assert_string_equal(j.log[2], "record 1 sysctl kernel.sched_child_runs_first 0->1");
	assert_string_equal(j.log[4], "record 2 sysctl net/ipv4/conf/eth0.100/rp_filter 1->2");
	assert_string_equal(j.log[6], "record 3 debugfs base_slice_ns 3000000->700000");
	assert_string_equal(j.log[8], "record 4 sched_features NO_PLACE_LAG PLACE_LAG->NO_PLACE_LAG");
	assert_string_equal(j.log[9], "applied 4 NO_PLACE_LAG");
	assert_int_equal(j.n, 10);
	/* Real paths: dots become slashes only in dotted keys. */
	char want[512];
	snprintf(want, sizeof(want), "%s/kernel/sched_autogroup_enabled", proc_dir);
	assert_string_equal(st->entries[0].path, want);
	snprintf(want, sizeof(want), "%s/net/ipv4/conf/eth0.100/rp_filter", proc_dir);
	assert_string_equal(st->entries[2].path, want);
	snprintf(want, sizeof(want), "%s/sched/features", dbg_dir);
	assert_string_equal(st->entries[4].path, want);
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "0");
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "1");
	assert_string_equal(get("proc/sys/net/ipv4/conf/eth0.100/rp_filter"), "2");
	assert_string_equal(get("debug/sched/base_slice_ns"), "700000");
	assert_string_equal(get("debug/sched/features"), "NO_PLACE_LAG");
	assert_string_equal(st->entries[3].applied_value, "700000");

	assert_int_equal(knobs_restore(st, &ops, err, sizeof(err)), 0);
	/* Newest first. */
	for (int i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "restored %d", 4 - i);
		assert_string_equal(j.log[10 + i], want);
	}
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "0");
	assert_string_equal(get("proc/sys/net/ipv4/conf/eth0.100/rp_filter"), "1");
	assert_string_equal(get("debug/sched/base_slice_ns"), "3000000");
	assert_string_equal(get("debug/sched/features"), "PLACE_LAG");
	/* Restoring twice does nothing more. */
	assert_int_equal(knobs_restore(st, &ops, err, sizeof(err)), 0);
	assert_int_equal(j.n, 15);
	knobs_free(st);
}

static void test_missing_feature_restores_earlier(void **state)
{
	(void)state;
	struct cfg_variant v = full_variant();
	struct mem_journal j = {.fail_record_at = -1};
	struct knob_journal_ops ops = {mem_record, mem_applied, mem_restored, &j};
	struct knob_state *st = (void *)1;
	char err[1024], want[512];
	struct utsname u;

	put("debug/sched/features", "GENTLE_FAIR_SLEEPERS START_DEBIT NO_NEXT_BUDDY\n");
	assert_int_equal(knobs_apply(&v, &ops, &st, err, sizeof(err)), -1);
	assert_null(st);
	uname(&u);
	snprintf(want, sizeof(want), "this kernel (%s) has no sched_feature PLACE_LAG", u.release);
	assert_string_equal(err, want);
	/* Four knobs changed and restored, newest first; the feature never journalled. */
	assert_int_equal(j.n, 12);
	assert_string_equal(j.log[8], "restored 3");
	assert_string_equal(j.log[11], "restored 0");
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	assert_string_equal(get("debug/sched/base_slice_ns"), "3000000");
	assert_string_equal(get("debug/sched/features"),
			    "GENTLE_FAIR_SLEEPERS START_DEBIT NO_NEXT_BUDDY");
}

static void test_missing_sysctl(void **state)
{
	(void)state;
	struct cfg_knob k[] = {{"kernel.sched_child_runs_first", "1", 0, 0},
			       {"kernel.sched_latency_ns", "1000", 0, 0}};
	struct cfg_variant v = {.name = "x", .autogroup = -1, .sysctl = k, .n_sysctl = 2};
	struct knob_state *st;
	char err[1024], want[1024];
	struct utsname u;

	uname(&u);
	assert_int_equal(knobs_apply(&v, NULL, &st, err, sizeof(err)), -1);
	snprintf(want, sizeof(want),
		 "%s/kernel/sched_latency_ns: no such file (this kernel (%s) has no sysctl"
		 " kernel.sched_latency_ns)",
		 proc_dir, u.release);
	assert_string_equal(err, want);
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "0");
}

static void test_read_back_differs(void **state)
{
	(void)state;
	char path[512], err[1024], want[1024];
	/* A null device takes the write and reads back empty, like a knob
	 * that silently ignores a value (a node in the fake /proc/sys: a
	 * symbolic link out of it would be refused). */
	snprintf(path, sizeof(path), "%s/kernel/sched_ignored", proc_dir);
	if (mknod(path, S_IFCHR | 0666, makedev(1, 3)))
		skip(); /* no CAP_MKNOD */
	struct cfg_knob k[] = {{"kernel.sched_child_runs_first", "1", 0, 0},
			       {"kernel/sched_ignored", "5", 0, 0}};
	struct cfg_variant v = {.name = "x", .autogroup = -1, .sysctl = k, .n_sysctl = 2};
	struct mem_journal j = {.fail_record_at = -1};
	struct knob_journal_ops ops = {NULL, mem_applied, mem_restored, &j};
	struct knob_state *st;

	assert_int_equal(knobs_apply(&v, &ops, &st, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: wrote '5', read back ''", path);
	assert_string_equal(err, want);
	/* The applied value is journalled even when it differs. */
	assert_string_equal(j.log[0], "applied 0 1");
	assert_string_equal(j.log[1], "applied 1 ");
	assert_string_equal(j.log[2], "restored 1");
	assert_string_equal(j.log[3], "restored 0");
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "0");
	unlink(path);
}

/* Only knobs the rig sets are ever written, whatever a path says once its
 * symbolic links are resolved (a results database is a file anyone with
 * write access to it may edit): knob_write_verify is what restore uses. */
static void test_only_knob_files(void **state)
{
	(void)state;
	char path[512], link_path[512], err[1024];
	put("etc/passwd", "root:x:0:0\n");
	put("proc/sys/kernel/core_pattern", "core\n");
	put("proc/sys/fs/binfmt_misc/register", "\n");
	put("debug/tracing/tracing_on", "0\n");
	static const struct {
		const char *rel; /* below dir */
		bool ok;
	} cases[] = {
		{"proc/sys/kernel/sched_child_runs_first", true},
		{"debug/sched/base_slice_ns", true},
		{"etc/passwd", false},
		{"proc/sys/kernel/core_pattern", false},
		{"proc/sys/fs/binfmt_misc/register", false},
		{"debug/tracing/tracing_on", false},
		{"proc/sys/kernel/../../../etc/passwd", false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].rel);
		int rc = knob_write_verify(path, "7", NULL, 0, err, sizeof(err));
		if (rc != (cases[i].ok ? 0 : -1))
			print_error("%s: %s\n", cases[i].rel, err);
		assert_int_equal(rc, cases[i].ok ? 0 : -1);
		if (!cases[i].ok)
			assert_non_null(strstr(err, "is not a knob schedrig sets"));
	}
	assert_string_equal(get("etc/passwd"), "root:x:0:0");
	assert_string_equal(get("proc/sys/kernel/core_pattern"), "core");
	/* A symbolic link in the knob tree that leads out of it. */
	snprintf(link_path, sizeof(link_path), "%s/kernel/sched_evil", proc_dir);
	snprintf(path, sizeof(path), "%s/etc/passwd", dir);
	assert_int_equal(symlink(path, link_path), 0);
	assert_int_equal(knob_write_verify(link_path, "x", NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "etc/passwd) is not a knob schedrig sets"));
	assert_string_equal(get("etc/passwd"), "root:x:0:0");
	unlink(link_path);
	/* A path that does not exist is not written either. */
	snprintf(path, sizeof(path), "%s/kernel/nosuch", proc_dir);
	assert_int_equal(knob_write_verify(path, "1", NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nosuch: cannot write '1': No such file or directory"));
}

static void test_journal_failure_changes_nothing(void **state)
{
	(void)state;
	struct cfg_variant v = full_variant();
	struct mem_journal j = {.fail_record_at = 2};
	struct knob_journal_ops ops = {mem_record, mem_applied, mem_restored, &j};
	struct knob_state *st;
	char err[1024];

	assert_int_equal(knobs_apply(&v, &ops, &st, err, sizeof(err)), -1);
	assert_string_equal(err, "journal full");
	assert_string_equal(get("proc/sys/net/ipv4/conf/eth0.100/rp_filter"), "1");
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "0");
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	assert_string_equal(j.log[j.n - 1], "restored 0");
}

/* The host journal in SQLite: rows before changes, applied values, and what
 * "schedrig restore" does after a crash (no knobs_restore call). */
static void test_database_journal_after_crash(void **state)
{
	(void)state;
	char db[512], err[1024];
	struct store *s;
	int64_t run;
	struct knob_db_journal kj;
	struct knob_state *st;
	struct stored_knob *rows;
	size_t n;
	struct cfg_variant v = full_variant();

	snprintf(db, sizeof(db), "%s/results.db", dir);
	assert_int_equal(store_open(db, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "knobs", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	knob_journal_set_db(db);
	knob_db_journal_init(&kj, s, run, "tuned");
	assert_int_equal(knobs_apply(&v, &kj.ops, &st, err, sizeof(err)), 0);
	knob_db_journal_free(&kj);
	knobs_free(st); /* "crash": nothing restored */

	/* The host-wide record names the run; nobody holds the knob lock, so
	 * every run on the machine is refused, and so is a change of knobs. */
	char want[2048];
	snprintf(want, sizeof(want),
		 "run %lld (pid %ld) of %s left kernel knobs changed on this machine (killed, or"
		 " its restore failed): run 'schedrig restore --db %s' first",
		 (long long)run, (long)getpid(), db, db);
	char msg[2048];
	assert_int_equal(knobs_host_clean(msg, sizeof(msg)), -1);
	assert_string_equal(msg, want);
	struct mem_journal mj = {.fail_record_at = -1};
	struct knob_journal_ops ops = {mem_record, mem_applied, mem_restored, &mj};
	struct cfg_variant other = {.name = "other", .autogroup = 1};
	assert_int_equal(knobs_apply(&other, &ops, &st, msg, sizeof(msg)), -1);
	assert_string_equal(msg, want);
	assert_int_equal(mj.n, 0);
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "0");

	assert_int_equal(store_knob_list(s, run, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_string_equal(rows[0].variant, "tuned");
	assert_string_equal(rows[0].name, "kernel.sched_autogroup_enabled");
	assert_string_equal(rows[0].old_value, "1");
	assert_string_equal(rows[0].requested_value, "0");
	assert_string_equal(rows[0].applied_value, "0");
	assert_string_equal(rows[4].old_value, "PLACE_LAG");
	assert_string_equal(rows[4].applied_value, "NO_PLACE_LAG");
	assert_null(rows[4].restored_at);
	assert_non_null(rows[4].changed_at);
	store_knob_rows_free(rows, n);

	assert_int_equal(store_knob_unrestored(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_int_equal(rows[0].seq, 4); /* newest first */
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(knob_write_verify(rows[i].path, rows[i].old_value, NULL, 0, err,
						   sizeof(err)),
				 0);
		assert_int_equal(store_knob_restored(s, rows[i].id, err, sizeof(err)), 0);
	}
	store_knob_rows_free(rows, n);
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	assert_string_equal(get("debug/sched/features"), "PLACE_LAG");
	assert_int_equal(store_knob_unrestored(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	store_close(s);
	assert_int_equal(knob_pending_remove(err, sizeof(err)), 0);
	assert_int_equal(knobs_host_clean(err, sizeof(err)), 0);
}

/* The database journal keeps the host-wide record exactly while a change of
 * this machine is not marked restored; a guest's knob never writes one. */
static void test_database_journal_pending_record(void **state)
{
	(void)state;
	char db[512], err[1024];
	struct store *s;
	int64_t run;
	struct knob_db_journal kj;
	struct knob_state *st;
	struct knob_pending p;
	struct cfg_variant v = full_variant();

	snprintf(db, sizeof(db), "%s/pending.db", dir);
	assert_int_equal(store_open(db, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "knobs", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	knob_journal_set_db(db);
	knob_db_journal_init(&kj, s, run, "tuned");

	struct knob_entry g = {.seq = 0, .kind = "sysctl", .name = "kernel.x",
			       .path = "/proc/sys/kernel/x", .old_value = "1",
			       .requested_value = "0", .host = KNOB_HOST_GUEST_PREFIX "tuned"};
	assert_int_equal(kj.ops.record(kj.ops.ctx, &g, err, sizeof(err)), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), 0);
	assert_int_equal(kj.ops.restored(kj.ops.ctx, &g, err, sizeof(err)), 0);
	knob_db_journal_free(&kj);

	knob_db_journal_init(&kj, s, run, "tuned");
	assert_int_equal(knobs_apply(&v, &kj.ops, &st, err, sizeof(err)), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), 1);
	assert_int_equal(p.run_id, run);
	assert_int_equal(p.pid, getpid());
	assert_true(knob_pending_names(&p, db));
	knob_pending_free(&p);
	/* The lock is held: another run is told a rig is changing knobs now. */
	char want[256];
	snprintf(want, sizeof(want), "another schedrig (pid %ld) is changing kernel knobs on this"
		 " machine now; what runs meanwhile would measure its settings: try again when"
		 " it is done", (long)getpid());
	assert_int_equal(knobs_host_clean(err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_int_equal(knobs_restore(st, &kj.ops, err, sizeof(err)), 0);
	knobs_free(st);
	knob_db_journal_free(&kj);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), 0);
	assert_int_equal(knobs_host_clean(err, sizeof(err)), 0);
	store_close(s);
}

/* The record's file: any database path round-trips (made absolute, the same
 * file however named); a record of another boot is none; garbage is an error. */
static void test_pending_record_file(void **state)
{
	(void)state;
	char db[512], alias[600], err[1024], want[1024];
	struct knob_pending p;

	snprintf(db, sizeof(db), "%s/odd name\nwith newline.db", dir);
	put("odd name\nwith newline.db", "");
	assert_int_equal(knob_pending_write(db, 42, err, sizeof(err)), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), 1);
	assert_string_equal(p.db, db);
	assert_int_equal(p.run_id, 42);
	snprintf(alias, sizeof(alias), "%s/./odd name\nwith newline.db", dir);
	assert_true(knob_pending_names(&p, alias));
	assert_false(knob_pending_names(&p, "/nonexistent.db"));
	knob_pending_free(&p);

	/* The database is gone: the message says how to get out. */
	assert_int_equal(knob_pending_write("/nonexistent/gone.db", 7, err, sizeof(err)), 0);
	snprintf(want, sizeof(want),
		 "run 7 (pid %ld) of /nonexistent/gone.db left kernel knobs changed on this"
		 " machine (killed, or its restore failed): run 'schedrig restore --db"
		 " /nonexistent/gone.db' first; that database is gone: put the knobs back by"
		 " hand, then remove %s/" KNOB_PENDING_FILE,
		 (long)getpid(), dir);
	assert_int_equal(knob_pending_check(err, sizeof(err)), -1);
	assert_string_equal(err, want);

	put(KNOB_PENDING_FILE, "pid 1\nrun 2\nboot 00000000-0000-0000-0000-000000000000\ndb /a.db\n");
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), 0);
	assert_int_equal(knob_pending_check(err, sizeof(err)), 0);

	put(KNOB_PENDING_FILE, "pid 1\nrun two\n");
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/" KNOB_PENDING_FILE ": not a schedrig knob record"
		 " (remove it once the knobs it was about are put back)", dir);
	assert_string_equal(err, want);
	assert_int_equal(knob_pending_remove(err, sizeof(err)), 0);
	assert_int_equal(knob_pending_remove(err, sizeof(err)), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), 0);
}

/* The record is trusted only as a regular file of this euid or root that
 * nobody else may write: another user's (a forgery in the 1777 /run/lock),
 * a group- or other-writable one and a symbolic link are refused, saying
 * so, and steer nobody to their database. */
static void test_pending_record_untrusted(void **state)
{
	(void)state;
	char path[512], want[1024], err[1024];
	struct knob_pending p;
	const char *text = "pid 1\nrun 1\nboot -\ndb /tmp/evil/evil.db\n";

	if (geteuid())
		skip(); /* chown to another uid needs root */
	snprintf(path, sizeof(path), "%s/" KNOB_PENDING_FILE, dir);
	put(KNOB_PENDING_FILE, text);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "record %s is owned by uid 65534 (mode 0644), not trusted;"
		 " remove it", path);
	assert_string_equal(err, want);
	assert_int_equal(knob_pending_check(err, sizeof(err)), -1);
	assert_string_equal(err, want);

	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "record %s is owned by uid 0 (mode 0666), not trusted;"
		 " remove it", path);
	assert_string_equal(err, want);

	char target[512];
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(chmod(target, 0644), 0);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(knob_pending_read(&p, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "record %s is a symbolic link, not trusted; remove it", path);
	assert_string_equal(err, want);
	assert_int_equal(knob_pending_remove(err, sizeof(err)), 0);
	unlink(target);
}

/* Names a config may give a knob (knob_name_check): sysctl keys as
 * sysctl(8) reads them, no alias of a refused one. */
static void test_knob_names(void **state)
{
	(void)state;
	static const struct {
		const char *kind, *name;
		bool ok;
	} cases[] = {
		{"sysctl", "kernel.sched_child_runs_first", true},
		{"sysctl", "kernel/sched_child_runs_first", true},
		{"sysctl", "net/ipv4/conf/eth0.100/rp_filter", true},
		{"sysctl", "net.ipv4.conf.eth0/100.rp_filter", true},
		{"sysctl", "kernel.core_pattern", false},
		{"sysctl", "kernel/core_pattern", false},
		{"sysctl", "kernel//core_pattern", false},
		{"sysctl", "kernel..core_pattern", false},
		{"sysctl", "kernel.core_pattern.", false},
		{"sysctl", "kernel/core_pattern/", false},
		{"sysctl", "./kernel/core_pattern", false},
		{"sysctl", "kernel/./core_pattern", false},
		{"sysctl", "kernel/../kernel/core_pattern", false},
		{"sysctl", "/kernel/core_pattern", false},
		{"sysctl", ".kernel.core_pattern", false},
		{"sysctl", "kernel.usermodehelper.bset", false},
		{"sysctl", "kernel/usermodehelper", false},
		{"sysctl", "fs/binfmt_misc/register", false},
		{"sysctl", "kernel.sched child", false},
		{"sysctl", "", false},
		{"debugfs", "base_slice_ns", true},
		{"debugfs", "sched/base_slice_ns", true},
		{"debugfs", "numa_balancing/scan_delay_ms", true},
		{"debugfs", "../../proc/sys/kernel/x", false},
		{"debugfs", "sched//base_slice_ns", false},
		{"debugfs", "base_slice_ns/", false},
		{"debugfs", "", false},
		{"debugfs", "features", false},
		{"debugfs", "sched/features", false},
		{"debugfs", "preempt", false},
		{"debugfs", "sched/preempt", false},
		{"sched_features", "NO_PLACE_LAG", true},
		{"sched_features", "no_place_lag", false},
		{"sched_features", "", false},
		{"sysctl_or_not", "kernel.x", false},
	};
	char err[512];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = knob_name_check(cases[i].kind, cases[i].name, err, sizeof(err));
		if (rc != (cases[i].ok ? 0 : -1))
			fail_msg("%s '%s': %s", cases[i].kind, cases[i].name, rc ? err : "accepted");
	}
	assert_int_equal(knob_name_check("sysctl", "kernel/core_pattern", err, sizeof(err)), -1);
	assert_string_equal(err, "sysctl: kernel/core_pattern names a program the kernel runs as"
			    " root, not a scheduler knob: schedrig never writes it");
	assert_int_equal(knob_name_check("debugfs", "features", err, sizeof(err)), -1);
	assert_string_equal(err, "debugfs: features is the sched_features list, not a value knob:"
			    " use sched_features: [NAME or NO_NAME]");
	assert_int_equal(knob_name_check("debugfs", "sched/preempt", err, sizeof(err)), -1);
	assert_string_equal(err, "debugfs: sched/preempt reads back a list of modes with the"
			    " current one in parentheses, not the value written: schedrig cannot"
			    " verify or restore it (boot with preempt= instead)");
}

/* A journal row of kind debugfs naming the features file is refused by
 * restore's row check too (it would bypass the sched_features value check). */
static void test_row_check_debugfs_features(void **state)
{
	(void)state;
	char path[512], file[512], err[1024];
	snprintf(path, sizeof(path), "%s/sched/features", dbg_dir);
	assert_int_equal(knob_row_check("debugfs", "features", path, "NO_PLACE_LAG FOO", file,
					sizeof(file), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a value knob"));
}

/* The row check accepts a row whose path is a symbolic link to the derived
 * file, and hands back the derived file: what restore writes, so a link
 * swapped after the check redirects nothing. */
static void test_row_check_derived_file(void **state)
{
	(void)state;
	char link[512], target[512], want[512], file[512], err[1024];
	put("proc/sys/kernel/sched_rr_timeslice_ms", "100\n");
	snprintf(link, sizeof(link), "%s/row-link", dir);
	snprintf(want, sizeof(want), "%s/kernel/sched_child_runs_first", proc_dir);
	unlink(link);
	assert_int_equal(symlink(want, link), 0);
	assert_int_equal(knob_row_check("sysctl", "kernel.sched_child_runs_first", link, "5", file,
					sizeof(file), err, sizeof(err)), 0);
	assert_string_equal(file, want);
	/* The link now leads to another knob file. */
	snprintf(target, sizeof(target), "%s/kernel/sched_rr_timeslice_ms", proc_dir);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(knob_write_verify(file, "5", NULL, 0, err, sizeof(err)), 0);
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "5");
	assert_string_equal(get("proc/sys/kernel/sched_rr_timeslice_ms"), "100");
	unlink(link);
}

/* Run cmd_restore on db with stderr into a file; its text (static). */
static int restore_cmd(const char *db, const char **stderr_text)
{
	static char text[8192];
	char path[512], *argv[] = {"restore", "--db", (char *)db, NULL};
	snprintf(path, sizeof(path), "%s/restore.err", dir);
	fflush(stderr);
	int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	struct cmd_ctx ctx = {.name = "restore", .setup = CMD_STORE_WRITE};
	int rc = cmd_restore(3, argv, &ctx);
	store_close(ctx.st);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	*stderr_text = text;
	return rc;
}

/* schedrig restore writes a journal row only to the file the rig derives
 * from its kind and name, for a name a config may give: a forged row
 * naming another knob file, an alias, a program sysctl, a debugfs name
 * that climbs out of sched/ or another feature's token is refused and
 * left unrestored; the rig's own rows are restored. */
static void test_restore_refuses_forged_rows(void **state)
{
	(void)state;
	char db[512], err[1024], sql[4096];
	struct store *s;
	int64_t run;
	struct knob_db_journal kj;
	struct knob_state *st;
	struct cfg_variant v = full_variant();
	sqlite3 *raw;
	const char *msg;

	put("proc/sys/kernel/sched_rr_timeslice_ms", "100\n");
	put("proc/sys/kernel/core_pattern", "core\n");
	snprintf(db, sizeof(db), "%s/forged.db", dir);
	assert_int_equal(store_open(db, false, &s, err, sizeof(err)), 0);
	struct run_info ri = {.name = "knobs", .iterations = 1};
	assert_int_equal(store_run_begin(s, &ri, &run, err, sizeof(err)), 0);
	knob_journal_set_db(db);
	knob_db_journal_init(&kj, s, run, "tuned");
	assert_int_equal(knobs_apply(&v, &kj.ops, &st, err, sizeof(err)), 0);
	knob_db_journal_free(&kj);
	knobs_free(st); /* "crash" */
	store_close(s);

	/* Forged rows, newest: restored first, each of this host and boot. */
	static const char *const forged[][4] = {
		{"sysctl", "kernel.sched_child_runs_first", "proc/sys/kernel/sched_rr_timeslice_ms", "7"},
		{"sysctl", "kernel//sched_rr_timeslice_ms", "proc/sys/kernel/sched_rr_timeslice_ms", "8"},
		{"sysctl", "kernel/core_pattern", "proc/sys/kernel/core_pattern", "|/tmp/x"},
		{"debugfs", "../../proc/sys/kernel/sched_rr_timeslice_ms",
		 "proc/sys/kernel/sched_rr_timeslice_ms", "9"},
		{"sched_features", "NO_PLACE_LAG", "debug/sched/features", "RUN_TO_PARITY"},
		{"bogus", "kernel.sched_rr_timeslice_ms", "proc/sys/kernel/sched_rr_timeslice_ms", "10"},
	};
	size_t n_forged = sizeof(forged) / sizeof(forged[0]);
	assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
	for (size_t i = 0; i < n_forged; i++) {
		snprintf(sql, sizeof(sql),
			 "INSERT INTO knob (run_id, variant, seq, kind, name, path, old_value,"
			 " requested_value, host, boot_id, changed_at) SELECT run_id, variant, 9,"
			 " '%s', '%s', '%s/%s', '%s', '1', host, boot_id, changed_at FROM knob"
			 " WHERE id = 1",
			 forged[i][0], forged[i][1], dir, forged[i][2], forged[i][3]);
		assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
	}
	sqlite3_close(raw);

	assert_int_equal(restore_cmd(db, &msg), 1);
	for (size_t i = 0; i < n_forged; i++) {
		char want[256];
		snprintf(want, sizeof(want), "journal row %zu (%s %s, %s/%s): ", 6 + i, forged[i][0],
			 forged[i][1], dir, forged[i][2]);
		if (!strstr(msg, want))
			fail_msg("no refusal of row %zu '%s' in: %s", 6 + i, want, msg);
	}
	assert_non_null(strstr(msg, "kernel.sched_child_runs_first is "));
	assert_non_null(strstr(msg, "neither PLACE_LAG nor NO_PLACE_LAG: refused"));
	assert_non_null(strstr(msg, "which no config can name: refused"));
	assert_non_null(strstr(msg, "6 of 11 knob change(s) not restored"));
	/* Nothing forged was written; the rig's own changes are back. */
	assert_string_equal(get("proc/sys/kernel/sched_rr_timeslice_ms"), "100");
	assert_string_equal(get("proc/sys/kernel/core_pattern"), "core");
	assert_string_equal(get("proc/sys/kernel/sched_autogroup_enabled"), "1");
	assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "0");
	assert_string_equal(get("proc/sys/net/ipv4/conf/eth0.100/rp_filter"), "1");
	assert_string_equal(get("debug/sched/base_slice_ns"), "3000000");
	assert_string_equal(get("debug/sched/features"), "PLACE_LAG");
	struct stored_knob *rows;
	size_t n;
	assert_int_equal(store_open(db, false, &s, err, sizeof(err)), 0);
	assert_int_equal(store_knob_unrestored(s, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, n_forged);
	store_knob_rows_free(rows, n);
	store_close(s);
	assert_int_equal(knob_pending_remove(err, sizeof(err)), 0);
}

/* schedrig restore (root) reads only a database file root or the invoking
 * user owns and nobody else may write: another user's is refused, and so
 * is a group- or other-writable one; nothing is written. */
static void test_restore_untrusted_db(void **state)
{
	(void)state;
	char db[512], err[1024];
	struct store *s;
	const char *msg;

	if (geteuid())
		skip(); /* chown to another uid needs root */
	snprintf(db, sizeof(db), "%s/evil.db", dir);
	assert_int_equal(store_open(db, false, &s, err, sizeof(err)), 0);
	store_close(s);
	assert_int_equal(chown(db, 65534, 65534), 0);
	assert_int_equal(restore_cmd(db, &msg), 1);
	assert_non_null(strstr(msg, "is owned by uid 65534"));
	assert_non_null(strstr(msg, "not trusted"));
	assert_int_equal(chown(db, 0, 0), 0);
	assert_int_equal(chmod(db, 0666), 0);
	assert_int_equal(restore_cmd(db, &msg), 1);
	assert_non_null(strstr(msg, "(mode 0666)"));
	assert_int_equal(chmod(db, 0644), 0);
	assert_int_equal(restore_cmd(db, &msg), 0);
}

/* A knob that reads integers takes as many base-10 integers: the probe
 * (check-config's preflight) and apply refuse '+1', '0x1' and '1 2' for a
 * '0' before anything is written, and take '1' and '-1'. */
static void test_integer_shape(void **state)
{
	(void)state;
	static const struct {
		const char *value;
		bool ok;
	} cases[] = {{"1", true}, {"-1", true}, {"0", true}, {"10", true}, {"+1", false},
		     {"0x1", false}, {"1 2", false}, {"one", false}, {"010", false},
		     {"-01", false}, {"00", false}};
	char want[1024], err[1024];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cfg_knob k = {"kernel.sched_child_runs_first", (char *)cases[i].value, 0, 0};
		struct cfg_variant v = {.name = "v", .autogroup = -1, .sysctl = &k, .n_sysctl = 1};
		struct argv problems = {0};
		struct knob_state *st;
		int n = knobs_probe(&v, &problems);
		if (n != (cases[i].ok ? 0 : 1))
			fail_msg("'%s': %d problem(s)", cases[i].value, n);
		if (!cases[i].ok) {
			snprintf(want, sizeof(want), "%s/kernel/sched_child_runs_first reads '0': '%s'"
				 " is not 1 base-10 integer like it", proc_dir, cases[i].value);
			assert_string_equal(problems.v[0], want);
			assert_int_equal(knobs_apply(&v, NULL, &st, err, sizeof(err)), -1);
			assert_string_equal(err, want);
			assert_string_equal(get("proc/sys/kernel/sched_child_runs_first"), "0");
		}
		argv_free(&problems);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_apply_then_restore, fresh),
		cmocka_unit_test_setup(test_missing_feature_restores_earlier, fresh),
		cmocka_unit_test_setup(test_missing_sysctl, fresh),
		cmocka_unit_test_setup(test_read_back_differs, fresh),
		cmocka_unit_test_setup(test_only_knob_files, fresh),
		cmocka_unit_test_setup(test_journal_failure_changes_nothing, fresh),
		cmocka_unit_test_setup(test_database_journal_after_crash, fresh),
		cmocka_unit_test_setup(test_database_journal_pending_record, fresh),
		cmocka_unit_test_setup(test_pending_record_file, fresh),
		cmocka_unit_test(test_knob_names),
		cmocka_unit_test_setup(test_restore_refuses_forged_rows, fresh),
		cmocka_unit_test_setup(test_row_check_debugfs_features, fresh),
		cmocka_unit_test_setup(test_row_check_derived_file, fresh),
		cmocka_unit_test_setup(test_pending_record_untrusted, fresh),
		cmocka_unit_test_setup(test_restore_untrusted_db, fresh),
		cmocka_unit_test_setup(test_integer_shape, fresh),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
