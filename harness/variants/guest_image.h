/* What a variant's own kernel boots with, for the backends that boot one
 * (boot: qemu, boot: lava): the kernel image resolved from kernel: and the
 * initramfs the rig builds on the fly (laid out as guest_layout.h says):
 * schedrig-agent (agent_binary.h), which is also its /init (agent_init.h:
 * loopback, tmpfs /tmp and /dev/shm, a 1048576 file-descriptor limit, the
 * hostname, the scratch disk on GUEST_SCRATCH and this machine's /usr over
 * virtio-9p when the rig marked them, the agent on the plan, power off),
 * every load tool of the plan and what each load needs there
 * (guestpack.h), busybox-static only when a load needs a shell
 * (guestpack_needs_shell), the virtio console modules of the package (and
 * the scratch disk's and 9p's when the loads need them), /etc/passwd,
 * group and hosts, and the plan file. Attaching the disk and sharing /usr
 * is the backend's part: only boot: qemu does (guestdisk.h). */
#ifndef SCHEDRIG_GUEST_IMAGE_H
#define SCHEDRIG_GUEST_IMAGE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "guest_layout.h"
#include "guestpack.h"
#include "variant.h"


struct preflight;

/* A kernel to boot. */
struct kernel_image {
	char vmlinuz[PATH_MAX]; /* what qemu -kernel boots fastest: the package's
				 * uncompressed PVH vmlinux when it has one
				 * (10-20 s less under TCG), else bzimage */
	char bzimage[PATH_MAX]; /* the bzImage (kernel: path, or the package's
				 * boot/vmlinuz-RELEASE), for boot loaders */
	char modroot[PATH_MAX]; /* "" when none (a bare bzImage) */
	char release[256];      /* from the package ("" unknown) */
	char deb[PATH_MAX];     /* the linux-image .deb it came from ("" none) */
};

/* kernel: → a bootable image. kernel is a bzImage or ELF vmlinux path, a
 * linux-image .deb file (extracted once with dpkg-deb -x into
 * cache/kernels/), or a Debian package name (fetched once with apt-get
 * download into cache/debs/, the newest one there used). cache is the rig's
 * cache (cache.h), whose lock the caller holds while it uses k's files.
 * Returns 0, or -1 with err (no such file nor package name, a file that is
 * no kernel, apt-get or dpkg-deb failing with their last line, a package
 * without boot/vmlinuz-*). */
int guest_kernel_resolve(const char *kernel, const char *cache, struct kernel_image *k,
			 char *err, size_t errsz);

/* The Debian package kernel: names (a package name, or a linux-image .deb
 * file): the package's name and version as its .deb says (`dpkg-deb
 * --field DEB Package Version`), the .deb found (or fetched) in the rig's
 * cache as guest_kernel_locked finds it. 1 when kernel is a bzImage or
 * vmlinux file (no package); 0 with *package and *version malloc'd; -1
 * with err (as guest_kernel_locked, or dpkg-deb failing or printing no
 * Package or Version field). */
int guest_kernel_package(const char *kernel, char **package, char **version, char *err,
			 size_t errsz);

/* guest_kernel_resolve in the rig's cache under its lock (released before
 * it returns: for what k says, not to boot its files). 0, or -1 with err
 * (also the cache unusable: cache_lock). */
int guest_kernel_locked(const char *kernel, struct kernel_image *k, char *err, size_t errsz);

/* Build the initramfs for vr's plan (agent_host_plan: the steps not done),
 * kernel k and what the loads need gc (guest_contents_prepare) at path. agent_out is the agent's --out: "auto" (the virtio
 * port, else the second serial port: qemu) or a device such as
 * "/dev/console" (the console a lab records: LAVA). When the variant has
 * initrd:, that file is appended (the kernel unpacks concatenated archives
 * in order). Returns 0, or -1 with err (busybox-static missing, a load tool
 * or a library missing here, an unreadable initrd). */
int guest_initramfs_build(const struct variant_run *vr, const struct kernel_image *k,
			  const struct guest_contents *gc, const char *agent_out, const char *path,
			  char *err, size_t errsz);

/* What the loads of plan p need in a guest (guestpack_collect with
 * prepare) into gc; disk_and_usr: the backend attaches a scratch disk and
 * shares this machine's /usr (boot: qemu), else a load that needs either is
 * a problem too (and then nothing is prepared). problems receives pairs: a
 * load's name, what it misses. Returns 0 or -1. */
int guest_contents_collect(const struct plan *p, bool prepare, bool disk_and_usr,
			   struct guest_contents *gc, struct argv *problems);

/* guest_contents_collect preparing what is packed; -1 with err naming each
 * load and what it misses ("load L: ...; load M: ..."). */
int guest_contents_prepare(const struct plan *p, bool disk_and_usr, struct guest_contents *gc,
			   char *err, size_t errsz);

/* Preflight of a variant that boots its own kernel (preflight.h): the
 * guest's packed tools and files (guest_contents_collect: refusals naming
 * the load), and the kernel (resolved, fetched only when pf->fetch; not
 * fetched yet: a warning): its config has what the scratch disk and 9p
 * need (when disk_and_usr and a load needs them), its BTF has
 * sched_latency_nice for latency_nice and __SCHED_FEAT_X for each
 * sched_features entry (no BTF: a warning), and slice_us needs the
 * package's release at 6.12 or later (preflight_check_slice). */
void guest_preflight(struct preflight *pf, const struct cfg_variant *v, bool disk_and_usr);

#endif
