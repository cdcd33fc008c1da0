/* LAVA job definitions (lava_job.h). */
#include "lava_job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "agent_host.h"
#include "cache.h"
#include "guest_image.h"

#define LAVA_DEPLOY_S 600
#define LAVA_JOB_SLACK_S 300

/* A libyaml emitter writing into a buf; ok drops at the first failure. */
struct emit {
	yaml_emitter_t em;
	yaml_event_t ev;
	bool ok;
};

static int to_buf(void *data, unsigned char *bytes, size_t n)
{
	buf_append(data, bytes, n);
	return 1;
}

static void put(struct emit *e, int initialized)
{
	if (!initialized || !e->ok) {
		if (initialized)
			yaml_event_delete(&e->ev);
		e->ok = false;
		return;
	}
	e->ok = yaml_emitter_emit(&e->em, &e->ev) != 0;
}

static void scalar(struct emit *e, const char *s)
{
	put(e, yaml_scalar_event_initialize(&e->ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1,
					    1, YAML_ANY_SCALAR_STYLE));
}

static void scalarf(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void scalarf(struct emit *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	scalar(e, s);
	free(s);
}

static void pair(struct emit *e, const char *key, const char *value)
{
	scalar(e, key);
	scalar(e, value);
}

static void map_start(struct emit *e, bool flow)
{
	put(e, yaml_mapping_start_event_initialize(&e->ev, NULL, NULL, 1,
						   flow ? YAML_FLOW_MAPPING_STYLE :
							  YAML_BLOCK_MAPPING_STYLE));
}

static void map_end(struct emit *e)
{
	put(e, yaml_mapping_end_event_initialize(&e->ev));
}

static void seq_start(struct emit *e, bool flow)
{
	put(e, yaml_sequence_start_event_initialize(&e->ev, NULL, NULL, 1,
						    flow ? YAML_FLOW_SEQUENCE_STYLE :
							   YAML_BLOCK_SEQUENCE_STYLE));
}

static void seq_end(struct emit *e)
{
	put(e, yaml_sequence_end_event_initialize(&e->ev));
}

/* KEY: {seconds: S} */
static void timeout(struct emit *e, const char *key, double s)
{
	scalar(e, key);
	map_start(e, true);
	scalar(e, "seconds");
	scalarf(e, "%.0f", s < 1 ? 1 : s);
	map_end(e);
}

static bool is_qemu(const struct cfg_variant *v)
{
	return !strcmp(v->boot_method, "qemu");
}

/* The kernel command line: the rig's, then append:. */
static char *kernel_args(const struct cfg_variant *v)
{
	return xasprintf("%spanic=-1 loglevel=1%s%s%s", is_qemu(v) ? "console=ttyS0,115200 " : "",
			 is_qemu(v) ? " cryptomgr.notests" : "", v->append ? " " : "",
			 v->append ? v->append : "");
}

/* The steps the agent will run: every (cell, iteration) not done. */
static size_t plan_steps(const struct variant_run *vr)
{
	size_t n = 0;
	for (size_t c = 0; c < vr->p->n_cells; c++)
		for (int it = 1; it <= vr->iterations; it++)
			n += !(vr->done && vr->done(vr->ctx, c, it));
	return n;
}

static void deploy(struct emit *e, const struct variant_run *vr, const char *kernel_url,
		   const char *initramfs_url)
{
	const struct cfg_variant *v = vr->v;
	char *args = kernel_args(v);

	map_start(e, false);
	scalar(e, "deploy");
	map_start(e, false);
	timeout(e, "timeout", LAVA_DEPLOY_S);
	pair(e, "to", is_qemu(v) ? "tmpfs" : "tftp");
	scalar(e, "images");
	map_start(e, false);
	scalar(e, "kernel");
	map_start(e, false);
	if (is_qemu(v)) {
		scalar(e, "image_arg");
		scalarf(e, "-kernel {kernel} -no-reboot -append \"%s\"", args);
	} else {
		pair(e, "type", "bzimage");
	}
	pair(e, "url", kernel_url);
	map_end(e);
	scalar(e, is_qemu(v) ? "initrd" : "ramdisk");
	map_start(e, false);
	if (is_qemu(v))
		pair(e, "image_arg", "-initrd {initrd}");
	pair(e, "url", initramfs_url);
	map_end(e);
	map_end(e);
	map_end(e);
	map_end(e);
	free(args);
}

static void boot(struct emit *e, const struct cfg_variant *v)
{
	map_start(e, false);
	scalar(e, "boot");
	map_start(e, false);
	timeout(e, "timeout", v->boot_timeout_s);
	pair(e, "method", v->boot_method);
	if (is_qemu(v))
		pair(e, "media", "tmpfs");
	else
		pair(e, "commands", "ramdisk");
	map_end(e);
	map_end(e);
}

static void test(struct emit *e, double test_s)
{
	map_start(e, false);
	scalar(e, "test");
	map_start(e, false);
	timeout(e, "timeout", test_s);
	scalar(e, "monitors");
	seq_start(e, false);
	map_start(e, false);
	pair(e, "name", "schedrig");
	pair(e, "start", GUEST_INIT_START);
	pair(e, "end", GUEST_INIT_EXIT);
	pair(e, "pattern", "\\{\"type\":\"(?P<test_case_id>end)\",\"status\":\"(?P<result>ok|failed)\"");
	scalar(e, "fixupdict");
	map_start(e, true);
	pair(e, "ok", "pass");
	pair(e, "failed", "fail");
	map_end(e);
	map_end(e);
	seq_end(e);
	map_end(e);
	map_end(e);
}

int lava_job_yaml(const struct variant_run *vr, const char *kernel_url,
		  const char *initramfs_url, struct buf *out, char *err, size_t errsz)
{
	const struct cfg_variant *v = vr->v;
	double step_s = agent_silence_limit_s(vr) - v->boot_timeout_s;
	double test_s = v->boot_timeout_s + (double)plan_steps(vr) * step_s;
	struct emit e = {.ok = true};

	yaml_emitter_initialize(&e.em);
	yaml_emitter_set_output(&e.em, to_buf, out);
	yaml_emitter_set_unicode(&e.em, 1);
	yaml_emitter_set_width(&e.em, -1);
	put(&e, yaml_stream_start_event_initialize(&e.ev, YAML_UTF8_ENCODING));
	put(&e, yaml_document_start_event_initialize(&e.ev, NULL, NULL, NULL, 1));
	map_start(&e, false);
	pair(&e, "device_type", v->device_type);
	/* ": " in a job name breaks LAVA 2023.01's log (a LAVABug). */
	scalar(&e, "job_name");
	scalarf(&e, "schedrig %s %s", vr->e->name, v->name);
	pair(&e, "priority", "medium");
	pair(&e, "visibility", "public");
	if (v->n_tags) {
		scalar(&e, "tags");
		seq_start(&e, true);
		for (size_t i = 0; i < v->n_tags; i++)
			scalar(&e, v->tags[i]);
		seq_end(&e);
	}
	scalar(&e, "timeouts");
	map_start(&e, false);
	timeout(&e, "job", LAVA_DEPLOY_S + v->boot_timeout_s + test_s + LAVA_JOB_SLACK_S);
	timeout(&e, "action", LAVA_DEPLOY_S > test_s ? LAVA_DEPLOY_S : test_s);
	/* The monitors test waits this long for each console line. */
	timeout(&e, "connection", agent_silence_limit_s(vr));
	map_end(&e);
	scalar(&e, "context");
	map_start(&e, false);
	pair(&e, "arch", "amd64");
	if (!is_qemu(v)) {
		char *args = kernel_args(v);
		pair(&e, "extra_kernel_args", args);
		free(args);
	}
	map_end(&e);
	scalar(&e, "actions");
	seq_start(&e, false);
	deploy(&e, vr, kernel_url, initramfs_url);
	boot(&e, v);
	test(&e, test_s);
	seq_end(&e);
	map_end(&e);
	put(&e, yaml_document_end_event_initialize(&e.ev, 1));
	put(&e, yaml_stream_end_event_initialize(&e.ev));
	if (!e.ok)
		snprintf(err, errsz, "writing the LAVA job of variant %s: %s", v->name,
			 e.em.problem ? e.em.problem : "libyaml's emitter failed");
	yaml_emitter_delete(&e.em);
	return e.ok ? 0 : -1;
}

int lava_job_prepare(const struct variant_run *vr, struct lava_job *job, char *err,
		     size_t errsz)
{
	const struct cfg_lab *lab = vr->v->lab;
	struct kernel_image k;
	struct timespec now;

	memset(job, 0, sizeof(*job));
	clock_gettime(CLOCK_REALTIME, &now);
	char *stamp = xasprintf("%s-%s-%lld%03ld-%d", vr->e->name, vr->v->name,
				(long long)now.tv_sec, now.tv_nsec / 1000000, (int)getpid());
	job->dir = xasprintf("%s/%s", lab->artifacts_dir, stamp);
	job->kernel_url = xasprintf("%s/%s/vmlinuz", lab->artifacts_url, stamp);
	job->initramfs_url = xasprintf("%s/%s/initramfs.cpio", lab->artifacts_url, stamp);
	free(stamp);
	/* A lava guest has no scratch disk and no share of this machine's
	 * /usr: a load that needs either is refused (guest_contents_prepare). */
	struct guest_contents gc = {0};
	if (guest_contents_prepare(vr->p, false, &gc, err, errsz) || mkdir_p(job->dir, err, errsz)) {
		guestpack_free(&gc);
		return -1;
	}
	/* The kernel's files are read under the cache's lock (schedrig cache
	 * --clear waits). */
	int lock = cache_lock(err, errsz);
	if (lock < 0 || guest_kernel_resolve(vr->v->kernel, cache_root(), &k, err, errsz)) {
		if (lock >= 0)
			close(lock);
		guestpack_free(&gc);
		return -1;
	}
	job->release = xstrdup(k.release);
	/* qemu boots the PVH vmlinux fastest; a boot loader needs the bzImage.
	 * A hard link when the cache and the artifacts share a file system
	 * (the kernel is 10-70 MB), else a copy. */
	const char *image = is_qemu(vr->v) ? k.vmlinuz : k.bzimage;
	char *kernel = xasprintf("%s/vmlinuz", job->dir);
	char *initramfs = xasprintf("%s/initramfs.cpio", job->dir);
	int rc = (link(image, kernel) && file_copy(image, kernel, false, err, errsz)) ||
		 guest_initramfs_build(vr, &k, &gc, "/dev/console", initramfs, err, errsz) ||
		 lava_job_yaml(vr, job->kernel_url, job->initramfs_url, &job->yaml, err, errsz) ? -1 : 0;
	close(lock);
	guestpack_free(&gc);
	chmod(initramfs, 0644);
	free(kernel);
	free(initramfs);
	return rc;
}

void lava_job_remove_files(const char *dir)
{
	static const char *const names[] = {"vmlinuz", "initramfs.cpio"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		unlink(path);
		free(path);
	}
	rmdir(dir);
}

void lava_job_free(struct lava_job *job)
{
	free(job->dir);
	free(job->kernel_url);
	free(job->initramfs_url);
	free(job->release);
	buf_free(&job->yaml);
	memset(job, 0, sizeof(*job));
}
