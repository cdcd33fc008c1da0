/* boot: qemu — the variant's kernel boots in a qemu guest whose initramfs is
 * built on the fly (busybox-static, this schedrig as the agent, every load
 * tool of the plan and what each load needs there, guestpack.h, the virtio
 * console modules); its init brings up loopback, tmpfs /tmp and /dev/shm,
 * a 1048576 file-descriptor limit and the hostname; a load that needs room
 * gets a scratch disk (guestdisk.h) on /scratch, the agent's working
 * directory and $TMPDIR; a load that builds with this machine's toolchain
 * gets its /usr read-only over virtio-9p;
 * `schedrig agent` runs the plan in the guest and streams agent protocol
 * lines (agent_proto.h) back over a virtio-serial port (the second serial
 * port when the kernel has no virtio console); this side decodes them and
 * hands every iteration to the caller, which parses and stores it.
 *
 * kernel: a bzImage path, a linux-image .deb file (vmlinuz and modules are
 * extracted with dpkg-deb -x into CACHE/kernels/), or a Debian package name
 * (apt-get download into CACHE/debs/, then the same). CACHE is the rig's
 * cache (cache.h: ~/.cache/schedrig), apart from results; its lock is held
 * while the kernel is fetched and extracted.
 *
 * accel: kvm, tcg, or auto: a KVM boot that prints nothing on the console
 * within QEMU_KVM_PROBE_S (nested KVM that hangs) or that qemu refuses is
 * killed and the variant boots under TCG; the verdict holds for the process.
 * A TCG guest gets qemu64 with RDRAND and no boot-time crypto self-tests
 * (why and how much: start_qemu).
 *
 * timeout_s bounds the boot (qemu start to the agent's hello line) and, after
 * it, every silence of the agent longer than timeout_s plus the plan's
 * longest load timeout_s, warmup_s and the runner's grace period.
 *
 * The guest's agent applies the variant's knobs in the guest; its knob lines
 * are journalled through vr->journal with host "guest:VARIANT"
 * (knob_journal.h), and what the guest did not report restored is marked
 * restored once qemu is stopped: a guest knob dies with the guest.
 *
 * Before a run, qemu_preflight checks what the guest will have: the packed
 * tools and files, and the kernel's config and BTF (preflight.h).
 *
 * Failures of the variant (return -1): kernel not found or not fetched, a
 * tool missing, qemu not starting, a panic, the guest's init failing (a
 * scratch disk or /usr it cannot mount), a hang past timeout_s, the agent
 * failing or ending early. A panic is told by qemu's exit status (a pvpanic
 * device; -action panic=exit-failure: status 1 instead of the 0 that
 * -no-reboot gives after panic=-1) and by "Kernel panic" on the console,
 * each a failure even after the agent ended well. The console log stays in
 * the run directory
 * (VARIANT-console.log) and err names it. qemu runs in its own process
 * group, is killed on every way out and reaped. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_host.h"
#include "agent_proto.h"
#include "cache.h"
#include "guestdisk.h"
#include "guestpack.h"
#include "initramfs.h"
#include "kernel_btf.h"
#include "knob_journal.h"
#include "preflight.h"
#include "spawn.h"
#include "variant.h"

#define QEMU_BINARY "qemu-system-x86_64"
#define QEMU_KVM_PROBE_S 5.0
#define BUSYBOX_PATH "/bin/busybox"
#define GUEST_PLAN "/etc/schedrig/plan.json"
#define GUEST_MODROOT "/lib/modules/schedrig"
/* The modules the guest's init loads, one path a line. */
#define GUEST_MODULES "/etc/schedrig/modules"
/* Present when the guest has a scratch disk (guestdisk.h). */
#define GUEST_SCRATCH_MARK "/etc/schedrig/scratch"
#define GUEST_SCRATCH GUESTPACK_SCRATCH
/* Present when the guest mounts this machine's /usr (9p tag below). */
#define GUEST_HOST_USR_MARK "/etc/schedrig/host-usr"
#define GUEST_HOST_USR_TAG "hostusr"
/* How the guest's init starts a line that fails the variant. */
#define GUEST_INIT_ERROR "schedrig-init: error: "

/* KVM verdict of this process: 0 unknown, 1 usable, -1 hangs or refused. */
static int kvm_state;

static const char guest_init[] =
	"#!/bin/sh\n"
	"# schedrig guest init: written by harness/variants/qemu.c; no config\n"
	"# value is in it (the plan file carries them).\n"
	"export PATH=" GUESTPACK_TOOLS ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin\n"
	"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"mkdir -p /dev/shm /tmp\n"
	"mount -t tmpfs tmpfs /dev/shm\n"
	"mount -t tmpfs tmpfs /tmp\n"
	"chmod 1777 /dev/shm /tmp\n"
	"# Loopback (tcp-rr, sysbench to a server), and file descriptors for\n"
	"# hackbench's groups and many clients.\n"
	"ip link set lo up\n"
	"hostname localhost\n"
	"ulimit -n 1048576 2>/dev/null || ulimit -n 65536\n"
	"# The modules the rig listed (scratch disk, agent channel), in order.\n"
	"if [ -f " GUEST_MODULES " ]; then\n"
	"\twhile read -r m; do insmod \"$m\" 2>/dev/null; done <" GUEST_MODULES "\n"
	"fi\n"
	"# This machine's /usr, read-only, for a load that builds with its toolchain.\n"
	"if [ -f " GUEST_HOST_USR_MARK " ]; then\n"
	"\tif ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 " GUEST_HOST_USR_TAG " /usr; then\n"
	"\t\techo \"" GUEST_INIT_ERROR "cannot mount the host's /usr (virtio-9p " GUEST_HOST_USR_TAG ")\"\n"
	"\t\tpoweroff -f\n"
	"\tfi\n"
	"fi\n"
	"# The scratch disk (the first virtio disk): working directory and TMPDIR.\n"
	"if [ -f " GUEST_SCRATCH_MARK " ]; then\n"
	"\tn=0\n"
	"\twhile [ ! -b /dev/vda ] && [ $n -lt 100 ]; do usleep 100000; n=$((n + 1)); done\n"
	"\tmkdir -p " GUEST_SCRATCH "\n"
	"\tif ! mount -t ext4 -o noinit_itable /dev/vda " GUEST_SCRATCH "; then\n"
	"\t\techo \"" GUEST_INIT_ERROR "cannot mount the scratch disk /dev/vda on " GUEST_SCRATCH "\"\n"
	"\t\tpoweroff -f\n"
	"\tfi\n"
	"\tmkdir -p " GUEST_SCRATCH "/tmp\n"
	"\tchmod 1777 " GUEST_SCRATCH "/tmp\n"
	"\texport TMPDIR=" GUEST_SCRATCH "/tmp\n"
	"\tcd " GUEST_SCRATCH "\n"
	"fi\n"
	"# init= on the kernel command line names another init: run it instead,\n"
	"# as a distribution initramfs does (its failure panics the guest).\n"
	"for arg in $(cat /proc/cmdline); do\n"
	"\tcase \"$arg\" in init=*)\n"
	"\t\techo \"schedrig-init: exec ${arg#init=}\"\n"
	"\t\texec \"${arg#init=}\"\n"
	"\t\texit 1;;\n"
	"\tesac\n"
	"done\n"
	"echo \"schedrig-init: starting the agent\"\n"
	"/bin/schedrig agent --out auto " GUEST_PLAN "\n"
	"echo \"schedrig-init: agent exit status $?\"\n"
	"sync\n"
	"poweroff -f\n"
	"reboot -f\n";

/* The init's commands, and what scripts packed for loads (mariadb-install-db,
 * a kernel build's Makefiles) run besides the programs packed for them. */
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
 * pvpanic device's driver, which tells qemu of a panic (start_qemu). */
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

struct kernel_image {
	char vmlinuz[PATH_MAX];
	char modroot[PATH_MAX]; /* "" when none (a bare bzImage) */
	char release[256];      /* from the package ("" unknown) */
};

/* Copy src into dst (size > 0), cut to fit. */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);
	memcpy(dst, src, len);
	dst[len] = '\0';
}

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

/* The last non-empty line of a log file, for messages. */
static void last_line(const char *path, char *dst, size_t size)
{
	char line[512];
	FILE *f = fopen(path, "r");
	dst[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			copy_str(dst, size, line);
	}
	if (f)
		fclose(f);
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
			last_line(log, why, sizeof(why));
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

/* kernel: → a bootable image (and modules). */
static int resolve_kernel(const char *kernel, const char *cache, struct kernel_image *k,
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
			last_line(log, why, sizeof(why));
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

/* The guest's modules: the agent channel's, and the scratch disk's when
 * gc needs one; order receives them in load order, and so does the list
 * the guest's init loads (GUEST_MODULES). */
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

/* Build the guest's initramfs at path with what gc lists. */
static int build_initramfs(const struct variant_run *vr, const struct kernel_image *k,
			   const struct guest_contents *gc, const char *path, char *err,
			   size_t errsz)
{
	struct initramfs ir = {0};
	struct argv modules = {0};
	char interp[PATH_MAX];
	int rc = -1;

	static const char *const dirs[] = {"/bin", "/sbin", "/usr/bin", "/usr/sbin",
					   "/usr/local/bin", "/proc", "/sys", "/dev", "/tmp",
					   "/run", "/etc/schedrig", NULL};
	for (size_t i = 0; dirs[i]; i++)
		initramfs_add_dir(&ir, dirs[i], 0755);
	initramfs_add_node(&ir, "/dev/console", S_IFCHR | 0600, 5, 1);
	initramfs_add_node(&ir, "/dev/null", S_IFCHR | 0666, 1, 3);

	if (elf_interpreter(BUSYBOX_PATH, interp, sizeof(interp), err, errsz)) {
		snprintf(err, errsz, "%s is missing: install busybox-static", BUSYBOX_PATH);
		goto out;
	}
	if (interp[0]) {
		snprintf(err, errsz, "%s is not static: install busybox-static", BUSYBOX_PATH);
		goto out;
	}
	if (initramfs_add_host_file(&ir, "/bin/busybox", BUSYBOX_PATH, err, errsz))
		goto out;
	for (size_t i = 0; busybox_applets[i]; i++) {
		char *p = xasprintf("/bin/%s", busybox_applets[i]);
		initramfs_add_symlink(&ir, p, "busybox");
		free(p);
	}
	if (initramfs_add_program(&ir, "/bin/schedrig", vr->self_exe, err, errsz) ||
	    guestpack_add(gc, &ir, err, errsz) || add_modules(&ir, k, gc, &modules, err, errsz))
		goto out;
	initramfs_add_file(&ir, "/etc/passwd", guest_passwd, strlen(guest_passwd), 0644);
	initramfs_add_file(&ir, "/etc/group", guest_group, strlen(guest_group), 0644);
	initramfs_add_file(&ir, "/etc/hosts", guest_hosts, strlen(guest_hosts), 0644);
	if (gc->scratch)
		initramfs_add_file(&ir, GUEST_SCRATCH_MARK, "", 0, 0644);
	if (gc->host_usr)
		initramfs_add_file(&ir, GUEST_HOST_USR_MARK, "", 0, 0644);
	struct buf binds = {0};
	guestpack_binds(gc, &binds);
	if (binds.len)
		initramfs_add_file(&ir, GUESTPACK_BINDS, binds.data, binds.len, 0644);
	buf_free(&binds);
	char *plan = agent_host_plan(vr, &modules);
	initramfs_add_file(&ir, GUEST_PLAN, plan, strlen(plan), 0644);
	free(plan);
	initramfs_add_file(&ir, "/init", guest_init, strlen(guest_init), 0755);
	rc = initramfs_write(&ir, path, err, errsz);
out:
	argv_free(&modules);
	initramfs_free(&ir);
	return rc;
}

/* qemu option values: ',' doubled. */
static char *optesc(const char *s)
{
	struct buf b = {0};
	for (; *s; s++) {
		buf_append(&b, s, 1);
		if (*s == ',')
			buf_append(&b, ",", 1);
	}
	char *r = xstrdup(buf_str(&b));
	buf_free(&b);
	return r;
}

struct guest_files {
	char *console, *agent_virtio, *agent_serial, *qemu_log, *initramfs, *initrd;
	char disk[PATH_MAX]; /* the scratch disk image; "" none */
	bool host_usr;       /* share this machine's /usr (virtio-9p, read-only) */
};

/* Start qemu for k into q (its own process group, SIGKILL when the rig
 * dies, stdout and stderr into the qemu log). Returns 0 or -1 with err. */
static int start_qemu(const struct variant_run *vr, const struct kernel_image *k,
		      const struct guest_files *gf, bool kvm, struct spawn *q, char *err,
		      size_t errsz)
{
	struct argv a = {0};
	const struct cfg_variant *v = vr->v;
	char *e3 = optesc(gf->agent_virtio);

	argv_add(&a, QEMU_BINARY);
	argv_add(&a, "-nodefaults");
	argv_add(&a, "-no-user-config");
	argv_add(&a, "-display");
	argv_add(&a, "none");
	argv_add(&a, "-no-reboot");
	argv_add(&a, "-accel");
	argv_add(&a, kvm ? "kvm" : "tcg");
	argv_add(&a, "-cpu");
	if (kvm) {
		argv_add(&a, "host");
	} else {
		/* TCG's default CPU (qemu64) has no RDRAND, so a 6.1 guest's
		 * crng is not ready when the agent starts, and the agent's
		 * first read of /dev/urandom (jansson seeds its hash tables
		 * from it when the plan is decoded) makes the kernel generate
		 * jitter entropy first, until the console's "random: crng init
		 * done": 1.0-1.5 s under TCG. With RDRAND (emulated by TCG) the
		 * kernel trusts the CPU (RANDOM_TRUST_CPU) and the crng is ready
		 * at once: agent start to hello 0.4 s against 1.4 s, the first
		 * sample 0.85 s sooner (bench/qemu-boot.sh's plan, medians of 8
		 * alternating runs, load 2.3). Nothing else of qemu64 changes:
		 * -cpu max (XSAVE, AVX, ...) took 0.3 s longer. */
		argv_add(&a, "qemu64,+rdrand");
	}
	argv_add(&a, "-smp");
	argv_addf(&a, "%d", v->cpus);
	argv_add(&a, "-m");
	argv_addf(&a, "%d", v->memory_mb);
	argv_add(&a, "-kernel");
	argv_add(&a, k->vmlinuz);
	argv_add(&a, "-initrd");
	argv_add(&a, gf->initrd);
	argv_add(&a, "-append");
	/* Under TCG, before append: (which may override it), no crypto
	 * self-tests at boot: they are 0.4-0.6 s of the kernel's 1-2 s of
	 * initcalls under TCG (initcall_debug); the kernel reaches /init
	 * 0.5 s sooner and the first sample comes 0.3 s sooner (medians of
	 * 8 alternating runs, load 2.3). The guest's kernel crypto is not
	 * what the rig measures. */
	argv_addf(&a, "console=ttyS0 panic=-1%s%s%s", kvm ? "" : " cryptomgr.notests",
		  v->append ? " " : "", v->append ? v->append : "");
	argv_add(&a, "-serial");
	argv_addf(&a, "file:%s", gf->console);
	argv_add(&a, "-serial");
	argv_addf(&a, "file:%s", gf->agent_serial);
	/* A guest panic ends qemu with exit status 1 (the guest's pvpanic
	 * driver, loaded by the agent first, reports it), not the 0 of
	 * -no-reboot after panic=-1: a panic is a failure even when nothing
	 * reaches the console. */
	argv_add(&a, "-device");
	argv_add(&a, "pvpanic-pci");
	argv_add(&a, "-action");
	argv_add(&a, "panic=exit-failure");
	argv_add(&a, "-device");
	argv_add(&a, "virtio-serial-pci");
	argv_add(&a, "-chardev");
	argv_addf(&a, "file,id=agent,path=%s", e3);
	argv_add(&a, "-device");
	argv_add(&a, "virtserialport,chardev=agent,name=schedrig.agent");
	free(e3);
	if (gf->disk[0]) {
		/* snapshot=on: the guest writes to a temporary overlay, the
		 * cached image stays as built (guestdisk.h). */
		char *d = optesc(gf->disk);
		argv_add(&a, "-drive");
		argv_addf(&a, "file=%s,format=raw,if=virtio,snapshot=on,cache=unsafe", d);
		free(d);
	}
	if (gf->host_usr) {
		argv_add(&a, "-fsdev");
		argv_add(&a, "local,id=hostusr,path=/usr,security_model=none,readonly=on");
		argv_add(&a, "-device");
		argv_add(&a, "virtio-9p-pci,fsdev=hostusr,mount_tag=" GUEST_HOST_USR_TAG);
	}

	unlink(gf->console);
	unlink(gf->agent_serial);
	unlink(gf->agent_virtio);
	*q = (struct spawn){.argv = a.v, .in.kind = SPAWN_NULL,
			    .out = {.kind = SPAWN_FILE, .path = gf->qemu_log},
			    .err.kind = SPAWN_STDOUT, .new_group = true, .pdeath_sig = SIGKILL};
	int rc = spawn_start(q, err, errsz);
	argv_free(&a);
	q->argv = NULL;
	return rc;
}

static off_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_size : 0;
}

/* One agent channel being tailed. */
struct tail {
	const char *path;
	int fd;
	struct buf partial;
};

/* Read what is new in t and handle its complete lines. */
static void pump(struct agent_session *s, struct tail *t, char *err, size_t errsz)
{
	char chunk[65536];
	ssize_t n;

	if (t->fd < 0 && (t->fd = open(t->path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	while ((n = read(t->fd, chunk, sizeof(chunk))) > 0)
		agent_session_feed(s, &t->partial, chunk, (size_t)n, err, errsz);
}

/* A panic or other last words on the console, for the error message. */
static void console_verdict(const char *console, char *why, size_t size)
{
	char line[1024];
	FILE *f = fopen(console, "r");
	why[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		char *p = strstr(line, "Kernel panic");
		if (p && !why[0])
			snprintf(why, size, "the guest kernel panicked: %s", p);
		p = strstr(line, GUEST_INIT_ERROR);
		if (p && !why[0])
			snprintf(why, size, "the guest's init failed: %s", p + strlen(GUEST_INIT_ERROR));
	}
	if (f)
		fclose(f);
}

/* A fresh session with the guest: its kernel must be the package's (when
 * known) and its command line must hold append:; the guest's knob lines
 * are journalled under knob_host ("guest:VARIANT"). */
static struct agent_session session_for(const struct variant_run *vr,
					const struct kernel_image *k, const char *knob_host)
{
	return (struct agent_session){.vr = vr, .label = "qemu", .where = "the guest",
				      .want_release = k->release,
				      .want_cmdline = vr->v->append, .knob_host = knob_host};
}

enum boot_outcome { BOOT_DONE, BOOT_KVM_HANGS };

/* Boot once and talk to the agent until qemu exits, times out or fails.
 * *qemu_failed tells whether qemu exited by itself with a status other
 * than 0 (a guest panic reported through pvpanic, or qemu's own error). */
static enum boot_outcome boot_and_run(const struct variant_run *vr, const struct kernel_image *k,
				      const struct guest_files *gf, bool kvm, bool probe,
				      struct agent_session *s, int *qemu_status, char *err,
				      size_t errsz)
{
	struct tail tails[2] = {{gf->agent_virtio, -1, {0}}, {gf->agent_serial, -1, {0}}};
	double t0 = agent_mono_s(), last = t0;
	size_t seen_lines = 0;
	enum boot_outcome outcome = BOOT_DONE;
	struct spawn q;

	s->t0_s = t0;
	if (start_qemu(vr, k, gf, kvm, &q, err, errsz)) {
		s->failed = true;
		return BOOT_DONE;
	}
	for (;;) {
		bool exited = q.exited;
		for (int i = 0; i < 2; i++)
			pump(s, &tails[i], err, errsz);
		if (exited) {
			*qemu_status = WIFEXITED(q.status) ? WEXITSTATUS(q.status) : 128;
			if (probe && file_size(gf->console) == 0 && !s->hello)
				outcome = BOOT_KVM_HANGS; /* qemu refused KVM */
			break;
		}
		if (s->failed || s->end)
			break;
		double now = agent_mono_s();
		if (s->lines != seen_lines) {
			seen_lines = s->lines;
			last = now;
		}
		if (runner_poll_interrupt()) {
			agent_session_fail(s, err, errsz, "interrupted by %s",
					   strsignal(runner_interrupt_signal()));
			break;
		}
		if (probe && now - t0 >= QEMU_KVM_PROBE_S && file_size(gf->console) == 0) {
			outcome = BOOT_KVM_HANGS;
			break;
		}
		if (!s->hello && now - t0 > vr->v->boot_timeout_s) {
			agent_session_fail(s, err, errsz, "no agent %.0f s after qemu started"
					   " (timeout_s=%g): the guest hangs", now - t0,
					   vr->v->boot_timeout_s);
			break;
		}
		if (s->hello && now - last > agent_silence_limit_s(vr)) {
			agent_session_fail(s, err, errsz,
					   "the agent was silent for %.0f s: the guest hangs", now - last);
			break;
		}
		spawn_poll((struct spawn *[]){&q}, 1, 50);
	}
	if (s->end && !q.exited) {
		/* The agent is done: give the guest 5 s to power off. */
		for (double until = agent_mono_s() + 5; !q.exited && agent_mono_s() < until;)
			spawn_poll((struct spawn *[]){&q}, 1, 50);
		if (q.exited)
			*qemu_status = WIFEXITED(q.status) ? WEXITSTATUS(q.status) : 128;
	}
	spawn_kill(&q);
	spawn_free(&q);
	for (int i = 0; i < 2; i++) {
		if (outcome == BOOT_DONE)
			pump(s, &tails[i], err, errsz);
		if (tails[i].fd >= 0)
			close(tails[i].fd);
		buf_free(&tails[i].partial);
	}
	/* The guest is gone, and every knob it changed with it. */
	char why[512];
	if (agent_session_knobs_gone(s, why, sizeof(why)))
		fprintf(stderr, "schedrig: variant %s: marking the guest's knobs restored: %s\n",
			vr->v->name, why);
	return outcome;
}

/* What the guest gets (guestpack_collect, prepared now); -1 with err
 * naming each load and what it misses. */
static int collect_contents(const struct plan *p, struct guest_contents *gc, char *err,
			    size_t errsz)
{
	struct argv problems = {0};
	int rc = guestpack_collect(p, true, gc, &problems);
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

static int qemu_run(const struct variant_run *vr, char *err, size_t errsz)
{
	struct kernel_image k;
	struct agent_session s;
	struct guest_contents gc = {0};
	const char *cache = cache_root();
	int rc = -1;

	char *knob_host = xasprintf("%s%s", KNOB_HOST_GUEST_PREFIX, vr->v->name);
	struct guest_files gf = {
		.console = xasprintf("%s/%s-console.log", vr->work_dir, vr->v->name),
		.agent_virtio = xasprintf("%s/%s-agent.jsonl", vr->work_dir, vr->v->name),
		.agent_serial = xasprintf("%s/%s-agent-serial.jsonl", vr->work_dir, vr->v->name),
		.qemu_log = xasprintf("%s/%s-qemu.log", vr->work_dir, vr->v->name),
		.initramfs = xasprintf("%s/%s-initramfs.cpio", vr->work_dir, vr->v->name),
	};
	gf.initrd = gf.initramfs;
	s = session_for(vr, &k, knob_host);
	/* What the loads need (a kernel tree a load prepares has its own
	 * lock, and so has the scratch disk), then, under the cache's lock,
	 * the kernel fetched, extracted and read (schedrig cache --clear
	 * waits for it). */
	if (collect_contents(vr->p, &gc, err, errsz) ||
	    (gc.scratch && guestdisk_image(&gc, cache, gf.disk, sizeof(gf.disk), err, errsz)))
		goto out;
	int lock = cache_lock(err, errsz);
	if (lock < 0)
		goto out;
	int prepared = resolve_kernel(vr->v->kernel, cache, &k, err, errsz) ||
		       build_initramfs(vr, &k, &gc, gf.initramfs, err, errsz);
	close(lock);
	if (prepared)
		goto out;
	gf.host_usr = gc.host_usr;
	if (vr->v->initrd) {
		/* The kernel unpacks concatenated archives in order. */
		char *combined = xasprintf("%s/%s-initramfs-all.cpio", vr->work_dir, vr->v->name);
		char *argv[] = {"cat", gf.initramfs, vr->v->initrd, NULL};
		if (run_tool(argv, NULL, combined, false) != 0) {
			snprintf(err, errsz, "cannot append initrd %s", vr->v->initrd);
			free(combined);
			goto out;
		}
		gf.initrd = combined;
	}

	bool want_kvm = vr->v->accel && !strcmp(vr->v->accel, "kvm");
	bool auto_accel = !vr->v->accel || !strcmp(vr->v->accel, "auto");
	bool kvm = want_kvm || (auto_accel && kvm_state >= 0 && access("/dev/kvm", R_OK | W_OK) == 0);
	bool probe = auto_accel && kvm && kvm_state == 0;
	int qemu_status = 0;
	if (boot_and_run(vr, &k, &gf, kvm, probe, &s, &qemu_status, err, errsz) == BOOT_KVM_HANGS) {
		kvm_state = -1;
		printf("[%s] qemu: KVM printed nothing in %.0f s (nested KVM hangs?): using TCG\n",
		       vr->v->name, QEMU_KVM_PROBE_S);
		fflush(stdout);
		agent_session_free(&s);
		s = session_for(vr, &k, knob_host);
		qemu_status = 0;
		boot_and_run(vr, &k, &gf, false, false, &s, &qemu_status, err, errsz);
	} else if (probe && s.hello) {
		kvm_state = 1;
	}

	if (s.failed && (s.store_failed || runner_interrupt_signal()))
		goto out;
	char why[512];
	console_verdict(gf.console, why, sizeof(why));
	/* A panic fails the variant whatever the agent said before it. */
	if (!s.failed && qemu_status)
		snprintf(err, errsz, "%s%sqemu exited with status %d: a guest kernel panic reported"
			 " by pvpanic (-action panic=exit-failure), or an error of qemu's own (%s)",
			 why, why[0] ? "; " : "", qemu_status, gf.qemu_log);
	else if (!s.failed && why[0] && s.end)
		snprintf(err, errsz, "%s (after the agent's end)", why);
	else if (!s.failed && !s.hello)
		snprintf(err, errsz, "%s", why[0] ? why : "the guest stopped before its agent started");
	else if (!s.failed && !s.end)
		snprintf(err, errsz, "%s", why[0] ? why : "the guest stopped before its agent finished");
	else if (!s.failed && !s.end_ok)
		snprintf(err, errsz, "the guest's agent failed: %s", s.end_message);
	else if (!s.failed && !qemu_status && !why[0])
		rc = 0;
	if (rc) {
		size_t len = strlen(err);
		snprintf(err + len, errsz - len, " (console log: %s)", gf.console);
	}
out:
	agent_session_free(&s);
	guestpack_free(&gc);
	unlink(gf.initramfs);
	if (gf.initrd != gf.initramfs) {
		unlink(gf.initrd);
		free(gf.initrd);
	}
	if (file_size(gf.agent_serial) == 0)
		unlink(gf.agent_serial);
	free(gf.console);
	free(gf.agent_virtio);
	free(gf.agent_serial);
	free(gf.qemu_log);
	free(gf.initramfs);
	free(knob_host);
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

/* resolve_kernel in the rig's cache under its lock. */
static int locked_resolve(const char *kernel, struct kernel_image *k, char *err, size_t errsz)
{
	int lock = cache_lock(err, errsz);
	if (lock < 0)
		return -1;
	int rc = resolve_kernel(kernel, cache_root(), k, err, errsz);
	close(lock);
	return rc;
}

/* Before anything runs: what the guest gets packed, and what its kernel
 * supports (from the package's config and BTF; fetched only when run). */
static void qemu_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	struct guest_contents gc;
	struct argv problems = {0};
	struct kernel_image k;
	char err[1024], config[PATH_MAX], elf[PATH_MAX];

	if (guestpack_collect(pf->p, false, &gc, &problems))
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
	} else if (locked_resolve(v->kernel, &k, err, sizeof(err))) {
		preflight_refuse(pf, v->name, NULL, "kernel: %s", err);
	} else {
		static const char *const disk[] = {"VIRTIO_BLK", "EXT4_FS", "CRYPTO_CRC32C", NULL};
		static const char *const usr[] = {"NET_9P_VIRTIO", "9P_FS", NULL};
		kernel_facts(&k, config, elf, sizeof(config));
		if (config[0]) {
			check_config(pf, v, &k, config, gc.scratch ? guestpack_load_needing(pf->p, true) :
				     NULL, disk, "its scratch disk (ext4 on virtio-blk)");
			check_config(pf, v, &k, config, gc.host_usr ? guestpack_load_needing(pf->p, false) :
				     NULL, usr, "this machine's /usr (virtio-9p)");
		} else if (gc.scratch || gc.host_usr) {
			preflight_warn(pf, v->name, NULL, "kernel %s comes without its config: whether it"
				       " has virtio-blk, ext4 and 9p for the loads' disk and /usr is known"
				       " when it boots", v->kernel);
		}
		check_btf(pf, v, &k, elf);
		preflight_check_slice(pf, v, k.release);
	}
	guestpack_free(&gc);
}

const struct variant_backend qemu_backend = {
	.name = "qemu",
	.run = qemu_run,
	.preflight = qemu_preflight,
};
