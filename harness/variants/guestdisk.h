/* The scratch disk of a boot: qemu guest: a raw ext4 image made here with
 * mkfs.ext4 -d (an argv, no shell) holding the trees a plan's loads asked
 * for (guestpack.h) at their relative paths (an absolute one without its
 * leading '/') and their links, and GUESTDISK_FREE_MB of free
 * space for what the loads write (a kernel build's objects, a database).
 * No journal and no metadata checksums, so the guest kernel needs only the
 * virtio_blk and ext4 modules (not crc32c). The file is sparse.
 *
 * Images are cached in CACHE/disks/scratch-KEY.img, KEY an FNV-1a 64 hash
 * of the trees' host paths, their relative paths, the links and the
 * modification time of each host directory (a tree is copied once per change of its top
 * directory). The guest attaches the image with snapshot=on: its writes go
 * to a temporary overlay qemu removes, so the cached image stays as built
 * and two guests may use it at once. A lock file (CACHE/disks/KEY.lock,
 * flock) makes a second builder wait and reuse the first one's image. */
#ifndef SCHEDRIG_GUESTDISK_H
#define SCHEDRIG_GUESTDISK_H

#include <stddef.h>

#include "guestpack.h"

#define GUESTDISK_FREE_MB 8192

/* The image for gc's trees under cache (built now unless cached) into path.
 * The trees are staged with hard links (cp -al, cp -a across file systems)
 * in CACHE/disks/KEY.stage, removed afterwards. Returns 0, or -1 with err
 * (mkfs.ext4 missing: install e2fsprogs; a tree unreadable; a full disk). */
int guestdisk_image(const struct guest_contents *gc, const char *cache, char *path, size_t size,
		    char *err, size_t errsz);

#endif
