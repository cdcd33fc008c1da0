/* schedrig lava-job CONFIG VARIANT: the LAVA job definition of a boot: lava
 * variant (lava_job.h), printed for people who submit with lavacli; its
 * kernel and initramfs are put into the lab's artifacts directory. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdopts.h"
#include "commands.h"
#include "config.h"
#include "lava_job.h"
#include "plan.h"
#include "variant.h"

static const char usage_text[] =
	"usage: schedrig lava-job CONFIG VARIANT\n"
	"\n"
	"Print the LAVA job definition (YAML) of the boot: lava variant VARIANT of\n"
	"CONFIG, and put its kernel and initramfs (agent, load tools, plan) into a new\n"
	"directory under the lab's artifacts dir (named on stderr). Submit it with\n"
	"lavacli jobs submit; store its log with schedrig import-lava. Kernel packages\n"
	"come from the rig's cache (schedrig cache), fetched there when missing.\n";

/* The variant called name, if it is boot: lava; else NULL after a message. */
static const struct cfg_variant *lava_variant(const struct experiment *e, const char *name)
{
	for (size_t v = 0; v < e->n_variants; v++) {
		if (strcmp(e->variants[v].name, name))
			continue;
		if (e->variants[v].boot == BOOT_LAVA)
			return &e->variants[v];
		fprintf(stderr, "schedrig lava-job: variant %s is not boot: lava\n", name);
		return NULL;
	}
	fprintf(stderr, "schedrig lava-job: %s has no variant '%s'\n", e->path, name);
	return NULL;
}

static int write_job(const struct experiment *e, const struct cfg_variant *v,
		     const struct plan *p)
{
	char self[PATH_MAX], err[1024];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		fprintf(stderr, "schedrig lava-job: cannot find its own executable: %s\n",
			strerror(errno));
		return 1;
	}
	self[len] = '\0';
	struct variant_run vr = {.e = e, .v = v, .p = p, .iterations = e->iterations,
				 .self_exe = self};
	struct lava_job job;
	int rc = lava_job_prepare(&vr, &job, err, sizeof(err));
	if (rc)
		fprintf(stderr, "schedrig lava-job: variant %s: %s\n", v->name, err);
	else
		fprintf(stderr, "schedrig lava-job: kernel and initramfs in %s\n", job.dir);
	if (rc == 0 && fwrite(buf_str(&job.yaml), 1, job.yaml.len, stdout) != job.yaml.len)
		rc = -1;
	lava_job_free(&job);
	return rc ? 1 : 0;
}

int cmd_lava_job(int argc, char **argv, struct cmd_ctx *ctx)
{
	(void)ctx; /* no database */
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char err[1024];
	/* --help is its only option: there is none to hand over. */
	int rc = cmd_options(argc, argv, longopts, usage_text, NULL, NULL);
	if (rc >= 0)
		return rc;
	if (argc - optind != 2) {
		fprintf(stderr, "schedrig lava-job: needs CONFIG and VARIANT\n%s", usage_text);
		return EXIT_USAGE;
	}
	struct experiment *e = config_load(argv[optind], err, sizeof(err));
	struct plan p = {0};
	if (!e || plan_build(e, &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		experiment_free(e);
		return EXIT_USAGE;
	}
	const struct cfg_variant *v = lava_variant(e, argv[optind + 1]);
	rc = v ? write_job(e, v, &p) : EXIT_USAGE;
	plan_free(&p);
	experiment_free(e);
	return rc;
}
