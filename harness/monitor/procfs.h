/* Pure parsers of the /proc files the monitors sample. Each takes the whole
 * file as one NUL-terminated text (as read with pread at offset 0), fills a
 * caller-owned struct and never allocates, so a sampler can call it on every
 * tick. Unknown lines and extra fields are ignored (newer kernels add some);
 * a text that lacks the lines that identify the format is an error (-1).
 *
 * Implementations: procstat.c (/proc/stat, /proc/loadavg), procpsi.c
 * (/proc/pressure/), procsched.c (/proc/schedstat, /proc/PID/sched,
 * /proc/PID/schedstat). */
#ifndef SCHEDRIG_PROCFS_H
#define SCHEDRIG_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- /proc/stat ---------------------------------------------------------- */

/* The time columns of a "cpu" line, in USER_HZ ticks (jiffies). Source:
 * Documentation/filesystems/proc.rst "1.7 Miscellaneous kernel statistics"
 * (user nice system idle iowait irq softirq steal guest guest_nice). user and
 * nice include guest and guest_nice. Older kernels print fewer columns: the
 * missing ones read 0. */
enum proc_cpu_field {
	PROC_CPU_USER,
	PROC_CPU_NICE,
	PROC_CPU_SYSTEM,
	PROC_CPU_IDLE,
	PROC_CPU_IOWAIT,
	PROC_CPU_IRQ,
	PROC_CPU_SOFTIRQ,
	PROC_CPU_STEAL,
	PROC_CPU_GUEST,
	PROC_CPU_GUEST_NICE,
	PROC_CPU_NFIELDS
};

struct proc_cpu_times {
	bool present;                   /* the line was in the file */
	uint64_t jiffies[PROC_CPU_NFIELDS];
};

/* One read of /proc/stat. cpu is the caller's array of cpu_cap entries,
 * indexed by CPU number: a CPU that is offline has no line, so its entry
 * keeps present = false (the kernel prints online CPUs only). */
struct proc_stat {
	struct proc_cpu_times all;      /* the "cpu" line: every CPU summed */
	struct proc_cpu_times *cpu;
	size_t cpu_cap;
	size_t n_cpu;                   /* 1 + the highest CPU number seen (<= cpu_cap) */
	bool truncated;                 /* a CPU number >= cpu_cap was skipped */
	uint64_t ctxt;                  /* context switches since boot */
	uint64_t processes;             /* forks since boot */
	long procs_running, procs_blocked;
};

/* Parse /proc/stat into st (st->cpu and st->cpu_cap set by the caller; every
 * other field is overwritten). Returns 0, or -1 when the text has no "cpu "
 * line or no "ctxt" line (not /proc/stat). */
int proc_stat_parse(const char *text, struct proc_stat *st);

/* Utilisation of one CPU over an interval, as mpstat prints it: each column's
 * jiffies delta as % of the CPU's total jiffies delta (user+nice+system+idle+
 * iowait+irq+softirq+steal; guest is inside user). user_pct and nice_pct
 * exclude guest and guest_nice, which have their own columns. Source:
 * sysstat mpstat.c write_cpu_stats / rd_stats.c get_per_cpu_interval. */
struct cpu_util {
	double user_pct, nice_pct, system_pct, idle_pct, iowait_pct, irq_pct, softirq_pct,
		steal_pct, guest_pct, guest_nice_pct;
};

/* Fill u from two reads of one CPU (or of the "cpu" line). Returns false, and
 * leaves u alone, when the CPU is absent from either read (offline), when a
 * counter went backwards (a CPU that was hot-plugged meanwhile, or a
 * reset) or when no jiffy passed: the interval then has no value for that
 * CPU rather than a wrong one. */
bool proc_cpu_util(const struct proc_cpu_times *prev, const struct proc_cpu_times *cur,
		   struct cpu_util *u);

/* ---- /proc/loadavg ------------------------------------------------------- */

/* "0.52 0.58 0.59 3/812 12345": load averages over 1, 5, 15 minutes,
 * runnable / total scheduling entities, last pid. Source: proc(5). */
struct proc_loadavg {
	double load1, load5, load15;
	long runnable, threads;
	long last_pid;
};

/* Returns 0, or -1 when the text is not in that shape. */
int proc_loadavg_parse(const char *text, struct proc_loadavg *la);

/* ---- /proc/pressure/{cpu,io,memory} ---------------------------------------- */

/* One line of a PSI file: "some avg10=0.00 avg60=0.00 avg300=0.00 total=0".
 * avgN are % of wall time (running averages over N s), total is the
 * cumulative stall time in microseconds. Source:
 * Documentation/accounting/psi.rst. */
struct psi_line {
	bool present;
	double avg10_pct, avg60_pct, avg300_pct;
	uint64_t total_us;
};

struct proc_psi {
	struct psi_line some, full;     /* "full" is absent in cpu before 5.13 */
};

/* Returns 0, or -1 when there is no well-formed "some" line. */
int proc_psi_parse(const char *text, struct proc_psi *p);

/* ---- /proc/schedstat ------------------------------------------------------ */

/* The runqueue fields of a "cpuN" line (versions 15 to 17 agree on them).
 * Source: Documentation/scheduler/sched-stats.rst, "CPU statistics":
 * 1 sched_yield() calls, 2 legacy (always 0), 3 schedule() calls, 4 of them
 * leaving the CPU idle, 5 try_to_wake_up() calls, 6 of them waking a task on
 * the local CPU, 7 ns tasks ran on this CPU, 8 ns tasks waited to run on this
 * runqueue, 9 timeslices run. lb_count: load_balance() calls of the CPU's
 * "domainN" lines, summed over its domains, by the CPU's state then
 * (SCHEDSTAT_LB_BUSY, _IDLE, _NEWIDLE), read where each version puts them
 * (procsched.c). */
enum { SCHEDSTAT_LB_BUSY, SCHEDSTAT_LB_IDLE, SCHEDSTAT_LB_NEWIDLE };
struct schedstat_cpu {
	bool present;
	uint64_t yld_count, legacy, sched_count, sched_goidle, ttwu_count, ttwu_local;
	uint64_t run_time_ns, wait_time_ns, timeslices;
	uint64_t lb_count[3];
};

/* One read of /proc/schedstat; cpu is the caller's array of cpu_cap entries
 * indexed by CPU number (offline CPUs have no line). Domain lines are
 * counted, not kept (their layout differs between versions). */
struct proc_schedstat {
	int version;
	uint64_t timestamp_jiffies;
	struct schedstat_cpu *cpu;
	size_t cpu_cap;
	size_t n_cpu;                   /* 1 + the highest CPU number seen */
	size_t n_domain_lines;
	bool truncated;
};

/* Parse by the "version" line: versions 15, 16 and 17, whose domain lines
 * differ (Documentation/scheduler/sched-stats.rst): 15 lays out the three
 * groups of load-balancing counters as idle, busy, newly idle (enum
 * cpu_idle_type before 6.6) with 8 counters each; 16 as busy, idle, newly
 * idle; 17 (6.16) adds the domain's name after domainN and splits
 * lb_imbalance in four (11 counters each). Returns 0; or -1 when there is
 * no "version" line, the version is another one (ss->version tells which:
 * a layout this parser does not know is not guessed), or a cpu or domain
 * line lacks the fields of its version. */
int proc_schedstat_parse(const char *text, struct proc_schedstat *ss);

/* ---- /proc/PID/sched and /proc/PID/schedstat --------------------------------- */

/* The task fields of /proc/PID/sched (kernel/sched/debug.c
 * proc_sched_show_task), "name : value" lines. Times printed in ms with a
 * fraction (se.sum_exec_runtime, wait_sum, wait_max, iowait_sum) are kept in
 * ms; se.slice is in ns. The schedstat fields (wait_*) exist only when the
 * kernel has schedstats enabled (CONFIG_SCHEDSTATS and the sysctl); they are
 * recognised with or without a prefix ("wait_sum", "se.statistics.wait_sum",
 * "stats.wait_sum"). Fields not printed by the kernel keep has_* false. */
struct proc_task_sched {
	long pid;                       /* from the header "comm (PID, #threads: N)" */
	long threads;
	double sum_exec_runtime_ms;
	uint64_t nr_switches, nr_voluntary_switches, nr_involuntary_switches;
	uint64_t nr_migrations;         /* se.nr_migrations */
	uint64_t slice_ns;              /* se.slice (EEVDF, 6.6+) */
	bool has_slice;
	bool has_wait;                  /* wait_sum, wait_count, wait_max */
	double wait_sum_ms, wait_max_ms;
	uint64_t wait_count;
	bool has_iowait;
	double iowait_sum_ms;
	uint64_t iowait_count;
};

/* Returns 0, or -1 when a required line (se.sum_exec_runtime, nr_switches,
 * nr_voluntary_switches, nr_involuntary_switches, se.nr_migrations) is
 * missing. */
int proc_task_sched_parse(const char *text, struct proc_task_sched *t);

/* /proc/PID/schedstat: "run_ns wait_ns timeslices" — time on the CPU, time
 * waiting on a runqueue, timeslices run. Source:
 * Documentation/scheduler/sched-stats.rst "/proc/<pid>/schedstat". */
struct proc_task_schedstat {
	uint64_t run_ns, wait_ns, timeslices;
};

/* Returns 0, or -1 when the text is not three numbers. */
int proc_task_schedstat_parse(const char *text, struct proc_task_schedstat *t);

#endif
