/* The guest's init (agent_init.h). */
#include "agent_init.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_run.h"
#include "guest_layout.h"
#include "util.h"

#define INIT_PATH GUEST_TOOLS ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
#define HOST_USR_OPTIONS "trans=virtio,version=9p2000.L,cache=loose,msize=262144"
#define SCRATCH_DEVICE "/dev/vda"
#define SCRATCH_WAIT_S 10

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void __attribute__((noreturn)) power_off(void)
{
	fflush(NULL);
	sync();
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The file systems every guest has; cgroup2 and debugfs when the kernel
 * has them. */
static void mount_basics(void)
{
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	static const char *const tmp[] = {"/dev/shm", "/tmp"};
	for (size_t i = 0; i < 2; i++) {
		mkdir(tmp[i], 01777);
		mount("tmpfs", tmp[i], "tmpfs", 0, NULL);
		chmod(tmp[i], 01777);
	}
}

/* Loopback up (SIOCSIFFLAGS, as ip link set lo up), the hostname, and the
 * file-descriptor limit the loads inherit. */
static void set_up_machine(void)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (fd >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	if (fd >= 0)
		close(fd);
	sethostname("localhost", strlen("localhost"));
	struct rlimit big = {1048576, 1048576}, less = {65536, 65536};
	if (setrlimit(RLIMIT_NOFILE, &big))
		setrlimit(RLIMIT_NOFILE, &less);
	setenv("PATH", INIT_PATH, 1);
}

/* GUEST_MODULES's modules, in order; failures ignored. */
static void load_modules(void)
{
	char line[4096];
	FILE *f = fopen(GUEST_MODULES, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		int fd = open(line, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			syscall(SYS_finit_module, fd, "", 0);
			close(fd);
		}
	}
	if (f)
		fclose(f);
}

static void __attribute__((noreturn)) init_failed(const char *what)
{
	say(GUEST_INIT_ERROR "%s: %s", what, strerror(errno));
	power_off();
}

/* This machine's /usr and the scratch disk, when the rig marked them. */
static void mount_marked(void)
{
	if (exists(GUEST_HOST_USR_MARK) &&
	    mount(GUEST_HOST_USR_TAG, "/usr", "9p", MS_RDONLY, HOST_USR_OPTIONS))
		init_failed("cannot mount the host's /usr (virtio-9p " GUEST_HOST_USR_TAG ")");
	if (!exists(GUEST_SCRATCH_MARK))
		return;
	struct stat st;
	for (int i = 0; i < SCRATCH_WAIT_S * 10 && !(stat(SCRATCH_DEVICE, &st) == 0 &&
						    S_ISBLK(st.st_mode)); i++)
		nanosleep(&(struct timespec){0, 100000000}, NULL);
	mkdir(GUEST_SCRATCH, 0755);
	if (mount(SCRATCH_DEVICE, GUEST_SCRATCH, "ext4", 0, "noinit_itable"))
		init_failed("cannot mount the scratch disk " SCRATCH_DEVICE " on " GUEST_SCRATCH);
	mkdir(GUEST_SCRATCH "/tmp", 01777);
	chmod(GUEST_SCRATCH "/tmp", 01777);
	setenv("TMPDIR", GUEST_SCRATCH "/tmp", 1);
	if (chdir(GUEST_SCRATCH))
		init_failed("cannot enter " GUEST_SCRATCH);
}

/* init= on the kernel command line: that program instead, as a
 * distribution's initramfs runs it. Returns when there is none. */
static void other_init(void)
{
	struct buf cmdline = {0};
	if (buf_read_file(&cmdline, "/proc/cmdline", 65536))
		return;
	char *save = NULL;
	for (char *w = strtok_r(cmdline.data, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(w, "init=", 5))
			continue;
		say("schedrig-init: exec %s", w + 5);
		execv(w + 5, (char *[]){w + 5, NULL});
		_exit(1);
	}
	buf_free(&cmdline);
}

/* The agent as a child on the plan; every child reaped until it ends.
 * Its exit status, 128+N when signal N killed it. */
static int run_agent(void)
{
	struct buf out = {0};
	if (buf_read_file(&out, GUEST_AGENT_OUT, 4096) || !out.len)
		buf_puts(&out, "/dev/console");
	char *nl = strchr(out.data, '\n');
	if (nl)
		*nl = '\0';
	fflush(NULL);
	pid_t agent = fork();
	if (agent == 0) {
		char *argv[] = {"agent", "--out", out.data, GUEST_PLAN, NULL};
		_exit(agent_command("schedrig-agent", 4, argv));
	}
	buf_free(&out);
	if (agent < 0)
		return 1;
	int status = 0;
	for (;;) {
		pid_t p = wait(&status);
		if (p == agent)
			break;
		if (p < 0 && errno != EINTR)
			return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void agent_init(void)
{
	mount_basics();
	set_up_machine();
	load_modules();
	mount_marked();
	other_init();
	say(GUEST_INIT_START);
	int status = run_agent();
	say(GUEST_INIT_EXIT " %d", status);
	power_off();
}
