/* host: of a config and of its variants (struct cfg_host): each setting's
 * syntax and range, at its file:line:col; the merge of the two; what a
 * variant's boot kind allows (whether this machine can apply a setting is
 * preflight's question: harness/host/hostset.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_impl.h"
#include "schedattr.h"

/* In the order of cfg_host.key_line. */
static const char *const host_keys[CFG_HOST_N_KEYS + 1] = {
	"governor", "boost", "smt", "cpu_dma_latency_us", "thp", "numa_balancing", "irq_affinity",
	"housekeeping_cpus", NULL};

/* The kernel's no-limit value of /dev/cpu_dma_latency (PM_QOS_CPU_LATENCY_DEFAULT_VALUE). */
#define DMA_LATENCY_MAX_US 2000000000LL

bool cfg_host_any(const struct cfg_host *h)
{
	return h->governor || h->boost >= 0 || h->smt >= 0 || h->cpu_dma_latency_us >= 0 ||
	       h->thp || h->numa_balancing >= 0 || h->irq_affinity || h->housekeeping_cpus;
}

bool cfg_host_key_at(const struct cfg_host *h, const char *key, int *line, int *col)
{
	for (size_t i = 0; i < CFG_HOST_N_KEYS; i++)
		if (!strcmp(host_keys[i], key) && h->key_line[i]) {
			*line = h->key_line[i];
			*col = h->key_col[i];
			return true;
		}
	return false;
}

void cfg_host_init(struct cfg_host *h)
{
	*h = (struct cfg_host){.boost = -1, .smt = -1, .cpu_dma_latency_us = -1,
			       .numa_balancing = -1};
}

/* on|off into *out (1, 0). */
static int read_on_off(struct cfg_ctx *c, const struct ynode *v, const char *key, const char *what,
		       int *out)
{
	if (cfg_want_kind(c, v, YNODE_SCALAR, what))
		return -1;
	if (strcmp(v->text, "on") && strcmp(v->text, "off"))
		return cfg_err_at(c, v->line, v->col, "%s: %s must be on or off, not '%s'", key, what,
				  v->text);
	*out = !strcmp(v->text, "on");
	return 0;
}

/* A CPU list as sched: cpus takes it ("0-1,3"). */
static int read_cpu_list(struct cfg_ctx *c, const struct ynode *v, const char *key,
			 const char *what, char **out)
{
	struct sched_req r = {0};
	char why[256];
	if (cfg_want_kind(c, v, YNODE_SCALAR, what))
		return -1;
	if (sched_req_set(&r, "cpus", v->text, why, sizeof(why)))
		return cfg_err_at(c, v->line, v->col, "%s: %s: %s", key, what, why);
	*out = xstrdup(v->text);
	return 0;
}

static int read_governor(struct cfg_ctx *c, const struct ynode *v, const char *key, char **out)
{
	if (cfg_want_kind(c, v, YNODE_SCALAR, "governor"))
		return -1;
	size_t n = strlen(v->text);
	if (!n || n > 15 || strspn(v->text, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n)
		return cfg_err_at(c, v->line, v->col, "%s: governor must be a cpufreq governor's"
				  " name (performance, powersave, schedutil, ...), not '%s'", key,
				  v->text);
	*out = xstrdup(v->text);
	return 0;
}

int cfg_read_host(struct cfg_ctx *c, const struct ynode *m, const char *key, struct cfg_host *h)
{
	const struct ynode *v;
	long long n;

	cfg_host_init(h);
	if (cfg_want_kind(c, m, YNODE_MAPPING, key) || cfg_check_keys(c, m, host_keys, key))
		return -1;
	h->line = m->line;
	h->col = m->col;
	for (size_t p = 0; p < m->n; p++)
		for (size_t i = 0; i < CFG_HOST_N_KEYS; i++)
			if (!strcmp(m->pairs[p].key, host_keys[i])) {
				h->key_line[i] = m->pairs[p].key_line;
				h->key_col[i] = m->pairs[p].key_col;
			}
	if ((v = ynode_get(m, "governor")) && read_governor(c, v, key, &h->governor))
		return -1;
	if ((v = ynode_get(m, "boost")) && read_on_off(c, v, key, "boost", &h->boost))
		return -1;
	if ((v = ynode_get(m, "smt")) && read_on_off(c, v, key, "smt", &h->smt))
		return -1;
	if ((v = ynode_get(m, "numa_balancing")) &&
	    read_on_off(c, v, key, "numa_balancing", &h->numa_balancing))
		return -1;
	if ((v = ynode_get(m, "cpu_dma_latency_us"))) {
		char *what = xasprintf("%s: cpu_dma_latency_us", key);
		int rc = cfg_get_int(c, v, what, 0, DMA_LATENCY_MAX_US, &n);
		free(what);
		if (rc)
			return -1;
		h->cpu_dma_latency_us = n;
	}
	if ((v = ynode_get(m, "thp"))) {
		if (cfg_want_kind(c, v, YNODE_SCALAR, "thp"))
			return -1;
		if (strcmp(v->text, "always") && strcmp(v->text, "madvise") && strcmp(v->text, "never"))
			return cfg_err_at(c, v->line, v->col, "%s: thp must be always, madvise or"
					  " never, not '%s'", key, v->text);
		h->thp = xstrdup(v->text);
	}
	if ((v = ynode_get(m, "housekeeping_cpus")) &&
	    read_cpu_list(c, v, key, "housekeeping_cpus", &h->housekeeping_cpus))
		return -1;
	if ((v = ynode_get(m, "irq_affinity"))) {
		if (v->kind == YNODE_SCALAR && !strcmp(v->text, "housekeeping"))
			h->irq_affinity = xstrdup(v->text);
		else if (read_cpu_list(c, v, key, "irq_affinity (housekeeping, or a CPU list)",
				       &h->irq_affinity))
			return -1;
	}
	return 0;
}

/* The highest CPU of a valid list ("0-1,3"), and how many CPUs it names. */
static long highest_cpu(const char *list, long *count)
{
	long hi = -1;
	*count = 0;
	for (const char *p = list; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		hi = b > hi ? b : hi;
		*count += b - a + 1;
		p = *end ? end + 1 : end;
	}
	return hi;
}

/* The merged host: of var (its own over the config's top), checked: a
 * housekeeping list inside a guest's CPUs that leaves the loads some,
 * irq_affinity: housekeeping only with housekeeping_cpus. The errors are
 * at the key of the variant's or the top host: that set it. */
int cfg_merge_host(struct cfg_ctx *c, const struct cfg_host *top, struct cfg_variant *var)
{
	struct cfg_host *h = &var->host_set;
	const struct cfg_host *where = cfg_host_any(h) ? h : top;
	if (!h->governor && top->governor)
		h->governor = xstrdup(top->governor);
	if (!h->thp && top->thp)
		h->thp = xstrdup(top->thp);
	if (!h->irq_affinity && top->irq_affinity)
		h->irq_affinity = xstrdup(top->irq_affinity);
	if (!h->housekeeping_cpus && top->housekeeping_cpus)
		h->housekeeping_cpus = xstrdup(top->housekeeping_cpus);
	h->boost = h->boost >= 0 ? h->boost : top->boost;
	h->smt = h->smt >= 0 ? h->smt : top->smt;
	h->numa_balancing = h->numa_balancing >= 0 ? h->numa_balancing : top->numa_balancing;
	h->cpu_dma_latency_us = h->cpu_dma_latency_us >= 0 ? h->cpu_dma_latency_us
							    : top->cpu_dma_latency_us;
	for (size_t i = 0; i < CFG_HOST_N_KEYS; i++)
		if (!h->key_line[i]) {
			h->key_line[i] = top->key_line[i];
			h->key_col[i] = top->key_col[i];
		}
	if (!h->line && top->line) {
		h->line = top->line;
		h->col = top->col;
	}
	int line = 0, col = 0;
	if (h->irq_affinity && !strcmp(h->irq_affinity, "housekeeping") && !h->housekeeping_cpus)
		return cfg_err_at(c, where->line, where->col, "variant %s: irq_affinity:"
				  " housekeeping needs housekeeping_cpus (the CPUs to move IRQs to)",
				  var->name);
	if (var->boot == BOOT_QEMU && h->housekeeping_cpus) {
		long count, hi = highest_cpu(h->housekeeping_cpus, &count);
		cfg_host_key_at(h, "housekeeping_cpus", &line, &col);
		if (hi >= var->cpus)
			return cfg_err_at(c, line, col, "variant %s:"
					  " housekeeping_cpus '%s' names CPU %ld, but the guest has"
					  " cpus: %d, CPUs 0-%d", var->name, h->housekeeping_cpus, hi,
					  var->cpus, var->cpus - 1);
		if (count >= var->cpus)
			return cfg_err_at(c, line, col, "variant %s:"
					  " housekeeping_cpus '%s' is every CPU of the guest (cpus: %d):"
					  " the loads would have none", var->name, h->housekeeping_cpus,
					  var->cpus);
	}
	return 0;
}

void cfg_free_host(struct cfg_host *h)
{
	free(h->governor);
	free(h->thp);
	free(h->irq_affinity);
	free(h->housekeeping_cpus);
	cfg_host_init(h);
}
