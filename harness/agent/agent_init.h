/* The guest's init (process 1 of a boot: qemu or boot: lava guest, the
 * initramfs's /init, a link to schedrig-agent): what a shell script of
 * busybox commands did before, as system calls, so that a guest needs no
 * shell unless a load does (guest_image.h). In order:
 *   devtmpfs /dev, proc, sysfs, cgroup2 and debugfs (these two when the
 *   kernel has them), tmpfs /tmp and /dev/shm (mode 1777); loopback up
 *   (tcp-rr, a server on 127.0.0.1); hostname localhost; a file-descriptor
 *   limit of 1048576 (else 65536) for hackbench's groups; PATH with
 *   GUEST_TOOLS first; the modules of GUEST_MODULES in order (finit_module,
 *   failures ignored: built in, or the agent's channel falls back);
 *   this machine's /usr over virtio-9p when GUEST_HOST_USR_MARK is there,
 *   the scratch disk when GUEST_SCRATCH_MARK is (waiting up to 10 s for
 *   /dev/vda; the working directory, $TMPDIR in it): a failure prints
 *   GUEST_INIT_ERROR and what failed, and powers off;
 *   init= on the kernel command line: "schedrig-init: exec X" and X runs
 *   instead (its failure ends process 1: the kernel panics, as a broken
 *   init should);
 *   GUEST_INIT_START, the agent as a child on the plan (agent_run.h) with
 *   its lines to GUEST_AGENT_OUT's place, every orphan reaped meanwhile,
 *   GUEST_INIT_EXIT and its status (128+N for a signal), sync, power off.
 * Everything is written to /dev/console, the init's standard output. */
#ifndef SCHEDRIG_AGENT_INIT_H
#define SCHEDRIG_AGENT_INIT_H

/* Run as process 1; never returns (powers the machine off, or execs
 * another init). */
void agent_init(void) __attribute__((noreturn));

#endif
