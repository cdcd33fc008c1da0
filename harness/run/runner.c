#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loadcg.h"
#include "monitor.h"
#include "outcome.h"
#include "spawn.h"
#include "store.h"

static int sig_fd = -1;
static int interrupt_sig;
static struct spawn guard; /* the guardian (runner_init); pid 0 when none */
static int guard_fd = -1; /* the rig's end of the guardian's socket */
static struct monitor *mon; /* runner_set_monitor; NULL: no monitors */

void runner_set_monitor(struct monitor *m)
{
	mon = m;
}

/* Runtime state of one load of the cell. */
struct slot {
	const struct plan_instance *pi;
	bool background;
	size_t result;      /* index into the iteration's results */
	int repetition;
	pid_t pid;          /* running process (and process group); 0 when none */
	struct spawn proc;  /* the load's process (spawn.h); reaped here, not by spawn */
	int out_fd, err_fd; /* the rig's ends of its stdout and stderr pipes; -1 when closed */
	int64_t deadline_ns;
	int64_t kill_at_ns; /* SIGKILL the group at this time; 0 unset */
	bool stop_sent, timed_out, started;
	char cgroup[1200];  /* the instance's cgroup (loadcg); "" when none */
};

static unsigned n_cgroups; /* instances given a cgroup so far, for names */

const char *inst_state_name(enum inst_state s)
{
	switch (s) {
	case INST_OK:
		return "ok";
	case INST_FAILED:
		return "failed";
	case INST_TIMEOUT:
		return "timeout";
	case INST_STOPPED:
		return "stopped";
	case INST_INTERRUPTED:
		return "interrupted";
	case INST_WARMUP:
		return "warmup";
	}
	return "?";
}

/* The guardian: a child of the rig that outlives it, run by spawn as a
 * function (fd_arg: its end of the socket) with the rig's signal mask
 * (SIGINT and the like blocked). Its stdio goes to /dev/null here, once the
 * socket is on 3: the socket may be on 0..2 when the rig started with one
 * of them closed. The rig sends "+PGID\n"
 * when a load's process group starts and "-PGID\n" once it is gone; at EOF
 * (the rig exited or was killed, even by SIGKILL) the guardian SIGKILLs every
 * group still listed and exits. PR_SET_PDEATHSIG only reaches the rig's
 * direct children; this reaches what they started in their group. */
static int guardian(void *fd_arg)
{
	static pid_t groups[1024];
	size_t n = 0, len = 0;
	char buf[256], line[32];
	int fd = *(const int *)fd_arg;

	prctl(PR_SET_NAME, "schedrig-guard"); /* not "schedrig" in ps and pkill -x */
	if (fd != 3 && dup2(fd, 3) < 0)
		return 1;
	int null_fd = open("/dev/null", O_RDWR);
	if (null_fd >= 0)
		for (int i = 0; i < 3; i++)
			dup2(null_fd, i);
	close_range(4, ~0U, 0); /* the database, the signalfd, ... */
	for (;;) {
		ssize_t r = read(3, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			size_t got = len;
			len = 0;
			long long pgid;
			if (got < 2 || !parse_ll(line + 1, &pgid) || pgid <= 1)
				continue;
			size_t k = 0;
			while (k < n && groups[k] != (pid_t)pgid)
				k++;
			if (line[0] == '+' && k == n && n < sizeof(groups) / sizeof(groups[0]))
				groups[n++] = (pid_t)pgid;
			else if (line[0] == '-' && k < n)
				groups[k] = groups[--n];
		}
	}
	for (size_t k = 0; k < n; k++)
		kill(-groups[k], SIGKILL);
	loadcg_cleanup(); /* everything in the loads' cgroups, escapers included */
	return 0;
}

/* Tell the guardian that process group pgid started ('+') or is gone ('-'). */
static void guard_note(char what, pid_t pgid)
{
	char msg[32];
	int len = snprintf(msg, sizeof(msg), "%c%d\n", what, (int)pgid);
	if (guard_fd >= 0 && send(guard_fd, msg, (size_t)len, MSG_NOSIGNAL) != len) {
		close(guard_fd); /* the guardian is gone: go on without it */
		guard_fd = -1;
	}
}

/* Start the guardian (above) with spawn; guard_fd is the rig's end of its
 * socket. Returns 0 or -1 with err. */
static int start_guardian(char *err, size_t errsz)
{
	int sv[2];
	char why[256];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errsz, "cannot start the guardian: %s", strerror(errno));
		return -1;
	}
	guard = (struct spawn){.fn = guardian, .fn_arg = &sv[1]};
	int rc = spawn_start(&guard, why, sizeof(why));
	close(sv[1]);
	if (rc) {
		snprintf(err, errsz, "cannot start the guardian: %s", why);
		close(sv[0]);
		return -1;
	}
	guard_fd = sv[0];
	return 0;
}

int runner_init(char *err, size_t errsz)
{
	sigset_t set;

	if (sig_fd >= 0)
		return 0;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) ||
	    (sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		snprintf(err, errsz, "cannot set up signal handling: %s", strerror(errno));
		return -1;
	}
	/* Orphaned grandchildren of loads are re-parented to the rig, so
	 * nothing a load started can outlive the iteration unnoticed. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* A cgroup per load where cgroup2 allows it (else process groups only). */
	char why[512];
	loadcg_init(why, sizeof(why));
	/* And nothing in a load's process group outlives the rig itself. */
	return start_guardian(err, errsz);
}

int runner_interrupt_signal(void)
{
	return interrupt_sig;
}

void runner_guard_group(pid_t pgid, bool started)
{
	guard_note(started ? '+' : '-', pgid);
}

void runner_note_interrupt(int sig)
{
	if (!interrupt_sig)
		interrupt_sig = sig;
}

int runner_poll_interrupt(void)
{
	struct signalfd_siginfo si;
	while (sig_fd >= 0 && read(sig_fd, &si, sizeof(si)) == sizeof(si))
		if (si.ssi_signo != SIGCHLD && !interrupt_sig)
			interrupt_sig = (int)si.ssi_signo;
	return interrupt_sig;
}

static struct inst_result *new_result(struct iteration_result *res, const struct plan_instance *pi,
				      int repetition, size_t *index)
{
	res->r = xrealloc(res->r, (res->n + 1) * sizeof(*res->r));
	struct inst_result *r = &res->r[res->n];
	memset(r, 0, sizeof(*r));
	r->pi = pi;
	r->repetition = repetition;
	*index = res->n++;
	return r;
}

/* Give s its own cgroup (loadcg) where cgroup2 allows it, with the load's
 * cgroup attributes set before the load enters it. Returns 0, or -1 with
 * r->reason when the attributes cannot be set. */
static int slot_cgroup(struct slot *s, struct inst_result *r)
{
	const struct sched_req *sched = &s->pi->sched;
	char why[256];

	s->cgroup[0] = '\0';
	if (loadcg_base() && loadcg_create(++n_cgroups, s->cgroup, sizeof(s->cgroup)))
		s->cgroup[0] = '\0';
	if (!sched_req_has_cgroup(sched))
		return 0;
	if (!s->cgroup[0]) {
		snprintf(r->reason, sizeof(r->reason),
			 "cgroup attributes need the load's own cgroup v2, and there is none");
		return -1;
	}
	if (loadcg_set_cpu(s->cgroup, sched, why, sizeof(why))) {
		snprintf(r->reason, sizeof(r->reason), "%s", why);
		return -1;
	}
	return 0;
}

/* r->reason for a load spawn could not start (spawn's err in err): the
 * step that failed in the child, worded with the load's argv[0]. */
static void start_failure(struct inst_result *r, const struct spawn *p, const char *err)
{
	const char *step = p->fail_step, *argv0 = r->pi->argv.v[0];
	int e = p->fail_errno;

	if (!strcmp(step, "sched_setaffinity") && e == EINVAL)
		snprintf(r->reason, sizeof(r->reason), "cpus %s: not every CPU of the list is"
			 " on this machine or allowed to the rig (sched_setaffinity: %s)",
			 r->pi->sched.cpus, strerror(e));
	else if (step[0])
		snprintf(r->reason, sizeof(r->reason), "%s %s: %s",
			 !strcmp(step, "exec") ? "cannot run" : step, argv0, strerror(e));
	else
		snprintf(r->reason, sizeof(r->reason), "%s", err);
}

/* Start the slot's load with spawn: stdin /dev/null, stdout and stderr
 * onto out_fd and err_fd, its own process group and cgroup, SIGKILL when
 * the rig dies, its scheduling attributes applied before exec. Returns 0
 * or -1 with r->reason (nothing left running). */
static int spawn_load(struct slot *s, struct inst_result *r, int out_fd, int err_fd,
		      const char *self_exe)
{
	const struct plan_instance *pi = s->pi;
	char err[256];
	/* argv[0] "schedrig" means this very binary (built-in loads). */
	char **argv = pi->argv.v;
	char *saved0 = argv[0];
	if (!strcmp(argv[0], "schedrig"))
		argv[0] = (char *)self_exe;
	s->proc = (struct spawn){
		.argv = argv, .in = {.kind = SPAWN_FILE, .path = "/dev/null"},
		.out = {.kind = SPAWN_FD, .fd = out_fd}, .err = {.kind = SPAWN_FD, .fd = err_fd},
		.new_group = true, .cgroup = s->cgroup[0] ? s->cgroup : NULL,
		.pdeath_sig = SIGKILL, .before_exec = sched_apply_hook, .hook_arg = &pi->sched};
	int rc = spawn_start(&s->proc, err, sizeof(err));
	argv[0] = saved0;
	s->proc.argv = NULL;
	if (rc)
		start_failure(r, &s->proc, err);
	return rc;
}

/* The slot's load started: watch its pipes (out_fd, err_fd, the rig's
 * ends), its deadline, and read back what the kernel applied. */
static void slot_running(struct slot *s, struct inst_result *r, int out_fd, int err_fd)
{
	const struct plan_instance *pi = s->pi;
	pid_t pid = s->proc.pid;

	guard_note('+', pid);
	r->pid = s->pid = pid;
	r->state = INST_OK;
	s->out_fd = out_fd;
	s->err_fd = err_fd;
	fcntl(s->out_fd, F_SETFL, O_NONBLOCK);
	fcntl(s->err_fd, F_SETFL, O_NONBLOCK);
	s->deadline_ns = r->start_ns + (int64_t)(pi->load->timeout_s * 1e9);
	sched_read_back(pid, r->applied, sizeof(r->applied));
	if (sched_req_has_cgroup(&pi->sched))
		loadcg_read_cpu(s->cgroup, &pi->sched, r->applied, sizeof(r->applied));
	if (mon)
		monitor_task_start(mon, pid, !s->background);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Start the slot's load; on a start failure the result is final (FAILED). */
static void start_slot(struct slot *s, struct iteration_result *res, const char *self_exe)
{
	const struct plan_instance *pi = s->pi;
	struct inst_result *r = new_result(res, pi, s->repetition, &s->result);
	int out[2] = {-1, -1}, errp[2] = {-1, -1};
	char why[256];
	bool started = false;

	s->started = true;
	s->stop_sent = s->timed_out = false;
	s->kill_at_ns = 0;
	r->start_ns = mono_ns();
	r->state = INST_FAILED;
	if (pi->load->ops->prepare && pi->load->ops->prepare(&pi->params, why, sizeof(why))) {
		snprintf(r->reason, sizeof(r->reason), "%s", why);
		r->end_ns = r->start_ns;
		return;
	}
	if (pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		snprintf(r->reason, sizeof(r->reason), "pipe: %s", strerror(errno));
	else
		started = !slot_cgroup(s, r) && !spawn_load(s, r, out[1], errp[1], self_exe);
	close_fd(&out[1]);
	close_fd(&errp[1]);
	if (started) {
		slot_running(s, r, out[0], errp[0]);
		return;
	}
	close_fd(&out[0]);
	close_fd(&errp[0]);
	r->end_ns = mono_ns();
}

/* Read what is available; close the fd at EOF. */
static void drain(int *fd, struct buf *b)
{
	char chunk[65536];
	while (*fd >= 0) {
		ssize_t n = read(*fd, chunk, sizeof(chunk));
		if (n > 0) {
			buf_append(b, chunk, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		close(*fd);
		*fd = -1;
	}
}

static void close_slot_fds(struct slot *s)
{
	close_fd(&s->out_fd);
	close_fd(&s->err_fd);
}

/* The slot's process has been reaped with status: make its result final.
 * warmup: the measured loads have not started yet. */
static void finish_slot(struct slot *s, struct iteration_result *res, int status,
			const struct rusage *ru, bool warmup)
{
	struct inst_result *r = &res->r[s->result];

	spawn_reaped(&s->proc, status, ru);
	drain(&s->out_fd, &r->out);
	drain(&s->err_fd, &r->err);
	close_slot_fds(s);
	/* Whatever the load left in its process group or cgroup goes with it. */
	kill(-s->pid, SIGKILL);
	if (s->cgroup[0])
		loadcg_kill_remove(s->cgroup);
	guard_note('-', s->pid);
	r->end_ns = mono_ns();
	r->ru = *ru;
	r->exited = WIFEXITED(status);
	r->exit_code = r->exited ? WEXITSTATUS(status) : 0;
	r->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (s->timed_out) {
		r->state = INST_TIMEOUT;
	} else if (interrupt_sig) {
		r->state = INST_INTERRUPTED;
		snprintf(r->reason, sizeof(r->reason), "the rig was interrupted by %s",
			 strsignal(interrupt_sig));
	} else if (s->stop_sent) {
		r->state = INST_STOPPED;
	} else if (r->exited && r->exit_code == 0) {
		r->state = s->background && warmup ? INST_WARMUP : INST_OK;
	} else {
		r->state = INST_FAILED;
	}
	if (r->state == INST_TIMEOUT || r->state == INST_FAILED)
		outcome_runner_reason(r->state, r->exited, r->exit_code, r->term_signal,
				      s->pi->load->timeout_s, r->reason, sizeof(r->reason));
	s->pid = 0;
}

static void signal_slot(struct slot *s, int sig, int64_t kill_at_ns)
{
	if (!s->pid)
		return;
	spawn_signal(&s->proc, sig);
	if (sig == SIGCONT || sig == SIGKILL)
		return;
	spawn_signal(&s->proc, SIGCONT); /* a stopped (SIGSTOP) load must see it */
	if (!s->kill_at_ns || kill_at_ns < s->kill_at_ns)
		s->kill_at_ns = kill_at_ns;
}

/* Kill every remaining descendant: those listed as our children (the
 * subreaper collects orphans), repeatedly until none is left. */
static void sweep_children(void)
{
	for (int round = 0; round < 50; round++) {
		char path[64], line[4096];
		bool any = false;
		snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
		FILE *f = fopen(path, "r");
		if (f) {
			if (fgets(line, sizeof(line), f)) {
				char *save = NULL;
				for (char *t = strtok_r(line, " \n", &save); t;
				     t = strtok_r(NULL, " \n", &save)) {
					long long pid;
					if (parse_ll(t, &pid) && pid > 0 && pid != guard.pid) {
						kill((pid_t)pid, SIGKILL);
						any = true;
					}
				}
			}
			fclose(f);
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			any = true;
		if (!any)
			return;
		usleep(10000);
	}
}

static bool any_running(const struct slot *slots, size_t n, bool background)
{
	for (size_t i = 0; i < n; i++)
		if (slots[i].pid && slots[i].background == background)
			return true;
	return false;
}

/* With a monitor: an exited child not reaped yet (waitid WNOWAIT), once the
 * monitor took its final sample of it; else -1 (any child). */
static pid_t peek_exited(void)
{
	siginfo_t si = {0};
	if (!mon || waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid <= 0)
		return -1;
	monitor_task_end(mon, si.si_pid);
	return si.si_pid;
}

/* Reap every exited load; restart: start a repeating background load again;
 * warmup: the measured loads have not started yet. */
static void reap(struct slot *slots, size_t n, struct iteration_result *res, bool restart,
		 bool warmup, const char *self_exe)
{
	int status;
	struct rusage ru;
	pid_t pid;

	while ((pid = wait4(peek_exited(), &status, WNOHANG, &ru)) > 0) {
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &slots[i];
			if (s->pid != pid)
				continue;
			finish_slot(s, res, status, &ru, warmup);
			if (restart && s->background && s->pi->load->repeat) {
				s->repetition++;
				start_slot(s, res, self_exe);
			}
		}
	}
}

static void handle_signals(struct slot *slots, size_t n, struct iteration_result *res,
			   bool restart, bool warmup, const char *self_exe)
{
	struct signalfd_siginfo si;
	while (read(sig_fd, &si, sizeof(si)) == sizeof(si)) {
		int sig = (int)si.ssi_signo;
		if (sig == SIGCHLD)
			continue;
		if (!interrupt_sig) {
			interrupt_sig = sig;
			int64_t at = mono_ns() + (int64_t)(RUNNER_INTERRUPT_GRACE_S * 1e9);
			for (size_t i = 0; i < n; i++)
				signal_slot(&slots[i], SIGTERM, at);
		}
		/* A second signal does not abandon the cleanup under way. */
	}
	reap(slots, n, res, restart, warmup, self_exe);
}

int runner_run_iteration(const struct plan_cell *cell, double warmup_s, const char *self_exe,
			 struct iteration_result *res, char *err, size_t errsz)
{
	struct slot *slots = xcalloc(cell->n_inst, sizeof(*slots));
	size_t n = cell->n_inst;
	bool measured_started = false, stopping = false, has_background = false;
	int ret = 0;
	/* signalfd, two pipes per load, monitor timer */
	struct pollfd *pfd = xcalloc(2 + 2 * n, sizeof(*pfd));
	struct buf **target = xcalloc(2 + 2 * n, sizeof(*target));
	int **fdp = xcalloc(2 + 2 * n, sizeof(*fdp));

	memset(res, 0, sizeof(*res));
	if (sig_fd < 0) {
		free(pfd);
		free(target);
		free(fdp);
		free(slots);
		snprintf(err, errsz, "runner_init was not called");
		return -1;
	}
	store_now(res->started_at, sizeof(res->started_at));
	if (mon)
		monitor_iteration_begin(mon);
	for (size_t i = 0; i < n; i++) {
		slots[i] = (struct slot){.pi = &cell->inst[i], .out_fd = -1, .err_fd = -1};
		slots[i].background = cell->inst[i].load->role == ROLE_BACKGROUND;
		has_background |= slots[i].background;
	}
	for (size_t i = 0; i < n && !interrupt_sig; i++)
		if (slots[i].background)
			start_slot(&slots[i], res, self_exe);
	int64_t measured_at = mono_ns() + (has_background ? (int64_t)(warmup_s * 1e9) : 0);

	for (;;) {
		int64_t now = mono_ns();
		if (!measured_started && !interrupt_sig && now >= measured_at) {
			for (size_t i = 0; i < n; i++)
				if (!slots[i].background)
					start_slot(&slots[i], res, self_exe);
			measured_started = true;
		}
		/* A background load lives as long as the measured ones: its
		 * timeout_s guards its start-up (the warm-up) and its stop, not
		 * the measured window, however long that is. */
		if (measured_started && !stopping)
			for (size_t i = 0; i < n; i++)
				if (slots[i].background && slots[i].pid)
					slots[i].deadline_ns = INT64_MAX;
		bool measured_done = measured_started && !any_running(slots, n, false);
		if ((measured_done || interrupt_sig) && !stopping) {
			stopping = true;
			for (size_t i = 0; i < n; i++) {
				if (!slots[i].background || !slots[i].pid)
					continue;
				slots[i].stop_sent = true;
				slots[i].deadline_ns = now + (int64_t)(slots[i].pi->load->timeout_s * 1e9);
				signal_slot(&slots[i], slots[i].pi->load->ops->stop_signal,
					    now + (int64_t)(RUNNER_GRACE_S * 1e9));
			}
		}
		if ((measured_done || interrupt_sig) && !any_running(slots, n, true) &&
		    !any_running(slots, n, false))
			break;

		/* Deadlines: timeouts, SIGKILL after the grace period, warm-up end. */
		int64_t next = now + 1000000000;
		if (!measured_started && measured_at < next)
			next = measured_at;
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &slots[i];
			if (!s->pid)
				continue;
			if (now >= s->deadline_ns && !s->timed_out) {
				s->timed_out = true;
				spawn_signal(&s->proc, SIGKILL);
			}
			if (s->kill_at_ns && now >= s->kill_at_ns) {
				spawn_signal(&s->proc, SIGKILL);
				s->kill_at_ns = 0;
			}
			if (!s->timed_out && s->deadline_ns < next)
				next = s->deadline_ns;
			if (s->kill_at_ns && s->kill_at_ns < next)
				next = s->kill_at_ns;
		}

		nfds_t np = 0;
		pfd[np++] = (struct pollfd){.fd = sig_fd, .events = POLLIN};
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &slots[i];
			if (!s->pid)
				continue;
			struct inst_result *r = &res->r[s->result];
			if (s->out_fd >= 0) {
				target[np] = &r->out;
				fdp[np] = &s->out_fd;
				pfd[np++] = (struct pollfd){.fd = s->out_fd, .events = POLLIN};
			}
			if (s->err_fd >= 0) {
				target[np] = &r->err;
				fdp[np] = &s->err_fd;
				pfd[np++] = (struct pollfd){.fd = s->err_fd, .events = POLLIN};
			}
		}
		nfds_t mon_k = np;
		if (mon)
			pfd[np++] = (struct pollfd){.fd = monitor_fd(mon), .events = POLLIN};
		int64_t wait_ms = (next - now) / 1000000 + 1;
		if (wait_ms < 0)
			wait_ms = 0;
		int rc = poll(pfd, np, (int)wait_ms);
		if (rc < 0 && errno != EINTR) {
			snprintf(err, errsz, "poll: %s", strerror(errno));
			ret = -1;
			break;
		}
		for (nfds_t k = 1; rc > 0 && k < mon_k; k++)
			if (pfd[k].revents)
				drain(fdp[k], target[k]);
		if (mon && rc > 0 && pfd[mon_k].revents)
			monitor_tick(mon);
		/* A repeating background load restarts from the warm-up on: the
		 * measured load must meet it whenever its first run is short. */
		bool restart = !stopping && !interrupt_sig;
		handle_signals(slots, n, res, restart, !measured_started, self_exe);
	}

	for (size_t i = 0; i < n; i++) {
		spawn_free(&slots[i].proc); /* a load still running: SIGKILL, reaped */
		close_slot_fds(&slots[i]);
		if (slots[i].cgroup[0])
			loadcg_kill_remove(slots[i].cgroup);
	}
	sweep_children();
	if (mon)
		monitor_iteration_end(mon, res);
	store_now(res->ended_at, sizeof(res->ended_at));
	res->interrupted = interrupt_sig != 0;
	free(pfd);
	free(target);
	free(fdp);
	free(slots);
	return ret;
}

void iteration_result_free(struct iteration_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		buf_free(&res->r[i].out);
		buf_free(&res->r[i].err);
	}
	free(res->r);
	memset(res, 0, sizeof(*res));
}
