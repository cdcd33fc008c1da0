/* What a tree takes on disk, as du(1) counts it. */
#ifndef SCHEDRIG_DISK_USAGE_H
#define SCHEDRIG_DISK_USAGE_H

/* Bytes on disk below path (its own blocks included): the st_blocks of
 * every file and directory times 512, as du(1) counts, symbolic links not
 * followed. What cannot be read counts 0; a path that is not there is 0. */
unsigned long long disk_usage_bytes(const char *path);

#endif
