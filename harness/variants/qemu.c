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
 * kernel: a bzImage path, a linux-image .deb file or a Debian package name,
 * and the initramfs: guest_image.h (shared with boot: lava).
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
 * tools and files, and the kernel's config and BTF (guest_preflight).
 *
 * Failures of the variant (return -1): kernel not found or not fetched, a
 * tool missing, qemu not starting, a panic, the guest's init failing (a
 * scratch disk or /usr it cannot mount), a hang past timeout_s, the agent
 * failing or ending early. A panic is told by qemu's exit status (a pvpanic
 * device; -action panic=exit-failure: status 1 instead of the 0 that
 * -no-reboot gives after panic=-1) and by "Kernel panic" on the console,
 * each a failure even after the agent ended well. The console log stays in
 * the run directory (VARIANT-console.log) and err names it. qemu runs in its own process
 * group, is killed on every way out and reaped. */
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
#include "guest_image.h"
#include "guestdisk.h"
#include "guestpack.h"
#include "knob_journal.h"
#include "preflight.h"
#include "spawn.h"
#include "variant.h"

#define QEMU_BINARY "qemu-system-x86_64"
#define QEMU_KVM_PROBE_S 5.0

/* KVM verdict of this process: 0 unknown, 1 usable, -1 hangs or refused. */
static int kvm_state;

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
	char *console, *agent_virtio, *agent_serial, *qemu_log, *initramfs;
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

	argv_addl(&a, QEMU_BINARY, "-nodefaults", "-no-user-config", "-display", "none",
		  "-no-reboot", NULL);
	/* Threads named for what they run ("CPU 0/TCG"): the host CPU time of
	 * each vCPU is then readable in /proc (bench/guest-scale.sh). */
	argv_addl(&a, "-name", "schedrig,debug-threads=on", "-accel", kvm ? "kvm" : "tcg", "-cpu",
		  NULL);
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
		/* threads: 2 or more: qemu64 is an AMD family 15 CPU, whose
		 * SMT siblings Linux does not see (a 6.1 guest with -smp
		 * cpus=2,threads=2 reads 2 cores of one thread and SMT control
		 * notsupported, with +topoext too, and so with -cpu max); as an
		 * Intel CPU with CPUID leaf 0xb it reads one core of two
		 * threads, SMT control on. */
		argv_add(&a, v->threads > 1 ? "qemu64,+rdrand,vendor=GenuineIntel,level=0xb"
					    : "qemu64,+rdrand");
	}
	argv_add(&a, "-smp");
	if (v->threads > 1)
		argv_addf(&a, "cpus=%d,sockets=1,cores=%d,threads=%d", v->cpus, v->cpus / v->threads,
			  v->threads);
	else
		argv_addf(&a, "%d", v->cpus);
	argv_add(&a, "-m");
	argv_addf(&a, "%d", v->memory_mb);
	argv_addl(&a, "-kernel", k->vmlinuz, "-initrd", gf->initramfs, "-append", NULL);
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
	argv_addl(&a, "-device", "pvpanic-pci", "-action", "panic=exit-failure", "-device",
		  "virtio-serial-pci", "-chardev", NULL);
	argv_addf(&a, "file,id=agent,path=%s", e3);
	argv_addl(&a, "-device", "virtserialport,chardev=agent,name=schedrig.agent", NULL);
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
		argv_addl(&a, "-fsdev", "local,id=hostusr,path=/usr,security_model=none,readonly=on",
			  "-device", "virtio-9p-pci,fsdev=hostusr,mount_tag=" GUEST_HOST_USR_TAG, NULL);
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
	s = session_for(vr, &k, knob_host);
	/* What the loads need (a kernel tree a load prepares has its own
	 * lock, and so has the scratch disk), then, under the cache's lock,
	 * the kernel fetched, extracted and read (schedrig cache --clear
	 * waits for it). */
	if (guest_contents_prepare(vr->p, true, &gc, err, errsz) ||
	    (gc.scratch && guestdisk_image(&gc, cache, gf.disk, sizeof(gf.disk), err, errsz)))
		goto out;
	int lock = cache_lock(err, errsz);
	if (lock < 0)
		goto out;
	int prepared = guest_kernel_resolve(vr->v->kernel, cache, &k, err, errsz) ||
		       guest_initramfs_build(vr, &k, &gc, "auto", gf.initramfs, err, errsz);
	close(lock);
	if (prepared)
		goto out;
	gf.host_usr = gc.host_usr;

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

/* The host: setting key refused on v, at its key. */
static void refuse_setting(struct preflight *pf, const struct cfg_variant *v, const char *key,
			   const char *why)
{
	int line = 0, col = 0;
	cfg_host_key_at(&v->host_set, key, &line, &col);
	preflight_refuse_at(pf, line, col, v->name, "host: %s: %s", key, why);
}

/* host: settings a qemu guest cannot take: its virtual CPUs have no
 * frequency control, and SMT only with threads: 2 or more. */
static void host_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	const struct cfg_host *h = &v->host_set;
	if (h->governor)
		refuse_setting(pf, v, "governor", "a qemu guest has no cpufreq"
			       " (/sys/devices/system/cpu/cpufreq/policy* is missing there)");
	if (h->boost >= 0)
		refuse_setting(pf, v, "boost", "a qemu guest has neither"
			       " /sys/devices/system/cpu/cpufreq/boost nor"
			       " /sys/devices/system/cpu/intel_pstate/no_turbo");
	if (h->smt >= 0 && v->threads < 2)
		refuse_setting(pf, v, "smt", "the guest has one thread per core (threads: 1), so"
			       " /sys/devices/system/cpu/smt/control reads notsupported there; give"
			       " the variant threads: 2");
}

/* Before anything runs: what the guest gets packed (the scratch disk and
 * this machine's /usr included), what its kernel supports, and the host:
 * settings it can take. */
static void qemu_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	guest_preflight(pf, v, true);
	host_preflight(pf, v);
}

const struct variant_backend qemu_backend = {
	.name = "qemu",
	.run = qemu_run,
	.preflight = qemu_preflight,
};
