/* The rig's side of a LAVA lab is the one place that knows LAVA's formats
 * and API: the job definition a boot: lava variant becomes (this header,
 * beside the guest image it deploys), and in harness/lava/ the REST client
 * that submits, follows, cancels and downloads jobs with the lab's token
 * (lava_api.h) and the decoding of LAVA's job log into console lines and
 * job facts (lava_log.h). The guest (the kernel and initramfs) comes from
 * guest_image.h, the agent protocol from agent_host.h; the boot: lava
 * backend, lava.c, ties those together and stores nothing itself.
 *
 * The LAVA job definition of a boot: lava variant (LAVA 2023.01 job schema:
 * device_type, job_name, timeouts, context, actions deploy/boot/test).
 *
 * The job deploys the variant's kernel and the rig's initramfs (the one
 * boot: qemu boots, guest_image.h, with the agent writing its protocol lines
 * to /dev/console) and boots them with the variant's boot_method; a
 * "monitors" test waits for the init's "schedrig-init: starting the agent"
 * line and ends at "schedrig-init: agent exit status", so LAVA's job log
 * holds every agent line as a console ("target") line, and LAVA records one
 * test case, schedrig/end, pass when the agent's end line says ok.
 *
 * device_type qemu: deploy to tmpfs, boot method qemu (media tmpfs), the
 * kernel command line in qemu's -append (console=ttyS0,115200 panic=-1
 * loglevel=1 cryptomgr.notests, then append:), -no-reboot so a panic stops
 * the guest. Other device types: deploy to tftp (kernel type bzimage,
 * ramdisk uncompressed), boot_method with commands: ramdisk, the command
 * line in context extra_kernel_args (the device's own console= comes from
 * its dictionary). loglevel=1 keeps kernel messages from breaking agent
 * lines on the shared console; panics (KERN_EMERG) still print. */
#ifndef SCHEDRIG_LAVA_JOB_H
#define SCHEDRIG_LAVA_JOB_H

#include <stddef.h>

#include "util.h"
#include "variant.h"

/* Where a job's files went: the artifacts directory of this job and the
 * URLs the dispatcher fetches them from. Strings owned (lava_job_free). */
struct lava_job {
	char *dir;            /* LAB.artifacts_dir/CONFIG-VARIANT-STAMP */
	char *kernel_url;     /* LAB.artifacts_url/CONFIG-VARIANT-STAMP/vmlinuz */
	char *initramfs_url;  /* .../initramfs.cpio */
	char *release;        /* the kernel package's release ("" unknown) */
	struct buf yaml;      /* the job definition */
};

/* Resolve vr->v's kernel (in the rig's cache, under its lock: cache.h,
 * guest_image.h), build the initramfs of vr's plan (the steps not done), put
 * both into a new
 * directory under the lab's artifacts dir and write the job definition.
 * Returns 0, or -1 with err (kernel; a load that needs a scratch disk or
 * this machine's /usr, which a lava guest lacks; initramfs; artifacts dir). */
int lava_job_prepare(const struct variant_run *vr, struct lava_job *job, char *err,
		     size_t errsz);

/* The job definition for vr->v with the kernel and initramfs at those
 * URLs, appended to out, written with libyaml's emitter (every value a
 * YAML scalar, so no config value can add a key). The job timeout covers
 * deploy (10 min), the boot (timeout_s) and every step of the plan at the
 * agent's silence limit (agent_silence_limit_s minus timeout_s). Returns 0,
 * or -1 with err (the emitter failed). */
int lava_job_yaml(const struct variant_run *vr, const char *kernel_url,
		  const char *initramfs_url, struct buf *out, char *err, size_t errsz);

/* Remove a job's files and its directory (lava_job.dir) once LAVA has
 * fetched them (the job finished or was canceled). Errors are ignored: a
 * file left behind costs only space. */
void lava_job_remove_files(const char *dir);

void lava_job_free(struct lava_job *job);

#endif
