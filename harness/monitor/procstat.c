/* Parsers of /proc/stat and /proc/loadavg, and mpstat-style utilisation. */
#include "procfs.h"

#include "procscan.h"

/* "cpu" or "cpuN" followed by the time columns. */
static void read_cpu_times(const char *p, struct proc_cpu_times *t)
{
	for (int f = 0; f < PROC_CPU_NFIELDS; f++)
		if (!scan_u64(&p, &t->jiffies[f]))
			t->jiffies[f] = 0;
	t->present = true;
}

int proc_stat_parse(const char *text, struct proc_stat *st)
{
	bool have_ctxt = false;

	st->all = (struct proc_cpu_times){0};
	for (size_t i = 0; i < st->cpu_cap; i++)
		st->cpu[i].present = false;
	st->n_cpu = 0;
	st->truncated = false;
	st->ctxt = st->processes = 0;
	st->procs_running = st->procs_blocked = 0;
	for (const char *line = text; *line; line = scan_next_line(line)) {
		const char *p = line;
		uint64_t v;
		int64_t iv;
		if (!strncmp(p, "cpu", 3)) {
			p += 3;
			if (*p == ' ') {
				read_cpu_times(p, &st->all);
				continue;
			}
			if (!scan_u64(&p, &v) || (*p != ' ' && *p != '\t'))
				continue;
			if (v >= st->cpu_cap) {
				st->truncated = true;
				continue;
			}
			read_cpu_times(p, &st->cpu[v]);
			if (v + 1 > st->n_cpu)
				st->n_cpu = (size_t)v + 1;
		} else if (scan_word(p, "ctxt")) {
			p += 4;
			have_ctxt = scan_u64(&p, &st->ctxt);
		} else if (scan_word(p, "processes")) {
			p += 9;
			if (scan_u64(&p, &v))
				st->processes = v;
		} else if (scan_word(p, "procs_running")) {
			p += 13;
			if (scan_i64(&p, &iv))
				st->procs_running = (long)iv;
		} else if (scan_word(p, "procs_blocked")) {
			p += 13;
			if (scan_i64(&p, &iv))
				st->procs_blocked = (long)iv;
		}
	}
	return st->all.present && have_ctxt ? 0 : -1;
}

bool proc_cpu_util(const struct proc_cpu_times *prev, const struct proc_cpu_times *cur,
		   struct cpu_util *u)
{
	uint64_t d[PROC_CPU_NFIELDS], total = 0;

	if (!prev->present || !cur->present)
		return false;
	for (int f = 0; f < PROC_CPU_NFIELDS; f++) {
		if (cur->jiffies[f] < prev->jiffies[f])
			return false;
		d[f] = cur->jiffies[f] - prev->jiffies[f];
		if (f < PROC_CPU_GUEST)
			total += d[f];
	}
	if (!total)
		return false;
	/* guest time is counted in user too; a guest delta larger than the
	 * user delta (the two are read at slightly different moments) is
	 * clamped like mpstat does. */
	uint64_t guest = d[PROC_CPU_GUEST] < d[PROC_CPU_USER] ? d[PROC_CPU_GUEST] : d[PROC_CPU_USER];
	uint64_t gnice = d[PROC_CPU_GUEST_NICE] < d[PROC_CPU_NICE] ? d[PROC_CPU_GUEST_NICE]
								     : d[PROC_CPU_NICE];
	double t = (double)total / 100.0;
	*u = (struct cpu_util){
		.user_pct = (double)(d[PROC_CPU_USER] - guest) / t,
		.nice_pct = (double)(d[PROC_CPU_NICE] - gnice) / t,
		.system_pct = (double)d[PROC_CPU_SYSTEM] / t,
		.idle_pct = (double)d[PROC_CPU_IDLE] / t,
		.iowait_pct = (double)d[PROC_CPU_IOWAIT] / t,
		.irq_pct = (double)d[PROC_CPU_IRQ] / t,
		.softirq_pct = (double)d[PROC_CPU_SOFTIRQ] / t,
		.steal_pct = (double)d[PROC_CPU_STEAL] / t,
		.guest_pct = (double)guest / t,
		.guest_nice_pct = (double)gnice / t,
	};
	return true;
}

int proc_loadavg_parse(const char *text, struct proc_loadavg *la)
{
	const char *p = text;
	int64_t run, thr, last;

	if (!scan_decimal(&p, &la->load1) || !scan_decimal(&p, &la->load5) ||
	    !scan_decimal(&p, &la->load15) || !scan_i64(&p, &run) || *p++ != '/' ||
	    !scan_i64(&p, &thr) || !scan_i64(&p, &last))
		return -1;
	la->runnable = (long)run;
	la->threads = (long)thr;
	la->last_pid = (long)last;
	return 0;
}
