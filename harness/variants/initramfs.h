/* An initramfs built in memory: a cpio archive in the "newc" format the
 * kernel unpacks (Documentation/driver-api/early-userspace/buffer-format.rst:
 * "070701", 13 eight-digit hex fields, name, NUL, padding to 4 bytes, data,
 * padding to 4 bytes; ends with the entry "TRAILER!!!"), plus helpers that
 * add an ELF program with the shared libraries it links and kernel modules
 * with their dependencies. Parent directories are added automatically; a
 * path added twice is kept once (the first one). */
#ifndef SCHEDRIG_INITRAMFS_H
#define SCHEDRIG_INITRAMFS_H

#include <stddef.h>
#include <sys/types.h>

#include "util.h"

struct initramfs {
	struct buf data;  /* the archive so far */
	char **paths;     /* every path added, without the leading '/' */
	size_t n_paths;
	unsigned ino;
};

/* Add a directory (mode: permission bits). */
void initramfs_add_dir(struct initramfs *ir, const char *path, mode_t mode);
/* Add a regular file with the given contents and permission bits. */
void initramfs_add_file(struct initramfs *ir, const char *path, const void *data, size_t len,
			mode_t mode);
void initramfs_add_symlink(struct initramfs *ir, const char *path, const char *target);
/* Add a device node; mode holds S_IFCHR or S_IFBLK and permission bits. */
void initramfs_add_node(struct initramfs *ir, const char *path, mode_t mode, unsigned major,
			unsigned minor);
/* Add the host file host_path (symlinks followed) as a regular file at
 * path, with its permission bits. Returns 0 or -1 with err. */
int initramfs_add_host_file(struct initramfs *ir, const char *path, const char *host_path,
			    char *err, size_t errsz);

/* Add host_path at path: a regular file as initramfs_add_host_file, a
 * symbolic link as a link with the same target, a directory with
 * everything below it (other file types are left out). Returns 0 or -1
 * with err. */
int initramfs_add_host_tree(struct initramfs *ir, const char *path, const char *host_path,
			    char *err, size_t errsz);

/* Add the ELF program host_path at path plus every shared library it needs,
 * each at the path the dynamic loader resolves on the host, found the way
 * ldd does: the ELF interpreter (PT_INTERP) run as "INTERP --list PROGRAM".
 * A static program brings nothing else. Returns 0, or -1 with err (not ELF,
 * a library "not found", the interpreter failing). */
int initramfs_add_program(struct initramfs *ir, const char *path, const char *host_path,
			  char *err, size_t errsz);

/* Add kernel modules called names (underscores and dashes alike) from the
 * module tree modroot (…/lib/modules/RELEASE) with every module they
 * depend on (the "depends=" field of each .ko's .modinfo section), at
 * guest_modroot/RELATIVE. A compressed module (.ko.xz, .ko.zst, .ko.gz)
 * is decompressed with xz, zstd or gzip -dc and goes in as RELATIVE.ko.
 * Modules absent from the tree (built in) are skipped. order receives the guest paths in load order,
 * dependencies first. Returns 0 or -1 with err. */
int initramfs_add_modules(struct initramfs *ir, const char *modroot, const char *guest_modroot,
			  const char *const *names, size_t n, struct argv *order, char *err,
			  size_t errsz);

/* Append the trailer and write the archive to path. Returns 0 or -1 with err. */
int initramfs_write(struct initramfs *ir, const char *path, char *err, size_t errsz);
void initramfs_free(struct initramfs *ir);

/* The ELF interpreter (PT_INTERP) of the 64-bit ELF file at path into interp
 * ("" for a static program). Returns 0, or -1 with err (not a 64-bit ELF). */
int elf_interpreter(const char *path, char *interp, size_t size, char *err, size_t errsz);

#endif
