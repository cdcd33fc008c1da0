/* What a boot: qemu guest gets for a plan besides busybox and the agent:
 * every load tool (argv[0] of the plan's instances, built-in loads left
 * out) at /usr/local/bin/TOOL, and each load's needs (load_ops.needs and
 * its guest_needs hook, loads/load.h): programs with their shared
 * libraries at their paths here, files and directories as they are, and a
 * scratch disk (harness/guestdisk.h) holding the trees the loads asked for.
 * Programs are found as proc_find_program does (PATH, then the sbin
 * directories). Everything comes from this machine: what is missing here is missing in
 * the guest, and the message names the load that needs it. */
#ifndef SCHEDRIG_GUESTPACK_H
#define SCHEDRIG_GUESTPACK_H

#include <stdbool.h>
#include <stddef.h>

#include "initramfs.h"
#include "plan.h"

/* One file for the guest. */
struct guest_file {
	char *host;   /* path on this machine */
	char *guest;  /* path in the guest */
	bool program; /* an ELF program (packed with its libraries) or a #! script */
};

/* A directory for the guest's scratch disk. */
struct guest_tree {
	char *host;   /* directory on this machine */
	char *rel;    /* path relative to the disk's root (the guest's /scratch) */
};

struct guest_contents {
	struct guest_file *files;
	size_t n_files;
	struct guest_tree *trees;
	size_t n_trees;
	bool scratch; /* a load needs the scratch disk */
};

/* Gather what the loads of plan p need in a guest into gc (zeroed first).
 * prepare: guest_needs hooks may prepare what they pack (kernbench unpacks
 * and configures its tree here); false: they only check that they could.
 * Returns 0, or -1 with err holding one message per missing piece, joined
 * by "; ", each "load 'L': ..." (gc then holds what was found). */
int guestpack_collect(const struct plan *p, bool prepare, struct guest_contents *gc, char *err,
		      size_t errsz);

/* Add every file of gc to ir: programs with their libraries (a #! script
 * with its interpreter unless that is /bin/sh, which the guest's busybox
 * provides), directories with their contents. Returns 0 or -1 with err. */
int guestpack_add(const struct guest_contents *gc, struct initramfs *ir, char *err, size_t errsz);

void guestpack_free(struct guest_contents *gc);

#endif
