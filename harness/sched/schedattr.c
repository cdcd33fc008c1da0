/* Scheduling attributes: validation, application in the child, read-back.
 * glibc 2.36 has no sched_setattr wrapper, so the raw syscalls are used with
 * the kernel's struct sched_attr (include/uapi/linux/sched/types.h). */
#include "schedattr.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

/* Layout of SCHED_ATTR_SIZE_VER1 (56 bytes) plus the out-of-tree
 * latency-nice field (VER2, 60 bytes; schedattr.h). */
struct kernel_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
	int32_t sched_latency_nice;
	uint32_t pad;
};

#define SCHED_ATTR_SIZE_VER1 56
#define SCHED_ATTR_SIZE_VER2 60
#define SCHED_FLAG_LATENCY_NICE 0x80

const char *const sched_keys[] = {"policy", "priority", "nice", "latency_nice", "slice_us", "cpus",
				  "cgroup", NULL};

bool sched_req_has_cgroup(const struct sched_req *r)
{
	return r->has_cg_weight || r->has_cg_idle || r->cg_max[0];
}

/* cgroup.max: "QUOTA [PERIOD]", QUOTA "max" or 1000.. us, PERIOD
 * 1000..1000000 us (kernel/sched/core.c tg_set_cfs_bandwidth limits). */
static int cg_max_set(struct sched_req *r, const char *value, char *err, size_t errsz)
{
	char quota[24] = "", period[24] = "", extra[2] = "";
	long long q = 0, p = 0;
	int n = sscanf(value, "%23s %23s %1s", quota, period, extra);
	bool ok = (n == 1 || n == 2) && strlen(value) < sizeof(r->cg_max) &&
		  (!strcmp(quota, "max") || (parse_ll(quota, &q) && q >= 1000)) &&
		  (n == 1 || (parse_ll(period, &p) && p >= 1000 && p <= 1000000));
	if (!ok) {
		snprintf(err, errsz, "cgroup max must be \"QUOTA PERIOD\" in us (QUOTA \"max\" or"
			 " at least 1000, PERIOD 1000..1000000, optional), not '%s'", value);
		return -1;
	}
	snprintf(r->cg_max, sizeof(r->cg_max), "%s", value);
	return 0;
}

static const struct {
	const char *name;
	int policy;
} policies[] = {
	{"other", SCHED_OTHER}, {"batch", SCHED_BATCH}, {"idle", SCHED_IDLE},
	{"fifo", SCHED_FIFO},   {"rr", SCHED_RR},
};

const char *sched_policy_name(int policy)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	if (policy == 6)
		return "deadline";
	return "?";
}

static bool is_fair(int policy)
{
	return policy == SCHED_OTHER || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

/* Parse "0-1,3" into a cpu_set_t; every CPU must fit one (CPU_SETSIZE). */
static int parse_cpus(const char *s, cpu_set_t *set, char *err, size_t errsz)
{
	char buf[128];
	CPU_ZERO(set);
	if (!*s || strlen(s) >= sizeof(buf)) {
		snprintf(err, errsz, "cpus must be a list such as \"0-1,3\"");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		long long lo, hi;
		if (dash)
			*dash = '\0';
		if (!parse_ll(tok, &lo) || (dash ? !parse_ll(dash + 1, &hi) : (hi = lo, 0)) || lo < 0 ||
		    hi < lo) {
			snprintf(err, errsz, "cpus '%s' is not a list such as \"0-1,3\"", s);
			return -1;
		}
		if (hi >= CPU_SETSIZE) {
			snprintf(err, errsz, "cpus '%s' names CPU %lld, but a CPU set ends at CPU %d",
				 s, hi, CPU_SETSIZE - 1);
			return -1;
		}
		for (long long c = lo; c <= hi; c++)
			CPU_SET((int)c, set);
	}
	return 0;
}

static int int_in(const char *key, const char *value, long long lo, long long hi, long long *out,
		  char *err, size_t errsz)
{
	if (!parse_ll(value, out)) {
		snprintf(err, errsz, "%s must be a whole number, not '%s'", key, value);
		return -1;
	}
	if (*out < lo || *out > hi) {
		snprintf(err, errsz, "%s must be between %lld and %lld, not %lld", key, lo, hi, *out);
		return -1;
	}
	return 0;
}

int sched_req_set(struct sched_req *r, const char *key, const char *value, char *err, size_t errsz)
{
	long long v;

	if (!strcmp(key, "policy")) {
		for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
			if (!strcmp(value, policies[i].name)) {
				r->has_policy = true;
				r->policy = policies[i].policy;
				return 0;
			}
		}
		snprintf(err, errsz, "policy must be other, batch, idle, fifo or rr, not '%s'", value);
		return -1;
	}
	if (!strcmp(key, "priority")) {
		if (int_in(key, value, 1, 99, &v, err, errsz))
			return -1;
		r->has_priority = true;
		r->priority = (int)v;
		return 0;
	}
	if (!strcmp(key, "nice")) {
		if (int_in(key, value, -20, 19, &v, err, errsz))
			return -1;
		r->has_nice = true;
		r->nice = (int)v;
		return 0;
	}
	if (!strcmp(key, "latency_nice")) {
		if (int_in(key, value, -20, 19, &v, err, errsz))
			return -1;
		r->has_latency_nice = true;
		r->latency_nice = (int)v;
		return 0;
	}
	if (!strcmp(key, "slice_us")) {
		if (int_in(key, value, 100, 100000, &v, err, errsz))
			return -1;
		r->has_slice_us = true;
		r->slice_us = v;
		return 0;
	}
	if (!strcmp(key, "cpus")) {
		cpu_set_t set;
		if (parse_cpus(value, &set, err, errsz))
			return -1;
		snprintf(r->cpus, sizeof(r->cpus), "%s", value);
		return 0;
	}
	if (!strcmp(key, "cgroup.weight")) {
		if (int_in("cgroup weight", value, 1, 10000, &v, err, errsz))
			return -1;
		r->has_cg_weight = true;
		r->cg_weight = (int)v;
		return 0;
	}
	if (!strcmp(key, "cgroup.idle")) {
		if (int_in("cgroup idle", value, 0, 1, &v, err, errsz))
			return -1;
		r->has_cg_idle = true;
		r->cg_idle = (int)v;
		return 0;
	}
	if (!strcmp(key, "cgroup.max"))
		return cg_max_set(r, value, err, errsz);
	snprintf(err, errsz, "unknown scheduling attribute '%s'", key);
	return -1;
}

int sched_req_check(const struct sched_req *r, char *err, size_t errsz)
{
	int policy = r->has_policy ? r->policy : SCHED_OTHER;
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;

	if (rt && !r->has_priority) {
		snprintf(err, errsz, "policy %s needs priority (1-99)", sched_policy_name(policy));
		return -1;
	}
	if (!rt && r->has_priority) {
		snprintf(err, errsz, "priority is for policy fifo or rr, not %s",
			 sched_policy_name(policy));
		return -1;
	}
	if (r->has_slice_us && policy != SCHED_OTHER && policy != SCHED_BATCH) {
		snprintf(err, errsz, "slice_us is for policies other and batch, not %s (the kernel"
			 " gives only those a custom slice)", sched_policy_name(policy));
		return -1;
	}
	if (r->has_nice && rt) {
		snprintf(err, errsz, "nice is for policies other, batch and idle, not %s (a"
			 " real-time task's nice has no effect)", sched_policy_name(policy));
		return -1;
	}
	if (r->has_latency_nice && !is_fair(policy)) {
		snprintf(err, errsz, "latency_nice is for policies other, batch and idle, not %s",
			 sched_policy_name(policy));
		return -1;
	}
	if (r->has_cg_idle && r->cg_idle && r->has_cg_weight) {
		snprintf(err, errsz, "cgroup idle: 1 goes without weight: the kernel refuses"
			 " cpu.weight of an idle group (EINVAL)");
		return -1;
	}
	return 0;
}

void sched_req_render(const struct sched_req *r, char *dst, size_t size)
{
	struct buf b = {0};
	if (r->has_policy)
		buf_printf(&b, " policy=%s", sched_policy_name(r->policy));
	if (r->has_priority)
		buf_printf(&b, " priority=%d", r->priority);
	if (r->has_nice)
		buf_printf(&b, " nice=%d", r->nice);
	if (r->has_latency_nice)
		buf_printf(&b, " latency_nice=%d", r->latency_nice);
	if (r->has_slice_us)
		buf_printf(&b, " slice_us=%lld", r->slice_us);
	if (r->cpus[0])
		buf_printf(&b, " cpus=%s", r->cpus);
	if (r->has_cg_weight)
		buf_printf(&b, " cgroup.weight=%d", r->cg_weight);
	if (r->has_cg_idle)
		buf_printf(&b, " cgroup.idle=%d", r->cg_idle);
	if (r->cg_max[0])
		buf_printf(&b, " cgroup.max=%s", r->cg_max);
	snprintf(dst, size, "%s", b.len ? buf_str(&b) + 1 : "");
	buf_free(&b);
}

int sched_apply_self(const struct sched_req *r, const char **what)
{
	if (r->cpus[0]) {
		cpu_set_t set;
		char err[8];
		if (parse_cpus(r->cpus, &set, err, sizeof(err))) {
			errno = EINVAL;
			*what = "sched_setaffinity";
			return -1;
		}
		/* The kernel drops the CPUs it lacks (or the rig's cpuset
		 * excludes) as long as one is left: a narrower set than asked
		 * for fails as one with none left does (EINVAL). */
		cpu_set_t got;
		if (sched_setaffinity(0, sizeof(set), &set) ||
		    sched_getaffinity(0, sizeof(got), &got)) {
			*what = "sched_setaffinity";
			return -1;
		}
		if (!CPU_EQUAL(&set, &got)) {
			errno = EINVAL;
			*what = "sched_setaffinity";
			return -1;
		}
	}
	if (!r->has_policy && !r->has_priority && !r->has_nice && !r->has_latency_nice &&
	    !r->has_slice_us)
		return 0;

	/* sched_setattr sets every field at once: what the config leaves unset
	 * is what the task has now (its nice, inherited from the rig, would
	 * else become 0; a policy alone would drop an RT priority). */
	struct kernel_sched_attr a, cur;
	memset(&a, 0, sizeof(a));
	memset(&cur, 0, sizeof(cur));
	if (syscall(SYS_sched_getattr, 0, &cur, sizeof(cur), 0)) {
		*what = "sched_getattr";
		return -1;
	}
	/* latency_nice 0 on a kernel without it (sched_getattr wrote a smaller
	 * size) is that kernel's behaviour: nothing to set (schedattr.h). */
	bool latency_nice = r->has_latency_nice &&
			    (r->latency_nice || cur.size >= SCHED_ATTR_SIZE_VER2);
	a.size = latency_nice ? SCHED_ATTR_SIZE_VER2 : SCHED_ATTR_SIZE_VER1;
	a.sched_policy = r->has_policy ? (uint32_t)r->policy : cur.sched_policy;
	a.sched_nice = r->has_nice ? r->nice : cur.sched_nice;
	bool rt = a.sched_policy == SCHED_FIFO || a.sched_policy == SCHED_RR;
	a.sched_priority = r->has_priority ? (uint32_t)r->priority : rt ? cur.sched_priority : 0;
	/* sched_runtime 0 keeps the default slice (schedattr.h). */
	a.sched_runtime = r->has_slice_us ? (uint64_t)r->slice_us * 1000 : 0;
	if (latency_nice) {
		a.sched_flags |= SCHED_FLAG_LATENCY_NICE;
		a.sched_latency_nice = r->latency_nice;
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0)) {
		*what = "sched_setattr";
		return -1;
	}
	/* sched_setattr(SCHED_IDLE, nice) ignores nice: set it separately. */
	if (a.sched_policy == SCHED_IDLE && setpriority(PRIO_PROCESS, 0, a.sched_nice)) {
		*what = "setpriority";
		return -1;
	}
	return 0;
}

int sched_apply_hook(const void *arg, const char **what)
{
	return sched_apply_self(arg, what);
}

/* se.slice in /proc/PID/sched, in ns; -1 when absent. */
static long long proc_slice_ns(pid_t pid)
{
	char path[64], line[256];
	long long v = -1;
	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "se.slice", 8) || (line[8] != ' ' && line[8] != '\t'))
			continue;
		char *colon = strchr(line, ':');
		if (colon) {
			char *s = colon + 1;
			while (*s == ' ')
				s++;
			s[strcspn(s, " \n")] = '\0';
			if (!parse_ll(s, &v))
				v = -1;
		}
		break;
	}
	fclose(f);
	return v;
}

static void render_cpus(const cpu_set_t *set, struct buf *b)
{
	int first = -1, prev = -2;
	bool any = false;
	for (int c = 0; c <= CPU_SETSIZE; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, set);
		if (in && first < 0)
			first = c;
		if (!in && first >= 0) {
			buf_printf(b, "%s%d", any ? "," : "", first);
			if (prev > first)
				buf_printf(b, "-%d", prev);
			any = true;
			first = -1;
		}
		if (in)
			prev = c;
	}
}

int sched_read_back(pid_t pid, char *dst, size_t size)
{
	struct kernel_sched_attr a;
	struct buf b = {0};

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, pid, &a, sizeof(a), 0))
		return -1;
	buf_printf(&b, "policy=%s", sched_policy_name((int)a.sched_policy));
	if (a.sched_policy == SCHED_FIFO || a.sched_policy == SCHED_RR)
		buf_printf(&b, " priority=%u", a.sched_priority);
	else
		buf_printf(&b, " nice=%d", a.sched_nice);
	if (a.size >= SCHED_ATTR_SIZE_VER2)
		buf_printf(&b, " latency_nice=%d", a.sched_latency_nice);
	if (is_fair((int)a.sched_policy))
		buf_printf(&b, " slice_us=%llu", (unsigned long long)a.sched_runtime / 1000);
	long long slice_ns = proc_slice_ns(pid);
	if (slice_ns >= 0)
		buf_printf(&b, " se.slice_ns=%lld", slice_ns);
	cpu_set_t set;
	if (!sched_getaffinity(pid, sizeof(set), &set)) {
		buf_puts(&b, " cpus=");
		render_cpus(&set, &b);
	}
	snprintf(dst, size, "%s", buf_str(&b));
	buf_free(&b);
	return 0;
}

/* The value of word "key=value" in text (words separated by spaces) into
 * val; false when text has no such word. */
static bool word_value(const char *text, const char *key, char *val, size_t size)
{
	size_t k = strlen(key);
	for (const char *w = text; *w; w += strcspn(w, " "), w += strspn(w, " ")) {
		size_t len = strcspn(w, " ");
		if (len > k && w[k] == '=' && !strncmp(w, key, k)) {
			snprintf(val, size, "%.*s", (int)(len - k - 1), w + k + 1);
			return true;
		}
	}
	return false;
}

int sched_applied_check(const char *requested, const char *applied, char *why, size_t size)
{
	static const char *const keys[] = {"policy", "priority", "nice", "latency_nice",
					   "slice_us"};
	char want[64], got[64];
	if (!requested || !applied || !applied[0])
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!word_value(requested, keys[i], want, sizeof(want)))
			continue;
		bool has = word_value(applied, keys[i], got, sizeof(got));
		/* A kernel without latency_nice runs every task as the series'
		 * latency_nice 0 does (the default slice). */
		if (!has && !strcmp(keys[i], "latency_nice") && !strcmp(want, "0"))
			continue;
		if (!has || strcmp(want, got)) {
			snprintf(why, size, "%s: requested %s, applied %s (applied: %s)", keys[i], want,
				 has ? got : "none: the kernel has no such attribute", applied);
			return -1;
		}
	}
	return 0;
}

bool sched_latency_nice_supported(void)
{
	struct kernel_sched_attr a;
	memset(&a, 0, sizeof(a));
	/* The kernel writes its own struct size into size. */
	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		return false;
	return a.size >= SCHED_ATTR_SIZE_VER2;
}

void sched_latency_nice_refusal(char *dst, size_t size, const char *kernel_release)
{
	snprintf(dst, size, "this kernel (%s) does not support latency_nice (it needs the"
		 " out-of-tree latency-nice series); use slice_us, the EEVDF custom slice of"
		 " mainline 6.12+, instead", kernel_release);
}
