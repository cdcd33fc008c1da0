/* What a variant's own kernel boots with, for the backends that boot one
 * (boot: qemu, boot: lava): the kernel image resolved from kernel: and the
 * initramfs the rig builds on the fly — busybox-static, this schedrig as the
 * agent, every load tool of the plan with its shared libraries, the virtio
 * console modules of the package, the plan file, and an /init that runs
 * `schedrig agent --out OUT` on the plan and powers the machine off. */
#ifndef SCHEDRIG_GUEST_IMAGE_H
#define SCHEDRIG_GUEST_IMAGE_H

#include <limits.h>
#include <stddef.h>

#include "variant.h"

/* A kernel to boot. */
struct kernel_image {
	char vmlinuz[PATH_MAX]; /* what qemu -kernel boots fastest: the package's
				 * uncompressed PVH vmlinux when it has one
				 * (10-20 s less under TCG), else bzimage */
	char bzimage[PATH_MAX]; /* the bzImage (kernel: path, or the package's
				 * boot/vmlinuz-RELEASE), for boot loaders */
	char modroot[PATH_MAX]; /* "" when none (a bare bzImage) */
	char release[256];      /* from the package ("" unknown) */
};

/* The cache directory of a run's work_dir: RESULTS/cache for
 * RESULTS/runs/ID, else WORK_DIR/cache (caller frees). Kernel packages go
 * to CACHE/debs/, their extracted trees to CACHE/kernels/NAME/. */
char *guest_cache_dir(const char *work_dir);

/* kernel: → a bootable image. kernel is a bzImage path, a linux-image .deb
 * file (extracted once with dpkg-deb -x into cache/kernels/), or a Debian
 * package name (fetched once with apt-get download into cache/debs/, the
 * newest one there used). Returns 0, or -1 with err (no such file nor
 * package name, apt-get or dpkg-deb failing with their last line, a package
 * without boot/vmlinuz-*). */
int guest_kernel_resolve(const char *kernel, const char *cache, struct kernel_image *k,
			 char *err, size_t errsz);

/* Build the initramfs for vr's plan (agent_host_plan: the steps not done)
 * and kernel k at path. agent_out is the agent's --out: "auto" (the virtio
 * port, else the second serial port: qemu) or a device such as
 * "/dev/console" (the console a lab records: LAVA). When the variant has
 * initrd:, that file is appended (the kernel unpacks concatenated archives
 * in order). Returns 0, or -1 with err (busybox-static missing, a load tool
 * or a library missing here, an unreadable initrd). */
int guest_initramfs_build(const struct variant_run *vr, const struct kernel_image *k,
			  const char *agent_out, const char *path, char *err, size_t errsz);

#endif
