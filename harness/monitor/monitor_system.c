/* The monitor's system-wide /proc files (monitor_system.h): stat,
 * pressure/{cpu,io,memory}, schedstat, loadavg. Formats: procfs.h. */
#include "monitor_system.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const stat_keys[] = {
	"user_pct", "nice_pct",  "system_pct", "idle_pct", "iowait_pct",
	"irq_pct",  "softirq_pct", "steal_pct", "guest_pct",
};
enum { N_STAT_KEYS = sizeof(stat_keys) / sizeof(stat_keys[0]) };
static const char *const sys_keys[] = {"ctxt_per_s", "processes_per_s", "procs_running",
				       "procs_blocked"};
static const char *const loadavg_keys[] = {"load1", "load5", "load15", "runnable", "threads"};
/* Rates per second, but run_pct and wait_pct: % of the interval. lb_*:
 * load_balance() calls while the CPU was busy, idle, newly idle. */
static const char *const schedstat_keys[] = {
	"yld_per_s",        "sched_per_s", "sched_goidle_per_s", "ttwu_per_s",
	"ttwu_local_per_s", "timeslices_per_s", "run_pct",       "wait_pct",
	"lb_busy_per_s",    "lb_idle_per_s", "lb_newidle_per_s",
};
enum { N_SCHEDSTAT_KEYS = sizeof(schedstat_keys) / sizeof(schedstat_keys[0]) };

static const char *const psi_names[] = {"cpu", "io", "memory"};
static const char *const psi_keys[3][4] = {
	{"cpu_some_avg10_pct", "cpu_some_pct", "cpu_full_avg10_pct", "cpu_full_pct"},
	{"io_some_avg10_pct", "io_some_pct", "io_full_avg10_pct", "io_full_pct"},
	{"memory_some_avg10_pct", "memory_some_pct", "memory_full_avg10_pct", "memory_full_pct"},
};

void mon_grow_cpus(struct monitor *m, size_t need)
{
	size_t old = m->cpu_cap, cap = old ? old : 1;
	while (cap < need)
		cap *= 2;
	if (cap == old)
		return;
	m->st_prev.cpu = xrealloc(m->st_prev.cpu, cap * sizeof(*m->st_prev.cpu));
	m->st_cur.cpu = xrealloc(m->st_cur.cpu, cap * sizeof(*m->st_cur.cpu));
	m->ss_prev.cpu = xrealloc(m->ss_prev.cpu, cap * sizeof(*m->ss_prev.cpu));
	m->ss_cur.cpu = xrealloc(m->ss_cur.cpu, cap * sizeof(*m->ss_cur.cpu));
	m->stat_series = xrealloc(m->stat_series, (cap + 1) * sizeof(*m->stat_series));
	m->ss_series = xrealloc(m->ss_series, cap * sizeof(*m->ss_series));
	if (!old)
		m->stat_series[0] = NO_SERIES;
	for (size_t i = old; i < cap; i++) {
		m->st_prev.cpu[i] = m->st_cur.cpu[i] = (struct proc_cpu_times){0};
		m->ss_prev.cpu[i] = m->ss_cur.cpu[i] = (struct schedstat_cpu){0};
		m->stat_series[i + 1] = NO_SERIES;
		m->ss_series[i] = NO_SERIES;
	}
	m->st_prev.cpu_cap = m->st_cur.cpu_cap = cap;
	m->ss_prev.cpu_cap = m->ss_cur.cpu_cap = cap;
	m->cpu_cap = cap;
}

static int open_rel(const char *root, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* /proc/schedstat under proc_root, when this rig reads its version; a
 * note saying why not otherwise. */
static void open_schedstat(struct monitor *m, const char *proc_root)
{
	if ((m->schedstat_fd = open_rel(proc_root, "schedstat")) < 0) {
		buf_printf(&m->notes,
			   "monitors: %s/schedstat is absent on this kernel (CONFIG_SCHEDSTATS"
			   " off): per-CPU schedstat series are skipped\n", proc_root);
		return;
	}
	if (!mon_read_schedstat(m))
		return;
	int v = m->ss_cur.version;
	if (v == 15 || v == 16 || v == 17)
		buf_printf(&m->notes, "monitors: %s/schedstat does not have the layout of its"
			   " version %d: per-CPU schedstat series are skipped\n", proc_root, v);
	else
		buf_printf(&m->notes, "monitors: %s/schedstat is of version %d, not one this"
			   " rig reads (15, 16, 17: their fields differ): per-CPU schedstat"
			   " series are skipped\n", proc_root, v);
	close(m->schedstat_fd);
	m->schedstat_fd = -1;
}

int mon_system_open(struct monitor *m, const char *proc_root, char *err, size_t errsz)
{
	m->stat_fd = open_rel(proc_root, "stat");
	if (m->stat_fd < 0 || mon_read_stat(m)) {
		snprintf(err, errsz, "monitors: cannot read %s/stat: %s", proc_root,
			 m->stat_fd < 0 ? strerror(errno) : "not in /proc/stat format");
		return -1;
	}
	if ((m->loadavg_fd = open_rel(proc_root, "loadavg")) < 0)
		buf_printf(&m->notes,
			   "monitors: %s/loadavg is absent: loadavg series are skipped\n", proc_root);
	for (int i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "pressure/%s", psi_names[i]);
		if ((m->psi[i].fd = open_rel(proc_root, name)) < 0)
			buf_printf(&m->notes,
				   "monitors: %s/%s is absent on this kernel (no PSI): psi %s"
				   " series are skipped\n", proc_root, name, psi_names[i]);
	}
	open_schedstat(m, proc_root);
	return 0;
}

void mon_system_reset(struct monitor *m)
{
	for (size_t i = 0; i <= m->cpu_cap; i++)
		m->stat_series[i] = NO_SERIES;
	for (size_t i = 0; i < m->cpu_cap; i++)
		m->ss_series[i] = NO_SERIES;
	m->sys_series = m->loadavg_series = NO_SERIES;
	for (int i = 0; i < 3; i++) {
		m->psi[i].series = NO_SERIES;
		m->psi[i].have_prev = false;
	}
	m->have_stat = m->have_ss = false;
}

/* Read and parse /proc/stat (schedstat false) or /proc/schedstat into its
 * _cur, the per-CPU arrays doubled while the parse skipped CPUs. 0 or -1. */
static int read_cpu_file(struct monitor *m, bool schedstat)
{
	for (;;) {
		const char *t = mon_read_fd(m, schedstat ? m->schedstat_fd : m->stat_fd);
		if (!t || (schedstat ? proc_schedstat_parse(t, &m->ss_cur)
				     : proc_stat_parse(t, &m->st_cur)))
			return -1;
		if (!(schedstat ? m->ss_cur.truncated : m->st_cur.truncated))
			return 0;
		mon_grow_cpus(m, m->cpu_cap * 2);
	}
}

int mon_read_stat(struct monitor *m)
{
	return read_cpu_file(m, false);
}

int mon_read_schedstat(struct monitor *m)
{
	return read_cpu_file(m, true);
}

static void emit_cpu(struct monitor *m, size_t slot, int cpu, const struct proc_cpu_times *prev,
		     const struct proc_cpu_times *cur, double t_ms)
{
	struct cpu_util u;
	if (!proc_cpu_util(prev, cur, &u))
		return;
	if (m->stat_series[slot] == NO_SERIES)
		m->stat_series[slot] = mon_add_series(m, "stat", stat_keys, N_STAT_KEYS, cpu, 0, 0);
	double v[N_STAT_KEYS] = {u.user_pct,   u.nice_pct,    u.system_pct,
				 u.idle_pct,   u.iowait_pct,  u.irq_pct,
				 u.softirq_pct, u.steal_pct,  u.guest_pct};
	for (size_t k = 0; k < N_STAT_KEYS; k++)
		mon_add_point(m, m->stat_series[slot] + (uint32_t)k, t_ms, v[k]);
}

static void sample_stat(struct monitor *m, bool emit, double t_ms, double dt_s)
{
	if (mon_read_stat(m))
		return;
	if (emit && m->have_stat) {
		emit_cpu(m, 0, -1, &m->st_prev.all, &m->st_cur.all, t_ms);
		size_t n = m->st_cur.n_cpu > m->st_prev.n_cpu ? m->st_cur.n_cpu : m->st_prev.n_cpu;
		for (size_t c = 0; c < n; c++)
			emit_cpu(m, c + 1, (int)c, &m->st_prev.cpu[c], &m->st_cur.cpu[c], t_ms);
		if (m->sys_series == NO_SERIES)
			m->sys_series = mon_add_series(m, "stat", sys_keys, N_OF(sys_keys), -1, 0, 0);
		const struct proc_stat *a = &m->st_prev, *b = &m->st_cur;
		if (b->ctxt >= a->ctxt)
			mon_add_point(m, m->sys_series, t_ms, (double)(b->ctxt - a->ctxt) / dt_s);
		if (b->processes >= a->processes)
			mon_add_point(m, m->sys_series + 1, t_ms,
				  (double)(b->processes - a->processes) / dt_s);
		mon_add_point(m, m->sys_series + 2, t_ms, (double)b->procs_running);
		mon_add_point(m, m->sys_series + 3, t_ms, (double)b->procs_blocked);
	}
	struct proc_stat tmp = m->st_prev;
	m->st_prev = m->st_cur;
	m->st_cur = tmp;
	m->have_stat = true;
}

static void sample_psi(struct monitor *m, bool emit, double t_ms, double dt_s)
{
	for (int i = 0; i < 3; i++) {
		struct psi_file *f = &m->psi[i];
		struct proc_psi cur;
		const char *t;
		if (f->fd < 0 || !(t = mon_read_fd(m, f->fd)) || proc_psi_parse(t, &cur))
			continue;
		if (emit && f->have_prev) {
			if (f->series == NO_SERIES)
				f->series = mon_add_series(m, "psi", psi_keys[i], 4, -1, 0, 0);
			const struct psi_line *pl[2][2] = {{&f->prev.some, &cur.some},
							   {&f->prev.full, &cur.full}};
			for (int k = 0; k < 2; k++) {
				const struct psi_line *a = pl[k][0], *b = pl[k][1];
				if (!b->present)
					continue;
				mon_add_point(m, f->series + 2 * k, t_ms, b->avg10_pct);
				if (a->present && b->total_us >= a->total_us)
					mon_add_point(m, f->series + 2 * k + 1, t_ms,
						  (double)(b->total_us - a->total_us) / (dt_s * 1e4));
			}
		}
		f->prev = cur;
		f->have_prev = true;
	}
}

/* The counters of a cpu line in the order of schedstat_keys. */
static void schedstat_fields(const struct schedstat_cpu *c, uint64_t f[N_SCHEDSTAT_KEYS])
{
	const uint64_t v[N_SCHEDSTAT_KEYS] = {
		c->yld_count,  c->sched_count, c->sched_goidle, c->ttwu_count, c->ttwu_local,
		c->timeslices, c->run_time_ns, c->wait_time_ns, c->lb_count[SCHEDSTAT_LB_BUSY],
		c->lb_count[SCHEDSTAT_LB_IDLE], c->lb_count[SCHEDSTAT_LB_NEWIDLE]};
	memcpy(f, v, sizeof(v));
}

static void sample_schedstat(struct monitor *m, bool emit, double t_ms, double dt_s)
{
	if (m->schedstat_fd < 0 || mon_read_schedstat(m))
		return;
	if (emit && m->have_ss) {
		size_t n = m->ss_cur.n_cpu;
		for (size_t c = 0; c < n; c++) {
			const struct schedstat_cpu *a = &m->ss_prev.cpu[c], *b = &m->ss_cur.cpu[c];
			if (!a->present || !b->present)
				continue;
			uint64_t pa[N_SCHEDSTAT_KEYS], pb[N_SCHEDSTAT_KEYS];
			schedstat_fields(a, pa);
			schedstat_fields(b, pb);
			bool back = false;
			for (size_t k = 0; k < N_SCHEDSTAT_KEYS; k++)
				back |= pb[k] < pa[k];
			if (back)
				continue;
			if (m->ss_series[c] == NO_SERIES)
				m->ss_series[c] = mon_add_series(m, "schedstat", schedstat_keys,
							     N_SCHEDSTAT_KEYS, (int)c, 0, 0);
			for (size_t k = 0; k < N_SCHEDSTAT_KEYS; k++) {
				double d = (double)(pb[k] - pa[k]);
				/* run and wait are ns: % of the interval */
				bool ns = k == 6 || k == 7;
				double v = ns ? d / (dt_s * 1e7) : d / dt_s;
				mon_add_point(m, m->ss_series[c] + (uint32_t)k, t_ms, v);
			}
		}
	}
	struct proc_schedstat tmp = m->ss_prev;
	m->ss_prev = m->ss_cur;
	m->ss_cur = tmp;
	m->have_ss = true;
}

static void sample_loadavg(struct monitor *m, double t_ms)
{
	struct proc_loadavg la;
	const char *t;
	if (m->loadavg_fd < 0 || !(t = mon_read_fd(m, m->loadavg_fd)) || proc_loadavg_parse(t, &la))
		return;
	if (m->loadavg_series == NO_SERIES)
		m->loadavg_series =
			mon_add_series(m, "loadavg", loadavg_keys, N_OF(loadavg_keys), -1, 0, 0);
	double v[] = {la.load1, la.load5, la.load15, (double)la.runnable, (double)la.threads};
	for (size_t k = 0; k < N_OF(v); k++)
		mon_add_point(m, m->loadavg_series + (uint32_t)k, t_ms, v[k]);
}

void mon_sample_system(struct monitor *m, int64_t now, bool emit)
{
	double t_ms = (double)(now - m->t0_ns) / 1e6;
	double dt_s = (double)(now - m->last_ns) / 1e9;
	if (dt_s <= 0)
		emit = false;
	sample_stat(m, emit, t_ms, dt_s);
	sample_psi(m, emit, t_ms, dt_s);
	sample_schedstat(m, emit, t_ms, dt_s);
	if (emit)
		sample_loadavg(m, t_ms);
	m->last_ns = now;
}
