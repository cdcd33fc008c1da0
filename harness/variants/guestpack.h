/* What a boot: qemu guest gets for a plan besides the agent (and busybox
 * when it needs a shell, guestpack_needs_shell):
 * every load tool (argv[0] of the plan's instances, built-in loads left
 * out) at GUEST_TOOLS/TOOL (guest_layout.h), and each load's needs (load_ops.needs and
 * its guest_needs hook, loads/load.h): programs with their shared
 * libraries at their paths here, files and directories as they are, and a
 * scratch disk (harness/variants/guestdisk.h) holding the trees the loads asked for.
 * Programs are found as proc_find_program does (PATH, then the sbin
 * directories). Everything comes from this machine: what is missing here is missing in
 * the guest, and the message names the load that needs it. */
#ifndef SCHEDRIG_GUESTPACK_H
#define SCHEDRIG_GUESTPACK_H

#include <stdbool.h>
#include <stddef.h>

#include "guest_layout.h"
#include "initramfs.h"
#include "plan.h"

/* One file for the guest. */
struct guest_file {
	char *host;   /* path on this machine */
	char *guest;  /* path in the guest */
	bool program; /* an ELF program (packed with its libraries) or a #! script */
};

/* A directory for the guest's scratch disk, or a symbolic link on it. */
struct guest_tree {
	char *host;   /* directory on this machine; NULL for a link */
	char *rel;    /* path relative to the disk's root (the guest's /scratch) */
	char *bind;   /* mounted (bind) at this absolute path in the guest; NULL none */
	char *target; /* a link's target; NULL for a directory */
};

struct guest_contents {
	struct guest_file *files;
	size_t n_files;
	struct guest_tree *trees;   /* directories first, then links */
	size_t n_trees;
	bool scratch; /* a load needs the scratch disk */
	bool host_usr; /* a load needs this machine's /usr (load_needs.host_usr) */
};


/* Gather what the loads of plan p need in a guest into gc (zeroed first).
 * prepare: guest_needs hooks may prepare what they pack (kernbench unpacks
 * and configures its tree here); false: they only check that they could.
 * Returns 0, or -1 with problems holding pairs: the name of a load, then
 * what it misses (gc then holds what was found). */
int guestpack_collect(const struct plan *p, bool prepare, struct guest_contents *gc,
		      struct argv *problems);

/* The first load of plan p that needs the scratch disk (scratch: true),
 * or this machine's /usr (host_usr: false); NULL when none. */
const char *guestpack_load_needing(const struct plan *p, bool scratch);

/* Add every file of gc to ir: programs with their libraries (a #! script
 * with its interpreter unless that is /bin/sh, which the guest's busybox
 * provides), directories with their contents. Returns 0 or -1 with err. */
int guestpack_add(const struct guest_contents *gc, struct initramfs *ir, char *err, size_t errsz);

/* The bind mounts gc's trees need, for GUEST_BINDS (guest_binds.h): for
 * each directory with a bind path, GUEST_SCRATCH/REL then the bind path,
 * each NUL-terminated (paths may hold any other byte). */
void guestpack_binds(const struct guest_contents *gc, struct buf *out);

/* Does a guest with gc need a shell and the usual commands (busybox,
 * guest_image.h)? When a load needs the scratch disk or this machine's
 * /usr (a build's make, MariaDB's scripts), or a program packed is a #!
 * script. Otherwise the guest has none: its init and agent are one static
 * program (agent_init.h) and the load tools are ELF programs. */
bool guestpack_needs_shell(const struct guest_contents *gc);

void guestpack_free(struct guest_contents *gc);

#endif
