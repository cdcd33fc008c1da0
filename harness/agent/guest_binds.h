/* The bind mounts of a guest's scratch disk (guest_layout.h GUEST_BINDS):
 * directories the host put on the disk (a kernel tree, a database's
 * files) mounted where the loads look for them. The host writes the list
 * (variants/guestpack.c guestpack_binds); the agent applies it. */
#ifndef SCHEDRIG_GUEST_BINDS_H
#define SCHEDRIG_GUEST_BINDS_H

#include <stddef.h>

/* Mount each pair of the file at path (pairs of NUL-terminated paths: the
 * source, then the mount point) with MS_BIND, making the mount point's
 * directories first. A missing file is nothing to do. Returns 0, or -1
 * with err naming the pair and the reason. */
int guest_binds_apply(const char *path, char *err, size_t errsz);

#endif
