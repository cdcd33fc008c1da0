/* Kernel images and initramfs for booted variants (guest_image.h). */
#include "guest_image.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_binary.h"
#include "agent_host.h"
#include "cache.h"
#include "initramfs.h"
#include "kernel_btf.h"
#include "load.h"
#include "preflight.h"
#include "spawn.h"

#define BUSYBOX_PATH "/bin/busybox"
#define GUEST_MODROOT "/lib/modules/schedrig"

/* What scripts packed for loads (mariadb-install-db, a kernel build's
 * Makefiles) run besides the programs packed for them, in a guest that
 * needs a shell (guestpack_needs_shell). */
static const char *const busybox_applets[] = {
	"sh", "mount", "umount", "mkdir", "cat", "echo", "ls", "sleep", "usleep", "sync",
	"poweroff", "reboot", "dmesg", "ps", "kill", "uname", "ip", "insmod", "chmod", "chown",
	"cp", "mv", "rm", "rmdir", "ln", "touch", "sed", "grep", "awk", "tr", "cut", "head",
	"tail", "wc", "sort", "uniq", "basename", "dirname", "readlink", "realpath", "expr",
	"test", "[", "true", "false", "printf", "env", "xargs", "find", "diff", "cmp", "id",
	"whoami", "hostname", "date", "mktemp", "bc", "stat", "tee", "seq", "nproc", "which",
	"od", "dd", "du", "df", NULL,
};

/* Modules the guest needs (none when built in): the agent channel, and the
 * pvpanic device's driver, which tells qemu of a panic (boot: qemu's
 * start_qemu; a device without one has nothing for it to bind to). */
static const char *const channel_modules[] = {"virtio_pci", "virtio_console", "pvpanic_pci"};
/* And for its scratch disk: ext4 on virtio-blk (ext4 asks the crypto API for
 * crc32c at every mount, which has no module loader in the guest). */
static const char *const scratch_modules[] = {"virtio_pci", "virtio_blk", "crc32c_generic", "ext4"};

/* And for this machine's /usr over virtio-9p. */
static const char *const host_usr_modules[] = {"virtio_pci", "9pnet_virtio", "9p"};

/* A guest's accounts and names: mariadbd --user=root looks root up. */
static const char guest_passwd[] = "root:x:0:0:root:/root:/bin/sh\n";
static const char guest_group[] = "root:x:0:\n";
static const char guest_hosts[] = "127.0.0.1 localhost\n::1 localhost\n";

/* Run argv in dir (NULL: here) without a shell, stdout to out_path and
 * stderr there too (with_stderr) or to /dev/null; wait. Returns the exit
 * status, -1 when it could not run or was killed by a signal. */
static int run_tool(char *const *argv, const char *dir, const char *out_path, bool with_stderr)
{
	char err[256];
	struct spawn t = {.argv = argv, .dir = dir, .in.kind = SPAWN_NULL,
			  .out = {.kind = SPAWN_FILE, .path = out_path},
			  .err.kind = with_stderr ? SPAWN_STDOUT : SPAWN_NULL,
			  .pdeath_sig = SIGKILL};
	if (spawn_run(&t, err, sizeof(err)))
		return -1;
	return WIFEXITED(t.status) ? WEXITSTATUS(t.status) : -1;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_package_name(const char *s)
{
	if (!(s[0] >= 'a' && s[0] <= 'z') && !(s[0] >= '0' && s[0] <= '9'))
		return false;
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789+.-", *p))
			return false;
	return strlen(s) >= 2;
}

static void prefer_pvh_vmlinux(struct kernel_image *k);

/* Extract a linux-image .deb into cache/kernels/NAME/ (once) and find its
 * vmlinuz and module tree. */
static int kernel_from_deb(const char *deb, const char *cache, struct kernel_image *k,
			   char *err, size_t errsz)
{
	const char *base = strrchr(deb, '/') ? strrchr(deb, '/') + 1 : deb;
	char *dir = xasprintf("%s/kernels/%.*s", cache, (int)(strlen(base) - 4), base);
	char *done = xasprintf("%s/.extracted", dir);
	int rc = -1;

	if (!is_file(done)) {
		char *tmp = xasprintf("%s.tmp.%d", dir, (int)getpid());
		char *log = xasprintf("%s.log", dir);
		char *argv[] = {"dpkg-deb", "-x", (char *)deb, tmp, NULL};
		if (mkdir_p(tmp, err, errsz)) {
			free(tmp);
			free(log);
			goto out;
		}
		int status = run_tool(argv, NULL, log, true);
		if (status != 0) {
			char why[256];
			file_last_line(log, why, sizeof(why));
			snprintf(err, errsz, "dpkg-deb -x %s failed (status %d): %s", deb, status, why);
			free(tmp);
			free(log);
			goto out;
		}
		char *rmargv[] = {"rm", "-rf", dir, NULL};
		run_tool(rmargv, NULL, "/dev/null", true);
		if (rename(tmp, dir)) {
			snprintf(err, errsz, "rename %s: %s", tmp, strerror(errno));
			free(tmp);
			free(log);
			goto out;
		}
		FILE *f = fopen(done, "w");
		if (f)
			fclose(f);
		unlink(log);
		free(tmp);
		free(log);
	}
	char *boot = xasprintf("%s/boot", dir);
	int found = newest_file(boot, "vmlinuz-", "", k->vmlinuz, sizeof(k->vmlinuz));
	free(boot);
	if (found) {
		snprintf(err, errsz, "%s holds no boot/vmlinuz-* (not a linux-image package?)", deb);
		goto out;
	}
	snprintf(k->release, sizeof(k->release), "%s", strrchr(k->vmlinuz, '/') + 9);
	snprintf(k->deb, sizeof(k->deb), "%s", deb);
	snprintf(k->bzimage, sizeof(k->bzimage), "%s", k->vmlinuz);
	prefer_pvh_vmlinux(k);
	const char *const roots[] = {"lib/modules", "usr/lib/modules"};
	for (size_t i = 0; i < 2 && !k->modroot[0]; i++) {
		char *m = xasprintf("%s/%s/%s", dir, roots[i], k->release);
		struct stat st;
		if (stat(m, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(k->modroot, sizeof(k->modroot), "%s", m);
		free(m);
	}
	rc = 0;
out:
	free(dir);
	free(done);
	return rc;
}

/* A packaged kernel built with CONFIG_PVH boots from its uncompressed ELF
 * vmlinux without the bzImage decompressor, which takes 10-20 s under TCG.
 * The payload is found by the x86 boot protocol header of the bzImage
 * (Documentation/arch/x86/boot.rst: setup_sects at 0x1f1, payload_offset
 * at 0x248 and payload_length at 0x24c, relative to the protected-mode code
 * at (setup_sects + 1) * 512) and decompressed by xz, gzip or zstd (as
 * scripts/extract-vmlinux does). The result is cached beside the package;
 * on any problem the bzImage is used as it is. */
static void prefer_pvh_vmlinux(struct kernel_image *k)
{
	char *dir = xstrdup(k->vmlinuz);
	*strrchr(dir, '/') = '\0'; /* .../boot */
	char *config = xasprintf("%s/config-%s", dir, k->release);
	char *elf = xasprintf("%s/vmlinux-pvh-%s", dir, k->release);
	char *payload = xasprintf("%s/payload.tmp", dir);
	char *tmp = xasprintf("%s.tmp", elf);
	struct buf img = {0};
	char line[256];
	bool pvh = false;
	FILE *f;

	if (is_file(elf))
		goto use;
	if (!(f = fopen(config, "r")))
		goto out;
	while (fgets(line, sizeof(line), f))
		pvh |= !strcmp(line, "CONFIG_PVH=y\n");
	fclose(f);
	if (!pvh || !(f = fopen(k->vmlinuz, "rb")))
		goto out;
	size_t n;
	char chunk[65536];
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&img, chunk, n);
	fclose(f);
	if (img.len < 0x250)
		goto out;
	const unsigned char *b = (const unsigned char *)img.data;
	size_t setup = ((size_t)(b[0x1f1] ? b[0x1f1] : 4) + 1) * 512;
	size_t off = (size_t)b[0x248] | (size_t)b[0x249] << 8 | (size_t)b[0x24a] << 16 |
		     (size_t)b[0x24b] << 24;
	size_t len = (size_t)b[0x24c] | (size_t)b[0x24d] << 8 | (size_t)b[0x24e] << 16 |
		     (size_t)b[0x24f] << 24;
	if (setup + off + len > img.len || len < 8)
		goto out;
	const unsigned char *p = b + setup + off;
	const char *tool = !memcmp(p, "\xfd" "7zXZ", 5) ? "xz" :
			   !memcmp(p, "\x1f\x8b", 2) ? "gzip" :
			   !memcmp(p, "\x28\xb5\x2f\xfd", 4) ? "zstd" : NULL;
	if (!tool || !(f = fopen(payload, "wb")))
		goto out;
	bool written = fwrite(p, 1, len, f) == len;
	if (fclose(f) || !written)
		goto out;
	/* xz and gzip complain about the bytes after the stream: the output
	 * is checked instead of the exit status. */
	char *argv[] = {(char *)tool, "-dc", payload, NULL};
	run_tool(argv, NULL, tmp, false);
	char interp[8], why[128];
	if (elf_interpreter(tmp, interp, sizeof(interp), why, sizeof(why)) == 0 &&
	    rename(tmp, elf) == 0)
		goto use;
	goto out;
use:
	snprintf(k->vmlinuz, sizeof(k->vmlinuz), "%s", elf);
out:
	unlink(payload);
	unlink(tmp);
	buf_free(&img);
	free(dir);
	free(config);
	free(elf);
	free(payload);
	free(tmp);
}

/* true when path starts like a kernel qemu can boot: an x86 bzImage (the
 * boot protocol's "HdrS" at offset 0x202, Documentation/arch/x86/boot.rst)
 * or an ELF vmlinux (PVH entry). */
static bool is_kernel_image(const char *path)
{
	unsigned char head[0x206];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head), f) : 0;
	if (f)
		fclose(f);
	return (n >= 4 && !memcmp(head, "\x7f" "ELF", 4)) ||
	       (n == sizeof(head) && !memcmp(head + 0x202, "HdrS", 4));
}

int guest_kernel_resolve(const char *kernel, const char *cache, struct kernel_image *k,
			 char *err, size_t errsz)
{
	size_t len = strlen(kernel);

	memset(k, 0, sizeof(*k));
	if (is_file(kernel)) {
		if (len > 4 && !strcmp(kernel + len - 4, ".deb"))
			return kernel_from_deb(kernel, cache, k, err, errsz);
		if (!is_kernel_image(kernel)) {
			snprintf(err, errsz, "%s is neither a bzImage, an ELF vmlinux nor a .deb",
				 kernel);
			return -1;
		}
		snprintf(k->vmlinuz, sizeof(k->vmlinuz), "%s", kernel);
		snprintf(k->bzimage, sizeof(k->bzimage), "%s", kernel);
		return 0;
	}
	if (strchr(kernel, '/') || !is_package_name(kernel)) {
		snprintf(err, errsz, "%s: no such file, and not a Debian package name", kernel);
		return -1;
	}
	char *debs = xasprintf("%s/debs", cache);
	char *prefix = xasprintf("%s_", kernel);
	char deb[PATH_MAX];
	int rc = -1;
	if (mkdir_p(debs, err, errsz))
		goto out;
	if (newest_file(debs, prefix, ".deb", deb, sizeof(deb))) {
		char *log = xasprintf("%s/apt-get-download.log", debs);
		char *argv[] = {"apt-get", "download", "-q", (char *)kernel, NULL};
		int status = run_tool(argv, debs, log, true);
		if (status != 0 || newest_file(debs, prefix, ".deb", deb, sizeof(deb))) {
			char why[256];
			file_last_line(log, why, sizeof(why));
			snprintf(err, errsz,
				 "apt-get download %s failed (status %d): %s (run apt-get update?)",
				 kernel, status, why);
			free(log);
			goto out;
		}
		free(log);
	}
	rc = kernel_from_deb(deb, cache, k, err, errsz);
out:
	free(debs);
	free(prefix);
	return rc;
}

/* The guest's modules: the agent channel's, and the scratch disk's and
 * 9p's when gc needs them; order receives them in load order, and so does
 * the list the guest's init loads (GUEST_MODULES). */
static int add_modules(struct initramfs *ir, const struct kernel_image *k,
		       const struct guest_contents *gc, struct argv *order, char *err, size_t errsz)
{
	if (!k->modroot[0])
		return 0;
	char *groot = xasprintf("%s/%s", GUEST_MODROOT, k->release);
	int r = initramfs_add_modules(ir, k->modroot, groot, channel_modules,
				      sizeof(channel_modules) / sizeof(channel_modules[0]), order,
				      err, errsz);
	if (!r && gc->scratch)
		r = initramfs_add_modules(ir, k->modroot, groot, scratch_modules,
					  sizeof(scratch_modules) / sizeof(scratch_modules[0]), order,
					  err, errsz);
	if (!r && gc->host_usr)
		r = initramfs_add_modules(ir, k->modroot, groot, host_usr_modules,
					  sizeof(host_usr_modules) / sizeof(host_usr_modules[0]), order,
					  err, errsz);
	free(groot);
	struct buf list = {0};
	for (size_t i = 0; i < order->n; i++)
		buf_printf(&list, "%s\n", order->v[i]);
	initramfs_add_file(ir, GUEST_MODULES, buf_str(&list), list.len, 0644);
	buf_free(&list);
	return r;
}

/* The kernel's config beside its image (a package's boot/config-RELEASE)
 * as the guest's /boot/config-RELEASE: Debian's kernels have no
 * /proc/config.gz, and the guest's fingerprint hashes the config it runs
 * (hostfp.h kernel.config_sha256). None beside the image: nothing added. */
static int add_kernel_config(struct initramfs *ir, const struct kernel_image *k, char *err,
			     size_t errsz)
{
	if (!k->release[0])
		return 0;
	char *dir = xstrdup(k->bzimage), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *host = xasprintf("%s/config-%s", slash ? dir : ".", k->release);
	char *guest = xasprintf("/boot/config-%s", k->release);
	int rc = access(host, R_OK) ? 0 : initramfs_add_host_file(ir, guest, host, err, errsz);
	free(host);
	free(guest);
	free(dir);
	return rc;
}

/* /etc of the guest: accounts, names, the marks the init reads, the binds. */
static void add_etc(struct initramfs *ir, const struct guest_contents *gc)
{
	initramfs_add_file(ir, "/etc/passwd", guest_passwd, strlen(guest_passwd), 0644);
	initramfs_add_file(ir, "/etc/group", guest_group, strlen(guest_group), 0644);
	initramfs_add_file(ir, "/etc/hosts", guest_hosts, strlen(guest_hosts), 0644);
	if (gc->scratch)
		initramfs_add_file(ir, GUEST_SCRATCH_MARK, "", 0, 0644);
	if (gc->host_usr)
		initramfs_add_file(ir, GUEST_HOST_USR_MARK, "", 0, 0644);
	struct buf binds = {0};
	guestpack_binds(gc, &binds);
	if (binds.len)
		initramfs_add_file(ir, GUEST_BINDS, binds.data, binds.len, 0644);
	buf_free(&binds);
}

/* busybox-static as /bin/sh and the commands scripts run. 0, or -1 with
 * err (missing, or not static). */
static int add_busybox(struct initramfs *ir, char *err, size_t errsz)
{
	char interp[PATH_MAX];
	if (elf_interpreter(BUSYBOX_PATH, interp, sizeof(interp), err, errsz))
		return err_printf(err, errsz, "%s is missing: install busybox-static", BUSYBOX_PATH);
	if (interp[0])
		return err_printf(err, errsz, "%s is not static: install busybox-static", BUSYBOX_PATH);
	if (initramfs_add_host_file(ir, "/bin/busybox", BUSYBOX_PATH, err, errsz))
		return -1;
	for (size_t i = 0; busybox_applets[i]; i++) {
		char *p = xasprintf("/bin/%s", busybox_applets[i]);
		initramfs_add_symlink(ir, p, "busybox");
		free(p);
	}
	return 0;
}

/* Build the rig's own archive (without initrd:) at path. */
static int build_archive(const struct variant_run *vr, const struct kernel_image *k,
			 const struct guest_contents *gc, const char *agent_out, const char *path,
			 char *err, size_t errsz)
{
	struct initramfs ir = {0};
	struct argv modules = {0};
	char agent[PATH_MAX];
	int rc = -1;

	static const char *const dirs[] = {"/bin", "/sbin", "/usr/bin", "/usr/sbin",
					   "/usr/local/bin", "/proc", "/sys", "/dev", "/tmp",
					   "/run", "/etc/schedrig", NULL};
	for (size_t i = 0; dirs[i]; i++)
		initramfs_add_dir(&ir, dirs[i], 0755);
	initramfs_add_node(&ir, "/dev/console", S_IFCHR | 0600, 5, 1);
	initramfs_add_node(&ir, "/dev/null", S_IFCHR | 0666, 1, 3);

	if (guestpack_needs_shell(gc) && add_busybox(&ir, err, errsz))
		goto out;
	/* The init the kernel runs is the agent (agent_init.h). */
	if (agent_binary_find(vr->self_exe, agent, sizeof(agent), err, errsz) ||
	    initramfs_add_program(&ir, GUEST_AGENT, agent, err, errsz) ||
	    guestpack_add(gc, &ir, err, errsz) || add_modules(&ir, k, gc, &modules, err, errsz) ||
	    add_kernel_config(&ir, k, err, errsz))
		goto out;
	initramfs_add_symlink(&ir, GUEST_INIT, GUEST_AGENT);
	add_etc(&ir, gc);
	char *plan = agent_host_plan(vr, &modules);
	initramfs_add_file(&ir, GUEST_PLAN, plan, strlen(plan), 0644);
	free(plan);
	initramfs_add_file(&ir, GUEST_AGENT_OUT, agent_out, strlen(agent_out), 0644);
	rc = initramfs_write(&ir, path, err, errsz);
out:
	argv_free(&modules);
	initramfs_free(&ir);
	return rc;
}

int guest_initramfs_build(const struct variant_run *vr, const struct kernel_image *k,
			  const struct guest_contents *gc, const char *agent_out, const char *path,
			  char *err, size_t errsz)
{
	if (build_archive(vr, k, gc, agent_out, path, err, errsz))
		return -1;
	/* The kernel unpacks concatenated archives in order. */
	return vr->v->initrd ? file_copy(vr->v->initrd, path, true, err, errsz) : 0;
}

int guest_kernel_locked(const char *kernel, struct kernel_image *k, char *err, size_t errsz)
{
	int lock = cache_lock(err, errsz);
	if (lock < 0)
		return -1;
	int rc = guest_kernel_resolve(kernel, cache_root(), k, err, errsz);
	close(lock);
	return rc;
}

/* The value of field name in dpkg-deb --field's output text ("Name:
 * value" lines), malloc'd, or NULL. */
static char *control_field(const char *text, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
		if (strncmp(p, name, len) || p[len] != ':')
			continue;
		const char *v = p + len + 1 + strspn(p + len + 1, " ");
		return xasprintf("%.*s", (int)strcspn(v, "\n"), v);
	}
	return NULL;
}

int guest_kernel_package(const char *kernel, char **package, char **version, char *err,
			 size_t errsz)
{
	struct kernel_image k;
	size_t len = strlen(kernel);
	if (is_file(kernel) && !(len > 4 && !strcmp(kernel + len - 4, ".deb")))
		return 1;
	if (guest_kernel_locked(kernel, &k, err, errsz))
		return -1;
	char *argv[] = {"dpkg-deb", "--field", k.deb, "Package", "Version", NULL};
	struct spawn t = {.argv = argv, .in.kind = SPAWN_NULL, .out.kind = SPAWN_PIPE,
			  .err.kind = SPAWN_NULL, .pdeath_sig = SIGKILL};
	char why[256];
	int rc = -1;
	*package = *version = NULL;
	if (spawn_run(&t, why, sizeof(why))) {
		snprintf(err, errsz, "%s", why);
	} else {
		*package = control_field(buf_str(&t.out_text), "Package");
		*version = control_field(buf_str(&t.out_text), "Version");
		rc = WIFEXITED(t.status) && !WEXITSTATUS(t.status) && *package && *version ? 0 : -1;
		if (rc) {
			snprintf(err, errsz, "dpkg-deb --field %s Package Version: no Package and"
				 " Version fields", k.deb);
			free(*package);
			free(*version);
			*package = *version = NULL;
		}
	}
	spawn_free(&t);
	return rc;
}

/* A problem for each load of p that needs the scratch disk or this
 * machine's /usr, for a backend that gives neither. Returns 0 when none does. */
static int refuse_disk_and_usr(const struct plan *p, struct argv *problems)
{
	struct argv seen = {0};
	for (size_t c = 0; c < p->n_cells; c++)
		for (size_t i = 0; i < p->cells[c].n_inst; i++) {
			const struct cfg_load *l = p->cells[c].inst[i].load;
			const struct load_needs *n = &l->ops->needs;
			bool known = false;
			for (size_t j = 0; j < seen.n && !known; j++)
				known = !strcmp(seen.v[j], l->name);
			if (known || (!n->scratch && !n->host_usr))
				continue;
			argv_add(&seen, l->name);
			argv_add(problems, l->name);
			argv_addf(problems, "needs %s%s%s, which only a boot: qemu guest gets",
				  n->scratch ? "a scratch disk (a disk-backed working directory)" : "",
				  n->scratch && n->host_usr ? " and " : "",
				  n->host_usr ? "this machine's /usr (its toolchain over virtio-9p)" : "");
		}
	int rc = seen.n ? -1 : 0;
	argv_free(&seen);
	return rc;
}

int guest_contents_collect(const struct plan *p, bool prepare, bool disk_and_usr,
			   struct guest_contents *gc, struct argv *problems)
{
	/* Nothing is prepared (kernbench's tree: minutes) for a plan refused. */
	struct argv lacking = {0};
	bool refused = !disk_and_usr && refuse_disk_and_usr(p, &lacking);
	int rc = guestpack_collect(p, prepare && !refused, gc, problems);
	for (size_t i = 0; i < lacking.n; i++)
		argv_add(problems, lacking.v[i]);
	argv_free(&lacking);
	return refused ? -1 : rc;
}

int guest_contents_prepare(const struct plan *p, bool disk_and_usr, struct guest_contents *gc,
			   char *err, size_t errsz)
{
	struct argv problems = {0};
	int rc = guest_contents_collect(p, true, disk_and_usr, gc, &problems);
	size_t len = 0;
	err[0] = '\0';
	for (size_t i = 0; rc && i + 1 < problems.n && len < errsz; i += 2) {
		snprintf(err + len, errsz - len, "%sload %s: %s", i ? "; " : "", problems.v[i],
			 problems.v[i + 1]);
		len = strlen(err);
	}
	argv_free(&problems);
	return rc;
}

/* The kernel's config file ("" when none is known): config-RELEASE beside
 * a package's image, or the .config of the tree a bzImage was built in
 * (ARCH/x86/boot/bzImage: three levels up), and the ELF image whose BTF
 * tells what the kernel has: the package's PVH vmlinux, the tree's vmlinux. */
static void kernel_facts(const struct kernel_image *k, char *config, char *elf, size_t size)
{
	char *dir = xstrdup(k->vmlinuz), interp[8], why[128];
	*strrchr(dir, '/') = '\0';
	config[0] = elf[0] = '\0';
	if (elf_interpreter(k->vmlinuz, interp, sizeof(interp), why, sizeof(why)) == 0)
		snprintf(elf, size, "%s", k->vmlinuz);
	char *pkg = xasprintf("%s/config-%s", dir, k->release);
	if (k->release[0] && is_file(pkg))
		snprintf(config, size, "%s", pkg);
	free(pkg);
	for (int up = 0; up < 4 && !config[0]; up++) {
		struct buf tree = {0};
		buf_puts(&tree, dir);
		for (int i = 0; i < up; i++)
			buf_puts(&tree, "/..");
		char *c = xasprintf("%s/.config", buf_str(&tree));
		char *v = xasprintf("%s/vmlinux", buf_str(&tree));
		if (is_file(c)) {
			snprintf(config, size, "%s", c);
			if (!elf[0] && is_file(v))
				snprintf(elf, size, "%s", v);
		}
		free(c);
		free(v);
		buf_free(&tree);
	}
	free(dir);
}

/* CONFIG_NAME of the config file: 'y', 'm', or 0 (not set). */
static char config_value(const char *config, const char *name)
{
	char line[512], *want = xasprintf("CONFIG_%s=", name);
	char value = 0;
	FILE *f = fopen(config, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)))
			value = line[strlen(want)];
	if (f)
		fclose(f);
	free(want);
	return value == 'y' || value == 'm' ? value : 0;
}

/* Options a guest needs for what its loads need (none: the agent channel
 * falls back to the serial port). */
static void check_config(struct preflight *pf, const struct cfg_variant *v,
			 const struct kernel_image *k, const char *config, const char *load,
			 const char *const *options, const char *what)
{
	for (size_t i = 0; load && options[i]; i++) {
		char c = config_value(config, options[i]);
		if (!c)
			preflight_refuse(pf, v->name, load, "%s needs CONFIG_%s, which kernel %s lacks (%s)",
					 what, options[i], k->release[0] ? k->release : v->kernel, config);
		else if (c == 'm' && !k->modroot[0])
			preflight_refuse(pf, v->name, load, "%s needs CONFIG_%s, a module in kernel %s,"
					 " which comes without modules", what, options[i], v->kernel);
	}
}

/* latency_nice and sched_features, from the kernel's BTF. */
static void check_btf(struct preflight *pf, const struct cfg_variant *v,
		      const struct kernel_image *k, const char *elf)
{
	struct buf btf = {0};
	bool known = elf[0] && elf_btf_section(elf, &btf) == 0;
	const char *release = k->release[0] ? k->release : v->kernel;
	for (size_t l = 0; l < pf->e->n_loads; l++) {
		if (!plan_uses_latency_nice(pf->p, &pf->e->loads[l]))
			continue;
		int has = known ? btf_struct_has_member(btf.data, btf.len, "sched_attr",
							"sched_latency_nice") : -1;
		if (has == 0)
			preflight_refuse(pf, v->name, pf->e->loads[l].name, "latency_nice: kernel %s does"
					 " not support latency_nice (its struct sched_attr has no"
					 " sched_latency_nice: no latency-nice series); slice_us, the EEVDF"
					 " custom slice of 6.12+, is the stand-in", release);
		else if (has < 0)
			preflight_warn(pf, v->name, pf->e->loads[l].name, "latency_nice: whether kernel"
				       " %s supports it is known when it boots (no BTF here)", release);
	}
	for (size_t i = 0; i < v->n_sched_features; i++) {
		const char *name = v->sched_features[i].key;
		if (!strncmp(name, "NO_", 3))
			name += 3;
		char *enumerator = xasprintf("__SCHED_FEAT_%s", name);
		int has = known ? btf_has_enumerator(btf.data, btf.len, enumerator) : -1;
		if (has == 0)
			preflight_refuse(pf, v->name, NULL, "sched_features %s: kernel %s has no"
					 " sched_feature %s", v->sched_features[i].key, release, name);
		else if (has < 0)
			preflight_warn(pf, v->name, NULL, "sched_features %s: whether kernel %s has it is"
				       " known when it boots (no BTF here)", v->sched_features[i].key,
				       release);
		free(enumerator);
	}
	buf_free(&btf);
}

void guest_preflight(struct preflight *pf, const struct cfg_variant *v, bool disk_and_usr)
{
	struct guest_contents gc;
	struct argv problems = {0};
	struct kernel_image k;
	char err[1024], config[PATH_MAX], elf[PATH_MAX];

	if (guest_contents_collect(pf->p, false, disk_and_usr, &gc, &problems))
		for (size_t i = 0; i + 1 < problems.n; i += 2)
			preflight_refuse(pf, v->name, problems.v[i], "%s", problems.v[i + 1]);
	argv_free(&problems);
	if (v->build) {
		/* Built when the run starts: kbuild checks the options its config
		 * asks for, the agent latency_nice and slice_us once it boots. */
		guestpack_free(&gc);
		return;
	}
	char *debs = xasprintf("%s/debs", cache_root()), *prefix = xasprintf("%s_", v->kernel);
	char deb[PATH_MAX];
	bool here = is_file(v->kernel) || newest_file(debs, prefix, ".deb", deb, sizeof(deb)) == 0;
	/* A path or a name no package has cannot be fetched either. */
	bool fetchable = !strchr(v->kernel, '/') && is_package_name(v->kernel);
	free(debs);
	free(prefix);
	if (!here && !pf->fetch && fetchable) {
		preflight_warn(pf, v->name, NULL, "kernel %s is not fetched yet: its config and BTF"
			       " (latency_nice, slice_us, sched_features, modules) are checked when run"
			       " fetches it", v->kernel);
	} else if (guest_kernel_locked(v->kernel, &k, err, sizeof(err))) {
		preflight_refuse(pf, v->name, NULL, "kernel: %s", err);
	} else {
		static const char *const disk[] = {"VIRTIO_BLK", "EXT4_FS", "CRYPTO_CRC32C", NULL};
		static const char *const usr[] = {"NET_9P_VIRTIO", "9P_FS", NULL};
		bool scratch = disk_and_usr && gc.scratch, host_usr = disk_and_usr && gc.host_usr;
		kernel_facts(&k, config, elf, sizeof(config));
		if (config[0]) {
			check_config(pf, v, &k, config, scratch ? guestpack_load_needing(pf->p, true) :
				     NULL, disk, "its scratch disk (ext4 on virtio-blk)");
			check_config(pf, v, &k, config, host_usr ? guestpack_load_needing(pf->p, false) :
				     NULL, usr, "this machine's /usr (virtio-9p)");
		} else if (scratch || host_usr) {
			preflight_warn(pf, v->name, NULL, "kernel %s comes without its config: whether it"
				       " has virtio-blk, ext4 and 9p for the loads' disk and /usr is known"
				       " when it boots", v->kernel);
		}
		check_btf(pf, v, &k, elf);
		preflight_check_slice(pf, v, k.release);
	}
	guestpack_free(&gc);
}
