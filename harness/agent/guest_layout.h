/* A guest's files as the rig lays them out in the initramfs it boots
 * (boot: qemu, boot: lava): written by the host (variants/guest_image.c,
 * guestpack.c) and read where the variant's kernel runs by the agent's
 * init (agent_init.h) and the agent (agent_run.h). The one list of them:
 * both sides include this header. */
#ifndef SCHEDRIG_GUEST_LAYOUT_H
#define SCHEDRIG_GUEST_LAYOUT_H

/* The agent (a static program: schedrig-agent) and the init the kernel
 * runs, a link to it. */
#define GUEST_AGENT "/bin/schedrig-agent"
#define GUEST_INIT "/init"
/* The plan file (agent_proto.h). */
#define GUEST_PLAN "/etc/schedrig/plan.json"
/* Where the agent writes its lines, one line: "auto" (the virtio port,
 * boot: qemu) or a path (/dev/console, boot: lava). */
#define GUEST_AGENT_OUT "/etc/schedrig/agent-out"
/* The modules the init loads first, one path a line, in order. */
#define GUEST_MODULES "/etc/schedrig/modules"
/* Present when the guest has a scratch disk: /dev/vda (ext4), mounted on
 * GUEST_SCRATCH, the loads' working directory, with $TMPDIR in it. */
#define GUEST_SCRATCH_MARK "/etc/schedrig/scratch"
#define GUEST_SCRATCH "/scratch"
/* Present when the guest mounts this machine's /usr read-only over
 * virtio-9p, tag GUEST_HOST_USR_TAG. */
#define GUEST_HOST_USR_MARK "/etc/schedrig/host-usr"
#define GUEST_HOST_USR_TAG "hostusr"
/* The bind mounts the agent makes before the first load: pairs of
 * NUL-terminated paths, a directory of the scratch disk
 * (GUEST_SCRATCH/REL) then where it is mounted (guest_binds.h). */
#define GUEST_BINDS "/etc/schedrig/binds"
/* Where the load tools are, first in the guest's PATH (outside /usr,
 * which may be this machine's). */
#define GUEST_TOOLS "/opt/schedrig/bin"
/* The init's console lines the host watches for: LAVA's monitors test
 * starts and ends at the first two; a line starting with the third fails
 * the variant with what follows it. */
#define GUEST_INIT_START "schedrig-init: starting the agent"
#define GUEST_INIT_EXIT "schedrig-init: agent exit status"
#define GUEST_INIT_ERROR "schedrig-init: error: "

#endif
