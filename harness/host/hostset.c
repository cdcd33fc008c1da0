/* host: settings applied, held and restored (hostset.h). */
#include "hostset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"

#define DMA_LATENCY_DEV "/dev/cpu_dma_latency"
#define CPU_REL "devices/system/cpu"

static char dma_path[4096] = DMA_LATENCY_DEV;

void hostset_set_dma_latency_path(const char *path)
{
	snprintf(dma_path, sizeof(dma_path), "%s", path ? path : DMA_LATENCY_DEV);
}

bool hostset_any(const struct cfg_variant *v)
{
	return knobs_count(v) || cfg_host_any(&v->host_set);
}

const char *hostset_load_cpus(const struct hostset *hs)
{
	return hs ? hs->load_cpus : NULL;
}

/* The knob requests of a variant: what they name is owned here. */
struct requests {
	struct knob_request *v;
	size_t n;
	struct argv owned;
};

static void req_add(struct requests *r, const char *kind, const char *name, const char *value,
		    bool optional)
{
	argv_add(&r->owned, name);
	argv_add(&r->owned, value);
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n++] = (struct knob_request){kind, NULL, NULL, optional};
}

/* Point the requests at their owned strings (argv_add may move them). */
static void req_fix(struct requests *r, size_t first_owned)
{
	for (size_t i = first_owned, k = 0; i < r->n; i++, k += 2) {
		r->v[i].name = r->owned.v[k];
		r->v[i].value = r->owned.v[k + 1];
	}
}

static void req_free(struct requests *r)
{
	free(r->v);
	argv_free(&r->owned);
}

/* sysfs root + "/" + rel, malloc'd. */
static char *sys_path(const char *rel)
{
	return xasprintf("%s/%s", knobs_sysfs_root(), rel);
}

/* The first line of file path into buf (trimmed); 0 or the errno. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	buf[0] = '\0';
	if (!f)
		return errno;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return 0;
}

/* The cpufreq policies ("policy0", ...) of this machine, sorted. */
static void cpufreq_policies(struct argv *out)
{
	char *dir = sys_path(CPU_REL "/cpufreq");
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "policy", 6) && de->d_name[6])
			argv_add(out, de->d_name);
	if (d)
		closedir(d);
	free(dir);
	for (size_t i = 1; i < out->n; i++)
		for (size_t j = i; j > 0 && strcmp(out->v[j], out->v[j - 1]) < 0; j--) {
			char *t = out->v[j];
			out->v[j] = out->v[j - 1];
			out->v[j - 1] = t;
		}
}

/* The IRQs with a smp_affinity_list, ascending. */
static void irq_numbers(struct argv *out)
{
	DIR *d = opendir(knobs_irq_root());
	struct dirent *de;
	long long *v = NULL;
	size_t n = 0;
	while (d && (de = readdir(d))) {
		long long irq;
		if (!parse_ll(de->d_name, &irq) || irq < 0)
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = irq;
	}
	if (d)
		closedir(d);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
			long long t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++)
		argv_addf(out, "%lld", v[i]);
	free(v);
}

/* The boost file of this machine and the value that means on / off, NULL
 * when it has none. */
static const char *boost_file(const char **on, const char **off)
{
	static char path[4096];
	char *boost = sys_path(CPU_REL "/cpufreq/boost");
	bool has = access(boost, F_OK) == 0;
	free(boost);
	if (has) {
		*on = "1";
		*off = "0";
		return CPU_REL "/cpufreq/boost";
	}
	char *nt = sys_path(CPU_REL "/intel_pstate/no_turbo");
	has = access(nt, F_OK) == 0;
	snprintf(path, sizeof(path), "%s", CPU_REL "/intel_pstate/no_turbo");
	free(nt);
	*on = "0";
	*off = "1";
	return has ? path : NULL;
}

/* The IRQ CPU list a variant asks for: its list, or housekeeping_cpus. */
static const char *irq_cpus(const struct cfg_host *h)
{
	return h->irq_affinity && !strcmp(h->irq_affinity, "housekeeping") ? h->housekeeping_cpus
									     : h->irq_affinity;
}

/* The online CPUs (sysfs devices/system/cpu/online), malloc'd, *n. */
static int *online_cpus(size_t *n)
{
	char *path = sys_path(CPU_REL "/online"), text[4096];
	bool ok;
	int *v = read_line(path, text, sizeof(text)) ? NULL : cpulist_parse(text, n, &ok);
	free(path);
	if (!v)
		*n = 0;
	return v;
}

/* Every CPU of list is online; else a problem naming what. */
static void check_online(const char *what, const char *list, struct argv *problems)
{
	size_t n_on, n;
	bool ok;
	int *on = online_cpus(&n_on), *v = cpulist_parse(list, &n, &ok);
	for (size_t i = 0; i < n; i++) {
		bool found = false;
		for (size_t k = 0; k < n_on && !found; k++)
			found = on[k] == v[i];
		if (!found) {
			argv_addf(problems, "host: %s: CPU %d of '%s' is not online here (%s/%s/online)",
				  what, v[i], list, knobs_sysfs_root(), CPU_REL);
			break;
		}
	}
	free(on);
	free(v);
}

/* The knob requests of v: its knobs, then the knob-backed settings. */
static void build_requests(const struct cfg_variant *v, struct requests *r)
{
	const struct cfg_host *h = &v->host_set;
	size_t n = knobs_count(v);
	r->v = xcalloc(n ? n : 1, sizeof(*r->v));
	r->n = knobs_requests(v, r->v);
	size_t first = r->n;
	if (h->governor) {
		struct argv pol = {0};
		cpufreq_policies(&pol);
		for (size_t i = 0; i < pol.n; i++) {
			char *name = xasprintf(CPU_REL "/cpufreq/%s/scaling_governor", pol.v[i]);
			req_add(r, "sysfs", name, h->governor, false);
			free(name);
		}
		argv_free(&pol);
	}
	const char *on, *off, *boost = h->boost >= 0 ? boost_file(&on, &off) : NULL;
	if (boost)
		req_add(r, "sysfs", boost, h->boost ? on : off, false);
	if (h->smt >= 0)
		req_add(r, "sysfs", CPU_REL "/smt/control", h->smt ? "on" : "off", false);
	if (h->thp)
		req_add(r, "sysfs", "kernel/mm/transparent_hugepage/enabled", h->thp, false);
	if (h->numa_balancing >= 0)
		req_add(r, "sysctl", "kernel.numa_balancing", h->numa_balancing ? "1" : "0", false);
	if (h->irq_affinity) {
		struct argv irqs = {0};
		struct buf mask = {0};
		size_t nc;
		bool ok;
		int *cpus = cpulist_parse(irq_cpus(h), &nc, &ok);
		cpulist_mask(cpus, nc, &mask);
		irq_numbers(&irqs);
		for (size_t i = 0; i < irqs.n; i++)
			req_add(r, "irq", irqs.v[i], irq_cpus(h), true);
		req_add(r, "irq", "default", buf_str(&mask), false);
		free(cpus);
		buf_free(&mask);
		argv_free(&irqs);
	}
	req_fix(r, first);
}

/* The host: settings' own checks (the knobs' files are knobs_probe's). */
static void probe_settings(const struct cfg_host *h, struct argv *problems)
{
	char text[4096];
	if (h->governor) {
		struct argv pol = {0};
		cpufreq_policies(&pol);
		if (!pol.n)
			argv_addf(problems, "host: governor: %s/%s/cpufreq/policy*/scaling_governor is"
				  " missing: this machine has no cpufreq", knobs_sysfs_root(), CPU_REL);
		for (size_t i = 0; i < pol.n; i++) {
			char *rel = xasprintf(CPU_REL "/cpufreq/%s/scaling_available_governors", pol.v[i]);
			char *path = sys_path(rel);
			char padded[4200];
			int e = read_line(path, text, sizeof(text));
			snprintf(padded, sizeof(padded), " %s ", text);
			char *want = xasprintf(" %s ", h->governor);
			if (e)
				argv_addf(problems, "host: governor: %s: %s", path, strerror(e));
			else if (!strstr(padded, want))
				argv_addf(problems, "host: governor: %s is not one of %s's governors (%s:"
					  " %s)", h->governor, pol.v[i], path, text);
			free(want);
			free(path);
			free(rel);
		}
		argv_free(&pol);
	}
	const char *on, *off;
	if (h->boost >= 0 && !boost_file(&on, &off))
		argv_addf(problems, "host: boost: neither %s/%s/cpufreq/boost nor %s/%s/intel_pstate/"
			  "no_turbo exists: this machine has no boost control", knobs_sysfs_root(),
			  CPU_REL, knobs_sysfs_root(), CPU_REL);
	if (h->smt >= 0) {
		char *path = sys_path(CPU_REL "/smt/control");
		int e = read_line(path, text, sizeof(text));
		if (e)
			argv_addf(problems, "host: smt: %s: %s%s", path, strerror(e),
				  e == ENOENT ? " (a kernel without CONFIG_HOTPLUG_SMT)" : "");
		else if (!strcmp(text, "notsupported") || !strcmp(text, "notimplemented") ||
			 !strcmp(text, "forceoff"))
			argv_addf(problems, "host: smt: %s reads %s: SMT cannot be switched here%s", path,
				  text, strcmp(text, "forceoff") ? " (no SMT siblings)" : " (nosmt=force)");
		free(path);
	}
	if (h->thp) {
		char *path = sys_path("kernel/mm/transparent_hugepage/enabled");
		int e = read_line(path, text, sizeof(text));
		char *want = xasprintf("%s", h->thp);
		if (e)
			argv_addf(problems, "host: thp: %s: %s%s", path, strerror(e),
				  e == ENOENT ? " (a kernel without CONFIG_TRANSPARENT_HUGEPAGE)" : "");
		else if (!strstr(text, want))
			argv_addf(problems, "host: thp: %s does not offer %s (%s)", path, h->thp, text);
		free(want);
		free(path);
	}
	if (h->cpu_dma_latency_us >= 0 && access(dma_path, W_OK))
		argv_addf(problems, "host: cpu_dma_latency_us: %s: %s", dma_path, strerror(errno));
	if (h->irq_affinity) {
		check_online("irq_affinity", irq_cpus(h), problems);
		if (access(knobs_irq_root(), R_OK))
			argv_addf(problems, "host: irq_affinity: %s: %s", knobs_irq_root(), strerror(errno));
	}
	if (h->housekeeping_cpus) {
		size_t n_on, n;
		bool ok;
		int *on = online_cpus(&n_on), *hk = cpulist_parse(h->housekeeping_cpus, &n, &ok);
		check_online("housekeeping_cpus", h->housekeeping_cpus, problems);
		if (n_on && n >= n_on)
			argv_addf(problems, "host: housekeeping_cpus: '%s' is every online CPU: the loads"
				  " would have none", h->housekeeping_cpus);
		free(on);
		free(hk);
	}
}

int hostset_probe(const struct cfg_variant *v, struct argv *problems)
{
	size_t before = problems->n;
	struct requests r = {0};
	probe_settings(&v->host_set, problems);
	build_requests(v, &r);
	/* The IRQs are each tried at apply (optional): checked as a whole above. */
	size_t n = 0;
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.v[i].kind, "irq"))
			r.v[n++] = r.v[i];
	knobs_probe_requests(r.v, n, problems);
	req_free(&r);
	return (int)(problems->n - before);
}

/* Hold the latency request open: write us, read back what is in force. */
static int hold_dma_latency(struct hostset *hs, long long us, char *err, size_t errsz)
{
	int32_t want = (int32_t)us, now = 0;
	hs->dma_fd = open(dma_path, O_RDWR | O_CLOEXEC);
	if (hs->dma_fd < 0 || write(hs->dma_fd, &want, sizeof(want)) != (ssize_t)sizeof(want))
		return err_printf(err, errsz, "host: cpu_dma_latency_us: %s: %s", dma_path,
				  strerror(errno));
	int fd = open(dma_path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, &now, sizeof(now)) : -1;
	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof(now) || now > want)
		return err_printf(err, errsz, "host: cpu_dma_latency_us: wrote %d to %s, the latency in"
				  " force reads %s%d", (int)want, dma_path, got == sizeof(now) ? "" : "?",
				  (int)now);
	return 0;
}

/* Pin this process to housekeeping and keep the other online CPUs for the loads. */
static int pin_housekeeping(struct hostset *hs, const char *list, char *err, size_t errsz)
{
	size_t n_on, n;
	bool ok;
	int *on = online_cpus(&n_on), *hk = cpulist_parse(list, &n, &ok);
	cpu_set_t set, *old = xmalloc(sizeof(*old));
	CPU_ZERO(&set);
	for (size_t i = 0; i < n; i++)
		CPU_SET(hk[i], &set);
	int rc = sched_getaffinity(0, sizeof(*old), old) || sched_setaffinity(0, sizeof(set), &set);
	if (rc) {
		err_printf(err, errsz, "host: housekeeping_cpus %s: sched_setaffinity: %s", list,
			   strerror(errno));
		free(old);
	} else {
		hs->old_affinity = old;
		hs->pinned = true;
		int *rest = xcalloc(n_on + 1, sizeof(*rest));
		size_t k = 0;
		for (size_t i = 0; i < n_on; i++)
			if (!CPU_ISSET(on[i], &set))
				rest[k++] = on[i];
		struct buf b = {0};
		cpulist_text(rest, k, &b);
		hs->load_cpus = xstrdup(buf_str(&b));
		buf_free(&b);
		free(rest);
		if (!k)
			rc = err_printf(err, errsz, "host: housekeeping_cpus %s: no online CPU is left"
					" for the loads", list);
	}
	free(on);
	free(hk);
	return rc ? -1 : 0;
}

/* After the knobs: an irq_affinity none of whose IRQs moved is a failure;
 * the ones the kernel kept are notes. */
static int irq_outcome(struct hostset *hs, const struct cfg_host *h, char *err, size_t errsz)
{
	size_t moved = 0, tried = 0;
	for (size_t i = 0; h->irq_affinity && i < hs->knobs->n; i++) {
		const struct knob_entry *e = &hs->knobs->entries[i];
		if (strcmp(e->kind, "irq") || !strcmp(e->name, "default"))
			continue;
		tried++;
		moved += e->changed;
	}
	for (size_t i = 0; i < hs->knobs->skipped.n; i++)
		argv_addf(&hs->notes, "irq_affinity: %s", hs->knobs->skipped.v[i]);
	if (tried && !moved)
		return err_printf(err, errsz, "host: irq_affinity: none of %zu IRQs could be moved to %s"
				  " (%s)", tried, irq_cpus(h), hs->knobs->skipped.n ?
				  hs->knobs->skipped.v[0] : "?");
	return 0;
}

int hostset_apply(const struct cfg_variant *v, const struct knob_journal_ops *journal,
		  struct hostset **out, char *err, size_t errsz)
{
	const struct cfg_host *h = &v->host_set;
	struct hostset *hs = xcalloc(1, sizeof(*hs));
	struct argv problems = {0};
	struct requests r = {0};
	char why[1024];

	hs->dma_fd = -1;
	*out = NULL;
	/* Checked first: a setting this machine cannot take changes nothing. */
	probe_settings(h, &problems);
	if (problems.n) {
		struct buf b = {0};
		for (size_t i = 0; i < problems.n; i++)
			buf_printf(&b, "%s%s", i ? "; " : "", problems.v[i]);
		err_printf(err, errsz, "%s", buf_str(&b));
		buf_free(&b);
		argv_free(&problems);
		free(hs);
		return -1;
	}
	build_requests(v, &r);
	int rc = r.n ? knobs_apply_requests(r.v, r.n, journal, &hs->knobs, err, errsz) : 0;
	req_free(&r);
	if (!rc && hs->knobs)
		rc = irq_outcome(hs, h, err, errsz);
	if (!rc && h->cpu_dma_latency_us >= 0)
		rc = hold_dma_latency(hs, h->cpu_dma_latency_us, err, errsz);
	if (!rc && h->housekeeping_cpus)
		rc = pin_housekeeping(hs, h->housekeeping_cpus, err, errsz);
	if (rc) {
		if (hostset_restore(hs, journal, why, sizeof(why))) {
			size_t len = strlen(err);
			snprintf(err + len, errsz - len, "; restoring: %s (schedrig restore retries)", why);
		}
		hostset_free(hs);
		return -1;
	}
	*out = hs;
	return 0;
}

int hostset_restore(struct hostset *hs, const struct knob_journal_ops *journal, char *err,
		    size_t errsz)
{
	int rc = 0;
	if (!hs)
		return 0;
	if (hs->pinned && sched_setaffinity(0, sizeof(cpu_set_t), hs->old_affinity)) {
		rc = err_printf(err, errsz, "host: housekeeping_cpus: cannot restore this process's"
				" affinity: %s", strerror(errno));
	}
	hs->pinned = false;
	if (hs->dma_fd >= 0)
		close(hs->dma_fd); /* the kernel drops the request */
	hs->dma_fd = -1;
	char why[1024];
	if (knobs_restore(hs->knobs, journal, why, sizeof(why)) && !rc)
		rc = err_printf(err, errsz, "%s", why);
	return rc;
}

int hostset_journal_rows(const struct hostset *hs)
{
	return hs && hs->knobs ? (int)hs->knobs->n : 0;
}

void hostset_free(struct hostset *hs)
{
	if (!hs)
		return;
	if (hs->dma_fd >= 0)
		close(hs->dma_fd);
	knobs_free(hs->knobs);
	free(hs->old_affinity);
	free(hs->load_cpus);
	argv_free(&hs->notes);
	free(hs);
}
