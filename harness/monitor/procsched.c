/* Parsers of /proc/schedstat, /proc/PID/sched and /proc/PID/schedstat. */
#include "procfs.h"

#include "procscan.h"

/* Where a version puts a domain line's load_balance() counts. */
static const struct {
	int version;
	bool named;       /* "domainN NAME CPUMASK" */
	int per_type;     /* counters per idle type group */
	int n_fields;     /* numbers after the cpumask */
	int group[3];     /* group index of SCHEDSTAT_LB_BUSY, _IDLE, _NEWIDLE */
} layouts[] = {
	{15, false, 8, 36, {1, 0, 2}},
	{16, false, 8, 36, {0, 1, 2}},
	{17, true, 11, 45, {0, 1, 2}},
};

/* Skip one blank-separated word after blanks; false at the line's end. */
static bool skip_word(const char **p)
{
	const char *s = scan_blank(*p);
	if (!*s || *s == '\n')
		return false;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n')
		s++;
	*p = s;
	return true;
}

/* A "domainN" line of the cpu before it (c); 0 or -1 when it is not of
 * the layout. */
static int parse_domain(const char *p, int layout, struct schedstat_cpu *c)
{
	uint64_t v;
	p += 6;
	if (!scan_u64(&p, &v) || (layouts[layout].named && !skip_word(&p)) || !skip_word(&p))
		return -1;
	for (int k = 0; k < layouts[layout].n_fields; k++) {
		if (!scan_u64(&p, &v))
			return -1;
		for (int t = 0; t < 3 && c; t++)
			if (k == layouts[layout].group[t] * layouts[layout].per_type)
				c->lb_count[t] += v;
	}
	p = scan_blank(p);
	return *p && *p != '\n' ? -1 : 0;
}

int proc_schedstat_parse(const char *text, struct proc_schedstat *ss)
{
	int layout = -1;
	struct schedstat_cpu *cur = NULL;

	for (size_t i = 0; i < ss->cpu_cap; i++)
		ss->cpu[i].present = false;
	ss->version = 0;
	ss->timestamp_jiffies = 0;
	ss->n_cpu = ss->n_domain_lines = 0;
	ss->truncated = false;
	for (const char *line = text; *line; line = scan_next_line(line)) {
		const char *p = line;
		uint64_t v;
		if (scan_word(p, "version")) {
			p += 7;
			if (scan_u64(&p, &v) && v <= 1000)
				ss->version = (int)v;
			for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++)
				if (layouts[k].version == ss->version)
					layout = (int)k;
			if (layout < 0)
				return -1;
		} else if (scan_word(p, "timestamp")) {
			p += 9;
			scan_u64(&p, &ss->timestamp_jiffies);
		} else if (!strncmp(p, "domain", 6)) {
			if (layout < 0 || parse_domain(p, layout, cur))
				return -1;
			ss->n_domain_lines++;
		} else if (!strncmp(p, "cpu", 3)) {
			p += 3;
			cur = NULL;
			if (layout < 0 || !scan_u64(&p, &v) || (*p != ' ' && *p != '\t'))
				return -1;
			struct schedstat_cpu c = {.present = true};
			uint64_t *f[] = {&c.yld_count,  &c.legacy,      &c.sched_count,
					 &c.sched_goidle, &c.ttwu_count, &c.ttwu_local,
					 &c.run_time_ns, &c.wait_time_ns, &c.timeslices};
			for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
				if (!scan_u64(&p, f[k]))
					return -1;
			if (v >= ss->cpu_cap) {
				ss->truncated = true;
				continue;
			}
			ss->cpu[v] = c;
			cur = &ss->cpu[v];
			if (v + 1 > ss->n_cpu)
				ss->n_cpu = (size_t)v + 1;
		}
	}
	return layout >= 0 ? 0 : -1;
}

/* The key of a "key : value" line ends at the first blank or ':'. */
static size_t key_len(const char *p)
{
	size_t n = 0;
	while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != ':' && p[n] != '\n')
		n++;
	return n;
}

static bool key_is(const char *key, size_t n, const char *name)
{
	return strlen(name) == n && !strncmp(key, name, n);
}

/* The key's last dot-separated component is name (the schedstat fields,
 * whose prefix changed between kernels). */
static bool base_is(const char *key, size_t n, const char *name)
{
	size_t b = n;
	while (b > 0 && key[b - 1] != '.')
		b--;
	return key_is(key + b, n - b, name);
}

/* Header "comm (PID, #threads: N)"; comm may hold anything, so the numbers
 * are found from the end of the line. */
static void read_header(const char *line, struct proc_task_sched *t)
{
	const char *nl = strchr(line, '\n');
	size_t len = nl ? (size_t)(nl - line) : strlen(line);
	const char *tag = NULL;
	for (const char *q = line; q + 11 <= line + len; q++)
		if (!strncmp(q, ", #threads:", 11))
			tag = q;
	if (!tag)
		return;
	const char *open = tag;
	while (open > line && open[-1] != '(')
		open--;
	const char *p = open;
	int64_t v;
	if (open > line && scan_i64(&p, &v) && p == tag)
		t->pid = (long)v;
	p = tag + 11;
	if (scan_i64(&p, &v))
		t->threads = (long)v;
}

/* The required counters of /proc/PID/sched: a bit of seen each. */
struct sched_counter {
	const char *key;
	uint64_t *v;
};

/* Line's value into the required counter named key (of n bytes), setting
 * its bit in *seen. False when key is none of them. */
static bool scan_counter(const struct sched_counter *c, size_t nc, const char *line, size_t n,
			 const char *p, unsigned *seen)
{
	for (size_t i = 0; i < nc; i++) {
		if (!key_is(line, n, c[i].key))
			continue;
		if (scan_u64(&p, c[i].v))
			*seen |= 2u << i;
		return true;
	}
	return false;
}

/* The line's value into the optional field named key (of n bytes), if it
 * is one (se.slice, the schedstat wait and iowait fields). */
static void scan_optional(struct proc_task_sched *t, const char *line, size_t n, const char *p)
{
	if (key_is(line, n, "se.slice"))
		t->has_slice = scan_u64(&p, &t->slice_ns);
	else if (base_is(line, n, "wait_sum"))
		t->has_wait = scan_decimal(&p, &t->wait_sum_ms);
	else if (base_is(line, n, "wait_max"))
		scan_decimal(&p, &t->wait_max_ms);
	else if (base_is(line, n, "wait_count"))
		scan_u64(&p, &t->wait_count);
	else if (base_is(line, n, "iowait_sum"))
		t->has_iowait = scan_decimal(&p, &t->iowait_sum_ms);
	else if (base_is(line, n, "iowait_count"))
		scan_u64(&p, &t->iowait_count);
}

int proc_task_sched_parse(const char *text, struct proc_task_sched *t)
{
	*t = (struct proc_task_sched){.pid = -1, .threads = -1};
	const struct sched_counter c[] = {
		{"nr_switches", &t->nr_switches},
		{"nr_voluntary_switches", &t->nr_voluntary_switches},
		{"nr_involuntary_switches", &t->nr_involuntary_switches},
		{"se.nr_migrations", &t->nr_migrations},
	};
	const size_t nc = sizeof(c) / sizeof(c[0]);
	const unsigned all = (2u << nc) - 1; /* bit 0: se.sum_exec_runtime */
	unsigned seen = 0;

	read_header(text, t);
	for (const char *line = text; *line; line = scan_next_line(line)) {
		size_t n = key_len(line);
		const char *p = scan_blank(line + n);
		if (!n || *p != ':')
			continue;
		p++;
		if (key_is(line, n, "se.sum_exec_runtime")) {
			if (scan_decimal(&p, &t->sum_exec_runtime_ms))
				seen |= 1;
		} else if (!scan_counter(c, nc, line, n, p, &seen)) {
			scan_optional(t, line, n, p);
		}
	}
	return seen == all ? 0 : -1;
}

int proc_task_schedstat_parse(const char *text, struct proc_task_schedstat *t)
{
	const char *p = text;
	if (!scan_u64(&p, &t->run_ns) || !scan_u64(&p, &t->wait_ns) || !scan_u64(&p, &t->timeslices))
		return -1;
	p = scan_blank(p);
	return *p == '\n' || *p == '\0' ? 0 : -1;
}
