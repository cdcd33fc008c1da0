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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_host.h"
#include "initramfs.h"

#define BUSYBOX_PATH "/bin/busybox"
#define GUEST_PLAN "/etc/schedrig/plan.json"
#define GUEST_MODROOT "/lib/modules/schedrig"

/* /init up to the agent's command line, which guest_initramfs_build writes. */
static const char guest_init_head[] =
	"#!/bin/sh\n"
	"# schedrig guest init: written by harness/guest_image.c; no config\n"
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
	"echo \"schedrig-init: starting the agent\"\n";

static const char guest_init_tail[] =
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

/* The newest file in dir whose name starts with prefix and ends with
 * suffix, into out. Returns 0 when found. */
static int newest(const char *dir, const char *prefix, const char *suffix, char *out,
		  size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	time_t best = 0;
	int rc = -1;
	size_t lp = strlen(prefix), ls = strlen(suffix);

	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		if (len < lp + ls || strncmp(de->d_name, prefix, lp) ||
		    strcmp(de->d_name + len - ls, suffix))
			continue;
		char *full = xasprintf("%s/%s", dir, de->d_name);
		if (stat(full, &st) == 0 && (rc || st.st_mtime >= best)) {
			best = st.st_mtime;
			snprintf(out, size, "%s", full);
			rc = 0;
		}
		free(full);
	}
	if (d)
		closedir(d);
	return rc;
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
	int found = newest(boot, "vmlinuz-", "", k->vmlinuz, sizeof(k->vmlinuz));
	free(boot);
	if (found) {
		snprintf(err, errsz, "%s holds no boot/vmlinuz-* (not a linux-image package?)", deb);
		goto out;
	}
	snprintf(k->release, sizeof(k->release), "%s", strrchr(k->vmlinuz, '/') + 9);
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

int guest_kernel_resolve(const char *kernel, const char *cache, struct kernel_image *k,
			 char *err, size_t errsz)
{
	size_t len = strlen(kernel);

	memset(k, 0, sizeof(*k));
	if (is_file(kernel)) {
		if (len > 4 && !strcmp(kernel + len - 4, ".deb"))
			return kernel_from_deb(kernel, cache, k, err, errsz);
		snprintf(k->vmlinuz, sizeof(k->vmlinuz), "%s", kernel);
		snprintf(k->bzimage, sizeof(k->bzimage), "%s", kernel);
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
	if (newest(debs, prefix, ".deb", deb, sizeof(deb))) {
		char *log = xasprintf("%s/apt-get-download.log", debs);
		char *argv[] = {"apt-get", "download", "-q", (char *)kernel, NULL};
		int status = run_tool(argv, debs, log, true);
		if (status != 0 || newest(debs, prefix, ".deb", deb, sizeof(deb))) {
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

/* Build the rig's own archive (without initrd:) at path. */
static int build_archive(const struct variant_run *vr, const struct kernel_image *k,
			 const char *agent_out, const char *path, char *err, size_t errsz)
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
	char *init = xasprintf("%s/bin/schedrig agent --out %s " GUEST_PLAN "\n%s", guest_init_head,
			       agent_out, guest_init_tail);
	initramfs_add_file(&ir, "/init", init, strlen(init), 0755);
	free(init);
	rc = initramfs_write(&ir, path, err, errsz);
out:
	argv_free(&tools);
	argv_free(&modules);
	initramfs_free(&ir);
	return rc;
}

int guest_initramfs_build(const struct variant_run *vr, const struct kernel_image *k,
			  const char *agent_out, const char *path, char *err, size_t errsz)
{
	if (build_archive(vr, k, agent_out, path, err, errsz))
		return -1;
	/* The kernel unpacks concatenated archives in order. */
	return vr->v->initrd ? file_copy(vr->v->initrd, path, true, err, errsz) : 0;
}

char *guest_cache_dir(const char *work_dir)
{
	const char *runs = strstr(work_dir, "/runs/");
	if (runs && !strchr(runs + 6, '/'))
		return xasprintf("%.*s/cache", (int)(runs - work_dir), work_dir);
	return xasprintf("%s/cache", work_dir);
}
