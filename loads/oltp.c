/* oltp: sysbench oltp_read_write against a private MariaDB server, the
 * load of the MySQL/TPC-C regression under EEVDF (lkml, "sched: Disable
 * PLACE_LAG and RUN_TO_PARITY", 2024: SCHED_BATCH for mysqld as the
 * workaround), run as `schedrig load oltp --clients N --duration_s S ...`.
 *
 * Steps, every child by fork/exec of an argv (builtin_proc.h), all files in
 * a private directory mkdtemp(TMP/schedrig-oltp.XXXXXX) that is removed at
 * the end whatever happened:
 *   1. mariadb-install-db --no-defaults --datadir=DIR/data
 *      --auth-root-authentication-method=normal --skip-test-db
 *      --skip-name-resolve [--user=root when run as root]
 *   2. mariadbd --no-defaults --datadir=DIR/data --socket=DIR/mysqld.sock
 *      --pid-file=DIR/mysqld.pid --skip-networking (unix socket only, no TCP
 *      port) --log-error=DIR/error.log --max-connections=clients+16
 *      --innodb-flush-log-at-trx-commit=N [--user=root]; the server keeps
 *      this load's scheduling attributes (sched: {policy: batch} is the
 *      seed's workaround) and gets PR_SET_PDEATHSIG SIGKILL.
 *   3. mariadb-admin ping until it answers (start_timeout_s); a server that
 *      exits or never answers is a failure with its error log's tail.
 *   4. mariadb-admin create sbtest; sysbench oltp_read_write ... prepare
 *      (tables x table_size rows; not timed).
 *   5. sysbench oltp_read_write --db-driver=mysql --mysql-socket=...
 *      --threads=clients --time=duration_s --percentile=95 run. The client
 *      (and the prepare step) run with default attributes: SCHED_OTHER,
 *      nice 0, custom slice 0 (and latency_nice 0 where the kernel has it)
 *      are set in the child before exec; the CPU affinity is kept. With
 *      client_inherits_sched true they keep the load's attributes instead.
 *      (Going back to nice 0 from a positive nice needs
 *      CAP_SYS_NICE: without it that step fails with "sched_setattr".)
 *   6. mariadb-admin shutdown (60 s at most), the server is reaped (30 s),
 *      else SIGTERM (30 s), else SIGKILL.
 * The server is never left behind: on SIGINT/SIGTERM (it gets SIGTERM, then
 * SIGKILL after 30 s), on any failure, and through PR_SET_PDEATHSIG if this
 * process is killed (it stays in this process group, so the rig's SIGKILL of
 * the group at a timeout takes it too; only then can the private directory
 * stay behind). Failures print one reason line (and log tails) on
 * stderr and exit 1 without samples; bad arguments exit 2. Programs are
 * looked up in PATH and then /usr/local/sbin:/usr/sbin:/sbin (mariadbd);
 * mysql_install_db, mysqld and mysqladmin are accepted as the older names.
 *
 * Output (see loads/builtin.h for the common frame), e.g. --clients 2:
 *   schedrig-oltp 1 clients=2 tables=1 table_size=1000 duration_s=3
 *   transactions_per_s 2 465.78
 *   queries_per_s 2 9337.30
 *   latency_p95 2 11.65
 *   end transactions=1401 queries=28085 errors=4 reconnects=0 shutdown=clean
 * Metrics (op = clients), copied from sysbench 1.0.20's report:
 *   transactions_per_s  "transactions: N (X per sec.)"
 *   queries_per_s       "queries: N (X per sec.)"
 *   latency_p95         "95th percentile: X" under "Latency (ms):", ms
 * shutdown= in the end line is clean, sigterm or sigkill. */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "builtin.h"
#include "builtin_proc.h"
#include "load.h"
#include "oltp_report.h"

static const struct param_def oltp_params[] = {
	{"clients", PARAM_UINT, "2", NULL, 1, 1024, "sysbench client threads (--threads)"},
	{"duration_s", PARAM_UINT, "10", NULL, 1, 86400, "sysbench run time in s (--time)"},
	{"tables", PARAM_UINT, "1", NULL, 1, 1000, "sbtest tables (--tables)"},
	{"table_size", PARAM_UINT, "10000", NULL, 1, 100000000, "rows per table (--table-size)"},
	{"client_inherits_sched", PARAM_BOOL, "false", NULL, 1, 0,
	 "sysbench keeps the load's scheduling attributes instead of the defaults"},
	{"flush_log_at_trx_commit", PARAM_ENUM, "1", "0|1|2", 1, 0,
	 "server --innodb-flush-log-at-trx-commit (1: fsync per commit, MariaDB's default)"},
	{"start_timeout_s", PARAM_UINT, "60", NULL, 1, 3600,
	 "s the datadir set-up and the server start may take each"},
	{"tmp_dir", PARAM_STRING, NULL, NULL, 1, 0,
	 "where the private directory goes; default $TMPDIR or /tmp"},
};

static const struct metric_def oltp_metrics[] = {
	{"transactions_per_s", "transactions/s", BETTER_HIGHER,
	 "sysbench oltp_read_write transactions per s, op = clients", 2, false},
	{"queries_per_s", "queries/s", BETTER_HIGHER,
	 "sysbench oltp_read_write queries per s, op = clients", 2, false},
	{"latency_p95", "ms", BETTER_LOWER,
	 "95th percentile of the transaction latency, op = clients", 2, false},
};

const struct load_ops oltp_load;

#define OLTP_DB "sbtest"

/* The run: programs, paths, the server. */
struct oltp {
	const sigset_t *sigs;
	char install_db[PATH_MAX], server[PATH_MAX], admin[PATH_MAX], sysbench[PATH_MAX];
	char dir[PATH_MAX];
	char data[PATH_MAX + 16], sock[PATH_MAX + 16], pid_file[PATH_MAX + 16];
	char error_log[PATH_MAX + 16], server_out[PATH_MAX + 16];
	char sock_arg[PATH_MAX + 32], user_arg[64];
	bool as_root;
	struct spawn server_proc; /* the server while server_up */
	bool server_up;
	int stop_sig;          /* SIGINT/SIGTERM received, 0 none */
	char why[1024];        /* first failure */
	char why_log[PATH_MAX + 16]; /* the log that tells more about it, "" none */
};

static void fail(struct oltp *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct oltp *o, const char *fmt, ...)
{
	if (o->why[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
}

static void path_in(const struct oltp *o, const char *name, char *dst, size_t size)
{
	snprintf(dst, size, "%s/%s", o->dir, name);
}

/* Run argv to its end (deadline_s from now; 0: none) with output in the
 * private file log. Returns 0 when it exited 0; otherwise -1 after fail()
 * with step, status and the log's last line. */
static int run_step(struct oltp *o, const char *step, char *const *argv, const char *log,
		    bool reset_sched, uint64_t deadline_s)
{
	char err[512], path[PATH_MAX + 16];
	path_in(o, log, path, sizeof(path));
	struct proc_spec spec = {.argv = argv, .out_path = path, .pdeath_sig = SIGKILL,
				 .reset_sched = reset_sched};
	if (!o->why[0])
		snprintf(o->why_log, sizeof(o->why_log), "%s", path);
	struct spawn x;
	if (proc_start(&x, &spec, err, sizeof(err))) {
		fail(o, "%s: %s", step, err);
		return -1;
	}
	uint64_t deadline = deadline_s ? builtin_now_ns() + deadline_s * 1000000000ULL : UINT64_MAX;
	int r = proc_wait(&x, o->sigs, deadline);
	if (r != 0) {
		proc_stop(&x, SIGTERM, 5, o->sigs);
		if (r > 0) {
			o->stop_sig = r;
			fail(o, "stopped by %s during %s", strsignal(r), step);
		} else {
			fail(o, "%s did not finish within %llu s", step, (unsigned long long)deadline_s);
		}
		return -1;
	}
	if (proc_ok(x.status))
		return 0;
	char why[96], tail[400] = "";
	proc_describe(x.status, why, sizeof(why));
	proc_file_tail(path, 1, "", tail, sizeof(tail));
	tail[strcspn(tail, "\n")] = '\0';
	fail(o, "%s failed: %s: %s", step, why, tail);
	return -1;
}

/* The last line of the error log (or server stdout/stderr) that says
 * [ERROR], else its last line; "" when both are empty. */
static void server_error_line(const struct oltp *o, char *dst, size_t size)
{
	char tail[4096];
	const char *files[] = {o->error_log, o->server_out};
	dst[0] = '\0';
	for (int f = 0; f < 2 && !dst[0]; f++) {
		tail[0] = '\0';
		if (!proc_file_tail(files[f], 20, "", tail, sizeof(tail)))
			continue;
		char *best = NULL, *last = NULL, *save = NULL;
		for (char *l = strtok_r(tail, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			last = l;
			if (strstr(l, "[ERROR]") || strstr(l, "Can't") || strstr(l, "Fatal"))
				best = l;
		}
		snprintf(dst, size, "%s", best ? best : last ? last : "");
	}
}

/* Stop the server: mariadb-admin shutdown first when polite (60 s for it,
 * 30 s for the server to exit), else or then SIGTERM (30 s), then SIGKILL;
 * always reaped. Returns "clean", "sigterm" or "sigkill". */
static const char *server_stop(struct oltp *o, bool polite)
{
	if (!o->server_up)
		return "clean";
	struct spawn *server = &o->server_proc;
	o->server_up = false;
	if (polite) {
		char *argv[] = {o->admin, "--no-defaults", o->sock_arg, "--user=root",
				"--connect-timeout=10", "shutdown", NULL};
		char err[256], path[PATH_MAX + 16];
		path_in(o, "shutdown.log", path, sizeof(path));
		struct proc_spec spec = {.argv = argv, .out_path = path, .pdeath_sig = SIGKILL};
		struct spawn x;
		int r = -1;
		if (!proc_start(&x, &spec, err, sizeof(err))) {
			uint64_t deadline = builtin_now_ns() + 60000000000ULL;
			while ((r = proc_wait(&x, o->sigs, deadline)) > 0)
				o->stop_sig = r; /* keep shutting down */
			if (r < 0)
				proc_stop(&x, SIGKILL, 1, o->sigs);
		}
		if (r == 0 && proc_ok(x.status))
			return proc_stop(server, 0, 30, o->sigs) ? "clean" : "sigkill";
	}
	return proc_stop(server, SIGTERM, 30, o->sigs) ? "sigterm" : "sigkill";
}

/* Start the server and wait until it answers. 0 or -1 after fail(). */
static int server_start(struct oltp *o, long long clients, const char *flush, uint64_t timeout_s)
{
	char datadir[PATH_MAX + 32], pidf[PATH_MAX + 32], errlog[PATH_MAX + 32], maxconn[48],
		flusharg[64], err[512];
	snprintf(datadir, sizeof(datadir), "--datadir=%s", o->data);
	snprintf(pidf, sizeof(pidf), "--pid-file=%s", o->pid_file);
	snprintf(errlog, sizeof(errlog), "--log-error=%s", o->error_log);
	snprintf(maxconn, sizeof(maxconn), "--max-connections=%lld", clients + 16);
	snprintf(flusharg, sizeof(flusharg), "--innodb-flush-log-at-trx-commit=%s", flush);

	/* 1. the datadir */
	char *install[] = {o->install_db, "--no-defaults", datadir,
			   "--auth-root-authentication-method=normal", "--skip-test-db",
			   "--skip-name-resolve", o->as_root ? o->user_arg : NULL, NULL};
	if (run_step(o, "mariadb-install-db", install, "install.log", false, timeout_s))
		return -1;

	/* 2. the server, with this load's scheduling attributes */
	char *server[] = {o->server, "--no-defaults", datadir, o->sock_arg, pidf,
			  "--skip-networking", errlog, maxconn, flusharg,
			  o->as_root ? o->user_arg : NULL, NULL};
	struct proc_spec spec = {.argv = server, .out_path = o->server_out, .pdeath_sig = SIGKILL};
	snprintf(o->why_log, sizeof(o->why_log), "%s", o->error_log);
	if (proc_start(&o->server_proc, &spec, err, sizeof(err))) {
		fail(o, "server: %s", err);
		return -1;
	}
	o->server_up = true;

	/* 3. ping until it answers */
	uint64_t deadline = builtin_now_ns() + timeout_s * 1000000000ULL;
	char *ping[] = {o->admin, "--no-defaults", o->sock_arg, "--user=root",
			"--connect-timeout=2", "ping", NULL};
	for (;;) {
		char path[PATH_MAX + 16];
		path_in(o, "ping.log", path, sizeof(path));
		struct proc_spec ps = {.argv = ping, .out_path = path, .pdeath_sig = SIGKILL};
		struct spawn x;
		if (proc_start(&x, &ps, err, sizeof(err))) {
			fail(o, "ping: %s", err);
			return -1;
		}
		int r = proc_wait(&x, o->sigs, builtin_now_ns() + 10000000000ULL);
		if (r != 0) {
			proc_stop(&x, SIGKILL, 1, o->sigs);
			if (r > 0) {
				o->stop_sig = r;
				fail(o, "stopped by %s while the server started", strsignal(r));
				return -1;
			}
		} else if (proc_ok(x.status)) {
			return 0;
		}
		/* Not up yet: has the server died? Sleep 200 ms watching it. */
		r = proc_wait(&o->server_proc, o->sigs, builtin_now_ns() + 200000000ULL);
		if (r == 0) {
			char why[96], line[600];
			o->server_up = false;
			proc_describe(o->server_proc.status, why, sizeof(why));
			server_error_line(o, line, sizeof(line));
			fail(o, "%s exited during start-up (%s): %s", o->server, why, line);
			return -1;
		}
		if (r > 0) {
			o->stop_sig = r;
			fail(o, "stopped by %s while the server started", strsignal(r));
			return -1;
		}
		if (builtin_now_ns() >= deadline) {
			char line[600];
			server_error_line(o, line, sizeof(line));
			fail(o, "%s did not answer within %llu s: %s", o->server,
			     (unsigned long long)timeout_s, line);
			return -1;
		}
	}
}

/* Scan sysbench's run report at path (oltp_report.h). 0, or -1 with why. */
static int scan_sysbench(const char *path, struct oltp_report *r, char *why, size_t whysz)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, whysz, "%.400s: %s", path, strerror(errno));
		return -1;
	}
	int rc = oltp_report_scan(f, path, r, why, whysz);
	fclose(f);
	return rc;
}

/* What the command line asks for. */
struct oltp_conf {
	long long clients, duration_s, tables, table_size;
	uint64_t start_timeout_s;
	bool inherit;          /* client_inherits_sched */
	const char *flush;     /* flush_log_at_trx_commit */
	const char *tmp;       /* where the private directory goes */
};

/* The programs (MariaDB's names, then MySQL's), a private directory in
 * tmp and the paths in it. 0, or 1 after saying why on stderr. */
static int oltp_setup(struct oltp *o, const char *tmp)
{
	static const char *const install_names[] = {"mariadb-install-db", "mysql_install_db", NULL};
	static const char *const server_names[] = {"mariadbd", "mysqld", NULL};
	static const char *const admin_names[] = {"mariadb-admin", "mysqladmin", NULL};
	static const char *const sysbench_names[] = {"sysbench", NULL};
	if (!proc_find_program(install_names, o->install_db, sizeof(o->install_db)) ||
	    !proc_find_program(server_names, o->server, sizeof(o->server)) ||
	    !proc_find_program(admin_names, o->admin, sizeof(o->admin)) ||
	    !proc_find_program(sysbench_names, o->sysbench, sizeof(o->sysbench))) {
		fprintf(stderr, "schedrig load oltp: %s not found in PATH or /usr/sbin (apt-get install mariadb-server sysbench)\n",
			!o->install_db[0] ? "mariadb-install-db" : !o->server[0] ? "mariadbd" :
			!o->admin[0] ? "mariadb-admin" : "sysbench");
		return 1;
	}
	int n = snprintf(o->dir, sizeof(o->dir), "%s/schedrig-oltp.XXXXXX", tmp);
	if (n < 0 || (size_t)n >= sizeof(o->dir) || !mkdtemp(o->dir)) {
		fprintf(stderr, "schedrig load oltp: cannot make a private directory in %s: %s\n", tmp,
			strerror(errno));
		return 1;
	}
	path_in(o, "data", o->data, sizeof(o->data));
	path_in(o, "mysqld.sock", o->sock, sizeof(o->sock));
	path_in(o, "mysqld.pid", o->pid_file, sizeof(o->pid_file));
	path_in(o, "error.log", o->error_log, sizeof(o->error_log));
	path_in(o, "server.out", o->server_out, sizeof(o->server_out));
	snprintf(o->sock_arg, sizeof(o->sock_arg), "--socket=%s", o->sock);
	o->as_root = geteuid() == 0;
	if (o->as_root) {
		struct passwd *pw = getpwuid(0);
		snprintf(o->user_arg, sizeof(o->user_arg), "--user=%s", pw ? pw->pw_name : "root");
	}
	return 0;
}

/* Start the server, create the database, sysbench prepare and run, read
 * its report into rep. A failure is in o->why (fail), the server may be up. */
static void oltp_workload(struct oltp *o, const struct oltp_conf *c, struct oltp_report *rep)
{
	if (strlen(o->sock) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		fail(o, "socket path %s is longer than a unix socket address allows; use a shorter tmp_dir",
		     o->sock);
		return;
	}
	if (server_start(o, c->clients, c->flush, c->start_timeout_s))
		return;
	char *create[] = {o->admin, "--no-defaults", o->sock_arg, "--user=root", "create", OLTP_DB, NULL};
	if (run_step(o, "mariadb-admin create " OLTP_DB, create, "create.log", false, 60))
		return;

	char sockopt[PATH_MAX + 32], tablesopt[48], sizeopt[48], threadsopt[48], timeopt[48];
	snprintf(sockopt, sizeof(sockopt), "--mysql-socket=%s", o->sock);
	snprintf(tablesopt, sizeof(tablesopt), "--tables=%lld", c->tables);
	snprintf(sizeopt, sizeof(sizeopt), "--table-size=%lld", c->table_size);
	snprintf(threadsopt, sizeof(threadsopt), "--threads=%lld", c->clients);
	snprintf(timeopt, sizeof(timeopt), "--time=%lld", c->duration_s);
	char *prepare[] = {o->sysbench, "oltp_read_write", "--db-driver=mysql", sockopt,
			   "--mysql-user=root", "--mysql-db=" OLTP_DB, tablesopt, sizeopt,
			   "prepare", NULL};
	if (run_step(o, "sysbench prepare", prepare, "prepare.log", !c->inherit, 0))
		return;

	char *run[] = {o->sysbench, "oltp_read_write", "--db-driver=mysql", sockopt,
		       "--mysql-user=root", "--mysql-db=" OLTP_DB, tablesopt, sizeopt, threadsopt,
		       timeopt, "--events=0", "--percentile=95", "run", NULL};
	if (run_step(o, "sysbench run", run, "run.out", !c->inherit, (uint64_t)c->duration_s + 120))
		return;
	char path[PATH_MAX + 16], why[512];
	path_in(o, "run.out", path, sizeof(path));
	if (scan_sysbench(path, rep, why, sizeof(why)))
		fail(o, "%s", why);
}

/* The failure on stderr, with the tail of the log that tells more (not
 * after a stop by a signal). */
static void report_failure(const struct oltp *o)
{
	fprintf(stderr, "schedrig load oltp: %s\n", o->why);
	char tail[4096] = "", prefix[64];
	if (o->why_log[0] && !o->stop_sig) {
		const char *base = strrchr(o->why_log, '/');
		snprintf(prefix, sizeof(prefix), "  %.40s: ", base ? base + 1 : o->why_log);
		proc_file_tail(o->why_log, 10, prefix, tail, sizeof(tail));
		if (!strcmp(o->why_log, o->error_log))
			proc_file_tail(o->server_out, 5, "  server.out: ", tail, sizeof(tail));
	}
	fputs(tail, stderr);
}

static void print_samples(const struct oltp_conf *c, const struct oltp_report *rep,
			  const char *shutdown_how)
{
	printf("schedrig-oltp 1 clients=%lld tables=%lld table_size=%lld duration_s=%lld\n",
	       c->clients, c->tables, c->table_size, c->duration_s);
	printf("transactions_per_s %lld %.2f\n", c->clients, rep->tps);
	printf("queries_per_s %lld %.2f\n", c->clients, rep->qps);
	printf("latency_p95 %lld %.2f\n", c->clients, rep->p95);
	printf("end transactions=%llu queries=%llu errors=%llu reconnects=%llu shutdown=%s\n",
	       rep->transactions, rep->queries, rep->errors, rep->reconnects, shutdown_how);
	fflush(stdout);
}

static int oltp_main(int argc, char **argv)
{
	struct builtin_args a;
	if (builtin_begin(&a, &oltp_load, argc, argv))
		return a.exit_status;
	struct oltp_conf c = {
		.clients = builtin_arg_ll(&a, "clients"),
		.duration_s = builtin_arg_ll(&a, "duration_s"),
		.tables = builtin_arg_ll(&a, "tables"),
		.table_size = builtin_arg_ll(&a, "table_size"),
		.start_timeout_s = (uint64_t)builtin_arg_ll(&a, "start_timeout_s"),
		.inherit = builtin_arg_is(&a, "client_inherits_sched", "true"),
		.flush = builtin_arg(&a, "flush_log_at_trx_commit"),
		.tmp = builtin_arg(&a, "tmp_dir"),
	};
	if (!c.tmp || !*c.tmp)
		c.tmp = getenv("TMPDIR");
	if (!c.tmp || !*c.tmp)
		c.tmp = "/tmp";

	struct oltp *o = xcalloc(1, sizeof(*o));
	o->sigs = &a.sigs;
	if (oltp_setup(o, c.tmp)) {
		free(o);
		return 1;
	}
	struct oltp_report rep;
	oltp_workload(o, &c, &rep);
	/* The server goes whatever happened: politely after a normal run. */
	const char *shutdown_how = server_stop(o, !o->stop_sig && !o->why[0]);
	if (o->why[0])
		report_failure(o);
	if (proc_remove_tree(o->dir))
		fprintf(stderr, "schedrig load oltp: removing %s: %s\n", o->dir, strerror(errno));
	int rc = 1;
	if (!o->why[0]) {
		print_samples(&c, &rep, shutdown_how);
		rc = 0;
	}
	free(o);
	return rc;
}

/* ---- the driver side: the parser ---- */

static int oltp_parse(const struct load_output *o, const struct params *p,
		      struct sample_vec *samples, char *why, size_t whysz)
{
	return builtin_parse_once_each(&oltp_load, o, p, "clients", 1024, samples, why, whysz);
}

/* In a qemu guest: the server, its data directory set-up (a shell script
 * busybox runs, with my_print_defaults and the SQL and message files), the
 * admin client, sysbench with its Lua tests; the data directory on the
 * scratch disk ($TMPDIR there). */
static const char *const oltp_programs[] = {"mariadb-install-db", "my_print_defaults", "resolveip",
					    "mariadbd", "mariadb-admin", "sysbench", NULL};
static const char *const oltp_files[] = {"/usr/share/mysql", "/usr/share/sysbench", NULL};

/* The oltp driver (see the top of this file). */
const struct load_ops oltp_load = {
	.name = "oltp",
	.description = "sysbench oltp_read_write against a private MariaDB server (unix socket only)",
	.params = oltp_params,
	.n_params = sizeof(oltp_params) / sizeof(oltp_params[0]),
	.metrics = oltp_metrics,
	.n_metrics = sizeof(oltp_metrics) / sizeof(oltp_metrics[0]),
	.stop_signal = SIGTERM,
	.parse = oltp_parse,
	.needs = {.programs = oltp_programs, .files = oltp_files, .scratch = true,
		  .note = "a writable $TMPDIR for the data directory"},
	.builtin_main = oltp_main,
};
