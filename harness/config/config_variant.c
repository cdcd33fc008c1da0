/* variants: and labs: of a config: boot kinds and their keys, knobs,
 * sched_features, kexec:, kernel: {build:}, LAVA labs and devices. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_impl.h"
#include "knob_paths.h"
#include "schedattr.h"

static const char *const variant_keys[] = {
	"name", "boot", "sysctl", "sched_features", "debugfs", "autogroup", "host_settings",
	"kernel", "initrd", "append", "cpus", "threads", "memory_mb", "accel", "timeout_s",
	"host", "port", "user", "identity", "workdir", "strict_host_key", "kexec",
	"lab", "device_type", "boot_method", "tags", "cells", NULL};

/* The keys of one boot kind (or two), and the kinds they are for. */
struct boot_keys {
	const char *const *keys;
	unsigned boots;  /* bit (1 << boot_kind) */
	const char *what;
};

static const char *const booted_keys[] = {"kernel", "initrd", "append", NULL};

static const char *const qemu_keys[] = {"cpus", "threads", "memory_mb", "accel", NULL};

static const char *const ssh_keys[] = {"host", "port", "user", "identity", "workdir",
				       "strict_host_key", "kexec", NULL};

static const char *const lava_keys[] = {"lab", "device_type", "boot_method", "tags", NULL};

static const struct boot_keys boot_keys[] = {
	{booted_keys, 1u << BOOT_QEMU | 1u << BOOT_LAVA, "boot: qemu or boot: lava"},
	{qemu_keys, 1u << BOOT_QEMU, "boot: qemu"},
	{ssh_keys, 1u << BOOT_SSH, "boot: ssh"},
	{lava_keys, 1u << BOOT_LAVA, "boot: lava"},
};

static const char *const lab_keys[] = {"url", "token_env", "artifacts", "log_max_mb", "stall_s",
				       "api_grace_s", NULL};

static const char *const artifacts_keys[] = {"dir", "url", NULL};

static const char *const kexec_keys[] = {"kernel", "initrd", "append", NULL};

const struct cfg_knob *cfg_knob_twin(const char *kind, const struct cfg_knob *k, size_t n,
				     const char *name)
{
	char *want = knob_canonical(kind, name);
	const struct cfg_knob *twin = NULL;
	for (size_t i = 0; i < n && !twin; i++) {
		char *have = knob_canonical(kind, k[i].key);
		if (!strcmp(have, want))
			twin = &k[i];
		free(have);
	}
	free(want);
	return twin;
}

/* name (at line, col) sets a knob that one of k[0..n) of kind sets already: an error. */
static int knob_unique(struct cfg_ctx *c, const char *kind, const struct cfg_knob *k, size_t n,
		       const char *name, int line, int col)
{
	const struct cfg_knob *twin = cfg_knob_twin(kind, k, n, name);
	if (!twin)
		return 0;
	return cfg_err_at(c, line, col, "%s: %s is the knob %s (line %d) sets already: one knob, one"
		      " value", kind, name, twin->key, twin->line);
}

/* A map of knob keys to scalar values (sysctl:, debugfs:). */
static int read_knob_map(struct cfg_ctx *c, const struct ynode *m, const char *what,
			 struct cfg_knob **out, size_t *n)
{
	if (cfg_want_kind(c, m, YNODE_MAPPING, what))
		return -1;
	*out = xcalloc(m->n ? m->n : 1, sizeof(**out));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		if (p->value->kind != YNODE_SCALAR)
			return cfg_err_at(c, p->value->line, p->value->col, "%s: %s must be a single value",
				      what, p->key);
		char why[512];
		if (knob_name_check(what, p->key, why, sizeof(why)))
			return cfg_err_at(c, p->key_line, p->key_col, "%s", why);
		if (knob_unique(c, what, *out, *n, p->key, p->key_line, p->key_col))
			return -1;
		(*out)[(*n)++] = (struct cfg_knob){xstrdup(p->key), xstrdup(p->value->text),
						   p->key_line, p->key_col};
	}
	return 0;
}

static int read_features(struct cfg_ctx *c, const struct ynode *v, struct cfg_variant *var)
{
	if (cfg_want_kind(c, v, YNODE_SEQUENCE, "sched_features"))
		return -1;
	var->sched_features = xcalloc(v->n ? v->n : 1, sizeof(*var->sched_features));
	for (size_t i = 0; i < v->n; i++) {
		const struct ynode *it = v->items[i];
		char why[512];
		if (knob_name_check("sched_features", it->kind == YNODE_SCALAR ? it->text : "", why,
				    sizeof(why)))
			return cfg_err_at(c, it->line, it->col, "%s", why);
		if (knob_unique(c, "sched_features", var->sched_features, var->n_sched_features,
				it->text, it->line, it->col))
			return -1;
		var->sched_features[var->n_sched_features++] =
			(struct cfg_knob){xstrdup(it->text), NULL, it->line, it->col};
	}
	return 0;
}

/* Keys that belong to another boot kind are errors, not silently ignored. */
static int check_boot_keys(struct cfg_ctx *c, const struct ynode *m, const struct cfg_variant *var,
			   const char *boot)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		for (size_t g = 0; g < sizeof(boot_keys) / sizeof(boot_keys[0]); g++)
			for (size_t k = 0; boot_keys[g].keys[k]; k++)
				if (!strcmp(p->key, boot_keys[g].keys[k]) &&
				    !(boot_keys[g].boots & 1u << var->boot))
					return cfg_err_at(c, p->key_line, p->key_col,
						      "'%s' is for %s, not boot: %s", p->key,
						      boot_keys[g].what, boot);
		/* How long a kernel may take to come up (a qemu boot, an ssh
		 * machine after kexec): nothing boots for boot: local. */
		if (!strcmp(p->key, "timeout_s") && var->boot == BOOT_LOCAL)
			return cfg_err_at(c, p->key_line, p->key_col,
				      "'timeout_s' is for boot: qemu, ssh or lava, not boot: local");
	}
	return 0;
}

/* kernel: {build: NAME}: a kernel the rig builds (kernels:). */
static int read_build_ref(struct cfg_ctx *c, const struct ynode *m, struct cfg_variant *var)
{
	static const char *const keys[] = {"build", NULL};
	const struct ynode *b = ynode_get(m, "build");
	if (cfg_check_keys(c, m, keys, "kernel"))
		return -1;
	if (!b)
		return cfg_err_at(c, m->line, m->col, "kernel: as a mapping needs 'build:' (a name"
			      " under kernels:)");
	var->build_line = b->line;
	var->build_col = b->col;
	return cfg_get_name(c, b, "kernel build", &var->build);
}

static int read_kexec(struct cfg_ctx *c, const struct ynode *m, struct cfg_variant *var)
{
	if (cfg_want_kind(c, m, YNODE_MAPPING, "kexec") || cfg_check_keys(c, m, kexec_keys, "kexec"))
		return -1;
	const struct ynode *k = ynode_get(m, "kernel");
	if (!k)
		return cfg_err_at(c, m->line, m->col, "kexec needs 'kernel:'");
	if (k->kind == YNODE_MAPPING ? read_build_ref(c, k, var) :
				       cfg_opt_string(c, m, "kernel", &var->kexec_kernel))
		return -1;
	return cfg_opt_string(c, m, "initrd", &var->kexec_initrd) ||
	       cfg_opt_string(c, m, "initrd", &var->kexec_initrd) ||
	       cfg_opt_string(c, m, "append", &var->kexec_append);
}

/* tags: a list of LAVA device tag names. */
static int read_tags(struct cfg_ctx *c, const struct ynode *v, struct cfg_variant *var)
{
	if (cfg_want_kind(c, v, YNODE_SEQUENCE, "tags"))
		return -1;
	var->tags = xcalloc(v->n ? v->n : 1, sizeof(*var->tags));
	for (size_t i = 0; i < v->n; i++)
		if (cfg_get_name(c, v->items[i], "tag", &var->tags[var->n_tags++]))
			return -1;
	return 0;
}

/* The lava group of a variant: lab (one of e's labs), device_type,
 * boot_method, tags; an append: LAVA can pass on. */
static int read_lava(struct cfg_ctx *c, const struct ynode *m, const struct experiment *e,
		     struct cfg_variant *var)
{
	const struct ynode *v;
	char *lab = NULL;

	if (!(v = ynode_get(m, "lab")))
		return cfg_err_at(c, m->line, m->col, "boot: lava needs 'lab:' (a name under labs:)");
	if (cfg_get_string(c, v, "lab", &lab))
		return -1;
	for (size_t i = 0; i < e->n_labs && !var->lab; i++)
		if (!strcmp(e->labs[i].name, lab))
			var->lab = &e->labs[i];
	free(lab);
	if (!var->lab)
		return cfg_err_at(c, v->line, v->col, "lab '%s' is not under labs:", v->text);
	if (!(v = ynode_get(m, "device_type")))
		return cfg_err_at(c, m->line, m->col, "boot: lava needs 'device_type:' (the lab's"
			      " device type, e.g. qemu)");
	if (cfg_get_name(c, v, "device_type", &var->device_type))
		return -1;
	if ((v = ynode_get(m, "boot_method")) && cfg_get_name(c, v, "boot_method", &var->boot_method))
		return -1;
	if (!var->boot_method && strcmp(var->device_type, "qemu"))
		return cfg_err_at(c, m->line, m->col, "device_type %s needs 'boot_method:' (how its"
			      " devices boot a kernel in LAVA: grub, ipxe, u-boot, ...)",
			      var->device_type);
	if (!var->boot_method)
		var->boot_method = xstrdup("qemu");
	if ((v = ynode_get(m, "tags")) && read_tags(c, v, var))
		return -1;
	if (!var->kernel)
		return cfg_err_at(c, m->line, m->col, "boot: lava needs 'kernel:' (a bzImage or a"
			      " linux-image .deb or package name)");
	for (const char *p = var->append ? var->append : ""; *p; p++)
		if (strchr("\"\\{}", *p) || (unsigned char)*p < 0x20 || *p == 0x7f) {
			v = ynode_get(m, "append");
			return cfg_err_at(c, v->line, v->col, "append of a boot: lava variant may not"
				      " hold quotes, backslashes, braces or control characters"
				      " (LAVA splits the qemu command line itself)");
		}
	return 0;
}

int cfg_read_variant(struct cfg_ctx *c, const struct ynode *m, const struct experiment *e,
			struct cfg_variant *var)
{
	const struct ynode *v;
	const char *boot = "local";

	var->line = m->line;
	var->col = m->col;
	var->autogroup = -1;
	cfg_host_init(&var->host_set);
	var->cpus = 2;
	var->threads = 1;
	var->memory_mb = 2048;
	var->boot_timeout_s = 600;
	var->port = 22;
	var->strict_host_key = true;
	if (cfg_want_kind(c, m, YNODE_MAPPING, "a variant") ||
	    cfg_check_keys(c, m, variant_keys, "a variant"))
		return -1;
	if (!(v = ynode_get(m, "name")))
		return cfg_err_at(c, m->line, m->col, "a variant needs 'name:'");
	if (cfg_get_name(c, v, "variant name", &var->name))
		return -1;
	if ((v = ynode_get(m, "boot"))) {
		if (cfg_want_kind(c, v, YNODE_SCALAR, "boot"))
			return -1;
		boot = v->text;
		if (!strcmp(boot, "local"))
			var->boot = BOOT_LOCAL;
		else if (!strcmp(boot, "qemu"))
			var->boot = BOOT_QEMU;
		else if (!strcmp(boot, "ssh"))
			var->boot = BOOT_SSH;
		else if (!strcmp(boot, "lava"))
			var->boot = BOOT_LAVA;
		else
			return cfg_err_at(c, v->line, v->col,
				      "boot must be local, qemu, ssh or lava, not '%s'", boot);
	}
	if (check_boot_keys(c, m, var, boot))
		return -1;
	if ((v = ynode_get(m, "sysctl")) &&
	    read_knob_map(c, v, "sysctl", &var->sysctl, &var->n_sysctl))
		return -1;
	if ((v = ynode_get(m, "debugfs")) &&
	    read_knob_map(c, v, "debugfs", &var->debugfs, &var->n_debugfs))
		return -1;
	if ((v = ynode_get(m, "sched_features")) && read_features(c, v, var))
		return -1;
	if ((v = ynode_get(m, "autogroup"))) {
		if (cfg_want_kind(c, v, YNODE_SCALAR, "autogroup"))
			return -1;
		if (!strcmp(v->text, "on"))
			var->autogroup = 1;
		else if (!strcmp(v->text, "off"))
			var->autogroup = 0;
		else
			return cfg_err_at(c, v->line, v->col, "autogroup must be on or off, not '%s'",
				      v->text);
		const struct cfg_knob *twin = cfg_knob_twin("sysctl", var->sysctl, var->n_sysctl,
							"kernel.sched_autogroup_enabled");
		if (twin)
			return cfg_err_at(c, v->line, v->col, "autogroup is the knob sysctl %s (line %d)"
				      " sets already: one knob, one value", twin->key, twin->line);
	}
	if ((v = ynode_get(m, "host_settings")) && cfg_read_host(c, v, "host_settings", &var->host_set))
		return -1;
	if ((v = ynode_get(m, "cells")) && cfg_read_cells(c, v, var))
		return -1;
	if ((v = ynode_get(m, "kernel")) && v->kind == YNODE_MAPPING) {
		if (read_build_ref(c, v, var))
			return -1;
	} else if (cfg_opt_string(c, m, "kernel", &var->kernel)) {
		return -1;
	}
	if (cfg_opt_string(c, m, "initrd", &var->initrd) ||
	    cfg_opt_string(c, m, "append", &var->append) || cfg_opt_string(c, m, "accel", &var->accel) ||
	    cfg_opt_string(c, m, "host", &var->host) || cfg_opt_string(c, m, "user", &var->user) ||
	    cfg_opt_string(c, m, "identity", &var->identity) ||
	    cfg_opt_string(c, m, "workdir", &var->workdir))
		return -1;
	if (cfg_opt_int(c, m, "cpus", "cpus", 1, 64, &var->cpus) ||
	    cfg_opt_int(c, m, "threads", "threads", 1, 8, &var->threads))
		return -1;
	if ((v = ynode_get(m, "threads"))) {
		if (var->cpus % var->threads)
			return cfg_err_at(c, v->line, v->col, "threads: %d does not divide cpus: %d (the"
					  " guest has cpus / threads cores of threads each)", var->threads,
					  var->cpus);
	}
	if (cfg_opt_int(c, m, "memory_mb", "memory_mb", 128, 65536, &var->memory_mb) ||
	    cfg_opt_int(c, m, "port", "port", 1, 65535, &var->port))
		return -1;
	if ((v = ynode_get(m, "timeout_s")) &&
	    cfg_get_seconds(c, v, "timeout_s", 86400, &var->boot_timeout_s))
		return -1;
	if ((v = ynode_get(m, "strict_host_key")) &&
	    cfg_get_bool(c, v, "strict_host_key", &var->strict_host_key))
		return -1;
	if ((v = ynode_get(m, "kexec")) && read_kexec(c, v, var))
		return -1;
	if (var->accel && strcmp(var->accel, "auto") && strcmp(var->accel, "kvm") &&
	    strcmp(var->accel, "tcg")) {
		v = ynode_get(m, "accel");
		return cfg_err_at(c, v->line, v->col, "accel must be auto, kvm or tcg, not '%s'",
			      var->accel);
	}
	if (var->boot == BOOT_QEMU && !var->kernel && !var->build)
		return cfg_err_at(c, m->line, m->col, "boot: qemu needs 'kernel:' (a bzImage, a"
			      " linux-image .deb, or a Debian package name)");
	if (var->boot == BOOT_SSH && !var->host)
		return cfg_err_at(c, m->line, m->col, "boot: ssh needs 'host:'");
	if (var->boot == BOOT_LAVA)
		return read_lava(c, m, e, var);
	return 0;
}

/* artifacts: {dir: /abs/dir, url: file:///...|http(s)://...} of a lab. */
static int read_artifacts(struct cfg_ctx *c, const struct ynode *m, struct cfg_lab *lab)
{
	const struct ynode *v;
	if (cfg_want_kind(c, m, YNODE_MAPPING, "artifacts"))
		return -1;
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->pairs[i].key, "upload"))
			return cfg_err_at(c, m->pairs[i].key_line, m->pairs[i].key_col, "artifacts: upload"
				      " is not supported; give dir: (a directory the lab's dispatchers"
				      " reach through url:, e.g. one a web server publishes)");
	if (cfg_check_keys(c, m, artifacts_keys, "artifacts"))
		return -1;
	if (!(v = ynode_get(m, "dir")))
		return cfg_err_at(c, m->line, m->col, "artifacts needs 'dir:' (where the rig writes"
			      " each job's kernel and initramfs)");
	if (cfg_get_string(c, v, "dir", &lab->artifacts_dir))
		return -1;
	if (lab->artifacts_dir[0] != '/')
		return cfg_err_at(c, v->line, v->col, "artifacts dir must be an absolute path, not '%s'",
			      v->text);
	if (!(v = ynode_get(m, "url")))
		return cfg_err_at(c, m->line, m->col, "artifacts needs 'url:' (dir as the lab's"
			      " dispatchers fetch it: file://, http:// or https://)");
	if (cfg_get_string(c, v, "url", &lab->artifacts_url))
		return -1;
	if (strncmp(v->text, "file:///", 8) && strncmp(v->text, "http://", 7) &&
	    strncmp(v->text, "https://", 8))
		return cfg_err_at(c, v->line, v->col, "artifacts url must start with file:///, http://"
			      " or https://, not '%s'", v->text);
	size_t len = strlen(lab->artifacts_url);
	while (len > 8 && lab->artifacts_url[len - 1] == '/')
		lab->artifacts_url[--len] = '\0';
	return 0;
}

/* A lab's limits on what it sends: log_max_mb (1..1048576, default 512),
 * stall_s (over 0, at most an hour, default 60), api_grace_s (0..86400,
 * default 120). */
static int read_lab_limits(struct cfg_ctx *c, const struct ynode *l, struct cfg_lab *lab)
{
	const struct ynode *v;
	lab->log_max_mb = 512;
	lab->stall_s = 60;
	lab->api_grace_s = 120;
	if ((v = ynode_get(l, "log_max_mb")) &&
	    cfg_get_int(c, v, "log_max_mb", 1, 1048576, &lab->log_max_mb))
		return -1;
	if ((v = ynode_get(l, "stall_s")) && cfg_get_seconds(c, v, "stall_s", 3600, &lab->stall_s))
		return -1;
	if (v && lab->stall_s < 1)
		return cfg_err_at(c, v->line, v->col, "stall_s must be at least 1 s, not '%s'",
				  v->text);
	if ((v = ynode_get(l, "api_grace_s")) &&
	    cfg_get_seconds(c, v, "api_grace_s", 86400, &lab->api_grace_s))
		return -1;
	return 0;
}

int cfg_read_labs(struct cfg_ctx *c, const struct ynode *m, struct experiment *e)
{
	if (cfg_want_kind(c, m, YNODE_MAPPING, "labs"))
		return -1;
	e->labs = xcalloc(m->n ? m->n : 1, sizeof(*e->labs));
	for (size_t i = 0; i < m->n; i++) {
		const struct ypair *p = &m->pairs[i];
		const struct ynode *l = p->value, *v;
		struct cfg_lab *lab = &e->labs[e->n_labs++];
		lab->line = p->key_line;
		lab->col = p->key_col;
		lab->name = xstrdup(p->key);
		if (cfg_check_name(c, p->key, p->key_line, p->key_col, "lab name"))
			return -1;
		if (cfg_want_kind(c, l, YNODE_MAPPING, "a lab") || cfg_check_keys(c, l, lab_keys, "a lab"))
			return -1;
		if (!(v = ynode_get(l, "url")))
			return cfg_err_at(c, l->line, l->col, "a lab needs 'url:' (its LAVA server)");
		if (cfg_get_string(c, v, "url", &lab->url))
			return -1;
		if ((strncmp(v->text, "http://", 7) && strncmp(v->text, "https://", 8)) ||
		    strpbrk(v->text, " \t\r\n?#"))
			return cfg_err_at(c, v->line, v->col, "a lab's url must be http:// or https://"
				      " without spaces, query or fragment, not '%s'", v->text);
		size_t len = strlen(lab->url);
		while (len > 8 && lab->url[len - 1] == '/')
			lab->url[--len] = '\0';
		if ((v = ynode_get(l, "token_env"))) {
			if (cfg_get_string(c, v, "token_env", &lab->token_env))
				return -1;
			bool ok = *v->text && !isdigit((unsigned char)v->text[0]);
			for (const char *q = v->text; *q; q++)
				ok &= isalnum((unsigned char)*q) || *q == '_';
			if (!ok)
				return cfg_err_at(c, v->line, v->col, "token_env must name an environment"
					      " variable ([A-Za-z_][A-Za-z0-9_]*), not '%s'", v->text);
		}
		if (!(v = ynode_get(l, "artifacts")))
			return cfg_err_at(c, l->line, l->col, "a lab needs 'artifacts: {dir, url}'");
		if (read_artifacts(c, v, lab) || read_lab_limits(c, l, lab))
			return -1;
	}
	return 0;
}

static void free_knobs(struct cfg_knob *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].key);
		free(k[i].value);
	}
	free(k);
}

void cfg_free_variant(struct cfg_variant *v)
{
	free(v->name);
	cfg_free_settings(v->cells, v->n_cells);
	free_knobs(v->sysctl, v->n_sysctl);
	free_knobs(v->sched_features, v->n_sched_features);
	free_knobs(v->debugfs, v->n_debugfs);
	free(v->kernel);
	free(v->initrd);
	free(v->append);
	free(v->accel);
	free(v->host);
	free(v->user);
	free(v->identity);
	free(v->workdir);
	free(v->kexec_kernel);
	free(v->kexec_initrd);
	free(v->kexec_append);
	free(v->device_type);
	free(v->boot_method);
	for (size_t i = 0; i < v->n_tags; i++)
		free(v->tags[i]);
	free(v->tags);
	free(v->build);
	cfg_free_host(&v->host_set);
}
