/* Lines of a trace's text (trace_text.h). */
#include "trace_text.h"

#include <string.h>

/* A view of part of a line. */
struct span {
	const char *p;
	size_t n;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* An integer at s (optional '-'), its end in *end. false when none. */
static bool read_int(const char *s, const char *lim, long long *v, const char **end)
{
	bool neg = s < lim && *s == '-';
	const char *p = s + neg;
	long long x = 0;
	if (p >= lim || !is_digit(*p))
		return false;
	for (; p < lim && is_digit(*p); p++) {
		if (x > 1000000000000000LL)
			return false;
		x = x * 10 + (*p - '0');
	}
	*v = neg ? -x : x;
	*end = p;
	return true;
}

static const char *find(struct span s, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; n <= s.n && i <= s.n - n; i++)
		if (!memcmp(s.p + i, needle, n))
			return s.p + i;
	return NULL;
}

/* The integer after key ("pid=") in s, the key found as a field (at the
 * start or after a blank). */
static bool field_int(struct span s, const char *key, int *v)
{
	size_t n = strlen(key);
	for (const char *p = s.p; (p = find((struct span){p, (size_t)(s.p + s.n - p)}, key)); p++) {
		if (p != s.p && p[-1] != ' ')
			continue;
		long long x;
		const char *end;
		if (!read_int(p + n, s.p + s.n, &x, &end) || x < -2147483647LL || x > 2147483647LL)
			return false;
		*v = (int)x;
		return true;
	}
	return false;
}

/* The comm after key up to " next" (the next field's name, given), into
 * dst. */
static bool field_comm(struct span s, const char *key, const char *next, char *dst, size_t size)
{
	const char *a = find(s, key);
	if (!a)
		return false;
	a += strlen(key);
	const char *b = find((struct span){a, (size_t)(s.p + s.n - a)}, next);
	if (!b)
		return false;
	size_t n = (size_t)(b - a) < size - 1 ? (size_t)(b - a) : size - 1;
	memcpy(dst, a, n);
	dst[n] = '\0';
	return true;
}

/* The word after key (to the next blank) into dst. */
static bool field_word(struct span s, const char *key, char *dst, size_t size)
{
	const char *a = find(s, key);
	if (!a)
		return false;
	a += strlen(key);
	size_t n = 0;
	while (a + n < s.p + s.n && a[n] != ' ')
		n++;
	if (!n || n >= size)
		return false;
	memcpy(dst, a, n);
	dst[n] = '\0';
	return true;
}

static int parse_switch(struct span a, struct trace_ev *ev)
{
	ev->type = TEV_SWITCH;
	return field_comm(a, "prev_comm=", " prev_pid=", ev->prev_comm, sizeof(ev->prev_comm)) &&
	       field_int(a, "prev_pid=", &ev->prev_pid) && field_int(a, "prev_prio=", &ev->prev_prio) &&
	       field_word(a, "prev_state=", ev->prev_state, sizeof(ev->prev_state)) &&
	       field_comm(a, "next_comm=", " next_pid=", ev->next_comm, sizeof(ev->next_comm)) &&
	       field_int(a, "next_pid=", &ev->next_pid) && field_int(a, "next_prio=", &ev->next_prio)
		       ? 1 : -1;
}

static int parse_wake(struct span a, struct trace_ev *ev, enum trace_ev_type type)
{
	ev->type = type;
	if (!field_comm(a, "comm=", " pid=", ev->comm, sizeof(ev->comm)) ||
	    !field_int(a, "pid=", &ev->target_pid) || !field_int(a, "prio=", &ev->prio))
		return -1;
	if (!field_int(a, "target_cpu=", &ev->target_cpu))
		ev->target_cpu = -1;
	return 1;
}

static int parse_migrate(struct span a, struct trace_ev *ev)
{
	ev->type = TEV_MIGRATE;
	return field_comm(a, "comm=", " pid=", ev->comm, sizeof(ev->comm)) &&
	       field_int(a, "pid=", &ev->target_pid) && field_int(a, "orig_cpu=", &ev->orig_cpu) &&
	       field_int(a, "dest_cpu=", &ev->dest_cpu) ? 1 : -1;
}

static int parse_fork(struct span a, struct trace_ev *ev)
{
	ev->type = TEV_FORK;
	return field_comm(a, "comm=", " pid=", ev->comm, sizeof(ev->comm)) &&
	       field_int(a, "pid=", &ev->target_pid) &&
	       field_comm(a, "child_comm=", " child_pid=", ev->child_comm, sizeof(ev->child_comm)) &&
	       field_int(a, "child_pid=", &ev->child_pid) ? 1 : -1;
}

/* "CPU:N [LOST M EVENTS]" */
static int parse_lost(const char *p, const char *lim, struct trace_ev *ev)
{
	long long cpu, n;
	const char *e;
	if (!read_int(p + 4, lim, &cpu, &e) || cpu < 0 || (size_t)(lim - e) < 7 ||
	    memcmp(e, " [LOST ", 7) || !read_int(e + 7, lim, &n, &e) || n < 0 ||
	    (size_t)(lim - e) < 8 || memcmp(e, " EVENTS]", 8))
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->type = TEV_LOST;
	ev->cpu = (int)cpu;
	ev->lost = (uint64_t)n;
	return 1;
}

/* "SECONDS.FRACTION" (6 or 9 digits of fraction) into ns. */
static bool read_ts(const char *p, const char *lim, int64_t *ns, const char **end)
{
	long long s;
	if (!read_int(p, lim, &s, &p) || s < 0 || p >= lim || *p != '.')
		return false;
	p++;
	int64_t frac = 0;
	int digits = 0;
	for (; p < lim && is_digit(*p) && digits < 9; p++, digits++)
		frac = frac * 10 + (*p - '0');
	if (digits != 6 && digits != 9)
		return false;
	if (digits == 6)
		frac *= 1000;
	*ns = (int64_t)s * 1000000000LL + frac;
	*end = p;
	return true;
}

/* The current task's id before "[CPU]": "...-PID" (ftrace) or "... PID"
 * (perf script), a "(TGID)" column skipped. */
static bool task_pid(const char *line, const char *bracket, int *pid)
{
	const char *q = bracket;
	while (q > line && q[-1] == ' ')
		q--;
	if (q > line && q[-1] == ')') { /* "(  1234)" */
		while (q > line && q[-1] != '(')
			q--;
		if (q == line)
			return false;
		q--;
		while (q > line && q[-1] == ' ')
			q--;
	}
	const char *d = q;
	while (d > line && is_digit(d[-1]))
		d--;
	if (d == q || d == line || (d[-1] != '-' && d[-1] != ' '))
		return false;
	long long v;
	const char *e;
	if (!read_int(d, q, &v, &e) || v > 2147483647LL)
		return false;
	*pid = (int)v;
	return true;
}

int trace_text_line(const char *line, size_t len, struct trace_ev *ev)
{
	const char *lim = line + len, *p = line;
	while (p < lim && (*p == ' ' || *p == '\t'))
		p++;
	if (p == lim || *p == '#')
		return 0;
	if ((size_t)(lim - p) > 4 && !memcmp(p, "CPU:", 4))
		return parse_lost(p, lim, ev);
	/* The CPU column: the first "[digits]" followed by a blank. */
	const char *b = p;
	long long cpu = -1;
	const char *after = NULL;
	for (; b < lim; b++) {
		const char *e;
		if (*b == '[' && read_int(b + 1, lim, &cpu, &e) && e < lim && *e == ']' && e + 1 < lim &&
		    e[1] == ' ') {
			after = e + 1;
			break;
		}
	}
	memset(ev, 0, sizeof(*ev));
	if (!after || cpu < 0 || cpu > 65535 || !task_pid(p, b, &ev->pid))
		return -1;
	ev->cpu = (int)cpu;
	/* FLAGS (ftrace) unless the timestamp follows at once (perf, or no
	 * irq-info option). */
	const char *q = after;
	while (q < lim && *q == ' ')
		q++;
	const char *te;
	if (!read_ts(q, lim, &ev->ts_ns, &te) || te >= lim || *te != ':') {
		while (q < lim && *q != ' ')
			q++;
		while (q < lim && *q == ' ')
			q++;
		if (!read_ts(q, lim, &ev->ts_ns, &te) || te >= lim || *te != ':')
			return -1;
	}
	q = te + 1;
	while (q < lim && *q == ' ')
		q++;
	if ((size_t)(lim - q) > 6 && !memcmp(q, "sched:", 6)) /* perf: GROUP:EVENT: */
		q += 6;
	const char *colon = memchr(q, ':', (size_t)(lim - q));
	if (!colon)
		return -1;
	struct span name = {q, (size_t)(colon - q)};
	if (!name.n || name.n >= sizeof(ev->event))
		return -1;
	memcpy(ev->event, name.p, name.n);
	ev->event[name.n] = '\0';
	const char *a = colon + 1;
	while (a < lim && *a == ' ')
		a++;
	struct span args = {a, (size_t)(lim - a)};
	if (!strcmp(ev->event, "sched_switch"))
		return parse_switch(args, ev);
	if (!strcmp(ev->event, "sched_waking"))
		return parse_wake(args, ev, TEV_WAKING);
	if (!strcmp(ev->event, "sched_wakeup"))
		return parse_wake(args, ev, TEV_WAKEUP);
	if (!strcmp(ev->event, "sched_wakeup_new"))
		return parse_wake(args, ev, TEV_WAKEUP_NEW);
	if (!strcmp(ev->event, "sched_migrate_task"))
		return parse_migrate(args, ev);
	if (!strcmp(ev->event, "sched_process_fork"))
		return parse_fork(args, ev);
	ev->type = TEV_OTHER;
	return 1;
}

int trace_text_meta(const char *line, size_t len, int64_t *start, int64_t *end, uint64_t *lost,
		    struct trace_task_line *task)
{
	const char *lim = line + len, *p = line;
	long long a, b;
	const char *e;
	if (len < 2 || memcmp(line, "# ", 2))
		return 0;
	p += 2;
	if ((size_t)(lim - p) > 10 && !memcmp(p, "window_ns ", 10)) {
		if (!read_int(p + 10, lim, &a, &e) || e >= lim || *e != ' ' ||
		    !read_int(e + 1, lim, &b, &e) || e != lim || a < 0 || b < a)
			return -1;
		*start = a;
		*end = b;
		return 1;
	}
	if ((size_t)(lim - p) > 5 && !memcmp(p, "lost ", 5)) {
		if (!read_int(p + 5, lim, &a, &e) || e != lim || a < 0)
			return -1;
		*lost = (uint64_t)a;
		return 2;
	}
	if ((size_t)(lim - p) > 5 && !memcmp(p, "task ", 5)) {
		p += 5;
		const char *sp = memchr(p, ' ', (size_t)(lim - p));
		if (!sp || sp == p || (size_t)(sp - p) >= sizeof(task->load))
			return -1;
		memcpy(task->load, p, (size_t)(sp - p));
		task->load[sp - p] = '\0';
		if (!read_int(sp + 1, lim, &a, &e) || a < 0 || a > 1000000 || e >= lim || *e != ' ' ||
		    !read_int(e + 1, lim, &b, &e) || b <= 0 || b > 2147483647LL)
			return -1;
		task->repetition = (int)a;
		task->pid = (int)b;
		task->tids = e;
		task->tids_len = (size_t)(lim - e);
		for (const char *t = e; t < lim; t++)
			if (*t != ' ' && !is_digit(*t))
				return -1;
		return 3;
	}
	return 0;
}
