/* What else runs on the machine, in a fingerprint: where its IRQs may go,
 * whether irqbalance or tuned run (either may move IRQs or change the
 * governor during a run), which CPUs the reader itself (the rig, or its
 * agent) may use, and when it was read under what load (the two fields
 * that change by themselves: not stable). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hostfp_impl.h"

/* One affinity list and how many IRQs have it. */
struct irq_group {
	char *list;
	size_t n;
};

/* "19 IRQs: 0-1 (17); 0 (2)": the IRQs of /proc/irq by smp_affinity_list,
 * most common list first. */
static void read_irqs(const struct hf_ctx *c)
{
	char *path = hf_path(c, "/proc/irq"), why[64];
	DIR *d = opendir(path);
	int e = d ? 0 : errno;
	free(path);
	struct irq_group *g = NULL;
	size_t n_g = 0, n_irq = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		long long irq;
		if (!parse_ll(de->d_name, &irq))
			continue;
		char rel[96], list[512];
		snprintf(rel, sizeof(rel), "/proc/irq/%lld/smp_affinity_list", irq);
		int re = hf_read(c, rel, list, sizeof(list));
		const char *v = re ? hf_why(re, why, sizeof(why)) : list;
		size_t k = 0;
		while (k < n_g && strcmp(g[k].list, v))
			k++;
		if (k == n_g) {
			g = xrealloc(g, (n_g + 1) * sizeof(*g));
			g[n_g++] = (struct irq_group){xstrdup(v), 0};
		}
		g[k].n++;
		n_irq++;
	}
	if (d)
		closedir(d);
	/* Most IRQs first; ties in order of the list's text. */
	for (size_t i = 1; i < n_g; i++)
		for (size_t j = i; j > 0 && (g[j].n > g[j - 1].n ||
					     (g[j].n == g[j - 1].n && strcmp(g[j].list, g[j - 1].list) < 0)); j--) {
			struct irq_group t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	struct buf v = {0};
	if (e)
		buf_puts(&v, hf_why(e, why, sizeof(why)));
	else if (!n_irq)
		buf_puts(&v, "absent");
	else
		buf_printf(&v, "%zu IRQs:", n_irq);
	for (size_t i = 0; i < n_g; i++) {
		buf_printf(&v, "%s %s (%zu)", i ? ";" : "", g[i].list, g[i].n);
		free(g[i].list);
	}
	free(g);
	hostfp_add(c->fp, "irq.affinity", "/proc/irq/*/smp_affinity_list", true, "%s", buf_str(&v));
	buf_free(&v);
	hf_file_field(c, "irq.default_affinity", "/proc/irq/default_smp_affinity");
}

/* services.irqbalance, services.tuned: "running" when a process of that
 * name (its comm) exists, else "not running". */
static void read_services(const struct hf_ctx *c)
{
	static const char *const names[] = {"irqbalance", "tuned"};
	bool running[2] = {false, false};
	char *path = hf_path(c, "/proc"), why[64];
	DIR *d = opendir(path);
	int e = d ? 0 : errno;
	free(path);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		long long pid;
		char rel[64], comm[64];
		if (!parse_ll(de->d_name, &pid))
			continue;
		snprintf(rel, sizeof(rel), "/proc/%lld/comm", pid);
		if (hf_read(c, rel, comm, sizeof(comm)))
			continue;
		for (size_t i = 0; i < 2; i++)
			running[i] |= !strcmp(comm, names[i]);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < 2; i++) {
		char *field = xasprintf("services.%s", names[i]);
		hostfp_add(c->fp, field, "/proc/*/comm", true, "%s",
			   e ? hf_why(e, why, sizeof(why)) : running[i] ? "running" : "not running");
		free(field);
	}
}

/* rig.cpus: the CPUs the reading process may run on (Cpus_allowed_list
 * of /proc/self/status): the rig's, or its agent's, housekeeping CPUs. */
static void read_rig_cpus(const struct hf_ctx *c)
{
	char text[8192], why[64];
	const char *rel = "/proc/self/status";
	int e = hf_read(c, rel, text, sizeof(text));
	char *line = e ? NULL : strstr(text, "Cpus_allowed_list:");
	if (line) {
		line += strlen("Cpus_allowed_list:");
		line += strspn(line, " \t");
		line[strcspn(line, "\n")] = '\0';
	}
	hostfp_add(c->fp, "rig.cpus", rel, true, "%s", line ? line : e ? hf_why(e, why, sizeof(why)) :
		   "unreadable: no Cpus_allowed_list line");
}

void hf_read_irq(const struct hf_ctx *c)
{
	char text[256], why[64], now[32];
	read_irqs(c);
	read_services(c);
	read_rig_cpus(c);
	int e = hf_read(c, "/proc/loadavg", text, sizeof(text));
	/* The three averages, without the runnable count and last pid. */
	char *fourth = e ? NULL : strchr(text, ' ');
	for (int k = 0; fourth && k < 2; k++)
		fourth = strchr(fourth + 1, ' ');
	if (fourth)
		*fourth = '\0';
	hostfp_add(c->fp, "loadavg", "/proc/loadavg", false, "%s", e ? hf_why(e, why, sizeof(why)) : text);
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	hostfp_add(c->fp, "fingerprint.read_at", "clock_gettime(CLOCK_REALTIME)", false, "%s", now);
}
