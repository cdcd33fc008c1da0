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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guardian.h"
#include "loadcg.h"
#include "monitor.h"
#include "outcome.h"
#include "spawn.h"
#include "store.h"

static int sig_fd = -1;
static int interrupt_sig;
static struct monitor *mon; /* runner_set_monitor; NULL: no monitors */
static struct trace_capture *trace_cap; /* runner_set_trace; NULL: no trace */
static bool window_open;    /* the measured window of the iteration under way */

void runner_set_monitor(struct monitor *m)
{
	mon = m;
}

void runner_set_trace(struct trace_capture *t)
{
	trace_cap = t;
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
	/* The measured window (runner.h): the running repetition's sampler,
	 * what the repetitions in the window add up to, where its output
	 * stood when the window opened, and the result that holds the sums. */
	struct schedwin sw;
	struct schedwin_totals acc;
	uint64_t progress;
	size_t out_mark, err_mark;
	bool has_window_result;
	size_t window_result;
	struct buf tasks;   /* "task LOAD REPETITION PID TID..." lines */
	struct sched_req sched; /* what the before_exec hook applies: the
				 * instance's, with load_cpus when it sets no cpus */
};

static char load_cpus[128]; /* runner_set_load_cpus; "" none */

void runner_set_load_cpus(const char *list)
{
	snprintf(load_cpus, sizeof(load_cpus), "%s", list ? list : "");
}

static unsigned n_cgroups; /* instances given a cgroup so far, for names */

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
	return guardian_start(err, errsz);
}

int runner_interrupt_signal(void)
{
	return interrupt_sig;
}

void runner_guard_group(pid_t pgid, bool started)
{
	guardian_note(started, pgid);
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
	r->window_progress = -1;
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
			 r->pi->sched.cpus[0] ? r->pi->sched.cpus : load_cpus, strerror(e));
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
	s->sched = pi->sched;
	if (!s->sched.cpus[0])
		snprintf(s->sched.cpus, sizeof(s->sched.cpus), "%s", load_cpus);
	s->proc = (struct spawn){
		.argv = argv, .in = {.kind = SPAWN_FILE, .path = "/dev/null"},
		.out = {.kind = SPAWN_FD, .fd = out_fd}, .err = {.kind = SPAWN_FD, .fd = err_fd},
		.new_group = true, .cgroup = s->cgroup[0] ? s->cgroup : NULL,
		.pdeath_sig = SIGKILL, .before_exec = sched_apply_hook, .hook_arg = &s->sched};
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

	guardian_note(true, pid);
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

/* The slot's running load enters the window: at the window's start
 * (existing: it ran before, its output so far is not counted) or as it
 * starts inside it. */
static void window_enter(struct slot *s, struct inst_result *r, bool existing)
{
	schedwin_begin(&s->sw, s->pid, s->cgroup, existing);
	s->out_mark = existing ? r->out.len : 0;
	s->err_mark = existing ? r->err.len : 0;
}

/* The slot's repetition leaves the window (it exited, or the window
 * closed): its last read, its sums and progress added to the slot's, its
 * tasks noted; r is its result. */
static void window_leave(struct slot *s, size_t result, struct inst_result *r)
{
	const struct load_ops *ops = s->pi->load->ops;
	if (!s->sw.pid)
		return;
	schedwin_end(&s->sw);
	schedwin_add(&s->sw, &s->acc);
	if (ops->progress)
		s->progress += ops->progress(r->out.data ? r->out.data + s->out_mark : "",
					     r->out.len - s->out_mark) +
			       ops->progress(r->err.data ? r->err.data + s->err_mark : "",
					     r->err.len - s->err_mark);
	buf_printf(&s->tasks, "task %s %d %d", s->pi->load->name, r->repetition, (int)s->pid);
	schedwin_tids(&s->sw, &s->tasks);
	buf_puts(&s->tasks, "\n");
	schedwin_free(&s->sw);
	s->has_window_result = true;
	s->window_result = result;
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
		if (window_open)
			window_enter(s, r, false);
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
	/* Before its cgroup goes: cpu.stat holds what all its tasks used. */
	window_leave(s, s->result, r);
	/* Whatever the load left in its cgroup goes with it (its process group
	 * got SIGKILL before the reap, kill_group_left). */
	if (s->cgroup[0])
		loadcg_kill_remove(s->cgroup);
	guardian_note(false, s->pid);
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
					if (parse_ll(t, &pid) && pid > 0 && pid != guardian_pid()) {
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

/* An exited child not reaped yet (waitid WNOWAIT), once the monitor (if
 * any) took its final sample of it and, with a monitor or the window
 * open, its tasks were read (schedwin); else -1 (none). */
static pid_t peek_exited(struct slot *slots, size_t n)
{
	siginfo_t si = {0};
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid <= 0)
		return -1;
	if (mon)
		monitor_task_end(mon, si.si_pid);
	for (size_t i = 0; (mon || window_open) && i < n; i++)
		if (slots[i].pid == si.si_pid)
			schedwin_sample(&slots[i].sw);
	return si.si_pid;
}

/* pid, exited and not reaped, is a load's: SIGKILL whatever the load left
 * in its process group now, while the zombie still holds the group's ID
 * (once reaped, the ID may be reused by another group). */
static void kill_group_left(const struct slot *slots, size_t n, pid_t pid)
{
	for (size_t i = 0; pid > 0 && i < n; i++)
		if (slots[i].pid == pid)
			kill(-pid, SIGKILL);
}

/* Reap every exited load; restart: start a repeating background load again;
 * warmup: the measured loads have not started yet. */
static void reap(struct slot *slots, size_t n, struct iteration_result *res, bool restart,
		 bool warmup, const char *self_exe)
{
	int status;
	struct rusage ru;
	pid_t pid;

	while ((pid = peek_exited(slots, n)) > 0) {
		kill_group_left(slots, n, pid);
		if (wait4(pid, &status, WNOHANG, &ru) != pid)
			break;
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

/* One iteration under way: its loads, where it stands, the poll set. */
struct iteration {
	struct slot *slots;
	size_t n;
	struct iteration_result *res;
	const char *self_exe;
	bool measured_started, stopping;
	int64_t measured_at;   /* when the measured loads start (after the warm-up) */
	int64_t next_sample_ns; /* the next read of the loads' tasks (window open) */
	/* signalfd, two pipes per load, monitor timer; target and fdp say
	 * where each pipe's bytes go and which slot descriptor it is */
	struct pollfd *pfd;
	struct buf **target;
	int **fdp;
};

/* Set up it for cell and start its background loads. */
static void iteration_begin(struct iteration *it, const struct plan_cell *cell, double warmup_s)
{
	size_t n = cell->n_inst;
	bool has_background = false;

	it->n = n;
	it->slots = xcalloc(n, sizeof(*it->slots));
	it->pfd = xcalloc(3 + 2 * n, sizeof(*it->pfd));
	it->target = xcalloc(3 + 2 * n, sizeof(*it->target));
	it->fdp = xcalloc(3 + 2 * n, sizeof(*it->fdp));
	utc_now(it->res->started_at, sizeof(it->res->started_at));
	if (mon)
		monitor_iteration_begin(mon);
	for (size_t i = 0; i < n; i++) {
		struct slot *s = &it->slots[i];
		*s = (struct slot){.pi = &cell->inst[i], .out_fd = -1, .err_fd = -1};
		s->background = cell->inst[i].load->role == ROLE_BACKGROUND;
		has_background |= s->background;
	}
	for (size_t i = 0; i < n && !interrupt_sig; i++)
		if (it->slots[i].background)
			start_slot(&it->slots[i], it->res, it->self_exe);
	it->measured_at = mono_ns() + (has_background ? (int64_t)(warmup_s * 1e9) : 0);
}

/* The measured window opens (the measured loads start next): the trace
 * begins, every running load enters it. */
static void window_begin(struct iteration *it)
{
	trace_capture_window_begin(trace_cap);
	window_open = true;
	it->next_sample_ns = mono_ns() + (int64_t)(RUNNER_SCHEDWIN_S * 1e9);
	for (size_t i = 0; i < it->n; i++) {
		struct slot *s = &it->slots[i];
		s->acc = (struct schedwin_totals){.cgroup_cpu_us = -1};
		if (!s->pid)
			continue;
		struct inst_result *r = &it->res->r[s->result];
		drain(&s->out_fd, &r->out);
		drain(&s->err_fd, &r->err);
		window_enter(s, r, true);
	}
}

/* The measured window closes (the last measured load exited, or the rig
 * was interrupted): the trace stops, every load still running leaves it,
 * each load's sums go to the result that holds them, the loads' tasks
 * are noted in the trace. */
static void window_end(struct iteration *it)
{
	trace_capture_window_end(trace_cap);
	window_open = false;
	for (size_t i = 0; i < it->n; i++) {
		struct slot *s = &it->slots[i];
		if (!s->sw.pid)
			continue;
		struct inst_result *r = &it->res->r[s->result];
		drain(&s->out_fd, &r->out);
		drain(&s->err_fd, &r->err);
		window_leave(s, s->result, r);
	}
	for (size_t i = 0; i < it->n; i++) {
		struct slot *s = &it->slots[i];
		if (!s->has_window_result)
			continue;
		struct inst_result *r = &it->res->r[s->window_result];
		r->window = s->acc;
		r->window_progress = s->pi->load->ops->progress ? (int64_t)s->progress : -1;
		char *save = NULL, *lines = xstrdup(buf_str(&s->tasks));
		for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			trace_capture_note(trace_cap, l);
		free(lines);
	}
}

/* While the window is open, every RUNNER_SCHEDWIN_S: read the tasks of
 * every running load. */
static void window_sample(struct iteration *it, int64_t now)
{
	if (!window_open || now < it->next_sample_ns)
		return;
	for (size_t i = 0; i < it->n; i++)
		schedwin_sample(&it->slots[i].sw);
	it->next_sample_ns = now + (int64_t)(RUNNER_SCHEDWIN_S * 1e9);
}

/* The lifecycle at time now: measured loads start after the warm-up;
 * background loads get their stop signal once the measured ones are done
 * (or the rig is interrupted). Returns true when the iteration is over. */
static bool iteration_step(struct iteration *it, int64_t now)
{
	struct slot *slots = it->slots;
	size_t n = it->n;

	if (!it->measured_started && !interrupt_sig && now >= it->measured_at) {
		window_begin(it);
		for (size_t i = 0; i < n; i++)
			if (!slots[i].background)
				start_slot(&slots[i], it->res, it->self_exe);
		it->measured_started = true;
	}
	/* A background load lives as long as the measured ones: its
	 * timeout_s guards its start-up (the warm-up) and its stop, not
	 * the measured window, however long that is. */
	if (it->measured_started && !it->stopping)
		for (size_t i = 0; i < n; i++)
			if (slots[i].background && slots[i].pid)
				slots[i].deadline_ns = INT64_MAX;
	bool measured_done = it->measured_started && !any_running(slots, n, false);
	if ((measured_done || interrupt_sig) && !it->stopping) {
		it->stopping = true;
		if (window_open)
			window_end(it);
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &slots[i];
			if (!s->background || !s->pid)
				continue;
			s->stop_sent = true;
			s->deadline_ns = now + (int64_t)(s->pi->load->timeout_s * 1e9);
			signal_slot(s, s->pi->load->ops->stop_signal,
				    now + (int64_t)(RUNNER_GRACE_S * 1e9));
		}
	}
	return (measured_done || interrupt_sig) && !any_running(slots, n, true) &&
	       !any_running(slots, n, false);
}

/* Deadlines at time now: SIGKILL at a timeout and after the grace period.
 * Returns when the next deadline (or the warm-up's end) falls, at most 1 s on. */
static int64_t enforce_deadlines(struct iteration *it, int64_t now)
{
	int64_t next = now + 1000000000;

	if (!it->measured_started && it->measured_at < next)
		next = it->measured_at;
	if (window_open && it->next_sample_ns < next)
		next = it->next_sample_ns;
	for (size_t i = 0; i < it->n; i++) {
		struct slot *s = &it->slots[i];
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
	return next;
}

/* Put the running slot's open pipes into the poll set at *np. */
static void poll_slot_pipes(struct iteration *it, struct slot *s, nfds_t *np)
{
	struct inst_result *r = &it->res->r[s->result];
	int *fds[2] = {&s->out_fd, &s->err_fd};
	struct buf *bufs[2] = {&r->out, &r->err};

	for (int k = 0; k < 2; k++) {
		if (*fds[k] < 0)
			continue;
		it->target[*np] = bufs[k];
		it->fdp[*np] = fds[k];
		it->pfd[(*np)++] = (struct pollfd){.fd = *fds[k], .events = POLLIN};
	}
}

/* Wait until next (CLOCK_MONOTONIC ns) for a signal, the loads' output or
 * the monitor's timer, and take what came. Returns 0 or -1 with err when
 * poll itself failed. */
static int iteration_wait(struct iteration *it, int64_t now, int64_t next, char *err,
			  size_t errsz)
{
	nfds_t np = 0;
	it->pfd[np++] = (struct pollfd){.fd = sig_fd, .events = POLLIN};
	for (size_t i = 0; i < it->n; i++)
		if (it->slots[i].pid)
			poll_slot_pipes(it, &it->slots[i], &np);
	nfds_t mon_k = np;
	if (mon)
		it->pfd[np++] = (struct pollfd){.fd = monitor_fd(mon), .events = POLLIN};
	nfds_t trace_k = np;
	int trace_fd = trace_capture_fd(trace_cap);
	if (trace_fd >= 0)
		it->pfd[np++] = (struct pollfd){.fd = trace_fd, .events = POLLIN};
	int64_t wait_ms = (next - now) / 1000000 + 1;
	if (wait_ms < 0)
		wait_ms = 0;
	int rc = poll(it->pfd, np, (int)wait_ms);
	if (rc < 0 && errno != EINTR) {
		snprintf(err, errsz, "poll: %s", strerror(errno));
		return -1;
	}
	for (nfds_t k = 1; rc > 0 && k < mon_k; k++)
		if (it->pfd[k].revents)
			drain(it->fdp[k], it->target[k]);
	if (mon && rc > 0 && it->pfd[mon_k].revents)
		monitor_tick(mon);
	if (trace_fd >= 0 && rc > 0 && it->pfd[trace_k].revents)
		trace_capture_tick(trace_cap);
	return 0;
}

/* Leave nothing behind: loads still running (only after a failure of the
 * rig's own) are killed and reaped, their cgroups removed, every other
 * descendant swept; then the monitors' end and it freed. */
static void iteration_end(struct iteration *it)
{
	if (window_open)
		window_end(it);
	for (size_t i = 0; i < it->n; i++) {
		struct slot *s = &it->slots[i];
		spawn_free(&s->proc); /* a load still running: SIGKILL, reaped */
		close_slot_fds(s);
		if (s->cgroup[0])
			loadcg_kill_remove(s->cgroup);
		schedwin_free(&s->sw);
		buf_free(&s->tasks);
	}
	trace_capture_take(trace_cap, &it->res->trace);
	sweep_children();
	if (mon)
		monitor_iteration_end(mon, it->res);
	utc_now(it->res->ended_at, sizeof(it->res->ended_at));
	it->res->interrupted = interrupt_sig != 0;
	free(it->pfd);
	free(it->target);
	free(it->fdp);
	free(it->slots);
}

int runner_run_iteration(const struct plan_cell *cell, double warmup_s, const char *self_exe,
			 struct iteration_result *res, char *err, size_t errsz)
{
	struct iteration it = {.res = res, .self_exe = self_exe};
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (sig_fd < 0) {
		snprintf(err, errsz, "runner_init was not called");
		return -1;
	}
	iteration_begin(&it, cell, warmup_s);
	for (;;) {
		int64_t now = mono_ns();
		if (iteration_step(&it, now))
			break;
		window_sample(&it, now);
		int64_t next = enforce_deadlines(&it, now);
		if (iteration_wait(&it, now, next, err, errsz)) {
			ret = -1;
			break;
		}
		/* A repeating background load restarts from the warm-up on: the
		 * measured load must meet it whenever its first run is short. */
		bool restart = !it.stopping && !interrupt_sig;
		handle_signals(it.slots, it.n, res, restart, !it.measured_started, self_exe);
	}
	iteration_end(&it);
	return ret;
}

