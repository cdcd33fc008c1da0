/* The agent (agent_run.h): a plan run where the variant's kernel runs,
 * what the runner saw streamed back as agent protocol lines
 * (agent_proto.h). Parsing, storage and statistics stay on the
 * controlling host. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "agent_run.h"

#include "agent_proto.h"
#include "guest_binds.h"
#include "guest_layout.h"
#include "config.h"
#include "hostfp.h"
#include "hostset.h"
#include "knobs.h"
#include "monitor.h"
#include "preflight.h"
#include "plan.h"
#include "provenance.h"
#include "runner.h"
#include "schedattr.h"
#include "spawn.h"
#include "trace_variant.h"

/* The name of the virtio-serial port the qemu backend gives the guest. */
#define AGENT_PORT_NAME "schedrig.agent"
/* Fallback channel when no virtio console exists: the second serial port. */
#define AGENT_SERIAL_TTY "/dev/ttyS1"
#define AGENT_PORT_WAIT_S 5

/* The usage text; %s: how the agent was called ("schedrig agent"). */
static const char usage_fmt[] =
	"usage: %s PLANFILE [--out PATH|auto] [--watch-stdin]\n"
	"\n"
	"Run the (cell, iteration) steps listed in PLANFILE (written by a schedrig\n"
	"backend: config text, variant, iterations) with the in-process runner,\n"
	"after loading the kernel modules it lists and applying the variant's\n"
	"knobs and host: settings, and write one JSON line per result, the machine's\n"
	"fingerprint first (protocol in agent_proto.h).\n"
	"\n"
	"  --out PATH   write the lines to PATH instead of stdout; 'auto': the\n"
	"               virtio-serial port named " AGENT_PORT_NAME ", else " AGENT_SERIAL_TTY "\n"
	"  --watch-stdin  stop as on SIGTERM (loads stopped, knobs restored) when\n"
	"               standard input reaches end of file: boot: ssh keeps it open\n"
	"               for the session's life, so the agent ends with its session\n"
	"\n"
	"Exit status: 0 every step ran, 1 the agent failed (see its end line),\n"
	"2 bad usage.\n";

/* --watch-stdin: after SIGTERM, how long the agent has to stop its loads
 * and restore its knobs before SIGKILL. */
#define AGENT_WATCH_KILL_S (RUNNER_GRACE_S + 15)

static volatile sig_atomic_t watch_sig;

static void watch_signal(int sig)
{
	watch_sig = sig;
}

/* What the agent runs: the plan file and where its lines go. */
struct agent_args {
	const char *plan_path, *out;
};

static int agent_run(const struct agent_args *args);

/* The agent as the watcher's child (spawn's fn): SIGPIPE ignored, so that
 * a dead channel cannot keep it from restoring knobs. */
static int agent_child(void *arg)
{
	signal(SIGPIPE, SIG_IGN);
	return agent_run(arg);
}

/* --watch-stdin: run the agent as a child (stdin /dev/null, SIGTERM when
 * this parent dies). The parent reads and drops stdin; at its end (the ssh
 * session closed) it stops the child: SIGTERM, and SIGKILL
 * AGENT_WATCH_KILL_S later; SIGINT, SIGTERM and SIGHUP it receives are
 * passed on. Returns the child's exit status (128+N when killed by signal
 * N), 1 when it could not start. */
static int watch_stdin(const struct agent_args *args)
{
	char err[256];
	struct spawn s = {.fn = agent_child, .fn_arg = (void *)args, .in.kind = SPAWN_NULL,
			  .pdeath_sig = SIGTERM, .grace_s = AGENT_WATCH_KILL_S};
	if (spawn_start(&s, err, sizeof(err))) {
		fprintf(stderr, "schedrig agent: %s\n", err);
		return 1;
	}
	struct sigaction sa = {.sa_handler = watch_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	bool open_in = true;
	/* 200 ms rounds: a signal caught just before a poll is passed on at
	 * the next. */
	while (spawn_poll((struct spawn *[]){&s}, 1, open_in ? 0 : 200)) {
		if (watch_sig) {
			spawn_signal(&s, watch_sig);
			watch_sig = 0;
		}
		struct pollfd pfd = {.fd = 0, .events = POLLIN};
		if (!open_in || poll(&pfd, 1, 200) <= 0)
			continue;
		char chunk[4096];
		ssize_t r = (pfd.revents & POLLIN) ? read(0, chunk, sizeof(chunk)) : 0;
		if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
			open_in = false;
			fprintf(stderr, "schedrig agent: the session's standard input ended: stopping\n");
			spawn_stop(&s);
		}
	}
	spawn_free(&s);
	return WIFEXITED(s.status) ? WEXITSTATUS(s.status) : 128 + WTERMSIG(s.status);
}

struct agent {
	int fd;
	struct buf line;
};

/* Write everything in a->line to the output and clear it. */
static void flush_lines(struct agent *a)
{
	size_t off = 0;
	while (off < a->line.len) {
		ssize_t n = write(a->fd, a->line.data + off, a->line.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	if (a->fd >= 0)
		fsync(a->fd);
	a->line.len = 0;
}

/* Load the plan's kernel modules in order (finit_module). A module already
 * loaded or built in is fine; a failure is reported on stderr only: the
 * channel falls back to the serial port. */
static void load_modules(const struct agent_plan *plan)
{
	for (size_t i = 0; i < plan->n_modules; i++) {
		int fd = open(plan->modules[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST))
			fprintf(stderr, "schedrig agent: module %s: %s\n", plan->modules[i],
				strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/* /dev/vportNpM of the virtio-serial port named AGENT_PORT_NAME, waiting a
 * little for the driver to create it. Returns 0 with path, or -1. */
static int find_port(char *path, size_t size)
{
	for (int tries = 0; tries < AGENT_PORT_WAIT_S * 10; tries++) {
		DIR *d = opendir("/sys/class/virtio-ports");
		struct dirent *de;
		while (d && (de = readdir(d))) {
			char npath[PATH_MAX], name[64] = "";
			if (de->d_name[0] == '.')
				continue;
			snprintf(npath, sizeof(npath), "/sys/class/virtio-ports/%s/name", de->d_name);
			FILE *f = fopen(npath, "r");
			if (!f)
				continue;
			if (fgets(name, sizeof(name), f))
				name[strcspn(name, "\n")] = '\0';
			fclose(f);
			if (!strcmp(name, AGENT_PORT_NAME)) {
				snprintf(path, size, "/dev/%s", de->d_name);
				closedir(d);
				if (access(path, W_OK) == 0)
					return 0;
				d = NULL;
				break;
			}
		}
		if (d)
			closedir(d);
		nanosleep(&(struct timespec){0, 100000000}, NULL);
	}
	return -1;
}

static int open_out(const char *out, char *err, size_t errsz)
{
	char port[PATH_MAX];
	int fd;

	if (!out || !strcmp(out, "-"))
		return dup(1);
	if (!strcmp(out, "auto"))
		out = find_port(port, sizeof(port)) == 0 ? port : AGENT_SERIAL_TTY;
	fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errsz, "%.300s: %s", out, strerror(errno));
		return -1;
	}
	struct termios t;
	if (isatty(fd) && tcgetattr(fd, &t) == 0) {
		/* Raw bytes: no "\n" -> "\r\n", no flow control. */
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/* Knob journal callbacks: one "knob" line each. */
static int journal_line(struct agent *a, const char *event, const struct knob_entry *e)
{
	agent_encode_knob(&a->line, event, e->seq, e->kind, e->name, e->path, e->old_value,
			  e->requested_value, e->applied_value);
	flush_lines(a);
	return 0;
}

static int j_record(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	return journal_line(ctx, "record", e);
}

static int j_applied(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	return journal_line(ctx, "applied", e);
}

static int j_restored(void *ctx, const struct knob_entry *e, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	return journal_line(ctx, "restored", e);
}

/* Every tool of the plan must be found in PATH here (spawn_which). */
static int check_tools(const struct plan *p, char *err, size_t errsz)
{
	char found[PATH_MAX];
	for (size_t c = 0; c < p->n_cells; c++) {
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			const char *tool = p->cells[c].inst[i].argv.v[0];
			if (strcmp(tool, "schedrig") && spawn_which(tool, NULL, found, sizeof(found))) {
				const char *path = getenv("PATH");
				snprintf(err, errsz, "load tool '%s' is missing here (PATH=%s)", tool,
					 path ? path : "");
				return -1;
			}
		}
	}
	return 0;
}

/* Parse the config, build the plan, check it is the host's. */
static int prepare(const struct agent_plan *ap, struct experiment **ep, struct plan *p,
		   const struct cfg_variant **vp, char *err, size_t errsz)
{
	struct experiment *e = config_parse(ap->config_name, ap->config, strlen(ap->config), err,
					    errsz);
	if (!e)
		return -1;
	*ep = e;
	if (plan_build(e, p, err, errsz))
		return -1;
	if (p->n_cells != ap->n_cells) {
		snprintf(err, errsz, "the plan here has %zu cells, the host's %zu", p->n_cells,
			 ap->n_cells);
		return -1;
	}
	for (size_t c = 0; c < p->n_cells; c++) {
		if (strcmp(p->cells[c].name, ap->cells[c])) {
			snprintf(err, errsz, "cell %zu is '%.200s' here, '%.200s' on the host", c,
				 p->cells[c].name, ap->cells[c]);
			return -1;
		}
	}
	for (size_t i = 0; i < ap->n_run; i++) {
		if (ap->run[i].cell >= p->n_cells) {
			snprintf(err, errsz, "step %zu names cell %zu of %zu", i, ap->run[i].cell,
				 p->n_cells);
			return -1;
		}
	}
	*vp = NULL;
	for (size_t v = 0; v < e->n_variants; v++)
		if (!strcmp(e->variants[v].name, ap->variant))
			*vp = &e->variants[v];
	if (!*vp) {
		snprintf(err, errsz, "the config has no variant '%.200s'", ap->variant);
		return -1;
	}
	struct plan mine; /* the cells this variant runs (its cells:) */
	plan_variant_view(p, (size_t)(*vp - e->variants), &mine);
	bool refuse = plan_uses_latency_nice(&mine, NULL) && !sched_latency_nice_supported();
	plan_free(&mine);
	if (refuse) {
		struct provenance pv;
		provenance_read(&pv);
		sched_latency_nice_refusal(err, errsz, pv.kernel_release);
		return -1;
	}
	return check_tools(p, err, errsz);
}

/* agent_encode_trace's flush: the lines out as they are made. */
static void flush_cb(void *ctx, struct buf *out)
{
	(void)out; /* it is the agent's line buffer */
	flush_lines(ctx);
}

/* The iteration's trace (res->trace) as trace lines, its file removed
 * here once sent; a trace that cannot be read is a trace_end-less gap the
 * host refuses, so it is said on stderr and the agent fails. 0 or -1. */
static int send_trace(struct agent *a, const struct agent_step *st,
		      const struct iteration_result *res, char *err, size_t errsz)
{
	if (!res->trace.captured)
		return 0;
	int rc = agent_encode_trace(&a->line, st->cell, st->iteration, &res->trace, flush_cb, a, err,
				    errsz);
	unlink(res->trace.path);
	return rc;
}

/* Run every step; results go out as they come: the inst lines, the trace
 * of a traced step (tv), the series lines of mon (the config's monitors;
 * NULL when off), the iteration line. */
static int run_steps(struct agent *a, const struct agent_plan *ap, const struct experiment *e,
		     const struct plan *p, struct monitor *mon, struct trace_variant *tv,
		     const char *self_exe, char *err, size_t errsz)
{
	for (size_t i = 0; i < ap->n_run && !runner_interrupt_signal(); i++) {
		const struct plan_cell *cell = &p->cells[ap->run[i].cell];
		struct iteration_result res;
		if (trace_variant_arm(tv, ap->run[i].cell, ap->run[i].iteration, err, errsz))
			return -1;
		if (runner_run_iteration(cell, e->warmup_s, self_exe, &res, err, errsz)) {
			iteration_result_free(&res);
			return -1;
		}
		for (size_t k = 0; k < res.n; k++) {
			agent_encode_inst(&a->line, ap->run[i].cell, ap->run[i].iteration,
					  (size_t)(res.r[k].pi - cell->inst), &res.r[k]);
			flush_lines(a);
		}
		if (send_trace(a, &ap->run[i], &res, err, errsz)) {
			iteration_result_free(&res);
			return -1;
		}
		if (mon) {
			agent_encode_series(&a->line, ap->run[i].cell, ap->run[i].iteration,
					    monitor_take_series(mon));
			flush_lines(a);
		}
		agent_encode_iteration(&a->line, ap->run[i].cell, ap->run[i].iteration, &res);
		flush_lines(a);
		iteration_result_free(&res);
	}
	if (runner_interrupt_signal()) {
		snprintf(err, errsz, "interrupted by %s", strsignal(runner_interrupt_signal()));
		return -1;
	}
	return 0;
}

int agent_command(const char *prog, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"out", required_argument, NULL, 'o'},
		{"watch-stdin", no_argument, NULL, 'w'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct agent_args args = {0};
	int ch;
	bool watch = false;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			args.out = optarg;
			break;
		case 'w':
			watch = true;
			break;
		case 'h':
			printf(usage_fmt, prog);
			return 0;
		default:
			fprintf(stderr, usage_fmt, prog);
			return AGENT_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, usage_fmt, prog);
		return AGENT_EXIT_USAGE;
	}
	args.plan_path = argv[optind];
	return watch ? watch_stdin(&args) : agent_run(&args);
}

/* A rusage time in microseconds. */
static long long tv_us(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

/* The agent itself: hello, knobs, the plan's steps, knobs restored, the
 * end line. Returns its exit status. */
static int agent_run(const struct agent_args *args)
{
	char err[1024] = "", self_exe[PATH_MAX];
	struct buf text = {0};
	struct agent_plan ap = {0};
	struct experiment *e = NULL;
	struct plan p = {0};
	const struct cfg_variant *v = NULL;
	struct hostset *hs = NULL;
	struct monitor *mon = NULL;
	struct agent a = {.fd = -1};
	struct provenance pv;
	int ok = 0;
	struct agent_cpu cpu = {0};
	bool measured = false;

	bool have_plan = file_read(args->plan_path, &text, err, sizeof(err)) == 0 &&
			 agent_plan_decode(text.data, text.len, &ap, err, sizeof(err)) == 0;
	if (have_plan)
		load_modules(&ap);
	char oerr[512];
	if ((a.fd = open_out(args->out, oerr, sizeof(oerr))) < 0) {
		fprintf(stderr, "schedrig agent: %s\n", oerr);
		a.fd = dup(1);
	}
	provenance_read(&pv);
	agent_encode_hello(&a.line, pv.kernel_release, pv.kernel_cmdline, pv.autogroup);
	flush_lines(&a);
	if (!have_plan)
		goto out;

	ssize_t len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (len <= 0) {
		snprintf(err, sizeof(err), "cannot find its own executable: %s", strerror(errno));
		goto out;
	}
	self_exe[len] = '\0';
	/* What cannot work here is refused before any knob changes. */
	if (prepare(&ap, &e, &p, &v, err, sizeof(err)) || runner_init(err, sizeof(err)) ||
	    guest_binds_apply(GUEST_BINDS, err, sizeof(err)) ||
	    preflight_refusals(&p, err, sizeof(err)))
		goto out;
	if (e->monitors.enabled) {
		/* Sampled here, where the variant's kernel runs; what is skipped
		 * goes to stderr (the backend keeps it with the agent's log). */
		mon = monitor_create("/proc", e->monitors.interval_ms, err, sizeof(err));
		if (!mon)
			goto out;
		fputs(monitor_notes(mon), stderr);
		runner_set_monitor(mon);
	}
	struct knob_journal_ops journal = {j_record, j_applied, j_restored, &a};
	if (hostset_any(v) && hostset_apply(v, &journal, &hs, err, sizeof(err))) {
		char *msg = xasprintf("variant %s: knob or host: setting refused: %s", v->name, err);
		snprintf(err, sizeof(err), "%s", msg);
		free(msg);
		goto out;
	}
	/* The trace instance is the variant's last change (after its knobs
	 * and host: settings, journalled after their rows) and goes first. */
	struct trace_variant tv = {0};
	const char *tmp = getenv("TMPDIR");
	bool traced = false;
	for (size_t i = 0; i < ap.n_run; i++)
		traced |= config_trace_iteration(&e->trace_all, ap.run[i].iteration);
	int seq = hostset_journal_rows(hs);
	if (traced && trace_variant_open(&tv, e, v->name, ap.run_id, tmp && *tmp ? tmp : "/tmp",
					 &journal, seq, seq == 0, err, sizeof(err))) {
		char *msg = xasprintf("variant %s: trace: %s", v->name, err);
		snprintf(err, sizeof(err), "%s", msg);
		free(msg);
	} else {
		/* The machine as the loads will find it: after the settings,
		 * with this agent (and its monitors) on the housekeeping CPUs. */
		struct host_fp fp;
		hostfp_read("/", &fp);
		agent_encode_host(&a.line, &fp, hs ? &hs->notes : NULL);
		flush_lines(&a);
		hostfp_free(&fp);
		runner_set_load_cpus(hostset_load_cpus(hs));
		runner_set_trace(trace_variant_capture(&tv));
		/* The agent's own cost over the plan's steps (its set-up before
		 * is not counted, as session_note_rig_cost counts the rig's). */
		struct rusage ru0, ru1;
		int64_t t0 = mono_ns();
		getrusage(RUSAGE_SELF, &ru0);
		ok = run_steps(&a, &ap, e, &p, mon, &tv, self_exe, err, sizeof(err)) == 0;
		getrusage(RUSAGE_SELF, &ru1);
		cpu = (struct agent_cpu){tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime),
					 tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime),
					 (mono_ns() - t0) / 1000 + 1};
		measured = true;
		runner_set_trace(NULL);
		runner_set_load_cpus(NULL);
	}
	char rerr[512];
	if (trace_variant_close(&tv, rerr, sizeof(rerr)) && ok) {
		snprintf(err, sizeof(err), "trace instance: %s", rerr);
		ok = 0;
	}
	if (hostset_restore(hs, &journal, rerr, sizeof(rerr)) && ok) {
		snprintf(err, sizeof(err), "knob restore: %s", rerr);
		ok = 0;
	}
	hostset_free(hs);
out:
	runner_set_monitor(NULL);
	monitor_free(mon);
	if (!ok)
		fprintf(stderr, "schedrig agent: %s\n", err);
	agent_encode_end(&a.line, ok, ok ? "" : err, measured ? &cpu : NULL);
	flush_lines(&a);
	buf_free(&a.line);
	if (a.fd >= 0)
		close(a.fd);
	buf_free(&text);
	agent_plan_free(&ap);
	plan_free(&p);
	experiment_free(e);
	return ok ? 0 : 1;
}
