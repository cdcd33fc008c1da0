/* boot: qemu — the variant's kernel boots in a qemu guest whose initramfs is
 * built on the fly (busybox-static, this schedrig as the agent, every load
 * tool of the plan with its shared libraries, the virtio console modules);
 * `schedrig agent` runs the plan in the guest and streams agent protocol
 * lines (agent_proto.h) back over a virtio-serial port (the second serial
 * port when the kernel has no virtio console); this side decodes them and
 * hands every iteration to the caller, which parses and stores it.
 *
 * kernel: a bzImage path, a linux-image .deb file (vmlinuz and modules are
 * extracted with dpkg-deb -x into CACHE/kernels/), or a Debian package name
 * (apt-get download into CACHE/debs/, then the same). CACHE is the results
 * directory's cache/ (beside runs/).
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
 * Failures of the variant (return -1): kernel not found or not fetched, a
 * tool missing, qemu not starting, a panic, a hang past timeout_s, the agent
 * failing or ending early. The console log stays in the run directory
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_host.h"
#include "agent_proto.h"
#include "initramfs.h"
#include "knob_journal.h"
#include "variant.h"

#define QEMU_BINARY "qemu-system-x86_64"
#define QEMU_KVM_PROBE_S 5.0
#define BUSYBOX_PATH "/bin/busybox"
#define GUEST_PLAN "/etc/schedrig/plan.json"
#define GUEST_MODROOT "/lib/modules/schedrig"

/* KVM verdict of this process: 0 unknown, 1 usable, -1 hangs or refused. */
static int kvm_state;

static const char guest_init[] =
	"#!/bin/sh\n"
	"# schedrig guest init: written by harness/variants/qemu.c; no config\n"
	"# value is in it (the plan file carries them).\n"
	"export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin\n"
	"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"mkdir -p /dev/shm /tmp\n"
	"mount -t tmpfs tmpfs /dev/shm\n"
	"mount -t tmpfs tmpfs /tmp\n"
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

static const char *const busybox_applets[] = {
	"sh", "mount", "umount", "mkdir", "cat", "echo", "ls", "sleep", "sync", "poweroff",
	"reboot", "dmesg", "ps", "kill", "uname", NULL,
};

/* Modules the guest needs for the agent channel (none when built in). */
static const char *const channel_modules[] = {"virtio_pci", "virtio_console"};

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
 * status, -1 when it could not run (126: out_path could not be opened). */
static int run_tool(char *const *argv, const char *dir, const char *out_path, bool with_stderr)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null_fd = open("/dev/null", O_RDWR);
		if (fd < 0 || (dir && chdir(dir)))
			_exit(126);
		dup2(null_fd, 0);
		dup2(fd, 1);
		dup2(with_stderr ? fd : null_fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

/* kernel: → a bootable image (and modules). */
static int resolve_kernel(const char *kernel, const char *cache, struct kernel_image *k,
			  char *err, size_t errsz)
{
	size_t len = strlen(kernel);

	memset(k, 0, sizeof(*k));
	if (is_file(kernel)) {
		if (len > 4 && !strcmp(kernel + len - 4, ".deb"))
			return kernel_from_deb(kernel, cache, k, err, errsz);
		snprintf(k->vmlinuz, sizeof(k->vmlinuz), "%s", kernel);
		return 0;
	}
	if (strchr(kernel, '/') || !is_package_name(kernel)) {
		snprintf(err, errsz, "kernel: %s: no such file, and not a Debian package name", kernel);
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

/* Build the guest's initramfs at path. */
static int build_initramfs(const struct variant_run *vr, const struct kernel_image *k,
			   const char *path, char *err, size_t errsz)
{
	struct initramfs ir = {0};
	struct argv modules = {0}, tools = {0};
	char interp[PATH_MAX], host[PATH_MAX];
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
	if (initramfs_add_program(&ir, "/bin/schedrig", vr->self_exe, err, errsz))
		goto out;
	variant_plan_tools(vr->p, &tools, NULL);
	for (size_t i = 0; i < tools.n; i++) {
		const char *tool = tools.v[i];
		if (variant_find_tool(tool, host, sizeof(host))) {
			snprintf(err, errsz, "load tool '%s' is not installed here, so it cannot go into"
				 " the guest", tool);
			goto out;
		}
		char *guest = strchr(tool, '/') ? xstrdup(tool) : xasprintf("/usr/local/bin/%s", tool);
		int r = initramfs_add_program(&ir, guest, host, err, errsz);
		free(guest);
		if (r)
			goto out;
	}
	if (k->modroot[0]) {
		char *groot = xasprintf("%s/%s", GUEST_MODROOT, k->release);
		int r = initramfs_add_modules(&ir, k->modroot, groot, channel_modules,
					      sizeof(channel_modules) / sizeof(channel_modules[0]),
					      &modules, err, errsz);
		free(groot);
		if (r)
			goto out;
	}
	char *plan = agent_host_plan(vr, &modules);
	initramfs_add_file(&ir, GUEST_PLAN, plan, strlen(plan), 0644);
	free(plan);
	initramfs_add_file(&ir, "/init", guest_init, strlen(guest_init), 0755);
	rc = initramfs_write(&ir, path, err, errsz);
out:
	argv_free(&tools);
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
};

static pid_t start_qemu(const struct variant_run *vr, const struct kernel_image *k,
			const struct guest_files *gf, bool kvm, char *err, size_t errsz)
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
	argv_add(&a, "-device");
	argv_add(&a, "virtio-serial-pci");
	argv_add(&a, "-chardev");
	argv_addf(&a, "file,id=agent,path=%s", e3);
	argv_add(&a, "-device");
	argv_add(&a, "virtserialport,chardev=agent,name=schedrig.agent");
	free(e3);

	unlink(gf->console);
	unlink(gf->agent_serial);
	unlink(gf->agent_virtio);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errsz, "fork: %s", strerror(errno));
		argv_free(&a);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open(gf->qemu_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null_fd = open("/dev/null", O_RDONLY);
		dup2(null_fd, 0);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(a.v[0], a.v);
		fprintf(stderr, "cannot run %s: %s\n", a.v[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	argv_free(&a);
	return pid;
}

static void stop_qemu(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
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

/* Boot once and talk to the agent until qemu exits, times out or fails. */
static enum boot_outcome boot_and_run(const struct variant_run *vr, const struct kernel_image *k,
				      const struct guest_files *gf, bool kvm, bool probe,
				      struct agent_session *s, char *err, size_t errsz)
{
	struct tail tails[2] = {{gf->agent_virtio, -1, {0}}, {gf->agent_serial, -1, {0}}};
	double t0 = agent_mono_s(), last = t0;
	size_t seen_lines = 0;
	enum boot_outcome outcome = BOOT_DONE;
	pid_t pid = start_qemu(vr, k, gf, kvm, err, errsz);

	s->t0_s = t0;
	if (pid < 0) {
		s->failed = true;
		return BOOT_DONE;
	}
	for (;;) {
		int status;
		pid_t w = waitpid(pid, &status, WNOHANG);
		for (int i = 0; i < 2; i++)
			pump(s, &tails[i], err, errsz);
		if (w == pid) {
			pid = 0;
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
		nanosleep(&(struct timespec){0, 50000000}, NULL);
	}
	if (s->end && pid) {
		/* The agent is done: give the guest a moment to power off. */
		for (int i = 0; i < 100 && waitpid(pid, NULL, WNOHANG) == 0; i++)
			nanosleep(&(struct timespec){0, 50000000}, NULL);
	}
	stop_qemu(pid);
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

static int qemu_run(const struct variant_run *vr, char *err, size_t errsz)
{
	struct kernel_image k;
	struct agent_session s;
	char *cache;
	const char *runs = strstr(vr->work_dir, "/runs/");
	int rc = -1;

	/* results/runs/ID → results/cache */
	if (runs && !strchr(runs + 6, '/'))
		cache = xasprintf("%.*s/cache", (int)(runs - vr->work_dir), vr->work_dir);
	else
		cache = xasprintf("%s/cache", vr->work_dir);
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
	if (mkdir_p(cache, err, errsz) || resolve_kernel(vr->v->kernel, cache, &k, err, errsz) ||
	    build_initramfs(vr, &k, gf.initramfs, err, errsz))
		goto out;
	if (vr->v->initrd) {
		/* The kernel unpacks concatenated archives in order. */
		char *combined = xasprintf("%s/%s-initramfs-all.cpio", vr->work_dir, vr->v->name);
		char *argv[] = {"cat", gf.initramfs, vr->v->initrd, NULL};
		int fd = open(combined, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		pid_t pid = fd >= 0 ? fork() : -1;
		if (pid == 0) {
			dup2(fd, 1);
			execvp(argv[0], argv);
			_exit(127);
		}
		int status = -1;
		if (pid > 0)
			waitpid(pid, &status, 0);
		if (fd >= 0)
			close(fd);
		if (status != 0) {
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
	if (boot_and_run(vr, &k, &gf, kvm, probe, &s, err, errsz) == BOOT_KVM_HANGS) {
		kvm_state = -1;
		printf("[%s] qemu: KVM printed nothing in %.0f s (nested KVM hangs?): using TCG\n",
		       vr->v->name, QEMU_KVM_PROBE_S);
		fflush(stdout);
		agent_session_free(&s);
		s = session_for(vr, &k, knob_host);
		boot_and_run(vr, &k, &gf, false, false, &s, err, errsz);
	} else if (probe && s.hello) {
		kvm_state = 1;
	}

	if (s.failed && (s.store_failed || runner_interrupt_signal()))
		goto out;
	char why[512];
	console_verdict(gf.console, why, sizeof(why));
	if (!s.failed && !s.hello)
		snprintf(err, errsz, "%s", why[0] ? why : "the guest stopped before its agent started");
	else if (!s.failed && !s.end)
		snprintf(err, errsz, "%s", why[0] ? why : "the guest stopped before its agent finished");
	else if (!s.failed && !s.end_ok)
		snprintf(err, errsz, "the guest's agent failed: %s", s.end_message);
	else if (!s.failed)
		rc = 0;
	if (rc) {
		size_t len = strlen(err);
		snprintf(err + len, errsz - len, " (console log: %s)", gf.console);
	}
out:
	agent_session_free(&s);
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
	free(cache);
	free(knob_host);
	return rc;
}

const struct variant_backend qemu_backend = {
	.name = "qemu",
	.run = qemu_run,
};
