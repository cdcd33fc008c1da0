/* In-memory cpio newc initramfs (initramfs.h). */
#include "initramfs.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

static void pad4(struct buf *b)
{
	static const char zeros[4];
	size_t r = b->len % 4;
	if (r)
		buf_append(b, zeros, 4 - r);
}

static void entry(struct initramfs *ir, const char *name, mode_t mode, const void *data,
		  size_t len, unsigned rmajor, unsigned rminor)
{
	size_t namesize = strlen(name) + 1;
	buf_printf(&ir->data,
		   "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08zX%08X",
		   ++ir->ino, (unsigned)mode, 0u, 0u, 1u, 0u, (unsigned)len, 0u, 0u, rmajor,
		   rminor, namesize, 0u);
	buf_append(&ir->data, name, namesize);
	pad4(&ir->data);
	if (len) {
		buf_append(&ir->data, data, len);
		pad4(&ir->data);
	}
}

/* true (and remembered) the first time path is seen. */
static bool claim(struct initramfs *ir, const char *path)
{
	for (size_t i = 0; i < ir->n_paths; i++)
		if (!strcmp(ir->paths[i], path))
			return false;
	ir->paths = xrealloc(ir->paths, (ir->n_paths + 1) * sizeof(*ir->paths));
	ir->paths[ir->n_paths++] = xstrdup(path);
	return true;
}

/* Strip leading slashes; add missing parents of name. */
static const char *prepare(struct initramfs *ir, const char *path)
{
	while (*path == '/')
		path++;
	char *copy = xstrdup(path);
	for (char *p = strchr(copy, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (claim(ir, copy))
			entry(ir, copy, S_IFDIR | 0755, NULL, 0, 0, 0);
		*p = '/';
	}
	free(copy);
	return path;
}

void initramfs_add_dir(struct initramfs *ir, const char *path, mode_t mode)
{
	path = prepare(ir, path);
	if (*path && claim(ir, path))
		entry(ir, path, S_IFDIR | (mode & 07777), NULL, 0, 0, 0);
}

void initramfs_add_file(struct initramfs *ir, const char *path, const void *data, size_t len,
			mode_t mode)
{
	path = prepare(ir, path);
	if (claim(ir, path))
		entry(ir, path, S_IFREG | (mode & 07777), data, len, 0, 0);
}

void initramfs_add_symlink(struct initramfs *ir, const char *path, const char *target)
{
	path = prepare(ir, path);
	if (claim(ir, path))
		entry(ir, path, S_IFLNK | 0777, target, strlen(target), 0, 0);
}

void initramfs_add_node(struct initramfs *ir, const char *path, mode_t mode, unsigned major,
			unsigned minor)
{
	path = prepare(ir, path);
	if (claim(ir, path))
		entry(ir, path, mode, NULL, 0, major, minor);
}

static int slurp(const char *path, struct buf *b, struct stat *st, char *err, size_t errsz)
{
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, st)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_append(b, chunk, (size_t)n);
	close(fd);
	if (n < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int initramfs_add_host_file(struct initramfs *ir, const char *path, const char *host_path,
			    char *err, size_t errsz)
{
	struct buf b = {0};
	struct stat st;

	if (slurp(host_path, &b, &st, err, errsz)) {
		buf_free(&b);
		return -1;
	}
	initramfs_add_file(ir, path, b.data, b.len, st.st_mode);
	buf_free(&b);
	return 0;
}

int initramfs_add_host_tree(struct initramfs *ir, const char *path, const char *host_path,
			    char *err, size_t errsz)
{
	struct stat st;
	if (lstat(host_path, &st)) {
		snprintf(err, errsz, "%s: %s", host_path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(host_path, target, sizeof(target) - 1);
		if (n < 0) {
			snprintf(err, errsz, "%s: %s", host_path, strerror(errno));
			return -1;
		}
		target[n] = '\0';
		initramfs_add_symlink(ir, path, target);
		return 0;
	}
	if (S_ISREG(st.st_mode))
		return initramfs_add_host_file(ir, path, host_path, err, errsz);
	if (!S_ISDIR(st.st_mode))
		return 0;
	initramfs_add_dir(ir, path, st.st_mode);
	DIR *d = opendir(host_path);
	if (!d) {
		snprintf(err, errsz, "%s: %s", host_path, strerror(errno));
		return -1;
	}
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *g = xasprintf("%s/%s", path, de->d_name);
		char *h = xasprintf("%s/%s", host_path, de->d_name);
		rc = initramfs_add_host_tree(ir, g, h, err, errsz);
		free(g);
		free(h);
	}
	closedir(d);
	return rc;
}

int elf_interpreter(const char *path, char *interp, size_t size, char *err, size_t errsz)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = -1;

	interp[0] = '\0';
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		snprintf(err, errsz, "%s: not a 64-bit ELF program", path);
		goto out;
	}
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize)) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz == 0 || ph.p_filesz >= size ||
		    pread(fd, interp, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
			snprintf(err, errsz, "%s: bad PT_INTERP", path);
			goto out;
		}
		interp[ph.p_filesz] = '\0';
		break;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

/* Run argv (no shell; spawn_which finds argv[0]), its stdout appended to
 * out; stderr goes to /dev/null. Returns the exit status (or -1 when it
 * could not run / was killed). */
static int capture(char *const *argv, struct buf *out)
{
	char err[256];
	struct spawn c = {.argv = argv, .in.kind = SPAWN_NULL, .out.kind = SPAWN_PIPE,
			  .err.kind = SPAWN_NULL};
	if (spawn_run(&c, err, sizeof(err)))
		return -1;
	if (c.out_text.len)
		buf_append(out, c.out_text.data, c.out_text.len);
	spawn_free(&c);
	return WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1;
}

int initramfs_add_program(struct initramfs *ir, const char *path, const char *host_path,
			  char *err, size_t errsz)
{
	char interp[PATH_MAX];
	struct buf out = {0};
	int rc = -1;

	if (elf_interpreter(host_path, interp, sizeof(interp), err, errsz) ||
	    initramfs_add_host_file(ir, path, host_path, err, errsz))
		return -1;
	if (!interp[0])
		return 0;
	/* What ldd does: the dynamic loader lists what it would map. */
	char *argv[] = {interp, "--list", (char *)host_path, NULL};
	int status = capture(argv, &out);
	if (status != 0) {
		snprintf(err, errsz, "%s --list %s failed (status %d)", interp, host_path, status);
		goto out;
	}
	if (initramfs_add_host_file(ir, interp, interp, err, errsz))
		goto out;
	char *save = NULL;
	for (char *line = strtok_r(out.data ? out.data : (char[]){0}, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)",
		 * "\t/lib64/ld-linux-x86-64.so.2 (0x...)", "\tlinux-vdso.so.1 (0x...)",
		 * "\tlibx.so.1 => not found" */
		char *arrow = strstr(line, "=> ");
		char *p = arrow ? arrow + 3 : line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (arrow && !strncmp(p, "not found", 9)) {
			*arrow = '\0';
			char *name = line;
			while (*name == ' ' || *name == '\t')
				name++;
			snprintf(err, errsz, "%s needs %.*s, which is not found on this machine",
				 host_path, (int)strcspn(name, " "), name);
			goto out;
		}
		if (*p != '/')
			continue;
		p[strcspn(p, " (")] = '\0';
		if (initramfs_add_host_file(ir, p, p, err, errsz))
			goto out;
	}
	rc = 0;
out:
	buf_free(&out);
	return rc;
}

/* Compressed modules (CONFIG_MODULE_COMPRESS_*: Debian's 6.12 packages
 * ship .ko.xz) and the program that decompresses each to stdout. */
static const struct {
	const char *suffix, *tool;
} module_codecs[] = {{".ko.xz", "xz"}, {".ko.zst", "zstd"}, {".ko.gz", "gzip"}};

/* The decompressor of a module file name, NULL for a plain .ko, "" when
 * the name is no module at all. */
static const char *module_codec(const char *file)
{
	size_t len = strlen(file);
	if (len > 3 && !strcmp(file + len - 3, ".ko"))
		return NULL;
	for (size_t i = 0; i < sizeof(module_codecs) / sizeof(module_codecs[0]); i++) {
		size_t ls = strlen(module_codecs[i].suffix);
		if (len > ls && !strcmp(file + len - ls, module_codecs[i].suffix))
			return module_codecs[i].tool;
	}
	return "";
}

static bool is_module_file(const char *file)
{
	const char *codec = module_codec(file);
	return !codec || *codec;
}

/* Module name as the kernel knows it: basename, no ".ko" (nor what follows
 * it), '-' -> '_'. */
static char *mod_name(const char *file)
{
	const char *base = strrchr(file, '/');
	char *name = xstrdup(base ? base + 1 : file);
	char *dot = strstr(name, ".ko");
	if (dot)
		*dot = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

struct modfile {
	char *name, *rel;
};

static void scan_modules(const char *root, const char *rel, struct modfile **v, size_t *n)
{
	char *dir = xasprintf("%s/%s", root, rel);
	DIR *d = opendir(dir);
	struct dirent *de;

	free(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *sub = rel[0] ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		size_t len = strlen(de->d_name);
		if (de->d_type == DT_DIR) {
			scan_modules(root, sub, v, n);
			free(sub);
		} else if (len > 3 && is_module_file(de->d_name)) {
			*v = xrealloc(*v, (*n + 1) * sizeof(**v));
			(*v)[(*n)++] = (struct modfile){mod_name(de->d_name), sub};
		} else {
			free(sub);
		}
	}
	if (d)
		closedir(d);
}

/* The module file at path into b, decompressed (module_codec) when it is
 * compressed. Returns 0 or -1 with err. */
static int read_module(const char *path, struct buf *b, char *err, size_t errsz)
{
	struct stat st;
	const char *tool = module_codec(path);
	if (!tool)
		return slurp(path, b, &st, err, errsz);
	char *argv[] = {(char *)tool, "-dc", (char *)path, NULL};
	int status = capture(argv, b);
	if (status != 0 || !b->len) {
		snprintf(err, errsz, "%s -dc %s failed (status %d): install %s", tool, path, status,
			 !strcmp(tool, "xz") ? "xz-utils" : tool);
		return -1;
	}
	return 0;
}

/* The "depends=" value of the .modinfo section of the module in b ("" when
 * none); path names it in messages. */
static int mod_depends(const struct buf *bp, const char *path, char *deps, size_t size, char *err,
		       size_t errsz)
{
	const struct buf b = *bp;
	int rc = -1;

	deps[0] = '\0';
	const Elf64_Ehdr *eh = (const void *)b.data;
	if (b.len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > b.len ||
	    eh->e_shstrndx >= eh->e_shnum) {
		snprintf(err, errsz, "%s: not a 64-bit ELF module", path);
		goto out;
	}
	const Elf64_Shdr *sh = (const void *)(b.data + eh->e_shoff);
	const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size || strs->sh_offset + strs->sh_size > b.len ||
		    sh[i].sh_offset + sh[i].sh_size > b.len)
			continue;
		if (strcmp(b.data + strs->sh_offset + sh[i].sh_name, ".modinfo"))
			continue;
		const char *p = b.data + sh[i].sh_offset, *end = p + sh[i].sh_size;
		while (p < end) {
			size_t len = strnlen(p, (size_t)(end - p));
			if (len > 8 && !strncmp(p, "depends=", 8))
				snprintf(deps, size, "%.*s", (int)(len - 8), p + 8);
			p += len + 1;
		}
	}
	rc = 0;
out:
	return rc;
}

static int add_module(struct initramfs *ir, const char *modroot, const char *guest_modroot,
		      const struct modfile *mods, size_t nmods, const char *want, bool *added,
		      int depth, struct argv *order, char *err, size_t errsz)
{
	char *name = mod_name(want);
	size_t k;
	for (k = 0; k < nmods && strcmp(mods[k].name, name); k++)
		;
	free(name);
	if (k == nmods || added[k])
		return 0; /* built in, or done */
	if (depth > 32) {
		snprintf(err, errsz, "module dependencies of %s loop", want);
		return -1;
	}
	added[k] = true;
	char deps[1024];
	struct buf mod = {0};
	char *host = xasprintf("%s/%s", modroot, mods[k].rel);
	int rc = read_module(host, &mod, err, errsz);
	if (!rc)
		rc = mod_depends(&mod, host, deps, sizeof(deps), err, errsz);
	char *save = NULL;
	for (char *d = strtok_r(deps, ",", &save); d && !rc; d = strtok_r(NULL, ",", &save))
		rc = add_module(ir, modroot, guest_modroot, mods, nmods, d, added, depth + 1, order,
				err, errsz);
	/* The guest gets it decompressed: a plain .ko at the same place. */
	char *guest = xasprintf("%s/%s", guest_modroot, mods[k].rel);
	char *ko = strstr(guest, ".ko");
	if (ko)
		ko[3] = '\0';
	if (!rc) {
		initramfs_add_file(ir, guest, mod.data, mod.len, 0644);
		argv_add(order, guest);
	}
	buf_free(&mod);
	free(guest);
	free(host);
	return rc;
}

int initramfs_add_modules(struct initramfs *ir, const char *modroot, const char *guest_modroot,
			  const char *const *names, size_t n, struct argv *order, char *err,
			  size_t errsz)
{
	struct modfile *mods = NULL;
	size_t nmods = 0;
	int rc = 0;

	scan_modules(modroot, "", &mods, &nmods);
	bool *added = xcalloc(nmods ? nmods : 1, sizeof(*added));
	for (size_t i = 0; i < n && !rc; i++)
		rc = add_module(ir, modroot, guest_modroot, mods, nmods, names[i], added, 0, order,
				err, errsz);
	for (size_t i = 0; i < nmods; i++) {
		free(mods[i].name);
		free(mods[i].rel);
	}
	free(mods);
	free(added);
	return rc;
}

int initramfs_write(struct initramfs *ir, const char *path, char *err, size_t errsz)
{
	entry(ir, "TRAILER!!!", 0, NULL, 0, 0, 0);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(ir->data.data, 1, ir->data.len, f) != ir->data.len) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if (fclose(f)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void initramfs_free(struct initramfs *ir)
{
	buf_free(&ir->data);
	for (size_t i = 0; i < ir->n_paths; i++)
		free(ir->paths[i]);
	free(ir->paths);
	memset(ir, 0, sizeof(*ir));
}
